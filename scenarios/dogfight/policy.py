"""How a chaser reorders its remaining cards after the target's reveal (DF.T2).

A policy is a callable ``(situation) -> tuple of card ids`` returning the cards the
chaser may still reorder, in their new order (a permutation; it must keep the plan
legal).

* ``keep`` (default): the chaser keeps its plan.
* ``best``: for every legal order of those cards, the chaser flies them against the
  target's revealed card and, for the maneuver after that, against each card of the
  target's deck with equal chance; it picks the order with the highest expected number
  of maneuvers that end with a firing position on the target (short range counts
  double), then the most maneuvers still tailing, then the planned order. Other planes
  are assumed to stay where they are (the chaser does not know their plans).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import permutations

from furball.maneuvers.firing import FiringRange, shot_at
from furball.maneuvers.placement import place
from furball.maneuvers.plan import plan_problem
from furball.maneuvers.plane import PlaneState, Rules
from furball.maneuvers.tailing import tail_check

__all__ = ["ReorderPolicy", "Situation", "keep", "best", "legal_orders", "POLICY_FUNCTIONS"]


class ReorderPolicy(StrEnum):
    """How a chaser reorders after a reveal (module docstring)."""

    KEEP = "keep"
    BEST = "best"


@dataclass(frozen=True)
class Situation:
    """What the chaser knows when it may reorder: itself and the target now, the
    target's revealed card id, its own card ids fixed so far this turn (``flown``: the
    cards flown, and its next card when that is fixed) and those it may reorder
    (``remaining``), whether its next card is fixed (``next_fixed``: it showed that card
    to its own chaser in a cycle of tails, DF.T2), its state at the start of the turn
    (for legality), its drops, the other planes, the rules."""

    chaser: PlaneState
    target: PlaneState
    shown: str
    flown: tuple[str, ...]
    remaining: tuple[str, ...]
    chaser_at_turn_start: PlaneState
    drops: tuple[int, ...] | None
    planes: tuple[PlaneState, ...]
    rules: Rules
    next_fixed: bool = False

    @property
    def maneuver(self) -> int:
        """The maneuver (1 or 2) the revealed card is flown in."""
        return len(self.flown) + 1 - int(self.next_fixed)


def legal_orders(s: Situation) -> tuple[tuple[str, ...], ...]:
    """Every order of ``s.remaining`` the chaser may fly (DF.T2: a permutation that keeps
    the plan legal from its state at the start of the turn, DF.M5, DF.H3...), each
    once, the planned order (keep) first."""
    seen, out = set(), []
    for order in permutations(s.remaining):
        if order in seen:
            continue
        seen.add(order)
        if order == s.remaining or plan_problem(s.chaser_at_turn_start, s.flown + order, s.drops, s.rules) is None:
            out.append(order)
    return tuple(out)


def keep(s: Situation) -> tuple[str, ...]:
    """Keep the plan as it stands."""
    return s.remaining


def _value(chaser: PlaneState, target: PlaneState, others: Sequence[PlaneState], rules: Rules) -> tuple[float, float]:
    everyone = [chaser, target, *others]
    shot = shot_at(chaser, target, everyone, rules)
    fire = 0.0 if shot is None else (2.0 if shot.range == FiringRange.SHORT else 1.0)
    tail = 1.0 if tail_check(chaser, target, everyone, rules).ok else 0.0
    return fire, tail


def best(s: Situation) -> tuple[str, ...]:
    """The order with the best expected firing positions (module doc). The revealed
    card is met by the chaser's next card: ``remaining[0]`` once reordered, or its fixed
    next card."""
    others = [p for p in s.planes if p.name not in (s.chaser.name, s.target.name) and p.on_table]
    target_deck = s.target.deck
    candidates = legal_orders(s)
    if len(candidates) <= 1:
        return candidates[0] if candidates else s.remaining
    shown = target_deck.card(s.shown)
    target_next = s.target.replace(pose=place(s.target.pose, shown, s.target.base))
    deck = s.chaser.deck
    scored = []
    for rank, order in enumerate(candidates):
        moves = ((s.flown[-1],) if s.next_fixed else ()) + order
        chaser1 = s.chaser.replace(pose=place(s.chaser.pose, deck.card(moves[0]), s.chaser.base))
        fire, tail = _value(chaser1, target_next, others, s.rules)
        if len(moves) > 1:
            chaser2 = chaser1.replace(pose=place(chaser1.pose, deck.card(moves[1]), chaser1.base))
            outcomes = [_value(chaser2, target_next.replace(pose=place(target_next.pose, c, target_next.base)),
                               others, s.rules) for c in target_deck.cards]
            fire += sum(f for f, _ in outcomes) / len(outcomes)
            tail += sum(t for _, t in outcomes) / len(outcomes)
        scored.append((-fire, -tail, rank, order))
    return min(scored)[3]


POLICY_FUNCTIONS: dict[ReorderPolicy, Callable[[Situation], tuple[str, ...]]] = {
    ReorderPolicy.KEEP: keep, ReorderPolicy.BEST: best}
