"""Throughput of the batch kernels (geometry.kernels) next to shapely, and their agreement
with the scalar path.

Run: .venv/bin/python benchmarks/bench_kernels.py [PAIRS] [AGREE]
PAIRS (default 1,000,000) random and near-touching pairs; AGREE (default 20,000) pairs
compared one by one with the scalar segment and sector predicates (the overlap is
compared on all PAIRS: its scalar path is a numpy batch). The kernels leave the cases
within rounding of a threshold to the scalar path, so the agreement is exact by
construction. Numbers, not pass/fail; every ratio is measured in this run. Compilation
happens before the clocks start.
"""
import sys
import time

import numpy as np
import shapely

from furball.geometry import kernels as gk
from furball.geometry.base import penetration_depth_mm, rectangle_corners
from furball.geometry.pose import Pose, compose_batch, to_table_batch
from furball.geometry.sector import closest_in_sector
from furball.geometry.segments import enters_interior, entry_edge, exit_edge
from furball.geometry.tolerance import TOLERANCE_MM as TOL


def timed(fn, repeat=3):
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def cases(n, rng):
    """Half random pairs within 300 mm, half touching edge to edge a few tolerances in or out."""
    a = np.c_[rng.uniform(-1500, 1500, (n, 2)), rng.uniform(0, 360, n)]
    rel = np.c_[rng.uniform(-150, 150, (n, 2)), rng.uniform(0, 360, n)]
    edge = np.arange(n) % 2 == 0
    rel[edge] = np.c_[np.full(edge.sum(), 44.0) - rng.choice([-3, -1.5, -0.5, 0, 0.5, 1.5, 3], edge.sum()) * TOL,
                      rng.uniform(-10, 10, edge.sum()), rng.integers(0, 4, edge.sum()) * 180.0]
    return a, compose_batch(a, rel)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    m = int(sys.argv[2]) if len(sys.argv) > 2 else 20_000
    rng = np.random.default_rng(0)
    a, b = cases(n, rng)
    L, W = 44.0, 60.0
    gk.overlap_depth(a[:10], L, W, b[:10], L, W)  # compile before timing
    print(f"{n:,} pairs; machine load {open('/proc/loadavg').read().split()[0]} (2 cores)")

    # -- overlap (DF.O1) ---------------------------------------------------------------
    t_k, depth = timed(lambda: gk.overlap_depth(a, L, W, b, L, W))
    t_s, ref = timed(lambda: penetration_depth_mm(a, L, W, b, L, W), 1)
    na = int(np.sqrt(n))
    gk.overlap_grid(gk.Rects.of(a[:600], L, W), gk.Rects.of(b[:600], L, W))
    t_g, _ = timed(lambda: gk.overlap_grid(gk.Rects.of(a[:na], L, W), gk.Rects.of(b[:na], L, W)))
    pa, pb = shapely.polygons(rectangle_corners(a, L, W)), shapely.polygons(rectangle_corners(b, L, W))
    t_sp, _ = timed(lambda: shapely.intersects(pa, pb), 1)
    t_sc, _ = timed(lambda: shapely.intersects(shapely.polygons(rectangle_corners(a, L, W)),
                                               shapely.polygons(rectangle_corners(b, L, W))), 1)
    agree = np.mean((depth > TOL) == (ref > TOL))
    rate = n / t_k
    print(f"overlap, pairs (poses -> frames included): {rate / 1e6:7.1f} M pairs/s")
    print(f"overlap, all pairs {na}x{na} over a 3 m table (binned, every core; frames included): "
          f"{na * na / t_g / 1e6:7.1f} M pairs/s (target 20 M pairs/s)")
    print(f"  numpy scalar path {n / t_s / 1e6:.1f} M/s (kernel x{t_s / t_k:.1f}); shapely intersects prebuilt "
          f"{n / t_sp / 1e6:.2f} M/s (kernel x{t_sp / t_k:.1f}); shapely with construction {n / t_sc / 1e6:.2f} M/s "
          f"(kernel x{t_sc / t_k:.1f})")
    print(f"  agreement with the scalar path: {agree:.6%} of {n:,} pairs "
          f"({np.sum(np.abs(ref) < 10 * TOL):,} within 10 tolerances of touching)")

    # -- the ruler (DF.T1 b, c, d) ---------------------------------------------------------
    sa, sb = a[:, :2], b[:, :2]
    gk.exit_edge(sa[:10], sb[:10], a[:10], L, W)
    gk.entry_edge(sa[:10], sb[:10], b[:10], L, W)
    t_e, out = timed(lambda: gk.exit_edge(sa, sb, a, L, W))
    t_i, into = timed(lambda: gk.entry_edge(sa, sb, b, L, W))
    mid = (a + b) / 2
    t_b, hit = timed(lambda: gk.segment_enters(sa, sb, mid, L, W))
    lines = shapely.linestrings(np.stack([sa, sb], axis=1))
    inner = shapely.polygons(rectangle_corners(mid, L - 2 * TOL, W - 2 * TOL))
    t_lp, _ = timed(lambda: shapely.intersects(lines, inner), 1)
    t_lc, _ = timed(lambda: shapely.intersects(shapely.linestrings(np.stack([sa, sb], axis=1)),
                                               shapely.polygons(rectangle_corners(mid, L - 2 * TOL, W - 2 * TOL))), 1)
    gk.ruler_edges(sa[:10], sb[:10], a[:10], L, W, b[:10], L, W)
    t_r, (out2, into2) = timed(lambda: gk.ruler_edges(sa, sb, a, L, W, b, L, W))
    assert np.array_equal(out2, out) and np.array_equal(into2, into)
    print(f"ruler exit edge {n / t_e / 1e6:.1f} M/s, entry edge {n / t_i / 1e6:.1f} M/s, enters a base "
          f"{n / t_b / 1e6:.1f} M/s; both edges in one pass (poses -> trigonometry included) "
          f"{n / t_r / 1e6:.1f} M pairs/s; the tailing test (edges in one pass, then a blocking base) "
          f"{n / (t_r + t_b) / 1e6:.1f} M pairs/s (target 10)")
    na = int(np.sqrt(n))
    ga, gb = sa[:na, None, :], sb[None, :na, :]
    t_ge, _ = timed(lambda: gk.exit_edge(ga, gb, a[:na, None, :], L, W))
    t_gi, _ = timed(lambda: gk.entry_edge(ga, gb, b[None, :na, :], L, W))
    print(f"  all pairs {na}x{na} by broadcasting (each pose's trigonometry once): exit {na * na / t_ge / 1e6:.1f} M/s,"
          f" entry {na * na / t_gi / 1e6:.1f} M/s; tailing test {na * na / (t_ge + t_gi) / 1e6:.1f} M pairs/s")
    print(f"  enters vs shapely line-polygon intersects: prebuilt {n / t_lp / 1e6:.2f} M/s (kernel x{t_lp / t_b:.1f}), "
          f"with construction {n / t_lc / 1e6:.2f} M/s (kernel x{t_lc / t_b:.1f})")
    sel = rng.choice(n, m, replace=False)
    ok = sum(int(exit_edge(sa[i], sb[i], a[i], L, W)[0]) == out[i]
             and int(entry_edge(sa[i], sb[i], b[i], L, W)[0]) == into[i]
             and bool(enters_interior(sa[i], sb[i], mid[i], L, W)[0]) == hit[i] for i in sel)
    print(f"  agreement with the scalar path: {ok / m:.4%} of {m:,} pairs")

    # -- firing (closest point in the arc) -------------------------------------------------------
    gk.closest_in_sector(a[:10], 0.0, 45.0, b[:10], L, W)
    t_f, (dist, aim) = timed(lambda: gk.closest_in_sector(a, 0.0, 45.0, b, L, W))
    ng = int(np.sqrt(n))
    near = np.c_[rng.uniform(0, 600, (ng, 2)), rng.uniform(0, 360, ng)]
    limits = np.array([100.0 + TOL, 200.0 + TOL])
    gk.sector_grid(gk.Sectors.of(near[:500], 0.0, 45.0), gk.Rects.of(near[:500], L, W), limits)
    t_fg, (dg, _) = timed(lambda: gk.sector_grid(gk.Sectors.of(near, 0.0, 45.0), gk.Rects.of(near, L, W), limits))
    print(f"firing sector, pairs: {n / t_f / 1e6:.1f} M pairs/s; all pairs {ng}x{ng} on a 600 mm table "
          f"(ruler 200 mm, {np.isfinite(dg).mean():.0%} in reach and arc; binned, every core): "
          f"{ng * ng / t_fg / 1e6:.1f} M pairs/s (target 10)")
    t_bg, bands = timed(lambda: gk.sector_band_grid(gk.Sectors.of(near, 0.0, 45.0), gk.Rects.of(near, L, W),
                                                    limits))
    print(f"firing range bands (short/long/none, what the analysis asks), all pairs {ng}x{ng}: "
          f"{ng * ng / t_bg / 1e6:.1f} M pairs/s (target 10); same answers as the distances above: "
          f"{np.mean(bands == np.where(dg <= limits[0], 2, np.where(dg <= limits[1], 1, 0))):.4%}")
    sel = rng.choice(n, m // 4, replace=False)
    good = 0
    for i in sel:
        r = closest_in_sector(Pose(*a[i]), 0.0, 45.0, rectangle_corners(b[i], L, W)[0])
        good += (r is None and not np.isfinite(dist[i])) or (
            r is not None and abs(r[0] - dist[i]) < 1e-9 and np.allclose(r[1], aim[i], atol=1e-9))
    print(f"  agreement with the scalar path: {good / len(sel):.4%} of {len(sel):,} pairs")
    _ = to_table_batch


if __name__ == "__main__":
    main()
