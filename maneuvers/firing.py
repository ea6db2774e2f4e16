"""Firing geometry (used by DF.T2 "after the maneuvers and firing" and DF.A2).

A shot goes from the shooter's gun point (its stand) to the closest point of the
target's base that lies inside one of the shooter's firing arcs (arcs per base in data,
default from ``maneuvers/data/dogfight.toml``). Range: within half the ruler is short,
within the ruler long. The line of fire is blocked when it enters the interior of any
other base, except a base overlapping the shooter's (DF.O3: overlapping planes do not
block each other's line of fire). Planes whose bases overlap cannot fire at each other
(DF.O2).

Engine conventions (docs/dogfight.md): only enemies are targets; balloons do not fire;
landed planes and planes out of the game neither fire nor are fired at; the shooter and
target may be at most ``fire_altitude_difference`` levels apart (default 1); only the
line to the closest in-arc point is tested for blocking; touching the arc's boundary
line is not being in the arc.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from geometry.segments import enters_interior
from geometry.sector import closest_in_sector
from geometry.tolerance import TOLERANCE_MM

from .plane import Plane, Rules

__all__ = ["Shot", "shot_at", "shots", "autonomous_choice", "SHORT", "LONG"]

SHORT, LONG = "short", "long"


@dataclass(frozen=True)
class Shot:
    """``shooter`` can fire at ``target`` at ``range`` (short | long), ``distance_mm``
    from the gun point ``gun`` to the aim point ``aim`` (table mm), with arc ``arc``."""

    shooter: str
    target: str
    distance_mm: float
    range: str
    gun: tuple[float, float]
    aim: tuple[float, float]
    arc: int


def _can_be_involved(p: Plane) -> bool:
    return p.flying


def shot_at(shooter: Plane, target: Plane, planes: Sequence[Plane], rules: Rules) -> Shot | None:
    """The shot ``shooter`` has at ``target`` now, or ``None`` (source: module doc)."""
    if shooter.name == target.name or shooter.side == target.side:
        return None
    if not (_can_be_involved(shooter) and _can_be_involved(target)) or shooter.is_balloon:
        return None
    if abs(shooter.altitude - target.altitude) > rules.fire_altitude_difference:
        return None
    if shooter.base.overlaps(shooter.pose, target.base, target.pose):  # DF.O2
        return None
    gun = shooter.pose @ shooter.base.stand
    corners = target.base.corners(target.pose)
    blockers = [p for p in planes if p.name not in (shooter.name, target.name) and p.flying
                and not p.base.overlaps(p.pose, shooter.base, shooter.pose)]  # DF.O3
    best = None
    for k, (centre, half) in enumerate(shooter.firing_arcs(rules)):
        found = closest_in_sector(gun, centre, half, corners)
        if found is None:
            continue
        distance, aim = found
        if distance > rules.ruler_length_mm + TOLERANCE_MM:
            continue
        if blockers:
            poses = np.array([p.pose.as_array() for p in blockers])
            lengths = np.array([p.base.length_mm for p in blockers])
            widths = np.array([p.base.width_mm for p in blockers])
            if enters_interior((gun.x_mm, gun.y_mm), aim, poses, lengths, widths).any():
                continue
        if best is None or distance < best.distance_mm:
            rng = SHORT if distance <= rules.short_range_mm + TOLERANCE_MM else LONG
            best = Shot(shooter.name, target.name, distance, rng,
                        (gun.x_mm, gun.y_mm), (float(aim[0]), float(aim[1])), k)
    return best


def shots(planes: Sequence[Plane], rules: Rules) -> list[Shot]:
    """Every shot available now, shooter by shooter in table order."""
    out = []
    for shooter in planes:
        for target in planes:
            s = shot_at(shooter, target, planes, rules)
            if s is not None:
                out.append(s)
    return out


def autonomous_choice(shooter: Plane, available: Sequence[Shot], planes: Sequence[Plane], rng) -> Shot | None:
    """DF.A2: an autonomous plane always fires when it can: at the closest target; at
    equal distance (within the tolerance) the more damaged (more damage cards); still
    tied, at random (``rng``: a numpy Generator)."""
    mine = [s for s in available if s.shooter == shooter.name]
    if not mine:
        return None
    damage = {p.name: len(p.damage) for p in planes}
    nearest = min(s.distance_mm for s in mine)
    close = [s for s in mine if s.distance_mm <= nearest + TOLERANCE_MM]
    most = max(damage[s.target] for s in close)
    tied = [s for s in close if damage[s.target] == most]
    return tied[int(rng.integers(len(tied)))] if len(tied) > 1 else tied[0]
