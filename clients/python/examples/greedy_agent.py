"""A greedy Breakthrough player: the move whose position scores best (material and
advancement), a winning move first; ties broken by the game's seeded random generator."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import arbiter_agent  # noqa: E402
import breakthrough as bt  # noqa: E402


def choose(request):
    board, side = bt.from_json(request.position)
    best, best_score = [], None
    for text in request.legal:
        child = bt.play(board, bt.parse(text))
        score = 10**6 if bt.winner(child) == side else bt.evaluate(child, side)
        if best_score is None or score > best_score:
            best, best_score = [text], score
        elif score == best_score:
            best.append(text)
    return request.game.rng.choice(best), {"depth": 1, "nodes": len(request.legal), "score": best_score}


if __name__ == "__main__":
    arbiter_agent.run(choose, name="python greedy")
