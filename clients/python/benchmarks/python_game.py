"""What a game written in Python costs a search: alpha-beta on the built-in Connect Four
against the same game as a Python class played in-process (`python_games=`), and the same
class served as a rules program through a pipe (clients/python/arbiter_game.py), on the
same positions with the same node counts.

    python clients/python/benchmarks/python_game.py [--depth 5] [--positions 10]
        [--rounds 5] [--no-program] [--keep]

The class (clients/python/examples/connect_four_class.py) lists its moves in the built-in
order and its `evaluate` is the built-in `windows` heuristic at its defaults, so each
way searches the very same trees (checked: the positions' node counts, moves and values
must be equal). `arbiter compare` times each search (`ms` of search.csv, a monotonic
clock, one thread); rounds alternate the ways, and the figures are medians over rounds
with the spread.
"""

import argparse
import pathlib
import statistics
import sys

import arbiter
from scratch import add_keep_option, scratch_folder

HERE = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE / "examples"))
from connect_four_class import ConnectFour  # noqa: E402

PROGRAM = f"""
import sys
sys.path[:0] = [{str(HERE)!r}, {str(HERE / "examples")!r}]
import arbiter_game
from connect_four_class import ConnectFour
arbiter_game.serve(ConnectFour)
"""


def one_search(way, args, folder, agents):
    game, heuristic, games = {
        "built in": ("connect-four", "windows", None),
        "in-process": ("c4", "program", {"c4": ConnectFour}),
        "program": ("c4-program", "program", None),
    }[way]
    run = arbiter.compare(game, heuristic=heuristic, algorithms="alphabeta",
                          depths=str(args.depth), positions=args.positions, seed=3, threads=1,
                          out=folder, agents=agents, python_games=games, progress=False)
    return run.search


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--no-program", action="store_true",
                        help="leave out the rules program (the slowest way)")
    add_keep_option(parser)
    args = parser.parse_args()
    with scratch_folder("arbiter-python-game-", args.keep) as folder:
        return measure(args, folder)


def measure(args, scratch):
    (scratch / "c4_program.py").write_text(PROGRAM)
    agents = scratch / "agents"
    agents.mkdir()
    (agents / "games.toml").write_text(
        f'[[game]]\nname = "c4-program"\ncommand = [{sys.executable!r}, "c4_program.py"]\n'
        'cwd = ".."\n'
    )
    ways = ["built in", "in-process"] + ([] if args.no_program else ["program"])
    times = {way: [] for way in ways}
    reference = None
    for round_ in range(args.rounds):
        for way in ways:
            search = one_search(way, args, scratch / f"{way}-{round_}".replace(" ", "-"), agents)
            trees = search[["position", "move", "value", "generated"]].to_dict("records")
            if reference is None:
                reference = trees
                nodes = int(search["generated"].sum())
            elif trees != reference:
                print(f"{way}: NOT the same trees as the built-in game", file=sys.stderr)
                return 1
            times[way].append(float(search["ms"].sum()))
    built_in = statistics.median(times["built in"])
    print(f"alphabeta depth {args.depth}, {args.positions} Connect Four positions, "
          f"{nodes} nodes generated each way (the same trees), one thread, "
          f"medians of {args.rounds} rounds in turn:")
    for way in ways:
        median = statistics.median(times[way])
        print(f"  {way:>10}: {median:10.2f} ms [{min(times[way]):.2f} .. {max(times[way]):.2f}]"
              f"  {nodes / median * 1000:10.3g} nodes/s  {median / built_in:7.1f}x the built-in time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
