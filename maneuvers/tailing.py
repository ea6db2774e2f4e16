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

from furball.geometry.base import Edge
from furball.i18n import N_, Message, msg, msg_plural

from .batch import Planes, RulerTest, lines_blocked, may_tail, ruler_test, tail_blockers, tail_fixed
from .plane import PlaneState, PlaneStatus, Rules
from .reasons import Reason

EDGE_WORDS = (N_("front edge"), N_("left edge"), N_("rear edge"), N_("right edge"), N_("corner"))
"""A base's edges as the tailing reasons write them (:attr:`Edge.words`), for the catalog."""

__all__ = ["TailCheck", "tail_check", "tail_checks", "tail_options", "choose_tails"]


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


def _who(role: str, p: PlaneState) -> Reason:
    """Why ``p`` can take no part in a tail as ``role`` (it fails :func:`~maneuvers.batch.tail_fixed`'s
    ``role`` condition), in words."""
    if p.is_balloon:
        return Reason.of("DF.T1", msg("the chaser is a balloon (engine convention)") if role == "chaser" else
                         msg("the target is a balloon (engine convention)"))
    rule = "DF.H3" if p.landed else "DF.D5" if p.status == PlaneStatus.DESTROYED else "DF.E1"
    status = Message(str(p.status))
    return Reason.of(rule, msg("the chaser is {status} (engine convention)", status=status) if role == "chaser" else
                     msg("the target is {status} (engine convention)", status=status))


def _reasons(chaser: PlaneState, target: PlaneState, fails: Mapping[str, bool], rules: Rules, ruler: RulerTest,
             n: int, blocked: tuple[str, ...]) -> tuple[Reason, ...]:
    """The failed conditions in words: ``fails`` (:func:`~maneuvers.batch.tail_fixed`'s
    keys), then the measured geometry (row ``n`` of :func:`~maneuvers.batch.ruler_test`)
    and the bases the ruler crosses."""
    reasons: list[Reason] = []
    if fails["chaser"]:
        reasons.append(_who("chaser", chaser))
    if fails["target"]:
        reasons.append(_who("target", target))
    if fails["DF.A1"]:
        reasons.append(Reason.of("DF.A1", msg("autonomous planes do not tail (engine convention)")))
    if fails["DF.T3"]:
        reasons.append(Reason.of("DF.T3", msg("same side: only enemies are tailed (engine convention)")))
    if fails["DF.T7"]:
        reasons.append(Reason.of("DF.T7", msg("multi-engine planes cannot tail")))
    if fails["DF.T6"]:
        rise = chaser.altitude - target.altitude
        where = msg_plural("the chaser is {count} level above the target", "the chaser is {count} levels above the target",
                           rise) if rise > 1 else \
            msg_plural("the chaser is {count} level below the target", "the chaser is {count} levels below the target",
                       -rise)
        reasons.append(Reason.of("DF.T6", where))
    if ruler.overlap[n]:
        reasons.append(Reason.of("DF.T5", msg("the bases overlap")))
    if not ruler.in_reach[n]:
        reasons.append(Reason.of("DF.T1a", msg("out of reach: {distance_mm:.1f} mm > ruler {ruler_mm:g} mm",
                                               distance_mm=float(ruler.distance_mm[n]), ruler_mm=rules.ruler_length_mm)))
    if not ruler.front[n]:
        reasons.append(Reason.of("DF.T1b", msg("the ruler leaves the chaser's base through its {edge}, not its front edge",
                                               edge=Message(Edge(int(ruler.exit_edge[n])).words))))
    if not ruler.rear[n]:
        reasons.append(Reason.of("DF.T1c", msg("the ruler enters the target's base through its {edge}, not its rear edge",
                                               edge=Message(Edge(int(ruler.entry_edge[n])).words))))
    if blocked:
        reasons.append(Reason.of("DF.T1d", msg("the ruler crosses the base of {planes}", planes=", ".join(blocked))))
    return tuple(reasons)


def _checks(board: Planes, chasers, targets, rules: Rules, overlap=None) -> list[TailCheck]:
    """The :class:`TailCheck` of each pair of rows ``(chasers[n], targets[n])`` of
    ``board``: the conditions of :mod:`maneuvers.batch` for all pairs in one pass
    (``overlap``: the pairs' DF.T5 answers when already known)."""
    ci, ti = np.asarray(chasers, np.int64), np.asarray(targets, np.int64)
    a, b = board.stands[ci], board.stands[ti]
    fixed = tail_fixed(board, ci, ti)
    ruler = ruler_test(a, b, board.poses[ci], board.lengths[ci], board.widths[ci], board.poses[ti],
                       board.lengths[ti], board.widths[ti], rules, overlap)
    crossed = lines_blocked(a, b, board, tail_blockers(board, ci, ti))
    checks = []
    for n, (c, t) in enumerate(zip(ci.tolist(), ti.tolist())):
        chaser, target = board.states[c], board.states[t]
        blocked = tuple(board.states[k].name for k in np.flatnonzero(crossed[n]))
        reasons = _reasons(chaser, target, {key: bool(v[n]) for key, v in fixed.items()}, rules, ruler, n, blocked)
        checks.append(TailCheck(chaser.name, target.name, float(ruler.distance_mm[n]), reasons,
                                ((float(a[n, 0]), float(a[n, 1])), (float(b[n, 0]), float(b[n, 1]))), blocked))
    return checks


def tail_check(chaser: PlaneState, target: PlaneState, planes: Sequence[PlaneState], rules: Rules) -> TailCheck:
    """Can ``chaser`` tail ``target`` now? ``planes``: everyone on the table (the two
    included or not; they are skipped as blockers). Source: DF.T1, DF.T5-DF.T7; the
    rules of :mod:`maneuvers.batch` for one pair."""
    others = [p for p in planes if p.name not in (chaser.name, target.name)]
    return _checks(Planes.of([chaser, target, *others]), [0], [1], rules)[0]


def tail_checks(pairs: Sequence[tuple[str, str]], planes: Sequence[PlaneState], rules: Rules) -> list[TailCheck]:
    """:func:`tail_check` for each ``(chaser, target)`` name pair of ``planes``, all
    pairs in one pass; the same checks, reasons and numbers."""
    if not pairs:
        return []
    board = Planes.of(planes)
    return _checks(board, [board.index[c] for c, _ in pairs], [board.index[t] for _, t in pairs], rules)


def tail_options(planes: Sequence[PlaneState], rules: Rules) -> list[TailCheck]:
    """Every (chaser, target) pair that passes :func:`tail_check`, in table order: all
    pairs at once with :func:`maneuvers.batch.may_tail`."""
    board = Planes.of(planes)
    i, j = np.nonzero(may_tail(board, rules))
    return _checks(board, i, j, rules, board.overlap[i, j])


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
