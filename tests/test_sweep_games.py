"""Every registered game can be swept with nothing of its own but its Game descriptor:
Yorktown's and White Christmas's options through --set and --grid, points whose result
columns differ (a third seat's VP), an option that the result also reports, values that
hold commas."""
import csv

from furball.scenarios.cli import main
from furball.scenarios.engine import registry
from furball.scenarios.engine.sweep import run_sweep


def test_every_registered_game_sweeps_with_its_own_summary(capsys):
    for entry in registry.GAMES:
        assert main(["sweep", entry.name, "--games", "3", "--workers", "1"]) == 0
        out = capsys.readouterr().out
        assert out.startswith(entry.title) and "[0] 3 games, player=" in out


def test_points_with_different_result_columns_keep_their_own(tmp_path, capsys):
    """White Christmas: 2 and 3 players have 2 and 3 VP columns; its result also says
    'players', so the option's column is set_players."""
    rows = tmp_path / "wc.csv"
    code = main(["sweep", "white-christmas", "--games", "4", "--workers", "1", "--grid", "players=2,3",
                 "--out", str(rows)])
    out = capsys.readouterr().out
    assert code == 0 and "vp_P3" not in out.split("[1]")[0] and "vp_P3: mean" in out.split("[1]")[1]
    table = list(csv.DictReader(rows.open()))
    assert list(table[0])[:8] == ["point", "game", "seed", "player", "set_players", "players", "solo", "winner"]
    assert table[0]["vp_P3"] == "" and table[-1]["vp_P3"] != "" and table[-1]["set_players"] == "3"


def test_grid_values_holding_commas_are_separated_by_semicolons(capsys):
    code = main(["sweep", "yorktown", "--games", "2", "--workers", "1", "--grid", "expansions=expert;expert,tank"])
    out = capsys.readouterr().out
    assert code == 0 and "[0] 2 games, expansions=expert\n" in out and "[1] 2 games, expansions=expert,tank" in out


def test_one_bot_per_seat():
    from furball.scenarios.white_christmas.game import WHITE_CHRISTMAS

    result = run_sweep(WHITE_CHRISTMAS, 2, settings={"players": "3"}, player="heuristic/random/random", workers=1)
    assert result.plan.points[0].players == ("heuristic", "random", "random")
    assert {r["player"] for r in result.rows} == {"heuristic/random/random"}
