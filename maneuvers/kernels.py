"""Rule-level kernels on pose grids: one plane's many poses against another's.

The plan analysis asks the dogfight's rules for every pose of one plane against every
pose of another; the functions here answer them with the array kernels of
:mod:`geometry.kernels` (compiled on first use), each pose prepared once. The rules on
the planes of a table (DF.O1, DF.T1, DF.O2...) are written once, in
:mod:`maneuvers.batch`; these are their forms for pose grids, and the tests compare
them with the table's answers.

* :func:`stands_on_table` — DF.E1 for many stands.
* :class:`Shooters`, :class:`Targets`, :func:`fire_grid` — firing positions (arcs,
  short/long range, blocking by third bases, DF.O3) of one plane's poses on another's.
* :func:`collision_ends`, :func:`collision_counts` — DF.C3 for pairs of poses.

Every threshold (range bands, arc lines, base overlap) is decided as the scalar path
decides it: the geometry kernels leave the cases within rounding of a threshold to the
scalar predicates (:mod:`geometry.kernels`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

import numpy as np

from furball.geometry import kernels as gk
from furball.geometry.base import Base
from furball.geometry.pose import compose_batch
from furball.geometry.tolerance import TOLERANCE_MM

from .batch import LONG_SHOT, NO_SHOT, SHORT_SHOT
from .plane import Rules

__all__ = ["stands_on_table", "SectorRows", "sector_rows", "Shooters", "Targets", "fire_grid", "collision_counts", "collision_ends",
           "FIRE_NONE", "FIRE_LONG", "FIRE_SHORT"]

FIRE_NONE, FIRE_LONG, FIRE_SHORT = NO_SHOT, LONG_SHOT, SHORT_SHOT
"""Codes of :func:`fire_grid`: no firing position, long range, short range
(:data:`maneuvers.batch.NO_SHOT`, ...)."""


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
    if arcs_of and arcs_of.count(arcs_of[0]) == len(arcs_of):  # the same arcs for every pose: no Python loop
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


def stands_on_table(stands, width_mm: float, height_mm: float) -> np.ndarray:
    """DF.E1 for stands ``(..., 2)`` mm: on the play area, the edge within the tolerance
    included (as ``Table.stand_on_table``)."""
    st = np.asarray(stands, float)
    x, y = st[..., 0], st[..., 1]
    return ((x >= -TOLERANCE_MM) & (x <= width_mm + TOLERANCE_MM)
            & (y >= -TOLERANCE_MM) & (y <= height_mm + TOLERANCE_MM))


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
        """The shooters at pose indices ``index``, in that order (a ``slice`` of step 1:
        views, nothing copied)."""
        a = len(self.arcs)
        if isinstance(index, slice):
            start, stop, _ = index.indices(len(self.poses))
            n, r = max(stop - start, 0), slice(start * a, max(stop, start) * a)
        else:
            index = np.asarray(index, dtype=np.int64)
            n, r = len(index), (index[:, None] * a + np.arange(a)[None, :]).ravel()
        rows = SectorRows(np.repeat(np.arange(n, dtype=np.int64), a), self.rows.arc[r], self.rows.gun[r],
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
