"""The planes on the table as one batch, and each dogfight rule written once, on it.

:class:`Planes` holds the planes of a table as a structure of arrays — poses ``(N, 3)``,
base sizes and stands, altitudes, sides, engines, status — built once per maneuver (or
per question) with :meth:`Planes.of`. Each rule of the dogfight's geometry is one
function here, of that batch or of plain pose arrays, and everything else calls it: the
scalar API (:func:`~maneuvers.tailing.tail_check`, :func:`~maneuvers.firing.arc_shots`),
the turn, the plan analysis, the zones and the ruling margins.

* :func:`bases_overlap`, :func:`overlaps` — DF.O1: bases share area (interpenetration
  deeper than the tolerance);
* :func:`tail_fixed` — the conditions of a tail no placement changes (DF.T3, DF.T6,
  DF.T7, the statuses; engine conventions of :mod:`maneuvers.tailing`);
* :func:`ruler_test` — DF.T1 (a)-(c) and DF.T5 for rulers given as arrays;
* :func:`tail_blockers`, :func:`lines_blocked` — DF.T1 (d): the bases a ruler may not
  enter;
* :func:`may_tail` — all of the above, every pair of a table, ``(N, N)``;
* :func:`fire_fixed`, :func:`may_fire` — DF.O2 with the engine conventions (enemies,
  flying, no balloon shooter, at most ``fire_altitude_difference`` levels apart);
* :func:`fire_blockers` — DF.O3: the bases a line of fire may not enter;
* :func:`tails_rows`, :func:`shot_codes_rows` — the tail and the firing ruling for
  bases given row by row (jittered placements: the zones' close-call bands and the
  margins' flip chances).

The compiled loops of the plan analysis apply DF.O2's conditions to its pose grids
(``scenarios/dogfight/_analysis_compiled.apply_rules``): a numba implementation of
:func:`may_fire` for many poses of two planes, checked against it by the tests.

Every threshold is decided as the scalar geometry decides it: the kernels of
:mod:`geometry.kernels` leave the cases within rounding of a threshold to the scalar
predicates of :mod:`geometry`.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType

import numpy as np

from furball.geometry import kernels as gk
from furball.geometry.base import Edge
from furball.geometry.pose import compose_batch, to_table_batch
from furball.geometry.tolerance import TOLERANCE_MM

from .plane import Engines, PlaneState, Rules

__all__ = ["Planes", "bases_overlap", "overlaps", "tail_fixed", "RulerTest", "ruler_test", "tail_blockers",
           "lines_blocked", "may_tail", "fire_fixed", "may_fire", "fire_blockers", "stand_points", "tails_rows",
           "shot_codes_rows", "NO_SHOT", "LONG_SHOT", "SHORT_SHOT", "TAIL_FIXED"]

NO_SHOT, LONG_SHOT, SHORT_SHOT = 0, 1, 2
"""Firing ruling codes: no firing position, long range, short range (as
``maneuvers.kernels.FIRE_NONE``, ``FIRE_LONG``, ``FIRE_SHORT``)."""


@dataclass(frozen=True, eq=False)
class Planes:
    """The planes on a table as arrays, row ``i`` for ``states[i]``: ``poses`` ``(N, 3)``
    (mm, mm, deg), ``lengths``/``widths`` ``(N,)`` mm, ``stand_offsets`` ``(N, 2)`` (the
    stand in the base frame, mm), ``stands`` ``(N, 2)`` (table mm, each plane's
    ``.stand``); computed on first use (what a question does not ask costs nothing):
    ``index`` (name -> row), ``altitudes`` ``(N,)`` levels, ``sides`` ``(N,)`` codes
    (equal codes: the same side), the ``(N,)`` flags ``multi_engine``, ``flying``,
    ``on_table``, ``balloon``, ``autonomous``, and :attr:`overlap` (:func:`overlaps`).
    Build with :meth:`of`; :meth:`take` keeps some rows."""

    states: tuple[PlaneState, ...]
    poses: np.ndarray
    lengths: np.ndarray
    widths: np.ndarray
    stand_offsets: np.ndarray
    stands: np.ndarray

    @classmethod
    def of(cls, planes: Iterable[PlaneState]) -> Planes:
        """The batch of ``planes``, in their order (every status kept)."""
        states = tuple(planes)
        sizes: dict[int, tuple[float, float, float, float]] = {}  # a table has few distinct bases
        rows = []
        for p in states:
            b = p.base
            row = sizes.get(id(b))
            if row is None:
                row = sizes[id(b)] = (b.length_mm, b.width_mm, b.stand_x_mm, b.stand_y_mm)
            rows.append(row)
        poses = np.array([p.pose.as_array() for p in states], float).reshape(-1, 3)
        bases = np.array(rows, float).reshape(-1, 4)
        offsets = np.ascontiguousarray(bases[:, 2:])
        return cls(states, poses, bases[:, 0].copy(), bases[:, 1].copy(), offsets,
                   to_table_batch(poses, offsets.reshape(-1, 1, 2)).reshape(-1, 2))  # each plane's .stand

    @classmethod
    def on_table_of(cls, planes: Iterable[PlaneState]) -> Planes:
        """The batch of those of ``planes`` on the table (flying or landed)."""
        return cls.of(p for p in planes if p.on_table)

    def take(self, rows) -> Planes:
        """The batch of rows ``rows`` (in that order), without measuring anything again."""
        rows = np.asarray(rows, np.int64).reshape(-1)
        return Planes(tuple(self.states[k] for k in rows.tolist()), self.poses[rows], self.lengths[rows],
                      self.widths[rows], self.stand_offsets[rows], self.stands[rows])

    def __len__(self) -> int:
        return len(self.states)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.states)

    @cached_property
    def index(self) -> Mapping[str, int]:
        return MappingProxyType({p.name: i for i, p in enumerate(self.states)})

    @cached_property
    def altitudes(self) -> np.ndarray:
        return np.array([p.altitude for p in self.states], np.int64).reshape(len(self))

    @cached_property
    def sides(self) -> np.ndarray:
        codes = {s: i for i, s in enumerate(sorted({p.side for p in self.states}))}
        return np.array([codes[p.side] for p in self.states], np.int64).reshape(len(self))

    @cached_property
    def _flags(self) -> np.ndarray:
        """``(5, N)``: multi-engine, flying, on the table, a balloon, autonomous."""
        return np.array([(p.engines == Engines.MULTI, p.flying, p.on_table, p.is_balloon, p.autonomous)
                         for p in self.states], bool).reshape(len(self), 5).T.copy()

    @property
    def multi_engine(self) -> np.ndarray:
        return self._flags[0]

    @property
    def flying(self) -> np.ndarray:
        return self._flags[1]

    @property
    def on_table(self) -> np.ndarray:
        return self._flags[2]

    @property
    def balloon(self) -> np.ndarray:
        return self._flags[3]

    @property
    def autonomous(self) -> np.ndarray:
        return self._flags[4]

    @cached_property
    def overlap(self) -> np.ndarray:
        """:func:`overlaps` of this batch, ``(N, N)`` bool."""
        return overlaps(self)


# -- DF.O1 -----------------------------------------------------------------------------------------
def bases_overlap(pose_a, length_a, width_a, pose_b, length_b, width_b) -> np.ndarray:
    """DF.O1 for pairs of bases (arrays broadcast, poses ``(..., 3)``): they share area,
    interpenetrating deeper than the tolerance."""
    return gk.overlap_depth(pose_a, length_a, width_a, pose_b, length_b, width_b) > TOLERANCE_MM


def overlaps(planes: Planes) -> np.ndarray:
    """DF.O1: ``(N, N)`` boolean, bases i and j share area (:func:`bases_overlap`; the
    diagonal is False). Every plane of the batch counts, whatever its status. Only bases
    whose centres are near enough to touch are measured (:func:`~geometry.kernels.near_pairs`)."""
    n = len(planes)
    out = np.zeros((n, n), dtype=bool)
    if n < 2:
        return out
    reach = np.hypot(planes.lengths, planes.widths) / 2
    i, j = gk.near_pairs(planes.poses[:, :2], 2 * float(reach.max()) + 1.0)
    if len(i):
        hit = bases_overlap(planes.poses[i], planes.lengths[i], planes.widths[i], planes.poses[j],
                            planes.lengths[j], planes.widths[j])
        out[i[hit], j[hit]] = out[j[hit], i[hit]] = True
    return out


# -- tailing (DF.T1, DF.T3, DF.T5-DF.T7) ------------------------------------------------------------
TAIL_FIXED = ("chaser", "target", "DF.A1", "DF.T3", "DF.T7", "DF.T6")
"""The keys of :func:`tail_fixed`, in the order a tail check words them."""


def tail_fixed(planes: Planes, i, j) -> dict[str, np.ndarray]:
    """The conditions of "chaser ``i`` tails target ``j``" (rows of ``planes``, index
    arrays broadcast) that no placement changes: for each key of :data:`TAIL_FIXED`, where
    it FAILS — ``chaser``/``target``: a balloon or not flying (engine convention; DF.H3,
    DF.D5, DF.E1), ``DF.A1``: an autonomous chaser (engine convention), ``DF.T3``: the
    same side (only enemies are tailed), ``DF.T7``: a multi-engine chaser, ``DF.T6``: the
    chaser neither level with the target nor exactly one level above."""
    able = planes.flying & ~planes.balloon
    rise = planes.altitudes[i] - planes.altitudes[j]
    return {"chaser": ~able[i], "target": ~able[j], "DF.A1": planes.autonomous[i],
            "DF.T3": planes.sides[i] == planes.sides[j], "DF.T7": planes.multi_engine[i],
            "DF.T6": (rise != 0) & (rise != 1)}


@dataclass(frozen=True)
class RulerTest:
    """DF.T1 (a)-(c) and DF.T5 for rulers ``a[n]``-``b[n]``, ``(N,)`` each:
    ``distance_mm`` between the stands, ``in_reach`` (within the ruler's length and the
    tolerance, DF.T1a), ``overlap`` (the two bases overlap, DF.T5), ``exit_edge`` /
    ``entry_edge``: the :class:`~geometry.base.Edge` values through which the ruler
    leaves the chaser's base and enters the target's (DF.T1b, DF.T1c)."""

    distance_mm: np.ndarray
    in_reach: np.ndarray
    overlap: np.ndarray
    exit_edge: np.ndarray
    entry_edge: np.ndarray

    @property
    def front(self) -> np.ndarray:
        """``(N,)`` bool: DF.T1b, the ruler leaves the chaser's base through its front edge."""
        return self.exit_edge == Edge.FRONT

    @property
    def rear(self) -> np.ndarray:
        """``(N,)`` bool: DF.T1c, the ruler enters the target's base through its rear edge."""
        return self.entry_edge == Edge.REAR

    @property
    def ok(self) -> np.ndarray:
        """``(N,)`` bool: (a)-(c) hold and the bases do not overlap."""
        return self.in_reach & ~self.overlap & self.front & self.rear


def ruler_test(a, b, chaser_poses, chaser_length, chaser_width, target_poses, target_length, target_width,
               rules: Rules, overlap=None) -> RulerTest:
    """The :class:`RulerTest` of rulers from stands ``a`` to stands ``b`` (``(N, 2)`` mm),
    between the chasers' bases (poses ``(N, 3)``, sizes mm, broadcast) and the targets';
    ``overlap``: ``(N,)`` :func:`bases_overlap` of the pairs when already known. Source:
    DF.T1 (a)-(c), DF.T5."""
    a, b = np.asarray(a, float).reshape(-1, 2), np.asarray(b, float).reshape(-1, 2)
    distance = np.hypot(b[:, 0] - a[:, 0], b[:, 1] - a[:, 1])
    if overlap is None:
        overlap = bases_overlap(chaser_poses, chaser_length, chaser_width, target_poses, target_length,
                                target_width)
    out, into = gk.ruler_edges(a, b, chaser_poses, chaser_length, chaser_width, target_poses, target_length,
                               target_width)
    return RulerTest(distance, distance <= rules.ruler_length_mm + TOLERANCE_MM, np.asarray(overlap, bool).reshape(-1),
                     np.asarray(out).reshape(-1), np.asarray(into).reshape(-1))


def tail_blockers(planes: Planes, chasers, targets) -> np.ndarray:
    """DF.T1 (d): ``(P, N)`` bool, row ``k`` of ``planes`` does NOT block the ruler of
    pair ``p`` (``chasers``, ``targets``: ``(P,)`` rows): it is one of the two, or not on
    the table (a landed plane's base blocks, DF.H3; planes out of the game do not)."""
    k = np.arange(len(planes))
    c, t = np.asarray(chasers, np.int64).reshape(-1, 1), np.asarray(targets, np.int64).reshape(-1, 1)
    return (k[None, :] == c) | (k[None, :] == t) | ~planes.on_table[None, :]


def lines_blocked(a, b, planes: Planes, skip=None) -> np.ndarray:
    """``(N, K)`` boolean: segment ``a[n]``-``b[n]`` (``(N, 2)`` mm) gets more than the
    tolerance inside base ``k`` of ``planes`` (as :func:`geometry.segments.enters_interior`),
    for every pair not in ``skip`` (``(N, K)`` bool); only bases whose outline can reach
    a segment's bounding box are measured (by :func:`~geometry.kernels.segment_enters`)."""
    a = np.asarray(a, float).reshape(-1, 2)
    b = np.asarray(b, float).reshape(-1, 2)
    out = np.zeros((len(a), len(planes)), dtype=bool)
    if not out.size:
        return out
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    r = np.hypot(planes.lengths, planes.widths) / 2 + 1.0
    c = planes.poses[:, :2]
    near = ((c[None, :, 0] >= lo[:, None, 0] - r) & (c[None, :, 0] <= hi[:, None, 0] + r)
            & (c[None, :, 1] >= lo[:, None, 1] - r) & (c[None, :, 1] <= hi[:, None, 1] + r))
    if skip is not None:
        near &= ~np.asarray(skip, bool)
    n, k = np.nonzero(near)
    if len(n):
        out[n, k] = gk.segment_enters(a[n], b[n], planes.poses[k], planes.lengths[k], planes.widths[k])
    return out


def may_tail(planes: Planes, rules: Rules) -> np.ndarray:
    """``(N, N)`` boolean: plane i can tail plane j now — every condition of
    :func:`tail_fixed`, :func:`ruler_test` and :func:`tail_blockers` (DF.T1 (a)-(d),
    DF.T3, DF.T5-DF.T7). Only stands within the ruler of each other are examined
    (:func:`~geometry.kernels.near_pairs`)."""
    n = len(planes)
    ok = np.zeros((n, n), dtype=bool)
    i, j = gk.near_pairs(planes.stands, rules.ruler_length_mm + TOLERANCE_MM)
    if not len(i):
        return ok
    ci, ti = np.concatenate([i, j]), np.concatenate([j, i])
    keep = ~np.logical_or.reduce(list(tail_fixed(planes, ci, ti).values()))
    ci, ti = ci[keep], ti[keep]
    if len(ci):
        a, b = planes.stands[ci], planes.stands[ti]
        good = ruler_test(a, b, planes.poses[ci], planes.lengths[ci], planes.widths[ci], planes.poses[ti],
                          planes.lengths[ti], planes.widths[ti], rules, planes.overlap[ci, ti]).ok
        good[good] = ~lines_blocked(a[good], b[good], planes, tail_blockers(planes, ci[good], ti[good])).any(axis=1)
        ok[ci, ti] = good
    return ok


# -- firing (DF.O2, DF.O3) --------------------------------------------------------------------------
def fire_fixed(planes: Planes, rules: Rules, i=None, j=None) -> np.ndarray:
    """The conditions of "shooter ``i`` may fire at target ``j``" (rows of ``planes``,
    index arrays broadcast; default every pair, ``(N, N)``) that no placement changes
    (engine conventions, docs/dogfight.md): enemies (so never itself), both flying, the
    shooter no balloon, at most ``rules.fire_altitude_difference`` levels apart."""
    if i is None or j is None:
        rows = np.arange(len(planes))
        i, j = rows[:, None], rows[None, :]
    shooter = planes.flying & ~planes.balloon
    return (shooter[i] & planes.flying[j] & (planes.sides[i] != planes.sides[j])
            & (np.abs(planes.altitudes[i] - planes.altitudes[j]) <= rules.fire_altitude_difference))


def may_fire(planes: Planes, rules: Rules, i=None, j=None) -> np.ndarray:
    """DF.O2: :func:`fire_fixed` and the two bases apart (planes whose bases overlap
    cannot fire at each other); ``(N, N)`` by default, else for rows ``i``, ``j``."""
    if i is None or j is None:
        return fire_fixed(planes, rules) & ~planes.overlap
    return fire_fixed(planes, rules, i, j) & ~planes.overlap[i, j]


def fire_blockers(planes: Planes, shooters, targets) -> np.ndarray:
    """DF.O3: ``(P, N)`` bool, row ``k`` of ``planes`` does NOT block the line of fire of
    pair ``p`` (``shooters``, ``targets``: ``(P,)`` rows): it is one of the two, its
    base overlaps the shooter's (overlapping planes do not block each other's line of
    fire), or it is not on the table."""
    s = np.asarray(shooters, np.int64).reshape(-1)
    return tail_blockers(planes, s, targets) | planes.overlap[s]


# -- the same rules for bases given row by row ------------------------------------------------------
def stand_points(poses, stand_offset) -> np.ndarray:
    """Stands ``(N, 2)`` of bases at ``poses`` ``(N, 3)`` with the stand at
    ``stand_offset`` ``(2,)`` in the base frame."""
    return to_table_batch(np.asarray(poses, float).reshape(-1, 3), np.asarray(stand_offset, float)[None, :])[:, 0, :]


Wall = tuple
"""A base placed row by row: ``(poses (M, 3), length_mm, width_mm)``, and for a line of
fire a fourth item, ``(M,)`` bool: the rows where it may block (DF.O3)."""


def tails_rows(chaser_poses, chaser_size, chaser_stand, target_poses, target_size, target_stand,
               walls: Sequence[Wall], rules: Rules) -> np.ndarray:
    """``(M,)`` bool: in row ``m``, the chaser's base at ``chaser_poses[m]`` (size
    ``(length, width)`` mm, stand offset ``(2,)``) tails the target's at
    ``target_poses[m]`` — :func:`ruler_test`, and the ruler enters none of ``walls``
    (:data:`Wall`; DF.T1 (d)). The conditions of :func:`tail_fixed` are the caller's."""
    chaser_poses = np.asarray(chaser_poses, float).reshape(-1, 3)
    target_poses = np.asarray(target_poses, float).reshape(-1, 3)
    a, b = stand_points(chaser_poses, chaser_stand), stand_points(target_poses, target_stand)
    ok = ruler_test(a, b, chaser_poses, chaser_size[0], chaser_size[1], target_poses, target_size[0], target_size[1],
                    rules).ok
    for wall in walls:
        idx = np.flatnonzero(ok)
        if len(idx):
            ok[idx] &= ~gk.segment_enters(a[idx], b[idx], np.asarray(wall[0], float).reshape(-1, 3)[idx],
                                          wall[1], wall[2])
    return ok


def shot_codes_rows(shooter_poses, shooter_size, shooter_stand, arcs, target_poses, target_size,
                    walls: Sequence[Wall], rules: Rules) -> np.ndarray:
    """``(M,)`` int8: in row ``m``, the best firing position of the shooter's base at
    ``shooter_poses[m]`` (size ``(length, width)`` mm, stand offset ``(2,)``, firing
    ``arcs`` ``((centre_deg, half_width_deg), ...)``) on the target's base at
    ``target_poses[m]``: :data:`NO_SHOT`, :data:`LONG_SHOT` or :data:`SHORT_SHOT` — the
    closest point of the target's base in an arc within the ruler (short: within half of
    it, DF.D3), its line of fire entering none of ``walls`` where they may block
    (:data:`Wall`, DF.O3), and the two bases apart (DF.O2). The conditions of
    :func:`fire_fixed` are the caller's."""
    shooter_poses = np.asarray(shooter_poses, float).reshape(-1, 3)
    target_poses = np.asarray(target_poses, float).reshape(-1, 3)
    gun = compose_batch(shooter_poses, np.array([shooter_stand[0], shooter_stand[1], 0.0]))
    limits = (rules.short_range_mm + TOLERANCE_MM, rules.ruler_length_mm + TOLERANCE_MM)
    best = np.full(len(gun), np.inf)
    for centre, half in arcs:
        dist, aim = gk.closest_in_sector(gun, centre, half, target_poses, target_size[0], target_size[1], limits)
        for wall in walls:
            idx = np.flatnonzero((dist <= limits[1]) & np.asarray(wall[3], bool))
            if len(idx):
                hit = gk.segment_enters(gun[idx, :2], aim[idx], np.asarray(wall[0], float).reshape(-1, 3)[idx],
                                        wall[1], wall[2])
                dist[idx[hit]] = np.inf
        best = np.minimum(best, dist)
    apart = ~bases_overlap(shooter_poses, shooter_size[0], shooter_size[1], target_poses, target_size[0],
                           target_size[1])
    code = np.where(best <= limits[0], SHORT_SHOT, np.where(best <= limits[1], LONG_SHOT, NO_SHOT)).astype(np.int8)
    code[~apart] = NO_SHOT
    return code
