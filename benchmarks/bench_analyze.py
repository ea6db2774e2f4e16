"""Plan pairs per second of the plan analysis (furball analyze), its speed-up over the
threads, its serial fraction and where that serial time is.

Run: .venv/bin/python benchmarks/bench_analyze.py [REPEATS] [--threads-only] [--fresh-memory]
Two cases: deck A against deck A (the shipped duel, about 2,600 x 2,600 legal plans)
and two 20-card decks (the template deck's first 20 cards, 8,000 x 8,000 plans, 64
million pairs). For each:

* wall and CPU time on 1, 2, 4, 8 and 16 numba threads (as many as the machine has),
  plan pairs per second and the speed-up over one thread;
* the serial fraction ``s`` fitted to those wall times (Amdahl: ``T(n) = T(1) (s + (1 -
  s) / n)``, least squares) and the speed-up it predicts on 16 threads,
  ``1 / (s + (1 - s) / 16)``;
* the per-phase profile on one thread (CPU seconds, so other work on the machine does
  not inflate it): the plan enumeration and plan trees, the duel's setup (maneuvers 1
  and 2), the maneuver-3 grids, the pair sums (``combine``), the ranking and the rest,
  each split into the time inside the compiled loops that deal their rows to every core
  (``prange``) and the time outside them, which runs on one thread whatever the machine
  (Python, numpy, the loops' own set-up). That one-thread share is the serial fraction
  measured directly; the fitted one adds what the loops lose on more threads (their
  set-up, uneven shares, memory bandwidth);
* the referee (``adjudicate``, one full turn per plan pair) on a sample of pairs.

The machine load is printed before each case: other work on the machine slows the wall
time (CPU time shows it), and on a loaded machine the fit overstates ``s``. Numbers, not
pass/fail. REPEATS (default 2): runs per setting, the fastest kept. Kernels are
compiled (or loaded) before the clocks start. The process keeps the memory it frees, as
``furball analyze`` does (``geometry.kernels.keep_freed_memory``); ``--fresh-memory``
leaves the C allocator as it starts (each chunk's grids then fault fresh pages in, as
before issue 36's end).
"""
import contextlib
import dataclasses
import os
import sys
import time

import numba
import numpy as np

from furball.geometry import kernels as gk
from furball.maneuvers import shipped_decks
from furball.scenarios.dogfight import adjudicate, analysis, analyze, load_scenario
from furball.scenarios.dogfight.analysis import legal_plans

THREADS = (1, 2, 4, 8, 16)
PARALLEL_LOOPS = {"geometry": ("overlap_grid", "sector_grid", "overlap_count_pairs"),
                  "analysis": ("apply_rules", "collision_pairs", "collision_chance", "early_sums", "combine",
                               "group_totals")}
"""The compiled loops that run over every core (``prange``), by module."""
PHASES = (("plans", "_trees", "plan enumeration and plan trees"),
          ("setup", "duel_task", "duel setup: sides, maneuvers 1-2, early sums"),
          ("chunks", "evaluate_chunk", "maneuver-3 grids and pair sums, chunk by chunk"),
          ("ranking", "_totals", "totals over the enemies and the ranking"))
"""Phases of :func:`analyze`: (key, the analysis function that is the phase, what)."""


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


def amdahl(threads, walls):
    """The serial fraction fitted to wall times on several thread counts (least squares
    of ``T(n) / T(1) = s + (1 - s) / n``); None with one thread count only."""
    n = np.asarray(threads, float)
    if len(n) < 2:
        return None
    y = np.asarray(walls) / walls[0] - 1.0 / n  # = s (1 - 1/n)
    x = 1.0 - 1.0 / n
    return float(np.clip((x @ y) / (x @ x), 0.0, 1.0))


class Clock:
    """CPU seconds spent in each phase of :func:`analyze` and, within it, in the
    compiled parallel loops: wraps the phase functions and the loops' module attributes
    for the ``with`` block (the analysis looks them up at each call)."""

    def __init__(self, timer=time.process_time):
        self.timer = timer
        self.phase = {key: 0.0 for key, _, _ in PHASES}
        self.loops = {key: 0.0 for key, _, _ in PHASES} | {"rest": 0.0}  # loops outside the phases: the rest
        self.current = None
        self.by_loop: dict = {}

    def _phase(self, key, fn):
        def wrapped(*args, **kw):
            outer, self.current = self.current, self.current or key
            c0 = self.timer()
            try:
                return fn(*args, **kw)
            finally:
                if outer is None:
                    self.phase[key] += self.timer() - c0
                self.current = outer
        return wrapped

    def _loop(self, name, fn):
        def wrapped(*args, **kw):
            c0 = self.timer()
            try:
                return fn(*args, **kw)
            finally:
                spent = self.timer() - c0
                self.loops[self.current or "rest"] += spent
                self.by_loop[name] = self.by_loop.get(name, 0.0) + spent
        return wrapped

    @contextlib.contextmanager
    def installed(self):
        modules = {"geometry": gk.compiled(), "analysis": analysis._jit()}
        patches = [(analysis, name, self._phase(key, getattr(analysis, name))) for key, name, _ in PHASES]
        patches += [(modules[m], name, self._loop(name, getattr(modules[m], name)))
                    for m, names in PARALLEL_LOOPS.items() for name in names
                    if hasattr(modules[m], name)]  # an older commit may lack a loop
        saved = [(obj, name, getattr(obj, name)) for obj, name, _ in patches]
        for obj, name, fn in patches:
            setattr(obj, name, fn)
        try:
            yield self
        finally:
            for obj, name, fn in saved:
                setattr(obj, name, fn)


def profile(table, plane, enemy, repeats, threads=1, timer=time.process_time):
    """The per-phase profile on ``threads`` threads by ``timer`` (CPU seconds on one
    thread; wall seconds on several): the fastest of ``repeats`` runs."""
    numba.set_num_threads(threads)
    best = None
    for _ in range(repeats):
        clock = Clock(timer)
        with clock.installed():
            c0 = timer()
            analyze(table, plane, vs=[enemy], heat_rows=0)
            total = timer() - c0
        if best is None or total < best[1]:
            best = (clock, total)
    return best


def show(clock, total, heading):
    """Print a :class:`Clock`'s phases (inside and outside the parallel loops), its loops
    and the rest, of an analysis that took ``total`` seconds."""
    print(f"  {heading}:")
    for key, _, what in PHASES:
        inside = clock.loops[key]
        print(f"    {what:<50} {clock.phase[key]:6.3f} s  (in parallel loops {inside:6.3f}, outside "
              f"{clock.phase[key] - inside:6.3f})")
    print("      parallel loops: " + ", ".join(f"{k} {v:.3f} s" for k, v in sorted(clock.by_loop.items())))
    rest = total - sum(clock.phase.values())
    print(f"    {'the rest (players, heat maps, report)':<50} {rest:6.3f} s  (in parallel loops "
          f"{clock.loops['rest']:6.3f}, outside {rest - clock.loops['rest']:6.3f})")


def run(label, table, plane, enemy, repeats, threads_only=False):
    analyze(table, plane, vs=[enemy], heat_rows=0)  # compile (or load) the kernels first
    cores = numba.config.NUMBA_NUM_THREADS
    counts = [n for n in THREADS if n <= cores] + ([cores] if cores not in THREADS and cores < 16 else [])
    print(f"{label} (machine: {os.cpu_count()} cores, numba threading layer {numba.config.THREADING_LAYER}, "
          f"load {os.getloadavg()[0]:.2f})")
    runs = {n: timed(table, plane, enemy, n, repeats) for n in counts}
    numba.set_num_threads(cores)
    report = runs[counts[0]][0]
    one = runs[1][1]
    for n, (_, wall, cpu) in runs.items():
        print(f"  {n:>2} threads: {wall:5.2f} s wall, {cpu:5.2f} s CPU = {report.pairs / wall / 1e6:6.2f} M plan "
              f"pairs/s, x{one / wall:.2f} one thread")
    s = amdahl(counts, [runs[n][1] for n in counts])
    if threads_only:
        if s is not None:
            print(f"  serial fraction {s:.3f} fitted to {counts} threads (Amdahl) -> x{1 / (s + (1 - s) / 16):.1f} "
                  f"on 16 threads")
        return
    clock, total = profile(table, plane, enemy, repeats)
    serial = total - sum(clock.loops.values())
    show(clock, total, f"one-thread profile ({total:.3f} s CPU; 'outside' runs on one thread whatever the machine)")
    measured = serial / total
    if counts[-1] > 1:
        wide, wall_total = profile(table, plane, enemy, repeats, threads=counts[-1], timer=time.perf_counter)
        numba.set_num_threads(cores)
        show(wide, wall_total, f"{counts[-1]}-thread profile, wall seconds ({wall_total:.3f} s)")
    print(f"  serial fraction: {measured:.3f} measured (outside the parallel loops, one thread) -> x"
          f"{1 / (measured + (1 - measured) / 16):.1f} on 16 threads at most")
    if s is not None:
        print(f"                   {s:.3f} fitted to {counts} threads (Amdahl)            -> x"
              f"{1 / (s + (1 - s) / 16):.1f} on 16 threads")
    ref = referee_rate(table, plane, enemy, legal_plans(table.plane(plane), table.rules),
                       legal_plans(table.plane(enemy), table.rules))
    best = min(w for _, w, _ in runs.values())
    print(f"  {len(report.plans):,} x {len(report.enemies[0].plans):,} plans = {report.pairs:,} pairs; the referee: "
          f"{ref:.0f} pairs/s (analysis x{report.pairs / best / ref:,.0f}); load now {os.getloadavg()[0]:.2f}")


def main():
    args = [a for a in sys.argv[1:] if a not in ("--threads-only", "--fresh-memory")]
    threads_only = "--threads-only" in sys.argv[1:]
    kept = "--fresh-memory" not in sys.argv[1:] and hasattr(gk, "keep_freed_memory") and gk.keep_freed_memory()
    print(f"freed memory kept for reuse (geometry.kernels.keep_freed_memory): {'yes' if kept else 'no'}")
    repeats = int(args[0]) if args else 2
    duel = load_scenario("duel")
    run("deck A vs deck A", duel.table, "Camel", "Albatros", repeats, threads_only)
    template = shipped_decks()["template"]
    twenty = dataclasses.replace(template, name="template-20", cards=template.cards[:20], autonomous=None,
                                 collision=("L100-60", "R100-60"))
    planes = tuple(dataclasses.replace(p, deck=twenty) for p in duel.table.planes)
    run("two 20-card decks", dataclasses.replace(duel.table, planes=planes), "Camel", "Albatros", repeats, threads_only)


if __name__ == "__main__":
    main()
