"""How evenly the plan analysis's grids deal their rows to the threads, from the cost of
each row measured here on one thread (issue 36.2): a machine with fewer cores than the
threads asked for can still say what the deal allows on 16.

Run: .venv/bin/python benchmarks/bench_analyze.py is the speed-up measured; this one is
the bound the deal puts on it:

    .venv/bin/python benchmarks/bench_deal.py [THREADS]   (default 16)

For the two cases of ``bench_analyze.py`` (deck A against deck A, two 20-card decks), it
records every call of the firing grid (``sector_grid``) and the overlap grid
(``overlap_grid``) in one analysis, times each pair of rows of each call on one thread
(the fastest of 3; the call's own set-up, done once, left out), and deals the rows to THREADS threads as the kernels do (blocks of
``ROW_BLOCK`` rows, or ``COLUMN_BLOCK`` when the grid writes its answer transposed,
task t taking blocks t, t + THREADS, ...), and with other block sizes. The speed-up
each deal allows is the one-thread time over the busiest thread's share: what the
grids would reach on THREADS equal cores with nothing else slowing them (shared caches,
memory, clock speed, the loops' start). Numbers, not pass/fail.
"""
from __future__ import annotations

import dataclasses
import sys
import time

import numba
import numpy as np

from furball.geometry import _compiled as gc
from furball.geometry import kernels as gk
from furball.maneuvers import shipped_decks
from furball.scenarios.dogfight import analyze, load_scenario

UNIT = 2
"""Rows timed together (the smallest block compared)."""
BLOCKS = (2, 4, 8, 16, 64)


@numba.njit
def _sector_rows(lo, hi, fs, half, fr, hr, limits, guard, bands, transposed, want_aim, dist, aim, prepared):
    """Rows ``lo:hi`` of ``sector_grid``."""
    order, starts, x0, y0, nx, ny, side, diagonal, inside, beyond, xy = prepared
    measure = np.empty(fr.shape[0], np.int64)
    scratch = np.empty((3, fr.shape[0]))
    unsure = 0
    for i in range(lo, hi):
        unsure += gc._sector_row(i, fs, half, fr, hr, limits, guard, bands, transposed, want_aim, dist, aim, order,
                                 starts, x0, y0, nx, ny, side, diagonal, inside, beyond, xy, measure, scratch)
    return unsure


@numba.njit
def _overlap_rows(lo, hi, fa, ha, fb, hb, guard, out, prepared):
    """Rows ``lo:hi`` of ``overlap_grid``."""
    (order, starts, x0, y0, nx, ny, side), reach = prepared
    unsure = 0
    for i in range(lo, hi):
        unsure += gc._overlap_row(i, fa, ha, fb, hb, guard, out, order, starts, x0, y0, nx, ny, side, reach)
    return unsure


def _row_costs(rows_fn, n_rows, args) -> np.ndarray:
    """Seconds per UNIT rows, the fastest of 3."""
    return np.array([min(_clock(lambda lo=lo: rows_fn(lo, min(n_rows, lo + UNIT), *args)) for _ in range(3))
                     for lo in range(0, n_rows, UNIT)])


def _clock(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _busiest(costs: np.ndarray, block_rows: int, threads: int) -> float:
    """The busiest thread's seconds when blocks of ``block_rows`` rows are dealt in turn."""
    blocks = np.add.reduceat(costs, np.arange(0, len(costs), block_rows // UNIT))
    tasks = min(len(blocks), threads)
    return max(blocks[t::tasks].sum() for t in range(tasks))


def _calls(table) -> list[tuple[str, tuple]]:
    """Every grid call of one analysis of ``table`` (Camel against Albatros)."""
    module, calls = gk.compiled(), []
    originals = {name: getattr(module, name) for name in ("sector_grid", "overlap_grid")}

    def recorder(name):
        def call(*args):
            calls.append((name, args))
            return originals[name](*args)
        return call

    for name in originals:
        setattr(module, name, recorder(name))
    try:
        analyze(table, "Camel", vs=["Albatros"], heat_rows=0)
    finally:
        for name, fn in originals.items():
            setattr(module, name, fn)
    return calls


def run(label: str, table, threads: int) -> None:
    numba.set_num_threads(1)
    analyze(table, "Camel", vs=["Albatros"], heat_rows=0)  # compiled (or loaded) first
    shipped = {False: gc.ROW_BLOCK, True: gc.COLUMN_BLOCK}
    one, busiest = {}, {}
    for name, args in _calls(table):
        if name == "sector_grid":
            fs, half, fr, hr, limits, guard, _threads, bands, transposed, want_aim, dist, aim = args
            rows_args = (fs, half, fr, hr, limits, guard, bands, transposed, want_aim, dist, aim,
                         gc.sector_setup(fr, hr, limits))
            costs = _row_costs(_sector_rows, fs.shape[0], rows_args)
        else:
            fa, ha, fb, hb, guard, _threads, out = args
            transposed = False
            costs = _row_costs(_overlap_rows, fa.shape[0], (fa, ha, fb, hb, guard, out, gc.overlap_setup(ha, fb, hb)))
        if not len(costs):
            continue
        key = (name, bool(transposed))
        one[key] = one.get(key, 0.0) + costs.sum()
        for b in BLOCKS:
            busiest[key + (b,)] = busiest.get(key + (b,), 0.0) + _busiest(costs, b, threads)
    print(f"{label}: the grids' rows dealt to {threads} threads (per-row costs on one thread here)")
    for (name, transposed), total in sorted(one.items()):
        deals = ", ".join(f"{b}: x{total / busiest[(name, transposed, b)]:.1f}"
                          + (" (shipped)" if b == shipped[transposed] else "") for b in BLOCKS)
        print(f"  {name:<12} {'transposed' if transposed else 'rows      '} {total * 1e3:7.1f} ms on one thread; "
              f"rows per block -> speed-up the deal allows: {deals}")


def main() -> None:
    threads = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    duel = load_scenario("duel")
    run("deck A vs deck A", duel.table, threads)
    template = shipped_decks()["template"]
    twenty = dataclasses.replace(template, name="template-20", cards=template.cards[:20], autonomous=None,
                                 collision=("L100-60", "R100-60"))
    planes = tuple(dataclasses.replace(p, deck=twenty) for p in duel.table.planes)
    run("two 20-card decks", dataclasses.replace(duel.table, planes=planes), threads)


if __name__ == "__main__":
    main()
