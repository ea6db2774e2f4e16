"""`furball play yorktown`: log, JSON, many games, pictures, interactive play, user files,
bad options and malformed files (fuzzed: no traceback ever escapes)."""
import contextlib
import io
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from strategies import mangled

from furball.scenarios.cli import main
from furball.scenarios.yorktown.board import DEFAULT_MAP_PATH
from furball.scenarios.yorktown.deck import DEFAULT_DECK_PATH
from furball.scenarios.yorktown.tables import TIME_PATH

MAP_TEXT = DEFAULT_MAP_PATH.read_text(encoding="utf-8")
DECK_TEXT = DEFAULT_DECK_PATH.read_text(encoding="utf-8")
TIME_TEXT = TIME_PATH.read_text(encoding="utf-8")


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_one_game_prints_a_readable_log_ending_in_the_result(capsys):
    code, out, err = run(["play", "yorktown", "--seed", "3"], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("set-up (map 'coral sea' reconstruction, deck reconstruction")  # no seed (issue #37)
    assert any(line.startswith("> ") for line in lines) and any("Japanese phase" in line for line in lines)
    assert lines[-2].startswith("game over in turn") and ("VICTORY" in lines[-2] or "DEFEAT" in lines[-2])


@pytest.mark.slow
def test_same_seed_same_output_byte_for_byte_through_the_cli():
    cmd = [sys.executable, "-m", "furball", "play", "yorktown", "--seed", "12", "--players", "2"]
    first = subprocess.run(cmd, capture_output=True, check=True).stdout
    second = subprocess.run(cmd, capture_output=True, check=True).stdout
    assert first == second and len(first) > 1000
    assert subprocess.run(cmd[:-3] + ["13"], capture_output=True, check=True).stdout != first


def test_json_game_has_result_and_log(capsys):
    code, out, _ = run(["play", "yorktown", "--seed", "4", "--json", "--player", "random", "--players", "3"], capsys)
    doc = json.loads(out)
    assert code == 0 and doc["game"] == "yorktown" and doc["players"] == ["random"] * 3
    assert doc["result"]["result"] in ("victory", "defeat") and doc["log"][0]["action"] is None


def test_many_games_print_win_rate_causes_and_minutes(capsys):
    code, out, err = run(["play", "yorktown", "--games", "12", "--seed", "5", "--difficulty", "easy"], capsys)
    assert code == 0
    for word in ("12 games, player heuristic", "victory", "defeat", "shoho_sunk", "yorktown_sunk", "time",
                 "no_planes", "minutes: mean", "95% CI"):
        assert word in out
    code, out, _ = run(["play", "yorktown", "--games", "6", "--json", "--player", "random"], capsys)
    doc = json.loads(out)
    columns = {c["name"]: c for c in doc["columns"]}
    assert doc["games"] == 6 and sum(s["games"] for s in columns["result"]["shares"]) == 6
    assert columns["minutes"]["ci95"][0] <= columns["minutes"]["mean"] <= columns["minutes"]["ci95"][1]


def test_options_and_expansions_reach_the_game(capsys):
    code, out, _ = run(["play", "yorktown", "--seed", "2", "--players", "3", "--novices", "1", "--difficulty",
                        "hard", "--expansions", "expert,tank,weather"], capsys)
    assert code == 0 and "3 players, hard, 1 novice(s), expansions: expert, tank, weather" in out
    assert "timer 28 minutes" in out  # 25 + 1 (3 players) + 2 (a novice)
    assert "> P3: " in out  # the third seat flies Dauntless 4


def test_plot_draws_the_archipelago_and_canuck_draws_its_map(tmp_path, capsys):
    png = tmp_path / "board.png"
    code, out, _ = run(["play", "yorktown", "--seed", "6", "--plot", str(png)], capsys)
    assert code == 0 and png.stat().st_size > 10_000 and f"plot written to {png}" in out
    canuck = tmp_path / "canuck.svg"
    code, out, _ = run(["play", "canuck", "--seed", "6", "--plot", str(canuck)], capsys)
    assert code == 0 and "Alba" in canuck.read_text(encoding="utf-8")
    code, _, err = run(["play", "yorktown", "--plot", str(tmp_path / "x.txt")], capsys)
    assert code == 2 and ".png" in err


def test_user_map_deck_and_time_files(tmp_path, capsys):
    mine = tmp_path / "map.toml"
    mine.write_text(MAP_TEXT.replace('"Trobriand"', '"Kiriwina"'), encoding="utf-8")
    deck = tmp_path / "deck.toml"
    deck.write_text(DECK_TEXT.replace("attack_dice = 4", "attack_dice = 5"), encoding="utf-8")
    clock = tmp_path / "time.toml"
    clock.write_text(TIME_TEXT.replace("normal = 30", "normal = 20"), encoding="utf-8")
    code, out, _ = run(["play", "yorktown", "--seed", "1", "--map", str(mine), "--deck", str(deck), "--time",
                        str(clock)], capsys)
    assert code == 0 and "Kiriwina" in out and "timer 23 minutes" in out


@pytest.mark.parametrize("argv, words", [
    (["--players", "5"], ["--players 5", "1 to 4"]),
    (["--players", "two"], ["--players 'two'"]),
    (["--novices", "2"], ["--novices 2", "0 to 1"]),
    (["--difficulty", "brutal"], ["--difficulty 'brutal'", "easy, normal, hard"]),
    (["--expansions", "expert,dragons"], ["--expansions", "'dragons'"]),
    (["--games", "0"], ["--games 0"]),
    (["--player", "genius"], ["--player 'genius'", "heuristic, random"]),
    (["--map", "/no/such/map.toml"], ["/no/such/map.toml", "no such file"]),
    (["--deck", "/no/such/deck.toml"], ["/no/such/deck.toml", "no such file"]),
    (["--interactive", "--games", "3"], ["cannot be combined"]),
])
def test_bad_input_is_one_line_exit_2(argv, words, capsys):
    code, out, err = run(["play", "yorktown"] + argv, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("furball: error: ") and "Traceback" not in err
    for word in words:
        assert word in err


def test_bad_map_and_deck_files_name_the_file_and_field(tmp_path, capsys):
    bad = tmp_path / "map.toml"
    bad.write_text(MAP_TEXT.replace('colour = "green"\nnumber = 2', 'colour = "blue"\nnumber = 2'), encoding="utf-8")
    code, _, err = run(["play", "yorktown", "--map", str(bad)], capsys)
    assert code == 2 and str(bad) in err and "node 'New Ireland'" in err and "'colour'" in err
    deck = tmp_path / "deck.toml"
    deck.write_text(DECK_TEXT.replace("shoot_down = 3", "shoot_down = -3"), encoding="utf-8")
    code, _, err = run(["play", "yorktown", "--deck", str(deck)], capsys)
    assert code == 2 and str(deck) in err and "'shoot_down'" in err and err.count("\n") == 1


def _fuzz(tmp_path_factory, option, name, text):
    path = tmp_path_factory.mktemp("fuzz") / name
    path.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["play", "yorktown", option, str(path), "--seed", "1"])
    assert code in (0, 2)
    if code == 2:
        assert err.getvalue().count("\n") == 1 and out.getvalue() == "" and str(path) in err.getvalue()
    else:
        assert "game over in turn" in out.getvalue()


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(mangled(MAP_TEXT))
def test_fuzz_malformed_map_files_never_escape_as_a_traceback(tmp_path_factory, text):
    _fuzz(tmp_path_factory, "--map", "map.toml", text)


@settings(max_examples=40, deadline=None)
@given(mangled(DECK_TEXT))
def test_fuzz_malformed_deck_files_never_escape_as_a_traceback(tmp_path_factory, text):
    _fuzz(tmp_path_factory, "--deck", "deck.toml", text)


@settings(max_examples=25, deadline=None)
@given(mangled(TIME_TEXT))
def test_fuzz_malformed_time_files_never_escape_as_a_traceback(tmp_path_factory, text):
    _fuzz(tmp_path_factory, "--time", "time.toml", text)


def test_interactive_one_person_flies_every_crew_and_quits_cleanly(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("x\n99\n1\n2\nq\n"))
    code, out, err = run(["play", "yorktown", "--interactive", "--seed", "9", "--players", "2"], capsys)
    assert code == 0 and err == ""
    assert "island" in out and "white lines to" in out and "Dauntless 4" in out  # the board each decision
    assert "please type a number from 1 to" in out and "game left unfinished" in out
    assert "P1, choose 1-" in out and "> P1: set up Dauntless 3 and 4" in out


def test_interactive_a_whole_game_can_be_played_from_the_keyboard(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 4000))
    code, out, _ = run(["play", "yorktown", "--interactive", "--seed", "3"], capsys)
    assert code == 0 and "game over in turn" in out
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, _ = run(["play", "yorktown", "--interactive", "--seed", "3"], capsys)
    assert code == 0 and "end of input" in out
