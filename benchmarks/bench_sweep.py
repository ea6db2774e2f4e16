"""Throughput of `furball sweep` with 1 worker (in this process) and a 2-worker local
Dask cluster, and the speed-up of 2 workers over 1.

Run: .venv/bin/python benchmarks/bench_sweep.py [GAMES] [PLAYER]
(default 2000 heuristic Operation Canuck games). The cluster is started (and its
workers' imports warmed) before the clock starts, so the speed-up is that of the games;
the start-up time is printed apart. Also printed: games per CPU-second (this process, or
the workers' summed), which shows what the cluster costs in work whatever else runs on
the machine — the wall-clock speed-up is smaller when other work shares the cores.
Checks that both runs give the same rows. Numbers, not pass/fail.
"""
import logging
import sys
import time

from furball.scenarios.canuck import CANUCK
from furball.scenarios.engine.cluster import dask_client, quiet_dask
from furball.scenarios.engine.sweep import run_sweep


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    player = sys.argv[2] if len(sys.argv) > 2 else "heuristic"
    t0, c0 = time.perf_counter(), time.process_time()
    one = run_sweep(CANUCK, games, seed=1, player=player, workers=1)
    t1, c1 = time.perf_counter() - t0, time.process_time() - c0
    print(f"1 worker (in process): {games} {player} games in {t1:.2f} s = {games / t1:.0f} games/s "
          f"({games / c1:.0f} games per CPU-second)")
    with quiet_dask():
        t0 = time.perf_counter()
        with dask_client(2, None) as client:
            started = time.perf_counter() - t0
            client.run(lambda: __import__("furball.scenarios.canuck"))  # warm the workers' imports
            cpu = client.run(time.process_time)
            t0 = time.perf_counter()
            two = run_sweep(CANUCK, games, seed=1, player=player, scheduler=client.cluster.scheduler_address,
                            batch=max(1, games // 16))
            t2 = time.perf_counter() - t0
            used = sum(client.run(time.process_time)[w] - cpu[w] for w in cpu)
    print(f"2-worker local cluster (started in {started:.2f} s): {games} games in {t2:.2f} s = "
          f"{games / t2:.0f} games/s ({games / used:.0f} games per worker CPU-second)")
    print(f"speed-up of 2 workers over 1: {t1 / t2:.2f}x wall clock; CPU per game {used / c1:.2f}x; "
          f"same rows: {one.rows == two.rows}")


if __name__ == "__main__":
    logging.getLogger("distributed").setLevel(logging.CRITICAL + 1)
    main()
