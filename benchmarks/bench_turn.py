"""Seconds per dogfight turn for 2, 8, 32 and 128 planes.

Run: .venv/bin/python benchmarks/bench_turn.py [SIZES...]
A synthetic furball: planes on a jittered grid 150 mm apart (so each has a few others
within the 200 mm ruler), random headings and altitudes 1-3, two sides, random legal
plans of deck A, no pictures (``samples=False``). Prints the best of three runs per size,
the growth exponent between sizes (time ~ planes^k) and, in the same run, the share of a
turn spent outside the batch kernels. Numbers, not pass/fail (target: 128 planes in 0.5 s).
"""
import math
import sys
import time

import numpy as np

from furball.maneuvers import shipped_decks
from furball.maneuvers.plan import plan_problem
from furball.maneuvers.plane import PlaneState, default_rules
from furball.scenarios.dogfight import Table, adjudicate


def furball(n: int, seed: int = 0):
    """A table of ``n`` planes and their orders (module docstring)."""
    rng = np.random.default_rng(seed)
    deck = shipped_decks()["A"]
    k = math.ceil(math.sqrt(n))
    planes, orders = [], {}
    for i in range(n):
        x = 150 + (i % k) * 150 + rng.uniform(-40, 40)
        y = 150 + (i // k) * 150 + rng.uniform(-40, 40)
        p = PlaneState(f"P{i:03d}", side="Allies" if i % 2 else "Central", deck=deck, base=None,
                       pose=(x, y, rng.uniform(0, 360)), altitude=int(rng.integers(1, 4)))
        planes.append(p)
        while True:
            plan = [deck.ids[j] for j in rng.integers(0, len(deck), 3)]
            if plan_problem(p, plan, None, default_rules()) is None:
                break
        orders[p.name] = plan
    side = 150.0 * k + 300
    return Table(width_mm=side, height_mm=side, planes=planes, turn=1), orders


def main():
    sizes = [int(s) for s in sys.argv[1:]] or [2, 8, 32, 128]
    adjudicate(*furball(4), seed=1, samples=False)  # compile (or load) the kernels first
    print(f"machine load {open('/proc/loadavg').read().split()[0]} (2 cores)")
    previous = None
    for n in sizes:
        table, orders = furball(n)
        best, result = float("inf"), None
        for _ in range(3):
            t0 = time.perf_counter()
            result = adjudicate(table, orders, seed=1, samples=False)
            best = min(best, time.perf_counter() - t0)
        growth = "" if previous is None else (
            f", growth exponent {math.log(best / previous[1]) / math.log(n / previous[0]):.2f} from {previous[0]}")
        print(f"{n:4d} planes: {best:7.3f} s per turn ({len(result.shots)} firing positions, {len(result.tails)} tails, "
              f"{sum(len(m.overlaps) for m in result.maneuvers)} overlaps){growth}")
        previous = (n, best)
    from furball.geometry import kernels

    table, orders = furball(sizes[-1])
    calls = {"t": 0.0}
    compiled = kernels.compiled()
    wrapped = {}
    for name in ("depth_pairs", "overlap_grid", "overlap_count_pairs", "sector_pairs", "sector_grid", "crossing_pairs",
                 "enters_pairs"):
        fn = getattr(compiled, name)

        def timed(*args, _fn=fn):
            t0 = time.perf_counter()
            out = _fn(*args)
            calls["t"] += time.perf_counter() - t0
            return out
        wrapped[name] = fn
        setattr(compiled, name, timed)
    t0 = time.perf_counter()
    adjudicate(table, orders, seed=1, samples=False)
    total = time.perf_counter() - t0
    for name, fn in wrapped.items():
        setattr(compiled, name, fn)
    print(f"{sizes[-1]} planes: {calls['t'] / total:.0%} of the turn in the compiled kernels, the rest in Python "
          f"(moving planes, rule objects, the report)")


if __name__ == "__main__":
    main()
