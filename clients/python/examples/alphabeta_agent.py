"""An iterative-deepening alpha-beta player for every arbiter game, within the deadline.

It searches depth 1, 2, 3, ... (the previous iteration's best move first, then each
rules module's move order) and plays the best move of the deepest iteration it finished
before the deadline, or the best so far of an unfinished one (whose first move is the
previous best, so it is no worse). With no time limit it searches `depth` plies at once
(option `depth`, default 3; `arbiter compare` sets it). Nodes (expanded nodes, counted as
arbiter counts them) and depth go to arbiter in `info`.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import arbiter_agent  # noqa: E402
import rules  # noqa: E402

WIN = 10**6
INFINITY = 10**9


class OutOfTime(Exception):
    pass


def search(game, request, state, depth, alpha, beta, counter):
    """The value of `state` for the side to move (negamax with alpha-beta). `counter`
    counts expanded nodes (whose moves were generated), as arbiter counts them."""
    if request.out_of_time():
        raise OutOfTime
    side = game.to_move(state)
    done = game.winner(state)
    if done is not None:
        return 0 if done == 0 else (WIN + depth if done == side else -WIN - depth)
    if depth == 0:
        return game.evaluate(state, side)
    counter[0] += 1
    moves = game.moves(state)
    if not moves:
        return -WIN - depth if game.NO_MOVES == "loss" else 0
    moves.sort(key=lambda move: game.order(state, move))
    best = -INFINITY
    for move in moves:
        value = -search(game, request, game.play(state, move), depth - 1, -beta, -alpha, counter)
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


def choose(request):
    game, state, moves = rules.root(request)
    order = sorted(zip(request.legal, moves), key=lambda pair: game.order(state, pair[1]))
    limit = 3 if request.deadline is None else 64
    max_depth = int(request.options.get("depth", limit))
    # Without a deadline, straight to the full depth (as arbiter's fixed-depth searches).
    first = 1 if request.deadline is not None else max_depth
    chosen, chosen_value, reached, counter = order[0][0], None, 0, [0]
    for depth in range(first, max_depth + 1):
        counter[0] += 1  # the root
        best, best_value = None, -INFINITY
        try:
            for text, move in order:
                child = game.play(state, move)
                value = -search(game, request, child, depth - 1, -INFINITY, -best_value, counter)
                if value > best_value:
                    best, best_value = (text, move), value
        except OutOfTime:
            if best is not None:  # the previous best was searched first: best is no worse
                chosen, chosen_value = best[0], best_value
            break
        chosen, chosen_value, reached = best[0], best_value, depth
        order.remove(best)
        order.insert(0, best)
        if abs(best_value) >= WIN or request.time_left() == 0.0:
            break
    return chosen, {"depth": reached, "nodes": counter[0], "score": chosen_value}


if __name__ == "__main__":
    arbiter_agent.run(choose, name="python alphabeta")
