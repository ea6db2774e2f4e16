"""Rule-level batch kernels: the dogfight's geometric rules for every pair of planes at once.

The scalar predicates (:func:`~maneuvers.tailing.tail_check`,
:func:`~maneuvers.firing.shot_at`, :func:`~maneuvers.collision.may_collide`,
``Table.stand_on_table``) answer for one pair; the functions here answer the same
questions for all pairs of a table, or for every pose of one plane against every pose
of another, with the array kernels of :mod:`geometry.kernels` (compiled on first use).
Same rules, same tolerance, same answers — the tests compare them with the scalar path.

* :func:`overlap_matrix` — DF.O1: which bases share area (depth > the tolerance).
* :func:`tail_matrix` — DF.T1 (a)-(d) with DF.T3 (enemies only), DF.T5, DF.T6, DF.T7
  and the engine conventions of :mod:`maneuvers.tailing`.
* :func:`fire_matrix` — firing positions (DF.O2, DF.O3; arcs, short/long range, blocking
  by third bases; conventions of :mod:`maneuvers.firing`).
* :func:`stands_on_table` — DF.E1 for many stands.
* :class:`Shooters`, :class:`Targets`, :func:`fire_grid`, :func:`collision_counts` — the
  same rules on raw pose arrays, for one plane's possible poses against another's
  (plan analysis), each pose prepared once.

Every threshold (range bands, arc lines, the ruler's edges, base overlap) is decided as
the scalar path decides it: the geometry kernels leave the cases within rounding of a
threshold to the scalar predicates (:mod:`geometry.kernels`).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np

from furball.geometry import kernels as gk
from furball.geometry.base import Base, Edge
from furball.geometry.pose import compose_batch, to_table_batch
from furball.geometry.tolerance import TOLERANCE_MM

from .plane import Engines, PlaneState, Rules

__all__ = ["BaseArrays", "overlap_matrix", "tail_matrix", "segments_entering", "fire_matrix", "FireMatrix", "stands_on_table",
           "SectorRows", "sector_rows", "Shooters", "Targets", "fire_grid", "collision_counts", "collision_ends",
           "FIRE_NONE", "FIRE_LONG", "FIRE_SHORT"]

FIRE_NONE, FIRE_LONG, FIRE_SHORT = 0, 1, 2
"""Codes of :func:`fire_grid`: no firing position, long range, short range."""


@dataclass(frozen=True)
class BaseArrays:
    """The bases of some planes as arrays: ``poses`` ``(N, 3)``, ``lengths``/``widths``
    ``(N,)`` mm, ``stands`` ``(N, 2)`` table mm (each plane's ``.stand``)."""

    poses: np.ndarray
    lengths: np.ndarray
    widths: np.ndarray
    stands: np.ndarray

    @classmethod
    def of(cls, planes: Sequence[PlaneState]) -> BaseArrays:
        poses = np.array([p.pose.as_array() for p in planes]).reshape(-1, 3)
        offsets = np.array([(p.base.stand_x_mm, p.base.stand_y_mm) for p in planes], float).reshape(-1, 1, 2)
        return cls(poses, np.array([p.base.length_mm for p in planes], float),
                   np.array([p.base.width_mm for p in planes], float),
                   to_table_batch(poses, offsets).reshape(-1, 2))  # each plane's .stand, all at once

    def rects(self) -> gk.Rects:
        """The bases prepared for :mod:`geometry.kernels`."""
        return gk.Rects.of(self.poses, self.lengths, self.widths)


def overlap_matrix(planes: Sequence[PlaneState], arrays: BaseArrays | None = None) -> np.ndarray:
    """DF.O1: ``(N, N)`` boolean, bases i and j share area (interpenetration deeper than
    the tolerance; the diagonal is False). Every plane given counts, whatever its status.
    Only bases whose centres are near enough to touch are measured
    (:func:`~geometry.kernels.near_pairs`), by :func:`~geometry.kernels.overlap_depth`."""
    arrays = arrays or BaseArrays.of(planes)
    n = len(arrays.poses)
    out = np.zeros((n, n), dtype=bool)
    if n < 2:
        return out
    reach = np.hypot(arrays.lengths, arrays.widths) / 2
    i, j = gk.near_pairs(arrays.poses[:, :2], 2 * float(reach.max()) + 1.0)
    if len(i):
        hit = gk.overlap_depth(arrays.poses[i], arrays.lengths[i], arrays.widths[i], arrays.poses[j],
                               arrays.lengths[j], arrays.widths[j]) > TOLERANCE_MM
        out[i[hit], j[hit]] = out[j[hit], i[hit]] = True
    return out


def _sides(planes):
    names = {s: i for i, s in enumerate(sorted({p.side for p in planes}))}
    return np.array([names[p.side] for p in planes])


def tail_matrix(planes: Sequence[PlaneState], rules: Rules, arrays: BaseArrays | None = None,
                overlap: np.ndarray | None = None) -> np.ndarray:
    """``(N, N)`` boolean: plane i can tail plane j now (all of DF.T1 (a)-(d), DF.T5,
    DF.T6, DF.T7 and the conventions of :func:`maneuvers.tailing.tail_check`). Only
    stands within the ruler of each other are examined
    (:func:`~geometry.kernels.near_pairs`)."""
    n = len(planes)
    arrays = arrays or BaseArrays.of(planes)
    overlap = overlap_matrix(planes, arrays) if overlap is None else overlap
    ok = np.zeros((n, n), dtype=bool)
    st = arrays.stands
    i, j = gk.near_pairs(st, rules.ruler_length_mm + TOLERANCE_MM)
    if not len(i):
        return ok
    flying = np.array([p.flying and not p.is_balloon for p in planes], bool)
    chaser = flying & np.array([not p.autonomous and p.engines != Engines.MULTI for p in planes], bool)
    alt = np.array([p.altitude for p in planes])
    sides = _sides(planes)
    ci, ti = np.concatenate([i, j]), np.concatenate([j, i])
    rise = alt[ci] - alt[ti]
    keep = (chaser[ci] & flying[ti] & (sides[ci] != sides[ti]) & ((rise == 0) | (rise == 1)) & ~overlap[ci, ti]
            & (np.hypot(st[ti, 0] - st[ci, 0], st[ti, 1] - st[ci, 1]) <= rules.ruler_length_mm + TOLERANCE_MM))
    ci, ti = ci[keep], ti[keep]
    if len(ci):
        a, b = st[ci], st[ti]
        out, into = gk.ruler_edges(a, b, arrays.poses[ci], arrays.lengths[ci], arrays.widths[ci],
                                   arrays.poses[ti], arrays.lengths[ti], arrays.widths[ti])
        good = (out == Edge.FRONT) & (into == Edge.REAR)
        on_table = np.array([p.on_table for p in planes], bool)
        k = np.arange(n)
        skip = (k[None, :] == ci[good, None]) | (k[None, :] == ti[good, None]) | ~on_table[None, :]
        good[good] = ~segments_entering(a[good], b[good], arrays, skip).any(axis=1)
        ok[ci, ti] = good
    return ok


def segments_entering(a, b, arrays: BaseArrays, skip=None) -> np.ndarray:
    """``(N, K)`` boolean: segment ``a[n]``-``b[n]`` (``(N, 2)`` mm) gets more than the
    tolerance inside base ``k`` of ``arrays`` (as :func:`geometry.segments.enters_interior`),
    for every pair not in ``skip`` (``(N, K)`` bool); only bases whose outline can reach
    a segment's bounding box are measured (by :func:`~geometry.kernels.segment_enters`)."""
    a = np.asarray(a, float).reshape(-1, 2)
    b = np.asarray(b, float).reshape(-1, 2)
    out = np.zeros((len(a), len(arrays.poses)), dtype=bool)
    if not out.size:
        return out
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    r = np.hypot(arrays.lengths, arrays.widths) / 2 + 1.0
    c = arrays.poses[:, :2]
    near = ((c[None, :, 0] >= lo[:, None, 0] - r) & (c[None, :, 0] <= hi[:, None, 0] + r)
            & (c[None, :, 1] >= lo[:, None, 1] - r) & (c[None, :, 1] <= hi[:, None, 1] + r))
    if skip is not None:
        near &= ~np.asarray(skip, bool)
    n, k = np.nonzero(near)
    if len(n):
        out[n, k] = gk.segment_enters(a[n], b[n], arrays.poses[k], arrays.lengths[k], arrays.widths[k])
    return out


@dataclass(frozen=True)
class SectorRows:
    """Firing arcs as rows: row r is arc ``arc[r]`` of plane ``owner[r]``; ``gun``
    ``(R, 3)`` the gun pose (the stand, facing the plane's heading); ``centre`` /
    ``half`` ``(R,)`` deg."""

    owner: np.ndarray
    arc: np.ndarray
    gun: np.ndarray
    centre: np.ndarray
    half: np.ndarray


def sector_rows(poses, stand_offsets, arcs_of) -> SectorRows:
    """Rows for every firing arc of every pose: ``poses`` ``(N, 3)``, ``stand_offsets``
    ``(N, 2)`` (the stand in the base frame), ``arcs_of``: per pose a tuple of
    ``(centre_deg, half_width_deg)``."""
    arcs_of = list(arcs_of)
    if arcs_of and all(a == arcs_of[0] for a in arcs_of):  # the same arcs for every pose: no Python loop
        arcs = np.asarray(arcs_of[0], float).reshape(-1, 2)
        owner = np.repeat(np.arange(len(arcs_of), dtype=np.int64), len(arcs))
        arc = np.tile(np.arange(len(arcs), dtype=np.int64), len(arcs_of))
        centre, half = np.tile(arcs[:, 0], len(arcs_of)), np.tile(arcs[:, 1], len(arcs_of))
    else:
        listed = [(i, k, c, h) for i, arcs in enumerate(arcs_of) for k, (c, h) in enumerate(arcs)]
        owner = np.array([x[0] for x in listed], dtype=np.int64)
        arc = np.array([x[1] for x in listed], dtype=np.int64)
        centre = np.array([x[2] for x in listed], dtype=float)
        half = np.array([x[3] for x in listed], dtype=float)
    offsets = np.zeros((len(owner), 3))
    offsets[:, :2] = np.asarray(stand_offsets, float).reshape(-1, 2)[owner]
    gun = compose_batch(np.asarray(poses, float).reshape(-1, 3)[owner], offsets).reshape(-1, 3)
    return SectorRows(owner, np.asarray(arc, dtype=np.int64), gun, np.asarray(centre, float), np.asarray(half, float))


@dataclass(frozen=True)
class FireMatrix:
    """Firing positions on a table: ``best_arc[i, j]`` is the arc of shooter i's best
    shot at target j (the closest; ties the lower arc), -1 when it has none;
    ``distance[i, j]`` mm (inf when none); ``arcs``: ``(i, j, arc)`` of every arc with a
    shot (what DF.A2's autonomous fire chooses among)."""

    best_arc: np.ndarray
    distance: np.ndarray
    arcs: tuple[tuple[int, int, int], ...]

    def pairs(self) -> list[tuple[int, int]]:
        """``(shooter, target)`` indices with a shot, shooter by shooter, in table order."""
        return [(int(i), int(j)) for i, j in zip(*np.nonzero(self.best_arc >= 0))]


def fire_matrix(planes: Sequence[PlaneState], rules: Rules, overlap: np.ndarray | None = None,
                arrays: BaseArrays | None = None) -> FireMatrix:
    """Every firing position among ``planes`` (those on the table; others neither fire,
    are fired at, nor block): the rules of :func:`maneuvers.firing.arc_shots` for all
    pairs at once. ``overlap``: :func:`overlap_matrix` of ``planes`` if known."""
    n = len(planes)
    arrays = arrays or BaseArrays.of(planes)
    overlap = overlap_matrix(planes, arrays) if overlap is None else overlap
    flying = np.array([p.flying for p in planes], bool)
    on_table = np.array([p.on_table for p in planes], bool)
    shooter = flying & np.array([not p.is_balloon for p in planes], bool)
    alt = np.array([p.altitude for p in planes])
    sides = _sides(planes)
    may = (shooter[:, None] & flying[None, :] & (sides[:, None] != sides[None, :]) & ~overlap
           & (np.abs(alt[:, None] - alt[None, :]) <= rules.fire_altitude_difference))
    np.fill_diagonal(may, False)
    offsets = np.array([(p.base.stand_x_mm, p.base.stand_y_mm) for p in planes], float).reshape(-1, 2)
    rows = sector_rows(arrays.poses, offsets, [p.firing_arcs(rules) for p in planes])
    best_arc = np.full((n, n), -1, dtype=np.int64)
    distance = np.full((n, n), np.inf)
    r, t = np.nonzero(may[rows.owner])
    if len(r) == 0:
        return FireMatrix(best_arc, distance, ())
    reach = rules.ruler_length_mm + TOLERANCE_MM
    dist, aim = gk.closest_in_sector(rows.gun[r], rows.centre[r], rows.half[r], arrays.poses[t],
                                     arrays.lengths[t], arrays.widths[t],
                                     limits_mm=(rules.short_range_mm + TOLERANCE_MM, reach))
    keep = dist <= reach
    r, t, dist, aim = r[keep], t[keep], dist[keep], aim[keep]
    s = rows.owner[r]
    k = np.arange(n)
    skip = (k[None, :] == s[:, None]) | (k[None, :] == t[:, None]) | overlap[s] | ~on_table[None, :]
    clear = ~gk.segments_blocked(rows.gun[r, :2], aim, arrays.poses, arrays.lengths, arrays.widths, skip)
    arcs = []
    for row, target, d, ok in zip(r, t, dist, clear):
        if not ok:
            continue
        i, j, arc = int(rows.owner[row]), int(target), int(rows.arc[row])
        arcs.append((i, j, arc))
        if d < distance[i, j]:  # rows run arc by arc: a tie keeps the lower arc
            distance[i, j], best_arc[i, j] = d, arc
    return FireMatrix(best_arc, distance, tuple(sorted(arcs)))


def stands_on_table(stands, width_mm: float, height_mm: float) -> np.ndarray:
    """DF.E1 for stands ``(..., 2)`` mm: on the play area, the edge within the tolerance
    included (as ``Table.stand_on_table``)."""
    st = np.asarray(stands, float)
    x, y = st[..., 0], st[..., 1]
    return ((x >= -TOLERANCE_MM) & (x <= width_mm + TOLERANCE_MM)
            & (y >= -TOLERANCE_MM) & (y <= height_mm + TOLERANCE_MM))


def stand_points(poses, stand_offset) -> np.ndarray:
    """Stands ``(N, 2)`` of bases at ``poses`` ``(N, 3)`` with the stand at
    ``stand_offset`` ``(2,)`` in the base frame."""
    return to_table_batch(np.asarray(poses, float).reshape(-1, 3), np.asarray(stand_offset, float)[None, :])[:, 0, :]


@dataclass(frozen=True)
class Shooters:
    """Many poses of one plane, ready to fire: ``poses`` ``(N, 3)``, its ``base``, its
    firing arcs as :class:`SectorRows` and as prepared :class:`~geometry.kernels.Sectors`
    (one row per pose and arc: the gun, turned to the arc's centre line). Build with
    :meth:`of`; :meth:`take` keeps some poses."""

    poses: np.ndarray
    base: Base
    arcs: tuple
    rows: SectorRows
    sectors: gk.Sectors

    @classmethod
    def of(cls, poses, base, arcs) -> Shooters:
        poses = np.asarray(poses, float).reshape(-1, 3)
        stand = np.broadcast_to(np.array([base.stand_x_mm, base.stand_y_mm]), (len(poses), 2))
        rows = sector_rows(poses, stand, [tuple(arcs)] * len(poses))
        return cls(poses, base, tuple(arcs), rows, gk.Sectors.of(rows.gun, rows.centre, rows.half))

    def take(self, index) -> Shooters:
        """The shooters at pose indices ``index``, in that order."""
        index = np.asarray(index, dtype=np.int64)
        a = len(self.arcs)
        r = (index[:, None] * a + np.arange(a)[None, :]).ravel()
        rows = SectorRows(np.repeat(np.arange(len(index), dtype=np.int64), a), self.rows.arc[r], self.rows.gun[r],
                          self.rows.centre[r], self.rows.half[r])
        return Shooters(self.poses[index], self.base, self.arcs, rows, self.sectors.take(r))


Targets: TypeAlias = gk.Rects
"""Many poses of one plane's base as targets: :class:`geometry.kernels.Rects`
(``Targets.of(poses, length_mm, width_mm)``, ``take``)."""


def fire_grid(shooters: Shooters, targets: Targets, rules: Rules, blockers=None, overlap=None,
              transposed: bool = False) -> np.ndarray:
    """Firing codes of one plane's poses against another's, every pair:
    ``(Ns, Nt)`` int8 (``(Nt, Ns)`` when ``transposed``), :data:`FIRE_NONE`,
    :data:`FIRE_LONG` or :data:`FIRE_SHORT` (the best over the shooter's arcs).

    Geometry only, as :func:`maneuvers.firing.arc_shots` once the rule checks (sides,
    altitude, status) have passed: the closest point of the target's base inside an arc,
    within the ruler (short: within half of it), its line not blocked by any of the
    ``blockers`` (``(poses (K, 3), lengths (K,), widths (K,))``: third bases that stay
    put) except those overlapping the shooter (DF.O3). ``overlap``: ``(Ns, Nt)`` bool (as
    the result); overlapping pairs cannot fire (DF.O2). Every range band, arc line and
    blocking decision is the scalar path's.
    """
    rows = shooters.rows
    ns = len(shooters.poses)
    reach = rules.ruler_length_mm + TOLERANCE_MM
    limits = np.array([rules.short_range_mm + TOLERANCE_MM, reach])
    if blockers is None or not len(blockers[0]):  # the distance is all that matters: no aim points
        codes = gk.sector_band_grid(shooters.sectors, targets, limits, transposed)
    else:
        dist, aim = gk.sector_grid(shooters.sectors, targets, limits)
        in_range = dist <= reach
        walls = gk.Rects.of(np.asarray(blockers[0], float).reshape(-1, 3), blockers[1], blockers[2])
        base = shooters.base
        shooter_overlaps = gk.overlap_grid(gk.Rects.of(shooters.poses, base.length_mm, base.width_mm), walls)  # DF.O3
        r_idx, t_idx = np.nonzero(in_range)
        if len(r_idx):
            blocked = gk.segments_blocked(rows.gun[r_idx, :2], aim[r_idx, t_idx], walls.poses, walls.lengths,
                                          walls.widths, shooter_overlaps[rows.owner[r_idx]])
            in_range[r_idx[blocked], t_idx[blocked]] = False
        codes = np.where(in_range, np.where(dist <= limits[0], FIRE_SHORT, FIRE_LONG), FIRE_NONE).astype(np.int8)
        if transposed:
            codes = np.ascontiguousarray(codes.T)
    out = codes if len(rows.arc) == ns else _best_per_owner(rows, codes, ns, transposed)  # one arc: rows are poses
    if overlap is not None:
        out[np.asarray(overlap, bool)] = FIRE_NONE
    return out


def _best_per_owner(rows: SectorRows, codes, ns: int, transposed: bool) -> np.ndarray:
    """The best code over each pose's arcs: ``codes`` has a row per arc row (a column,
    when ``transposed``); the result a row (column) per pose."""
    if transposed:
        return np.ascontiguousarray(_best_per_owner(rows, codes.T, ns, False).T)
    out = np.zeros((ns, codes.shape[1]), dtype=np.int8)
    for k in range(int(rows.arc.max()) + 1 if len(rows.arc) else 0):
        mine = rows.arc == k
        out[rows.owner[mine]] = np.maximum(out[rows.owner[mine]], codes[mine])
    return out


def collision_ends(poses, motions, length_mm: float, width_mm: float, stays=None) -> gk.Rects:
    """The bases (``length_mm`` x ``width_mm``) at ``poses`` ``(N, 3)`` moved by each
    collision card motion ``(M, 3)`` (DF.C2, DF.C3), as ``(N, M)`` rectangles; rows where
    ``stays`` (a landed plane lays no card) keep the base where it is for every card."""
    p = np.asarray(poses, float).reshape(-1, 3)
    m = np.asarray(motions, float).reshape(-1, 3)
    ends = compose_batch(p[:, None, :], m[None, :, :]).reshape(len(p), len(m), 3)  # (N, M, 3)
    if stays is not None:
        ends[np.asarray(stays, bool)] = p[np.asarray(stays, bool)][:, None, :]
    return gk.Rects.of(ends, length_mm, width_mm)


def collision_counts(poses_a, motions_a, length_a, width_a, poses_b, motions_b, length_b, width_b) -> np.ndarray:
    """DF.C3: for pairs of bases (``poses_a[n]``, ``poses_b[n]``, ``(N, 3)``), how many
    combinations of their collision cards (``motions_*``: ``(M, 3)`` card motions in the
    base frame, left and right; one identity row for a landed plane) put the bases on
    top of each other again: ``(N,)`` ints in 0..M_a*M_b."""
    ends_a = collision_ends(poses_a, motions_a, length_a, width_a)
    ends_b = collision_ends(poses_b, motions_b, length_b, width_b)
    n = np.arange(len(ends_a))
    return gk.overlap_counts(ends_a, ends_b, n, n)
