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

import numpy as np

from furball.errors import InputError

from .batch import bases_overlap
from .placement import card_motion, place, place_batch
from .plane import PlaneState

__all__ = ["CollisionTest", "CollisionCard", "collision_test", "collision_tests", "collision_combinations",
           "may_collide"]


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


def _overlap(base_a, pose_a, base_b, pose_b) -> bool:
    """DF.O1 for two bases at two poses (:func:`~maneuvers.batch.bases_overlap`)."""
    return bool(bases_overlap(pose_a.as_array(), base_a.length_mm, base_a.width_mm, pose_b.as_array(),
                              base_b.length_mm, base_b.width_mm))


def may_collide(a: PlaneState, b: PlaneState, overlapping: bool | None = None) -> bool:
    """DF.C1: same altitude and overlapping bases, at least one in the air and neither
    out of the game (a landed plane is at altitude 0, DF.H3). ``overlapping``: whether
    the bases overlap, when already known (DF.O1)."""
    return (a.on_table and b.on_table and (a.flying or b.flying) and a.altitude == b.altitude
            and (_overlap(a.base, a.pose, b.base, b.pose) if overlapping is None else overlapping))


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


def collision_test(a: PlaneState, b: PlaneState, rng=None, combos: dict | None = None) -> CollisionTest:
    """Test an overlapping pair (DF.C2-DF.C5). ``rng`` (numpy Generator) draws the
    outcome, one draw per plane that lays a card (``a`` first); without it only the exact
    probability is given (``drawn`` is None and ``collided`` is True only when certain).
    ``combos``: the pair's :func:`collision_combinations`, when already known."""
    if a.is_balloon or b.is_balloon:
        return CollisionTest(a.name, b.name, {}, Fraction(1), None, True,
                             {a.name: "C", b.name: "C"}, balloon=True)
    cards_a, cards_b = _cards(a), _cards(b)
    if combos is None:
        combos = {}
        for sa, ca in cards_a.items():
            end_a = _end(a, ca)
            for sb, cb in cards_b.items():
                combos[(sa, sb)] = _overlap(a.base, end_a, b.base, _end(b, cb))
    probability = Fraction(sum(combos.values()), len(combos))
    if rng is None:
        drawn, collided = None, probability == 1
    else:
        pick = lambda sides: sides[int(rng.integers(len(sides)))] if len(sides) > 1 else sides[0]  # noqa: E731
        drawn = (pick(list(cards_a)), pick(list(cards_b)))
        collided = combos[drawn]
    damage = {a.name: "A", b.name: "A"} if collided else {}
    return CollisionTest(a.name, b.name, combos, probability, drawn, collided, damage)


def collision_combinations(pairs) -> list[dict | None]:
    """For each pair ``(a, b)``: the combinations of :func:`collision_test` (card of a,
    card of b) -> the bases overlap again (DF.C3), every placement of every pair judged
    at once by :func:`~maneuvers.batch.bases_overlap` (the scalar
    answers); ``None`` for a pair with a balloon (DF.C5: no cards are laid)."""
    rows = []  # (pair, key, pose of a, motion of a, base of a, pose of b, motion of b, base of b)
    for n, (a, b) in enumerate(pairs):
        if a.is_balloon or b.is_balloon:
            continue
        cards_a, cards_b = _cards(a), _cards(b)
        for sa, ca in cards_a.items():
            for sb, cb in cards_b.items():
                rows.append((n, (sa, sb), a, ca, b, cb))
    out: list[dict | None] = [None] * len(pairs)
    if not rows:
        return out
    identity = np.zeros(3)

    def ends(planes, cards):
        poses = np.array([p.pose.as_array() for p in planes])
        motions = np.array([identity if c is None else card_motion(c, p.base).as_array() for p, c in zip(planes, cards)])
        placed = place_batch(poses, motions)
        stays = np.array([c is None for c in cards])
        placed[stays] = poses[stays]  # a landed plane stays where it is, exactly
        return placed

    ends_a = ends([r[2] for r in rows], [r[3] for r in rows])
    ends_b = ends([r[4] for r in rows], [r[5] for r in rows])
    size = np.array([[r[2].base.length_mm, r[2].base.width_mm, r[4].base.length_mm, r[4].base.width_mm]
                     for r in rows])
    hit = bases_overlap(ends_a, size[:, 0], size[:, 1], ends_b, size[:, 2], size[:, 3])
    found: dict[int, dict] = {}
    for (n, key, *_), h in zip(rows, hit):
        found.setdefault(n, {})[key] = bool(h)
    return [found.get(n) for n in range(len(pairs))]


def collision_tests(pairs, rng=None) -> list[CollisionTest]:
    """:func:`collision_test` for each pair ``(a, b)`` in order (``rng`` drawn pair by
    pair, as one call after another would), the combinations judged at once
    (:func:`collision_combinations`)."""
    pairs = list(pairs)
    combos = collision_combinations(pairs)
    return [collision_test(a, b, rng, c) for (a, b), c in zip(pairs, combos)]
