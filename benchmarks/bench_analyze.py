"""Plan pairs per second of the plan analysis (furball analyze).

Run: .venv/bin/python benchmarks/bench_analyze.py
Two cases: deck A against deck A (the shipped duel, about 2,600 x 2,600 legal plans)
and two 20-card decks (the template deck's first 20 cards, 8,000 x 8,000 plans, about
64 million pairs). For each: wall time, plan pairs per second, and in the same run the
referee (``adjudicate``, one full turn per plan pair) on a sample of pairs, so the
speed-up is measured here. Numbers, not pass/fail (targets: deck A vs deck A in 2 s,
the 20-card decks in 5 s, on this 2-core machine).
"""
import dataclasses
import time

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


def run(label, table, plane, enemy):
    analyze(table, plane, vs=[enemy], heat_rows=0)  # compile (or load) the kernels first
    best = None
    for _ in range(2):
        report = analyze(table, plane, vs=[enemy], heat_rows=0)
        best = report if best is None or report.seconds < best.seconds else best
    rate = best.pairs / best.seconds
    ref = referee_rate(table, plane, enemy, legal_plans(table.plane(plane), table.rules),
                       legal_plans(table.plane(enemy), table.rules))
    print(f"{label}: {len(best.plans):,} x {len(best.enemies[0].plans):,} plans = {best.pairs:,} pairs in "
          f"{best.seconds:.2f} s = {rate / 1e6:.2f} M plan pairs/s; the referee: {ref:.0f} pairs/s "
          f"(analysis x{rate / ref:,.0f})")
    return best


def main():
    print(f"machine load {open('/proc/loadavg').read().split()[0]} (2 cores)")
    duel = load_scenario("scenarios/examples/duel.toml")
    run("deck A vs deck A (target 2 s)", duel.table, "Camel", "Albatros")
    template = shipped_decks()["template"]
    twenty = dataclasses.replace(template, name="template-20", cards=template.cards[:20], autonomous=None,
                                 collision=("L100-60", "R100-60"))
    planes = tuple(p.but(deck=twenty) for p in duel.table.planes)
    run("two 20-card decks (target 5 s)", duel.table.but(planes=planes), "Camel", "Albatros")


if __name__ == "__main__":
    main()
