"""Collisions, DF.C1-DF.C5.

Two planes at the same altitude whose bases overlap after a maneuver may collide
(DF.C1). Each takes a left-turn and a right-turn card from its own deck (the deck
data's ``collision`` pair) and the opponent picks one blind (DF.C2), so each plane's
card is left or right with probability 1/2, independently. The picked cards are laid
from each plane's current pose; if the bases placed at the cards' ends overlap again,
they collide (DF.C3); the planes are not moved. Colliding planes each take a damage
card "A" (DF.C4). A collision with a balloon cannot be avoided: both take a "C"
(DF.C5).

The probability is therefore exactly k/4, k the number of the four left/right
combinations that overlap; :func:`collision_test` reports it and draws an outcome.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from geometry.errors import InputError

from .placement import place
from .plane import Plane

__all__ = ["CollisionTest", "collision_test", "may_collide"]

SIDES = ("left", "right")


@dataclass(frozen=True)
class CollisionTest:
    """Result for the pair ``a``, ``b``: ``combinations`` maps ``(card of a, card of b)``
    (each ``"left"``/``"right"``) to whether the bases overlap again; ``probability``
    is exact; ``drawn`` the picked sides; ``collided`` the outcome; ``damage`` maps a
    plane's name to the damage card it takes."""

    a: str
    b: str
    combinations: dict
    probability: Fraction
    drawn: tuple[str, str] | None
    collided: bool
    damage: dict
    balloon: bool = False


def may_collide(a: Plane, b: Plane) -> bool:
    """DF.C1: both in the air, same altitude, bases overlapping."""
    return (a.flying and b.flying and a.altitude == b.altitude
            and a.base.overlaps(a.pose, b.base, b.pose))


def _collision_cards(p: Plane):
    deck = p.deck
    if deck is None or deck.collision is None:
        raise InputError(f"plane '{p.name}': deck '{getattr(deck, 'name', None)}' names no "
                         f"collision cards ([deck] collision = {{ left = .., right = .. }}, DF.C2)")
    return {"left": deck.card(deck.collision[0]), "right": deck.card(deck.collision[1])}


def collision_test(a: Plane, b: Plane, rng=None) -> CollisionTest:
    """Test an overlapping pair (DF.C2-DF.C5). ``rng`` (numpy Generator) draws the
    outcome; without it only the exact probability is given (``drawn`` is None and
    ``collided`` is True only when certain)."""
    if a.is_balloon or b.is_balloon:
        return CollisionTest(a.name, b.name, {}, Fraction(1), None, True,
                             {a.name: "C", b.name: "C"}, balloon=True)
    cards_a, cards_b = _collision_cards(a), _collision_cards(b)
    combos = {}
    for sa in SIDES:
        end_a = place(a.pose, cards_a[sa], a.base)
        for sb in SIDES:
            end_b = place(b.pose, cards_b[sb], b.base)
            combos[(sa, sb)] = a.base.overlaps(end_a, b.base, end_b)
    probability = Fraction(sum(combos.values()), 4)
    if rng is None:
        drawn, collided = None, probability == 1
    else:
        drawn = (SIDES[int(rng.integers(2))], SIDES[int(rng.integers(2))])
        collided = combos[drawn]
    damage = {a.name: "A", b.name: "A"} if collided else {}
    return CollisionTest(a.name, b.name, combos, probability, drawn, collided, damage)
