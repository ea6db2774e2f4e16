"""Tailing ("ponerse a cola"), DF.T1-DF.T7: who can tail whom.

The geometric test (DF.T1) lays the range ruler from the chaser's stand to the
target's stand. The chaser can tail when (a) the distance is within the ruler's length,
(b) the ruler leaves the chaser's base through the interior of its FRONT edge, (c) it
enters the target's base through the interior of its REAR edge, and (d) it enters the
interior of no other base on the table — a landed plane's base included ("no cruza la
base de ningún otro avión": a landed plane still sits on its base, DF.H3). Corners,
grazing and running along an edge are decided by the one tolerance
(:mod:`geometry.segments`), so the answer is the same after any rigid motion of the
whole table. Then DF.T5 (overlapping bases), DF.T6 (altitude: same level or exactly
one above) and DF.T7 (multi-engine planes cannot tail; anyone single-engine may tail
them).

Mutual tailing is impossible: the same ruler would have to leave A through A's front
edge and enter A through A's rear edge.

Engine conventions (docs/dogfight.md): only enemies (different sides) are tailed;
balloons, landed planes and planes out of the game neither tail nor are tailed;
autonomous planes do not tail (nobody would use the reveal) but a single-engine plane
may tail them (DF.T7: "cualquier avión monomotor puede ponerse a su cola"); planes out
of the game do not block the ruler.

Every failed condition is a :class:`~maneuvers.reasons.Reason` carrying its rule ID.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from furball.geometry import kernels as gk
from furball.geometry.base import Edge
from furball.geometry.segments import enters_interior, entry_edge, exit_edge
from furball.geometry.tolerance import TOLERANCE_MM

from .kernels import BaseArrays, segments_entering, tail_matrix
from .plane import Engines, PlaneState, PlaneStatus, Rules
from .reasons import Reason

__all__ = ["TailCheck", "tail_check", "tail_checks", "tail_options", "choose_tails", "blocking_arrays"]


@dataclass(frozen=True)
class TailCheck:
    """Outcome of a tailing test. ``reasons`` is empty when ``chaser`` can tail
    ``target``; otherwise each :class:`Reason` names the rule that fails (``.rule``).
    ``stands``: the ruler's end points ``((x, y), (x, y))`` mm; ``blocked_by``: names of
    the bases it crosses."""

    chaser: str
    target: str
    distance_mm: float
    reasons: tuple[Reason, ...]
    stands: tuple[tuple[float, float], tuple[float, float]]
    blocked_by: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.reasons

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule IDs that fail, in order."""
        return tuple(r.rule for r in self.reasons)

    def as_json(self) -> dict:
        return {"chaser": self.chaser, "target": self.target, "ok": self.ok, "distance_mm": self.distance_mm,
                "reasons": [r.as_json() for r in self.reasons],
                "ruler": [list(self.stands[0]), list(self.stands[1])], "blocked_by": list(self.blocked_by)}


def blocking_arrays(planes: Sequence[PlaneState]):
    """Poses ``(N, 3)``, lengths and widths ``(N,)`` of the bases of ``planes``."""
    poses = np.array([p.pose.as_array() for p in planes]).reshape(-1, 3)
    lengths = np.array([p.base.length_mm for p in planes])
    widths = np.array([p.base.width_mm for p in planes])
    return poses, lengths, widths


def _who(reasons: list, role: str, p: PlaneState) -> None:
    if p.is_balloon:
        reasons.append(Reason("DF.T1", f"the {role} is a balloon (engine convention)"))
    elif not p.flying:
        reasons.append(Reason("DF.H3" if p.landed else "DF.D5" if p.status == PlaneStatus.DESTROYED else "DF.E1",
                              f"the {role} is {p.status} (engine convention)"))


def _verdict(chaser: PlaneState, target: PlaneState, rules: Rules, a, b, overlap: bool, out: Edge, into: Edge,
             blocked: tuple[str, ...]) -> TailCheck:
    """The :class:`TailCheck` for measured geometry: stands ``a``, ``b`` (table mm),
    whether the bases overlap, the ruler's exit and entry edges, the bases it crosses."""
    distance = float(np.hypot(*(b - a)))
    reasons: list[Reason] = []
    _who(reasons, "chaser", chaser)
    _who(reasons, "target", target)
    if chaser.autonomous:
        reasons.append(Reason("DF.A1", "autonomous planes do not tail (engine convention)"))
    if chaser.side == target.side:
        reasons.append(Reason("DF.T3", "same side: only enemies are tailed (engine convention)"))
    if chaser.engines == Engines.MULTI:
        reasons.append(Reason("DF.T7", "multi-engine planes cannot tail"))
    rise = chaser.altitude - target.altitude
    if rise not in (0, 1):
        where = f"{rise} levels above" if rise > 1 else f"{-rise} level{'s' if rise < -1 else ''} below"
        reasons.append(Reason("DF.T6", f"the chaser is {where} the target"))
    if overlap:
        reasons.append(Reason("DF.T5", "the bases overlap"))
    if distance > rules.ruler_length_mm + TOLERANCE_MM:
        reasons.append(Reason("DF.T1a", f"out of reach: {distance:.1f} mm > ruler {rules.ruler_length_mm:g} mm"))
    if out != Edge.FRONT:
        reasons.append(Reason("DF.T1b", f"the ruler leaves the chaser's base through its {out.words}, "
                                        f"not its front edge"))
    if into != Edge.REAR:
        reasons.append(Reason("DF.T1c", f"the ruler enters the target's base through its {into.words}, "
                                        f"not its rear edge"))
    if blocked:
        reasons.append(Reason("DF.T1d", f"the ruler crosses the base of {', '.join(blocked)}"))
    return TailCheck(chaser.name, target.name, distance, tuple(reasons),
                     ((float(a[0]), float(a[1])), (float(b[0]), float(b[1]))), blocked)


def tail_check(chaser: PlaneState, target: PlaneState, planes: Sequence[PlaneState], rules: Rules) -> TailCheck:
    """Can ``chaser`` tail ``target`` now? ``planes``: everyone on the table (the two
    included or not; they are skipped as blockers). Source: DF.T1, DF.T5-DF.T7. The
    scalar reference for :func:`tail_checks` and :func:`maneuvers.kernels.tail_matrix`."""
    a, b = chaser.stand, target.stand
    overlap = chaser.base.overlaps(chaser.pose, target.base, target.pose)
    out = Edge(int(exit_edge(a, b, chaser.pose, chaser.base.length_mm, chaser.base.width_mm)[0]))
    into = Edge(int(entry_edge(a, b, target.pose, target.base.length_mm, target.base.width_mm)[0]))
    others = [p for p in planes if p.name not in (chaser.name, target.name) and p.on_table]
    blocked: tuple[str, ...] = ()
    if others:
        hit = enters_interior(a, b, *blocking_arrays(others))
        blocked = tuple(p.name for p, h in zip(others, hit) if h)
    return _verdict(chaser, target, rules, a, b, overlap, out, into, blocked)


def tail_checks(pairs: Sequence[tuple[str, str]], planes: Sequence[PlaneState], rules: Rules) -> list[TailCheck]:
    """:func:`tail_check` for each ``(chaser, target)`` name pair, with the batch kernels
    (one pass for all pairs); the same checks, reasons and numbers."""
    if not pairs:
        return []
    by_name = {p.name: p for p in planes}
    chasers = [by_name[c] for c, _ in pairs]
    targets = [by_name[t] for _, t in pairs]
    ca, ta = BaseArrays.of(chasers), BaseArrays.of(targets)
    a, b = ca.stands, ta.stands
    overlap = gk.overlap_depth(ca.poses, ca.lengths, ca.widths, ta.poses, ta.lengths, ta.widths) > TOLERANCE_MM
    out = gk.exit_edge(a, b, ca.poses, ca.lengths, ca.widths)
    into = gk.entry_edge(a, b, ta.poses, ta.lengths, ta.widths)
    board = [p for p in planes if p.on_table]
    crossed = segments_entering(a, b, BaseArrays.of(board))
    checks = []
    for n, (chaser, target) in enumerate(zip(chasers, targets)):
        blocked = tuple(p.name for p, hit in zip(board, crossed[n]) if hit and p.name not in (chaser.name, target.name))
        checks.append(_verdict(chaser, target, rules, a[n], b[n], bool(overlap[n]), Edge(int(out[n])),
                               Edge(int(into[n])), blocked))
    return checks


def tail_options(planes: Sequence[PlaneState], rules: Rules) -> list[TailCheck]:
    """Every (chaser, target) pair that passes :func:`tail_check`, in table order: all
    pairs at once with :func:`maneuvers.kernels.tail_matrix`."""
    planes = list(planes)
    ok = tail_matrix(planes, rules)
    return tail_checks([(planes[i].name, planes[j].name) for i, j in zip(*np.nonzero(ok))], planes, rules)


def choose_tails(planes: Sequence[PlaneState], rules: Rules,
                 wishes: Mapping[str, str | None] | None = None) -> dict[str, TailCheck]:
    """DF.T3: each chaser tails exactly one of the enemies it can tail.

    ``wishes``: chaser name -> the target its player picked, or ``None`` for "tail
    nobody". A chaser with a wish tails that target if it can, and nobody otherwise
    (engine convention: the player's choice is not replaced by another; the turn report
    says why the wished tail is impossible). A chaser without a wish tails the enemy
    whose stand is nearest (ties: the smaller name). Returns chaser name -> its check.
    """
    wishes = dict(wishes or {})
    chosen: dict[str, TailCheck] = {}
    for check in tail_options(planes, rules):
        if check.chaser in wishes and wishes[check.chaser] != check.target:
            continue
        best = chosen.get(check.chaser)
        if best is None or (check.distance_mm, check.target) < (best.distance_mm, best.target):
            chosen[check.chaser] = check
    return chosen
