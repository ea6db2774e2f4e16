"""Sweeps on a real Dask LocalCluster (2 worker processes): the same tables as in one
process, and a worker killed in the middle of a sweep loses and duplicates no game.

Each cluster runs in a clean interpreter of its own, as ``furball sweep`` does for a
user, never inside the test process: what hundreds of earlier tests leave in this
process (event loops, threads, Dask's shared loop) must not reach a cluster (a
``LocalCluster`` started here once stalled a CI run). Each child is bounded in time
and shows its threads' stacks if it stalls (``cluster_child.child``)."""
import json

import pytest
from cluster_child import child

from furball.scenarios.engine.sweep import run_sweep

pytestmark = pytest.mark.cluster  # local Dask clusters: real worker processes

pytest.importorskip("distributed")

def test_summary_tables_are_byte_identical_with_one_worker_and_a_two_worker_local_cluster():
    argv = ["furball", "sweep", "canuck", "--games", "40", "--seed", "1", "--grid", "setup=default,free",
            "--batch", "7"]
    one = child(argv + ["--workers", "1"])
    two = child(argv + ["--workers", "2"])
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout
    assert "[0] 40 games, setup=default" in one.stdout and "[1] 40 games, setup=free" in one.stdout
    assert "vp: mean" in one.stdout


def test_a_worker_killed_mid_sweep_loses_and_duplicates_no_game():
    """One of the two worker processes is killed (SIGKILL) once the first task is in;
    its tasks run again elsewhere and every game is counted exactly once, with the
    result it has when played in this process."""
    from sweep_helpers import SLOW_CANUCK

    games, batch, seed = 24, 2, 3
    done = child(["kill", str(games), str(batch), str(seed)])
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["killed"] and found["killed"][0] < 2 * games  # the worker died while games were still to play
    assert found["dead"]
    keys = [(r["point"], r["game"]) for r in found["rows"]]
    assert found["complete"] and len(keys) == len(set(keys)) == 2 * games
    assert sum(found["seen"]) == 2 * games
    here = run_sweep(SLOW_CANUCK, games, seed=seed, player="random", grid={"setup": ["default", "free"]}, workers=1)
    strip = [{k: v for k, v in r.items() if k != "player"} for r in here.rows]
    assert found["rows"] == json.loads(json.dumps(strip, default=str))
