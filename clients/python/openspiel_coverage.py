"""Which of OpenSpiel's games arbiter plays through the bridge (openspiel_game.py), and why
not the others: `openspiel_coverage.py` prints a markdown table, one row a game that
OpenSpiel loads with its default parameters, with `served` or the bridge's reason.
docs/games.md holds its output (OpenSpiel 2.0.2); run it again after a change to the bridge
or to OpenSpiel.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import openspiel_game  # noqa: E402
import pyspiel  # noqa: E402


def main():
    rows, served = [], 0
    for game in sorted(pyspiel.registered_games(), key=lambda g: g.short_name):
        name = game.short_name
        try:
            pyspiel.load_game(name)
        except Exception:  # needs parameters or another game to wrap: not counted
            continue
        try:
            bridge = openspiel_game.Bridge({"name": name})
            why = "served" if bridge.samples or not bridge.hidden else "served; ismcts cannot draw its positions"
            served += 1
        except ValueError as error:
            why = str(error).split(": ", 1)[-1].split(" (arbiter plays")[0]
        rows.append((name, why))
    print("%d of the %d games OpenSpiel %s loads with its defaults are served.\n"
          % (served, len(rows), getattr(pyspiel, "__version__", "")))
    print("| game | through the bridge |")
    print("| --- | --- |")
    for name, why in rows:
        print("| `%s` | %s |" % (name, why))


if __name__ == "__main__":
    main()
