"""The Dask clusters of ``test_sweep_cluster``, each run in a clean interpreter of its
own (not a test module), which writes its threads' stacks to standard error and exits
if it runs over ``STALL_S`` seconds:

- ``python cluster_child.py furball ARGS...``: the command ``furball ARGS...``;
- ``python cluster_child.py kill GAMES BATCH SEED``: the worker-killing sweep below.

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
import sys

STALL_S = 200


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
