"""Tailing ("ponerse a cola"), DF.T1-DF.T7: who can tail whom.

The geometric test (DF.T1) lays the range ruler from the chaser's stand to the
target's stand. The chaser can tail when (a) the distance is within the ruler's length,
(b) the ruler leaves the chaser's base through the interior of its FRONT edge, (c) it
enters the target's base through the interior of its REAR edge, and (d) it enters the
interior of no other base on the table. Corners, grazing and running along an edge are
decided by the one tolerance (:mod:`geometry.segments`), so the answer is the same
after any rigid motion of the whole table. Then DF.T5 (overlapping bases), DF.T6
(altitude: same level or exactly one above) and DF.T7 (multi-engine planes cannot tail).

Mutual tailing is impossible: the same ruler would have to leave A through A's front
edge and enter A through A's rear edge.

Engine conventions (docs/dogfight.md): only enemies (different sides) are tailed;
balloons, autonomous planes, landed planes and planes out of the game neither tail nor
are tailed (autonomous and balloons have no player to use the reveal); landed planes
and planes out of the game do not block the ruler.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from geometry.base import FRONT_EDGE, REAR_EDGE
from geometry.segments import NO_EDGE, enters_interior, entry_edge, exit_edge
from geometry.tolerance import TOLERANCE_MM

from .plane import MULTI, Plane, Rules

__all__ = ["TailCheck", "tail_check", "tail_options", "choose_tails", "EDGE_NAMES"]

EDGE_NAMES = {0: "front edge", 1: "left edge", 2: "rear edge", 3: "right edge", NO_EDGE: "corner"}


@dataclass(frozen=True)
class TailCheck:
    """Outcome of a tailing test. ``reasons`` is empty when ``chaser`` can tail
    ``target``; otherwise each reason cites the rule that fails. ``stands``: the ruler's
    end points ``((x, y), (x, y))`` mm; ``blocked_by``: names of bases it crosses."""

    chaser: str
    target: str
    distance_mm: float
    reasons: tuple[str, ...]
    stands: tuple[tuple[float, float], tuple[float, float]]
    blocked_by: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.reasons


def _base_arrays(planes: Sequence[Plane]):
    poses = np.array([p.pose.as_array() for p in planes]).reshape(-1, 3)
    lengths = np.array([p.base.length_mm for p in planes])
    widths = np.array([p.base.width_mm for p in planes])
    return poses, lengths, widths


def tail_check(chaser: Plane, target: Plane, planes: Sequence[Plane], rules: Rules) -> TailCheck:
    """Can ``chaser`` tail ``target`` now? ``planes``: everyone on the table (the two
    included or not; they are skipped as blockers). Source: DF.T1, DF.T5-DF.T7."""
    a, b = chaser.stand, target.stand
    distance = float(np.hypot(*(b - a)))
    reasons = []
    for who, p in (("chaser", chaser), ("target", target)):
        if not p.flying:
            reasons.append(f"the {who} is {p.status} (engine convention)")
        elif p.is_balloon:
            reasons.append(f"the {who} is a balloon (engine convention)")
    if chaser.autonomous:
        reasons.append("autonomous planes do not tail (engine convention, DF.A1)")
    if chaser.side == target.side:
        reasons.append("same side: only enemies are tailed (DF.T3)")
    if chaser.engines == MULTI:
        reasons.append("multi-engine planes cannot tail (DF.T7)")
    rise = chaser.altitude - target.altitude
    if rise not in (0, 1):
        where = f"{rise} levels above" if rise > 1 else f"{-rise} level{'s' if rise < -1 else ''} below"
        reasons.append(f"the chaser is {where} the target (DF.T6)")
    if chaser.base.overlaps(chaser.pose, target.base, target.pose):
        reasons.append("the bases overlap (DF.T5)")

    if distance > rules.ruler_length_mm + TOLERANCE_MM:
        reasons.append(f"out of reach: {distance:.1f} mm > ruler {rules.ruler_length_mm:g} mm (DF.T1a)")
    out = int(exit_edge(a, b, chaser.pose.as_array(), chaser.base.length_mm, chaser.base.width_mm)[0])
    if out != FRONT_EDGE:
        reasons.append(f"the ruler leaves the chaser's base through its {EDGE_NAMES[out]}, "
                       f"not its front edge (DF.T1b)")
    into = int(entry_edge(a, b, target.pose.as_array(), target.base.length_mm, target.base.width_mm)[0])
    if into != REAR_EDGE:
        reasons.append(f"the ruler enters the target's base through its {EDGE_NAMES[into]}, "
                       f"not its rear edge (DF.T1c)")
    others = [p for p in planes if p.name not in (chaser.name, target.name) and p.flying]
    blocked = ()
    if others:
        hit = enters_interior(a, b, *_base_arrays(others))
        blocked = tuple(p.name for p, h in zip(others, hit) if h)
        if blocked:
            reasons.append(f"the ruler crosses the base of {', '.join(blocked)} (DF.T1d)")
    return TailCheck(chaser.name, target.name, distance, tuple(reasons),
                     ((float(a[0]), float(a[1])), (float(b[0]), float(b[1]))), blocked)


def tail_options(planes: Sequence[Plane], rules: Rules) -> list[TailCheck]:
    """Every (chaser, target) pair that passes :func:`tail_check`, in table order."""
    return [c for chaser in planes for target in planes if chaser is not target
            for c in [tail_check(chaser, target, planes, rules)] if c.ok]


def choose_tails(planes: Sequence[Plane], rules: Rules,
                 wishes: Mapping[str, str | None] | None = None) -> dict[str, TailCheck]:
    """DF.T3: each chaser tails exactly one of the enemies it can tail.

    ``wishes``: chaser name -> the target its player picked (ignored when that target
    cannot be tailed; an explicit ``None`` means "tail nobody"). Otherwise the engine
    picks the nearest stand (ties: table order). Returns chaser name -> its check.
    """
    wishes = dict(wishes or {})
    chosen = {}
    for check in tail_options(planes, rules):
        if check.chaser in wishes and wishes[check.chaser] != check.target:
            continue
        best = chosen.get(check.chaser)
        if best is None or check.distance_mm < best.distance_mm:
            chosen[check.chaser] = check
    return chosen
