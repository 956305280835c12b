"""arbiter in Python: tournaments and search benchmarks of game-playing agents, with the
results as pandas data frames.

    import arbiter
    run = arbiter.run("matchups/quick.toml", games=20)
    run.summary                      # summary.csv as a DataFrame
    run.games.groupby("reason").size()
    arbiter.match("ab3-offensive2", my_agent, game="breakthrough", games=50).plot()

Every function takes the command line's options by the same names (`--move-time-ms` is
`move_time_ms=`) with the same defaults, and writes the same files as the command line.
Errors raise `arbiter.ArbiterError` with the command line's one-line message. A Python
agent is any callable `(position, legal_moves, info) -> move` (see `arbiter.Info`), played
in this process; the docs are in docs/python.md.
"""

import json
import os
import pathlib
import re

from . import _native
from ._agents import Info, Session
from ._results import Run, read_csv

__all__ = [
    "ArbiterError", "RunInterrupted", "Info", "Run", "Solution", "run", "match", "compare",
    "solve", "perft", "games", "agents", "resume", "load", "read_csv", "version",
]

ArbiterError = _native.ArbiterError


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C (a kernel interrupt) stopped a run cleanly: `.run` holds what it finished and
    `arbiter.resume(.folder)` plays the rest."""

    def __init__(self, run):
        super().__init__(f"stopped; continue with arbiter.resume({str(run.folder)!r})")
        self.run = run
        self.folder = run.folder


def version():
    """The version of arbiter this package was built from."""
    return _native.version()


# --- the commands' options from keyword arguments ----------------------------------------

def _options(options, **given):
    """Keyword arguments as a command's options (JSON): the command line's names with `_`
    for `-` (`games=10` is `--games 10`); a list is comma-separated, a path a string,
    `sandbox=True` is `on`; None leaves the option out."""
    chosen = {}
    for key, value in {**options, **given}.items():
        if value is None:
            continue
        if key == "sandbox" and isinstance(value, bool):
            value = "on" if value else None
            if value is None:
                continue
        elif isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        elif isinstance(value, os.PathLike):
            value = os.fspath(value)
        chosen[key] = value
    return json.dumps(chosen)


_NAME = re.compile(r"[^A-Za-z0-9_.-]")


def _agent_name(agent):
    name = getattr(agent, "__name__", None) or type(agent).__name__
    # A lambda is named "<lambda>": "lambda" in the tables.
    return _NAME.sub("_", name.strip("<>")) or "python"


def _host(python_agents, python_games=None):
    """Registers the Python agents and games for one command; returns a function that
    forgets them."""
    agents, games = [], []
    try:
        for name, agent in (python_agents or {}).items():
            if not isinstance(name, str) or not name:
                raise ArbiterError(f"python_agents: {name!r} is not a name (a non-empty string)")
            if not callable(agent) and not callable(getattr(agent, "move", None)):
                raise ArbiterError(
                    f"python_agents: {name!r} is neither callable nor has a move() method"
                )
            _native.host(name, lambda agent=agent, name=name: Session(agent, name))
            agents.append(name)
        for name, game in (python_games or {}).items():
            if not isinstance(name, str) or not name:
                raise ArbiterError(f"python_games: {name!r} is not a name (a non-empty string)")
            if not isinstance(game, type):
                raise ArbiterError(
                    f"python_games: {name!r} must be a class (arbiter makes an instance per worker thread)"
                )
            missing = [m for m in ("initial", "moves", "play", "status") if not callable(getattr(game, m, None))]
            if missing:
                raise ArbiterError(
                    f"python_games: {name!r} has no {', '.join(m + '()' for m in missing)} (see docs/python.md)"
                )
            _native.host_game(name, game)
            games.append(name)
    except BaseException:
        _forget(agents, games)
        raise
    return lambda: _forget(agents, games)


def _forget(agents, games):
    for name in agents:
        _native.unhost(name)
    for name in games:
        _native.unhost_game(name)


def _wait(job, progress, unit):
    """Waits for a command, showing a progress bar (tqdm: a widget in Jupyter, text
    elsewhere); Ctrl-C stops it cleanly. Returns (result, interrupted)."""
    bar = None
    interrupted = False
    try:
        while not job.wait(0.1):
            if progress:
                done, total = _native.progress()
                if total and bar is None:
                    bar = _progress_bar(total, unit)
                if bar is not None:
                    bar.update(done - bar.n)
    except KeyboardInterrupt:
        interrupted = True
        _native.interrupt()
        # The run stops at the next game boundary and writes its files: wait for that,
        # however many more Ctrl-C come.
        while True:
            try:
                while not job.wait(0.1):
                    pass
                break
            except KeyboardInterrupt:
                continue
    finally:
        if bar is not None:
            done, _ = _native.progress()
            bar.update(done - bar.n)
            bar.close()
    return json.loads(job.result()), interrupted


def _progress_bar(total, unit):
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return None
    return tqdm(total=total, unit=unit.rstrip("s") or "job", leave=True)


def _start(command, options, python_agents=None, progress=True, unit="games", python_games=None):
    forget = _host(python_agents, python_games)
    try:
        job = _native.start(command, options)
        outcome, interrupted = _wait(job, progress, unit)
    finally:
        forget()
    return outcome, interrupted


def _finish(outcome, interrupted):
    if outcome is None:
        return None
    run = Run(outcome["folder"], outcome)
    for note in outcome.get("notes", []):
        import warnings

        warnings.warn(f"arbiter: {note}", stacklevel=3)
    if interrupted or outcome.get("interrupted"):
        raise RunInterrupted(run)
    return run


# --- the API ------------------------------------------------------------------------

def run(experiment=None, *, python_agents=None, python_games=None, progress=True, **options):
    """Runs an experiment and returns its `Run` (data frames of its files).

    experiment: an experiment file (default: the command line's,
    matchups/report000-part2.1.toml), or the same experiment as a dict (its keys as in a
    file; `name` names its results folder). python_agents: {name: callable} for the
    experiment to name; python_games: {name: class}, games written in Python (see
    docs/python.md) for its `game` to name. options: `arbiter run`'s, e.g. games=100, seed=7, threads=2,
    out="results/x", agents="agents", no_moves=True, max_games=N, time_limit=S,
    sandbox=True, standings=N, shard="0/4". Ctrl-C stops it cleanly (RunInterrupted,
    resumable). A run with nothing left to do returns None.
    """
    source = None
    if isinstance(experiment, dict):
        source = _native.toml_text(json.dumps(experiment))
        name = str(experiment.get("name", "experiment"))
        experiment = f"{_NAME.sub('_', name) or 'experiment'}.toml"
    chosen = _options(options, experiment=experiment, source=source, quiet=True)
    outcome, interrupted = _start("run", chosen, python_agents, progress, python_games=python_games)
    return _finish(outcome, interrupted)


def resume(results_dir, *, python_agents=None, python_games=None, progress=True, **options):
    """Continues an interrupted run in its folder (`arbiter run --resume DIR`); the Python
    agents and games it played must be passed again. Returns the `Run`, or None when it
    was already complete."""
    chosen = _options(options, resume=results_dir, quiet=True)
    outcome, interrupted = _start("run", chosen, python_agents, progress, python_games=python_games)
    if outcome is None:
        return load(results_dir)
    return _finish(outcome, interrupted)


def match(first, second, *, python_agents=None, python_games=None, progress=True, **options):
    """Plays one matchup (`arbiter match`): agents by name or inline spec
    ("ab3-offensive2", "alphabeta(heuristic=offensive2,depth=3)"), or Python callables.

    options: game="breakthrough", games=100, seed=1, move_time_ms, time_control="60+0.5",
    threads, out, agents, sandbox, standings. python_games: {name: class} for `game` to
    name (docs/python.md).
    """
    hosted = dict(python_agents or {})
    names = []
    for agent in (first, second):
        if isinstance(agent, str):
            names.append(agent)
            continue
        name = _agent_name(agent)
        if name in hosted and hosted[name] is not agent:
            name = f"{name}-2"
        hosted[name] = agent
        names.append(name)
    chosen = _options(options, first=names[0], second=names[1], quiet=True)
    outcome, interrupted = _start("match", chosen, hosted, progress, python_games=python_games)
    return _finish(outcome, interrupted)


def compare(game, *, python_games=None, progress=True, **options):
    """Compares search algorithms on the same positions (`arbiter compare`): nodes, time,
    chosen moves. options: heuristic (required), algorithms="minimax,alphabeta" (or a
    list), depths="1..4", iterations, positions=100, seed=1, threads, out, agents.
    python_games: {name: class} for `game` to name (docs/python.md)."""
    chosen = _options(options, game=str(game), quiet=True)
    outcome, interrupted = _start(
        "compare", chosen, None, progress, "positions", python_games=python_games
    )
    return _finish(outcome, interrupted)


class Solution(dict):
    """A solve (`arbiter solve`): status, solver, solution (the grid as text), the
    counters (assignments, placed, nodes, backtracks), ms and notes; `.text` is what the
    command line prints."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self):
        return self["text"]

    def _repr_html_(self):
        import html

        return f"<pre>{html.escape(self['text'])}</pre>"


def solve(file, **options):
    """Solves a Flow Free puzzle, or a Word Sudoku grid with bank=FILE (`arbiter solve`).
    options: solver, bank, seed, max_nodes, time_limit."""
    outcome, _ = _start("solve", _options(options, file=file), None, False)
    return Solution(outcome)


def perft(game, depth=4, agents=None, python_games=None):
    """The leaves of the legal-move tree at depths 1 to `depth` (`arbiter perft`), as a
    list: perft("breakthrough", 3) == [22, 484, 11132]. python_games: {name: class} for
    `game` to name (docs/python.md)."""
    forget = _host(None, python_games)
    try:
        return _native.perft(str(game), int(depth), None if agents is None else str(agents))
    finally:
        forget()


def _listing(agents):
    return json.loads(_native.listing(None if agents is None else str(agents)))


def games(agents=None, python_games=None):
    """The games (built in, served by programs or libraries declared in the agent files,
    and the Python classes of `python_games`) as a DataFrame: name, kind, params,
    heuristics, description."""
    import pandas as pd

    forget = _host(None, python_games)
    try:
        listed = _listing(agents)["games"]
    finally:
        forget()
    return pd.DataFrame(listed, columns=["name", "kind", "params", "heuristics", "description"])


def agents(agents=None):
    """The registered agents (agent files of `agents`, $ARBITER_AGENTS or ./agents, and the
    Python agents of a command in progress) as a DataFrame: name, kind, spec, file."""
    import pandas as pd

    frame = pd.DataFrame(_listing(agents)["agents"], columns=["name", "kind", "spec", "file"])
    return frame


def load(results_dir):
    """The `Run` of a results folder (a run folder, or an experiment folder: its newest
    run)."""
    return Run(_native.run_folder(str(results_dir)))
