"""The Python package against the command line: every API function, the same files as
`arbiter` for the same experiment, Python agents in-process, Ctrl-C and resume, errors.

Run from anywhere after `pip install ./clients/python`; the command line's binary is
$ARBITER_BIN, else the repository's target/release or target/debug build (`cargo build`).
"""

import csv
import io
import json
import os
import pathlib
import subprocess
import sys
import signal
import threading
import time
import _thread

import pytest

import arbiter

ROOT = pathlib.Path(__file__).resolve().parents[3]


def cli_binary():
    given = os.environ.get("ARBITER_BIN")
    candidates = [pathlib.Path(given)] if given else [
        ROOT / "target" / "release" / "arbiter",
        ROOT / "target" / "debug" / "arbiter",
    ]
    for path in candidates:
        if path.is_file():
            return path
    pytest.skip(
        "SKIPPED LOUDLY: no arbiter binary to compare with: build it with `cargo build` "
        "(or set ARBITER_BIN)"
    )


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    """Experiments name their files relative to the repository's root."""
    monkeypatch.chdir(ROOT)


def cli(*words, check=True):
    done = subprocess.run(
        [str(cli_binary()), *map(str, words)], capture_output=True, text=True, cwd=ROOT
    )
    if check:
        assert done.returncode == 0, done.stderr
    return done


def rows_without_timing(path, timing):
    """A CSV file's rows with the timing columns blanked (they differ run to run)."""
    text = path.read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return rows
    drop = [i for i, name in enumerate(rows[0]) if name in timing]
    return [[("" if i in drop else cell) for i, cell in enumerate(row)] for row in rows]


def assert_same_files(ours, theirs):
    """Two run folders hold the same files, equal apart from the timing columns: CSV
    files cell by cell, games.pgn byte for byte, meta.json but for time and host."""
    ours, theirs = pathlib.Path(ours), pathlib.Path(theirs)
    meta = json.loads((theirs / "meta.json").read_text())
    timing = set(meta.get("timing_columns", [])) | {"ms", "cpu_ms"}
    names = sorted(p.name for p in theirs.iterdir() if p.is_file())
    assert sorted(p.name for p in ours.iterdir() if p.is_file()) == names
    compared = 0
    for name in names:
        if name.endswith(".csv"):
            assert rows_without_timing(ours / name, timing) == rows_without_timing(
                theirs / name, timing
            ), name
            compared += 1
        elif name == "games.pgn":
            assert (ours / name).read_bytes() == (theirs / name).read_bytes(), name
            compared += 1
    mine = json.loads((ours / "meta.json").read_text())
    for key in ("started_unix", "ended_unix", "host", "threads", "experiment_file"):
        mine.pop(key, None)
        meta.pop(key, None)
    assert mine == meta
    assert compared >= 1


# --- listing and perft ---------------------------------------------------------------

def test_perft_counts_the_legal_move_tree():
    # Breakthrough 8x8: 22 first moves, 22 replies to each, 11,132 leaves at depth 3
    # (the perft table in tests/golden/perft.csv).
    assert arbiter.perft("breakthrough", 3) == [22, 484, 11132]
    assert arbiter.perft("connect-four", 2) == [7, 49]
    with pytest.raises(arbiter.ArbiterError, match="from 1 to 12"):
        arbiter.perft("breakthrough", 13)


def test_games_and_agents_are_listed():
    games = arbiter.games()
    assert {"breakthrough", "connect-four", "othello", "double-card"} <= set(games["name"])
    assert list(games.columns) == ["name", "kind", "params", "heuristics", "description"]
    agents = arbiter.agents(ROOT / "agents")
    row = agents[agents["name"] == "ab4-offensive2"]
    assert len(row) == 1 and row["kind"].iloc[0] == "built-in"
    assert "alphabeta" in row["spec"].iloc[0]


# --- the same files as the command line --------------------------------------------

def test_a_game_run_writes_the_command_lines_files(tmp_path):
    run = arbiter.run("matchups/quick.toml", games=4, seed=3, out=tmp_path / "py", progress=False)
    cli("run", "matchups/quick.toml", "--games", 4, "--seed", 3, "--out", tmp_path / "cli", "--quiet")
    assert_same_files(tmp_path / "py", tmp_path / "cli")
    # The data frames are the files, with the documented dtypes.
    assert len(run.games) == 24 and run.complete and run.exit_code == 0
    assert str(run.games["seed"].dtype) == "uint64"
    assert str(run.games["opening"].dtype) == "string"
    assert str(run.moves["fault"].dtype) == "string"
    assert str(run.moves["cpu_ms"].dtype) == "float64"
    assert run.summary["wins"].sum() + run.summary["draws"].sum() / 2 == pytest.approx(24)
    assert run.games.groupby("reason").size().sum() == 24


def test_an_experiment_as_a_dict_is_the_file(tmp_path):
    experiment = {
        "name": "quick",
        "description": "Smoke test: a small round robin of random, greedy, minimax and alpha-beta",
        "game": "breakthrough",
        "games": 2,
        "seed": 5,
        "round_robin": ["random", "greedy(heuristic=offensive2)", "alphabeta(heuristic=offense,depth=2)"],
    }
    run = arbiter.run(experiment, out=tmp_path / "dict", progress=False)
    text = "".join(f"{k} = {json.dumps(v)}\n" for k, v in experiment.items() if k != "name")
    (tmp_path / "quick.toml").write_text(text)
    cli("run", tmp_path / "quick.toml", "--out", tmp_path / "file", "--quiet")
    timing = {"p1_avg_ms", "p2_avg_ms", "avg_ms_per_move"}
    for name in ("games.csv", "summary.csv"):
        assert rows_without_timing(tmp_path / "dict" / name, timing) == rows_without_timing(
            tmp_path / "file" / name, timing
        ), name
    assert (tmp_path / "dict" / "games.pgn").read_text() == (tmp_path / "file" / "games.pgn").read_text()
    assert len(run.games) == 6
    with pytest.raises(arbiter.ArbiterError, match="'seed' is None"):
        arbiter.run({"game": "breakthrough", "seed": None}, progress=False)


def test_a_search_comparison_writes_the_command_lines_files(tmp_path):
    options = dict(heuristic="offensive2", algorithms="minimax,alphabeta", depths="1..2", positions=4, seed=2)
    run = arbiter.compare("breakthrough", out=tmp_path / "py", progress=False, **options)
    words = []
    for key, value in options.items():
        words += [f"--{key}", value]
    cli("compare", "breakthrough", *words, "--out", tmp_path / "cli", "--quiet")
    assert_same_files(tmp_path / "py", tmp_path / "cli")
    table = run.search_summary
    minimax = table[(table["algorithm"] == "minimax") & (table["depth"] == 2)]
    alphabeta = table[(table["algorithm"] == "alphabeta") & (table["depth"] == 2)]
    # Alpha-beta finds minimax's values with no more nodes.
    assert float(alphabeta["mean_expanded"].iloc[0]) <= float(minimax["mean_expanded"].iloc[0])
    assert float(alphabeta["same_value"].iloc[0]) == 1.0
    assert set(run.search_levels.columns) >= {"position", "algorithm", "depth", "level", "nodes"}


def test_a_puzzle_run_writes_the_command_lines_files(tmp_path):
    run = arbiter.run("matchups/puzzles-quick.toml", out=tmp_path / "py", progress=False)
    cli("run", "matchups/puzzles-quick.toml", "--out", tmp_path / "cli", "--quiet")
    assert_same_files(tmp_path / "py", tmp_path / "cli")
    assert (run.solves["status"] == "solved").all()


def test_solve_returns_what_the_command_line_prints():
    puzzle = "matchups/puzzles/flow/input55.txt"
    solution = arbiter.solve(puzzle, solver="sat")
    printed = cli("solve", puzzle, "--solver", "sat").stdout
    assert solution.status == "solved" and solution.solver == "sat"
    assert solution.assignments > 0 and solution.ms > 0
    without_time = lambda text: [l for l in text.splitlines() if not l.startswith("ms:")]
    assert without_time(solution.text) == without_time(printed)
    assert solution.solution in printed
    with pytest.raises(arbiter.ArbiterError, match="--solver"):
        arbiter.solve(puzzle, solver="quantum")


def test_load_reads_a_results_folder(tmp_path):
    run = arbiter.run("matchups/quick.toml", games=2, out=tmp_path / "r", progress=False)
    again = arbiter.load(tmp_path / "r")
    assert again.games.equals(run.games)
    assert again.meta["experiment"] == "quick"
    assert "matchup 0" in again.tables
    page = again._repr_html_()
    assert "<table" in page and "data:image/png;base64," in page
    assert len(again.plot("winrate_matrix")) == 1
    with pytest.raises(arbiter.ArbiterError, match="no chart nope"):
        again.plot("nope")
    viewer = again.viewer(0)
    assert viewer.path.name == "game-0.html" and "<iframe srcdoc=" in viewer._repr_html_()
    # An experiment folder stands for its newest run; an empty folder is none.
    assert arbiter.load(tmp_path).folder == tmp_path / "r"
    (tmp_path / "empty").mkdir()
    with pytest.raises(arbiter.ArbiterError, match="empty"):
        arbiter.load(tmp_path / "empty")


# --- Python agents -----------------------------------------------------------------

def seeded_random(position, legal, info):
    """A Python agent: a random legal move from the game's own seeded generator."""
    return info.rng.choice(legal)


class Counting:
    """The class form: one object per worker, told of each new game."""

    def __init__(self):
        self.games = 0

    def new_game(self, info):
        self.games += 1

    def __call__(self, position, legal, info):
        assert info.seat in ("P1", "P2") and isinstance(position, dict)
        return sorted(legal)[0], {"nodes": self.games, "depth": 1}


def test_a_python_agent_gives_the_same_games_on_1_and_2_threads(tmp_path):
    runs = [
        arbiter.match(
            "greedy(heuristic=offensive2)", seeded_random,
            game="breakthrough", games=8, threads=threads, out=tmp_path / str(threads),
            progress=False,
        )
        for threads in (1, 2)
    ]
    timing = {"p1_avg_ms", "p2_avg_ms", "ms", "cpu_ms"}
    for name in ("games.csv", "moves.csv"):
        assert rows_without_timing(tmp_path / "1" / name, timing) == rows_without_timing(
            tmp_path / "2" / name, timing
        )
    games = runs[0].games
    assert set(games["p2_agent"]) | set(games["p1_agent"]) >= {"seeded_random"}
    assert (games["reason"] != "crash").all()
    # Its moves took CPU time on the calling thread, and it is counted as a program's.
    moves = runs[0].moves
    assert moves[moves["agent"] == "seeded_random"]["cpu_ms"].notna().all()


def test_the_class_form_and_self_reported_counts(tmp_path):
    run = arbiter.match(Counting, "random", game="connect-four", games=4, threads=1,
                        out=tmp_path / "c", progress=False)
    moves = run.moves[run.moves["agent"] == "Counting"]
    assert len(moves) > 0 and (moves["self_reported"] == 1).all()
    # Its counts are what it reported: the games its object has been told of, the same
    # on every move of a game, and one object (one worker) went on from game to game.
    per_game = moves.groupby("game_id")["expanded"]
    assert (per_game.nunique() == 1).all()
    assert sorted(per_game.first()) == [1, 2, 3, 4]


class Remembering:
    """Keeps what it was told of the moves so far at each of its moves, by game."""

    seen = {}

    def __call__(self, position, legal, info):
        Remembering.seen.setdefault(info.game_id, []).append((info.ply, list(info.moves)))
        return info.rng.choice(legal)


def test_an_agent_is_told_every_move_so_far_game_after_game(tmp_path):
    """Moves reach an in-process agent a few at a time (those it was not given before):
    at each of its moves its `info.moves` is the game's history, in every game that one
    object (one worker) plays, as P1 and as P2."""
    Remembering.seen = {}
    run = arbiter.match(Remembering, "random", game="breakthrough", games=6, threads=1,
                        out=tmp_path / "r", progress=False)
    history = run.moves.groupby("game_id")["move"].apply(list).to_dict()
    assert sorted(Remembering.seen) == sorted(history)
    for game, told in Remembering.seen.items():
        for ply, moves in told:
            assert moves == history[game][:ply], (game, ply)
        assert len(told) >= 5


def test_a_position_crosses_as_json_loads_reads_it():
    """A hosted agent's position and clock are built from their JSON text in Rust: the
    same objects as json.loads gives, keys in the same order, the same types."""
    from arbiter import _native

    texts = [
        '{"board": ["11111111", "00000000"], "cols": 8, "rows": 8, "to_move": "P1"}',
        '{"b": 1, "a": [true, false, null, -7, 0, 2.5, -1e-3, 1E3, 18446744073709551615]}',
        '{"nested": {"x": [[], {}, [[1], {"y": "z"}]]}, "": ""}',
        '{"text": "tab\\t quote\\" back\\\\ slash\\/ \\u00e9 \\ud83d\\ude00 é 😀"}',
        '{"same": 1, "other": 2, "same": 3}',
        '[1, "two", 3.0]',
        '"just a string"',
        "-9223372036854775808",
        "  {  }  ",
    ]
    for text in texts:
        made = _native.objects_of_json(text)
        expected = json.loads(text)
        assert made == expected, text
        assert json.dumps(made) == json.dumps(expected), text  # order and types too
    for bad in ['{"a": 1', "[1,]", "{} {}", ""]:
        with pytest.raises(ValueError, match="position"):
            _native.objects_of_json(bad)


POSITION_PROGRAM = """
import json, sys
sys.path.insert(0, {helpers!r})
import arbiter_agent

def choose(request):
    with open({log!r}, "a") as log:
        log.write(json.dumps([request.game_id, request.ply, request.position,
                              sorted(request.clock)]) + "\\n")
    return request.game.rng.choice(request.legal)

arbiter_agent.run(choose, name="teller")
"""


def test_an_in_process_agent_is_handed_the_position_and_clock_a_program_reads(tmp_path):
    """The same games played by a callable and by a program on the protocol: at every move
    the callable's position (a dict) is the program's, and its clock has the same keys."""
    told = []

    def teller(position, legal, info):
        assert type(position) is dict and type(info.clock) is dict
        told.append([info.game_id, info.ply, position, sorted(info.clock)])
        return info.rng.choice(legal)

    log = tmp_path / "program.jsonl"
    helpers = str(ROOT / "clients" / "python")
    (tmp_path / "teller.py").write_text(POSITION_PROGRAM.format(helpers=helpers, log=str(log)))
    agents, none = tmp_path / "agents", tmp_path / "none"
    agents.mkdir()
    none.mkdir()
    (agents / "teller.toml").write_text(
        f'[[agent]]\nname = "teller"\ncommand = [{sys.executable!r}, "teller.py"]\ncwd = ".."\n'
    )
    options = dict(game="breakthrough", games=4, threads=1, seed=5, time_control="60+0.5",
                   progress=False)
    arbiter.match("random", teller, out=tmp_path / "in", agents=none, **options)
    arbiter.match("random", "teller", out=tmp_path / "program", agents=agents, **options)
    read = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(told) > 40 and told == read
    assert told[0][3] == sorted(["basis", "p1_ms", "p2_ms", "p1_increment_ms",
                                 "p2_increment_ms"])


def test_an_agent_that_raises_loses_by_crash_with_its_traceback_logged(tmp_path):
    def broken(position, legal, info):
        if info.ply >= 2:
            raise ValueError("my bug")
        return legal[0]

    run = arbiter.match("random", broken, game="breakthrough", games=2,
                        out=tmp_path / "b", progress=False)
    assert (run.games["reason"] == "crash").all()
    logs = list((tmp_path / "b" / "logs" / "broken").glob("*.stderr"))
    assert logs and "ValueError: my bug" in logs[0].read_text()


def test_ctrl_c_stops_a_run_cleanly_and_resume_finishes_it(tmp_path):
    # 4 ms a move: a run of 30 games takes about 4 s, so the interrupt after 1.5 s lands
    # in mid-run even on an idle machine, and the three runs cost little of the suite.
    def slow(position, legal, info):
        time.sleep(0.004)
        return info.rng.choice(legal)

    def interrupt_later():
        time.sleep(1.5)
        _thread.interrupt_main()  # what a notebook's "interrupt kernel" does

    experiment = {"name": "stop", "game": "breakthrough", "games": 30, "seed": 4,
                  "matchups": [["slow", "random"]]}
    # A kernel's SIGINT raises KeyboardInterrupt; a shell's background job inherits it
    # ignored, and then interrupt_main() does nothing: the test sets what a kernel has.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    threading.Thread(target=interrupt_later, daemon=True).start()
    with pytest.raises(arbiter.RunInterrupted) as stopped:
        arbiter.run(experiment, python_agents={"slow": slow}, out=tmp_path / "s", threads=1,
                    progress=False)
    assert isinstance(stopped.value, KeyboardInterrupt)
    partial = stopped.value.run
    assert partial.status == "interrupted" and 0 < len(partial.games) < 30
    # A resume without the agent says what to pass, and spoils nothing.
    with pytest.raises(arbiter.ArbiterError, match="no agent 'slow' is hosted"):
        arbiter.resume(tmp_path / "s", progress=False)
    done = arbiter.resume(tmp_path / "s", python_agents={"slow": slow}, progress=False)
    assert done.complete and len(done.games) == 30
    whole = arbiter.run(experiment, python_agents={"slow": slow}, out=tmp_path / "w",
                        threads=1, progress=False)
    timing = {"p1_avg_ms", "p2_avg_ms", "ms", "cpu_ms"}
    assert rows_without_timing(tmp_path / "s" / "games.csv", timing) == rows_without_timing(
        tmp_path / "w" / "games.csv", timing
    )
    with pytest.raises(arbiter.ArbiterError, match="unknown agent 'slow'"):
        arbiter.run(experiment, out=tmp_path / "x", progress=False)


# --- errors ------------------------------------------------------------------------

def test_bad_input_raises_the_command_lines_one_line_messages(tmp_path):
    with pytest.raises(arbiter.ArbiterError, match=r"nope\.toml: cannot read"):
        arbiter.run("nope.toml", progress=False)
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "breakthrough"\ngames = 2\nmatchups = [["random", "nobody"]]\n')
    with pytest.raises(arbiter.ArbiterError) as error:
        arbiter.run(bad, progress=False)
    message = str(error.value)
    assert "bad.toml" in message and "line 3" in message and "nobody" in message
    assert "\n" not in message
    with pytest.raises(arbiter.ArbiterError, match=r"no option 'gamez' \(did you mean 'games'\?\)"):
        arbiter.run("matchups/quick.toml", gamez=3, progress=False)
    with pytest.raises(arbiter.ArbiterError, match="--threads 0"):
        arbiter.match("random", "random", threads=0, progress=False)
    # The CLI says the same words.
    printed = cli("run", bad, check=False)
    assert printed.returncode == 2 and message in printed.stderr


def test_an_in_process_agent_plays_the_games_its_program_plays(tmp_path):
    """The overhead benchmark's two ways (a callable, and the same choice as a program on
    the subprocess protocol) play the very same games: it exits 1 otherwise. Its scratch
    folder is gone afterwards."""
    import os
    import sys

    script = ROOT / "clients" / "python" / "benchmarks" / "agent_overhead.py"
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    done = subprocess.run([sys.executable, str(script), "--games", "6", "--rounds", "1"],
                          capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "TMPDIR": str(scratch)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "same games both ways: yes" in done.stdout
    assert "subprocess / in-process per move" in done.stdout
    assert list(scratch.iterdir()) == []


def test_a_python_agent_is_refused_in_a_sandbox(tmp_path):
    import shutil

    # Without bubblewrap the run is refused earlier, for that.
    why = "cannot be sandboxed" if shutil.which("bwrap") else "bubblewrap"
    with pytest.raises(arbiter.ArbiterError, match=why):
        arbiter.match("random", seeded_random, games=2, sandbox=True, out=tmp_path / "s",
                      progress=False)
    assert not (tmp_path / "s" / "games.csv").exists()


def test_reproduction_numbers_stay_numbers(tmp_path):
    """Published and measured counts are numbers; only the words are text."""
    run = arbiter.run("matchups/report000-part2.1.toml", games=4, out=tmp_path / "out",
                      progress=False)
    table = run.reproduction
    assert str(table["published"].dtype) == "int64"
    assert str(table["arbiter"].dtype) == "int64"
    assert str(table["verdict"].dtype) == "string"


def test_counts_that_may_be_empty_are_nullable_integers(tmp_path):
    """A run graded without distances leaves the winning-move counts empty: they read as
    pandas' nullable Int64 (<NA>), not as floats, and the filled counts stay integers."""
    experiment = {"name": "graded", "game": "connect-four(rows=4,columns=4)", "games": 4,
                  "matchups": [["random", "alphabeta(heuristic=windows,depth=2)"]], "grade": True}
    run = arbiter.run(experiment, out=tmp_path / "g", progress=False)
    summary = run.summary
    for column in ("graded_moves", "errors", "blunders", "winning_moves", "fastest_wins"):
        assert str(summary[column].dtype) == "Int64", (column, summary[column].dtype)
    assert summary["graded_moves"].notna().all() and summary["graded_moves"].sum() > 0
    assert summary["winning_moves"].isna().all()
    assert str(run.grades["plies_left_before"].dtype) == "Int64"
