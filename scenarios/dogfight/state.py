"""The dogfight as a whole game: the shared engine protocol (:mod:`scenarios.engine`)
over :func:`~.turn.adjudicate` (issue #21; docs/dogfight.md, "The game").

* **Seats** are the sides of the scenario in the order they first appear (or, with
  ``seats="planes"``, its planes that plan their cards, one seat each).
* **Simultaneous secret plans: the planning phase is a simultaneous node** (DF.M1:
  "when all players have planned, they reveal"; docs/dogfight_game.md, "Everyone plans
  at once"). A turn is one decision per plane that plans, and every seat with such a
  plane may lock any of its planes' plans at any time, in any order
  (:meth:`State.current_players`, :meth:`State.legal_actions_for`; a
  :class:`PlanAction` names its plane, hence its seat). A locked plan may be changed by
  locking another for the same plane until the last plan locks; the lock that
  completes the turn adjudicates it in the same transition (:func:`~.turn.adjudicate`,
  with the game's seed, the plans in table order, so the order of the locks changes
  nothing). A locked plan is part of the state but of no other side's observation; that
  a plane has locked is public (:attr:`Observation.locked`, as at a table), a change of
  a locked plan is not. Sequential consumers (``furball play``, sweeps, the search bots
  and the OpenSpiel/PettingZoo adapters) see the same node as one decision at a time:
  :meth:`State.current_player` is the first seat, in seat order, that still has a plane
  to lock, and :meth:`State.legal_actions` the plans of that plane (each seat its
  planes in table order), exactly the order of the sequential engine before. From
  then on the flown cards are public.
* **The chaser looks and chooses** (DF.T2, DF.T4; docs/dogfight_game.md). With
  ``reorder="policy"`` (the default of :func:`new_game`, ``furball play``, sweeps and
  the adapters) the reveals happen inside the adjudication and the game's reorder
  ``policy`` decides for every chaser. With ``reorder="chaser"`` (rooms) each reveal
  is a decision of the chaser's seat: once every plan is locked, the turn is flown
  (:func:`~.turn.adjudicate`, the same seed) with the chasers' orders chosen so far
  this turn (:attr:`State.reorders`, in the order the reveals come) and stops at the
  first reveal without one: the state then waits for that chaser alone
  (:attr:`State.pending`; :meth:`State.current_players` is its seat), whose
  observation alone holds the target's card (:attr:`Observation.reorder`); its
  actions are the legal orders of its remaining cards (:class:`ReorderAction`, keeping
  the order first). Before the second maneuver the same, if the tail still holds. The
  reveal, with the chaser's order before it, is reported to the chaser's side only, and
  whether it reordered is in no other seat's log or observation. Bots decide as the
  ``policy`` would (:meth:`ChaserChoice.by_policy`). Who tails whom (DF.T3) is part of
  the plan, not a separate decision: a plane able to tail two or more enemies names the
  one it picks (:attr:`PlanAction.tail`, among :attr:`Observation.tails`; without a
  choice the nearest), hidden with the plan until the turn flies. At a second reveal
  every seat sees the turn so far (:attr:`Observation.flown`: the planes after the first
  maneuver and its firing).
* **Hidden information**: other sides' locked plans, the draw piles' order, other
  sides' damage card values and the specials only their owner sees
  (:data:`~.report.VISIBLE_SPECIALS`). Planes of one side share what they know.
* **The end** (:mod:`.victory`): DF.V1 when at most one side has planes flying, else
  DF.V2 after the turn limit. Turns where no seat has anything to decide (only
  autonomous planes left) are flown in the same transition.
* **Set-up**: the scenario's table as it stands (a saved game goes on where it was);
  damage decks without a pile are shuffled from ``step_rng(seed, 0)`` in letter order.
* **Randomness** is the engines' step scheme (:func:`~furball.scenarios.engine.frozen.step_rng`)
  with the **turn** as the step: only flying a turn draws (locking a plan draws
  nothing), from ``step_rng(seed, turn)`` and its damage from ``step_rng(seed, turn,
  1)``, exactly as ``furball turn`` would. The turn, not the count of transitions, is
  the step because a dogfight position is a table that carries its turn: a game saved
  as a scenario (:meth:`State.scenario`) and started again with its seed plays on
  identically, and a turn flown by ``furball turn`` draws what the game drew.

A :class:`State` is built the one way every engine builds its states
(:mod:`furball.scenarios.engine.frozen`); the working copy is :class:`Work`.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property, lru_cache
from typing import Any

from furball.errors import IllegalAction, InputError
from furball.i18n import DEFAULT_LANG, N_, Lang, Phrase, msg, render_entry
from furball.maneuvers.deck import find_deck
from furball.maneuvers.plan import legal_plans, plan_problem
from furball.maneuvers.plane import PlaneKind
from furball.maneuvers.tailing import tail_options

from ..engine.frozen import Draft, FrozenState, step_rng
from ..engine.protocol import Reason, TakeBack
from .policy import POLICY_FUNCTIONS, ReorderPolicy, Situation, legal_orders
from .report import NOBODY, VISIBLE_SPECIALS, plane_line, replay_json, seen_plane_json, turn_lines
from .scenario import Scenario, load_scenario
from .table import Orders, Table, needs_plan
from .turn import TurnResult, adjudicate
from .victory import Victory, side_scores, sides_flying

__all__ = ["State", "Observation", "PlanAction", "ReorderAction", "ChaserChoice", "Reorder", "Seats", "EndReason",
           "new_game", "public_table", "tail_choices", "DRAW", "ReportLine"]

DRAW = "draw"
"""The winner of a drawn game."""


class Seats(StrEnum):
    """Who sits at the table: one seat per side, or one per plane that plans."""

    SIDES = "sides"
    PLANES = "planes"


class Reorder(StrEnum):
    """Who orders a chaser's cards after a reveal (DF.T2): the game's reorder ``policy``
    inside the adjudication, or the ``chaser``'s seat as a decision of its own."""

    POLICY = "policy"
    CHASER = "chaser"


class EndReason(StrEnum):
    """Why a game ended: DF.V1 or DF.V2 (:mod:`.victory`)."""

    LAST_SIDE = "last side flying"
    TURN_LIMIT = "turn limit"


@dataclass(frozen=True)
class _CardsAction:
    """A plane's decision naming its cards: ``plane`` and ``cards`` (a tuple; :meth:`of`
    builds one from any sequence). Raises ``TypeError`` otherwise."""

    plane: str
    cards: tuple[str, ...]

    def __post_init__(self):
        if type(self.cards) is not tuple:
            name = type(self).__name__
            raise TypeError(f"{name}: field 'cards': expected a tuple ({name}.of takes any sequence), "
                            f"got {type(self.cards).__name__}")

    @classmethod
    def of(cls, plane: str, cards: Sequence[str], **fields: Any):
        """The action from loose inputs: ``cards`` any sequence of card ids (``fields``:
        the action's other fields, by name)."""
        return cls(plane, tuple(cards), **fields)


@dataclass(frozen=True)
class PlanAction(_CardsAction):
    """A seat's decision: ``plane`` will fly ``cards`` (three card ids, in order, DF.M1)
    and, when it may tail several enemies this turn, ``tail``: the one it picks (DF.T3;
    ``None``: the nearest, as the engine picks). ``cards`` is a tuple (:meth:`of` builds
    an action from any sequence). Raises ``TypeError`` otherwise."""

    tail: str | None = None

    def __str__(self) -> str:
        return f"{self.plane}: {' '.join(self.cards)}" + ("" if self.tail is None else f" tailing {self.tail}")


@dataclass(frozen=True)
class ReorderAction(_CardsAction):
    """A chaser's decision after a reveal (DF.T2): ``plane`` (the chaser) flies its
    remaining cards in the order ``cards`` (a tuple; :meth:`of` builds one from any
    sequence). Raises ``TypeError`` otherwise."""

    def __str__(self) -> str:
        return f"{self.plane} orders {' '.join(self.cards)}"


class _ChoiceNeeded(Exception):
    """A reveal whose chaser has not chosen yet (raised through :func:`~.turn.adjudicate`)."""

    def __init__(self, situation: Situation):
        super().__init__(situation.chaser.name)
        self.situation = situation


@dataclass
class _Recorded:
    """The chasers' orders chosen this turn, given back in the order the reveals come
    (a :data:`~.turn.Chooser`); the first reveal past them stops the turn."""

    orders: tuple[tuple[str, tuple[str, ...]], ...]
    used: int = 0
    then_keep: bool = False
    """Past the recorded orders, keep the order instead of stopping the turn."""

    def __call__(self, situation: Situation) -> tuple[str, ...]:
        if self.used == len(self.orders):
            if self.then_keep:
                return situation.remaining
            raise _ChoiceNeeded(situation)
        chaser, order = self.orders[self.used]
        if chaser != situation.chaser.name:  # pragma: no cover - the turn is deterministic
            raise RuntimeError(f"the turn asked {situation.chaser.name} where {chaser} had chosen")
        self.used += 1
        return order


@dataclass(frozen=True)
class ChaserChoice:
    """What the chaser's seat sees while the game waits for its order (DF.T2): the
    ``situation`` (:class:`~.policy.Situation`: the ``target``, the card it ``shown``,
    the chaser's cards fixed so far and those it may reorder, the maneuver), the
    ``legal`` orders as actions (keeping the order first), and the game's ``policy``
    (what a bot in the seat does: :meth:`by_policy`)."""

    situation: Situation = field(repr=False)
    legal: tuple[ReorderAction, ...]
    policy: ReorderPolicy

    def by_policy(self) -> ReorderAction:
        """The order the game's reorder policy chooses, as an action."""
        order = tuple(POLICY_FUNCTIONS[self.policy](self.situation))
        return next((a for a in self.legal if a.cards == order), self.legal[0])

    def as_json(self) -> dict:
        """``chaser``, ``target``, ``shown`` (the target's card id), ``maneuver`` (1 or
        2), ``fixed`` (the chaser's cards that can no longer move: flown, or shown to its
        own chaser), ``remaining`` (in the planned order) and ``orders`` (the legal
        orders, keep first: the index is the action's in the seat's legal actions);
        ``shown_name`` and ``names`` (the chaser's card ids -> card names)."""
        s = self.situation
        return {"chaser": s.chaser.name, "target": s.target.name, "shown": s.shown,
                "shown_name": s.target.deck.card(s.shown).name, "maneuver": s.maneuver,
                "fixed": list(s.flown), "remaining": list(s.remaining), "orders": [list(a.cards) for a in self.legal],
                "names": {c: s.chaser.deck.card(c).name for c in (*s.flown, *s.remaining)}}


class ReportLine(str):
    """A line of a flown turn's report in the game's log, as the referee reads it (every
    card and reveal), in English, which also knows its turn (``result``) and its place
    in the report (``place``: its index in :func:`~.report.turn_lines`; ``None``: found
    by its text), so :meth:`State.events_for` can give each seat the report as its side
    may see it, and :meth:`in_language` writes it in another language (a game's log
    read in Spanish, ``State.events_in``, ``furball play dogfight --lang es``)."""

    __slots__ = ("result", "place")
    result: TurnResult
    place: int | None

    def __new__(cls, text: str, result: TurnResult, place: int | None = None):
        line = super().__new__(cls, text)
        line.result = result
        line.place = place
        return line

    def __reduce__(self):
        return (ReportLine, (str(self), self.result, self.place))

    def in_language(self, lang: Lang | str) -> str:
        if Lang(lang) == DEFAULT_LANG:
            return str(self)
        place = self.place
        if place is None:
            place = turn_lines(self.result, header=False).index(str(self))
        return turn_lines(self.result, header=False, lang=Lang(lang))[place]


@dataclass(frozen=True)
class Written:
    """A text already written in every language (``texts``: ``(lang, text)`` for each
    :class:`~furball.i18n.Lang`): a seat's line of a turn report (:meth:`State.events_for`),
    made once when the turn is flown, so a room keeps words, not the turn. As a log
    entry's argument it is read in the reader's language; formatted, English."""

    texts: tuple[tuple[Lang, str], ...]

    def in_language(self, lang: Lang | str) -> str:
        return dict(self.texts).get(Lang(lang), self.english)

    @property
    def english(self) -> str:
        return dict(self.texts)[DEFAULT_LANG]

    def __format__(self, spec: str) -> str:
        return format(self.english, spec)

    def __str__(self) -> str:
        return self.english


@dataclass(frozen=True, eq=False)
class SeenTurn:
    """The last turn as side ``viewer`` may see it (:data:`~.report.NOBODY`: what every
    side sees), written in a language when asked: :meth:`lines` (its report,
    :func:`~.report.turn_lines`) and :meth:`replay` (:func:`~.report.replay_json`). It
    holds the turn (``result``) to write it; read it through these two only, which
    leave out what the side may not see. Equality is identity (an observation compares
    its English ``last_turn`` and ``replay`` instead)."""

    result: TurnResult = field(repr=False)
    viewer: str

    def lines(self, lang: Lang | str = DEFAULT_LANG) -> tuple[str, ...]:
        return tuple(turn_lines(self.result, header=False, viewer=self.viewer, lang=Lang(lang)))

    def replay(self, lang: Lang | str = DEFAULT_LANG) -> dict:
        return replay_json(self.result, self.viewer, Lang(lang))

    def so_far(self, lang: Lang | str = DEFAULT_LANG) -> dict:
        """At a second reveal (DF.T2: the game waits for a chaser before maneuver 2), the
        turn so far as a page replays it: :meth:`replay`'s ``turn``, ``start`` and first
        maneuver (the planes after it and its firing, as at a table everyone sees them
        before the second card is shown)."""
        whole = self.replay(lang)
        return {"turn": whole["turn"], "start": whole["start"], "maneuvers": whole["maneuvers"][:1]}


LOCK_LINE = N_("  {} locks its plan (hidden until the turn is flown)")
"""The referee's log line of a plan locked (:attr:`State.events`)."""
CHANGE_LINE = N_("  {} changes its locked plan (hidden until the turn is flown)")
"""The referee's log line of a locked plan changed before the last plan locked."""
LOOK_LINE = N_("  maneuver {}: {} shows its next card to {}, who may reorder its cards (DF.T2)")
"""The log line of a reveal the game waits on (public: who tails whom is on the table)."""
ORDER_LINE = N_("  {} orders its cards (hidden until the turn is flown)")
"""The referee's log line of a chaser's order (in no seat's log: :meth:`State.events_for`)."""


def _plans_of(table: Table, name: str, tail: str | None = None) -> tuple[PlanAction, ...]:
    """Every legal plan of plane ``name`` on ``table`` as actions, with the tail choice
    ``tail`` (DF.T3; ``None``: the nearest), kept in a bounded cache: a plane's 2,615
    actions are made once, not at every observation."""
    return _plan_actions(name, legal_plans(table.plane(name), table.rules), tail)


@lru_cache(maxsize=256)
def _plan_actions(name: str, plans: tuple[tuple[str, ...], ...], tail: str | None) -> tuple[PlanAction, ...]:
    return tuple(PlanAction(name, plan, tail) for plan in plans)


def tail_choices(table: Table) -> dict[str, tuple[str, ...]]:
    """DF.T3 at the start of ``table.turn``: each plane that plans and can tail at least
    one enemy (DF.T1, DF.T5-DF.T7: :func:`~furball.maneuvers.tailing.tail_options`,
    public geometry) -> the enemies it may tail, nearest first (ties by name: the first
    is the engine's pick without a choice)."""
    found: dict[str, list[tuple[float, str]]] = {}
    planners = {p.name for p in table.planes if needs_plan(p)}
    for check in tail_options(list(table.planes), table.rules):
        if check.chaser in planners:
            found.setdefault(check.chaser, []).append((check.distance_mm, check.target))
    return {name: tuple(target for _, target in sorted(options)) for name, options in found.items()}


def _with_tail_choices(table: Table, planes: Sequence[str], choices: dict[str, tuple[str, ...]]
                       ) -> tuple[PlanAction, ...]:
    """The plans of ``planes`` with each explicit tail choice, for those that may tail
    two or more enemies (``choices``: :func:`tail_choices`; DF.T3): plane by plane,
    choice by choice (nearest first), each block the plane's legal plans in their order."""
    return tuple(a for name in planes if len(choices.get(name, ())) > 1
                 for target in choices[name] for a in _plans_of(table, name, target))


def public_table(table: Table, side: str) -> Table:
    """``table`` as side ``side`` sees it: no draw piles (their order is secret), and
    other sides' planes with their damage cards as ``"?"`` and 0 points taken, and only
    their visible specials (:data:`~.report.VISIBLE_SPECIALS`)."""
    planes = tuple(p if p.side == side else p.replace(
        damage=("?",) * len(p.damage), damage_taken=0,
        effects=tuple(e for e in p.effects if e.special in VISIBLE_SPECIALS)) for p in table.planes)
    return table.replace(planes=planes, piles=())


@dataclass(frozen=True)
class Observation:
    """What one seat may see (a plain immutable value; JSON form :meth:`as_json`).

    ``seat``, ``side``; ``seat_sides``: every seat's side; ``turn`` (about to be
    played) and ``turn_limit``; ``table``: the public table (:func:`public_table`);
    ``own_plans``: the plans locked this turn by planes of this seat's side
    (``(plane, cards)``); ``locked``: every plane whose plan is locked (names only, in
    the order of their first locks: public, as at a table);
    ``to_plan``: this seat's next plane to lock (``None``: none left; the planning is
    simultaneous, so every seat with a plane to lock has one at once), with its
    ``legal`` actions (what a bot chooses from); ``planning``: this seat's planes that
    plan this turn (unlocked first, then locked: their plans may still change; every
    action the seat may take now: :meth:`actions`); ``last_turn``: the last turn's
    report as this side may see it (lines); ``scores``: the DF.V2 points of each side so far; ``piles``: cards left in
    each damage pile; ``over``, ``winner`` (a side, :data:`DRAW`, or ``None``);
    ``replay``: the last turn as this side may see it, for a page to replay
    (:func:`~.report.replay_json`), and ``public_replay``: as every side sees it
    (``None`` before the first turn); ``first_turn``: the turn the game started at;
    ``end``: why it ended (the :class:`EndReason`'s value), ``None`` while it goes on;
    ``waiting``: ``(chaser, target)`` while the game waits for a chaser's order
    (DF.T2; public: no card), and ``reorder``: that choice (:class:`ChaserChoice`) for
    the chaser's seat alone (``None`` for every other seat); ``seen`` and
    ``public_seen``: the last turn as this side and as every side may see it, to be
    written in a reader's language (:class:`SeenTurn`: ``last_turn``, ``replay`` and
    ``public_replay`` in any language; ``None`` before the first turn); ``tails``: for each plane of
    this side that plans and can tail an enemy this turn, the enemies it may tail,
    nearest first (DF.T1, DF.T3, DF.T5-DF.T7: public geometry; with two or more it picks
    one, :attr:`PlanAction.tail`); ``own_tails``: the tail choices of this side's
    locked plans (``(plane, target)``, hidden from other sides until the turn flies);
    ``flown``: at a second reveal (DF.T2), the turn so far as this side may see it
    (:meth:`SeenTurn.so_far` of :attr:`State.first_maneuver`: the turn's start and first
    maneuver, the planes after it and its firing), and ``public_flown``: as every side
    sees it; else ``None``."""

    seat: int
    side: str
    seat_sides: tuple[str, ...]
    turn: int
    turn_limit: int
    table: Table = field(repr=False)
    own_plans: tuple[tuple[str, tuple[str, ...]], ...]
    locked: tuple[str, ...]
    to_plan: str | None
    legal: tuple[PlanAction, ...] = field(repr=False)
    planning: tuple[str, ...]
    last_turn: tuple[str, ...] = field(repr=False)
    scores: tuple[tuple[str, int], ...]
    piles: tuple[tuple[str, int], ...]
    over: bool
    winner: str | None
    replay: dict | None = field(default=None, repr=False, hash=False)
    public_replay: dict | None = field(default=None, repr=False, hash=False)
    first_turn: int = 1
    end: str | None = None
    waiting: tuple[str, str] | None = None
    reorder: ChaserChoice | None = field(default=None, repr=False)
    seen: SeenTurn | None = field(default=None, repr=False, compare=False)
    public_seen: SeenTurn | None = field(default=None, repr=False, compare=False)
    tails: tuple[tuple[str, tuple[str, ...]], ...] = ()
    own_tails: tuple[tuple[str, str], ...] = ()
    flown: SeenTurn | None = field(default=None, repr=False, compare=False)
    public_flown: SeenTurn | None = field(default=None, repr=False, compare=False)

    def legal_actions(self) -> tuple[PlanAction, ...] | tuple[ReorderAction, ...]:
        return self.legal

    def actions(self) -> tuple[PlanAction, ...] | tuple[ReorderAction, ...]:
        """Every action the seat may take now, in the order of
        :meth:`State.legal_actions_for`: the legal plans of each plane of ``planning``
        (made when asked: a room's page needs them, a bot only :attr:`legal`), then
        those plans again with each tail choice of a plane that may tail two or more
        enemies (DF.T3), or the chaser's orders (:attr:`reorder`)."""
        if self.reorder is not None:
            return self.reorder.legal
        return tuple(a for name in self.planning
                     for a in (self.legal if name == self.to_plan else _plans_of(self.table, name))
                     ) + _with_tail_choices(self.table, self.planning, dict(self.tails))

    def as_json(self) -> dict:
        """The observation as JSON-ready data: ``seat``, ``side``, ``seat_sides``,
        ``turn``, ``turn_limit``, ``table`` (``width_mm``, ``height_mm``, ``planes``: the
        turn report's plane objects, with ``damage_taken`` ``null`` for other sides),
        ``own_plans`` (plane -> cards), ``locked``, ``to_plan``, ``legal`` (lists of card
        ids, in order), ``planning``, ``last_turn`` (lines), ``scores`` (side -> points),
        ``piles`` (letter -> cards left), ``over``, ``winner``, ``replay``, ``waiting``,
        ``reorder``, ``tails`` (plane -> enemies), ``own_tails`` (plane -> enemy),
        ``flown``."""
        planes = [seen_plane_json(p, p.side != self.side) for p in self.table.planes]
        return {"seat": self.seat, "side": self.side, "seat_sides": list(self.seat_sides), "turn": self.turn,
                "turn_limit": self.turn_limit,
                "table": {"name": self.table.name, "width_mm": self.table.width_mm,
                          "height_mm": self.table.height_mm, "planes": planes},
                "own_plans": {name: list(cards) for name, cards in self.own_plans}, "locked": list(self.locked),
                "to_plan": self.to_plan, "legal": [list(a.cards) for a in self.legal],
                "planning": list(self.planning),
                "last_turn": list(self.last_turn), "scores": dict(self.scores), "piles": dict(self.piles),
                "over": self.over, "winner": self.winner, "replay": self.replay,
                "waiting": None if self.waiting is None else {"chaser": self.waiting[0], "target": self.waiting[1]},
                "reorder": None if self.reorder is None else self.reorder.as_json(),
                "tails": {name: list(targets) for name, targets in self.tails}, "own_tails": dict(self.own_tails),
                "flown": None if self.flown is None else self.flown.so_far()}


@dataclass(frozen=True, init=False)
class State(FrozenState):
    """A position of a dogfight game (module docstring).

    ``table``: the table before the turn about to be played (its ``turn``), with the
    damage piles; ``policy``: the chasers' reorder policy (DF.T2); ``victory``;
    ``seats``: each seat's planes (names, table order); ``seat_sides``: each seat's side;
    ``locked``: ``(plane, cards)`` locked this turn, in locking order (hidden from other
    sides); ``last``: the last turn's :class:`~.turn.TurnResult` (``None`` before the
    first); ``over``: ``None`` or the :class:`EndReason`; ``first_turn``: the turn the
    game started at (a scenario may start at turn 3); ``reorder``: who orders a chaser's
    cards after a reveal (:class:`Reorder`); ``reorders``: ``(chaser, cards)``, the chasers' orders chosen
    this turn, in the order of the reveals (hidden from other sides); ``pending``: the
    reveal whose chaser the game waits for (:class:`~.policy.Situation`, or ``None``;
    module docstring); ``chosen_tails``: ``(plane, target)``, the tail choices (DF.T3)
    of the plans locked this turn that name one (hidden from other sides);
    ``first_maneuver``: at a second reveal, the turn's start and its first maneuver as
    they were flown (a :class:`~.turn.TurnResult` holding that maneuver only: what
    everyone has seen on the table, :attr:`Observation.flown`), else ``None``; ``seed``, ``step``,
    ``log_entries``, ``logging``: see :class:`~furball.scenarios.engine.frozen.FrozenState`.
    """

    table: Table = field(repr=False)
    policy: ReorderPolicy
    victory: Victory
    seats: tuple[tuple[str, ...], ...]
    seat_sides: tuple[str, ...]
    locked: tuple[tuple[str, tuple[str, ...]], ...]
    last: TurnResult | None = field(repr=False, compare=False)
    over: EndReason | None
    first_turn: int = 1
    reorder: Reorder = Reorder.POLICY
    reorders: tuple[tuple[str, tuple[str, ...]], ...] = ()
    pending: Situation | None = field(default=None, repr=False)
    chosen_tails: tuple[tuple[str, str], ...] = ()
    first_maneuver: TurnResult | None = field(default=None, repr=False, compare=False)

    # -- derived answers -----------------------------------------------------------------
    @cached_property
    def _planning(self) -> tuple[tuple[str, ...], ...]:
        """Per seat: its planes that plan this turn, those still to lock first (table
        order), then those locked (which may lock another plan). All empty once over."""
        if self.over is not None or self.pending is not None:
            return ((),) * len(self.seats)
        done = {name for name, _ in self.locked}
        planes = {p.name: p for p in self.table.planes}
        out = []
        for names in self.seats:
            plans = [n for n in names if needs_plan(planes[n])]
            out.append(tuple([n for n in plans if n not in done] + [n for n in plans if n in done]))
        return tuple(out)

    @cached_property
    def _next(self) -> tuple[int, str] | None:
        """The sequential presentation's seat to act and the plane it plans (or, waiting
        for a chaser, the chaser), or ``None``."""
        if self.pending is not None:
            return self._chaser_seat, self.pending.chaser.name
        done = {name for name, _ in self.locked}
        for seat, names in enumerate(self._planning):
            if names and names[0] not in done:
                return seat, names[0]
        return None  # pragma: no cover - a turn with nothing to decide is flown at once

    @cached_property
    def legal(self) -> tuple[PlanAction, ...] | tuple[ReorderAction, ...]:
        """The sequential presentation's actions: every legal plan of the next plane
        to lock (:meth:`current_player`'s), or the waited chaser's orders."""
        if self.choice is not None:
            return self.choice.legal
        if self._next is None:
            return ()
        return _plans_of(self.table, self._next[1])

    @cached_property
    def tails(self) -> dict[str, tuple[str, ...]]:
        """DF.T3 this turn: each plane that plans and can tail an enemy -> the enemies it
        may tail, nearest first (:func:`tail_choices`); empty once over."""
        return {} if self.over is not None else tail_choices(self.table)

    @cached_property
    def _chaser_seat(self) -> int:
        name = self.pending.chaser.name if self.pending is not None else None
        return next(seat for seat, names in enumerate(self.seats) if name in names)

    @cached_property
    def choice(self) -> ChaserChoice | None:
        """The waited chaser's choice (DF.T2; its seat's alone), or ``None``."""
        if self.pending is None:
            return None
        name = self.pending.chaser.name
        return ChaserChoice(self.pending, tuple(ReorderAction(name, order) for order in legal_orders(self.pending)),
                            self.policy)

    @cached_property
    def replays(self) -> dict[str, dict] | None:
        """The last turn for a page to replay (:func:`~.report.replay_json`), per side
        as that side may see it and under :data:`~.report.NOBODY` as every side sees
        it; ``None`` before the first turn."""
        if self.last is None:
            return None
        return {side: replay_json(self.last, side) for side in (*self.sides, NOBODY)}

    @cached_property
    def scores(self) -> dict[str, int]:
        """DF.V2 points of each side so far."""
        return side_scores(self.table.planes, self.sides, self.victory)

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides, in seat order, each once."""
        return tuple(dict.fromkeys(self.seat_sides))

    @cached_property
    def winner(self) -> str | None:
        """The winning side, :data:`DRAW`, or ``None`` while the game goes on."""
        if self.over is None:
            return None
        if self.over == EndReason.LAST_SIDE:
            flying = sides_flying(self.table.planes)
            return flying[0] if flying else DRAW
        best = max(self.scores.values())
        leaders = [s for s, v in self.scores.items() if v == best]
        return leaders[0] if len(leaders) == 1 else DRAW

    # -- the engine protocol ---------------------------------------------------------------
    def current_player(self) -> int | None:
        """The seat the sequential presentation of the simultaneous node asks now: the
        first seat, in seat order, with a plane whose plan is not locked yet (module
        docstring); ``None`` once the game is over."""
        return None if self._next is None else self._next[0]

    def legal_actions(self) -> tuple[PlanAction, ...]:
        """:meth:`current_player`'s actions: every legal plan of its next plane to lock."""
        return self.legal

    def current_players(self) -> tuple[int, ...]:
        """The seats that may act now (the simultaneous node, DF.M1): every seat with a
        plane that plans this turn, whether or not it has locked (a locked plan may be
        changed until the last plan locks); the chaser's seat alone while the game waits
        for its order (DF.T2); ``()`` once the game is over."""
        if self.pending is not None:
            return (self._chaser_seat,)
        return tuple(seat for seat, names in enumerate(self._planning) if names)

    def awaited_players(self) -> tuple[int, ...]:
        """The seats the turn waits for: those with a plane whose plan is not locked yet,
        in seat order (the first is :meth:`current_player`), or the waited chaser's seat
        (DF.T2); ``()`` once over."""
        if self.pending is not None:
            return (self._chaser_seat,)
        done = {name for name, _ in self.locked}
        return tuple(seat for seat, names in enumerate(self._planning) if names and names[0] not in done)

    def legal_actions_for(self, seat: int) -> tuple[PlanAction, ...]:
        """Every action seat ``seat`` may take now: the legal plans of each of its planes
        that plan this turn, those still to lock first (table order, so the first block
        is :attr:`Observation.legal`), then those locked (locking another plan changes
        it), each with no tail choice (the nearest enemy); then, for each of these planes
        that may tail two or more enemies (DF.T3), its plans again with each choice
        (:attr:`tails`' order); ``()`` for a seat not among :meth:`current_players`. Raises
        :class:`IndexError` for a seat the game does not have."""
        if not 0 <= seat < len(self.seats):
            raise IndexError(f"seat {seat}: expected 0 to {len(self.seats) - 1}")
        if self.choice is not None:
            return self.choice.legal if seat == self._chaser_seat else ()
        nxt = self._next[1] if self._next is not None else None
        return tuple(a for name in self._planning[seat]
                     for a in (self.legal if name == nxt else _plans_of(self.table, name))
                     ) + _with_tail_choices(self.table, self._planning[seat], self.tails)

    def as_searched(self) -> State | None:
        """The position as the search bots' adapters model it (:mod:`furball.scenarios.rl`):
        the chasers' orders made by the game's policy (``reorder="policy"``); ``None``
        while the game waits for a chaser, whose bot orders as the policy does."""
        if self.pending is not None:
            return None
        return self if self.reorder == Reorder.POLICY else self.replace(reorder=Reorder.POLICY)

    def seat_names(self) -> tuple[str, ...]:
        """Each seat named by its planes, as players know their seats at a table
        (``"SPAD, Nieuport"``): what a room's lobby, invitations and seat list show."""
        return tuple(", ".join(names) for names in self.seats)

    def seat_of(self, action: PlanAction | ReorderAction) -> int | None:
        """The seat whose action ``action`` is (the seat of its plane), or ``None``."""
        for seat, names in enumerate(self.seats):
            if getattr(action, "plane", None) in names:
                return seat
        return None

    def is_terminal(self) -> bool:
        return self.over is not None

    def returns(self) -> tuple[float, ...]:
        """Per seat: 1 if its side won, -1 if another side did, 0 for a draw or while
        the game goes on."""
        if self.winner is None or self.winner == DRAW:
            return (0.0,) * len(self.seats)
        return tuple(1.0 if side == self.winner else -1.0 for side in self.seat_sides)

    def explain(self, action: PlanAction | ReorderAction) -> Reason | None:
        """``None`` when ``action`` is legal now, else why not (DF.M1 for a plan, DF.T2
        for a chaser's order), in words made from what the acting seat sees."""
        if self.over is not None:
            return Reason("DF.V1", "the game is over: no more plans")
        if self.choice is not None:
            chaser, target = self.pending.chaser.name, self.pending.target.name
            if not isinstance(action, ReorderAction) or action.plane != chaser:
                return Reason("DF.T2", f"the game waits for {chaser}, who tails {target}, to order its cards; "
                                       f"got {str(action)[:60]!r}")
            if action not in self.choice.legal:
                return Reason("DF.T2", f"{chaser} may order only its remaining cards "
                                       f"({' '.join(self.pending.remaining)}) in a legal plan, got "
                                       f"{' '.join(action.cards)[:60]!r}")
            return None
        planning = [name for names in self._planning for name in names]
        if not isinstance(action, PlanAction) or action.plane not in planning:
            return Reason("DF.M1", f"expected a plan for a plane that plans this turn ({', '.join(planning)}), "
                                   f"got {str(action)[:60]!r}")
        problem = plan_problem(self.table.plane(action.plane), action.cards, None, self.table.rules)
        if problem is not None:
            return Reason(problem.rule, str(problem).removesuffix(f" ({problem.rule})"))
        return self._tail_problem(action)

    def _tail_problem(self, action: PlanAction) -> Reason | None:
        """Why ``action``'s tail choice is refused (DF.T3: an enemy it may tail at the
        start of this turn), or ``None``."""
        if action.tail is None:
            return None
        options = self.tails.get(action.plane, ())
        if action.tail in options:
            return None
        may = f"may tail only {', '.join(options)}" if options else "may tail no enemy"
        return Reason("DF.T3", f"{action.plane} {may} at the start of this turn, got {str(action.tail)[:40]!r}")

    def apply(self, action: PlanAction | ReorderAction) -> State:
        """Lock ``action``'s plan, whichever seat's plane it names (a plan locked before
        for that plane this turn is replaced); the last plan of the turn also flies it,
        up to the first reveal whose chaser chooses (``reorder="chaser"``). While the
        game waits for a chaser, ``action`` is that chaser's order (DF.T2), and the turn
        flies on. Raises :class:`IllegalAction` (nothing changes) for anything else
        (:meth:`explain`: its rule and why)."""
        if self.over is not None:
            raise IllegalAction("the game is over: no more plans")
        if self.choice is not None:
            reason = self.explain(action)
            if reason is not None:
                raise IllegalAction(str(reason), reason.rule)
            work = Work(self)
            work.order(action)
            return work.freeze()
        planning = [name for names in self._planning for name in names]
        if not isinstance(action, PlanAction) or action.plane not in planning:
            raise IllegalAction(f"DF.M1: expected a plan for a plane that plans this turn "
                                f"({', '.join(planning)}), got {str(action)[:60]!r}")
        problem = plan_problem(self.table.plane(action.plane), action.cards, None, self.table.rules)
        if problem is not None:
            raise IllegalAction(f"{problem}")
        tail = self._tail_problem(action)
        if tail is not None:
            raise IllegalAction(str(tail), tail.rule)
        work = Work(self)
        work.lock(action)
        return work.freeze()

    def describe(self, action: PlanAction | ReorderAction) -> str:
        """``action`` in English words (:meth:`describe_entry` rendered)."""
        return render_entry(*self.describe_entry(action))

    def describe_entry(self, action: PlanAction | ReorderAction) -> tuple[str, tuple]:
        """``action`` as a log entry (``(template, args)``): the plane and its cards
        (ids, as printed on the cards), a chaser's order kept or changed (DF.T2)."""
        plane, cards = Phrase(_name, action.plane), Phrase(_card_ids, action.cards)
        if isinstance(action, ReorderAction):
            if self.choice is not None and action.cards == self.pending.remaining:
                return N_("{} keeps its order: {}"), (plane, cards)
            return N_("{} reorders: {}"), (plane, cards)
        if action.tail is not None:
            return N_("{} flies {}, tailing {} (DF.T3)"), (plane, cards, Phrase(_name, action.tail))
        return N_("{} flies {}"), (plane, cards)

    def take_back(self, action: PlanAction) -> TakeBack:
        """Whether ``action`` may be taken back (a room's undo request,
        :class:`~furball.scenarios.engine.protocol.TakesBack`): locking a plane's first
        plan of the turn draws and reveals nothing and every side sees that the plane has
        locked (``OPEN``); changing a locked plan is hidden from the other sides
        (``HIDDEN``); the last plan of the turn flies it, drawing damage and revealing
        every plan (``NEVER``, DF.M1); a chaser's order (DF.T2) comes after a card was
        revealed to it (``NEVER``)."""
        if not isinstance(action, PlanAction):
            return TakeBack.NEVER
        done = {name for name, _ in self.locked}
        planning = {name for names in self._planning for name in names}
        if not planning - done - {getattr(action, "plane", None)}:
            return TakeBack.NEVER
        return TakeBack.HIDDEN if action.plane in done else TakeBack.OPEN

    def events_for(self, player: int | None) -> tuple[str, ...]:
        """The log lines of the transition that made this state (:attr:`events`) as seat
        ``player`` may see them (``None``: what every side sees), in English:
        :meth:`entries_for` rendered. :attr:`events` is the referee's log (``furball
        play dogfight``); a room sends each seat these lines instead, in its reader's
        language."""
        return tuple(render_entry(template, args) for template, args in self.entries_for(player))

    def entries_for(self, player: int | None) -> tuple[tuple[str, tuple], ...]:
        """:meth:`events_for` as log entries (``(template, args)``, read in any language
        by :func:`~furball.i18n.render_entry`): each flown turn's report as its side may
        see it (:func:`~.report.turn_lines` with ``viewer``: other sides' damage card
        values and hidden specials, and the DF.T2 reveals of other sides' chasers, left
        out), each line :class:`Written` in every language when the turn is flown. The
        lines of plans locked or changed are left out: the planning phase is
        simultaneous, and who has locked is public in the observations
        (:attr:`Observation.locked`), so another seat's lock gives a seat no log line (a
        room's view version of a seat moves only with what that seat reads, and one
        seat's lock never makes another's choice stale); a chaser's order too (whether it
        reordered is its side's alone)."""
        viewer = NOBODY if player is None else self.seat_sides[player]
        out: list[tuple[str, tuple]] = []
        shown: set[int] = set()
        for template, args in self.log_entries:
            if template in (LOCK_LINE, CHANGE_LINE, ORDER_LINE):
                continue
            if len(args) == 1 and isinstance(args[0], ReportLine):
                result = args[0].result
                if id(result) not in shown:
                    shown.add(id(result))
                    written = {lang: turn_lines(result, header=False, viewer=viewer, lang=lang) for lang in Lang}
                    out += [("{}", (Written(tuple((lang, written[lang][k]) for lang in Lang)),))
                            for k in range(len(written[DEFAULT_LANG]))]
                continue
            out.append((template, args))
        return tuple(out)

    def observation(self, player: int) -> Observation:
        """What seat ``player`` may see (:class:`Observation`)."""
        side = self.seat_sides[player]
        mine = {p.name for p in self.table.planes if p.side == side}
        done = {name for name, _ in self.locked}
        planning = self._planning[player]
        to_plan = planning[0] if planning and planning[0] not in done else None
        last = () if self.last is None else tuple(turn_lines(self.last, header=False, viewer=side))
        return Observation(
            seat=player, side=side, seat_sides=self.seat_sides, turn=self.table.turn,
            turn_limit=self.victory.turn_limit, table=public_table(self.table, side),
            own_plans=tuple((n, c) for n, c in self.locked if n in mine),
            locked=tuple(n for n, _ in self.locked), to_plan=to_plan,
            legal=self.choice.legal if self.choice is not None and player == self._chaser_seat else
            self.legal if self._next is not None and to_plan == self._next[1] else
            _plans_of(self.table, to_plan) if to_plan else (), planning=planning, last_turn=last, scores=tuple(self.scores.items()),
            piles=tuple((d.letter, len(self.table.pile(d.letter) or ())) for d in self.table.damage_decks),
            over=self.over is not None, winner=self.winner,
            replay=None if self.replays is None else self.replays[side],
            public_replay=None if self.replays is None else self.replays[NOBODY],
            first_turn=self.first_turn, end=None if self.over is None else str(self.over),
            waiting=None if self.pending is None else (self.pending.chaser.name, self.pending.target.name),
            reorder=self.choice if self.choice is not None and player == self._chaser_seat else None,
            seen=None if self.last is None else SeenTurn(self.last, side),
            public_seen=None if self.last is None else SeenTurn(self.last, NOBODY),
            tails=tuple((n, t) for n, t in self.tails.items() if n in mine),
            own_tails=tuple((n, t) for n, t in self.chosen_tails if n in mine),
            flown=None if self.first_maneuver is None else SeenTurn(self.first_maneuver, side),
            public_flown=None if self.first_maneuver is None else SeenTurn(self.first_maneuver, NOBODY))

    def observation_string(self, player: int) -> str:
        o = self.observation(player)
        lines = [f'"{o.table.name}": turn {o.turn} of {o.turn_limit}; you are P{player + 1} ({o.side})']
        lines += [plane_line(p, p.side != o.side) for p in o.table.planes]
        lines.append("points (DF.V2): " + ", ".join(f"{s} {v}" for s, v in o.scores))
        if o.last_turn:
            lines += ["last turn:", *o.last_turn]
        lines += [f"your plan for {n}: {' '.join(c)}" for n, c in o.own_plans]
        if o.reorder is not None:
            s = o.reorder.situation
            lines.append(f"{s.target.name} shows you its next card, {s.shown} (maneuver {s.maneuver}): order the "
                         f"remaining cards of {s.chaser.name} ({' '.join(s.remaining)}; DF.T2)")
        elif o.waiting is not None:
            lines.append(f"waiting for {o.waiting[0]}, who tails {o.waiting[1]}, to order its cards (DF.T2)")
        if o.to_plan:
            lines.append(f"plan the three cards of {o.to_plan} ({len(o.legal)} legal plans)")
        return "\n".join(lines)

    def outcome(self) -> tuple[str, ...]:
        """The end in English lines (:meth:`outcome_entries` rendered)."""
        return tuple(render_entry(template, args) for template, args in self.outcome_entries())

    def outcome_entries(self) -> tuple[tuple[str, tuple], ...]:
        """The end as log entries (``(template, args)``, DF.V1, DF.V2): the turns played
        and why, the planes lost, the points and the winner (a side's name, or the
        word for a draw); ``the game is not over`` while it goes on."""
        if self.over is None:
            return ((N_("the game is not over"), ()),)
        points = Phrase(_name, ", ".join(f"{s} {v}" for s, v in self.scores.items()))
        names = ", ".join(p.name for p in self.table.planes if p.lost and p.kind == PlaneKind.PLANE)
        lost: Any = Phrase(_name, names) if names else msg("none")
        if self.over == EndReason.LAST_SIDE:
            why = msg("at most one side has planes flying (DF.V1)")
        else:
            why = msg("turn limit {turn_limit} reached (DF.V2)", turn_limit=self.victory.turn_limit)
        winner: Any = msg("draw") if self.winner == DRAW else Phrase(_name, self.winner)
        return ((N_("game over after {} turns: {}"), (self.table.turn - 1, why)), (N_("planes lost: {}"), (lost,)),
                (N_("points (DF.V2): {}"), (points,)), (N_("winner: {}"), (winner,)))

    def result(self) -> dict[str, Any]:
        """One row: ``winner`` (the winning seat ``P1``.. of a side-seat game — with
        plane seats, the first seat of the winning side — or ``draw``), ``winning_side``,
        ``end`` (:class:`EndReason`), ``turns`` played, and per seat ``points_P<n>``
        (its side's DF.V2 points) and ``lost_P<n>`` (its planes lost)."""
        winner = self.winner or ""
        seat = next((f"P{i + 1}" for i, s in enumerate(self.seat_sides) if s == winner), DRAW if winner else "")
        row: dict[str, Any] = {"winner": seat, "winning_side": winner, "end": str(self.over or ""),
                               "turns": self.table.turn - 1}
        planes = {p.name: p for p in self.table.planes}
        for i, (names, side) in enumerate(zip(self.seats, self.seat_sides)):
            row[f"points_P{i + 1}"] = self.scores[side]
            row[f"lost_P{i + 1}"] = sum(planes[n].lost for n in names)
        return row

    def scenario(self) -> Scenario:
        """The position as a scenario (its table, seed, policy and victory, no orders):
        ``scenario_toml`` writes it, and a game started from it with the same seed
        plays on identically (between turns; plans locked this turn are not kept)."""
        return Scenario(self.table, {}, self.policy, self.seed, victory=self.victory)


class Work(Draft):
    """The working copy of a dogfight :class:`State` while one plan is locked (and, with
    the last one, the turn flown)."""

    LISTS = ("locked",)

    def order(self, action: ReorderAction) -> None:
        """The waited chaser's order (DF.T2), then the turn flies on."""
        self.reorders = (*self.reorders, (action.plane, action.cards))
        self.log(ORDER_LINE, action.plane)
        self.fly_turns()

    def lock(self, action: PlanAction) -> None:
        """Lock ``action``'s plan; a plan locked before for its plane is replaced in its
        place (the order of first locks stays)."""
        before = next((i for i, (name, _) in enumerate(self.locked) if name == action.plane), None)
        if before is None:
            self.locked.append((action.plane, action.cards))
            self.log(LOCK_LINE, action.plane)
        else:
            self.locked[before] = (action.plane, action.cards)
            self.log(CHANGE_LINE, action.plane)
        self.chosen_tails = tuple((name, target) for name, target in self.chosen_tails if name != action.plane) + (
            () if action.tail is None else ((action.plane, action.tail),))
        if all_locked(self.table, self.locked):
            self.fly_turns()

    def _first_maneuver(self) -> TurnResult:
        """The turn's start and first maneuver as flown (:attr:`State.first_maneuver`):
        the first maneuver depends on no choice still to come (its draws come first), so
        the turn is flown with the orders chosen so far, every later order kept, and only
        its first maneuver is kept."""
        result = adjudicate(self.table, turn_orders(self.table, self.locked, self.chosen_tails), seed=self.seed,
                            policy=self.policy, samples=False, chooser=_Recorded(self.reorders, then_keep=True))
        return dataclasses.replace(result, maneuvers=result.maneuvers[:1])

    def fly_turns(self) -> None:
        """Fly the turn with the locked plans, then every turn where nobody decides,
        until a seat has to plan, a chaser to choose (``reorder="chaser"``: the turn is
        flown again with the orders chosen so far, up to the first reveal without one)
        or the game ends (DF.V1, DF.V2)."""
        while True:
            chooser = _Recorded(self.reorders) if self.reorder == Reorder.CHASER else None
            try:
                result = adjudicate(self.table, turn_orders(self.table, self.locked, self.chosen_tails),
                                    seed=self.seed, policy=self.policy, samples=False, chooser=chooser)
            except _ChoiceNeeded as need:
                s = need.situation
                self.pending = s
                self.first_maneuver = self._first_maneuver() if s.maneuver > 1 else None
                self.log(LOOK_LINE, s.maneuver, s.target.name, s.chaser.name)
                return
            self.pending, self.reorders, self.chosen_tails, self.first_maneuver = None, (), (), None
            if self.logging:
                self.log("Turn {}", result.before.turn)
                for k, line in enumerate(turn_lines(result, header=False)):
                    self.log("{}", ReportLine(line, result, k))
            self.table, self.last, self.locked = result.after, result, []
            self.over = ending(self.table, self.victory)
            if self.over is not None or not all_locked(self.table, self.locked):
                return


def turn_orders(table: Table, locked, chosen_tails) -> dict[str, Orders]:
    """The orders :func:`~.turn.adjudicate` flies: each locked plan with its tail choice
    (DF.T3; none: the nearest), in table order."""
    given, tails = dict(locked), dict(chosen_tails)
    return {p.name: Orders(given[p.name], tail=tails.get(p.name)) for p in table.planes if p.name in given}


def _card_ids(_, cards: tuple[str, ...]) -> str:
    """Card ids joined as an action's text writes them (ids are not words: the same in
    every language)."""
    return ", ".join(cards)


def all_locked(table: Table, locked) -> bool:
    """Every plane that plans this turn has its plan locked."""
    done = {name for name, _ in locked}
    return all(p.name in done for p in table.planes if needs_plan(p))


def ending(table: Table, victory: Victory) -> EndReason | None:
    """Whether the game is over before ``table.turn`` (DF.V1, then DF.V2)."""
    if len(sides_flying(table.planes)) <= 1:
        return EndReason.LAST_SIDE
    if table.turn > victory.turn_limit:
        return EndReason.TURN_LIMIT
    return None


def _seats(table: Table, seats: Seats) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    if seats == Seats.SIDES:
        sides = tuple(dict.fromkeys(p.side for p in table.planes))
        return tuple(tuple(p.name for p in table.planes if p.side == s) for s in sides), sides
    planners = [p for p in table.planes if needs_plan(p)]
    rest = [p for p in table.planes if not needs_plan(p)]
    seat_of = [(p.name,) for p in planners]
    sides = [p.side for p in planners]
    for p in rest:  # autonomous planes and balloons ride with the first seat of their side
        if p.side in sides:
            i = sides.index(p.side)
            seat_of[i] = seat_of[i] + (p.name,)
        else:
            seat_of.append((p.name,))
            sides.append(p.side)
    return tuple(seat_of), tuple(sides)


def _with_options(table: Table, seats: tuple[tuple[str, ...], ...], altitude: int | None, decks: str | None,
                  swap_start: bool) -> Table:
    """The scenario's table with the game's options applied (:func:`new_game`)."""
    planes = {p.name: p for p in table.planes}
    if altitude is not None:
        if not 1 <= altitude <= table.rules.max_altitude:
            raise InputError(f"option altitude: expected 1 to {table.rules.max_altitude} (DF.H2), got {altitude}")
        planes = {n: p.replace(altitude=altitude) if p.kind == PlaneKind.PLANE else p for n, p in planes.items()}
    if decks is not None:
        letters = decks.split(":")
        if len(letters) not in (1, len(seats)):
            raise InputError(f"option decks: expected one deck or {len(seats)} joined by ':' (one per seat), "
                             f"got {decks[:40]!r}")
        letters = letters * len(seats) if len(letters) == 1 else letters
        for names, letter in zip(seats, letters):
            deck = find_deck(letter)
            for n in names:
                p = planes[n]
                if p.kind == PlaneKind.PLANE:
                    planes[n] = p.replace(deck=deck, base=None, last_card=None,
                                      autonomous=p.autonomous and deck.autonomous is not None)
    if swap_start:
        if len(seats) < 2:
            raise InputError("option swap_start: expected at least two seats")
        a, b = planes[seats[0][0]], planes[seats[1][0]]
        planes[a.name] = a.replace(pose=b.pose, altitude=b.altitude, climb_counters=b.climb_counters)
        planes[b.name] = b.replace(pose=a.pose, altitude=a.altitude, climb_counters=a.climb_counters)
    return table.replace(planes=tuple(planes[p.name] for p in table.planes))


def _name(_, text: str) -> str:
    """A name (a scenario's title, a side, planes, deck letters): the same in every
    language (docs/i18n.md), never read through the catalog."""
    return text


def _word(_, text: str) -> str:
    """A word the catalog translates (a reorder policy, a provenance)."""
    return _(text)


def _words(_, words: tuple[str, ...]) -> str:
    return ", ".join(_(w) for w in words)


def new_game(seed: int, scenario: Scenario | str | None = None, seats: Seats | str = Seats.SIDES,
             policy: ReorderPolicy | str | None = None, turn_limit: int | None = None, altitude: int | None = None,
             decks: str | None = None, swap_start: bool = False, reorder: Reorder | str = Reorder.POLICY) -> State:
    """A new game of ``scenario`` (a :class:`Scenario`, a file or a shipped name;
    default ``"duel"``) from ``seed`` (module docstring). Options: ``seats`` (sides or
    planes); ``policy``: the chasers' reorder policy (default: the scenario's); the
    ``turn_limit`` (default: the scenario's ``[victory]``); every plane's starting
    ``altitude`` (1-3, DF.H2); ``decks``: the maneuver deck of every seat's planes,
    one name or one per seat joined by ``:`` (e.g. ``"A:M"``; each plane then flies on
    that deck's base); ``swap_start``: the first planes of seats 1 and 2 swap places
    and altitudes (who starts tailing); ``reorder``: who orders a chaser's cards after
    a reveal, the ``policy`` (default) or the ``chaser``'s seat (DF.T2, module
    docstring). Raises :class:`InputError`."""
    from numbers import Integral

    if isinstance(seed, bool) or not isinstance(seed, Integral) or seed < 0:
        raise InputError(f"seed: expected an integer >= 0, got {seed!r:.40}")
    seed = int(seed)
    try:
        reorder = Reorder(reorder)
    except ValueError:
        raise InputError(f"option reorder: expected one of {', '.join(r.value for r in Reorder)}, "
                         f"got {reorder!r:.40}") from None
    if scenario is None or isinstance(scenario, str):
        scenario = load_scenario(scenario or "duel")
    seats = Seats(seats)
    table = scenario.table
    seat_planes, seat_sides = _seats(table, seats)
    if len(set(seat_sides)) < 2:
        raise InputError(f"scenario '{table.name}': expected planes of at least two sides (a game needs enemies)")
    table = _with_options(table, seat_planes, altitude, decks, swap_start)
    victory = scenario.victory if turn_limit is None else Victory(turn_limit, scenario.victory.plane_points)
    rng = step_rng(seed, 0)
    piles = dict(table.piles)
    for d in table.damage_decks:
        if d.letter not in piles:
            piles[d.letter] = tuple(int(n) + 1 for n in rng.permutation(len(d)))
    table = table.replace(piles=piles)
    policy = scenario.policy if policy is None else ReorderPolicy(policy)
    if reorder == Reorder.POLICY:
        who = msg("reorder policy {policy}", policy=Phrase(_word, str(policy)))
    else:
        who = msg("the chasers reorder (DF.T2)")
    entries = [(N_('dogfight "{}", turn {} ({}; turn limit {})'), (Phrase(_name, table.name), table.turn, who,
                                                             victory.turn_limit)),
               *((N_("  P{}: {}: {}"), (i + 1, Phrase(_name, side), Phrase(_name, ", ".join(names))))
                 for i, (side, names) in enumerate(zip(seat_sides, seat_planes))),
               (N_("  damage decks {} ({}), piles shuffled from the seed"),
                (Phrase(_name, ", ".join(d.letter for d in table.damage_decks)),
                 Phrase(_words, tuple(sorted({d.provenance for d in table.damage_decks})))))]
    state = State(seed=seed, step=1, table=table, policy=policy, victory=victory, seats=seat_planes,
                  seat_sides=seat_sides, locked=(), last=None, over=ending(table, victory), first_turn=table.turn,
                  reorder=reorder, log_entries=tuple(entries))
    if state.over is None and all_locked(table, ()):  # nobody plans: the turns fly themselves
        work = Work(state)
        work.fly_turns()
        flown = work.freeze(step=1)
        state = flown.replace(log_entries=state.log_entries + flown.log_entries)
    return state
