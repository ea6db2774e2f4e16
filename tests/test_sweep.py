"""Sweeps run in this process: grids, rows, seeds, batching, checkpoints and resume,
row files, the Canuck set-up option (CN.S3), the picture."""
import csv
import json

import pytest

from furball.errors import InputError
from furball.scenarios.canuck import CANUCK, new_game
from furball.scenarios.canuck.game import summary
from furball.scenarios.canuck.placement import STACK, free_placement
from furball.scenarios.engine import play_game, series_seeds
from furball.scenarios.engine.sweep import Checkpoint, plan_sweep, run_sweep, write_rows


def test_series_seeds_from_any_start_are_the_same_series():
    whole = series_seeds(9, 30)
    assert series_seeds(9, 10, start=20) == whole[20:]
    assert series_seeds(9, 0, start=5) == [] and len(set(whole)) == 30


def test_grid_points_are_every_combination_first_key_slowest():
    plan = plan_sweep(CANUCK, 3, 1, settings={"player": "random"}, grid={"setup": ["default", "free"]})
    assert [p.label for p in plan.points] == ["setup=default", "setup=free"]
    assert plan_sweep(CANUCK, 3).points[0].label == "player=heuristic"
    assert [p.options for p in plan.points] == [{"setup": "default"}, {"setup": "free"}]
    assert all(p.players == ("random",) for p in plan.points)
    plan = plan_sweep(CANUCK, 2, grid={"player": ["heuristic", "random"], "setup": ["default", "free"]})
    assert [(p.players[0], p.options["setup"]) for p in plan.points] == [
        ("heuristic", "default"), ("heuristic", "free"), ("random", "default"), ("random", "free")]


@pytest.mark.parametrize("kwargs, words", [
    ({"settings": {"colour": "red"}}, ["unknown option 'colour'", "map, setup"]),
    ({"grid": {"setup": ["default", "sideways"]}}, ["option setup", "default, free", "sideways"]),
    ({"settings": {"map": "/no/such/map.toml"}}, ["map.toml"]),
    ({"settings": {"setup": "free"}, "grid": {"setup": ["free"]}}, ["setup", "both"]),
    ({"grid": {"setup": []}}, ["--grid setup", "at least one"]),
    ({"grid": {"setup": ["free", "free"]}}, ["twice"]),
    ({"player": "clever"}, ["--player 'clever'", "heuristic, random"]),
    ({"player": "random/random"}, ["expected one bot or 1"]),
    ({"games": 0}, ["--games 0"]),
    ({"games": 10**10}, ["--games"]),
    ({"seed": -1}, ["seed"]),
    ({"batch": 0}, ["--batch 0"]),
])
def test_bad_sweeps_are_refused_in_one_line_before_any_game(kwargs, words):
    args = {"games": 5, **kwargs}
    with pytest.raises(InputError) as err:
        plan_sweep(CANUCK, **args)
    message = str(err.value)
    assert "\n" not in message and all(w in message for w in words), message


def test_too_many_grid_points_are_refused():
    with pytest.raises(InputError, match="more than 10000 grid points"):
        plan_sweep(CANUCK, 1, grid={"a": list(range(101)), "b": list(range(101))})


def test_rows_are_one_per_game_in_order_with_the_series_seeds_and_each_games_result():
    result = run_sweep(CANUCK, 6, seed=4, grid={"setup": ["default", "free"]}, workers=1, batch=4)
    assert result.complete and len(result.rows) == 12
    assert [(r["point"], r["game"]) for r in result.rows] == [(p, g) for p in (0, 1) for g in range(6)]
    seeds = series_seeds(4, 6)
    assert [r["seed"] for r in result.rows] == seeds + seeds  # the same deals at every point
    for r in (result.rows[0], result.rows[7]):
        record = play_game(CANUCK, r["seed"], "heuristic", {"setup": r["setup"]}, keep_log=False)
        assert {k: r[k] for k in record.result} == record.result
        assert r["player"] == "heuristic"


def test_rows_do_not_depend_on_how_games_are_batched():
    runs = [run_sweep(CANUCK, 9, seed=2, player="random", workers=1, batch=b).rows for b in (1, 4, 9, None)]
    assert all(rows == runs[0] for rows in runs)


def test_summary_per_point_uses_the_games_own_summary():
    result = run_sweep(CANUCK, 8, seed=3, grid={"player": ["heuristic", "random"]}, workers=1)
    tables = result.summaries(summary)
    assert [t.games for _, t in tables] == [8, 8]
    assert tables[0][1].label == "player=heuristic"
    assert tables[0][1].table() == summary(result.point_rows(0), "player=heuristic").table()
    text = result.table(summary)
    assert "[0] 8 games, player=heuristic" in text and "[1] 8 games, player=random" in text
    doc = result.to_json(summary)
    assert doc["points"][1]["settings"] == {"player": "random"} and doc["complete"] is True


def _stop_after(tasks: int):
    seen = []

    def progress(n):
        seen.append(n)
        if len(seen) == tasks:
            raise KeyboardInterrupt

    return progress


def test_an_interrupted_sweep_keeps_finished_tasks_and_resume_finishes_it(tmp_path):
    """Ctrl-C keeps what was finished (checkpoint), --resume plays only the rest, and the
    result is the uninterrupted sweep's."""
    out, part = tmp_path / "rows.csv", tmp_path / "rows.csv.partial"
    kwargs = dict(seed=5, player="random", grid={"setup": ["default", "free"]}, workers=1, batch=3)
    first = run_sweep(CANUCK, 7, **kwargs, progress=_stop_after(2), out=out, checkpoint=part)
    assert not first.complete and first.games_done == 6 and part.exists() and not out.exists()
    assert len(part.read_text().splitlines()) == 1 + 2
    played = []
    second = run_sweep(CANUCK, 7, **kwargs, progress=played.append, out=out, checkpoint=part, resume=True)
    assert second.complete and not part.exists() and played[0] == 6 and sum(played) == 14
    assert second.rows == run_sweep(CANUCK, 7, **kwargs).rows
    with open(out, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 14 and [int(r["seed"]) for r in rows] == [r["seed"] for r in second.rows]


def test_resume_ignores_a_last_line_cut_short_and_refuses_another_sweep(tmp_path):
    part = tmp_path / "rows.parquet.partial"
    kwargs = dict(seed=1, player="random", workers=1, batch=2)
    run_sweep(CANUCK, 6, **kwargs, progress=_stop_after(2), checkpoint=part)
    with open(part, "a") as fh:
        fh.write('{"task": [0, 4, 6], "rows": [{"poi')  # a crash in the middle of a line
    plan = plan_sweep(CANUCK, 6, **{k: v for k, v in kwargs.items() if k != "workers"})
    batch, done = Checkpoint(part).load(plan)
    assert batch == 2 and sorted(done) == [(0, 0, 2), (0, 2, 4)]
    with pytest.raises(InputError, match="different sweep"):
        Checkpoint(part).load(plan_sweep(CANUCK, 6, seed=2, player="random"))
    finished = run_sweep(CANUCK, 6, **kwargs, checkpoint=part, resume=True)
    assert finished.complete and finished.rows == run_sweep(CANUCK, 6, **kwargs).rows


def test_rows_files_parquet_and_csv_keep_every_value(tmp_path):
    import pyarrow.parquet as pq

    rows = run_sweep(CANUCK, 4, seed=8, player="random", workers=1).rows
    write_rows(rows, tmp_path / "r.parquet")
    assert pq.read_table(tmp_path / "r.parquet").to_pylist() == rows  # 64-bit seeds included
    write_rows(rows, tmp_path / "r.csv")
    assert (tmp_path / "r.csv").read_text().splitlines()[0].startswith("point,game,seed,player,vp")
    with pytest.raises(InputError, match="parquet, .csv"):
        write_rows(rows, tmp_path / "r.xlsx")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv", "r.parquet"]  # no temporary left


def test_CN_S3_free_setup_places_the_stacks_next_to_the_weakest_garrisons():
    s = new_game(7)
    placement = free_placement(s.board, s.garrison)
    assert len(placement) == 4 and set(placement.values()) == {STACK}
    assert all(s.board.area(name) in s.board.base for name in placement)
    board = s.board
    scores = {a: sum(7 - s.garrison[g] for g in board.near[a] if s.garrison[g]) + 3 * (board.alba in board.near[a])
              for a in board.base}
    chosen = {board.area(n) for n in placement}
    assert min(scores[a] for a in chosen) >= max(scores[a] for a in set(board.base) - chosen)
    free = CANUCK.new_game(7, setup="free")
    assert free.groups == tuple(2 if a in chosen else 0 for a in range(len(board.areas)))
    assert "free set-up, CN.S3" in free.events[3] and "free set-up" not in CANUCK.new_game(7).events[3]
    assert free.deck == CANUCK.new_game(7).deck  # the same deal: only the counters moved


def test_sweep_picture_has_a_distribution_and_a_mean_per_point():
    from furball.viz.api import figure

    result = run_sweep(CANUCK, 10, seed=1, grid={"setup": ["default", "free"]}, player="random", workers=1)
    fig = figure("sweep", result)
    ax = fig.axes[0]
    gids = {a.get_gid() for a in ax.get_children()}
    assert {"hist:0", "hist:1", "mean:0", "mean:1"} <= gids
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[0].startswith("setup=default: mean") and "furball sweep" in ax.get_title()
    assert ax.get_xlabel() == "vp"


def test_sweep_picture_of_categories_shows_shares_with_intervals():
    from furball.scenarios.engine.sweep import SweepResult
    from furball.viz.sweep import sweep_picture

    plan = plan_sweep(CANUCK, 2, grid={"setup": ["default", "free"]})
    rows = [{"point": p, "game": g, "seed": g, "player": "heuristic", "setup": s, "winner": w}
            for p, s in ((0, "default"), (1, "free")) for g, w in ((0, "axis"), (1, "partisan"))]
    from furball.viz.picture import render

    fig = render(sweep_picture(SweepResult.from_rows(plan, rows)))
    gids = {a.get_gid() for a in fig.axes[0].get_children()}
    assert {"shares:0", "shares:1"} <= gids
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["axis", "partisan"]


def test_checkpoint_first_line_describes_the_sweep(tmp_path):
    part = tmp_path / "x.partial"
    run_sweep(CANUCK, 4, seed=3, player="random", workers=1, batch=2, progress=_stop_after(1), checkpoint=part)
    head = json.loads(part.read_text().splitlines()[0])
    assert head["batch"] == 2 and head["furball_sweep"]["game"] == "canuck" and head["furball_sweep"]["seed"] == 3
