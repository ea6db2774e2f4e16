"""The Dask clusters of ``test_sweep_cluster``, each run in a clean interpreter of its
own (not a test module), which writes its threads' stacks to standard error and exits
if it runs over ``STALL_S`` seconds:

- ``python cluster_child.py furball ARGS...``: the command ``furball ARGS...``;
- ``python cluster_child.py kill GAMES BATCH SEED``: the worker-killing sweep below.

The tests call :func:`child`, which runs one and waits for it (bounded).

In the second, a ``LocalCluster`` of two worker processes is started here; once the first task's
result is in, one worker is killed (SIGKILL) and the sweep goes on. Prints one JSON
document: ``killed`` (games counted when the worker was killed), ``dead`` (the killed
process is gone), ``complete``, ``seen`` (games per finished task, in order) and
``rows`` (the sweep's rows without the ``player`` column)."""
import faulthandler
import json
import logging
import os
import signal
import subprocess
import sys

STALL_S = 200
CHILD_TIMEOUT_S = 240
"""A child that runs longer is killed (it has dumped its stacks at ``STALL_S``)."""


def child(argv: list[str]) -> subprocess.CompletedProcess:
    """``python cluster_child.py ARGV`` in a clean interpreter, its output captured as
    text; a child that stalls writes its stacks and exits after :data:`STALL_S` s, and
    is killed after :data:`CHILD_TIMEOUT_S` s (``AssertionError`` with its standard
    error)."""
    try:
        return subprocess.run([sys.executable, os.path.abspath(__file__), *argv], capture_output=True, text=True,
                              timeout=CHILD_TIMEOUT_S)
    except subprocess.TimeoutExpired as exc:  # pragma: no cover - only when a cluster stalls
        raise AssertionError(f"{argv[:3]} ran over {CHILD_TIMEOUT_S} s:\n{exc.stderr}") from None


def main(games: int, batch: int, seed: int) -> dict:
    import distributed
    from sweep_helpers import SLOW_CANUCK

    from furball.scenarios.engine.sweep import run_sweep

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=logging.CRITICAL) as cluster:
        with distributed.Client(cluster) as client:
            pids = list(client.run(os.getpid).values())
        killed, seen = [], []

        def progress(n):
            if not killed:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(sum(seen))
            seen.append(n)

        result = run_sweep(SLOW_CANUCK, games, seed=seed, player="slow", grid={"setup": ["default", "free"]},
                           scheduler=cluster.scheduler_address, batch=batch, progress=progress)
    try:
        os.kill(pids[0], 0)
        dead = False
    except ProcessLookupError:
        dead = True
    rows = [{k: v for k, v in r.items() if k != "player"} for r in result.rows]
    return {"killed": killed, "dead": dead, "complete": result.complete, "seen": seen, "rows": rows}


if __name__ == "__main__":
    faulthandler.dump_traceback_later(STALL_S, exit=True)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    if sys.argv[1] == "furball":
        from furball.scenarios.cli import main as furball

        sys.exit(furball(sys.argv[2:]))
    print(json.dumps(main(*map(int, sys.argv[2:5])), default=str))
