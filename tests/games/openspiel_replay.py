"""Replays games recorded by arbiter's built-in Breakthrough or Connect Four in OpenSpiel,
for tests/openspiel.rs: `openspiel_replay.py GAME GAMES_CSV` (GAME: OpenSpiel's name).

Every move (arbiter's notation) must be one of OpenSpiel's legal moves at its ply, as
clients/python/openspiel_game.py maps them, and OpenSpiel's game must end exactly where
arbiter's did, with the same winner. Prints one line per game: `id winner plies`, or
`id MISMATCH why`.
"""

import csv
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../clients/python"))
import openspiel_game  # noqa: E402

bridge = openspiel_game.Bridge({"name": sys.argv[1], "notation": "arbiter"})
for game in csv.DictReader(open(sys.argv[2])):
    state = bridge.game.new_initial_state()
    moves = [m for m in game["moves"].split(";") if m]
    why = None
    for ply, move in enumerate(moves):
        if state.is_terminal():
            why = "OpenSpiel's game ended at ply %d" % ply
            break
        actions = {text: action for text, action in bridge.moves(state)}
        if move not in actions:
            why = "ply %d: %s is not legal in OpenSpiel (legal: %s)" % (ply + 1, move, ", ".join(sorted(actions)))
            break
        state = state.child(actions[move])
    if why is None and not state.is_terminal():
        why = "OpenSpiel's game goes on after ply %d" % len(moves)
    if why:
        print(game["game_id"], "MISMATCH", why)
    else:
        print(game["game_id"], bridge.status_of(state)["winner"] or "draw", len(moves))
