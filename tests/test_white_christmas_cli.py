"""`furball play white-christmas`: log, JSON, many games, solo, interactive hot seat, the
picture, user data files, and bad input (one line, exit 2, no traceback, fuzzed files)."""
import io
import json
import shutil
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import mangled

from furball.scenarios.cli import main
from furball.scenarios.cli.interactive import CLEAR
from furball.scenarios.engine import play_game
from furball.scenarios.white_christmas.components import DATA, FILES, load_components
from furball.scenarios.white_christmas.game import WHITE_CHRISTMAS
from furball.viz import api


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def data_dir(tmp_path, name=None, text=None):
    """A copy of the shipped data files, with ``name``.toml replaced by ``text``."""
    d = tmp_path / "data"
    d.mkdir(exist_ok=True)
    for f in FILES:
        shutil.copy(DATA / f"{f}.toml", d / f"{f}.toml")
    if name is not None:
        (d / f"{name}.toml").write_text(text, encoding="utf-8")
    return d


def test_one_game_prints_a_readable_log_ending_with_the_winner(capsys):
    code, out, err = run(["play", "white-christmas", "--seed", "3", "--players", "3"], capsys)
    lines = out.splitlines()
    assert code == 0 and err == ""
    assert lines[0] == "set-up (3 players, data: reconstruction)"  # no seed in event lines (issue #37)
    assert any(line.startswith("> P2: ") for line in lines)
    assert "round 4, phase 3 (sighting): turn order" in out and "the Cessna O-1 Bird Dog: radar totals" in out
    assert lines[-2].startswith("final score: ") and lines[-1].startswith("winner: P")


@pytest.mark.slow
def test_same_seed_same_output_byte_for_byte_through_the_cli():
    cmd = [sys.executable, "-m", "furball", "play", "white-christmas", "--players", "4", "--seed", "12"]
    first = subprocess.run(cmd, capture_output=True, check=True).stdout
    second = subprocess.run(cmd, capture_output=True, check=True).stdout
    assert first == second and len(first) > 5000
    assert subprocess.run(cmd[:-1] + ["13"], capture_output=True, check=True).stdout != first


def test_json_game_has_players_result_and_log(capsys):
    code, out, _ = run(["play", "white-christmas", "--seed", "4", "--json", "--player", "random", "--solo"], capsys)
    doc = json.loads(out)
    assert code == 0 and doc["game"] == "white-christmas" and doc["players"] == ["random"]
    assert doc["result"]["solo"] is True and doc["result"]["winner"] in ("P1", "Chambers")
    assert doc["log"][0]["action"] is None and "solo against Captain Chambers" in doc["log"][0]["events"][0]


def test_many_games_give_winner_shares_by_seat_with_intervals(capsys):
    code, out, err = run(["play", "white-christmas", "--games", "12", "--players", "4", "--seed", "5"], capsys)
    assert code == 0
    for word in ("12 games, player heuristic", "winner:", "P1", "P4", "95% CI", "vp_P3: mean", "margin: mean"):
        assert word in out
    code, out, _ = run(["play", "white-christmas", "--games", "6", "--solo", "--json"], capsys)
    doc = json.loads(out)
    columns = {c["name"]: c for c in doc["columns"]}
    shares = {s["value"]: s for s in columns["winner"]["shares"]}
    assert set(shares) == {"P1", "Chambers"} and sum(s["games"] for s in shares.values()) == 6
    assert columns["vp_Chambers"]["ci95"][0] <= columns["vp_Chambers"]["mean"] <= columns["vp_Chambers"]["ci95"][1]


def test_plot_draws_the_rooftops_helicopters_carriers_and_tracks(tmp_path, capsys):
    path = tmp_path / "table.png"
    code, out, _ = run(["play", "white-christmas", "--seed", "6", "--players", "4", "--plot", str(path)], capsys)
    assert code == 0 and path.stat().st_size > 10_000 and f"plot written to {path}" in out
    state = play_game(WHITE_CHRISTMAS, 6, "heuristic", {"players": 4}).final
    fig = api.figure("white-christmas", state)
    gids = [a.get_gid() or "" for ax in fig.axes for a in ax.get_children()]
    assert sum(g.startswith("roof:") and g.count(":") == 1 for g in gids) == 5
    assert sum(g.startswith("carrier:") and g.count(":") == 1 for g in gids) == 4
    assert sum(g.startswith("heli:") and g.count(":") == 2 for g in gids) == 8
    assert {f"influence:P{i}" for i in range(1, 5)} <= set(gids) and {f"score:P{i}" for i in range(1, 5)} <= set(gids)
    people = sum(len(r) for r in state.board.roofs) + sum(len(x.carrier) for x in state.sides)
    people += sum(len(a) for x in state.sides for a in x.aboard)
    assert sum(g.startswith("person:") for g in gids) == people
    assert "final position" in fig.axes[0].get_title()


def test_user_data_directory_replaces_the_shipped_files(tmp_path, capsys):
    text = (DATA / "rooftops.toml").read_text(encoding="utf-8").replace("US Embassy", "Pittman Building")
    d = data_dir(tmp_path, "rooftops", text)
    code, out, _ = run(["play", "white-christmas", "--seed", "1", "--data", str(d)], capsys)
    assert code == 0 and "Pittman Building" in out and "US Embassy" not in out
    assert load_components(d).rooftops[1].name == "Pittman Building"


@pytest.mark.parametrize("argv, words", [
    (["--players", "5"], ["--players 5", "expected 2, 3 or 4"]),
    (["--players", "x"], ["--players x", "expected 2, 3 or 4"]),
    (["--players", "3", "--solo"], ["--solo with --players", "WC.H1"]),  # the flags, as written (issue #35)
    (["--humans", "1"], ["--humans", "only with --interactive"]),
    (["--interactive", "--humans", "4", "--players", "3"], ["--humans 4", "from 1 to 3"]),
    (["--games", "0"], ["--games 0", "from 1"]),
    (["--seed", "-1"], ["--seed -1"]),
    (["--player", "genius"], ["--player 'genius'", "heuristic, random"]),
    (["--data", "/no/such/dir"], ["/no/such/dir", "expected a directory"]),
    (["--plot", "table.txt"], ["--plot table.txt", ".png"]),
])
def test_bad_input_is_one_line_exit_2(argv, words, capsys):
    code, out, err = run(["play", "white-christmas"] + argv, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("furball: error: ") and "Traceback" not in err
    for word in words:
        assert word in err


@pytest.mark.parametrize("name, old, new, words", [
    ("helicopters", "capacity = 2", "capacity = 0", ["helicopters.toml", "'CH-46 Sea Knight'", "day",
                                                     "field 'capacity'", "integer >= 1"]),
    ("rooftops", "players = [4]", "players = [5]", ["rooftops.toml", "'DAO Annex'", "field 'players'"]),
    ("staircases", '"businesswoman"]', '"banker"]', ["staircases.toml", "field 'people'", "People type"]),
    ("radar", "6, 6, 6]", "6, 6]", ["radar.toml", "field 'values'", "18 token values"]),
    ("action_cards", "copies = 4", "copies = 3", ["action_cards.toml", "38 action cards"]),
    ("influence", 'face_b = [["radar", "vp", "special_order"], ["vp", "influence", "vp"]]',
     'face_b = [["radar", "vp", "special_order"], ["vp", "influence"]]', ["influence.toml", "effect_card 'red'", "face_b"]),
    ("influence", 'face_a = [["vp", "move", "vp"], ["radar", "vp", "rescue"]]', 'face_a = [["vp", "move", "vp"]]',
     ["influence.toml", "effect_card 'red'", "face_a", "two halves"]),
    ("special_orders", "vp = 6", "vp = 'six'", ["special_orders.toml", "'Government in exile'", "field 'vp'"]),
    ("sightings", "vp_two = [8, 3]", "vp_two = [8]", ["sightings.toml", "cessna", "field 'vp_two'"]),
    ("carrier", "radar = 10", "radar = 0", ["carrier.toml", "upgrade 4"]),
    ("people", "tokens = 8\n\n[[type]]\nname = \"soldier\"", "tokens = 9\n\n[[type]]\nname = \"soldier\"",
     ["people.toml", "32 People tokens"]),
    ("carrier", "spaces = 4", "spaces = 4\ncolor = 1", ["carrier.toml", "unknown field 'color'"]),
])
def test_bad_data_file_is_one_line_naming_file_and_field(tmp_path, capsys, name, old, new, words):
    text = (DATA / f"{name}.toml").read_text(encoding="utf-8")
    assert old in text
    d = data_dir(tmp_path, name, text.replace(old, new, 1))
    code, out, err = run(["play", "white-christmas", "--data", str(d)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    for word in words:
        assert word in err


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(st.sampled_from(FILES), st.data())
def test_fuzzed_data_files_never_escape_as_a_traceback(tmp_path_factory, name, data):
    """Malformed data files: exit 0 (still valid) or 2 with one line; never a traceback."""
    text = data.draw(mangled((DATA / f"{name}.toml").read_text(encoding="utf-8")))
    d = data_dir(tmp_path_factory.mktemp("fuzz"), name, text)
    out, err = io.StringIO(), io.StringIO()
    import contextlib
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["play", "white-christmas", "--seed", "1", "--players", "3", "--data", str(d)])
    assert code in (0, 2)
    if code == 2:
        assert err.getvalue().startswith("furball: error: ") and err.getvalue().count("\n") == 1
    else:
        assert "winner: " in out.getvalue()


def test_interactive_solo_game_against_chambers_plays_to_the_end():
    code = main_interactive(["--solo", "--seed", "2"], "1\n" * 2000)
    assert code[0] == 0 and "Chambers" in code[1] and "winner: " in code[1] and CLEAR not in code[1]


def test_interactive_hot_seat_clears_the_screen_between_seats_and_quits_cleanly():
    code, text = main_interactive(["--players", "2", "--seed", "3"], "\n1\n\n1\nq\n")
    assert code == 0 and CLEAR in text and "Pass the keyboard to P2 and press Enter." in text
    assert "Your hand:" in text and "game left unfinished" in text


def test_interactive_with_heuristic_bots_for_the_other_seats():
    code, text = main_interactive(["--players", "3", "--humans", "1", "--seed", "4"], "1\n" * 3000)
    assert code == 0 and "(bot)" in text and "winner: " in text and "Pass the keyboard" not in text


def main_interactive(args, keys):
    stdin, stdout = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = io.StringIO(keys), io.StringIO()
    try:
        code = main(["play", "white-christmas", "--interactive"] + args)
        return code, sys.stdout.getvalue()
    finally:
        sys.stdin, sys.stdout = stdin, stdout
