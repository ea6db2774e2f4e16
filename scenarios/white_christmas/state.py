"""The game state of 1975 White Christmas: an immutable value with the engine protocol
of :mod:`scenarios.engine` (``legal_actions()``, ``apply()``, ``observation(player)`` …).

A :class:`State` is a frozen dataclass built the one way every engine builds its states
(:mod:`furball.scenarios.engine.frozen`). ``apply`` never mutates it: it resolves the
action on a :class:`~.work.Work` draft and freezes the result into a new state. An action
not in :meth:`State.legal_actions` raises :class:`IllegalAction` and the state is
unchanged. Randomness: set-up draws from ``step_rng(seed, 0)`` and the transition out of
a state of step ``n`` from ``step_rng(seed, n)`` (numpy's ``default_rng([seed, n])``),
made only when a draw is needed, so the same seed gives the same game and the same log,
byte for byte.

Hidden information (WC.F2 Inspect, WC.F4 sealed bids): :meth:`State.observation` gives
a seat the public table and its own :class:`~.values.SidePrivate` only; other sides'
hands, radar values, special orders, inspected staircases and bids appear as counts.
The answers an observation carries (its legal actions, :class:`~.options.Queries`) are
made from public values and the seat's own.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from furball.i18n import N_, render_entry

from ..engine.frozen import FrozenState, FrozenValue
from ..engine.menu import ListedMenu
from ..engine.protocol import Reason
from . import turns
from .actions import PHASE_NUMBER, Action, ActionKind, IllegalAction, Phase, Stairs
from .components import MODELS, PEOPLE, ROW, words
from .options import Queries
from .table import Layout
from .values import Board, Setup, SidePrivate, SidePublic

__all__ = ["State", "Observation", "IllegalAction"]


@dataclass(frozen=True, init=False)
class Observation(FrozenValue):
    """What ``seat`` may see: the public ``setup``, ``table`` (board graph and its
    answers), ``board`` and ``sides``, its own private values ``own`` and its ``legal``
    actions (empty when another seat decides). Bots choose from this only; its
    :attr:`queries` answer the position's public questions."""

    seat: int
    setup: Setup = field(repr=False)
    table: Layout = field(repr=False, compare=False)
    board: Board
    sides: tuple[SidePublic, ...]
    own: SidePrivate
    legal: tuple[Action, ...]

    @property
    def me(self) -> SidePublic:
        return self.sides[self.seat]

    @cached_property
    def queries(self) -> Queries:
        """The position's public questions (:class:`~.options.Queries`), made from this
        observation's public values when a bot first asks."""
        return Queries(self.setup.comp, self.table, self.sides, self.board.roofs, self.board.stairs)

    def legal_actions(self) -> tuple[Action, ...]:
        return self.legal


@dataclass(frozen=True, init=False)
class State(FrozenState, ListedMenu[Action]):
    """A position (see the module docstring).

    Public: ``setup``, ``table``, ``board``, ``sides``. Private to each side:
    ``private``. Hidden from all: ``deck`` (the action deck, top first),
    ``stairs_deck`` / ``stairs_used`` (staircase deck and discards), ``stairs_down``
    (this round's face-down staircase card per rooftop), ``radar_supply`` (face-down
    token values), ``sightings`` (the sighting deck, top first; the Cessna follows),
    ``orders_deck``. ``seed``, ``step``, ``log_entries`` and ``logging``: see
    :class:`~furball.scenarios.engine.frozen.FrozenState`.
    """

    setup: Setup = field(repr=False)
    table: Layout = field(repr=False, compare=False)
    board: Board
    sides: tuple[SidePublic, ...]
    private: tuple[SidePrivate, ...]
    deck: tuple[int, ...]
    stairs_deck: tuple[int, ...]
    stairs_used: tuple[int, ...]
    stairs_down: tuple[int, ...]
    radar_supply: tuple[int, ...]
    sightings: tuple[int, ...]
    orders_deck: tuple[int, ...]

    # -- derived answers (computed on first use, kept by this state) ----------------
    @cached_property
    def current(self) -> int | None:
        """The seat to decide: the first open question's side, else the side on turn
        (:func:`~.flow.on_turn`); ``None`` once the game is over."""
        b = self.board
        if b.pending:
            return b.pending[0].side
        if b.over:
            return None
        return b.order[b.turn] if b.phase is Phase.SIGHTING else b.order[b.turn % len(b.order)]

    @cached_property
    def legal(self) -> tuple[Action, ...]:
        """Every legal action of the seat to decide, in a fixed order."""
        return turns.legal_actions(self)

    # -- the engine protocol (scenarios.engine) ---------------------------------------
    def current_player(self) -> int | None:
        """The seat to decide (Captain Chambers never is: he plays inside ``apply``),
        or ``None`` once the game is over."""
        return self.current

    def explain(self, action: Action) -> Reason | None:
        """``None`` when ``action`` is legal now, else the rule it breaks and why
        (:class:`~furball.scenarios.engine.protocol.Explains`)."""
        return turns.explain(self, action)

    def apply(self, action: Action) -> State:
        """The state after ``action``. Raises :class:`IllegalAction` if it is not legal."""
        return turns.apply(self, action)

    def is_terminal(self) -> bool:
        return self.board.over

    def returns(self) -> tuple[float, ...]:
        """Each seat's VP (final once the game is over; the score track until then)."""
        return tuple(float(self.sides[i].vp) for i in range(self.setup.seats))

    def observation(self, player: int) -> Observation:
        """What seat ``player`` may see (see :class:`Observation`)."""
        return Observation.from_fields({
            "seat": player, "setup": self.setup, "table": self.table, "board": self.board, "sides": self.sides,
            "own": self.private[player], "legal": self.legal if self.current == player else ()})

    def describe(self, action: Action) -> str:
        """``action`` in words, for the seat that takes it (a bid names the token's value)."""
        return turns.describe(self, action)

    def describe_entry(self, action: Action) -> tuple[str, tuple]:
        """:meth:`describe` as a log entry ``(template, args)``, for a reader's language."""
        return turns.describe_entry(self, action)

    def public_describe(self, action: Action) -> str | None:
        """``action`` as every seat may know it when it is taken (WC.F4: a bid stays face
        down until all are revealed): ``None`` for a radar token put into the sealed bid or
        the bid sealed (the log then says only how many tokens), else :meth:`describe`."""
        if action.kind in (ActionKind.BID, ActionKind.SEAL):
            return None
        return turns.describe(self, action)

    def outcome(self) -> tuple[str, ...]:
        """The final scores and the winner (WC.F7)."""
        return tuple(render_entry(template, args) for template, args in self.outcome_entries())

    def outcome_entries(self) -> tuple[tuple[str, tuple], ...]:
        """:meth:`outcome` as log entries ``(template, args)``, for a reader's language."""
        if not self.board.over:
            return ((N_("the game is not over"), ()),)
        labels = self.setup.labels
        order = sorted(range(len(self.sides)), key=lambda i: (-self.sides[i].vp, self.board.order.index(i)))
        return ((N_("final score: {}"), (", ".join(f"{labels[i]} {self.sides[i].vp}" for i in order),)),
                (N_("winner: {}"), (labels[self.board.winner],)))

    def result(self) -> dict[str, Any]:
        """One flat row: ``players`` (seats), ``solo``, ``winner`` (a side's label),
        ``vp_<label>`` for every side, ``margin`` (the winner's lead in VP), ``rescued``
        (People unloaded by all sides) and ``empty_stairs`` (staircase spaces left empty
        because the supply lacked their type, WC.G2)."""
        labels = self.setup.labels
        vps = [s.vp for s in self.sides]
        winner = self.board.winner
        row: dict[str, Any] = {"players": self.setup.seats, "solo": self.setup.solo,
                               "winner": labels[winner] if winner is not None else ""}
        for label, vp in zip(labels, vps):
            row[f"vp_{label}"] = vp
        rest = [v for i, v in enumerate(vps) if i != winner]
        row["margin"] = (vps[winner] - max(rest)) if winner is not None and rest else 0
        row["rescued"] = sum(s.rescued for s in self.sides)
        row["empty_stairs"] = self.board.empty_stairs
        return row

    def observation_string(self, player: int) -> str:
        """The observation of seat ``player`` as text (the terminal view)."""
        return render(self.observation(player))


# -- text ---------------------------------------------------------------------------------
def _people(people) -> str:
    return ", ".join(people) or "-"


def _heli_text(o: Observation, side: int, i: int) -> str:
    s = o.sides[side]
    comp = o.setup.comp
    card = comp.helicopters[i].side(s.night[i])
    where = "carrier" if s.at[i] == o.table.carriers[side] else s.at[i]
    vp = " ".join(f"{p[:3]}={v}" for p, v in card.vp)
    return (f"{MODELS[i]} {'night' if s.night[i] else 'day'} (cap {card.capacity}; {vp}) at {where} "
            f"[{_people(s.aboard[i])}]")


def render(o: Observation) -> str:
    """An observation as text: the row of rooftops, the board, every side, then the
    seat's own hand, tokens, orders and inspected staircases, and the open question."""
    setup, b, comp = o.setup, o.board, o.setup.comp
    labels = setup.labels
    lines = [f"Round {b.round}, phase {PHASE_NUMBER[b.phase]} ({b.phase}); turn order "
             f"{', '.join(labels[i] for i in b.order)}; you are {labels[o.seat]} ({setup.colours[o.seat].name})"]
    sighting = comp.cessna.name if b.sighting is None else comp.sightings[b.sighting].label()
    lines.append(f"Sighting: {sighting}")
    occupant = {}
    for side, s in enumerate(o.sides):
        for i, node in enumerate(s.at):
            occupant[node] = f"{labels[side]} {MODELS[i]} [{_people(s.aboard[i])}]"
    lines.append("Rooftops, left to right:")
    for k, roof in enumerate(o.table.roofs):
        if b.stairs_state == Stairs.REVEALED:
            stairs = f"staircase: {_people(b.stairs[k])}"
        else:
            stairs = "staircase: face down" if b.stairs_state == Stairs.FACE_DOWN else "no staircase"
        top, bottom = o.table.slots[k][1], o.table.slots[k][0]
        lines.append(f"  {k + 1}. {roof} ({o.table.spaces[k]} spaces): {_people(b.roofs[k])} | {stairs} | "
                     f"top {occupant.get(top, '-')} | bottom {occupant.get(bottom, '-')}")
    row = ", ".join(f"{words(slot)}: {comp.cards[c].name if c is not None else '-'}" for slot, c in zip(ROW, b.row))
    lines.append(f"Action row: {row}; deck {b.deck}, discard {len(b.discard)}")
    lines.append("Special orders: " + ("; ".join(comp.orders[i].label() for i in b.orders_row) or "-") +
                 f" (deck {b.orders_left})")
    lines.append("Supply: " + ", ".join(f"{p} {n}" for p, n in zip(PEOPLE, b.supply)) +
                 f"; discarded {sum(b.discarded)}; radar tokens in supply {b.radar_left}")
    for side, s in enumerate(o.sides):
        ups = ",".join(str(i + 1) for i, u in enumerate(s.upgrades) if u) or "-"
        face = comp.cards[s.faceup].name if s.faceup is not None else "-"
        bid = f", bid {s.bid} token(s)" if s.bid is not None else ""
        extras = f", sighting actions kept: {', '.join(map(words, s.extras))}" if s.extras else ""
        lines.append(f"  {labels[side]} ({setup.colours[side].name}): VP {s.vp}, influence {s.influence}, hand {s.hand}, "
                     f"radar {s.radar}, orders {s.orders}, upgrades {ups}, face up: {face}{bid}{extras}")
        lines.append(f"     carrier ({len(s.carrier)}/{s.spaces}): {_people(s.carrier)}; "
                     + "; ".join(_heli_text(o, side, i) for i in range(len(MODELS))))
    own = o.own
    lines.append(f"Your hand: {'; '.join(comp.cards[c].name for c in own.hand) or '-'}")
    lines.append(f"Your radar tokens: {' '.join(map(str, own.radar)) or '-'}"
                 + (f"; in your bid: {' '.join(map(str, own.bid))}" if own.bid else ""))
    if own.orders:
        lines.append("Your special orders: " + "; ".join(comp.orders[i].label() for i in own.orders))
    for k, card in own.inspected:
        lines.append(f"You inspected the staircase of {o.table.roofs[k]}: {_people(comp.staircases[card].people)}")
    if b.pending and b.pending[0].side == o.seat:
        front = b.pending[0]
        lines.append(f"Asked: {words(front.ask)}" + (f" ({front.why})" if front.why else ""))
    elif b.phase == Phase.SIGHTING and not b.over:
        lines.append("Sealed bid: add radar tokens one by one, then seal")
    return "\n".join(lines)
