"""The first answer: what a first-time user's commands cost, cold (an empty kernel cache)
and warm (the cache filled), in CPU seconds and wall seconds.

Run: .venv/bin/python benchmarks/bench_startup.py [REPEATS]
Every command runs in a subprocess from a temporary folder (so ``furball`` names the
shipped example), with ``NUMBA_CACHE_DIR`` pointing at a fresh temporary cache: nothing
compiled before counts. The reference, measured in the same run, is the interpreter
starting and exiting (``python -c pass``). Numbers, not pass/fail (target: the first
``furball turn furball`` under 3 s CPU; the lines marked "cold" are what a user pays
before ``furball warm`` has run, "warm" after). REPEATS (default 1) repeats each
measurement and keeps the fastest.
"""
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FURBALL = str(Path(sys.executable).with_name("furball"))


def measure(argv, env, cwd, repeats=1, fresh=None):
    """CPU seconds (user + system, of the child) and wall seconds of running ``argv``;
    ``fresh``: a function giving a new cache folder before each repeat (cold runs)."""
    best = None
    for _ in range(repeats):
        if fresh is not None:
            env = dict(env, NUMBA_CACHE_DIR=fresh())
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        done = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode:
            raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.strip()}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = (cpu, wall) if best is None or cpu < best[0] else best
    return best


def main():
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    print(f"machine load {open('/proc/loadavg').read().split()[0]} ({os.cpu_count()} cores); CPU s / wall s, "
          f"best of {repeats}")
    with tempfile.TemporaryDirectory() as tmp:
        caches = iter(range(10**6))

        def fresh():
            path = Path(tmp) / f"cache{next(caches)}"
            path.mkdir()
            return str(path)

        env = dict(os.environ, NUMBA_CACHE_DIR=fresh())
        rows = []

        def row(label, argv, cold=False):
            cpu, wall = measure(argv, env, tmp, repeats, fresh if cold else None)
            rows.append((label, cpu, wall))
            print(f"  {label:<44} {cpu:6.2f} {wall:6.2f}", flush=True)

        row("reference: python -c pass", [sys.executable, "-c", "pass"])
        row("furball --help", [FURBALL, "--help"])
        row("furball turn furball, cold (first answer)", [FURBALL, "turn", "furball"], cold=True)
        row("furball turn furball, warm", [FURBALL, "turn", "furball"])
        row("furball analyze duel --plane Camel, cold", [FURBALL, "analyze", "duel", "--plane", "Camel"], cold=True)
        row("furball warm, cold (fills the cache)", [FURBALL, "warm"], cold=True)
        env["NUMBA_CACHE_DIR"] = fresh()
        measure([FURBALL, "warm"], env, tmp)
        row("furball warm, warm (loads it)", [FURBALL, "warm"])
        row("furball analyze duel --plane Camel, warm", [FURBALL, "analyze", "duel", "--plane", "Camel"])
        first = next(cpu for label, cpu, _ in rows if label.startswith("furball turn furball, cold"))
        print(f"first answer: {first:.2f} s CPU (target 3 s; the interpreter alone "
              f"{rows[0][1]:.2f} s in this run)")


if __name__ == "__main__":
    main()
