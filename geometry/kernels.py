"""Batch kernels: the geometric predicates of :mod:`geometry.base`,
:mod:`geometry.segments` and :mod:`geometry.sector` on whole arrays at once.

Knows no game: rectangles, segments and sectors. Each function takes arrays that
broadcast like numpy — poses ``(..., 3)`` (mm, mm, deg), points ``(..., 2)`` (mm), sizes
``(...)`` — and answers for every element of the broadcast shape. The answers are those
of the scalar predicates, decided with the same tolerance
(:data:`geometry.tolerance.TOLERANCE_MM`); the tests compare them on random and
near-touching cases, and after rigid motions.

The loops are compiled with numba (``cache=True``) on first use, never at import: the
first call in a fresh checkout compiles for a few seconds, later runs load the cache.
The trigonometry is done once per pose (:func:`frames`), never once per pair, so
all-pairs questions (:func:`depth_grid`, :func:`sector_grid`) cost a few nanoseconds
per pair; these two split large grids by rows over the cores (threads; the compiled
loops release the GIL).

Functions: :func:`frames`, :func:`overlap_depth` / :func:`depth_grid` (DF.O-style
overlap: interpenetration depth), :func:`exit_edge` / :func:`entry_edge` (through which
edge a segment leaves or enters), :func:`segment_enters` (a segment gets inside),
:func:`segments_blocked` (any of many rectangles is entered), :func:`closest_in_sector`
/ :func:`sector_grid` (closest point of a rectangle inside a sector).
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

import numpy as np

from .pose import as_pose_array

__all__ = ["compiled", "in_row_blocks", "ruler_edges", "sector_band_grid", "overlap_grid", "overlap_counts", "frames", "halves", "overlap_depth", "depth_grid", "exit_edge", "entry_edge",
           "segment_enters", "segments_blocked", "closest_in_sector", "sector_grid"]


_THREADED = 200_000
"""Grids with fewer pairs than this run on one thread."""


@lru_cache(maxsize=1)
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix="furball-kernel")


def in_row_blocks(n_rows: int, work) -> None:
    """Run ``work(rows)`` (``rows`` a slice) on blocks of ``n_rows`` rows, one block per
    core, in threads: for compiled loops that release the GIL (``nogil=True``)."""
    parts = max(1, min(os.cpu_count() or 1, n_rows))
    bounds = np.linspace(0, n_rows, parts + 1).astype(int)
    blocks = [slice(a, b) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
    if len(blocks) == 1:
        work(blocks[0])
        return
    for future in [_pool().submit(work, b) for b in blocks]:
        future.result()


@lru_cache(maxsize=1)
def compiled():
    """The numba module (:mod:`geometry._compiled`), imported on first use."""
    from . import _compiled

    return _compiled


def _f64(a, shape=None) -> np.ndarray:
    """A C-contiguous, writeable float64 array (one array type: one compiled version)."""
    a = np.asarray(a, dtype=float)
    if shape is not None:
        a = np.broadcast_to(a, shape)
    return np.require(a, dtype=np.float64, requirements=["C", "W"])


def frames(poses) -> np.ndarray:
    """``(N, 4)`` rows ``(x, y, cos h, sin h)`` of poses ``(..., 3)`` flattened to N
    (cosine and sine exact at quarter turns, as :func:`geometry.pose.cos_sin_deg`)."""
    p = _f64(as_pose_array(poses)).reshape(-1, 3)
    out = np.empty((p.shape[0], 4))
    compiled().frames(p, out)
    return out


def halves(length_mm, width_mm, shape) -> np.ndarray:
    """``(N, 2)`` half sizes for rectangles of batch ``shape`` (sizes broadcast to it)."""
    n = int(np.prod(shape, dtype=np.int64))
    hl = np.broadcast_to(np.asarray(length_mm, float) / 2, shape).reshape(n)
    hw = np.broadcast_to(np.asarray(width_mm, float) / 2, shape).reshape(n)
    return _f64(np.stack([hl, hw], axis=-1))


def _pairs(shape_a, shape_b):
    """Broadcast shape of two batches and, for every element, its row in each batch."""
    shape = np.broadcast_shapes(shape_a, shape_b)
    ia = np.broadcast_to(np.arange(int(np.prod(shape_a, dtype=np.int64))).reshape(shape_a), shape).ravel()
    ib = np.broadcast_to(np.arange(int(np.prod(shape_b, dtype=np.int64))).reshape(shape_b), shape).ravel()
    return shape, np.ascontiguousarray(ia), np.ascontiguousarray(ib)


def _rects(poses, length_mm, width_mm):
    p = as_pose_array(poses)
    shape = np.broadcast_shapes(p.shape[:-1], np.shape(length_mm), np.shape(width_mm))
    p = np.broadcast_to(p, shape + (3,))
    return frames(p), halves(length_mm, width_mm, shape), shape


def overlap_depth(pose_a, length_a, width_a, pose_b, length_b, width_b) -> np.ndarray:
    """Interpenetration depth (mm) of rectangles a and b, element by element over the
    broadcast batch: positive when they share area, as
    :func:`geometry.base.penetration_depth_mm` (overlap: depth > ``TOLERANCE_MM``)."""
    pa, pb = as_pose_array(pose_a), as_pose_array(pose_b)
    shape = np.broadcast_shapes(pa.shape[:-1], np.shape(length_a), np.shape(width_a), pb.shape[:-1],
                                np.shape(length_b), np.shape(width_b))
    if pa.shape[:-1] == pb.shape[:-1] == shape and len(shape) == 1:  # row by row: no index arrays
        out = np.empty(shape[0])
        ha, hb = halves(length_a, width_a, shape), halves(length_b, width_b, shape)
        in_row_blocks(shape[0], lambda r: compiled().depth_rows(_f64(pa[r]), ha[r], _f64(pb[r]), hb[r], out[r]))
        return out
    fa, ha, sa = _rects(pose_a, length_a, width_a)
    fb, hb, sb = _rects(pose_b, length_b, width_b)
    shape, ia, ib = _pairs(sa, sb)
    out = np.empty(ia.shape[0])
    compiled().depth_pairs(fa, ha, fb, hb, ia, ib, out)
    return out.reshape(shape)


def depth_grid(frames_a, halves_a, frames_b, halves_b) -> np.ndarray:
    """Depth of every rectangle of a against every rectangle of b, ``(Na, Nb)`` mm, from
    prepared :func:`frames` and :func:`halves` (both cores)."""
    na, nb = frames_a.shape[0], frames_b.shape[0]
    if na * nb < _THREADED:  # starting threads costs more than it saves
        shape, ia, ib = _pairs((na, 1), (1, nb))
        out = np.empty(na * nb)
        compiled().depth_pairs(_f64(frames_a), _f64(halves_a), _f64(frames_b), _f64(halves_b), ia, ib, out)
        return out.reshape(shape)
    out = np.empty((na, nb))
    fa, ha, fb, hb = _f64(frames_a), _f64(halves_a), _f64(frames_b), _f64(halves_b)
    in_row_blocks(na, lambda r: compiled().depth_grid(fa[r], ha[r], fb, hb, out[r]))
    return out


def _segments(a, b):
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    shape = np.broadcast_shapes(a.shape[:-1], b.shape[:-1])
    seg = np.concatenate([np.broadcast_to(a, shape + (2,)), np.broadcast_to(b, shape + (2,))], axis=-1)
    return _f64(seg.reshape(-1, 4)), shape


def _crossing(a, b, poses, length_mm, width_mm, leaving: bool) -> np.ndarray:
    seg, ss = _segments(a, b)
    fr, hr, sr = _rects(poses, length_mm, width_mm)
    shape, ia, ib = _pairs(ss, sr)
    out = np.empty(ia.shape[0], dtype=np.int64)
    compiled().crossing_pairs(seg, fr, hr, ia, ib, leaving, out)
    return out.reshape(shape)


def exit_edge(a, b, poses, length_mm, width_mm) -> np.ndarray:
    """Edge (:class:`~geometry.base.Edge` value) through whose interior segment ``a``-``b``
    (points ``(..., 2)`` mm) leaves each rectangle, as :func:`geometry.segments.exit_edge`."""
    return _crossing(a, b, poses, length_mm, width_mm, True)


def entry_edge(a, b, poses, length_mm, width_mm) -> np.ndarray:
    """Edge through whose interior segment ``a``-``b`` enters each rectangle, as
    :func:`geometry.segments.entry_edge`."""
    return _crossing(a, b, poses, length_mm, width_mm, False)


def ruler_edges(a, b, pose_a, length_a, width_a, pose_b, length_b, width_b):
    """For segments ``a[n]``-``b[n]`` (``(N, 2)`` mm) between rectangle ``n`` of a (which
    holds ``a[n]``) and rectangle ``n`` of b (which holds ``b[n]``): the edge through
    which each leaves its a-rectangle and the edge through which it enters its
    b-rectangle, ``(N,)`` each — :func:`exit_edge` and :func:`entry_edge` in one pass."""
    seg, shape = _segments(a, b)
    n = seg.shape[0]
    pa = _f64(np.broadcast_to(as_pose_array(pose_a), (n, 3)))
    pb = _f64(np.broadcast_to(as_pose_array(pose_b), (n, 3)))
    ha, hb = halves(length_a, width_a, (n,)), halves(length_b, width_b, (n,))
    out_exit = np.empty(n, dtype=np.int64)
    out_entry = np.empty(n, dtype=np.int64)
    in_row_blocks(n, lambda r: compiled().ruler_edges_rows(seg[r], pa[r], ha[r], pb[r], hb[r], out_exit[r],
                                                           out_entry[r]))
    return out_exit.reshape(shape), out_entry.reshape(shape)


def segment_enters(a, b, poses, length_mm, width_mm) -> np.ndarray:
    """Boolean: segment ``a``-``b`` gets more than the tolerance inside each rectangle,
    as :func:`geometry.segments.enters_interior`."""
    seg, ss = _segments(a, b)
    fr, hr, sr = _rects(poses, length_mm, width_mm)
    shape, ia, ib = _pairs(ss, sr)
    out = np.empty(ia.shape[0], dtype=np.bool_)
    compiled().enters_pairs(seg, fr, hr, ia, ib, out)
    return out.reshape(shape)


def segments_blocked(a, b, poses, length_mm, width_mm, skip=None) -> np.ndarray:
    """Boolean ``(N,)``: segment n (``a``, ``b``: ``(N, 2)`` mm) gets more than the
    tolerance inside any of the K rectangles (``poses`` ``(K, 3)``, sizes ``(K,)`` or
    scalars) other than those with ``skip[n, k]`` (``(N, K)`` bool, default none)."""
    seg, ss = _segments(a, b)
    fr, hr, _ = _rects(np.asarray(poses, float).reshape(-1, 3), length_mm, width_mm)
    n, k = seg.shape[0], fr.shape[0]
    skip = np.zeros((n, k), dtype=np.bool_) if skip is None else np.require(
        np.broadcast_to(np.asarray(skip, dtype=np.bool_), (n, k)), requirements=["C", "W"])
    out = np.empty(n, dtype=np.bool_)
    compiled().blocked_any(seg, fr, hr, skip, out)
    return out.reshape(ss)


def _sectors(apex, centre_deg, half_width_deg):
    """Frames of apex poses turned to their sectors' centre lines, and half-widths."""
    p = as_pose_array(apex)
    shape = np.broadcast_shapes(p.shape[:-1], np.shape(centre_deg), np.shape(half_width_deg))
    turned = np.broadcast_to(p, shape + (3,)).copy()
    turned[..., 2] = turned[..., 2] + np.broadcast_to(np.asarray(centre_deg, float), shape)
    half = _f64(np.broadcast_to(np.asarray(half_width_deg, float), shape).reshape(-1))
    return frames(turned), half, shape


def closest_in_sector(apex, centre_deg, half_width_deg, poses, length_mm, width_mm):
    """Closest point to the apex of the part of each rectangle inside each sector, as
    :func:`geometry.sector.closest_in_sector` over the broadcast batch.

    ``apex``: poses ``(..., 3)``; ``centre_deg`` / ``half_width_deg``: the sector
    relative to the apex heading (0 < half <= 180); rectangles by centre ``poses`` and
    sizes. Returns ``(distance_mm, aim)``: distance ``inf`` (and aim NaN) where the
    rectangle does not reach more than the tolerance into the sector; aim ``(..., 2)``.
    """
    fs, half, ss = _sectors(apex, centre_deg, half_width_deg)
    fr, hr, sr = _rects(poses, length_mm, width_mm)
    shape, ia, ib = _pairs(ss, sr)
    dist = np.empty(ia.shape[0])
    aim = np.empty((ia.shape[0], 2))
    compiled().sector_pairs(fs, half, fr, hr, ia, ib, dist, aim)
    return dist.reshape(shape), aim.reshape(shape + (2,))


def sector_grid(sector_frames, half_width_deg, reach_mm, frames_r, halves_r):
    """Every sector against every rectangle: ``(distance (Ns, Nr), aim (Ns, Nr, 2))``
    as :func:`closest_in_sector`, from prepared frames (sector frames: the apex turned
    to the centre line). Rectangles farther than ``reach_mm`` from the apex are skipped
    (distance ``inf``): pass the longest range that matters. Both cores."""
    ns, nr = sector_frames.shape[0], frames_r.shape[0]
    dist = np.empty((ns, nr))
    aim = np.empty((ns, nr, 2))
    half = _f64(np.broadcast_to(np.asarray(half_width_deg, float), (ns,)))
    fs, fr, hr = _f64(sector_frames), _f64(frames_r), _f64(halves_r)
    if ns * nr < _THREADED:
        compiled().sector_grid(fs, half, float(reach_mm), fr, hr, dist, aim)
    else:
        in_row_blocks(ns, lambda r: compiled().sector_grid(fs[r], half[r], float(reach_mm), fr, hr, dist[r], aim[r]))
    return dist, aim


def sector_band_grid(sector_frames, half_width_deg, limits_mm, frames_r, halves_r) -> np.ndarray:
    """Every sector against every rectangle: ``(Ns, Nr)`` int8, in how many of the nested
    distance bands ``limits_mm`` (increasing) the closest in-sector point lies
    (``len(limits)``: within the first; 0: beyond the last, or not in the sector). As
    :func:`sector_grid` without aim points; rows split over the cores."""
    ns, nr = sector_frames.shape[0], frames_r.shape[0]
    out = np.empty((ns, nr), dtype=np.int8)
    half = _f64(np.broadcast_to(np.asarray(half_width_deg, float), (ns,)))
    fs, fr, hr, lim = _f64(sector_frames), _f64(frames_r), _f64(halves_r), _f64(limits_mm)
    if ns * nr < _THREADED:
        compiled().sector_band_grid(fs, half, lim, fr, hr, out)
    else:
        in_row_blocks(ns, lambda r: compiled().sector_band_grid(fs[r], half[r], lim, fr, hr, out[r]))
    return out


def overlap_grid(frames_a, halves_a, frames_b, halves_b) -> np.ndarray:
    """Every rectangle of a against every rectangle of b: ``(Na, Nb)`` bool, they share
    area (depth > ``TOLERANCE_MM``, as :func:`depth_grid` ``> TOLERANCE_MM``), one byte
    per pair; rows split over the cores."""
    na, nb = frames_a.shape[0], frames_b.shape[0]
    out = np.empty((na, nb), dtype=np.bool_)
    fa, ha, fb, hb = _f64(frames_a), _f64(halves_a), _f64(frames_b), _f64(halves_b)
    if na * nb < _THREADED:
        compiled().overlap_grid(fa, ha, fb, hb, out)
    else:
        in_row_blocks(na, lambda r: compiled().overlap_grid(fa[r], ha[r], fb, hb, out[r]))
    return out


def overlap_counts(frames_a, halves_a, frames_b, halves_b, ia, ib) -> np.ndarray:
    """For pairs ``(ia[n], ib[n])`` of rectangles each with several placements
    (``frames_a`` ``(Na, Ka, 4)``, ``frames_b`` ``(Nb, Kb, 4)``; half sizes ``(2,)``):
    how many of the ``Ka x Kb`` placement pairs share area. ``(n,)`` ints."""
    ia = np.ascontiguousarray(ia, dtype=np.int64)
    out = np.empty(ia.shape[0], dtype=np.int64)
    compiled().overlap_count_pairs(_f64(frames_a), _f64(halves_a), _f64(frames_b), _f64(halves_b), ia,
                                   np.ascontiguousarray(ib, dtype=np.int64), out)
    return out
