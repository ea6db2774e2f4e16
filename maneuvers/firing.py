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

from furball.geometry.base import rectangle_corners
from furball.geometry.pose import compose_batch
from furball.geometry.sector import closest_in_sector_batch
from furball.geometry.tolerance import TOLERANCE_MM

from .batch import Planes, fire_blockers, lines_blocked, may_fire
from .plane import PlaneState, Rules

__all__ = ["Shot", "FiringRange", "arc_shots", "shot_at", "shots", "autonomous_fire", "FiringPositions",
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


def arc_shots(shooter: PlaneState, target: PlaneState, planes: Sequence[PlaneState], rules: Rules,
              board: Planes | None = None) -> list[Shot]:
    """The shot ``shooter`` has at ``target`` through each of its firing arcs (one
    :class:`Shot` per arc with a clear line in range; empty when none). ``board``: the
    table's batch (:class:`~maneuvers.batch.Planes` of those on the table) when many
    questions are asked at once (built from ``planes`` if not given). Source: module
    doc; :func:`firing_positions` for one pair."""
    board = board or Planes.on_table_of(planes)
    s, t = board.index.get(shooter.name), board.index.get(target.name)
    if s is None or t is None:
        return []
    found = _shots(board, rules, np.array([s], np.int64), np.array([t], np.int64))
    return list(found.get((s, t), ()))


def shot_at(shooter: PlaneState, target: PlaneState, planes: Sequence[PlaneState], rules: Rules,
            board: Planes | None = None) -> Shot | None:
    """The best shot ``shooter`` has at ``target`` now (the closest over its arcs), or
    ``None``."""
    found = arc_shots(shooter, target, planes, rules, board)
    return min(found, key=lambda s: (s.distance_mm, s.arc)) if found else None


def shots(planes: Sequence[PlaneState], rules: Rules, board: Planes | None = None) -> list[Shot]:
    """Every shooter-target pair with a shot now (its best shot, as :func:`shot_at`),
    shooter by shooter in table order: :func:`firing_positions` (all pairs at once,
    the same shots and numbers)."""
    return list(firing_positions(board or Planes.on_table_of(planes), rules).best)


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


def _stand_poses(board: Planes) -> np.ndarray:
    """The gun poses ``(N, 3)``: each base's stand, facing its heading (``pose @ stand``)."""
    stands = np.zeros((len(board), 3))
    stands[:, :2] = board.stand_offsets
    return compose_batch(board.poses, stands).reshape(-1, 3)


def _fire_candidates(board: Planes, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Pairs ``(shooter, target)`` (board rows) that may fire
    (:func:`~maneuvers.batch.may_fire`) with the target's centre near enough to the gun
    for any of its base to be within the ruler."""
    guns = _stand_poses(board)
    reach = rules.ruler_length_mm + TOLERANCE_MM + np.hypot(board.lengths, board.widths) / 2 + 1e-3
    near = np.hypot(board.poses[None, :, 0] - guns[:, None, 0], board.poses[None, :, 1] - guns[:, None, 1]) <= reach
    i, j = np.nonzero(may_fire(board, rules) & near)
    return i, j


def _shots(board: Planes, rules: Rules, i, j) -> dict[tuple[int, int], list[Shot]]:
    """The shots of shooters ``i`` at targets ``j`` (board rows, ``(P,)``) that may fire,
    arc by arc: ``(shooter row, target row)`` -> its shots in arc order (only pairs with
    one). The closest in-arc point by :func:`~geometry.sector.closest_in_sector_batch`,
    the line of fire by :func:`~maneuvers.batch.lines_blocked` past
    :func:`~maneuvers.batch.fire_blockers`."""
    planes = board.states
    allowed = may_fire(board, rules, i, j)
    i, j = np.asarray(i, np.int64)[allowed], np.asarray(j, np.int64)[allowed]
    guns = _stand_poses(board)
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
    blocked = lines_blocked(guns[s_idx, :2], aim, board, fire_blockers(board, s_idx, t_idx)).any(axis=1)
    clear = ~np.asarray(blocked, dtype=bool)
    found: dict = {}
    for s, t, k, d, a in zip(s_idx[clear], t_idx[clear], arc[clear], dist[clear], aim[clear]):
        rng = FiringRange.SHORT if d <= rules.short_range_mm + TOLERANCE_MM else FiringRange.LONG
        g = guns[s]
        found.setdefault((int(s), int(t)), []).append(
            Shot(planes[s].name, planes[t].name, float(d), rng, (float(g[0]), float(g[1])),
                 (float(a[0]), float(a[1])), int(k)))
    return found


def firing_positions(board: Planes, rules: Rules) -> FiringPositions:
    """Every firing position on ``board`` (a :class:`~maneuvers.batch.Planes`; planes not
    on the table neither fire, are fired at, nor block) at once: the rules of
    :func:`arc_shots` for all pairs — only pairs whose bases come within the ruler
    measured."""
    planes = board.states
    found = _shots(board, rules, *_fire_candidates(board, rules))
    best = tuple(min(found[pair], key=lambda x: (x.distance_mm, x.arc)) for pair in sorted(found))
    return FiringPositions({(planes[s].name, planes[t].name): tuple(v) for (s, t), v in found.items()}, best)


def autonomous_fire(shooter: PlaneState, planes: Sequence[PlaneState], rules: Rules, rng,
                    board: Planes | None = None, targets: Sequence[str] | None = None,
                    positions: FiringPositions | None = None) -> list[Shot]:
    """DF.A2: "todas las ametralladoras disparan": an autonomous plane fires EVERY gun
    (each firing arc) that has a target, each at its own closest target in that arc; at
    equal distance (within the tolerance) the more damaged (more damage cards); still
    tied, at random (``rng``: a numpy Generator, drawn only for a real tie; candidates
    in name order so the table's order does not matter). Returns one shot per gun that
    fires, in arc order. ``targets``: names of the only planes it may have a shot at,
    when known (e.g. from :func:`shots`); default every plane. ``positions``: the
    board's :func:`firing_positions`, when known (the same shots)."""
    board = board or Planes.on_table_of(planes)
    per_arc: dict[int, list[Shot]] = {}
    allowed = None if targets is None else set(targets)
    names = sorted(board.names) if allowed is None else sorted(allowed & board.index.keys())
    for name in names:
        target = board.states[board.index[name]]
        found = (positions.of(shooter.name, name) if positions is not None
                 else arc_shots(shooter, target, planes, rules, board))
        for s in found:
            per_arc.setdefault(s.arc, []).append(s)

    def damage(name: str) -> int:
        return len(board.states[board.index[name]].damage)

    out = []
    for arc in sorted(per_arc):
        mine = per_arc[arc]
        nearest = min(s.distance_mm for s in mine)
        close = [s for s in mine if s.distance_mm <= nearest + TOLERANCE_MM]
        most = max(damage(s.target) for s in close)
        tied = [s for s in close if damage(s.target) == most]
        out.append(tied[int(rng.integers(len(tied)))] if len(tied) > 1 else tied[0])
    return out
