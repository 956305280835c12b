"""What a Python agent costs per move: in-process (a callable) against the subprocess
protocol (the same choice in a program using arbiter_agent.py), on the same games.

    python clients/python/benchmarks/agent_overhead.py [--games 200] [--rounds 5] [--keep]

Both agents pick `rng.choice(legal)` with the generator arbiter seeds per game, so the two
runs play the very same games (checked). Per move, arbiter's own `ms` of each of the
agent's moves (request to reply, as moves.csv records it); per run, the wall time. Rounds
alternate the two ways; the figures are medians over rounds, with the spread. The runs'
folders go to a scratch folder that is removed at the end, unless --keep names it.
"""

import argparse
import pathlib
import statistics
import sys
import time

import arbiter
from scratch import add_keep_option, scratch_folder

HELPERS = pathlib.Path(__file__).resolve().parents[1]

PROGRAM = f"""
import sys
sys.path.insert(0, {str(HELPERS)!r})
import arbiter_agent
arbiter_agent.run(lambda request: request.game.rng.choice(request.legal), name="chooser")
"""


def chooser(position, legal, info):
    return info.rng.choice(legal)


def one_run(way, games, folder, agents):
    started = time.perf_counter()
    run = arbiter.match("random", "chooser", game="breakthrough", games=games, threads=1,
                        seed=11, out=folder, agents=agents, progress=False,
                        python_agents={"chooser": chooser} if way == "in-process" else None)
    wall = time.perf_counter() - started
    moves = run.moves[run.moves["agent"] == "chooser"]
    return run, wall, float(moves["ms"].median()), len(moves)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    add_keep_option(parser)
    args = parser.parse_args()
    with scratch_folder("arbiter-overhead-", args.keep) as folder:
        return measure(args, folder)


def measure(args, scratch):
    (scratch / "chooser.py").write_text(PROGRAM)
    agents = scratch / "agents"
    agents.mkdir()
    (agents / "chooser.toml").write_text(
        f'[[agent]]\nname = "chooser"\ncommand = [{sys.executable!r}, "chooser.py"]\ncwd = ".."\n'
    )
    empty = scratch / "no-agents"
    empty.mkdir()
    figures = {"in-process": [], "subprocess": []}
    games = {}
    for round_ in range(args.rounds):
        for way in ("in-process", "subprocess"):
            folder = scratch / f"{way}-{round_}"
            run, wall, median_ms, moves = one_run(
                way, args.games, folder, empty if way == "in-process" else agents
            )
            figures[way].append((wall, median_ms, moves))
            games[way] = run.games[["winner", "plies", "moves"]].reset_index(drop=True)
    same = games["in-process"].equals(games["subprocess"])
    print(f"{args.games} games of Breakthrough against random, 1 thread, {args.rounds} rounds "
          f"(same games both ways: {'yes' if same else 'NO'})")
    for way, rows in figures.items():
        walls = [w for w, _, _ in rows]
        per_move = [m for _, m, _ in rows]
        moves = rows[0][2]
        print(f"  {way:<10}  per move (arbiter's ms, median of medians) {statistics.median(per_move) * 1000:7.1f} us"
              f"  [{min(per_move) * 1000:.1f} .. {max(per_move) * 1000:.1f}]"
              f"   run {statistics.median(walls):6.2f} s for {moves} agent moves"
              f"  [{min(walls):.2f} .. {max(walls):.2f}]")
    ratio = statistics.median(m for _, m, _ in figures["subprocess"]) / statistics.median(
        m for _, m, _ in figures["in-process"])
    print(f"  subprocess / in-process per move: {ratio:.1f}x")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
