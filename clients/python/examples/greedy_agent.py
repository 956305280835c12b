"""A greedy player for every arbiter game: the move whose position scores best for it
(a winning move first), ties broken by the game's seeded random generator. The scores
are each rules module's `evaluate` (rules.py)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import arbiter_agent  # noqa: E402
import rules  # noqa: E402

WIN = 10**6


def choose(request):
    game, state, moves = rules.root(request)
    side = game.to_move(state)
    best, best_score = [], None
    for text, move in zip(request.legal, moves):
        child = game.play(state, move)
        done = game.winner(child)
        if done is None:
            score = game.evaluate(child, side)
        else:
            score = WIN if done == side else (0 if done == 0 else -WIN)
        if best_score is None or score > best_score:
            best, best_score = [text], score
        elif score == best_score:
            best.append(text)
    return request.game.rng.choice(best), {"depth": 1, "nodes": len(moves), "score": best_score}


if __name__ == "__main__":
    arbiter_agent.run(choose, name="python greedy")
