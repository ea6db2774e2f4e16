"""Damage inside a turn: draw piles, cards drawn, specials, planes lost (DF.D1-DF.D7,
DF.C4, DF.C5; from the published game, not the source text — docs/rules/dogfight.md).

* **Piles** (DF.D1, DF.D7): each damage deck's draw pile is part of the table
  (:attr:`Table.piles`); cards are drawn from the top without replacement; a deck with
  an empty pile (or none yet) is shuffled whole (every card of the deck) before the
  draw. Shuffles use the turn's damage stream, ``step_rng(seed, turn, 1)`` (numpy's
  ``default_rng([seed, turn, 1])``; the manoeuvre draws keep ``step_rng(seed, turn)``),
  so a saved table reloads with the same piles and plays on identically.
* **What a card does** (:func:`take_card`): its value adds to the plane's
  ``damage_taken`` and its id to the plane's ``damage``; its special takes effect
  (:class:`~maneuvers.damage.SpecialEffect`) — in a collision only an explosion does
  (DF.C4). An explosion destroys the plane at once (DF.D5).
* **The end of a maneuver** (:func:`end_of_maneuver`): specials received before this
  maneuver burn and count down; a plane whose damage reached its damage points is
  destroyed (DF.D5).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from furball.maneuvers.damage import ActiveEffect, DamageCard, DamageDeck, Special
from furball.maneuvers.plane import PlaneState, PlaneStatus

from ..engine.frozen import step_rng
from .table import Table

__all__ = ["DamageCause", "LossReason", "DamageDraw", "Loss", "Piles", "take_card", "end_of_maneuver",
           "DAMAGE_STREAM"]

DAMAGE_STREAM = 1
"""The turn's damage generator is ``step_rng(seed, turn, DAMAGE_STREAM)``."""


class DamageCause(StrEnum):
    """Why a plane takes damage: a collision (DF.C4, DF.C5), a shot (DF.D3), or a fire
    burning (DF.D6)."""

    COLLISION = "collision"
    SHOT = "shot"
    FIRE = "fire"


class LossReason(StrEnum):
    """Why a plane is lost: an explosion (at once) or damage reaching its damage points
    (at the end of the maneuver), DF.D5; or leaving the table (DF.E1)."""

    EXPLOSION = "explosion"
    DAMAGE = "damage"
    LEFT_TABLE = "left the table"


@dataclass(frozen=True)
class DamageDraw:
    """Damage taken by ``plane``: ``cause``, ``by`` (the shooter of a shot, the other
    plane of a collision, ``None`` for a fire), the deck ``letter`` and ``card`` drawn
    (``None`` for a fire burning), the damage ``points``, the card's ``special`` and
    whether it took effect (``applied``: in a collision only an explosion does, DF.C4),
    and whether the pile was shuffled just before (``reshuffled``, DF.D7)."""

    plane: str
    cause: DamageCause
    by: str | None
    letter: str | None
    card: DamageCard | None
    points: int
    special: Special | None = None
    applied: bool = False
    reshuffled: bool = False

    def as_json(self) -> dict:
        return {"plane": self.plane, "cause": str(self.cause), "by": self.by, "letter": self.letter,
                "card": None if self.card is None else self.card.id, "points": self.points,
                "special": None if self.special is None else str(self.special), "applied": self.applied,
                "reshuffled": self.reshuffled}

    def text(self) -> str:
        """The draw in words, e.g. ``"takes B#7 (2 points, fire) from Camel's shot"``."""
        if self.card is None:
            return f"burns: {self.points} damage point{'s' * (self.points != 1)} (fire, DF.D6)"
        special = ""
        if self.special is not None:
            special = f", {str(self.special).replace('_', ' ')}" + ("" if self.applied else " (no effect, DF.C4)")
        source = {DamageCause.SHOT: f"from {self.by}'s shot (DF.D3)",
                  DamageCause.COLLISION: f"in the collision with {self.by} (DF.C4, DF.C5)"}[self.cause]
        shuffled = " [pile reshuffled, DF.D7]" if self.reshuffled else ""
        return f"takes {self.card.id} ({self.points} point{'s' * (self.points != 1)}{special}) {source}{shuffled}"


@dataclass(frozen=True)
class Loss:
    """``plane`` is lost (``reason``: :class:`LossReason`)."""

    plane: str
    reason: LossReason

    def as_json(self) -> dict:
        return {"plane": self.plane, "reason": str(self.reason)}


class Piles:
    """The damage draw piles while a turn resolves (mutable, private to the turn): the
    table's decks and piles, and the turn's damage generator (made on first use)."""

    def __init__(self, table: Table, seed: int):
        self.decks = {d.letter: d for d in table.damage_decks}
        self.piles: dict[str, list[int]] = {letter: list(pile) for letter, pile in table.piles}
        self._seed, self._turn = seed, table.turn
        self._rng: np.random.Generator | None = None

    @property
    def rng(self) -> np.random.Generator:
        """The turn's damage generator (module docstring)."""
        if self._rng is None:
            self._rng = step_rng(self._seed, self._turn, DAMAGE_STREAM)
        return self._rng

    def draw(self, letter: str) -> tuple[DamageDeck, DamageCard, bool]:
        """The top card of deck ``letter``'s pile (DF.D7: shuffled whole first when empty):
        ``(deck, card, reshuffled)``."""
        deck = self.decks[letter]
        pile = self.piles.get(letter)
        reshuffled = not pile
        if reshuffled:
            pile = [int(n) + 1 for n in self.rng.permutation(len(deck))]
            self.piles[letter] = pile
        return deck, deck.card(pile.pop(0)), reshuffled

    def frozen(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """The piles as the table keeps them."""
        return tuple(sorted((letter, tuple(pile)) for letter, pile in self.piles.items()))


def take_card(plane: PlaneState, deck: DamageDeck, card: DamageCard, cause: DamageCause, by: str | None,
              reshuffled: bool) -> tuple[PlaneState, DamageDraw, bool]:
    """``plane`` takes ``card`` (module docstring): returns the plane after it, the
    :class:`DamageDraw`, and whether it exploded (DF.D5: destroyed at once)."""
    applied = card.special is not None and (cause != DamageCause.COLLISION or card.special == Special.EXPLOSION)
    changes: dict = {"damage": plane.damage + (card.id,), "damage_taken": plane.damage_taken + card.value}
    exploded = False
    if applied:
        effect = deck.effect(card.special)
        if effect.destroys:
            exploded = True
            changes["status"] = PlaneStatus.DESTROYED
        if effect.maneuvers > 0 and (effect.burn_points or effect.silences_guns or effect.forbids):
            changes["effects"] = plane.effects + (ActiveEffect.of(effect),)
    draw = DamageDraw(plane.name, cause, by, deck.letter, card, card.value, card.special, applied, reshuffled)
    return plane.replace(**changes), draw, exploded


def end_of_maneuver(plane: PlaneState) -> tuple[PlaneState, DamageDraw | None, Loss | None]:
    """DF.D5, DF.D6 at the end of a maneuver, for a plane on the table: its specials
    received before this maneuver burn (``burn_points``) and count down (those received
    in it start counting at the end of the next one); then it is destroyed if its damage
    reached its damage points. Returns the plane, the fire's :class:`DamageDraw` (or
    ``None``) and the :class:`Loss` (or ``None``)."""
    burn, effects = 0, []
    for e in plane.effects:
        if e.fresh:
            effects.append(ActiveEffect(e.special, e.maneuvers_left, e.burn_points, e.silences_guns, e.forbids))
            continue
        burn += e.burn_points
        if e.maneuvers_left > 1:
            effects.append(ActiveEffect(e.special, e.maneuvers_left - 1, e.burn_points, e.silences_guns, e.forbids))
    changes: dict = {}
    if tuple(effects) != plane.effects:
        changes["effects"] = tuple(effects)
    draw = None
    if burn:
        draw = DamageDraw(plane.name, DamageCause.FIRE, None, None, None, burn, Special.FIRE, True)
        changes["damage_taken"] = plane.damage_taken + burn
    if changes:
        plane = plane.replace(**changes)
    loss = None
    if plane.damage_taken >= plane.damage_points:
        plane = plane.replace(status=PlaneStatus.DESTROYED)
        loss = Loss(plane.name, LossReason.DAMAGE)
    return plane, draw, loss
