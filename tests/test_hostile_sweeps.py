"""Issue #26 items 3-5 and 8: sweeps and series that must refuse, one line each, and
leave every file as it was (inputs named in options, corrupt or foreign checkpoints)."""
import json
import pathlib
import shutil

import pytest

from furball.scenarios.canuck.game import CANUCK
from furball.scenarios.engine.sweep import run_sweep

ROOT = pathlib.Path(__file__).resolve().parent.parent
MAP = ROOT / "scenarios" / "canuck" / "data" / "canuck_map.toml"


def _refused(cli, argv, *, words=(), keep=()):
    before = {p: p.read_bytes() for p in keep}
    code, out, err = cli(argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("furball: error: "), err
    assert all(w in err for w in words), err
    assert {p: p.read_bytes() for p in keep} == before
    return err


@pytest.mark.parametrize("how", [
    ["--set", "map=m.csv", "--out", "m.csv"],
    ["--grid", "map=m.csv;m.csv", "--out", "m.csv"],
    ["--set", "map=m.png", "--plot", "m.png"],
])
def test_a_sweep_never_writes_over_a_file_named_in_its_options(cli, tmp_path, monkeypatch, how):
    monkeypatch.chdir(tmp_path)
    for name in ("m.csv", "m.png"):
        shutil.copy(MAP, name)
    _refused(cli, ["sweep", "canuck", "--games", "4", "--workers", "1", *how], words=["is an input"],
             keep=[tmp_path / "m.csv", tmp_path / "m.png"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.csv", "m.png"]


@pytest.fixture
def checkpoint(tmp_path, monkeypatch):
    """A finished checkpoint of `furball sweep canuck --games 6 --batch 2 --workers 1
    --out rows.csv`, as an interrupted sweep leaves it."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "rows.csv.partial"
    run_sweep(CANUCK, 6, player="heuristic", batch=2, workers=1, checkpoint=path, remove_checkpoint=False)
    return path


RESUME = ["sweep", "canuck", "--games", "6", "--player", "heuristic", "--batch", "2", "--workers", "1",
          "--out", "rows.csv", "--resume"]


def test_an_intact_checkpoint_resumes_to_the_whole_sweep(cli, checkpoint):
    code, out, err = cli(RESUME)
    assert code == 0 and "6 games" in out
    assert len((checkpoint.parent / "rows.csv").read_text().splitlines()) == 7 and not checkpoint.exists()


def _edit(path, change):
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    change(lines)
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))


CORRUPTIONS = {
    "batch 0": lambda ls: ls[0].update(batch=0),
    "batch -1": lambda ls: ls[0].update(batch=-1),
    "batch text": lambda ls: ls[0].update(batch="two"),
    "wrong columns": lambda ls: ls[1].update(columns=["a", "b"]),
    "renamed column": lambda ls: ls[1].update(columns=["spot", *ls[1]["columns"][1:]]),
    "no such point": lambda ls: ls[1].update(task=[5, 0, 2]),
    "past the games": lambda ls: ls[1].update(task=[0, 6, 8]),
    "short records": lambda ls: ls[1].update(records=ls[1]["records"][:1]),
    "short record": lambda ls: ls[1]["records"][0].pop(),
    "foreign seed": lambda ls: ls[1]["records"][0].__setitem__(2, 12345),
    "task twice": lambda ls: ls.append(ls[1]),
}


@pytest.mark.parametrize("name", CORRUPTIONS)
def test_a_corrupt_or_foreign_checkpoint_is_refused_and_kept(cli, checkpoint, name):
    _edit(checkpoint, CORRUPTIONS[name])
    _refused(cli, RESUME, words=["--resume", "rows.csv.partial"], keep=[checkpoint])
    assert not (checkpoint.parent / "rows.csv").exists()


def test_play_games_with_a_picture_draws_the_series(cli, tmp_path):
    code, out, err = cli(["play", "canuck", "--games", "5", "--plot", tmp_path / "series.png"])
    assert code == 0 and "plot written to" in out and (tmp_path / "series.png").stat().st_size > 1000
    _refused(cli, ["play", "canuck", "--games", "5", "--plot", tmp_path / "s.pdf", "--scale", "1:1"],
             words=["--scale"])


def test_local_workers_are_capped_by_the_cores(cli):
    _refused(cli, ["sweep", "canuck", "--games", "4", "--workers", "4096"], words=["--workers 4096", "--scheduler"])
    _refused(cli, ["analyze", "duel", "--plane", "Camel", "--workers", "999"], words=["--workers 999"])
