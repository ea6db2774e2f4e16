"""The house's habits, checked where CI runs: ruff clean over the repository, mypy clean
on geometry and maneuvers (issue #19 item 8), and a fast start (issue #19 item 5)."""
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _tool(name: str) -> str:
    path = shutil.which(name, path=os.pathsep.join([str(pathlib.Path(sys.executable).parent), os.environ["PATH"]]))
    if path is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[test]')")
    return path


def test_ruff_finds_nothing():
    proc = subprocess.run([_tool("ruff"), "check", "--output-format", "concise", "."], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-2000:]


@pytest.mark.slow
def test_mypy_is_clean_on_geometry_maneuvers_and_the_engine_core():
    proc = subprocess.run([_tool("mypy"), "geometry", "maneuvers", "scenarios/engine"], cwd=ROOT, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stdout[-3000:]


def test_help_and_a_mistake_start_without_the_heavy_libraries():
    """`furball --help` and a command-line mistake import neither numpy nor the engines
    (they answered in 0.68 s CPU before issue #19; now in a few hundredths)."""
    code = ("import sys, io, contextlib\n"
            "from furball.scenarios.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
            "    try: main(['--help'])\n"
            "    except SystemExit: pass\n"
            "    main(['turn'])\n"
            "heavy = [m for m in ('numpy', 'scipy', 'shapely', 'numba', 'matplotlib') if m in sys.modules]\n"
            "print(','.join(heavy))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.strip() == "", (proc.stdout, proc.stderr[-500:])


@pytest.mark.parametrize("package", ["maneuvers", "geometry"])
def test_no_value_writes_into_an_instance_dict_or_keeps_an_unbounded_cache(package):
    """The engines' habits (tests/test_frozen_state.py) hold below them too: no writes into
    an instance's ``__dict__`` or ``object.__setattr__`` outside ``__post_init__`` (a value
    computed once is a ``functools.cached_property``), no ``global``, no unbounded
    module-level cache (issue 37.5)."""
    from test_frozen_state import _dict_writes, _unbounded_caches

    paths = sorted((ROOT / package).rglob("*.py"))
    assert [hit for path in paths for hit in _dict_writes(path) + _unbounded_caches(path)] == []


def test_a_copy_with_fields_changed_has_one_name():
    """Issue 37 item 5: a frozen value's copy with some fields changed is ``replace``
    everywhere (``PlaneState``, ``Table``, every engine state and value), as
    ``dataclasses.replace`` names it; the former ``but`` and ``evolve`` are gone."""
    import re

    pattern = re.compile(r"\bdef (but|evolve)\(|\.(but|evolve)\(")
    found = [f"{path.relative_to(ROOT)}:{n}" for folder in ("geometry", "maneuvers", "scenarios", "viz", "capture",
                                                             "tests", "benchmarks")
             for path in sorted((ROOT / folder).rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert not found, found
