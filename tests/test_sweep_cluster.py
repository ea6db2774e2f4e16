"""Sweeps on a real Dask LocalCluster (2 worker processes): the same tables as in one
process, and a worker killed in the middle of a sweep loses and duplicates no game."""
import logging
import os
import signal

import pytest
from sweep_helpers import SLOW_CANUCK

from furball.scenarios.cli import main
from furball.scenarios.engine.sweep import run_sweep

pytestmark = pytest.mark.cluster  # local Dask clusters: real worker processes

distributed = pytest.importorskip("distributed")


def test_summary_tables_are_byte_identical_with_one_worker_and_a_two_worker_local_cluster(capsys):
    argv = ["sweep", "canuck", "--games", "40", "--seed", "1", "--grid", "setup=default,free", "--batch", "7"]
    assert main(argv + ["--workers", "1"]) == 0
    one = capsys.readouterr().out
    assert main(argv + ["--workers", "2"]) == 0
    two = capsys.readouterr().out
    assert one == two
    assert "[0] 40 games, setup=default" in one and "[1] 40 games, setup=free" in one and "vp: mean" in one


@pytest.fixture
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=logging.CRITICAL) as c:
        yield c


def test_a_worker_killed_mid_sweep_loses_and_duplicates_no_game(cluster):
    """One of the two worker processes is killed (SIGKILL) once the first task is in;
    its tasks run again elsewhere and every game is counted exactly once, with the
    result it has when played in this process."""
    games, batch = 24, 2
    with distributed.Client(cluster) as client:
        pids = list(client.run(os.getpid).values())
    killed = []

    def progress(n):
        if not killed:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(sum(progress.seen))
        progress.seen.append(n)

    progress.seen = []
    result = run_sweep(SLOW_CANUCK, games, seed=3, player="slow", grid={"setup": ["default", "free"]},
                       scheduler=cluster.scheduler_address, batch=batch, progress=progress)
    assert killed and killed[0] < 2 * games  # the worker died while games were still to play
    with pytest.raises(ProcessLookupError):
        os.kill(pids[0], 0)
    keys = [(r["point"], r["game"]) for r in result.rows]
    assert result.complete and len(keys) == len(set(keys)) == 2 * games
    assert sum(progress.seen) == 2 * games
    here = run_sweep(SLOW_CANUCK, games, seed=3, player="random", grid={"setup": ["default", "free"]}, workers=1)
    strip = [{k: v for k, v in r.items() if k != "player"} for r in result.rows]
    assert strip == [{k: v for k, v in r.items() if k != "player"} for r in here.rows]
