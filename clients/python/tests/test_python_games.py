"""Games written as Python classes (`python_games=`): played in-process, equal to the
built-in game they copy (perft, search trees), as a program through arbiter_game.py, and
their failures told or recorded as the command line tells a rules program's."""

import os
import pathlib
import subprocess
import sys

import pytest

import arbiter

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path[:0] = [str(ROOT / "clients" / "python"), str(ROOT / "clients" / "python" / "examples")]
from connect_four_class import ConnectFour  # noqa: E402

GAMES = {"c4": ConnectFour}


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_it_is_listed_among_the_games_while_passed():
    listed = arbiter.games(python_games=GAMES).set_index("name")
    assert listed.loc["c4", "kind"] == "python"
    assert "c4" not in set(arbiter.games()["name"])


def test_its_perft_equals_the_built_in_games_wins_included():
    # On 4x5 and 4x4 the counts fall below columns^n from depth 7 on: wins end games.
    assert arbiter.perft("c4", 5, python_games=GAMES) == arbiter.perft("connect-four", 5)
    for small, depth in (("(rows=4,columns=5)", 8), ("(rows=4,columns=4)", 10)):
        counts = arbiter.perft("c4" + small, depth, python_games=GAMES)
        assert counts == arbiter.perft("connect-four" + small, depth)
        assert counts[-1] < int(small[-2]) ** depth


def test_a_search_on_it_builds_the_built_in_games_trees(tmp_path):
    built_in = arbiter.compare("connect-four", heuristic="windows", algorithms="alphabeta",
                               depths="4", positions=6, seed=5, out=tmp_path / "b",
                               progress=False).search
    hosted = arbiter.compare("c4", heuristic="program", algorithms="alphabeta", depths="4",
                             positions=6, seed=5, out=tmp_path / "h", python_games=GAMES,
                             progress=False).search
    columns = ["position", "move", "value", "expanded", "evaluated", "generated"]
    assert hosted[columns].to_dict("records") == built_in[columns].to_dict("records")
    assert hosted["generated"].sum() > 1000
    # Its features weighed by `linear` as `windows` weighs them: the same trees again.
    linear = "linear(own_threes=5,own_twos=2,own_centre=3,opp_threes=-4)"
    weighed = arbiter.compare("c4", heuristic=linear, algorithms="alphabeta", depths="4",
                              positions=6, seed=5, out=tmp_path / "l", python_games=GAMES,
                              progress=False).search
    assert weighed[columns].to_dict("records") == built_in[columns].to_dict("records")


def test_it_plays_a_match_and_its_games_replay(tmp_path):
    run = arbiter.match("alphabeta(heuristic=program,depth=3)", "random",
                        game="c4(rows=5,columns=6)", games=6, seed=2, threads=2,
                        out=tmp_path / "m", python_games=GAMES, progress=False)
    games = run.games
    assert len(games) == 6
    assert set(games["reason"]) <= {"four-in-a-row", "board-full"}, set(games["reason"])
    # Seeds alternate, so each agent has P1 in three games; a depth-3 search beats random.
    wins = run.summary.set_index("agent")["wins"].to_dict()
    assert wins[next(a for a in wins if a.startswith("alphabeta"))] >= 5
    # The report's viewer draws its boards by the class's render().
    assert "Watch the games" in (pathlib.Path(run.folder) / "index.html").read_text()
    # The position of each game's last move, replayed by the class, ended the game.
    game = ConnectFour(rows=5, columns=6)
    for number, moves in run.moves.groupby("game_id")["move"]:
        position = "".join(moves.astype(str))
        assert isinstance(game.status(position), tuple), (number, position)


def test_the_same_class_served_as_a_program_answers_alike(tmp_path):
    program = tmp_path / "c4_program.py"
    program.write_text(
        "import sys\n"
        f"sys.path[:0] = [{str(ROOT / 'clients' / 'python')!r}, "
        f"{str(ROOT / 'clients' / 'python' / 'examples')!r}]\n"
        "import arbiter_game\nfrom connect_four_class import ConnectFour\n"
        "arbiter_game.serve(ConnectFour)\n"
    )
    agents = tmp_path / "agents"
    agents.mkdir()
    (agents / "games.toml").write_text(
        f'[[game]]\nname = "c4p"\ncommand = [{sys.executable!r}, "{program}"]\n'
    )
    small = "(rows=4,columns=5)"
    assert arbiter.perft("c4p" + small, 6, agents=agents) == arbiter.perft(
        "c4" + small, 6, python_games=GAMES)
    # check-game holds the program to the protocol.
    binary = os.environ.get("ARBITER_BIN") or str(ROOT / "target" / "release" / "arbiter")
    if not pathlib.Path(binary).is_file():
        pytest.skip("SKIPPED LOUDLY: no arbiter binary for check-game: build it (or set ARBITER_BIN)")
    done = subprocess.run([binary, "check-game", "c4p", "--agents", str(agents)],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


class Broken(ConnectFour):
    """Connect Four whose `play` raises once a fourth disc goes in column 1."""

    def play(self, position, move):
        if move == "1" and position.count("1") == 3:
            raise RuntimeError("column one is haunted")
        return super().play(position, move)


class NoStatus:
    def initial(self):
        return ""

    def moves(self, position):
        return []

    def play(self, position, move):
        return position


def test_its_failures_are_told_in_one_line_or_recorded(tmp_path, capfd):
    # Bad parameters: the class's own exception, in the command's one-line message.
    with pytest.raises(arbiter.ArbiterError, match=r"c4.*ValueError: rows must be from 4 to 8"):
        arbiter.perft("c4(rows=12)", 2, python_games=GAMES)
    # Not a class, or a class without the four methods: refused before anything runs.
    with pytest.raises(arbiter.ArbiterError, match="must be a class"):
        arbiter.perft("c4", 2, python_games={"c4": ConnectFour()})
    with pytest.raises(arbiter.ArbiterError, match=r"has no status\(\)"):
        arbiter.perft("c4", 2, python_games={"c4": NoStatus})
    # A built-in game's name is refused.
    with pytest.raises(arbiter.ArbiterError, match="a built-in game has this name"):
        arbiter.perft("breakthrough", 2, python_games={"breakthrough": ConnectFour})
    # Forgotten after the call: the next command does not know it.
    with pytest.raises(arbiter.ArbiterError, match="c4"):
        arbiter.perft("c4", 2)
    # A method raising mid-game: that game is recorded as rules_failure, the run goes on.
    run = arbiter.match("random", "random", game="haunted", games=8, seed=4,
                        out=tmp_path / "h", python_games={"haunted": Broken}, progress=False)
    reasons = set(run.games["reason"])
    assert len(run.games) == 8
    assert "rules_failure" in reasons and reasons - {"rules_failure"}, reasons
    # The warning says what the method raised.
    warned = capfd.readouterr().err
    assert "play() raised RuntimeError: column one is haunted" in warned, warned


def test_the_benchmark_searches_the_same_trees_three_ways(tmp_path):
    """python_game.py exits 1 unless the built-in game, the class in-process and the class
    as a program build the same trees; its scratch folder is gone afterwards."""
    script = ROOT / "clients" / "python" / "benchmarks" / "python_game.py"
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    done = subprocess.run(
        [sys.executable, str(script), "--rounds", "1", "--positions", "2", "--depth", "3"],
        capture_output=True, text=True, cwd=ROOT, env={**os.environ, "TMPDIR": str(scratch)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "(the same trees)" in done.stdout
    for way in ("built in", "in-process", "program"):
        assert f"{way}:" in done.stdout
    assert list(scratch.iterdir()) == []


class Sticks:
    """Three players take one or two of `sticks` sticks in turn; whoever takes the last
    wins. A position is the sticks left and the plies played: "7:0"."""

    players = 3

    def __init__(self, sticks=7):
        self.sticks = sticks

    def initial(self):
        return f"{self.sticks}:0"

    def moves(self, position):
        left, _ = map(int, position.split(":"))
        return [str(k) for k in (1, 2) if k <= left]

    def play(self, position, move):
        left, plies = map(int, position.split(":"))
        return f"{left - int(move)}:{plies + 1}"

    def status(self, position):
        left, plies = map(int, position.split(":"))
        if left == 0:
            return ((plies - 1) % 3, "last-stick")
        return plies % 3


def sticks_perft(left, depth):
    if depth == 0 or left == 0:
        return 1 if depth == 0 else 0
    return sum(sticks_perft(left - k, depth - 1) for k in (1, 2) if k <= left)


def test_a_game_of_three_players_plays_at_tables(tmp_path):
    games = {"sticks": Sticks}
    counts = arbiter.perft("sticks(sticks=7)", 6, python_games=games)
    assert counts == [sticks_perft(7, d) for d in range(1, 7)]
    experiment = {"kind": "tables", "name": "sticks", "game": "sticks(sticks=7)", "deals": 4,
                  "seed": 3, "tables": [["random", "random", "mcts(iterations=50)"]]}
    run = arbiter.run(experiment, python_games=games, out=tmp_path / "t", progress=False)
    tables = arbiter.read_csv(pathlib.Path(run.folder) / "tables.csv")
    assert len(tables) == 12
    assert set(tables["reason"]) == {"last-stick"}
    # The winner took the last stick: the seat that moved last.
    for _, game in tables.iterrows():
        moves = game["moves"].split(";")
        assert sum(map(int, moves)) == 7
        assert game["winner"] == f"P{(len(moves) - 1) % 3 + 1}"
