"""The closed vocabularies of Operation Canuck and the Partisan's actions (CN.P1).

Every kind of action, pending decision, counter, end and result band is an enum
(a ``StrEnum``: its value is the lower-case word used in logs and JSON).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from furball.i18n import N_, Message

from ..engine.protocol import IllegalAction
from .cards import DECK

__all__ = ["ActionKind", "PendingKind", "Piece", "EndReason", "Band", "Action", "Pending", "IllegalAction",
           "KINETIC", "NON_KINETIC_KINDS", "OP_NAMES", "END_REASONS", "LEADERS", "GROUPS", "BASES",
           "RED_FACES_TO_END", "TRAIN_GROUPS", "SUPPLY_DROP_CARDS", "PAUSE_DRAWS", "DIE_FACES", "SETUP_RESERVE",
           "SETUP_AXIS", "DEFAULT_STACK", "ALBA_LIBERATED_VP", "ALBA_ONCE_VP", "BAND_FLOORS", "ActionTable",
           "action_table"]

LEADERS, GROUPS, BASES = 4, 8, 4
"""The Partisan's counters: 4 Leaders, 8 Groups, 4 Bases (CN.K1)."""
RED_FACES_TO_END = 6
"""The red face card whose draw ends the game at once (CN.E1)."""
TRAIN_GROUPS = 3
"""A successful Train places up to this many unused Groups (CN.P11)."""
SUPPLY_DROP_CARDS = 2
"""A successful Supply Drop draws up to this many cards of the Partisan discard pile (CN.P11)."""
PAUSE_DRAWS = 2
"""An Operational Pause draws this many cards from the deck, one after another (CN.P13)."""
DIE_FACES = 6
"""The Axis garrison dice are six-sided: strength 1 to 6 (CN.K1, CN.K6)."""
SETUP_RESERVE = 4
"""Red number cards dealt to the Reserve at set-up (CN.S1)."""
SETUP_AXIS = 4
"""Black number cards dealt to the Axis deck at set-up (CN.S1)."""
DEFAULT_STACK = (1, 2, 1)
"""(Leaders, Groups, Bases) set up in each BASE* area by default (CN.S3)."""
ALBA_LIBERATED_VP = 10
"""VP for Alba liberated at the end (CN.E4)."""
ALBA_ONCE_VP = 5
"""VP for Alba liberated at some time but not at the end (CN.E4)."""


class ActionKind(StrEnum):
    """What an :class:`Action` does (see :mod:`.operations` for when each is legal)."""

    AMBUSH = "ambush"              # CN.P6
    SABOTAGE = "sabotage"          # CN.P7
    TRAIN = "train"                # CN.P11
    MOVE = "move"                  # CN.P11
    BUILD_BASE = "build_base"      # CN.P11
    SUPPLY_DROP = "supply_drop"    # CN.P11
    PAUSE = "pause"                # CN.P13
    PARTICIPANTS = "participants"  # CN.P4
    ADD_CARD = "add_card"          # CN.P5, CN.P9, CN.F2d
    RESOLVE = "resolve"
    CANCEL = "cancel"
    PLACE_GROUP = "place_group"    # CN.P11 Train
    MOVE_COUNTER = "move_counter"  # CN.P11 Move
    PLACE_BASE = "place_base"      # CN.P11 Build Base
    LOSE = "lose"                  # CN.F2g: which counter a Sweep takes (engine convention)
    DONE = "done"


class PendingKind(StrEnum):
    """The decision in progress (:class:`Pending`)."""

    PARTICIPANTS = "participants"
    CARDS = "cards"
    SWEEP = "sweep"
    LOSSES = "losses"
    TRAIN = "train"
    MOVE = "move"
    BASE = "base"


class Piece(StrEnum):
    """A Partisan counter (CN.K1)."""

    GROUP = "group"
    LEADER = "leader"
    BASE = "base"


class EndReason(StrEnum):
    """Why the game ended (CN.E1, CN.E2)."""

    SIXTH_ADVANCE = "sixth_advance"
    LAST_BASE = "last_base"
    DEADLOCK = "deadlock"


class Band(StrEnum):
    """Result bands (CN.E5)."""

    MAJOR = "major"
    MEDIUM = "medium"
    MINOR = "minor"
    DEFEAT = "defeat"


BAND_WORDS = (N_("MAJOR"), N_("MEDIUM"), N_("MINOR"), N_("DEFEAT"))
"""The bands as the outcome line writes them, for the catalog."""


BAND_FLOORS = ((25, Band.MAJOR), (11, Band.MEDIUM), (6, Band.MINOR))
"""The least VP total of each winning band, best first (CN.E5; below the last:
:attr:`Band.DEFEAT`). The source's bands share 25 and 5; the spec settles them: 25 is
``major``, 5 is ``defeat`` (:func:`.state.band`)."""


KINETIC = (ActionKind.AMBUSH, ActionKind.SABOTAGE)
NON_KINETIC_KINDS = (ActionKind.TRAIN, ActionKind.MOVE, ActionKind.BUILD_BASE, ActionKind.SUPPLY_DROP)
OP_NAMES = {ActionKind.AMBUSH: N_("Ambush"), ActionKind.SABOTAGE: N_("Sabotage"), ActionKind.TRAIN: N_("Train"),
            ActionKind.MOVE: N_("Move"), ActionKind.BUILD_BASE: N_("Build Base"),
            ActionKind.SUPPLY_DROP: N_("Supply Drop")}
"""Each operation's name (English; the catalog's ids: a log entry carries it as a
:class:`~furball.i18n.Message`, :func:`op_name`)."""
END_REASONS = {EndReason.SIXTH_ADVANCE: N_("the 6th red face card was drawn (CN.E1)"),
               EndReason.LAST_BASE: N_("the last Base was lost in a Sweep (CN.E2)"),
               EndReason.DEADLOCK: N_("deadlock: no Reserve cards and no Group for a Pause (CN.E2)")}
PIECE_NAMES = {"group": (N_("a Group"), N_("Group")), "leader": (N_("a Leader"), N_("Leader")),
               "base": (N_("the Base"), N_("Base"))}
"""Each counter's name with its article (``lose the Base``, ``a Group moves``) and without."""


def op_name(kind: ActionKind) -> Message:
    """The name of an operation as a message (rendered in each reader's language)."""
    return Message(OP_NAMES[kind])


def piece_name(piece: str, article: bool = True) -> Message:
    """A counter (``group``, ``leader``, ``base``) by name, with its article or not."""
    return Message(PIECE_NAMES[str(piece)][0 if article else 1])


@dataclass(frozen=True)
class Action:
    """One decision of the Partisan.

    ``kind`` (:class:`ActionKind`): ``ambush``/``sabotage`` (``area``), ``train``,
    ``move``, ``build_base``, ``supply_drop``, ``pause`` (``area``: the Group removed) —
    the options of the main menu (CN.P1, CN.P13); ``participants`` (``groups``,
    ``leaders``: CN.P4); ``add_card`` (``card``: CN.P5, CN.P9, CN.F2d); ``resolve``;
    ``cancel`` (drop a declaration before it resolves); ``place_group`` (``area``:
    CN.P11 Train); ``move_counter`` (``piece``, ``area`` → ``to``: CN.P11 Move);
    ``place_base`` (``area``: CN.P11 Build Base); ``lose`` (``piece``: the counter a
    successful Sweep takes next, CN.F2g); ``done``. Areas are indices into the map's
    areas, ``None`` when the action names none.

    ``kind`` and ``piece`` are enum members: :meth:`of` builds an action from their words
    (``"ambush"``, ``"group"``). Raises ``TypeError`` for a word here.
    """

    kind: ActionKind
    area: int | None = None
    to: int | None = None
    card: int | None = None
    groups: int = 0
    leaders: int = 0
    piece: Piece | None = None

    def __post_init__(self):
        if type(self.kind) is not ActionKind or (self.piece is not None and type(self.piece) is not Piece):
            raise TypeError(f"Action: expected an ActionKind and a Piece or None (Action.of reads words), got "
                            f"{self.kind!r:.40} and {self.piece!r:.40}")

    @classmethod
    def of(cls, kind: ActionKind | str, piece: Piece | str | None = None, **fields: Any) -> Action:
        """The action from loose inputs: ``kind`` and ``piece`` as members or their words.
        Raises ``ValueError`` for an unknown word."""
        return cls(ActionKind(kind), piece=None if piece is None else Piece(piece), **fields)


@dataclass(frozen=True)
class Pending:
    """A decision in progress.

    ``kind``: ``participants`` / ``cards`` (declaring operation ``op`` in ``area``),
    ``sweep`` (choosing Reserve cards against the garrison of area ``garrison``
    sweeping ``area``, CN.F2d), ``losses`` (choosing which counters a successful Sweep
    takes: ``left`` still to lose, ``lost`` so far as (groups, leaders, bases),
    ``cards`` the red cards played), ``train`` (``left`` Groups still placeable),
    ``move`` (``arrived_groups``/``arrived_leaders``: counters already moved, per area),
    ``base`` (choose a BASE box). ``cards``: the Reserve cards selected so far.
    """

    kind: PendingKind
    op: ActionKind | None = None
    area: int | None = None
    garrison: int | None = None
    groups: int = 0
    leaders: int = 0
    cards: tuple[int, ...] = ()
    left: int = 0
    arrived_groups: tuple[int, ...] = ()
    arrived_leaders: tuple[int, ...] = ()
    lost: tuple[int, int, int] = (0, 0, 0)
    drawn: tuple[int, ...] = ()

    def __post_init__(self):
        if type(self.kind) is not PendingKind or (self.op is not None and type(self.op) is not ActionKind):
            raise TypeError(f"Pending: expected a PendingKind and an ActionKind or None, got {self.kind!r:.40} "
                            f"and {self.op!r:.40}")


@dataclass(frozen=True)
class ActionTable:
    """Every action of a map with ``areas`` areas, built once (the hot loop reuses these
    values instead of building new ones, and a shared value compares equal by identity
    first). ``by_area[kind][a]``: the action of ``kind`` naming area ``a`` (ambush,
    sabotage, pause, place_group, place_base); ``add_card[c]`` for every card ``c`` (:data:`.cards.DECK`);
    ``move[(a, b, piece)]``; ``moves_from[(a, piece)]``: the moves of ``piece`` out of
    ``a`` to every other area, in area order; ``participants[(groups, leaders)]``; ``lose[piece]``;
    ``non_kinetic``: train, move, build_base, supply_drop; ``plain[kind]``: the action of
    a kind that names nothing (the non-kinetic options, resolve, cancel, done)."""

    areas: int
    by_area: dict
    add_card: tuple[Action, ...]
    move: dict
    moves_from: dict
    participants: dict
    lose: dict
    non_kinetic: tuple[Action, ...]
    plain: dict
    resolve: Action
    cancel: Action
    done: Action


@lru_cache(maxsize=8)
def action_table(areas: int) -> ActionTable:
    """The :class:`ActionTable` of a map with ``areas`` areas (cached)."""
    K = ActionKind
    by_area = {k: tuple(Action(k, area=a) for a in range(areas))
               for k in (K.AMBUSH, K.SABOTAGE, K.PAUSE, K.PLACE_GROUP, K.PLACE_BASE)}
    move = {(a, b, piece): Action(K.MOVE_COUNTER, area=a, to=b, piece=piece)
            for a in range(areas) for b in range(areas) if a != b for piece in (Piece.GROUP, Piece.LEADER)}
    moves_from = {(a, piece): tuple(move[a, b, piece] for b in range(areas) if b != a)
                  for a in range(areas) for piece in (Piece.GROUP, Piece.LEADER)}
    participants = {(g, l_): Action(K.PARTICIPANTS, groups=g, leaders=l_)
                    for g in range(GROUPS + 1) for l_ in range(LEADERS + 1)}
    plain = {k: Action(k) for k in NON_KINETIC_KINDS + (K.RESOLVE, K.CANCEL, K.DONE)}
    return ActionTable(areas, by_area, tuple(Action(K.ADD_CARD, card=c) for c in DECK), move, moves_from,
                       participants,
                       {piece: Action(K.LOSE, piece=piece) for piece in Piece},
                       tuple(plain[k] for k in NON_KINETIC_KINDS), plain, plain[K.RESOLVE], plain[K.CANCEL],
                       plain[K.DONE])
