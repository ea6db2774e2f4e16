"""Throughput of `furball sweep` with 1 worker (in this process) and a 2-worker local
Dask cluster, and the speed-up of 2 workers over 1.

Run: .venv/bin/python benchmarks/bench_sweep.py [GAMES] [PLAYER]
(default 2000 heuristic Operation Canuck games). The cluster is started before the clock
starts, so the speed-up is that of the games; its start-up time is printed apart. Also
checks that both runs give the same rows. Numbers, not pass/fail; on a machine whose
cores are busy with other work the speed-up is smaller.
"""
import logging
import sys
import time

from scenarios.canuck import CANUCK
from scenarios.engine.sweep import _client, _quiet_dask, run_sweep


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    player = sys.argv[2] if len(sys.argv) > 2 else "heuristic"
    t0 = time.perf_counter()
    one = run_sweep(CANUCK, games, seed=1, player=player, workers=1)
    t1 = time.perf_counter() - t0
    print(f"1 worker (in process): {games} {player} games in {t1:.2f} s = {games / t1:.0f} games/s")
    with _quiet_dask():
        t0 = time.perf_counter()
        with _client(2, None) as client:
            started = time.perf_counter() - t0
            client.run(lambda: __import__("scenarios.canuck"))  # warm the workers' imports
            t0 = time.perf_counter()
            two = run_sweep(CANUCK, games, seed=1, player=player, scheduler=client.cluster.scheduler_address,
                            batch=max(1, games // 16))
            t2 = time.perf_counter() - t0
    print(f"2-worker local cluster: started in {started:.2f} s; {games} games in {t2:.2f} s = "
          f"{games / t2:.0f} games/s")
    print(f"speed-up of 2 workers over 1: {t1 / t2:.2f}x; same rows: {one.rows == two.rows}")


if __name__ == "__main__":
    logging.getLogger("distributed").setLevel(logging.CRITICAL + 1)
    main()
