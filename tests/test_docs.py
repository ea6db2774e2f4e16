"""The documentation runs: every Python example in README.md and docs/, and the API reference.

Each ```` ```python ```` block of README.md and docs/**/*.md runs as written, in a clean
child interpreter (``python example.py``) whose working folder is a fresh temporary one, so
an example may write files and may start worker processes (a Dask cluster) without
touching this process; a block starting with ``>>>`` runs as a doctest
(``python -m doctest``: the printed values must match). A block whose line before the
fence is ``<!-- docs-test: MARK ... -->`` gets those pytest marks (``slow``: it takes
more than a few seconds; ``cluster``: it starts a local Dask cluster). Shell examples
are not run.

The API reference (docs/api, Sphinx with autodoc and napoleon) is built with warnings as
errors into a temporary folder (marked ``slow``; skipped when Sphinx is not installed).
"""
from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys
from typing import NamedTuple

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"^(?:<!-- docs-test: (?P<marks>[\w ]+) -->\n)?```python\n(?P<code>.*?)^```$", re.S | re.M)
EXAMPLE_TIMEOUT_S = 480


class Example(NamedTuple):
    page: pathlib.Path
    line: int
    code: str
    marks: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def examples() -> list[Example]:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in BLOCK.finditer(text):
            fence_line = text.count("\n", 0, m.start("code"))   # the ```python line, 1-based
            found.append(Example(page, fence_line, m.group("code"), tuple((m.group("marks") or "").split())))
    return found


def run_example(code: str, folder: pathlib.Path) -> subprocess.CompletedProcess:
    """Run one example in a child interpreter in ``folder``: a script, or a doctest when
    it starts with ``>>>``."""
    if code.lstrip().startswith(">>>"):
        (folder / "example.txt").write_text(code, encoding="utf-8")
        argv = [sys.executable, "-m", "doctest", "-o", "ELLIPSIS", "example.txt"]
    else:
        (folder / "example.py").write_text(code, encoding="utf-8")
        argv = [sys.executable, "example.py"]
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONHASHSEED": "0"}
    return subprocess.run(argv, cwd=folder, env=env, capture_output=True, text=True,
                          timeout=EXAMPLE_TIMEOUT_S, stdin=subprocess.DEVNULL)


EXAMPLES = examples()


def test_the_docs_hold_python_examples():
    # the collection itself can fail: the pages named in the issue hold examples
    pages = {e.page.name for e in EXAMPLES}
    assert {"dogfight.md", "analyze.md", "margins.md", "engines.md", "rooms.md", "rl.md", "sweeps.md"} <= pages
    assert all(e.code.strip() for e in EXAMPLES)


@pytest.mark.parametrize("code, ok", [("x = 1\nassert x == 1\n", True),
                                      ("raise ValueError('a broken example')\n", False),
                                      (">>> 1 + 1\n2\n", True),
                                      (">>> 1 + 1\n3\n", False)])
def test_a_broken_example_fails(tmp_path, code, ok):
    assert (run_example(code, tmp_path).returncode == 0) is ok


@pytest.mark.parametrize("example", [pytest.param(e, id=e.name, marks=[getattr(pytest.mark, m) for m in e.marks])
                                     for e in EXAMPLES])
def test_example_runs(example, tmp_path):
    done = run_example(example.code, tmp_path)
    assert done.returncode == 0, f"{example.name} fails:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"


@pytest.mark.slow
def test_api_reference_builds_without_warnings(tmp_path):
    pytest.importorskip("sphinx", reason="Sphinx is not installed (pip install -e '.[test]')")
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           "-d", str(tmp_path / "doctrees"), str(ROOT / "docs" / "api"), str(tmp_path / "html")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "MPLBACKEND": "Agg"})
    assert done.returncode == 0, done.stderr[-6000:]
    for page in ("index", "geometry", "maneuvers", "scenarios", "viz"):
        assert (tmp_path / "html" / f"{page}.html").is_file()
