"""The immutable values a White Christmas position is made of.

What everyone sees (:class:`Setup`, :class:`Board`, :class:`SidePublic`) is kept apart
from what one side alone sees (:class:`SidePrivate`: hand, radar values, special orders,
inspected staircases, the bid being made) and from what nobody sees (deck orders, kept in
the state itself), so an observation is made of shared references and costs nothing.

:class:`Board`, :class:`SidePublic` and :class:`SidePrivate` change with every action:
they are :class:`~furball.scenarios.engine.frozen.FrozenValue` dataclasses, built by
keyword and changed with ``replace``.

A *side* is a player at the table: seats 0..n-1, and in the solo game side 1 is Captain
Chambers (an automaton, not a seat).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ..engine.frozen import FrozenValue
from .actions import Pending, Phase, Stairs
from .components import Bonus, Colour, Components, Extra, Person, Rooftop

__all__ = ["Setup", "Board", "SidePublic", "SidePrivate", "CHAMBERS", "Pile"]

CHAMBERS = "Chambers"
"""The solo automaton's label (WC.H1)."""


class Pile(StrEnum):
    """Where People tokens the rules *discard* go (two rule options: ``overflow``, the
    People who find no room on the rooftop when a staircase is climbed, WC.G2; and
    ``payment``, the People paid from a carrier for a special order or a carrier card,
    WC.F5): back to the ``supply`` (the default reading: the rules name no discard pile
    for People and return them to the supply everywhere else), or ``discard``-ed out of
    the game (the other reading)."""

    SUPPLY = "supply"
    DISCARD = "discard"


@dataclass(frozen=True)
class Setup:
    """What a game was set up with (public, never changes).

    ``comp``: the components; ``solo``: a solo game against Captain Chambers;
    ``labels``: each side's name (``P1`` .. or ``Chambers``); ``chambers``: the
    automaton's side or ``None``; ``colours``: each side's colour; ``rooftops``: the row,
    left to right; ``track``: the effect on every influence space; ``positions``: each
    effect card's position 0..3 (:meth:`~.components.EffectCard.position`);
    ``row_size``: special orders in the row (4/5/6); ``overflow`` and ``payment``: the
    rule options for staircase People with no room and People paid from a carrier
    (:class:`Pile`).
    """

    comp: Components = field(repr=False)
    solo: bool
    labels: tuple[str, ...]
    chambers: int | None
    colours: tuple[Colour, ...]
    rooftops: tuple[Rooftop, ...]
    track: tuple[Bonus, ...]
    positions: tuple[int, ...]
    row_size: int
    overflow: Pile = Pile.SUPPLY
    payment: Pile = Pile.SUPPLY

    @property
    def sides(self) -> int:
        return len(self.labels)

    @property
    def seats(self) -> int:
        """Seats played by people or bots (Chambers is not one)."""
        return self.sides - (self.chambers is not None)


@dataclass(frozen=True, init=False)
class Board(FrozenValue):
    """The public table.

    ``round`` 1..4 and ``phase``; ``order``: sides in turn order (turn-order card 1
    first, WC.F1); ``turn``: turns taken this phase; ``resolved``: the sighting of this
    phase 3 is resolved; ``roofs[k]`` / ``stairs[k]``: People on rooftop k / on its
    revealed staircase (arrow order); ``stairs_state``; ``stairs_cards``: the revealed
    staircases' card indices; ``row``: the action card in each board slot (``None`` when
    empty) in :data:`~.components.ROW` order; ``discard`` / ``removed``: action cards
    discarded / out of the game (solo wild); ``deck``: cards in the action deck;
    ``orders_row`` and ``orders_left`` (deck); ``sighting``: this round's sighting card
    (``None`` when it is the Cessna); ``supply`` / ``discarded``: People per type in the
    supply / discarded; ``empty_stairs``: staircase spaces left empty so far because the
    supply lacked their type; ``radar_left``: tokens in the supply; ``pending``: open questions,
    the first is asked now; ``stamp``: arrivals on the influence track so far (the marker
    that arrived last is on top, WC.F1); ``winner``: the winning side once ``over``.
    """

    round: int
    phase: Phase
    order: tuple[int, ...]
    turn: int
    resolved: bool
    roofs: tuple[tuple[Person, ...], ...]
    stairs: tuple[tuple[Person, ...], ...]
    stairs_state: Stairs
    stairs_cards: tuple[int, ...]
    row: tuple[int | None, ...]
    discard: tuple[int, ...]
    removed: tuple[int, ...]
    deck: int
    orders_row: tuple[int, ...]
    orders_left: int
    sighting: int | None
    supply: tuple[int, ...]
    discarded: tuple[int, ...]
    empty_stairs: int
    radar_left: int
    pending: tuple[Pending, ...]
    stamp: int
    winner: int | None
    over: bool


@dataclass(frozen=True, init=False)
class SidePublic(FrozenValue):
    """What everyone sees of a side.

    ``at[i]`` / ``aboard[i]`` / ``night[i]``: node, People aboard and night side of
    helicopter ``MODELS[i]``; ``carrier``: People unloaded on the carrier (sorted);
    ``spaces``: its People spaces; ``vp``: the score track; ``influence`` and
    ``arrived`` (the arrival stamp on that space); ``upgrades``: carrier cards 1..5
    flipped; ``faceup``: the action card face up next to the carrier (``None`` when
    gone); ``extras``: actions kept from won sightings; ``hand``, ``radar``, ``orders``:
    how many cards, tokens, special orders (their faces are private); ``bid``: tokens in
    the sealed bid (``None`` until sealed); ``rescued``: People unloaded so far.
    """

    at: tuple[str, ...]
    aboard: tuple[tuple[Person, ...], ...]
    night: tuple[bool, ...]
    carrier: tuple[Person, ...]
    spaces: int
    vp: int
    influence: int
    arrived: int
    upgrades: tuple[bool, ...]
    faceup: int | None
    extras: tuple[Extra, ...]
    hand: int
    radar: int
    orders: int
    bid: int | None
    rescued: int


@dataclass(frozen=True, init=False)
class SidePrivate(FrozenValue):
    """What only that side sees: ``hand`` (action-card ids; Captain Chambers' face-down
    deck in play order), ``radar`` (token values not in the bid), ``orders`` (special
    orders completed), ``inspected`` (``(rooftop, staircase card)`` looked at this round),
    ``bid`` (token values in the sealed bid)."""

    hand: tuple[int, ...]
    radar: tuple[int, ...]
    orders: tuple[int, ...]
    inspected: tuple[tuple[int, int], ...]
    bid: tuple[int, ...]
