"""Scalar oracles for the dogfight's rules: the referee's predicates written pair by pair
with the scalar geometry of :mod:`geometry` (no batch kernel), as they stood before the
rules moved into one home (:mod:`maneuvers.batch`, issue 37). The tests compare every
batch path (the scalar API included, which now calls the batch) against them."""
from __future__ import annotations

import numpy as np

from furball.geometry.base import Edge, rectangles_overlap
from furball.geometry.sector import closest_in_sector
from furball.geometry.segments import enters_interior, entry_edge, exit_edge
from furball.geometry.tolerance import TOLERANCE_MM
from furball.maneuvers.firing import FiringRange, Shot
from furball.maneuvers.plane import Engines


def _blocking_arrays(planes):
    poses = np.array([p.pose.as_array() for p in planes]).reshape(-1, 3)
    return poses, np.array([p.base.length_mm for p in planes]), np.array([p.base.width_mm for p in planes])


def tail_ok(chaser, target, planes, rules) -> bool:
    """DF.T1 (a)-(d), DF.T3, DF.T5-DF.T7 and the engine conventions, scalar."""
    if chaser.is_balloon or target.is_balloon or not (chaser.flying and target.flying):
        return False
    if chaser.autonomous or chaser.side == target.side or chaser.engines == Engines.MULTI:
        return False
    if chaser.altitude - target.altitude not in (0, 1):
        return False
    a, b = chaser.stand, target.stand
    if chaser.base.overlaps(chaser.pose, target.base, target.pose):
        return False
    if float(np.hypot(*(b - a))) > rules.ruler_length_mm + TOLERANCE_MM:
        return False
    if Edge(int(exit_edge(a, b, chaser.pose, chaser.base.length_mm, chaser.base.width_mm)[0])) != Edge.FRONT:
        return False
    if Edge(int(entry_edge(a, b, target.pose, target.base.length_mm, target.base.width_mm)[0])) != Edge.REAR:
        return False
    others = [p for p in planes if p.name not in (chaser.name, target.name) and p.on_table]
    return not (others and enters_interior(a, b, *_blocking_arrays(others)).any())


class Board:
    """The bases on the table, overlaps by the scalar geometry (DF.O1)."""

    def __init__(self, planes):
        self.planes = [p for p in planes if p.on_table]
        self.index = {p.name: i for i, p in enumerate(self.planes)}
        self.poses, self.lengths, self.widths = _blocking_arrays(self.planes)
        n = len(self.planes)
        i, j = np.triu_indices(n, 1)
        self.overlap = np.zeros((n, n), dtype=bool)
        if len(i):
            hit = rectangles_overlap(self.poses[i], self.lengths[i], self.widths[i],
                                     self.poses[j], self.lengths[j], self.widths[j])
            self.overlap[i, j] = self.overlap[j, i] = hit

    def blocked(self, shooter: str, target: str, gun, aim) -> bool:
        s, t = self.index[shooter], self.index[target]
        mask = ~self.overlap[s]
        mask[[s, t]] = False
        if not mask.any():
            return False
        return bool(enters_interior(gun, aim, self.poses[mask], self.lengths[mask], self.widths[mask]).any())


def _may_fire(shooter, target, rules, board: Board) -> bool:
    if shooter.name == target.name or shooter.side == target.side:
        return False
    if not (shooter.flying and target.flying) or shooter.is_balloon:
        return False
    if abs(shooter.altitude - target.altitude) > rules.fire_altitude_difference:
        return False
    return not board.overlap[board.index[shooter.name], board.index[target.name]]  # DF.O2


def arc_shots(shooter, target, planes, rules, board: Board | None = None) -> list[Shot]:
    """DF.O2, DF.O3, DF.D3 and the conventions of :mod:`maneuvers.firing`, scalar."""
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


def shot_at(shooter, target, planes, rules, board: Board | None = None) -> Shot | None:
    found = arc_shots(shooter, target, planes, rules, board)
    return min(found, key=lambda s: (s.distance_mm, s.arc)) if found else None
