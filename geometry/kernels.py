"""Batch kernels: the geometric predicates of :mod:`geometry.base`,
:mod:`geometry.segments` and :mod:`geometry.sector` on whole arrays at once.

Knows no game: rectangles, segments and sectors. Functions on poses take arrays that
broadcast like numpy — poses ``(..., 3)`` (mm, mm, deg), points ``(..., 2)`` (mm), sizes
``(...)`` — and answer for every element of the broadcast shape; the all-pairs grids take
batches prepared once (:class:`Rects`, :class:`Sectors`).

**The same answers as the scalar predicates, literally.** The compiled loops
(:mod:`geometry._compiled`) decide a threshold — overlap deeper than the tolerance, a
base reaching the tolerance inside an arc's lines, a distance within a range limit, a
ruler's exit or entry edge, a segment getting inside a base — only when the compared
quantity is clear of it by a guard band (:func:`guard_mm`, a thousand times the
rounding of the coordinates). The few cases inside a band come back marked and are
decided here by the scalar predicate itself, on the same inputs (filter, then exact).
So a kernel and the scalar path never disagree, even on exact ties; the tests put
targets exactly on every threshold.

Small questions (:data:`SCALAR_PAIRS` pairs or fewer) go to the scalar predicates
directly until something compiled is loaded. The loops are compiled with numba on first use, never at import, and cached
in the user's cache directory (:func:`cache_dir`; ``furball warm`` fills it once).
Each function compiles only when it is first called, so a command compiles what it
uses: a turn of a few planes nothing, a big turn the one-thread pair loops, the plan
analysis the grids, which deal their rows to every core (numba ``prange``) and visit
only the rectangles binned near each row's pose.

Functions: :func:`frames`, :func:`overlap_depth` / :func:`depth_grid` (DF.O-style
overlap: interpenetration depth), :func:`overlap_grid` / :func:`overlap_counts` (share
area), :func:`exit_edge` / :func:`entry_edge` / :func:`ruler_edges` (through which
edge a segment leaves or enters), :func:`segment_enters` (a segment gets inside),
:func:`segments_blocked` (any of many rectangles is entered), :func:`closest_in_sector`
/ :func:`sector_grid` / :func:`sector_band_grid` (closest point of a rectangle inside a
sector).
"""
from __future__ import annotations

import importlib
import os
import sys
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .pose import as_pose_array, cos_sin_deg
from .tolerance import TOLERANCE_MM

__all__ = ["compiled", "load_compiled", "cache_dir", "threads", "keep_freed_memory", "KEPT_FREE_MIB", "LARGEST_REUSED_MIB", "warm", "guard_mm", "extent_mm", "GUARD_MM", "SCALAR_PAIRS",
           "GRID_PAIRS", "Rects", "Sectors", "frames", "halves", "overlap_depth", "depth_grid", "overlap_grid", "overlap_counts", "exit_edge", "entry_edge",
           "ruler_edges", "segment_enters", "segments_blocked", "closest_in_sector", "sector_grid",
           "sector_band_grid", "near_pairs"]

GUARD_MM = 1e-9
"""Half-width (mm) of the band around every threshold that the compiled kernels leave to
the scalar path, for coordinates within a metre of the origin (it grows in proportion
beyond, :func:`guard_mm`): a thousand times the rounding of double precision there, a
thousandth of the tolerance."""

SCALAR_PAIRS = 64
"""Questions about this many pairs or fewer, asked before anything compiled is loaded,
are answered by the scalar predicates themselves, one pair at a time: a dogfight turn
of a few planes compiles nothing."""

GRID_PAIRS = 2_000
"""All-pairs questions with fewer pairs run one pair at a time on one thread (no parallel
loop to compile or start); larger ones on the binned grids over every core. The grid
visits only nearby pairs, so it is the faster one on one thread too from a few thousand
pairs (the plan analysis's maneuver-2 grid of deck A, 193 x 193 poses: 1.8 ms against
14.5 ms one pair at a time)."""


# -- the compiled modules and their cache -------------------------------------------------------
def cache_dir() -> Path:
    """Where numba keeps furball's compiled kernels: ``$NUMBA_CACHE_DIR`` when set, else
    the user's cache directory for this furball version (``platformdirs``), e.g.
    ``~/.cache/furball/0.2.0/numba``, so a read-only install works and a cache from an
    older version is never read. Falls back to the temporary directory when that one
    cannot be created."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given:
        return Path(given)
    import platformdirs

    from furball import __version__

    path = Path(platformdirs.user_cache_dir("furball", appauthor=False, version=__version__)) / "numba"
    try:
        path.mkdir(parents=True, exist_ok=True)
        return path
    except OSError:
        return Path(tempfile.gettempdir()) / f"furball-{__version__}-numba"


@lru_cache(maxsize=8)
def load_compiled(module: str):
    """Import the numba module ``module`` (absolute name) with its functions cached in
    :func:`cache_dir` (numba picks a function's cache directory when the module defines
    it; other numba users in the process keep theirs)."""
    from numba.core import config

    before = config.CACHE_DIR  # type: ignore[attr-defined]
    config.CACHE_DIR = str(cache_dir())  # type: ignore[attr-defined]
    try:
        return importlib.import_module(module)
    finally:
        config.CACHE_DIR = before  # type: ignore[attr-defined]


def compiled():
    """The numba module of the geometry (:mod:`geometry._compiled`), loaded on first use."""
    return load_compiled(f"{__package__}._compiled")


def threads() -> int:
    """How many threads numba's parallel loops use now (``numba.set_num_threads``)."""
    import numba

    return int(numba.get_num_threads())


KEPT_FREE_MIB = 1024
"""The most freed memory (MiB) :func:`keep_freed_memory` lets the C allocator keep for reuse."""

LARGEST_REUSED_MIB = 32
"""Blocks up to this size (MiB) come from the C allocator's heap once
:func:`keep_freed_memory` is on (glibc's largest mmap threshold); larger ones are still
mapped afresh. The plan analysis keeps each chunk's arrays under it (``CHUNK_PAIRS``)."""


def keep_freed_memory(kept_free_mib: int = KEPT_FREE_MIB) -> bool:
    """Let this process reuse the memory it frees instead of handing it back to the
    operating system and faulting fresh pages in: the C allocator (glibc's ``mallopt``)
    serves blocks up to :data:`LARGEST_REUSED_MIB` from its heap and keeps up to
    ``kept_free_mib`` MiB freed at the heap's top. A process that runs grid after grid
    (the plan analysis: the same large arrays chunk after chunk and request after
    request) then stops paying the kernel's page faults, which the threads of a parallel
    loop take one at a time. Process-wide and for the life of the process, so it is the
    process owner's choice: ``furball analyze`` and the web server's worker processes
    call it; a notebook may. Returns whether it took effect (False where the C library
    is not glibc: nothing changes). The answers never depend on it."""
    import ctypes
    import ctypes.util
    import platform

    if platform.libc_ver()[0] != "glibc":
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:  # pragma: no cover - glibc without a loadable libc.so
        return False
    m_trim_threshold, m_mmap_threshold = -1, -3  # <malloc.h>
    return bool(libc.mallopt(m_mmap_threshold, LARGEST_REUSED_MIB << 20)
                and libc.mallopt(m_trim_threshold, int(kept_free_mib) << 20))


def warm() -> list[str]:
    """Compile (or load from the cache) every kernel of this module with the argument
    types its wrappers use; returns their names. ``furball warm`` calls it."""
    c = compiled()
    f, h = np.array([[0.0, 0.0, 1.0, 0.0]]), np.array([[22.0, 30.0]])
    i, seg, limits = np.zeros(1, np.int64), np.array([[0.0, 0.0, 50.0, 0.0]]), np.array([100.0, 200.0])
    c.depth_pairs(f, h, f, h, i, i, np.empty(1))
    c.overlap_grid(f, h, f, h, GUARD_MM, threads(), np.empty((1, 1), np.int8))
    c.overlap_count_pairs(f[None], h[None], f[None], h[None], i, i, GUARD_MM, np.empty(1, np.int64))
    c.crossing_pairs(seg, f, h, i, i, True, GUARD_MM, np.empty(1, np.int8))
    c.enters_pairs(seg, f, h, i, i, GUARD_MM, np.empty(1, np.int8))
    c.sector_pairs(f, np.array([45.0]), f, h, i, i, limits, GUARD_MM, np.empty(1), np.empty((1, 2)))
    c.sector_grid(f, np.array([45.0]), f, h, limits, GUARD_MM, threads(), np.empty((1, 1), np.int8), False, True,
                  np.empty((1, 1)), np.empty((1, 1, 2)))
    return ["depth_pairs", "overlap_grid", "overlap_count_pairs", "crossing_pairs", "enters_pairs", "sector_pairs",
            "sector_grid"]


# -- arrays ----------------------------------------------------------------------------------
def _f64(a, shape=None) -> np.ndarray:
    """A C-contiguous, writeable float64 array (one array type: one compiled version)."""
    a = np.asarray(a, dtype=float)
    if shape is not None:
        a = np.broadcast_to(a, shape)
    return np.require(a, dtype=np.float64, requirements=["C", "W"])


def guard_mm(*points) -> float:
    """The guard band (mm) for kernels over these coordinates (arrays whose last axis
    starts with x, y): :data:`GUARD_MM` per metre of the largest coordinate, at least
    :data:`GUARD_MM`."""
    return _guard(*(extent_mm(p) for p in points))


def extent_mm(points) -> float:
    """The largest ``|x|`` or ``|y|`` (mm) of ``points`` (an array whose last axis starts
    with x, y); 0 for none. What :func:`guard_mm` scales with; :class:`Rects` and
    :class:`Sectors` keep theirs (``extent_mm``), so a kernel over them does not read
    every pose again."""
    p = np.asarray(points, float)
    return float(np.abs(p[..., :2]).max()) if p.size else 0.0


def _guard(*extents: float) -> float:
    """:func:`guard_mm` of batches whose :func:`extent_mm` are ``extents``."""
    scale = 1000.0
    for e in extents:
        scale = max(scale, e)
    return GUARD_MM * scale / 1000.0


def frames(poses) -> np.ndarray:
    """``(N, 4)`` rows ``(x, y, cos h, sin h)`` of poses ``(..., 3)`` flattened to N
    (:func:`geometry.pose.cos_sin_deg`: exact at quarter turns)."""
    p = np.asarray(as_pose_array(poses), dtype=float).reshape(-1, 3)
    c, s = cos_sin_deg(p[:, 2])
    return _f64(np.stack([p[:, 0], p[:, 1], c, s], axis=-1))


def halves(length_mm, width_mm, shape) -> np.ndarray:
    """``(N, 2)`` half sizes for rectangles of batch ``shape`` (sizes broadcast to it)."""
    n = int(np.prod(shape, dtype=np.int64))
    hl = np.broadcast_to(np.asarray(length_mm, float) / 2, shape).reshape(n)
    hw = np.broadcast_to(np.asarray(width_mm, float) / 2, shape).reshape(n)
    return _f64(np.stack([hl, hw], axis=-1))


@dataclass(frozen=True)
class Rects:
    """Rectangles prepared once for many kernel calls: ``poses`` ``(..., 3)`` (mm, mm,
    deg), ``lengths`` and ``widths`` ``(...)`` mm, and for the loops ``frames``
    ``(..., 4)``, ``halves`` ``(..., 2)`` and ``extent_mm`` (:func:`extent_mm` of the
    poses, for the guard band). Build with :meth:`of`."""

    poses: np.ndarray
    lengths: np.ndarray
    widths: np.ndarray
    frames: np.ndarray
    halves: np.ndarray
    extent_mm: float

    @classmethod
    def of(cls, poses, length_mm, width_mm) -> Rects:
        """Rectangles at ``poses`` ``(..., 3)`` with sizes broadcast to their shape."""
        p = _f64(as_pose_array(poses))
        shape = p.shape[:-1]
        lengths = _f64(length_mm, shape)
        widths = _f64(width_mm, shape)
        return cls(p, lengths, widths, frames(p).reshape(shape + (4,)),
                   halves(lengths, widths, shape).reshape(shape + (2,)), extent_mm(p))

    def __len__(self) -> int:
        return self.poses.shape[0]

    def take(self, index) -> Rects:
        """The rectangles at ``index`` (first axis), in that order (a ``slice``: views)."""
        index = index if isinstance(index, slice) else np.asarray(index, dtype=np.int64)
        poses = self.poses[index]
        return Rects(poses, self.lengths[index], self.widths[index], self.frames[index], self.halves[index],
                     extent_mm(poses))


@dataclass(frozen=True)
class Sectors:
    """Sectors prepared once: ``apex`` poses ``(N, 3)``, ``centre`` and ``half`` ``(N,)``
    deg (relative to the apex heading, 0 < half <= 180), ``frames`` ``(N, 4)``: the apex
    turned to each centre line; ``extent_mm``: :func:`extent_mm` of the apexes. Build with
    :meth:`of`."""

    apex: np.ndarray
    centre: np.ndarray
    half: np.ndarray
    frames: np.ndarray
    extent_mm: float

    @classmethod
    def of(cls, apex, centre_deg, half_width_deg) -> Sectors:
        p = as_pose_array(apex)
        shape = np.broadcast_shapes(p.shape[:-1], np.shape(centre_deg), np.shape(half_width_deg))
        apex = _f64(np.broadcast_to(p, shape + (3,)).reshape(-1, 3))
        centre = _f64(np.broadcast_to(np.asarray(centre_deg, float), shape).reshape(-1))
        turned = apex.copy()
        turned[:, 2] += centre
        return cls(apex, centre, _f64(np.broadcast_to(np.asarray(half_width_deg, float), shape).reshape(-1)),
                   frames(turned), extent_mm(apex))

    def __len__(self) -> int:
        return self.apex.shape[0]

    def take(self, index) -> Sectors:
        """The sectors at ``index``, in that order (a ``slice``: views)."""
        index = index if isinstance(index, slice) else np.asarray(index, dtype=np.int64)
        apex = self.apex[index]
        return Sectors(apex, self.centre[index], self.half[index], self.frames[index], extent_mm(apex))


def _pairs(shape_a, shape_b):
    """Broadcast shape of two batches and, for every element, its row in each batch."""
    shape = np.broadcast_shapes(shape_a, shape_b)
    ia = np.broadcast_to(np.arange(int(np.prod(shape_a, dtype=np.int64))).reshape(shape_a), shape).ravel()
    ib = np.broadcast_to(np.arange(int(np.prod(shape_b, dtype=np.int64))).reshape(shape_b), shape).ravel()
    return shape, np.require(ia, np.int64, ["C", "W"]), np.require(ib, np.int64, ["C", "W"])


def _rects(poses, length_mm, width_mm) -> tuple[Rects, tuple]:
    p = as_pose_array(poses)
    shape = np.broadcast_shapes(p.shape[:-1], np.shape(length_mm), np.shape(width_mm))
    r = Rects.of(np.broadcast_to(p, shape + (3,)).reshape(-1, 3), np.broadcast_to(length_mm, shape).reshape(-1),
                 np.broadcast_to(width_mm, shape).reshape(-1))
    return r, shape


# -- the scalar path: small batches, and the cases the kernels leave to it ------------------------
def _scalar_depth(a: Rects, i: int, b: Rects, j: int) -> float:
    """:func:`geometry.base.penetration_depth_mm` of one pair."""
    from .base import penetration_depth_mm

    return float(penetration_depth_mm(a.poses[i], a.lengths[i], a.widths[i], b.poses[j], b.lengths[j],
                                      b.widths[j])[0])


def _scalar_overlap(a: Rects, i, b: Rects, j) -> bool:
    """:func:`geometry.base.rectangles_overlap` of one pair (as ``Base.overlaps``)."""
    from .base import rectangles_overlap

    return bool(rectangles_overlap(a.poses[i], a.lengths[i], a.widths[i], b.poses[j], b.lengths[j],
                                   b.widths[j])[0])


def _scalar_sector(s: Sectors, i: int, r: Rects, j: int):
    """:func:`geometry.sector.closest_in_sector` of one pair: ``(distance, aim)``,
    ``(inf, (nan, nan))`` when the rectangle is not in the sector."""
    from .base import rectangle_corners
    from .pose import Pose
    from .sector import closest_in_sector as scalar

    found = scalar(Pose.from_array(s.apex[i]), float(s.centre[i]), float(s.half[i]),
                   rectangle_corners(r.poses[j], r.lengths[j], r.widths[j])[0])
    if found is None:
        return np.inf, (np.nan, np.nan)
    return found[0], (float(found[1][0]), float(found[1][1]))


def _scalar_crossing(seg, n, r: Rects, k, leaving: bool) -> int:
    """:func:`geometry.segments.exit_edge` (``leaving``) or ``entry_edge`` of one pair."""
    from .segments import entry_edge as scalar_entry
    from .segments import exit_edge as scalar_exit

    scalar = scalar_exit if leaving else scalar_entry
    return int(scalar(seg[n, :2], seg[n, 2:], r.poses[k], r.lengths[k], r.widths[k])[0])


def _scalar_enters(seg, n, r: Rects, k) -> bool:
    """:func:`geometry.segments.enters_interior` of one pair."""
    from .segments import enters_interior

    return bool(enters_interior(seg[n, :2], seg[n, 2:], r.poses[k], r.lengths[k], r.widths[k])[0])


def _small(pairs: int) -> bool:
    """Few enough pairs to ask the scalar predicates one by one, while nothing compiled
    is loaded (once it is, the compiled loops are the faster way; the answers are the
    same either way)."""
    return pairs <= SCALAR_PAIRS and f"{__package__}._compiled" not in sys.modules


def _unsure(codes) -> np.ndarray:
    return np.flatnonzero(np.asarray(codes).ravel() == compiled().UNSURE)


# -- near pairs (numpy binning) ------------------------------------------------------------------
_FORWARD_CELLS = ((0, 0), (1, -1), (1, 0), (1, 1), (0, 1))
"""The cell itself and the four neighbours "after" it: every pair of neighbouring cells once."""


def near_pairs(points, radius_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of ``points`` ``(N, 2)`` (mm) at most ``radius_mm`` apart: ``(i, j)``
    index arrays, ``i < j``, in lexicographic order. Points are binned into square cells
    of side ``radius_mm`` (a sort), so only neighbouring cells are compared: time grows
    with N and the number of pairs found, not N²."""
    p = np.asarray(points, float).reshape(-1, 2)
    n = len(p)
    empty = np.zeros(0, np.int64)
    if n < 2:
        return empty, empty
    side = max(float(radius_mm), 1e-9)
    cell = np.floor((p - p.min(axis=0)) / side).astype(np.int64) + 1
    ny = int(cell[:, 1].max()) + 2
    key = cell[:, 0] * ny + cell[:, 1]
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    found_i, found_j = [], []
    for dx, dy in _FORWARD_CELLS:
        want = key + dx * ny + dy
        lo = np.searchsorted(sorted_key, want, "left")
        count = np.searchsorted(sorted_key, want, "right") - lo
        total = int(count.sum())
        if not total:
            continue
        i = np.repeat(np.arange(n), count)
        j = order[np.repeat(lo, count) + np.arange(total) - np.repeat(np.cumsum(count) - count, count)]
        keep = (i < j) if (dx, dy) == (0, 0) else np.ones(total, bool)
        keep &= np.hypot(p[j, 0] - p[i, 0], p[j, 1] - p[i, 1]) <= radius_mm
        found_i.append(np.minimum(i[keep], j[keep]))
        found_j.append(np.maximum(i[keep], j[keep]))
    if not found_i:
        return empty, empty
    i, j = np.concatenate(found_i), np.concatenate(found_j)
    order = np.lexsort((j, i))
    return i[order], j[order]


# -- overlap (DF.O1) ---------------------------------------------------------------------------
def _depths(a: Rects, ia, b: Rects, ib) -> np.ndarray:
    """Depths of pairs ``(ia[n], ib[n])``; every value within the guard band of the
    tolerance is the scalar path's, so that ``depth > TOLERANCE_MM`` is its answer."""
    if _small(len(ia)):
        return np.array([_scalar_depth(a, i, b, j) for i, j in zip(ia, ib)], dtype=float)
    depth = np.empty(len(ia))
    compiled().depth_pairs(a.frames, a.halves, b.frames, b.halves, ia, ib, depth)
    for n in np.flatnonzero(np.abs(depth - TOLERANCE_MM) <= _guard(a.extent_mm, b.extent_mm)):
        depth[n] = _scalar_depth(a, ia[n], b, ib[n])
    return depth


def overlap_depth(pose_a, length_a, width_a, pose_b, length_b, width_b) -> np.ndarray:
    """Interpenetration depth (mm) of rectangles a and b, element by element over the
    broadcast batch: positive when they share area, as
    :func:`geometry.base.penetration_depth_mm`; overlap is depth > ``TOLERANCE_MM``, and
    every value near that threshold is the scalar path's own."""
    a, sa = _rects(pose_a, length_a, width_a)
    b, sb = _rects(pose_b, length_b, width_b)
    shape, ia, ib = _pairs(sa, sb)
    return _depths(a, ia, b, ib).reshape(shape)


def depth_grid(a: Rects, b: Rects) -> np.ndarray:
    """Depth (mm) of every rectangle of ``a`` against every rectangle of ``b``,
    ``(Na, Nb)``; values near ``TOLERANCE_MM`` are the scalar path's (as
    :func:`overlap_depth`)."""
    shape, ia, ib = _pairs((len(a), 1), (1, len(b)))
    return _depths(a, ia, b, ib).reshape(shape)


def overlap_grid(a: Rects, b: Rects) -> np.ndarray:
    """Every rectangle of ``a`` against every rectangle of ``b``: ``(Na, Nb)`` bool, they
    share area (depth > ``TOLERANCE_MM``, DF.O1: the scalar path's answer), one byte per
    pair. Large grids on every core, measuring only nearby pairs."""
    na, nb = len(a), len(b)
    if na * nb < GRID_PAIRS:
        return depth_grid(a, b) > TOLERANCE_MM
    codes = np.empty((na, nb), np.int8)  # every row filled by the kernel
    if compiled().overlap_grid(a.frames, a.halves, b.frames, b.halves, _guard(a.extent_mm, b.extent_mm), threads(),
                               codes):
        for n in _unsure(codes):
            i, j = divmod(int(n), nb)
            codes[i, j] = _scalar_overlap(a, i, b, j)
    return codes.view(np.bool_)


def overlap_counts(a: Rects, b: Rects, ia, ib) -> np.ndarray:
    """For pairs ``(ia[n], ib[n])`` of rectangles each with several placements (``a``:
    ``(Na, Ka)`` rectangles, ``b``: ``(Nb, Kb)``): how many of the ``Ka x Kb`` placement
    pairs share area (DF.O1, as the scalar path). ``(n,)`` ints; pairs over every core."""
    ia = np.require(ia, np.int64, ["C", "W"])
    ib = np.require(ib, np.int64, ["C", "W"])
    ka, kb = a.poses.shape[1], b.poses.shape[1]

    def scalar(i, j) -> int:
        return sum(_scalar_overlap(_placement(a, i, k), 0, _placement(b, j, m), 0) for k in range(ka)
                   for m in range(kb))

    if _small(len(ia) * ka * kb):
        return np.array([scalar(i, j) for i, j in zip(ia, ib)], dtype=np.int64)
    out = np.empty(ia.shape[0], dtype=np.int64)
    compiled().overlap_count_pairs(a.frames, a.halves, b.frames, b.halves, ia, ib, _guard(a.extent_mm, b.extent_mm),
                                   out)
    if len(out) and out.min() < 0:  # counts are >= 0: one cheap pass before looking for the unsure ones
        for n in _unsure(out):
            out[n] = scalar(ia[n], ib[n])
    return out


def _placement(r: Rects, i: int, k: int) -> Rects:
    """Placement ``k`` of rectangle ``i`` of ``r`` (shape ``(N, K)``), as a batch of one."""
    pose = r.poses[i, k][None]
    return Rects(pose, r.lengths[i, k][None], r.widths[i, k][None], r.frames[i, k][None], r.halves[i, k][None],
                 extent_mm(pose))


# -- segments (DF.T1) ------------------------------------------------------------------------------
def _segments(a, b):
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    shape = np.broadcast_shapes(a.shape[:-1], b.shape[:-1])
    seg = np.concatenate([np.broadcast_to(a, shape + (2,)), np.broadcast_to(b, shape + (2,))], axis=-1)
    return _f64(seg.reshape(-1, 4)), shape


def _crossing_codes(seg, r: Rects, ia, ib, leaving: bool) -> np.ndarray:
    if _small(len(ia)):
        return np.array([_scalar_crossing(seg, i, r, j, leaving) for i, j in zip(ia, ib)], dtype=np.int64)
    out = np.empty(ia.shape[0], dtype=np.int8)
    guard = _guard(extent_mm(seg), extent_mm(seg[:, 2:]), r.extent_mm)  # both ends of the segments
    compiled().crossing_pairs(seg, r.frames, r.halves, ia, ib, leaving, guard, out)
    for n in _unsure(out):
        out[n] = _scalar_crossing(seg, ia[n], r, ib[n], leaving)
    return out.astype(np.int64)


def _crossing(a, b, poses, length_mm, width_mm, leaving: bool) -> np.ndarray:
    seg, ss = _segments(a, b)
    r, sr = _rects(poses, length_mm, width_mm)
    shape, ia, ib = _pairs(ss, sr)
    return _crossing_codes(seg, r, ia, ib, leaving).reshape(shape)


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
    b-rectangle, ``(N,)`` each — :func:`exit_edge` and :func:`entry_edge` in one call."""
    seg, shape = _segments(a, b)
    n = seg.shape[0]
    ra = Rects.of(np.broadcast_to(as_pose_array(pose_a), (n, 3)), np.broadcast_to(length_a, (n,)),
                  np.broadcast_to(width_a, (n,)))
    rb = Rects.of(np.broadcast_to(as_pose_array(pose_b), (n, 3)), np.broadcast_to(length_b, (n,)),
                  np.broadcast_to(width_b, (n,)))
    rows = np.arange(n, dtype=np.int64)
    return (_crossing_codes(seg, ra, rows, rows, True).reshape(shape),
            _crossing_codes(seg, rb, rows, rows, False).reshape(shape))


def _enters(seg, r: Rects, ia, ib) -> np.ndarray:
    """``(n,)`` bool: segment ``ia[n]`` gets more than the tolerance inside rect ``ib[n]``."""
    if _small(len(ia)):
        return np.array([_scalar_enters(seg, i, r, j) for i, j in zip(ia, ib)], dtype=np.bool_)
    out = np.empty(ia.shape[0], dtype=np.int8)
    guard = _guard(extent_mm(seg), extent_mm(seg[:, 2:]), r.extent_mm)  # both ends of the segments
    compiled().enters_pairs(seg, r.frames, r.halves, ia, ib, guard, out)
    for n in _unsure(out):
        out[n] = _scalar_enters(seg, ia[n], r, ib[n])
    return out.view(np.bool_)


def segment_enters(a, b, poses, length_mm, width_mm) -> np.ndarray:
    """Boolean: segment ``a``-``b`` gets more than the tolerance inside each rectangle,
    as :func:`geometry.segments.enters_interior`."""
    seg, ss = _segments(a, b)
    r, sr = _rects(poses, length_mm, width_mm)
    shape, ia, ib = _pairs(ss, sr)
    return _enters(seg, r, ia, ib).reshape(shape)


def segments_blocked(a, b, poses, length_mm, width_mm, skip=None) -> np.ndarray:
    """Boolean ``(N,)``: segment n (``a``, ``b``: ``(N, 2)`` mm) gets more than the
    tolerance inside any of the K rectangles (``poses`` ``(K, 3)``, sizes ``(K,)`` or
    scalars) other than those with ``skip[n, k]`` (``(N, K)`` bool, default none)."""
    seg, ss = _segments(a, b)
    r, _ = _rects(np.asarray(poses, float).reshape(-1, 3), length_mm, width_mm)
    n, k = seg.shape[0], len(r)
    skip = np.zeros((n, k), dtype=np.bool_) if skip is None else np.broadcast_to(np.asarray(skip, np.bool_), (n, k))
    ia, ib = (np.require(x, np.int64, ["C", "W"]) for x in np.nonzero(~skip))
    hit = np.zeros(n, dtype=np.bool_)
    hit[ia[_enters(seg, r, ia, ib)]] = True
    return hit.reshape(ss)


# -- firing sectors ------------------------------------------------------------------------------
def _limits(limits_mm) -> np.ndarray:
    return _f64(np.asarray(limits_mm, float).reshape(-1))


def _sector_pairs(s: Sectors, r: Rects, ia, ib, limits):
    """Distances and aim points of pairs ``(ia[n], ib[n])``, those near ``limits`` (or the
    arc's lines) the scalar path's."""
    if _small(len(ia)):
        found = [_scalar_sector(s, i, r, j) for i, j in zip(ia, ib)]
        return (np.array([d for d, _ in found], dtype=float).reshape(-1),
                np.array([a for _, a in found], dtype=float).reshape(-1, 2))
    dist = np.empty(ia.shape[0])
    aim = np.empty((ia.shape[0], 2))
    compiled().sector_pairs(s.frames, s.half, r.frames, r.halves, ia, ib, limits, _guard(s.extent_mm, r.extent_mm),
                            dist, aim)
    for n in np.flatnonzero(np.isnan(dist)):
        dist[n], aim[n] = _scalar_sector(s, ia[n], r, ib[n])
    return dist, aim


def closest_in_sector(apex, centre_deg, half_width_deg, poses, length_mm, width_mm, limits_mm=()):
    """Closest point to the apex of the part of each rectangle inside each sector, as
    :func:`geometry.sector.closest_in_sector` over the broadcast batch.

    ``apex``: poses ``(..., 3)``; ``centre_deg`` / ``half_width_deg``: the sector
    relative to the apex heading (0 < half <= 180); rectangles by centre ``poses`` and
    sizes; ``limits_mm``: distances the caller compares with (range limits): a distance
    near one, like a rectangle near the arc's lines, is the scalar path's own. Returns
    ``(distance_mm, aim)``: distance ``inf`` (and aim NaN) where the rectangle does not
    reach more than the tolerance into the sector; aim ``(..., 2)``.
    """
    p = as_pose_array(apex)
    ss = np.broadcast_shapes(p.shape[:-1], np.shape(centre_deg), np.shape(half_width_deg))
    s = Sectors.of(apex, centre_deg, half_width_deg)
    r, sr = _rects(poses, length_mm, width_mm)
    shape, ia, ib = _pairs(ss, sr)
    dist, aim = _sector_pairs(s, r, ia, ib, _limits(limits_mm))
    return dist.reshape(shape), aim.reshape(shape + (2,))


def _grid(sectors: Sectors, rects: Rects, limits, want_aim: bool, transposed: bool = False):
    """The compiled sector grid: band codes (``(Nr, Ns)`` when ``transposed``) and (with
    ``want_aim``) distances and aim points, every case it leaves to the scalar path
    decided by it."""
    ns, nr = len(sectors), len(rects)
    bands = np.empty((nr, ns) if transposed else (ns, nr), np.int8)  # every cell written by the kernel
    dist, aim = (np.empty((ns, nr)), np.empty((ns, nr, 2))) if want_aim else (np.empty((0, 0)), np.empty((0, 0, 0)))
    if compiled().sector_grid(sectors.frames, sectors.half, rects.frames, rects.halves, limits,
                              _guard(sectors.extent_mm, rects.extent_mm), threads(), bands, transposed, want_aim, dist, aim):
        for n in _unsure(bands):
            i, j = divmod(int(n), bands.shape[1])
            if transposed:
                i, j = j, i
            d, a = _scalar_sector(sectors, i, rects, j)
            bands[(j, i) if transposed else (i, j)] = int((d <= limits).sum())
            if want_aim:
                dist[i, j], aim[i, j] = (d, a) if d <= limits[-1] else (np.inf, (np.nan, np.nan))
    return bands, dist, aim


def sector_grid(sectors: Sectors, rects: Rects, limits_mm):
    """Every sector against every rectangle: ``(distance (Ns, Nr), aim (Ns, Nr, 2))`` as
    :func:`closest_in_sector`, for rectangles within the last of ``limits_mm``
    (increasing; farther ones: distance inf, aim NaN). Distances near a limit are the
    scalar path's own. Large grids on every core, measuring only nearby pairs."""
    ns, nr = len(sectors), len(rects)
    limits = _limits(limits_mm)
    if ns * nr < GRID_PAIRS:
        shape, ia, ib = _pairs((ns, 1), (1, nr))
        dist, aim = _sector_pairs(sectors, rects, ia, ib, limits)
        far = dist > limits[-1]
        dist[far], aim[far] = np.inf, np.nan
        return dist.reshape(ns, nr), aim.reshape(ns, nr, 2)
    _, dist, aim = _grid(sectors, rects, limits, True)
    return dist, aim


def sector_band_grid(sectors: Sectors, rects: Rects, limits_mm, transposed: bool = False) -> np.ndarray:
    """Every sector against every rectangle: ``(Ns, Nr)`` int8 (``(Nr, Ns)`` when
    ``transposed``), in how many of the nested distance bands ``limits_mm`` (increasing)
    the closest in-sector point lies (``len(limits)``: within the first; 0: beyond the
    last, or not in the sector) — the scalar path's answer. As :func:`sector_grid`
    without aim points."""
    ns, nr = len(sectors), len(rects)
    limits = _limits(limits_mm)
    if ns * nr < GRID_PAIRS:
        dist, _ = sector_grid(sectors, rects, limits)
        bands = (dist[..., None] <= limits).sum(axis=-1).astype(np.int8)
        return np.ascontiguousarray(bands.T) if transposed else bands
    return _grid(sectors, rects, limits, False, transposed)[0]
