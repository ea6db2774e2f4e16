"""The game state of Operation Canuck: an immutable value with ``legal_actions()`` and
``apply(action)`` (CN.S*, CN.P1).

A :class:`State` is a frozen dataclass built the one way every engine builds its states
(:mod:`furball.scenarios.engine.frozen`). ``apply`` never mutates it: it resolves the
action on a :class:`~.work.Work` draft and freezes the result into a new
:class:`State`. An action not in :meth:`State.legal_actions` (the listed menu,
:class:`~furball.scenarios.engine.menu.ListedMenu`) raises :class:`IllegalAction` (an
:class:`~furball.errors.InputError`) and the state is unchanged.

Randomness is reproducible: set-up draws from ``step_rng(seed, 0)`` and the transition
out of a state of step ``n`` from ``step_rng(seed, n)`` (numpy's
``default_rng([seed, n])``), only when it needs one.

Cards are ints 0..51 (:mod:`scenarios.canuck.cards`). Areas are indices into
``state.board.areas``; every per-area tuple (``garrison``, ``groups``, ``leaders``,
``bases``) is indexed the same way. A garrison strength of 0 means "no die".
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from furball.errors import InputError
from furball.i18n import N_, Message, msg, render_entry

from ..engine.frozen import FrozenState, step_rng
from ..engine.menu import ListedMenu
from ..engine.protocol import Reason, TakeBack
from . import operations
from .actions import (
    ALBA_LIBERATED_VP,
    ALBA_ONCE_VP,
    BAND_FLOORS,
    BASES,
    DEFAULT_STACK,
    DIE_FACES,
    END_REASONS,
    GROUPS,
    LEADERS,
    OP_NAMES,
    RED_FACES_TO_END,
    SETUP_AXIS,
    SETUP_RESERVE,
    Action,
    Band,
    EndReason,
    IllegalAction,
    Pending,
    PendingKind,
)
from .board import CanuckMap, default_map
from .cards import DECK_SIZE, is_black_number, is_red_number, labels

__all__ = ["State", "new_game", "Score", "band", "IllegalAction"]

OBSERVED_SEED = 0
"""The seed of every observation (:meth:`State.observation`): not the game's, which would
deal the draw deck's order again."""


@dataclass(frozen=True)
class Score:
    """Final or provisional score (CN.E4, CN.E5): ``operations`` VP recorded, ``alba``
    bonus (10 liberated at the end, 5 liberated once but not at the end), ``total``,
    ``band`` and the end ``reason`` (``None`` while the game goes on)."""

    operations: int
    alba: int
    total: int
    band: Band
    reason: EndReason | None


def band(total: int, reason: EndReason | str | None = None) -> Band:
    """Result band (CN.E5). The source's table lists "25 or more: major", "11-25:
    medium", "5-10: minor", "5 or less, or the last Base lost: defeat"; its bands share
    25 and 5. The spec's engine convention settles them: 25 or more ``major``, 11-24
    ``medium``, 6-10 ``minor``, 5 or less ``defeat``. An early end (CN.E2: last Base,
    deadlock) is ``defeat`` whatever the VP."""
    if reason in (EndReason.LAST_BASE, EndReason.DEADLOCK):
        return Band.DEFEAT
    for least, result in BAND_FLOORS:
        if total >= least:
            return result
    return Band.DEFEAT


@dataclass(frozen=True, init=False)
class State(FrozenState, ListedMenu[Action]):
    """A position of Operation Canuck. See the module docstring for conventions.

    Card piles: ``deck`` (draw deck, top first), ``reserve`` (CN.K2), ``partisan_discard``,
    ``axis_deck`` (CN.K4; drawn at random, kept sorted), ``axis_discard``, ``removed``
    (out of play). Counters on the map per area: ``groups``, ``leaders``, ``bases``;
    off the map: ``unused_groups``, ``unused_bases``, ``lost_leaders`` (CN.F2h).
    ``draws_due``: deck draws still owed by the option being resolved (CN.P8, CN.P13).
    ``over``: ``None`` or the :class:`EndReason` (CN.E1, CN.E2). ``options``: options
    resolved so far (the game length). ``seed``, ``step``, ``log_entries`` and ``logging``: see
    :class:`~furball.scenarios.engine.frozen.FrozenState`.
    """

    board: CanuckMap = field(repr=False)
    deck: tuple[int, ...]
    reserve: tuple[int, ...]
    partisan_discard: tuple[int, ...]
    axis_deck: tuple[int, ...]
    axis_discard: tuple[int, ...]
    removed: tuple[int, ...]
    garrison: tuple[int, ...]
    groups: tuple[int, ...]
    leaders: tuple[int, ...]
    bases: tuple[int, ...]
    unused_groups: int
    unused_bases: int
    lost_leaders: int
    vp: int
    alba_liberated_once: bool
    red_faces: int
    options: int
    draws_due: int
    pending: Pending | None
    over: EndReason | None

    # -- queries -------------------------------------------------------------
    @property
    def areas(self) -> tuple[str, ...]:
        return self.board.areas

    @property
    def cards_in_play(self) -> tuple[int, ...]:
        """Cards an operation has taken and not yet discarded (while its effect is being
        placed: Train, Move, Build Base), so every card is in exactly one place."""
        p = self.pending
        if p is not None and p.kind in (PendingKind.TRAIN, PendingKind.MOVE, PendingKind.BASE):
            return p.cards + p.drawn
        return ()

    def counters(self, area: int) -> int:
        """Partisan counters (Groups + Leaders + Base) in ``area`` (CN.F2d)."""
        return self.groups[area] + self.leaders[area] + self.bases[area]

    def alba_liberated(self) -> bool:
        """CN.E3: no garrison die in Alba and at least one Group or Leader there."""
        a = self.board.alba
        return self.garrison[a] == 0 and self.groups[a] + self.leaders[a] > 0

    def score(self) -> Score:
        """VP and band (CN.E4, CN.E5); provisional while the game goes on."""
        alba = ALBA_LIBERATED_VP if self.alba_liberated() else (ALBA_ONCE_VP if self.alba_liberated_once else 0)
        total = self.vp + alba
        return Score(self.vp, alba, total, band(total, self.over), self.over)

    # -- the engine protocol (scenarios.engine) ------------------------------
    def current_player(self) -> int | None:
        """0 (the Partisan, a solitaire game) or ``None`` once the game is over."""
        return None if self.over else 0

    def is_terminal(self) -> bool:
        return self.over is not None

    def returns(self) -> tuple[float, ...]:
        """The Partisan's VP total (CN.E4), provisional while the game goes on."""
        return (float(self.score().total),)

    def observation(self, player: int = 0) -> State:
        """What the Partisan sees: this position with the draw deck face down, its cards
        in sorted order. Which cards remain follows from what has been seen (CN.K1); their
        order, which no rule reveals, is not in it, so no bot can read the next draw.
        Everything else is on the table (the Axis deck's cards are known, drawn at random,
        CN.K4). Its menu is this position's: what may be done never depends on the draw
        deck's order (CN.K1, CN.P1; ``tests/test_canuck_machine.py`` checks it). Nor is
        the game's seed (the deck's order could be dealt again from it): the copy's is
        :data:`OBSERVED_SEED`, the same for every game, so a bot that plays on from it
        draws from a deck it does not know, as at the table."""
        return self.replace(deck=tuple(sorted(self.deck)), seed=OBSERVED_SEED)

    @cached_property
    def legal(self) -> tuple[Action, ...]:
        """Every legal action, in a fixed order; ``()`` once the game is over (computed
        on first use)."""
        return operations.legal_actions(self)

    def explain(self, action: Action) -> Reason | None:
        """``None`` when ``action`` is legal now, else the rule it breaks and why
        (:class:`~furball.scenarios.engine.protocol.Explains`)."""
        return operations.explain(self, action)

    def apply(self, action: Action) -> State:
        """The state after ``action``. Raises :class:`IllegalAction` if it is not legal."""
        return operations.apply(self, action)

    def describe(self, action: Action) -> str:
        """A short human-readable text of ``action``."""
        return operations.describe(self, action)

    def describe_entry(self, action: Action) -> tuple[str, tuple]:
        """:meth:`describe` as a log entry ``(template, args)``, for a reader's language."""
        return operations.describe_entry(self, action)

    def take_back(self, action: Action) -> TakeBack:
        """Whether ``action`` may be taken back (a room's undo request,
        :class:`~furball.scenarios.engine.protocol.TakesBack`): the steps that only
        declare the option being chosen (choosing an operation, its participants, adding
        a card, cancelling it: CN.P4) draw nothing and reveal nothing (``OPEN``); every
        other action resolves something, may draw from the deck or roll (``NEVER``)."""
        return TakeBack.OPEN if operations.declares_only(self, action) else TakeBack.NEVER

    def outcome(self) -> tuple[str, ...]:
        """How the game ended and its score (CN.E1, CN.E2, CN.E4, CN.E5)."""
        return tuple(render_entry(template, args) for template, args in self.outcome_entries())

    def outcome_entries(self) -> tuple[tuple[str, tuple], ...]:
        """:meth:`outcome` as log entries ``(template, args)``, for a reader's language."""
        s = self.score()
        why = Message(END_REASONS.get(s.reason, N_("the game is not over")) if s.reason else N_("the game is not over"))
        return ((N_("game over after {} options: {}"), (self.options, why)),
                (N_("VP: operations {} + Alba {} = {}: {}"), (s.operations, s.alba, s.total, Message(s.band.upper()))))

    def result(self) -> dict[str, Any]:
        """The result row: ``vp``, ``operations_vp``, ``alba_vp``, ``band``, ``end``,
        ``options``, ``red_faces``."""
        s = self.score()
        return {"vp": s.total, "operations_vp": s.operations, "alba_vp": s.alba, "band": str(s.band),
                "end": str(s.reason or ""), "options": self.options, "red_faces": self.red_faces}

    def observation_string(self, player: int = 0) -> str:
        """The map, the Reserve, the piles and the score, as text."""
        board = self.board
        width = max(len(a) for a in board.areas)
        lines = [f"{'area':<{width}}  {'boxes':<9} {'garrison':>8}  {'L':>2} {'G':>2} {'B':>2}  adjacent"]
        for i, name in enumerate(board.areas):
            gar = str(self.garrison[i]) if self.garrison[i] else ("-" if i in board.gar else "")
            near = ", ".join(board.areas[j] for j in board.near[i])
            lines.append(f"{name:<{width}}  {board.boxes(i):<9} {gar:>8}  {self.leaders[i]:>2} {self.groups[i]:>2} "
                         f"{self.bases[i]:>2}  {near}")
        score = self.score()
        lines.append(f"Reserve: {labels(self.reserve)}")
        lines.append(f"draw deck {len(self.deck)} | Partisan discard {len(self.partisan_discard)} | Axis deck "
                     f"{len(self.axis_deck)} | Axis discard {len(self.axis_discard)} | removed {len(self.removed)}")
        lines.append(f"unused Groups {self.unused_groups}, unused Bases {self.unused_bases}, Leaders lost "
                     f"{self.lost_leaders} | red face cards {self.red_faces}/{RED_FACES_TO_END} | VP {self.vp} "
                     f"(+Alba {score.alba} now) | Alba liberated once: {'yes' if self.alba_liberated_once else 'no'}")
        p = self.pending
        if p is not None:
            lines.append(_pending_text(self, p))
        return "\n".join(lines)


def _pending_text(s: State, p: Pending) -> str:
    names = s.board.areas
    if p.kind in (PendingKind.PARTICIPANTS, PendingKind.CARDS):
        if p.area is not None:
            return (f"declaring {OP_NAMES[p.op]} against {names[p.area]}: "
                    f"{p.groups}G {p.leaders}L, cards {labels(p.cards)}")
        return f"declaring {OP_NAMES[p.op]}: cards {labels(p.cards)}"
    if p.kind == PendingKind.SWEEP:
        return (f"Axis Sweep by the garrison in {names[p.garrison]} against {names[p.area]}: "
                f"choose Reserve cards (chosen: {labels(p.cards)})")
    if p.kind == PendingKind.LOSSES:
        return f"the Sweep succeeded: choose the counter lost in {names[p.area]} ({p.left} more to lose)"
    return {PendingKind.TRAIN: f"Train succeeded: place up to {p.left} more Group(s)",
            PendingKind.MOVE: "Move succeeded: move Groups and Leaders",
            PendingKind.BASE: "Build Base succeeded: choose a BASE box"}[p.kind]


def _placement(board: CanuckMap, placement: Mapping[str, tuple[int, int, int]]):
    """Check a free set-up (CN.S3 optional): area -> (leaders, groups, bases), every
    counter of CN.K1 placed in a BASE area, at most 1 Base per area."""
    leaders, groups, bases = [0] * len(board.areas), [0] * len(board.areas), [0] * len(board.areas)
    for name, counts in placement.items():
        i = board.area(name)
        if i not in board.base:
            raise InputError(msg("set-up: area '{area}': expected an area with a BASE box (CN.S3)", area=name))
        if (not isinstance(counts, (tuple, list)) or len(counts) != 3
                or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts)):
            raise InputError(msg("set-up: area '{area}': expected (leaders, groups, bases) as three integers >= 0, "
                                 "got {value}", area=name, value=repr(counts)))
        if counts[2] > 1:
            raise InputError(msg("set-up: area '{area}': expected at most 1 Base per area (CN.S3), got {count}",
                                 area=name, count=counts[2]))
        leaders[i], groups[i], bases[i] = counts
    counters = ((msg("Leaders"), leaders, LEADERS), (msg("Groups"), groups, GROUPS), (msg("Bases"), bases, BASES))
    for what, values, most in counters:
        if sum(values) > most:
            raise InputError(msg("set-up: expected at most {most} {counters} (CN.K1), got {count}", most=most,
                                 counters=what, count=sum(values)))
    for what, values, most in counters:
        if sum(values) != most:  # rule 3.0: the Partisan places his Leaders, Groups and Bases, none kept off
            raise InputError(msg("set-up: expected all {most} {counters} placed on the map (CN.S3), got {count}",
                                 most=most, counters=what, count=sum(values)))
    return leaders, groups, bases


def new_game(seed: int, board: CanuckMap | None = None,
             placement: Mapping[str, tuple[int, int, int]] | Callable[..., Mapping] | None = None) -> State:
    """A new game after set-up (CN.S1–CN.S4), reproducible from ``seed``.

    CN.S1: shuffle; deal one card at a time keeping the first 4 red number cards (the
    Reserve) and the first 4 black number cards (the Axis deck); the other dealt cards
    are shuffled back into the deck. CN.S2: one die rolled per GAR box (in area order).
    CN.S3: by default 1 Leader, 2 Groups, 1 Base in each BASE* area; ``placement``
    (area name -> (leaders, groups, bases)) sets up freely in BASE areas instead
    (all 4 Leaders, 8 Groups and 4 Bases placed, at most 1 Base per area); it may also
    be a function ``(board, garrison) -> placement`` that sees the rolled garrisons
    (CN.S2 comes first), e.g. :func:`.placement.free_placement`.
    Raises :class:`InputError` for a bad seed or placement.
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(msg("seed: expected an integer >= 0, got {value}", value=repr(seed)))
    seed = int(seed)
    board = board or default_map()
    rng = step_rng(seed, 0)
    shuffled = [int(c) for c in rng.permutation(DECK_SIZE)]
    reserve, axis, rest = [], [], []
    i = 0
    while len(reserve) < SETUP_RESERVE or len(axis) < SETUP_AXIS:
        c = shuffled[i]
        i += 1
        if is_red_number(c) and len(reserve) < SETUP_RESERVE:
            reserve.append(c)
        elif is_black_number(c) and len(axis) < SETUP_AXIS:
            axis.append(c)
        else:
            rest.append(c)
    remaining = rest + shuffled[i:]
    deck = [remaining[k] for k in rng.permutation(len(remaining))]
    n = len(board.areas)
    garrison = [0] * n
    for g in board.gar:
        garrison[g] = int(rng.integers(1, DIE_FACES + 1))
    if placement is None:
        leaders, groups, bases = [0] * n, [0] * n, [0] * n
        for b in board.base_star:
            leaders[b], groups[b], bases[b] = DEFAULT_STACK
    else:
        chosen = placement(board, tuple(garrison)) if callable(placement) else placement
        leaders, groups, bases = _placement(board, chosen)
    stacks = ", ".join(f"{board.areas[a]} {leaders[a]}L {groups[a]}G {bases[a]}B"
                       for a in range(n) if leaders[a] + groups[a] + bases[a])
    events = [
        (N_("set-up (map '{}', {})"), (board.graph.name, Message(board.graph.provenance))),
        (N_("  Reserve: {}; Axis deck: {}; {} other dealt card(s) shuffled back; draw deck {} cards"),
         (labels(sorted(reserve)), labels(sorted(axis)), len(rest), len(deck))),
        (N_("  garrisons: {}"), (", ".join(f"{board.areas[g]} {garrison[g]}" for g in board.gar),)),
        (N_("  Partisans: {}") if placement is None else N_("  Partisans (free set-up, CN.S3): {}"), (stacks,)),
    ]
    return State(
        board=board, seed=seed, step=1, deck=tuple(deck), reserve=tuple(sorted(reserve)),
        partisan_discard=(), axis_deck=tuple(sorted(axis)), axis_discard=(), removed=(),
        garrison=tuple(garrison), groups=tuple(groups), leaders=tuple(leaders), bases=tuple(bases),
        unused_groups=GROUPS - sum(groups), unused_bases=BASES - sum(bases), lost_leaders=LEADERS - sum(leaders),
        vp=0, alba_liberated_once=False, red_faces=0, options=0, draws_due=0, pending=None, over=None,
        log_entries=tuple(events),
    )

