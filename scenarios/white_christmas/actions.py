"""The decisions of 1975 White Christmas: :class:`Action` values and open questions
(:class:`Pending`).

A turn is a short series of small menus: the main choice (take a card in phase 1, play
one in phase 2, add radar tokens to a sealed bid in phase 3), then, when the action needs
it, its details (which helicopter flies where, whom to rescue, which order to complete or
upgrade to make, which card to put face up, whom to unload, which passenger boards). A
menu of details offers ``pass`` when the action may be declined (WC.F3: "if you cannot or
do not wish to perform an action"), not when it is performed at once when able (a phase-1
slot's action, WC.F2; an influence space's effect, WC.F5).

The factories below keep the actions they made in bounded caches, so the same values
usually give the same object and legal-action lists are cheap to build and compare
(equality is by value all the same).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from ..engine.protocol import IllegalAction
from .components import MODELS, Extra, Icon, Model, Person

__all__ = ["ActionKind", "Ask", "Phase", "Stairs", "Action", "Pending", "IllegalAction", "take", "play",
           "faceup", "discard", "extra", "bid", "move", "rescue", "order", "upgrade", "replace", "unload", "board",
           "pending", "PASS", "KEEP", "SEAL", "CARDS_IN_HAND", "ROUNDS"]

CARDS_IN_HAND = 5
"""WC.F2: phase 1 goes on until every player holds 5 action cards."""
ROUNDS = 4
"""WC.F1: 4 rounds (3 sightings and the Cessna)."""


class ActionKind(StrEnum):
    """What an :class:`Action` does."""

    TAKE = "take"          # WC.F2: take the card of a board slot (or the deck top: Inspect)
    PLAY = "play"          # WC.F3: play a hand card for one of its actions
    FACEUP = "faceup"      # WC.F3: play the face-up card next to the carrier
    DISCARD = "discard"    # WC.F3: discard a hand card without effect
    EXTRA = "extra"        # WC.F4: use an action kept from a won sighting
    KEEP = "keep"          # WC.F4: keep the sighting's actions for a later turn
    BID = "bid"            # WC.F4: put one more radar token in the sealed bid
    SEAL = "seal"          # WC.F4: the bid is complete
    MOVE = "move"          # WC.G4
    RESCUE = "rescue"      # WC.G5
    ORDER = "order"        # WC.F5: complete a special order
    UPGRADE = "upgrade"    # WC.F5: upgrade the carrier
    REPLACE = "replace"    # WC.F3: the hand card put face up next to the carrier
    UNLOAD = "unload"      # WC.F6
    BOARD = "board"        # WC.F4: the sighting passenger who takes the one free carrier space
    PASS = "pass"          # decline the action asked


class Ask(StrEnum):
    """The open question of a :class:`Pending`."""

    MOVE = "move"
    RESCUE = "rescue"
    SPECIAL_ORDER = "special_order"
    REPLACE = "replace"
    UNLOAD = "unload"
    SIGHTING = "sighting"
    PASSENGER = "passenger"


class Phase(StrEnum):
    """The three phases of a round (WC.F1)."""

    DRAW = "draw cards"
    PLAY = "play cards"
    SIGHTING = "sighting"


PHASE_NUMBER = {Phase.DRAW: 1, Phase.PLAY: 2, Phase.SIGHTING: 3}


class Stairs(StrEnum):
    """Where the round's staircases are (WC.G2)."""

    NONE = "none"
    FACE_DOWN = "face down"
    REVEALED = "revealed"


@dataclass(frozen=True)
class Action:
    """One decision.

    ``kind`` (:class:`ActionKind`) and the values it uses: ``take`` (``slot``: an
    :class:`Icon` of the board row, or ``inspect`` with ``roof``: the rooftop whose
    staircase is looked at); ``play`` / ``discard`` (``card``: an action-card id in
    hand; ``use``: the action chosen); ``faceup`` (``use``); ``extra`` (``extra``);
    ``bid`` (``value``: a radar token's value); ``move`` (``heli`` to node ``to``);
    ``rescue`` (``heli`` takes a ``person`` at node ``at``); ``order`` (``order``: index
    of the special order, paying ``people``); ``upgrade`` (``upgrade`` 1..5, paying
    ``people`` or radar ``tokens``); ``replace`` (``card``); ``unload`` (``heli``,
    ``person``); ``board`` (``person``: the passenger who boards); ``keep``, ``seal``,
    ``pass``. Unused values are ``None`` / ``()``.
    """

    kind: ActionKind
    slot: Icon | None = None
    roof: int | None = None
    card: int | None = None
    use: Icon | None = None
    extra: Extra | None = None
    value: int | None = None
    heli: Model | None = None
    to: str | None = None
    at: str | None = None
    person: Person | None = None
    order: int | None = None
    upgrade: int | None = None
    people: tuple[Person, ...] = ()
    tokens: tuple[int, ...] = ()


@dataclass(frozen=True)
class Pending:
    """A question waiting for ``side``'s answer.

    ``ask``: ``move`` (``helis`` may fly; with ``both`` the other may fly after, carrier
    upgrade 4), ``rescue`` (``person``: the type, ``None`` for any type; ``picks``: People
    still to take, 2 with carrier upgrade 3), ``special_order``, ``replace`` (the card put
    face up), ``unload`` (carrier short of space, WC.F6), ``sighting`` (use the won
    sighting's actions now or keep them), ``passenger`` (which of the sighting's
    passengers takes the one free carrier space, WC.F4). ``must``: the action is performed
    when able, no ``pass`` offered (a phase-1 slot's action, WC.F2; an influence space's
    effect, WC.F5). ``why``: what asked, for the log.
    """

    ask: Ask
    side: int
    helis: tuple[Model, ...] = MODELS
    both: bool = False
    person: Person | None = None
    picks: int = 1
    why: str = ""
    must: bool = False


@lru_cache(maxsize=1024)
def pending(ask: Ask, side: int, helis: tuple[Model, ...] = MODELS, both: bool = False, person: Person | None = None,
            picks: int = 1, why: str = "", must: bool = False) -> Pending:
    """The :class:`Pending` with these values (kept in a bounded cache: questions are asked
    in the hot loop)."""
    return Pending(ask, side, helis, both, person, picks, why, must)


_new = Action
ACTIONS_KEPT = 1024
"""Actions each factory keeps (a game uses a few hundred of each kind at most)."""


@lru_cache(maxsize=ACTIONS_KEPT)
def take(slot: Icon, roof: int | None = None) -> Action:
    return _new(ActionKind.TAKE, slot=slot, roof=roof)


@lru_cache(maxsize=ACTIONS_KEPT)
def play(card: int, use: Icon) -> Action:
    return _new(ActionKind.PLAY, card=card, use=use)


@lru_cache(maxsize=ACTIONS_KEPT)
def faceup(use: Icon) -> Action:
    return _new(ActionKind.FACEUP, use=use)


@lru_cache(maxsize=ACTIONS_KEPT)
def discard(card: int) -> Action:
    return _new(ActionKind.DISCARD, card=card)


@lru_cache(maxsize=ACTIONS_KEPT)
def extra(kind: Extra) -> Action:
    return _new(ActionKind.EXTRA, extra=kind)


@lru_cache(maxsize=ACTIONS_KEPT)
def bid(value: int) -> Action:
    return _new(ActionKind.BID, value=value)


@lru_cache(maxsize=ACTIONS_KEPT)
def move(heli: Model, to: str) -> Action:
    return _new(ActionKind.MOVE, heli=heli, to=to)


@lru_cache(maxsize=ACTIONS_KEPT)
def rescue(heli: Model, at: str, person: Person) -> Action:
    return _new(ActionKind.RESCUE, heli=heli, at=at, person=person)


@lru_cache(maxsize=ACTIONS_KEPT)
def order(index: int, people: tuple[Person, ...]) -> Action:
    return _new(ActionKind.ORDER, order=index, people=people)


@lru_cache(maxsize=ACTIONS_KEPT)
def upgrade(number: int, people: tuple[Person, ...] = (), tokens: tuple[int, ...] = ()) -> Action:
    return _new(ActionKind.UPGRADE, upgrade=number, people=people, tokens=tokens)


@lru_cache(maxsize=ACTIONS_KEPT)
def replace(card: int) -> Action:
    return _new(ActionKind.REPLACE, card=card)


@lru_cache(maxsize=ACTIONS_KEPT)
def unload(heli: Model, person: Person) -> Action:
    return _new(ActionKind.UNLOAD, heli=heli, person=person)


@lru_cache(maxsize=ACTIONS_KEPT)
def board(person: Person) -> Action:
    return _new(ActionKind.BOARD, person=person)


PASS = _new(ActionKind.PASS)
KEEP = _new(ActionKind.KEEP)
SEAL = _new(ActionKind.SEAL)
