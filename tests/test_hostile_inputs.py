"""Issue #14: every bad input gets one line and exit 2, nothing is lost, nothing runs away.

A corpus of hostile command lines, run in-process through every command. For each:
exit status 2, one line on stderr starting ``furball: error:``, no traceback, nothing
on stdout, the inputs unchanged, and no output or temporary file left anywhere in the
working folder.
"""
import contextlib
import hashlib
import io
import os
import pathlib
import shutil
import sys

import pytest

from furball.scenarios.cli import main

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "scenarios" / "examples"
LONG = "x" * 5000
READ_ONLY = "ro" if os.geteuid() != 0 else "/proc/sys"
"""A folder this process cannot write in (root may write in a mode-555 folder)."""


def _workspace(tmp: pathlib.Path) -> pathlib.Path:
    """A folder with copies of the examples, a deck file, a read-only folder, a file
    where a folder is expected, and a symbolic link to the duel."""
    for name in ("duel.toml", "furball.toml", "bomber.toml"):
        shutil.copy(EXAMPLES / name, tmp / name)
    shutil.copy(ROOT / "maneuvers" / "data" / "decks" / "A.toml", tmp / "A.toml")
    (tmp / "with_deck.toml").write_text((EXAMPLES / "duel.toml").read_text().replace(
        'deck = "A"', 'deck = "A.toml"', 1), encoding="utf-8")
    (tmp / "ro").mkdir()
    (tmp / "ro").chmod(0o555)
    (tmp / "afile").write_text("not a folder", encoding="utf-8")
    (tmp / "link.toml").symlink_to(tmp / "duel.toml")
    return tmp


def _snapshot(folder: pathlib.Path) -> dict:
    out = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in filenames + dirnames:
            p = pathlib.Path(dirpath) / name
            key = str(p.relative_to(folder))
            out[key] = "dir" if p.is_dir() and not p.is_symlink() else (
                "link:" + os.readlink(p) if p.is_symlink() else hashlib.sha1(p.read_bytes()).hexdigest())
    return out


CORPUS = [
    # output paths (item 1): unwritable, under /proc, parent a file, empty
    ["turn", "duel.toml", "--out", f"{READ_ONLY}/next.toml"],
    ["turn", "duel.toml", "--plot", f"{READ_ONLY}/turn.png"],
    ["turn", "duel.toml", "--animate", f"{READ_ONLY}/turn.gif"],
    ["turn", "duel.toml", "--out", "/proc/self/next.toml"],
    ["turn", "duel.toml", "--out", "/sys/next.toml"],
    ["turn", "duel.toml", "--out", "afile/next.toml"],
    ["turn", "duel.toml", "--plot", "ok.png", "--animate", "ok.gif", "--out", f"{READ_ONLY}/x.toml"],
    ["turn", "duel.toml", "--plot", ""],
    ["turn", "duel.toml", "--plot", "turn.jpeg"],
    ["turn", "duel.toml", "--out", "next.json"],
    ["turn", "duel.toml", "--out", "nodir/next.toml"],
    ["turn", "duel.toml", "--plot", "same.png", "--animate", "same.png"],
    ["move", "--deck", "A", "--cards", "A1", "--plot", f"{READ_ONLY}/m.png"],
    ["fan", "A", "--plot", "afile/f.png"],
    ["zones", "duel.toml", "--plane", "Camel", "--plot", "/proc/z.png"],
    # outputs that would destroy input (item 2)
    ["turn", "duel.toml", "--out", "duel.toml"],
    ["turn", "with_deck.toml", "--out", "A.toml"],
    ["turn", "duel.toml", "--out", "link.toml"],
    ["turn", "duel.toml", "--out", "./duel.toml"],
    ["move", "--deck", "A.toml", "--base", "small", "--cards", "A1", "--plot", "A.toml"],
    # absurd sizes and numbers at the edges (items 3, 4)
    ["move", "--deck", "A", "--base", "-5x5", "--cards", "A1"],
    ["move", "--deck", "A", "--base", "0x5", "--cards", "A1"],
    ["move", "--deck", "A", "--base", "1e999x5", "--cards", "A1"],
    ["move", "--deck", "A", "--base", "9999999x5", "--cards", "A1"],
    ["move", "--deck", "A", "--cards", ",".join(["A1"] * 5000)],
    ["move", "--deck", "A", "--cards", ""],
    ["move", "--deck", "A", "--cards", "A1,,A2"],
    ["move", "--deck", "A", "--cards", "A99"],
    ["move", "--deck", "A", "--cards", LONG],
    ["move", "--deck", LONG, "--cards", "A1"],
    ["move", "--deck", "A", "--start", "nan,0,0", "--cards", "A1"],
    ["move", "--deck", "A", "--start", "inf,0,0", "--cards", "A1"],
    ["move", "--deck", "A", "--start", "1e300,0,0", "--cards", "A1"],
    ["move", "--deck", "A", "--start", "1,2", "--cards", "A1"],
    ["move", "--deck", "A", "--start", "-1,-2,-3,-4", "--cards", "A1"],
    ["move", "--deck", "nosuchdeck", "--cards", "A1"],
    ["move", "--deck", "/no/such/deck.toml", "--cards", "A1"],
    ["move", "--deck", "/proc", "--cards", "A1"],
    ["move", "--deck", "A", "--base", "nosuchbase", "--cards", "A1"],
    ["move", "--deck", "A", "--base", "duel.toml", "--cards", "A1"],
    ["move", "--deck", "A", "--base", "A.toml:nope", "--cards", "A1"],
    ["move", "--cards", "A1"],
    ["move", "--deck", "A"],
    ["fan", "A", "--plot", "f.pdf", "--scale", "1e308:1"],
    ["fan", "A", "--plot", "f.pdf", "--scale", "-1:1"],
    ["fan", "A", "--plot", "f.pdf", "--scale", "1:0"],
    ["fan", "A", "--plot", "f.pdf", "--scale", "nan:1"],
    ["fan", "A", "--plot", "f.pdf", "--scale", "1"],
    ["fan", "A", "--plot", "f.pdf", "--scale", "1:1:1"],
    ["fan", "A", "--plot", "f.png", "--scale", "1:1"],
    ["fan", "A", "--plot", "f.png", "--paper", "A4"],
    ["fan", "A", "--scale", "1:1"],
    ["fan", "A", "--plot", "f.pdf", "--scale", "1:1", "--paper", "A3"],
    ["fan", "A", "--plot", "f.pdf", "--scale", "1:0.0001"],
    ["fan", "nosuchdeck"],
    ["fan", "A", "--vs", "nosuchdeck"],
    ["fan", "A", "--base", "-1x-1"],
    ["zones", "duel.toml", "--plane", "Nobody"],
    ["zones", "duel.toml", "--plane", "Camel", "--enemy-heading", "inf"],
    ["zones", "duel.toml", "--plane", "Camel", "--enemy-heading", "nan"],
    ["zones", "duel.toml", "--plane", "Camel", "--enemy-heading", "-inf"],
    ["zones", "duel.toml", "--plane", "Camel", "--enemy-heading", "north"],
    ["zones", "duel.toml", "--plane", LONG],
    ["zones", "nosuch.toml", "--plane", "Camel"],
    ["zones", "duel.toml"],
    ["turn", "nosuch.toml"],
    ["turn", "/proc"],
    ["turn", "A.toml"],
    ["turn", "afile"],
    ["turn", "duel.toml", "--seed", "-1"],
    ["turn", "duel.toml", "--seed", "1e3"],
    ["turn", "duel.toml", "--seed", "99999999999999999999999999"],
    ["turn", "duel.toml", "--seed", ""],
    ["turn", "duel.toml", "--policy", "greedy"],
    ["turn", "duel.toml", "--policy", ""],
    ["turn", "duel.toml", "--fps", "0", "--animate", "a.gif"],
    ["turn", "duel.toml", "--fps", "1000", "--animate", "a.gif"],
    ["turn", "duel.toml", "--fps", "x"],
    ["turn", "duel.toml", "--animate", "a.avi"],
    ["turn", "duel.toml", "--json", "--unknown"],
    ["turn"],
    ["play", "canuck", "--games", "99999999999999999999999999"],
    ["play", "canuck", "--games", "0"],
    ["play", "canuck", "--games", "-5"],
    ["play", "canuck", "--games", "1e6"],
    ["play", "canuck", "--seed", "-1"],
    ["play", "canuck", "--seed", "x"],
    ["play", "canuck", "--player", ""],
    ["play", "canuck", "--player", LONG],
    ["play", "canuck", "--map", "duel.toml"],
    ["play", "canuck", "--map", "/no/such.toml"],
    ["play", "canuck", "--map", "afile"],
    ["play", "canuck", "--interactive", "--games", "2"],
    ["play", "canuck", "--interactive", "--json"],
    ["play", "chess"],
    ["play"],
    ["nosuchcommand"],
    [],
    ["--version-of-nothing"],
    ["move", "--deck", "A", "--cards", "A1", "--json", "--plot", "m.svg", "--scale", "1:1"],
    ["turn", "duel.toml", "--plot", "t.pdf", "--scale", "1:1", "--paper", "Letter", "--out", "duel.toml"],
    ["zones", "duel.toml", "--plane", "Camel", "--plot", "z.pdf", "--paper", "A4"],
    ["sweep", "canuck", "--games", "0"],
    ["sweep", "canuck", "--games", "10", "--grid", "setup=sideways"],
    ["sweep", "canuck", "--games", "10", "--set", "nosuch=1"],
    ["sweep", "chess", "--games", "3"],
    ["sweep", "canuck", "--games", "10", "--out", "afile/x.parquet"],
    ["sweep", "canuck", "--games", "10", "--out", "x.xlsx"],
    ["sweep", "canuck", "--games", "10", "--out", "duel.toml"],
    ["sweep", "canuck", "--games", "10", "--workers", "0"],
    ["sweep", "canuck", "--games", "99999999999999999999999"],
    ["play", "yorktown", "--players", "5"],
    ["play", "yorktown", "--difficulty", "impossible"],
    ["play", "yorktown", "--expansions", "lasers"],
    ["play", "yorktown", "--novices", "-1"],
    ["play", "yorktown", "--map", "duel.toml"],
    ["play", "yorktown", "--plot", "afile/y.png"],
    ["play", "white-christmas", "--players", "1"],
    ["play", "white-christmas", "--players", "3", "--solo"],
    ["play", "white-christmas", "--data", "afile"],
    ["sweep", "white-christmas", "--games", "2", "--set", "solo=true", "--grid", "players=2,3"],
    ["sweep", "white-christmas", "--games", "2", "--grid", "solo=true,false", "--set", "players=3"],
    ["play", "white-christmas", "--plot", "wc.jpeg"],
    ["analyze", "duel.toml", "--plane", "Camel", "--workers", "0"],
    ["analyze", "duel.toml", "--plane", "Camel", "--workers", "2", "--scheduler", "tcp://x:1"],
    # an empty value is a mistake, never "not given" (issue #26 item 2)
    ["move", "--deck", "A", "--base", "", "--cards", "A1"],
    ["move", "--deck", "A", "--base=", "--cards", "A1"],
    ["fan", "A", "--vs", ""],
    ["play", "canuck", "--map", ""],
    ["play", "yorktown", "--map", ""],
    ["play", "yorktown", "--deck", ""],
    ["play", "yorktown", "--time", ""],
    ["play", "yorktown", "--expansions", ""],
    ["play", "yorktown", "--expansions", ",,"],
    ["play", "yorktown", "--expansions", "expert,,tank"],
    ["play", "white-christmas", "--data", ""],
    ["serve", ""],
    ["serve", " "],
    ["turn", "duel.toml", "--auto", ""],
    # furball serve: every mistake is found before anything listens
    ["serve", "nosuch.toml"],
    ["serve", "A.toml"],
    ["serve", "afile"],
    ["serve", "/proc"],
    ["serve", "far.toml"],
    ["serve", "duel.toml", "--port", "0"],
    ["serve", "duel.toml", "--port", "70000"],
    ["serve", "--port", "-1"],
    ["serve", "--port", "http"],
    ["serve", "--port", "99999999999999999999999"],
    ["serve", "--host", ""],
    ["serve", "--host", "bad host"],
    ["serve", "--host", LONG],
    ["serve", "--host", "no.such.host.invalid"],
    ["serve", "duel.toml", "extra.toml"],
    # furball analyze and turn --auto (issue 12)
    ["analyze", "duel.toml"],
    ["analyze", "nosuch.toml", "--plane", "Camel"],
    ["analyze", "bomber.toml", "--plane", "Escort"],
    *[["analyze", "duel.toml", "--plane", name] for name in ("Nobody", LONG)],
    *[["analyze", "duel.toml", "--plane", "Camel", *extra] for extra in (
        ("--vs", "Nobody"), ("--vs", "Camel"), ("--top", "0"), ("--top", "-3"), ("--top", "99999999999999999999"),
        ("--top", "x"), ("--plot", f"{READ_ONLY}/a.png"), ("--plot", "a.gif"), ("--plot", "duel.toml"),
        ("--enemy-weights", "nosuch.toml"), ("--enemy-weights", "A.toml"), ("--enemy-weights", "afile"),
        ("--plot", "duel.toml", "--enemy-weights", "duel.toml"), ("--json", "--unknown"))],
    *[[*scenario, "--auto", names] for scenario, names in (
        (["turn", "duel.toml"], "Nobody"), (["turn", "duel.toml"], "Camel,,Albatros"), (["turn", "duel.toml"], ""),
        (["turn", "bomber.toml"], "Escort"))],
]


def _big_deck() -> str:
    """A deck of 200 straight cards: 8,000,000 plans a plane (issue #26 item 6)."""
    cards = "".join(f'[[card]]\nid = "S{i}"\nname = "straight {i}"\npath = [ {{ straight_mm = {20 + i % 60}.0 }} ]\n'
                    f'flags = ["straight"]\n\n' for i in range(200))
    return f'[deck]\nname = "S"\nprovenance = "measured"\nbase = "small"\n\n{cards}'


WEIGHTS = {  # enemy-weights files that must be refused naming the file (issue #26 item 6)
    "w_zero.toml": '[[plan]]\nplane = "Albatros"\ncards = ["A1", "A3", "A4"]\nweight = 0\n',
    "w_illegal.toml": '[[plan]]\nplane = "Albatros"\ncards = ["A1", "A1", "A99"]\nweight = 1\n',
    "w_twice.toml": ('[[plan]]\nplane = "Albatros"\ncards = ["A1", "A3", "A4"]\nweight = 1\n'
                     '[[plan]]\nplane = "Albatros"\ncards = ["A1", "A3", "A4"]\nweight = 2\n'),
    "w_inf.toml": '[[plan]]\nplane = "Albatros"\ncards = ["A1", "A3", "A4"]\nweight = inf\n',
}


def _scenario_variants():
    """Scenario files whose content is hostile (item 5): same-side tail, far outside the
    table, a tiny table, a name with a newline, a comma in a card id."""
    duel = (EXAMPLES / "duel.toml").read_text()
    return {
        "same_side_tail.toml": duel.replace('plan = ["A1", "A3", "A4"]',
                                            'plan = ["A1", "A3", "A4"]\ntail = "Camel"').replace(
            'side = "Central Powers"', 'side = "Allies"'),
        "far.toml": duel.replace("x_mm = 250.0", "x_mm = 90000.0"),
        "tiny.toml": duel.replace("width_mm = 900.0", "width_mm = 1e-300"),
        "newline.toml": duel.replace('name = "Tailing duel"', 'name = "Tailing\\nduel"'),
        "plane_newline.toml": duel.replace('name = "Camel"', 'name = "Ca\\rmel"'),
        "huge_turn.toml": duel.replace("turn = 1", "turn = 99999999999999999999"),
        "big_decks.toml": duel.replace('deck = "A"', 'deck = "big_deck.toml"').replace(
            'plan = ["A1", "A3", "A4"]', "").replace('plan = ["A4", "A6", "A14"]', ""),
        "big_deck_plan.toml": duel.replace('deck = "A"', 'deck = "big_deck.toml"'),
    }


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    folder = _workspace(tmp_path_factory.mktemp("hostile"))
    for name, text in {**_scenario_variants(), **WEIGHTS, "big_deck.toml": _big_deck()}.items():
        (folder / name).write_text(text, encoding="utf-8")
    yield folder
    (folder / "ro").chmod(0o755)


def _run_in(folder, argv, stdin=None):
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(folder)
    saved_stdin = sys.stdin
    try:
        if stdin is not None:
            sys.stdin = stdin
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    finally:
        os.chdir(old)
        sys.stdin = saved_stdin
    return code, out.getvalue(), err.getvalue()


ALL = (CORPUS + [["turn", name] for name in _scenario_variants() if name != "big_decks.toml"]
       + [["zones", "far.toml", "--plane", "Camel"], ["analyze", "big_decks.toml", "--plane", "Camel"]]
       + [["analyze", "duel.toml", "--plane", "Camel", "--enemy-weights", name] for name in WEIGHTS])


def test_the_corpus_is_large():
    assert len(ALL) >= 100


@pytest.mark.parametrize("argv", ALL, ids=lambda a: " ".join(a)[:60])
def test_hostile_input_is_one_line_exit_2_and_leaves_everything_as_it_was(workspace, argv):
    before = _snapshot(workspace)
    code, out, err = _run_in(workspace, argv)
    assert code == 2, (code, err[:300])
    assert out == "" and err.count("\n") == 1 and err.startswith("furball: error: ")
    assert "Traceback" not in err and len(err) < 600  # over-long input is not echoed in full
    assert _snapshot(workspace) == before  # inputs unchanged, no output, no temporary file


def test_interactive_with_standard_input_closed(workspace):
    closed = io.StringIO()
    closed.close()
    code, out, err = _run_in(workspace, ["play", "canuck", "--interactive"], stdin=closed)
    assert code == 2 and "standard input is closed" in err and out == ""
