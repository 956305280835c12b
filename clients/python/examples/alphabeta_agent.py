"""An iterative-deepening alpha-beta Breakthrough player that respects the deadline.

It searches depth 1, 2, 3, ... (captures first, the previous iteration's best move first)
and plays the best move of the deepest iteration it finished before the deadline; with no
time limit it stops after `depth` plies (option `depth`, default 3). Nodes and depth are
reported in `info`.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import arbiter_agent  # noqa: E402
import breakthrough as bt  # noqa: E402

WIN = 10**6


class OutOfTime(Exception):
    pass


def search(request, board, side, depth, alpha, beta, counter):
    counter[0] += 1
    if counter[0] % 512 == 0 and request.out_of_time():
        raise OutOfTime
    done = bt.winner(board)
    if done:
        return WIN + depth if done == side else -WIN - depth
    if depth == 0:
        return bt.evaluate(board, side)
    moves = bt.moves(board, side)
    if not moves:
        return -WIN
    moves.sort(key=lambda m: not m[2])
    best = -10**9
    for move in moves:
        value = -search(request, bt.play(board, move), 3 - side, depth - 1, -beta, -alpha, counter)
        if value > best:
            best = value
        if value > alpha:
            alpha = value
        if alpha >= beta:
            break
    return best


def choose(request):
    board, side = bt.from_json(request.position)
    legal = list(request.legal)
    request.game.rng.shuffle(legal)
    max_depth = int(request.options.get("depth", 3 if request.deadline is None else 64))
    chosen, chosen_value, reached, counter = legal[0], None, 0, [0]
    for depth in range(1, max_depth + 1):
        try:
            best, best_value, alpha = None, None, -10**9
            for text in legal:
                child = bt.play(board, bt.parse(text))
                value = -search(request, child, 3 - side, depth - 1, -10**9, -alpha, counter)
                if best_value is None or value > best_value:
                    best, best_value = text, value
                alpha = max(alpha, value)
        except OutOfTime:
            break
        chosen, chosen_value, reached = best, best_value, depth
        legal.remove(best)
        legal.insert(0, best)
        if abs(best_value) >= WIN or request.time_left() == 0.0:
            break
    return chosen, {"depth": reached, "nodes": counter[0], "score": chosen_value}


if __name__ == "__main__":
    arbiter_agent.run(choose, name="python alphabeta")
