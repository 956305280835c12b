"""OpenSpiel's own bots as arbiter agents (docs/protocol.md), on the games of
openspiel_game.py: compare arbiter's algorithms with OpenSpiel's on the same games, seeds
and budgets.

Options (agents/openspiel.toml declares one agent per bot):
  bot = "mcts" (OpenSpiel's MCTSBot with random rollouts; `simulations` (default 1000),
        `uct_c` (default 2), `rollouts` per leaf (default 1), `solve` (default false)),
        "alphabeta" (OpenSpiel's alpha_beta_search to `depth` plies (default 4), a position
        not finished there worth 0: the counterpart of arbiter's `outcome` heuristic), or
        "random" (its UniformRandomBot).
Every bot draws its random numbers from the game's seed, so a game replays exactly.
The moves it answers are the bridge's (openspiel_game.py), so both sides agree on notation.
"""

import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import arbiter_agent  # noqa: E402
import openspiel_game  # noqa: E402

from open_spiel.python.algorithms import mcts, minimax  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

bridges = {}


def bridge_for(spec):
    """The bridge of a game spec such as `openspiel(name=hex,board_size=7)`."""
    if spec not in bridges:
        match = re.fullmatch(r"[^()]*\((.*)\)", spec.strip())
        params = dict(p.split("=", 1) for p in match.group(1).split(",") if p) if match else {}
        bridges[spec] = openspiel_game.Bridge(params)
    return bridges[spec]


def choose(request):
    game = request.game
    bridge = bridge_for(game.spec)
    state = bridge.state(request.position["position"])
    options = game.options
    bot = options.get("bot", "mcts")
    rng = np.random.RandomState(game.seed % (2 ** 32) + len(request.moves))
    player = state.current_player()
    info = {}
    if bot == "mcts":
        evaluator = mcts.RandomRolloutEvaluator(int(options.get("rollouts", 1)), rng)
        searcher = mcts.MCTSBot(bridge.game, float(options.get("uct_c", 2.0)),
                                int(options.get("simulations", 1000)), evaluator,
                                solve=bool(options.get("solve", False)), random_state=rng)
        action = searcher.step(state)
    elif bot == "alphabeta":
        depth = int(options.get("depth", 4))
        value, action = minimax.alpha_beta_search(bridge.game, state.clone(), lambda s: 0.0, depth, player)
        info = {"depth": depth, "score": value}
    elif bot == "random":
        action = uniform_random.UniformRandomBot(player, rng).step(state)
    else:
        raise ValueError("bot must be mcts, alphabeta or random (got %r)" % bot)
    for text, legal_action in bridge.moves(state):
        if legal_action == action:
            return (text, info) if info else text
    raise ValueError("OpenSpiel's bot chose action %d, not legal here" % action)


if __name__ == "__main__":
    arbiter_agent.run(choose, name="openspiel bots")
