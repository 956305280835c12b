"""The notebook in docs/ runs from top to bottom in a fresh kernel and shows what its text
says: report 000's table reproduced, alpha-beta expanding fewer nodes than minimax for the
same values, and a Python agent's match with its chart."""

import os
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
NOTEBOOK = ROOT / "docs" / "python-notebook.ipynb"


def outputs_text(cell):
    parts = []
    for output in cell.get("outputs", []):
        if "text" in output:
            parts.append(output["text"])
        data = output.get("data", {})
        parts.extend(str(data[kind]) for kind in ("text/plain", "text/html") if kind in data)
    return "\n".join(parts)


def test_the_notebook_runs_and_shows_the_tables(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    # A copy of the repository's layout where results/ is a scratch folder: the experiment
    # and the agents are linked in, the notebook sits in docs/. It runs as Jupyter (and
    # `jupyter nbconvert --execute docs/python-notebook.ipynb`) runs it: in docs/.
    for name in ("matchups", "agents"):
        os.symlink(ROOT / name, tmp_path / name)
    (tmp_path / "docs").mkdir()
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(
        notebook, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(tmp_path / "docs")}}
    ).execute()
    text = "\n".join(outputs_text(cell) for cell in notebook.cells if cell.cell_type == "code")
    # Report 000's six published win counts, each with arbiter's and a verdict.
    assert re.search(r"(\d) of 6 published win counts agree with arbiter's", text)
    assert int(re.search(r"(\d) of 6 published", text).group(1)) >= 5
    assert "mm3-offensive1" in text and "verdict" in text
    # Alpha-beta: fewer nodes than minimax at depth 3, the same root values.
    found = re.search(
        r"alpha-beta expands ([\d.]+)% of minimax's nodes at depth 3, with the same root value on 100% of positions",
        text,
    )
    assert found and float(found.group(1)) < 100
    # The Python agent played, and the chart is shown inline.
    assert "forward" in text and "data:image/png;base64," in text
    assert not any(
        output.get("output_type") == "error" for cell in notebook.cells for output in cell.get("outputs", [])
    )
    assert (tmp_path / "results" / "report000-part2.1").is_dir()
