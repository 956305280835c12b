"""A results folder as Python objects: data frames of its CSV files, its meta.json, its
charts, and a rich display for notebooks."""

import base64
import html
import json
import pathlib

import pandas as pd

from . import _native

ArbiterError = _native.ArbiterError

# The schema of a run folder's files, arbiter's own (records/schema.rs): the columns
# read as text (pandas' "string" dtype, so that a column that happens to be all empty
# stays text instead of becoming floats), as floats even when empty (timings, values
# that may be missing), as unsigned 64-bit numbers (seeds), as nullable integers (counts
# that may be empty: "Int64", <NA> where empty, instead of floats); and the data frames
# of a run, attribute name -> file.
_SCHEMA = json.loads(_native.schema())
TEXT_COLUMNS = frozenset(_SCHEMA["text"])
FLOAT_COLUMNS = frozenset(_SCHEMA["float"])
UNSIGNED_COLUMNS = frozenset(_SCHEMA["unsigned"])
COUNT_COLUMNS = frozenset(_SCHEMA["count"])
FRAMES = dict(_SCHEMA["frames"])


# What a run's rich display shows of each table.
OVERVIEW = {
    "summary.csv": [
        "matchup", "agent", "opponent", "games", "wins", "losses", "draws", "win_rate",
        "win_rate_low95", "win_rate_high95", "elo", "avg_expanded_per_move", "avg_ms_per_move",
    ],
    "search_summary.csv": [
        "algorithm", "depth", "positions", "mean_expanded", "share_of_minimax_nodes",
        "effective_branching", "mean_ms", "same_move", "same_value",
    ],
    "solves.csv": ["solver", "puzzle", "status", "nodes", "backtracks", "ms"],
}
# The charts in the order a reader wants them.
CHART_ORDER = ["winrate_matrix", "winrates", "nodes_by_ply", "time_per_move", "game_length"]


def read_csv(path):
    """A CSV file of arbiter's with the documented dtypes (docs/python.md)."""
    path = pathlib.Path(path)
    header = pd.read_csv(path, nrows=0).columns
    dtype = {}
    for column in header:
        if column in TEXT_COLUMNS:
            dtype[column] = "string"
        elif column in FLOAT_COLUMNS:
            dtype[column] = "float64"
        elif column in UNSIGNED_COLUMNS:
            dtype[column] = "uint64"
        elif column in COUNT_COLUMNS:
            dtype[column] = "Int64"
    return pd.read_csv(path, dtype=dtype, keep_default_na=False, na_values=[""])


def _png_tag(path, scale=0.6):
    """The PNG inline, at `scale` of its own width (the charts are drawn at twice a
    page's size), so each chart's text comes out the same size."""
    data = pathlib.Path(path).read_bytes()
    width = int.from_bytes(data[16:20], "big") if data[12:16] == b"IHDR" else 0
    size = f' width="{round(width * scale)}"' if width else ""
    data = base64.b64encode(data).decode("ascii")
    return f'<img src="data:image/png;base64,{data}"{size} alt="{html.escape(path.stem)}">'


class Charts:
    """A run's charts (PNG files), shown inline in a notebook."""

    def __init__(self, paths):
        self.paths = list(paths)

    def __iter__(self):
        return iter(self.paths)

    def __len__(self):
        return len(self.paths)

    def __repr__(self):
        return "\n".join(str(p) for p in self.paths) or "no charts"

    def _repr_html_(self):
        if not self.paths:
            return "<p>no charts</p>"
        return "".join(
            f"<figure style='display:inline-block;vertical-align:top;margin:4px'>{_png_tag(p)}"
            f"<figcaption>{html.escape(p.stem)}</figcaption></figure>"
            for p in self.paths
        )


class Viewer:
    """A game viewer page (game-N.html or index.html), shown inline in a notebook."""

    def __init__(self, path, height=640):
        self.path = pathlib.Path(path)
        self.height = height

    def __repr__(self):
        return f"game viewer: {self.path}"

    def _repr_html_(self):
        page = self.path.read_text(encoding="utf-8")
        return (
            f'<iframe srcdoc="{html.escape(page, quote=True)}" '
            f'style="width:100%;height:{self.height}px;border:1px solid #ccc"></iframe>'
        )


class Run:
    """A run's results folder: its data frames (loaded when first read), meta.json, charts
    and reports. `arbiter.load(folder)` makes one of any results folder."""

    def __init__(self, folder, outcome=None):
        self.folder = pathlib.Path(folder)
        if not (self.folder / "meta.json").is_file():
            raise ArbiterError(f"{self.folder}: not a run folder (no meta.json)")
        self._outcome = outcome or {}
        self._frames = {}

    # What the run says of itself.
    @property
    def meta(self):
        """meta.json as a dict."""
        return json.loads((self.folder / "meta.json").read_text(encoding="utf-8"))

    @property
    def status(self):
        """`complete`, `interrupted`, `partial` or `running` (meta.json's status)."""
        return self.meta.get("status", "")

    @property
    def complete(self):
        """Whether every job of the experiment is done."""
        return self.status == "complete"

    @property
    def notes(self):
        """What the run had to say (agents that stopped playing, submissions left out)."""
        return list(self._outcome.get("notes", []))

    @property
    def exit_code(self):
        """The exit code `arbiter run` would have given (0 complete; docs/running.md)."""
        return self._outcome.get("exit_code", 0 if self.complete else 4)

    @property
    def tables(self):
        """The summary tables as `arbiter show` prints them."""
        text = self._outcome.get("tables")
        if text is None:
            text = _native.show(str(self.folder))
        return text

    @property
    def summary_json(self):
        """summary.json as a dict (the summary table's rows with summary.csv's numbers)."""
        return json.loads((self.folder / "summary.json").read_text(encoding="utf-8"))

    def frame(self, name):
        """The data frame of one CSV file of the run, e.g. frame("games.csv")."""
        if name not in self._frames:
            path = self.folder / name
            if not path.is_file():
                why = " (a --no-moves run)" if name in ("moves.csv",) else ""
                raise ArbiterError(f"{self.folder}: no {name}{why}")
            self._frames[name] = read_csv(path)
        return self._frames[name]

    def __getattr__(self, name):
        if name in FRAMES:
            return self.frame(FRAMES[name])
        raise AttributeError(name)

    def __dir__(self):
        present = [a for a, f in FRAMES.items() if (self.folder / f).is_file()]
        return sorted(set(super().__dir__()) | set(present))

    # What a person looks at.
    @property
    def charts(self):
        """The run's chart PNGs, shown inline in a notebook."""
        return Charts(sorted(self.folder.glob("*.png")))

    def plot(self, *names):
        """The charts named (e.g. "winrate_matrix"), or all, shown inline."""
        charts = sorted(self.folder.glob("*.png"))
        if names:
            charts = [p for p in charts if p.stem in names]
            missing = set(names) - {p.stem for p in charts}
            if missing:
                have = ", ".join(p.stem for p in sorted(self.folder.glob("*.png")))
                raise ArbiterError(
                    f"{self.folder}: no chart {', '.join(sorted(missing))} (it has: {have})"
                )
        return Charts(charts)

    def viewer(self, game=None, height=640):
        """The game viewer inline: game N of games.csv (its game_id), or the run's page."""
        if game is None:
            return Viewer(self.folder / "index.html", height)
        _native.report(str(self.folder), int(game))
        return Viewer(self.folder / f"game-{int(game)}.html", height)

    def __repr__(self):
        meta = self.meta
        return (
            f"<arbiter.Run {meta.get('experiment', '')} [{self.status}] {self.folder}>\n"
            + self.tables
        )

    def _repr_html_(self):
        meta = self.meta
        parts = [
            f"<h4>{html.escape(str(meta.get('experiment', 'run')))} "
            f"<small>({html.escape(self.status)})</small></h4>",
            f"<p><code>{html.escape(str(self.folder))}</code></p>",
        ]
        for note in self.notes:
            parts.append(f"<p>note: {html.escape(note)}</p>")
        for name in ("standings.csv", "summary.csv", "search_summary.csv", "solves.csv"):
            if (self.folder / name).is_file():
                table = self.frame(name)
                # The columns a reader looks at first; the frame has them all.
                shown = [c for c in OVERVIEW.get(name, []) if c in table.columns]
                if shown:
                    table = table[shown]
                parts.append(table.head(40).to_html(index=False, na_rep="", float_format="{:.4g}".format))
                break
        first = {name: i for i, name in enumerate(CHART_ORDER)}
        charts = sorted(self.charts, key=lambda p: (first.get(p.stem, len(first)), p.stem))
        parts.append(Charts(charts)._repr_html_())
        return "".join(parts)
