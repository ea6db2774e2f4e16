"""`furball play canuck`: log, JSON, many games, interactive play, user maps, errors."""
import io
import json
import subprocess
import sys

import pytest

from furball.scenarios.canuck.board import DEFAULT_MAP_PATH, default_map
from furball.scenarios.canuck.state import new_game
from furball.scenarios.cli.canuck import interactive, render


def test_one_game_prints_a_readable_log_ending_in_the_score(cli):
    code, out, err = cli(["play", "canuck", "--seed", "3"])
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "set-up (map 'canuck', reconstruction)"  # no seed in event lines (issue #37)
    assert any(line.startswith("> ") for line in lines)
    assert lines[-2].startswith("game over after") and lines[-1].startswith("VP: operations")


@pytest.mark.slow
def test_same_seed_same_output_byte_for_byte_through_the_cli(cli):
    cmd = [sys.executable, "-m", "furball", "play", "canuck", "--seed", "12"]
    first = subprocess.run(cmd, capture_output=True, check=True).stdout
    second = subprocess.run(cmd, capture_output=True, check=True).stdout
    assert first == second and len(first) > 500
    other = subprocess.run(cmd[:-1] + ["13"], capture_output=True, check=True).stdout
    assert other != first


def test_json_game_has_result_and_log(cli):
    code, out, _ = cli(["play", "canuck", "--seed", "4", "--json", "--player", "random"])
    doc = json.loads(out)
    assert code == 0 and doc["seed"] == 4 and doc["players"] == ["random"] and doc["game"] == "canuck"
    assert doc["result"]["band"] in ("major", "medium", "minor", "defeat")
    assert "reconstruction" in doc["log"][0]["events"][0] and doc["log"][0]["action"] is None


def test_many_games_print_bands_mean_vp_with_interval_and_length(cli):
    code, out, err = cli(["play", "canuck", "--games", "20", "--player", "heuristic", "--seed", "5"])
    assert code == 0
    for word in ("20 games, player heuristic", "major", "medium", "minor", "defeat", "vp: mean", "95% CI",
                 "options: mean"):
        assert word in out
    code, out, _ = cli(["play", "canuck", "--games", "10", "--json"])
    doc = json.loads(out)
    columns = {c["name"]: c for c in doc["columns"]}
    assert doc["games"] == 10 and sum(s["games"] for s in columns["band"]["shares"]) == 10
    vp = columns["vp"]
    assert vp["ci95"][0] <= vp["mean"] <= vp["ci95"][1]


def test_user_map_file(tmp_path, cli):
    text = DEFAULT_MAP_PATH.read_text(encoding="utf-8").replace('name = "Bra"', 'name = "Bra di Cuneo"') \
        .replace('"Bra"', '"Bra di Cuneo"')
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    code, out, _ = cli(["play", "canuck", "--seed", "1", "--map", str(path)])
    assert code == 0 and "Bra di Cuneo" in out


@pytest.mark.parametrize("argv, words", [
    (["play", "canuck", "--games", "0"], ["--games 0", "from 1"]),
    (["play", "canuck", "--seed", "-3"], ["--seed -3"]),
    (["play", "canuck", "--seed", "x"], ["--seed", "expected a whole number"]),
    (["play", "canuck", "--player", "genius"], ["--player 'genius'", "heuristic, random"]),
    (["play", "canuck", "--interactive", "--games", "3"], ["--interactive", "cannot be combined"]),
    (["play", "canuck", "--map", "/no/such/map.toml"], ["/no/such/map.toml", "no such file"]),
    (["play", "chess"], ["invalid choice"]),
])
def test_bad_input_is_one_line_exit_2(argv, words, cli):
    code, out, err = cli(argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("furball: error: ") and "Traceback" not in err
    for word in words:
        assert word in err


def test_bad_map_file_is_one_line(tmp_path, cli):
    path = tmp_path / "bad.toml"
    path.write_text(DEFAULT_MAP_PATH.read_text(encoding="utf-8").replace('boxes = ["BASE*"]', 'boxes = ["BASE"]'),
                    encoding="utf-8")
    code, _, err = cli(["play", "canuck", "--map", str(path)])
    assert code == 2 and "BASE* box" in err and str(path) in err and err.count("\n") == 1


def test_interactive_shows_map_reserve_and_options_and_quits_cleanly():
    out = io.StringIO()
    code = interactive(2, default_map(), io.StringIO("x\n99\n2\nq\n"), out)
    text = out.getvalue()
    assert code == 0 and "Reserve:" in text and "Alba" in text and "adjacent" in text
    assert "please type a number from 1 to" in text and "game left unfinished" in text
    assert "\n> " in text  # the chosen option was applied


def test_interactive_end_of_input_exits_cleanly_and_a_full_game_can_be_played():
    out = io.StringIO()
    assert interactive(2, default_map(), io.StringIO(""), out) == 0
    assert "end of input" in out.getvalue()
    out = io.StringIO()
    assert interactive(6, default_map(), io.StringIO("1\n" * 3000), out) == 0
    assert "VP: operations" in out.getvalue()


def test_interactive_through_the_cli_with_stdin(monkeypatch, cli):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nquit\n"))
    code, out, err = cli(["play", "canuck", "--interactive", "--seed", "9"])
    assert code == 0 and "choose 1-" in out and err == ""


def test_render_lists_every_area():
    text = render(new_game(1))
    for name in default_map().areas:
        assert name in text
