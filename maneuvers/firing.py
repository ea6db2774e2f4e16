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

from furball.geometry.base import rectangles_overlap
from furball.geometry.sector import closest_in_sector
from furball.geometry.segments import enters_interior
from furball.geometry.tolerance import TOLERANCE_MM

from .kernels import fire_matrix, overlap_matrix
from .plane import PlaneState, Rules
from .tailing import blocking_arrays

__all__ = ["Shot", "FiringRange", "arc_shots", "shot_at", "shots", "autonomous_fire", "Board"]


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
    ``names``, ``poses`` ``(N, 3)``, ``lengths``/``widths`` ``(N,)``, and ``overlap``
    ``(N, N)`` (which bases share area; with ``batch``, by the compiled kernel
    :func:`~maneuvers.kernels.overlap_matrix`, same answers)."""

    def __init__(self, planes: Sequence[PlaneState], batch: bool = False):
        self.planes = [p for p in planes if p.on_table]
        self.index = {p.name: i for i, p in enumerate(self.planes)}
        self.poses, self.lengths, self.widths = blocking_arrays(self.planes)
        n = len(self.planes)
        if batch:  # all pairs with the compiled kernel (many planes)
            self.overlap = overlap_matrix(self.planes)
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
    """Every shooter-target pair with a shot now (its best shot), shooter by shooter in
    table order. All pairs are searched at once by :func:`maneuvers.kernels.fire_matrix`;
    each shot found is then measured by :func:`shot_at` (the scalar reference), so the
    numbers reported are exactly the scalar path's."""
    board = board or Board(planes)
    found = fire_matrix(board.planes, rules, board.overlap)
    out = []
    for i, j in found.pairs():
        s = shot_at(board.planes[i], board.planes[j], planes, rules, board)
        if s is not None:
            out.append(s)
    return out


def autonomous_fire(shooter: PlaneState, planes: Sequence[PlaneState], rules: Rules, rng,
                    board: Board | None = None, targets: Sequence[str] | None = None) -> list[Shot]:
    """DF.A2: "todas las ametralladoras disparan": an autonomous plane fires EVERY gun
    (each firing arc) that has a target, each at its own closest target in that arc; at
    equal distance (within the tolerance) the more damaged (more damage cards); still
    tied, at random (``rng``: a numpy Generator, drawn only for a real tie; candidates
    in name order so the table's order does not matter). Returns one shot per gun that
    fires, in arc order. ``targets``: names of the only planes it may have a shot at,
    when known (e.g. from :func:`maneuvers.kernels.fire_matrix`); default every plane."""
    board = board or Board(planes)
    per_arc: dict[int, list[Shot]] = {}
    allowed = None if targets is None else set(targets)
    for target in sorted(board.planes, key=lambda p: p.name):
        if allowed is not None and target.name not in allowed:
            continue
        for s in arc_shots(shooter, target, planes, rules, board):
            per_arc.setdefault(s.arc, []).append(s)
    damage = {p.name: len(p.damage) for p in board.planes}
    out = []
    for arc in sorted(per_arc):
        mine = per_arc[arc]
        nearest = min(s.distance_mm for s in mine)
        close = [s for s in mine if s.distance_mm <= nearest + TOLERANCE_MM]
        most = max(damage[s.target] for s in close)
        tied = [s for s in close if damage[s.target] == most]
        out.append(tied[int(rng.integers(len(tied)))] if len(tied) > 1 else tied[0])
    return out
