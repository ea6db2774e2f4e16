"""Collisions, DF.C1-DF.C5.

Two planes at the same altitude whose bases overlap after a maneuver may collide
(DF.C1). Each takes a left-turn and a right-turn card from its own deck (the deck
data's ``collision`` pair) and the opponent picks one blind (DF.C2), so each plane's
card is left or right with probability 1/2, independently. The picked cards are laid
from each plane's current pose; if the bases placed at the cards' ends overlap again,
they collide (DF.C3); the planes are not moved. Colliding planes each take a damage
card "A" (DF.C4). A collision with a balloon cannot be avoided: both take a "C"
(DF.C5).

A landed plane sits on its base at altitude 0 (DF.H3): a plane flying at altitude 0
whose base overlaps it may collide with it (engine convention). The landed plane lays no
card — it cannot maneuver — so only the flyer's two cards are tried.

The probability is therefore exactly k/4 (k/2 against a landed plane), k the number of
combinations that overlap; :func:`collision_test` reports it and draws an outcome.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from furball.errors import InputError

from .placement import place
from .plane import PlaneState

__all__ = ["CollisionTest", "CollisionCard", "collision_test", "may_collide"]


class CollisionCard(StrEnum):
    """The card a plane lays in a collision test (DF.C2); ``STAYS`` for a landed plane."""

    LEFT = "left"
    RIGHT = "right"
    STAYS = "stays"


@dataclass(frozen=True)
class CollisionTest:
    """Result for the pair ``a``, ``b``: ``combinations`` maps ``(card of a, card of b)``
    (:class:`CollisionCard` values) to whether the bases overlap again;
    ``probability`` is exact; ``drawn`` the picked cards; ``collided`` the outcome;
    ``damage`` maps a plane's name to the damage card it takes."""

    a: str
    b: str
    combinations: dict
    probability: Fraction
    drawn: tuple[CollisionCard, CollisionCard] | None
    collided: bool
    damage: dict
    balloon: bool = False

    def as_json(self) -> dict:
        return {
            "a": self.a, "b": self.b, "balloon": self.balloon,
            "probability": f"{self.probability.numerator}/{self.probability.denominator}",
            "probability_value": float(self.probability),
            "combinations": [{"a": str(sa), "b": str(sb), "overlap": hit} for (sa, sb), hit in self.combinations.items()],
            "drawn": None if self.drawn is None else {"a": str(self.drawn[0]), "b": str(self.drawn[1])},
            "collided": self.collided, "damage": dict(self.damage),
        }


def may_collide(a: PlaneState, b: PlaneState) -> bool:
    """DF.C1: same altitude and overlapping bases, at least one in the air and neither
    out of the game (a landed plane is at altitude 0, DF.H3)."""
    return (a.on_table and b.on_table and (a.flying or b.flying) and a.altitude == b.altitude
            and a.base.overlaps(a.pose, b.base, b.pose))


def _cards(p: PlaneState) -> dict:
    if p.landed:
        return {CollisionCard.STAYS: None}
    deck = p.deck
    if deck is None or deck.collision is None:
        raise InputError(f"plane '{p.name}': deck '{getattr(deck, 'name', None)}' names no "
                         f"collision cards ([deck] collision = {{ left = .., right = .. }}, DF.C2)")
    return {CollisionCard.LEFT: deck.card(deck.collision[0]), CollisionCard.RIGHT: deck.card(deck.collision[1])}


def _end(p: PlaneState, card):
    return p.pose if card is None else place(p.pose, card, p.base)


def collision_test(a: PlaneState, b: PlaneState, rng=None) -> CollisionTest:
    """Test an overlapping pair (DF.C2-DF.C5). ``rng`` (numpy Generator) draws the
    outcome, one draw per plane that lays a card (``a`` first); without it only the exact
    probability is given (``drawn`` is None and ``collided`` is True only when certain)."""
    if a.is_balloon or b.is_balloon:
        return CollisionTest(a.name, b.name, {}, Fraction(1), None, True,
                             {a.name: "C", b.name: "C"}, balloon=True)
    cards_a, cards_b = _cards(a), _cards(b)
    combos = {}
    for sa, ca in cards_a.items():
        end_a = _end(a, ca)
        for sb, cb in cards_b.items():
            combos[(sa, sb)] = a.base.overlaps(end_a, b.base, _end(b, cb))
    probability = Fraction(sum(combos.values()), len(combos))
    if rng is None:
        drawn, collided = None, probability == 1
    else:
        pick = lambda sides: sides[int(rng.integers(len(sides)))] if len(sides) > 1 else sides[0]  # noqa: E731
        drawn = (pick(list(cards_a)), pick(list(cards_b)))
        collided = combos[drawn]
    damage = {a.name: "A", b.name: "A"} if collided else {}
    return CollisionTest(a.name, b.name, combos, probability, drawn, collided, damage)
