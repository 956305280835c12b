"""OpenSpiel's own bots as arbiter agents (docs/protocol.md), on the games of
openspiel_game.py: compare arbiter's algorithms with OpenSpiel's on the same games, seeds
and budgets.

Options (agents/openspiel.toml declares one agent per bot):
  bot = "mcts" (OpenSpiel's MCTSBot with random rollouts; `simulations` (default 1000),
        `uct_c` (default 2), `rollouts` per leaf (default 1), `solve` (default false)),
        "alphabeta" (OpenSpiel's alpha_beta_search to `depth` plies (default 4), a position
        not finished there worth 0: the counterpart of arbiter's `outcome` heuristic), or
        "random" (its UniformRandomBot), or, for a game with hidden information (poker),
        "cfr" (counterfactual regret minimisation, OpenSpiel's CFRSolver run for
        `iterations` (default 300) when the game is first met; each move drawn from its
        average policy at the information state the agent is told).
On a game with hidden information an agent is told only what it observes (OpenSpiel's
information state string): "cfr" and "random" play there, "mcts" and "alphabeta", which
need the whole state, refuse.
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
import pyspiel  # noqa: E402

from open_spiel.python.algorithms import mcts, minimax  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

bridges = {}
solvers = {}


def cfr_for(bridge, iterations):
    """CFR's average policy for the bridge's game, with the game's information states: each
    one's key to a state in it (where its legal moves can be read)."""
    key = (str(bridge.game), iterations)
    if key not in solvers:
        from open_spiel.python import policy as policy_lib
        solver = pyspiel.CFRSolver(bridge.game)
        for _ in range(iterations):
            solver.evaluate_and_update_policy()
        table = policy_lib.TabularPolicy(bridge.game)
        # The average policy reads the solver's tables: the solver is kept with it.
        solvers[key] = (solver.average_policy(), table, solver)
    return solvers[key][:2]


def choose_unseen(request, bridge, bot, rng):
    """A move in a game with hidden information, from the observation alone."""
    observation = request.position.get("observation", "")
    if bot == "random":
        return request.legal[rng.randint(len(request.legal))]
    if bot != "cfr":
        raise ValueError("OpenSpiel's %s bot needs the whole state, hidden in %s: use bot = \"cfr\" or \"random\""
                         % (bot, bridge.name))
    average, table = cfr_for(bridge, int(request.game.options.get("iterations", 300)))
    if observation not in table.state_lookup:
        raise ValueError("information state %r is not one of the game's" % observation)
    state = table.states[table.state_lookup[observation]]
    chances = dict(average.get_state_policy(state))
    pairs = bridge.moves(state)
    weights = np.array([max(chances.get(action, 0.0), 0.0) for _, action in pairs])
    weights = weights / weights.sum() if weights.sum() > 0 else np.full(len(pairs), 1.0 / len(pairs))
    text = pairs[rng.choice(len(pairs), p=weights)][0]
    return text, {"score": float(weights.max())}


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
    options = game.options
    bot = options.get("bot", "mcts")
    rng = np.random.RandomState((game.seed % (2 ** 32) + request.ply) % (2 ** 32))
    if bridge.hidden:
        return choose_unseen(request, bridge, bot, rng)
    state = bridge.state(request.position["position"])
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
