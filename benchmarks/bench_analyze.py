"""Plan pairs per second of the plan analysis (furball analyze), on one core and on all.

Run: .venv/bin/python benchmarks/bench_analyze.py [REPEATS]
Two cases: deck A against deck A (the shipped duel, about 2,600 x 2,600 legal plans)
and two 20-card decks (the template deck's first 20 cards, 8,000 x 8,000 plans, 64
million pairs). For each: wall time and CPU time with the compiled loops on one thread
and on every core (numba threads), plan pairs per second, the speed-up of all cores over
one, and in the same run the referee (``adjudicate``, one full turn per plan pair) on a
sample of pairs. The machine load is printed before each case: other work on the
machine slows the wall time (CPU time shows it). Numbers, not pass/fail (targets, on
this 2-core machine: deck A vs deck A in 2 s, the 20-card decks in 1.5 s on both cores,
both cores at least 1.7x one on a quiet machine). REPEATS (default 2): runs per
setting, the fastest kept. Kernels are compiled (or loaded) before the clocks start.
"""
import dataclasses
import os
import sys
import time

import numba
import numpy as np

from furball.maneuvers import shipped_decks
from furball.scenarios.dogfight import adjudicate, analyze, load_scenario
from furball.scenarios.dogfight.analysis import legal_plans


def referee_rate(table, a, b, plans_a, plans_b, samples=40):
    rng = np.random.default_rng(0)
    t0 = time.perf_counter()
    for _ in range(samples):
        orders = {a: plans_a[int(rng.integers(len(plans_a)))], b: plans_b[int(rng.integers(len(plans_b)))]}
        adjudicate(table, orders, seed=1, samples=False)
    return samples / (time.perf_counter() - t0)


def timed(table, plane, enemy, threads, repeats):
    """The fastest of ``repeats`` analyses on ``threads`` threads: (report, wall s, CPU s)."""
    numba.set_num_threads(threads)
    best = None
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        report = analyze(table, plane, vs=[enemy], heat_rows=0)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        best = (report, wall, cpu) if best is None or wall < best[1] else best
    return best


def run(label, table, plane, enemy, repeats):
    analyze(table, plane, vs=[enemy], heat_rows=0)  # compile (or load) the kernels first
    cores = numba.config.NUMBA_NUM_THREADS
    print(f"{label} (machine load {os.getloadavg()[0]:.2f})")
    one = timed(table, plane, enemy, 1, repeats)
    every = timed(table, plane, enemy, cores, repeats)
    numba.set_num_threads(cores)
    report = every[0]
    for name, (_, wall, cpu) in (("one core", one), (f"{cores} cores", every)):
        print(f"  {name:>8}: {wall:5.2f} s wall, {cpu:5.2f} s CPU = {report.pairs / wall / 1e6:6.2f} M plan pairs/s")
    ref = referee_rate(table, plane, enemy, legal_plans(table.plane(plane), table.rules),
                       legal_plans(table.plane(enemy), table.rules))
    print(f"  {len(report.plans):,} x {len(report.enemies[0].plans):,} plans = {report.pairs:,} pairs; "
          f"{cores} cores are x{one[1] / every[1]:.2f} one (wall); the referee: {ref:.0f} pairs/s "
          f"(analysis x{report.pairs / every[1] / ref:,.0f}); load now {os.getloadavg()[0]:.2f}")


def main():
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    duel = load_scenario("duel")
    run("deck A vs deck A (target 2 s)", duel.table, "Camel", "Albatros", repeats)
    template = shipped_decks()["template"]
    twenty = dataclasses.replace(template, name="template-20", cards=template.cards[:20], autonomous=None,
                                 collision=("L100-60", "R100-60"))
    planes = tuple(p.but(deck=twenty) for p in duel.table.planes)
    run("two 20-card decks (target 1.5 s on both cores, x1.7 one)", duel.table.but(planes=planes), "Camel",
        "Albatros", repeats)


if __name__ == "__main__":
    main()
