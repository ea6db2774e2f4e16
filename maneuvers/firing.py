"""Firing geometry (used by DF.T2 "after the maneuvers and firing", DF.O2, DF.O3, DF.A2).

A shot goes from the shooter's gun point (its stand) to the closest point of the
target's base that lies inside one of the shooter's firing arcs (arcs per base in data,
default from ``maneuvers/data/dogfight.toml``). Range: within half the ruler is short,
within the ruler long. The line of fire is blocked when it enters the interior of any
other base on the table (a landed plane's too, DF.H3), except a base overlapping the
shooter's (DF.O3: overlapping planes do not block each other's line of fire). Planes
whose bases overlap cannot fire at each other (DF.O2).

Engine conventions (docs/dogfight.md): only enemies are targets; balloons do not fire;
landed planes and planes out of the game neither fire nor are fired at; the shooter and
target may be at most ``fire_altitude_difference`` levels apart (default 1); only the
line to the closest in-arc point is tested for blocking; touching the arc's boundary
line is not being in the arc.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from furball.geometry.base import rectangle_corners, rectangles_overlap
from furball.geometry.pose import compose_batch
from furball.geometry.sector import closest_in_sector, closest_in_sector_batch
from furball.geometry.segments import enters_interior
from furball.geometry.tolerance import TOLERANCE_MM

from .kernels import BaseArrays, overlap_matrix, segments_entering
from .plane import PlaneState, Rules

__all__ = ["Shot", "FiringRange", "arc_shots", "shot_at", "shots", "autonomous_fire", "Board", "FiringPositions",
           "firing_positions"]


class FiringRange(StrEnum):
    """Short range: within half the ruler; long range: within the ruler."""

    SHORT = "short"
    LONG = "long"


@dataclass(frozen=True)
class Shot:
    """``shooter`` can fire at ``target`` at ``range``, ``distance_mm`` from the gun
    point ``gun`` to the aim point ``aim`` (table mm), with firing arc number ``arc``."""

    shooter: str
    target: str
    distance_mm: float
    range: FiringRange
    gun: tuple[float, float]
    aim: tuple[float, float]
    arc: int

    def as_json(self) -> dict:
        return {"shooter": self.shooter, "target": self.target, "range": str(self.range),
                "distance_mm": self.distance_mm, "gun": list(self.gun), "aim": list(self.aim), "arc": self.arc}


class Board:
    """The bases on the table, as arrays computed once for many firing questions:
    ``planes`` (those on the table), ``index`` (name -> row), ``arrays``
    (:class:`~maneuvers.kernels.BaseArrays`), ``poses`` ``(N, 3)``, ``lengths``/``widths``
    ``(N,)``, and ``overlap`` ``(N, N)`` (which bases share area; with ``batch``, by the
    batch kernel :func:`~maneuvers.kernels.overlap_matrix`, same answers)."""

    def __init__(self, planes: Sequence[PlaneState], batch: bool = False):
        self.planes = [p for p in planes if p.on_table]
        self.index = {p.name: i for i, p in enumerate(self.planes)}
        self.arrays = BaseArrays.of(self.planes)
        self.poses, self.lengths, self.widths = self.arrays.poses, self.arrays.lengths, self.arrays.widths
        n = len(self.planes)
        if batch:  # all pairs with the batch kernel (many planes)
            self.overlap = overlap_matrix(self.planes, self.arrays)
            return
        i, j = np.triu_indices(n, 1)
        overlap = np.zeros((n, n), dtype=bool)
        if len(i):
            hit = rectangles_overlap(self.poses[i], self.lengths[i], self.widths[i],
                                     self.poses[j], self.lengths[j], self.widths[j])
            overlap[i, j] = overlap[j, i] = hit
        self.overlap = overlap

    def blocked(self, shooter: str, target: str, gun, aim) -> bool:
        """Does the line ``gun``-``aim`` enter any base other than the two planes' own
        and those overlapping the shooter (DF.O3)?"""
        s, t = self.index[shooter], self.index[target]
        mask = ~self.overlap[s]
        mask[[s, t]] = False
        if not mask.any():
            return False
        return bool(enters_interior(gun, aim, self.poses[mask], self.lengths[mask], self.widths[mask]).any())


def _may_fire(shooter: PlaneState, target: PlaneState, rules: Rules, board: Board) -> bool:
    if shooter.name == target.name or shooter.side == target.side:
        return False
    if not (shooter.flying and target.flying) or shooter.is_balloon:
        return False
    if abs(shooter.altitude - target.altitude) > rules.fire_altitude_difference:
        return False
    return not board.overlap[board.index[shooter.name], board.index[target.name]]  # DF.O2


def arc_shots(shooter: PlaneState, target: PlaneState, planes: Sequence[PlaneState], rules: Rules,
              board: Board | None = None) -> list[Shot]:
    """The shot ``shooter`` has at ``target`` through each of its firing arcs (one
    :class:`Shot` per arc with a clear line in range; empty when none). ``board``: the
    table's arrays when many questions are asked at once (built from ``planes`` if not
    given). Source: module doc."""
    board = board or Board(planes)
    if not _may_fire(shooter, target, rules, board):
        return []
    gun = shooter.pose @ shooter.base.stand
    corners = target.base.corners(target.pose)
    out = []
    for k, (centre, half) in enumerate(shooter.firing_arcs(rules)):
        found = closest_in_sector(gun, centre, half, corners)
        if found is None:
            continue
        distance, aim = found
        if distance > rules.ruler_length_mm + TOLERANCE_MM:
            continue
        if board.blocked(shooter.name, target.name, (gun.x_mm, gun.y_mm), aim):
            continue
        rng = FiringRange.SHORT if distance <= rules.short_range_mm + TOLERANCE_MM else FiringRange.LONG
        out.append(Shot(shooter.name, target.name, distance, rng, (gun.x_mm, gun.y_mm),
                        (float(aim[0]), float(aim[1])), k))
    return out


def shot_at(shooter: PlaneState, target: PlaneState, planes: Sequence[PlaneState], rules: Rules,
            board: Board | None = None) -> Shot | None:
    """The best shot ``shooter`` has at ``target`` now (the closest over its arcs), or
    ``None``."""
    found = arc_shots(shooter, target, planes, rules, board)
    return min(found, key=lambda s: (s.distance_mm, s.arc)) if found else None


def shots(planes: Sequence[PlaneState], rules: Rules, board: Board | None = None) -> list[Shot]:
    """Every shooter-target pair with a shot now (its best shot, as :func:`shot_at`),
    shooter by shooter in table order: :func:`firing_positions` (all pairs at once,
    the same shots and numbers)."""
    return list(firing_positions(board or Board(planes), rules).best)


@dataclass(frozen=True)
class FiringPositions:
    """Every firing position on a board (:func:`firing_positions`): ``arcs``, each arc
    with a shot (``(shooter, target)`` -> its shots in arc order, as :func:`arc_shots`),
    and ``best``: each pair's best shot (as :func:`shot_at`), shooter by shooter and
    target by target in table order."""

    arcs: dict
    best: tuple[Shot, ...]

    def of(self, shooter: str, target: str) -> list[Shot]:
        """The shots ``shooter`` has at ``target``, one per arc (empty when none)."""
        return list(self.arcs.get((shooter, target), ()))


def _stand_poses(board: Board) -> np.ndarray:
    """The gun poses ``(N, 3)``: each base's stand, facing its heading (``pose @ stand``)."""
    stands = np.array([[p.base.stand_x_mm, p.base.stand_y_mm, 0.0] for p in board.planes]).reshape(-1, 3)
    return compose_batch(board.poses, stands).reshape(-1, 3)


def _fire_candidates(board: Board, rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pairs ``(shooter, target)`` (board rows) that may fire (:func:`_may_fire`) with the
    target's centre near enough to the gun for any of its base to be within the ruler,
    and the gun poses ``(N, 3)``."""
    planes = board.planes
    n = len(planes)
    flying = np.array([p.flying for p in planes], bool)
    shooter = flying & np.array([not p.is_balloon for p in planes], bool)
    alt = np.array([p.altitude for p in planes])
    side = np.unique([p.side for p in planes], return_inverse=True)[1].reshape(-1) if n else np.zeros(0, int)
    guns = _stand_poses(board)
    reach = rules.ruler_length_mm + TOLERANCE_MM + np.hypot(board.lengths, board.widths) / 2 + 1e-3
    near = np.hypot(board.poses[None, :, 0] - guns[:, None, 0], board.poses[None, :, 1] - guns[:, None, 1]) <= reach
    may = (shooter[:, None] & flying[None, :] & near & (side[:, None] != side[None, :]) & ~board.overlap
           & (np.abs(alt[:, None] - alt[None, :]) <= rules.fire_altitude_difference))
    if n:
        np.fill_diagonal(may, False)
    i, j = np.nonzero(may)
    return i, j, guns


def firing_positions(board: Board, rules: Rules) -> FiringPositions:
    """Every firing position on ``board`` at once: the rules of :func:`arc_shots` for all
    pairs, with its very numbers — the closest in-arc point by
    :func:`~geometry.sector.closest_in_sector_batch` (the scalar computation row by row,
    bit for bit), the line of fire by the batch kernel
    :func:`~geometry.kernels.segments_blocked` on those aim points (the scalar
    predicate's answers), and only pairs whose bases come within the ruler measured."""
    planes = board.planes
    i, j, guns = _fire_candidates(board, rules)
    arcs_of = [p.firing_arcs(rules) for p in planes]
    counts = np.array([len(arcs_of[s]) for s in i], dtype=np.int64)
    s_idx, t_idx = np.repeat(i, counts), np.repeat(j, counts)
    arc = np.concatenate([np.arange(c) for c in counts]) if len(counts) else np.zeros(0, np.int64)
    arc_table = [np.asarray(a, float).reshape(-1, 2) for a in arcs_of]
    centre = np.array([arc_table[s][k, 0] for s, k in zip(s_idx, arc)], float)
    half = np.array([arc_table[s][k, 1] for s, k in zip(s_idx, arc)], float)
    corners = rectangle_corners(board.poses, board.lengths, board.widths) if len(planes) else np.zeros((0, 4, 2))
    dist, aim = closest_in_sector_batch(guns[s_idx], centre, half, corners[t_idx])
    keep = np.flatnonzero(~(dist > rules.ruler_length_mm + TOLERANCE_MM))
    s_idx, t_idx, arc, dist, aim = s_idx[keep], t_idx[keep], arc[keep], dist[keep], aim[keep]
    clear = ~_lines_blocked(board, s_idx, t_idx, guns[s_idx, :2], aim)
    found: dict = {}
    for s, t, k, d, a in zip(s_idx[clear], t_idx[clear], arc[clear], dist[clear], aim[clear]):
        rng = FiringRange.SHORT if d <= rules.short_range_mm + TOLERANCE_MM else FiringRange.LONG
        g = guns[s]
        found.setdefault((int(s), int(t)), []).append(
            Shot(planes[s].name, planes[t].name, float(d), rng, (float(g[0]), float(g[1])),
                 (float(a[0]), float(a[1])), int(k)))
    best = tuple(min(found[pair], key=lambda x: (x.distance_mm, x.arc)) for pair in sorted(found))
    return FiringPositions({(planes[s].name, planes[t].name): tuple(v) for (s, t), v in found.items()}, best)


def _lines_blocked(board: Board, shooter, target, gun, aim) -> np.ndarray:
    """For lines of fire ``gun[n]``-``aim[n]`` of ``shooter[n]`` at ``target[n]`` (board
    rows): does each enter a base other than the two planes' own and those overlapping
    the shooter (DF.O3)? As :meth:`Board.blocked` (:func:`~maneuvers.kernels.segments_entering`)."""
    n = len(board.planes)
    k = np.arange(n)
    skip = (k[None, :] == shooter[:, None]) | (k[None, :] == target[:, None]) | board.overlap[shooter]
    return np.asarray(segments_entering(gun, aim, board.arrays, skip).any(axis=1), dtype=bool)


def autonomous_fire(shooter: PlaneState, planes: Sequence[PlaneState], rules: Rules, rng,
                    board: Board | None = None, targets: Sequence[str] | None = None,
                    positions: FiringPositions | None = None) -> list[Shot]:
    """DF.A2: "todas las ametralladoras disparan": an autonomous plane fires EVERY gun
    (each firing arc) that has a target, each at its own closest target in that arc; at
    equal distance (within the tolerance) the more damaged (more damage cards); still
    tied, at random (``rng``: a numpy Generator, drawn only for a real tie; candidates
    in name order so the table's order does not matter). Returns one shot per gun that
    fires, in arc order. ``targets``: names of the only planes it may have a shot at,
    when known (e.g. from :func:`shots`); default every plane. ``positions``: the
    board's :func:`firing_positions`, when known (the same shots)."""
    board = board or Board(planes)
    per_arc: dict[int, list[Shot]] = {}
    allowed = None if targets is None else set(targets)
    names = sorted(p.name for p in board.planes) if allowed is None else sorted(allowed & board.index.keys())
    for name in names:
        target = board.planes[board.index[name]]
        found = (positions.of(shooter.name, name) if positions is not None
                 else arc_shots(shooter, target, planes, rules, board))
        for s in found:
            per_arc.setdefault(s.arc, []).append(s)

    def damage(name: str) -> int:
        return len(board.planes[board.index[name]].damage)

    out = []
    for arc in sorted(per_arc):
        mine = per_arc[arc]
        nearest = min(s.distance_mm for s in mine)
        close = [s for s in mine if s.distance_mm <= nearest + TOLERANCE_MM]
        most = max(damage(s.target) for s in close)
        tied = [s for s in close if damage(s.target) == most]
        out.append(tied[int(rng.integers(len(tied)))] if len(tied) > 1 else tied[0])
    return out
