"""`furball move`: output, plot, and clean failures (one line, exit 2, no file)."""
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from strategies import mangled

from furball.scenarios.cli import main

DECK = '''[deck]
name = "F"
provenance = "reconstruction"

[[card]]
id = "F1"
path = [ { straight_mm = 40.0 }, { arc = { radius_mm = 80.0, angle_deg = 45.0 } } ]

[[card]]
id = "F2"
end = { x_mm = 60.0, y_mm = 12.5, heading_deg = 30.0 }
'''




def test_json_has_one_pose_per_card_and_final(cli):
    code, out, err = cli(["move", "--deck", "A", "--base", "small", "--start", "0,0,0",
                          "--cards", "A1,A4,A2", "--json"])
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert len(doc["poses"]) == 3 and doc["final"] == {k: doc["poses"][-1][k] for k in ("x", "y", "heading")}
    assert doc["poses"][0] == {"x": 22.0 + 80.0 + 22.0, "y": 0.0, "heading": 0.0, "card": "A1"}


def test_negative_start_coordinates_and_size_base(cli):
    code, out, _ = cli(["move", "--deck", "template", "--base", "40x50", "--start", "-100,-5.5,90",
                        "--cards", "S20", "--json"])
    assert code == 0
    assert json.loads(out)["final"] == {"x": -100.0, "y": -5.5 + 20.0 + 20.0 + 20.0, "heading": 90.0}


def test_plot_writes_a_png(tmp_path, cli):
    png = tmp_path / "move.png"
    code, out, _ = cli(["move", "--deck", "A", "--cards", "A1,A8,A12,A13,A10", "--plot", str(png)])
    assert code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert list(tmp_path.iterdir()) == [png]  # no temporary file left behind


@pytest.mark.parametrize("argv, words", [
    (["move", "--deck", "Z", "--cards", "A1"], ["deck 'Z'"]),
    (["move", "--deck", "A", "--cards", "A1,Q7"], ["unknown card 'Q7'"]),
    (["move", "--deck", "A", "--cards", "A1", "--start", "1,2"], ["--start", "X,Y,HEADING"]),
    (["move", "--deck", "A", "--cards", "A1", "--base", "tiny"], ["base 'tiny'"]),
    (["move", "--deck", "A"], ["--cards"]),
    (["move", "--deck", "A", "--cards", "A1,,A2"], ["--cards"]),
    (["fly"], ["invalid choice"]),
])
def test_bad_cli_input_is_one_line_and_exit_2(argv, words, tmp_path, cli):
    png = tmp_path / "out.png"
    code, out, err = cli(argv + ["--plot", str(png)] if argv[0] == "move" and "--deck" in argv else argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("furball: error:")
    for word in words:
        assert word in err
    assert not png.exists()


def test_bad_deck_file_on_the_cli(tmp_path, cli):
    bad = tmp_path / "bad.toml"
    bad.write_text(DECK.replace("radius_mm = 80.0", "radius_mm = -1"), encoding="utf-8")
    code, _, err = cli(["move", "--deck", str(bad), "--base", "small", "--cards", "F1"])
    assert code == 2 and str(bad) in err and "card 'F1'" in err and "radius_mm" in err


@pytest.mark.slow
def test_console_script_runs_end_to_end(tmp_path, cli):
    png = tmp_path / "m.png"
    proc = subprocess.run([sys.executable, "-m", "furball", "move", "--deck", "A", "--cards", "A1,A6",
                           "--plot", str(png)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert png.exists()
    proc = subprocess.run([sys.executable, "-m", "furball", "move", "--deck", "A", "--cards", "A0"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


@settings(max_examples=150)
@given(mangled(DECK))
def test_fuzz_malformed_deck_files_never_escape_as_a_traceback(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("fuzz") / "deck.toml"
    path.write_text(text, encoding="utf-8")
    import contextlib
    import io
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["move", "--deck", str(path), "--base", "small", "--cards", "F1,F2", "--json"])
    assert code in (0, 2)
    if code == 2:
        assert err.getvalue().count("\n") == 1 and out.getvalue() == ""
    else:
        assert json.loads(out.getvalue())["poses"]


@pytest.mark.parametrize("argv", [
    ["move", "--deck", "A", "--cards", "A1", "--start", "1e308,0,0"],
    ["move", "--deck", "A", "--cards", "A1", "--base", "99999999999x5"],
])
def test_absurd_sizes_are_refused_not_overflowed(argv, tmp_path, capsys):
    huge = tmp_path / "huge.toml"
    huge.write_text(DECK.replace("straight_mm = 40.0", "straight_mm = 1e308"), encoding="utf-8")
    assert main(argv) == 2
    assert main(["move", "--deck", str(huge), "--base", "small", "--cards", "F1"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "at most 1e+06 mm" in err


@pytest.mark.parametrize("argv, words", [
    (["--bogus"], ["required: COMMAND"]), (["move", "--deck", "A", "--cards", "A1", "--bogus"], ["unrecognized"]),
    (["play"], ["play: ", "required: GAME"]), (["play", "canuck", "--bogus"], ["unrecognized arguments: --bogus"]),
    (["play", "white-christmas", "--seed", "x"], ["play white-christmas: argument --seed"]),
    (["move", "--deck", "A"], ["move: ", "required: --cards"])])
def test_an_argparse_error_names_the_program_once_and_the_command(argv, words, cli):
    """Issue #35: 'furball: error: furball: unrecognized arguments' said the name twice."""
    code, out, err = cli(argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("furball: error: ")
    assert err.count("furball") == 1, err
    for word in words:
        assert word in err, err
