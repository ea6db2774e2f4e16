"""Throughput of `furball sweep` with 1 worker (in this process) and a 2-worker local
Dask cluster, and the speed-up of 2 workers over 1.

Run: .venv/bin/python benchmarks/bench_sweep.py [GAMES] [PLAYER]
(or ``bench_sweep.py overhead`` for the per-batch overhead alone, or ``bench_sweep.py scale
[GAMES] [PLAYER]`` for the speed-up on 1, 2, 4, 8 and 16 workers, as many as the machine
has cores)
(default 2000 heuristic Operation Canuck games). The cluster is started (and its
workers' imports warmed) before the clock starts, so the speed-up is that of the games;
the start-up time is printed apart. Also printed: games per CPU-second (this process, or
the workers' summed), which shows what the cluster costs in work whatever else runs on
the machine — the wall-clock speed-up is smaller when other work shares the cores.
Checks that both runs give the same rows. Numbers, not pass/fail.

Then the per-batch overhead on the 2-worker cluster: the same OVERHEAD_GAMES random
games (the shortest there are) as one task per game and as two tasks; the difference in
wall time per extra task is what a task costs beyond its games (submitting it, the
worker's bookkeeping, sending its rows back, gathering them). Best of three, the same
rows each time.
"""
import logging
import sys
import time

from furball.scenarios.canuck import CANUCK
from furball.scenarios.engine.cluster import dask_client, quiet_dask
from furball.scenarios.engine.sweep import run_sweep


def main():
    if sys.argv[1:2] == ["overhead"]:
        return overhead()
    if sys.argv[1:2] == ["scale"]:
        return scale(int(sys.argv[2]) if len(sys.argv) > 2 else 20000, sys.argv[3] if len(sys.argv) > 3 else "heuristic")
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
    overhead()


OVERHEAD_GAMES = 400
SCALE_WORKERS = (2, 4, 8, 16)
SCALE_VARIANTS = {"default": {}, "no worker profiler": {"distributed.worker.profile.enabled": False}}
"""Dask settings tried on the most workers (the sweep's own, then each variant)."""


_BARRIER: list = []


def _ceiling_process(barrier):
    _BARRIER.append(barrier)


def _alone(args):
    """One process of the machine's ceiling: warm up, wait for the others, play its share
    of games in process; returns (start, end) by ``time.time()``."""
    games, seed, player = args
    run_sweep(CANUCK, 20, seed=2, player=player, workers=1)
    _BARRIER[0].wait()
    start = time.time()
    run_sweep(CANUCK, games, seed=seed, player=player, workers=1)
    return start, time.time()


def ceiling(games, player, n):
    """The machine's own ceiling for n workers: n independent processes (no Dask), each
    playing games / n games in process from a common start (a barrier); games per second
    over the slowest. What the cores, their shared clock and caches allow, whatever the
    sweep does."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    with context.Pool(n, initializer=_ceiling_process, initargs=(context.Barrier(n),)) as pool:
        spans = pool.map(_alone, [(games // n, 100 + k, player) for k in range(n)], chunksize=1)
    return (games // n) * n / (max(end for _, end in spans) - min(start for start, _ in spans))


def scale(games, player):
    """Games per second on 1 worker (in process) and on local clusters of 2, 4, 8 and 16
    workers (as many as the machine has cores), each started and warmed before its clock,
    about 8 tasks a worker; the speed-up over one worker, whether the rows are the same,
    how busy the workers were (their compute time over workers x wall) and the tasks per
    worker. On the most workers, also each of :data:`SCALE_VARIANTS` and the machine's
    ceiling (:func:`ceiling`), measured in the same run."""
    import os

    import dask
    from distributed import get_task_stream

    run_sweep(CANUCK, 20, seed=2, player=player, workers=1)  # warm this process's imports
    t0, c0 = time.perf_counter(), time.process_time()
    one = run_sweep(CANUCK, games, seed=1, player=player, workers=1)
    t1, cpu1 = time.perf_counter() - t0, time.process_time() - c0
    print(f"{games} {player} Operation Canuck games (machine: {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.2f})")
    print(f"   1 worker (in process): {t1:6.2f} s = {games / t1:6.0f} games/s ({games / cpu1:.0f} games per CPU s)")
    counts = [w for w in SCALE_WORKERS if w <= (os.cpu_count() or 1)]
    for n in counts:
        for variant, settings in (SCALE_VARIANTS.items() if n == counts[-1] else [("default", {})]):
            with dask.config.set(settings), quiet_dask(), dask_client(n, None) as client:
                client.run(lambda: __import__("furball.scenarios.canuck"))
                address = client.cluster.scheduler_address
                run_sweep(CANUCK, 4 * n, seed=2, player=player, scheduler=address, batch=1)  # warm every worker
                best = None
                for _ in range(2):
                    with get_task_stream(client) as stream:
                        t0 = time.perf_counter()
                        rows = run_sweep(CANUCK, games, seed=1, player=player, scheduler=address,
                                         batch=max(1, games // (8 * n))).rows
                        spent = time.perf_counter() - t0
                    if best is None or spent < best[0]:
                        best = (spent, stream.data)
            spent, data = best
            busy: dict = {}
            for task in data:
                for part in task["startstops"]:
                    if part["action"] == "compute":
                        busy[task["worker"]] = busy.get(task["worker"], 0.0) + part["stop"] - part["start"]
            tasks = sorted(sum(1 for t in data if t["worker"] == w) for w in busy)
            print(f"  {n:>2} workers ({variant}): {spent:6.2f} s = {games / spent:6.0f} games/s, x{t1 / spent:5.2f} "
                  f"one worker; same rows: {rows == one.rows}; workers busy {sum(busy.values()) / (n * spent):.0%} "
                  f"(compute {sum(busy.values()) / games * 1e3:.2f} ms a game, in process {t1 / games * 1e3:.2f}); "
                  f"tasks per worker {tasks[0]}-{tasks[-1]}")
    n = counts[-1]
    rate = ceiling(games, player, n)
    print(f"  the machine's ceiling, {n} processes without Dask: {rate:6.0f} games/s, x{rate * t1 / games:5.2f} one worker")


def overhead(games=OVERHEAD_GAMES, repeats=3):
    """Per-task overhead on a 2-worker local cluster (module docstring)."""
    with quiet_dask(), dask_client(2, None) as client:
        client.run(lambda: __import__("furball.scenarios.canuck"))
        address = client.cluster.scheduler_address
        run_sweep(CANUCK, 20, seed=1, player="random", scheduler=address, batch=1)  # warm
        wall, rows = {}, {}
        for batch in (1, games // 2):
            best = None
            for _ in range(repeats):
                t0 = time.perf_counter()
                result = run_sweep(CANUCK, games, seed=1, player="random", scheduler=address, batch=batch)
                spent = time.perf_counter() - t0
                best = spent if best is None else min(best, spent)
            wall[batch], rows[batch] = best, result.rows
    small, big = 1, games // 2
    tasks = {small: games, big: 2}
    per_task = (wall[small] - wall[big]) / (tasks[small] - tasks[big])
    print(f"per-task overhead, 2 workers: {games} random games as {games} tasks {wall[small]:.2f} s, as 2 tasks "
          f"{wall[big]:.2f} s: {per_task * 1e3:.2f} ms of wall time per extra task "
          f"({2 * per_task * 1e3:.2f} ms of the two workers' time); same rows: {rows[small] == rows[big]}")


if __name__ == "__main__":
    logging.getLogger("distributed").setLevel(logging.CRITICAL + 1)
    main()
