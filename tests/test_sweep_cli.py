"""`furball sweep`: tables, row files, pictures, JSON; bad input refused in one line
before any game; Ctrl-C keeps finished games and --resume finishes the sweep."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from furball.scenarios.cli import main


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_sweep_prints_a_table_per_point_and_writes_rows_and_a_picture(tmp_path, capsys):
    rows, plot = tmp_path / "runs.parquet", tmp_path / "runs.png"
    code, out, err = run(["sweep", "canuck", "--games", "6", "--seed", "2", "--workers", "1", "--grid",
                          "player=heuristic,random", "--set", "setup=free", "--out", str(rows), "--plot", str(plot)],
                         capsys)
    assert code == 0
    assert out.startswith("Operation Canuck: 6 games per point x 2 point(s), seed 2; at every point: setup=free")
    assert "[0] 6 games, player=heuristic" in out and "[1] 6 games, player=random" in out
    assert f"12 rows written to {rows}" in out and f"plot written to {plot}" in out
    import pyarrow.parquet as pq

    table = pq.read_table(rows)
    assert table.num_rows == 12 and table.column_names[:5] == ["point", "game", "seed", "player", "setup"]
    assert plot.stat().st_size > 1000 and sorted(p.name for p in tmp_path.iterdir()) == ["runs.parquet", "runs.png"]


def test_sweep_json_has_every_point_with_its_summary(capsys):
    code, out, err = run(["sweep", "canuck", "--games", "5", "--workers", "1", "--json", "--grid",
                          "setup=default,free"], capsys)
    doc = json.loads(out)
    assert code == 0 and doc["complete"] and [p["settings"] for p in doc["points"]] == [{"setup": "default"},
                                                                                       {"setup": "free"}]
    assert doc["points"][0]["summary"]["games"] == 5


def test_a_sweep_row_replays_with_furball_play(tmp_path, capsys):
    rows = tmp_path / "r.csv"
    run(["sweep", "canuck", "--games", "3", "--seed", "9", "--workers", "1", "--set", "setup=free",
         "--out", str(rows)], capsys)
    import csv

    last = list(csv.DictReader(rows.open()))[-1]
    code, out, _ = run(["play", "canuck", "--seed", last["seed"], "--setup", "free"], capsys)
    assert code == 0 and out.splitlines()[-1].endswith(f"= {last['vp']}: {last['band'].upper()}")


def test_help_lists_each_games_options(capsys):
    with pytest.raises(SystemExit):
        main(["sweep", "--help"])
    out = capsys.readouterr().out
    assert "canuck: options for --set and --grid" in out and "setup:" in out and "one of default, free" in out


@pytest.mark.parametrize("extra, words", [
    (["--set", "colour=red"], ["unknown option 'colour'"]),
    (["--grid", "setup=default,upside-down"], ["option setup", "upside-down"]),
    (["--set", "setup"], ["--set 'setup'", "KEY=VALUE"]),
    (["--grid", "setup=default,,free"], ["--grid", "separated by commas"]),
    (["--set", "map=/nowhere/map.toml"], ["map.toml"]),
    (["--games", "0"], ["--games 0"]),
    (["--games", "99999999999"], ["--games 99999999999"]),
    (["--workers", "0"], ["--workers 0"]),
    (["--player", "genius"], ["--player 'genius'"]),
    (["--out", "rows.xlsx"], ["--out rows.xlsx", ".parquet, .csv"]),
    (["--out", "/nowhere/rows.csv"], ["does not exist"]),
    (["--plot", "x.gif"], ["--plot x.gif"]),
    (["--resume"], ["--resume", "--out"]),
    (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], ["not allowed with argument"]),
    (["--scheduler", "carrier-pigeon://loft"], ["--scheduler carrier-pigeon://loft: cannot connect"]),
])
def test_bad_input_is_one_line_exit_2_before_any_game(extra, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    started = time.perf_counter()
    code, out, err = run(["sweep", "canuck", "--games", "5"] + extra, capsys)
    assert code == 2 and out == "" and err.startswith("furball: error: ") and err.count("\n") == 1
    assert all(w in err for w in words), err
    assert list(tmp_path.iterdir()) == [] and time.perf_counter() - started < 5


def test_unwritable_out_is_refused(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run(["sweep", "canuck", "--games", "5", "--out", str(blocker / "rows.csv")], capsys)
    assert code == 2 and "is not a directory" in err


def test_an_unfinished_sweep_is_not_overwritten_and_resume_needs_one(tmp_path, capsys):
    out = tmp_path / "rows.csv"
    (tmp_path / "rows.csv.partial").write_text("{}\n")
    code, _, err = run(["sweep", "canuck", "--games", "5", "--out", str(out)], capsys)
    assert code == 2 and "add --resume" in err
    code, _, err = run(["sweep", "canuck", "--games", "5", "--out", str(tmp_path / "other.csv"), "--resume"], capsys)
    assert code == 2 and "no interrupted sweep" in err
    code, _, err = run(["sweep", "canuck", "--games", "5", "--out", str(out), "--resume", "--workers", "1"], capsys)
    assert code == 2 and "expected a sweep checkpoint" in err


@pytest.mark.cluster
def test_ctrl_c_stops_cleanly_keeps_finished_games_and_resume_finishes(tmp_path):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) during a sweep
    on a 2-worker local cluster: exit 130, one line, no traceback, finished games kept;
    --resume plays the rest and writes every row."""
    out = tmp_path / "rows.csv"
    partial = tmp_path / "rows.csv.partial"
    argv = [sys.executable, "-m", "furball", "sweep", "canuck", "--games", "400", "--player", "random",
            "--batch", "4", "--out", str(out)]
    proc = subprocess.Popen(argv + ["--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, text=True)
    deadline = time.time() + 60
    while time.time() < deadline and (not partial.exists() or len(partial.read_text().splitlines()) < 3):
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and stdout == ""
    assert stderr.strip().startswith("furball: interrupted: ") and "--resume" in stderr
    kept = len(partial.read_text().splitlines()) - 1
    assert 2 <= kept < 100 and not out.exists()
    done = subprocess.run(argv + ["--workers", "1", "--resume"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = out.read_text().splitlines()
    assert len(lines) == 1 + 400 and not partial.exists()
    assert [int(line.split(",")[1]) for line in lines[1:]] == list(range(400))


def test_a_scheduler_that_cannot_be_reached_leaves_no_checkpoint(tmp_path, capsys):
    """--out with a scheduler that cannot be reached: one line, exit 2, and the new
    checkpoint (which holds no game) is gone, so the same command can simply be run again."""
    code, out, err = run(["sweep", "canuck", "--games", "5", "--scheduler", "carrier-pigeon://loft",
                          "--out", str(tmp_path / "rows.csv")], capsys)
    assert code == 2 and "cannot connect" in err and list(tmp_path.iterdir()) == []


@pytest.mark.cluster
def test_a_local_cluster_that_cannot_start_is_one_line_and_exit_2(tmp_path):
    """A broken Dask configuration (every worker preloads a module that does not exist):
    the local cluster cannot start, and the command says so in one line (the innermost
    cause), exit 2, no traceback, no file written."""
    env = dict(os.environ, DASK_DISTRIBUTED__WORKER__PRELOAD='["furball_no_such_module"]')
    done = subprocess.run([sys.executable, "-m", "furball", "sweep", "canuck", "--games", "10", "--workers", "2",
                           "--out", str(tmp_path / "rows.csv")], capture_output=True, text=True, env=env,
                          timeout=180)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.startswith("furball: error: --workers 2: the local Dask cluster did not start")
    assert "furball_no_such_module" in done.stderr and done.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_the_sweep_command_spells_its_keys_as_the_engine_does():
    """The command's help is written before the engine is imported: its spellings of
    the bots' key and separator must be the engine's."""
    from furball.scenarios.cli import sweep as command
    from furball.scenarios.engine import sweep as engine

    assert (command.PLAYER, command.SEATS) == (engine.PLAYER, engine.SEATS)
