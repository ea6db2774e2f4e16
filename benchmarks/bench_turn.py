"""CPU seconds per dogfight turn for 32 to 512 planes (issue 25.3), with a reference
measured in the same run.

Run: .venv/bin/python benchmarks/bench_turn.py [SIZES...]
A synthetic furball: planes on a jittered grid 150 mm apart (so each has a few others
within the 200 mm ruler), random headings and altitudes 1-3, two sides, random legal
plans of deck A, no pictures (``samples=False``). The compiled kernels are loaded first
(a long run's steady state; a single turn of a few planes asks the scalar predicates
instead and compiles nothing). Prints the machine load, the best of three turns per size
in CPU time (``process_time``; the machine is shared, wall time is not a measure), the
growth exponent from the first size (time ~ planes^k), the 512-plane turn step by step,
and the reference: the firing step one pair at a time — ``shot_at`` for every pair that
may fire (:func:`~maneuvers.batch.may_fire`) — against ``firing_positions`` (one pass) on
the same tables. Targets: 512 planes under 0.25 s,
growth exponent under 1.1 from 32 to 512 planes.
"""
import math
import os
import sys
import time

import numpy as np

from furball.geometry import kernels
from furball.maneuvers import shipped_decks
from furball.maneuvers.batch import Planes, may_fire
from furball.maneuvers.firing import firing_positions, shot_at
from furball.maneuvers.plan import plan_problem
from furball.maneuvers.plane import PlaneState, default_rules
from furball.scenarios.dogfight import Table, adjudicate
from furball.scenarios.dogfight import turn as turn_module

STEPS = ("draw_autonomous_cards", "reveal_and_reorder", "move_planes", "leave_table", "overlaps_and_collisions",
         "firing", "damage_from_shots", "drop_bombs", "end_of_maneuver", "recheck_tails")


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


def cpu(fn, *args, repeat: int = 3, **kw) -> tuple[float, object]:
    """The best CPU time of ``repeat`` calls ``fn(*args, **kw)``, and the last result."""
    best, out = math.inf, None
    for _ in range(repeat):
        t0 = time.process_time()
        out = fn(*args, **kw)
        best = min(best, time.process_time() - t0)
    return best, out


def steps_of(table, orders) -> dict:
    """CPU seconds of each numbered step of ``adjudicate`` in one turn."""
    spent = dict.fromkeys(STEPS, 0.0)
    originals = {name: getattr(turn_module, name) for name in STEPS}

    def timed(name):
        def run(*args, **kw):
            t0 = time.process_time()
            try:
                return originals[name](*args, **kw)
            finally:
                spent[name] += time.process_time() - t0
        return run

    for name in STEPS:
        setattr(turn_module, name, timed(name))
    try:
        t0 = time.process_time()
        adjudicate(table, orders, seed=1, samples=False)
        spent["total"] = time.process_time() - t0
    finally:
        for name, fn in originals.items():
            setattr(turn_module, name, fn)
    return spent


def old_firing(board: Planes, rules) -> int:
    """The reference: every pair that may fire (DF.O2), measured one pair at a time by
    ``shot_at``."""
    planes = board.states
    return sum(shot_at(planes[i], planes[j], planes, rules, board) is not None
               for i, j in zip(*np.nonzero(may_fire(board, rules))))


def main():
    sizes = [int(s) for s in sys.argv[1:]] or [32, 128, 512]
    kernels.warm()  # load (or compile) the kernels first
    adjudicate(*furball(8), seed=1, samples=False)
    print(f"machine load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; CPU seconds (process_time), "
          f"best of 3")
    first = None
    for n in sizes:
        table, orders = furball(n)
        best, result = cpu(adjudicate, table, orders, seed=1, samples=False)
        growth = "" if first is None else (
            f", growth exponent {math.log(best / first[1]) / math.log(n / first[0]):.2f} from {first[0]}")
        print(f"{n:4d} planes: {best:7.3f} s per turn ({len(result.shots)} firing positions, {len(result.tails)} "
              f"tails, {sum(len(m.overlaps) for m in result.maneuvers)} overlaps){growth}")
        first = first or (n, best)
    table, orders = furball(sizes[-1])
    spent = steps_of(table, orders)
    print(f"{sizes[-1]} planes, step by step: " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in spent.items()
                                                           if v >= 0.0005))
    print("reference, measured now: the firing step on the start table one pair at a time (shot_at) vs one "
          "batch pass")
    for n in sizes:
        table, _ = furball(n)
        board = Planes.on_table_of(table.planes)
        old, count = cpu(old_firing, board, table.rules)
        new, positions = cpu(firing_positions, board, table.rules)
        assert count == len(positions.best)
        print(f"{n:4d} planes: {count:4d} firing positions, before {old:7.3f} s, now {new:7.4f} s "
              f"({old / new:4.0f}x)")
    print("targets: 512 planes under 0.25 s; growth exponent under 1.1 from 32 to 512 planes")


if __name__ == "__main__":
    main()
