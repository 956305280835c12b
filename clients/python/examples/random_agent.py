"""A uniformly random player for every arbiter game, seeded by the game's seed."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import arbiter_agent  # noqa: E402


def choose(request):
    return request.game.rng.choice(request.legal)


if __name__ == "__main__":
    arbiter_agent.run(choose, name="python random")
