"""The game state of Operation Canuck: an immutable value with ``legal_actions()`` and
``apply(action)`` (CN.S*, CN.P1).

A :class:`State` is a frozen dataclass. ``apply`` never mutates it: it copies the state
into a :class:`Work` (plain lists), resolves the action there and freezes the result
into a new :class:`State`. An action not in :meth:`State.legal_actions` raises
:class:`IllegalAction` (an :class:`~geometry.errors.InputError`) and the state is
unchanged.

Randomness is reproducible: setup uses ``numpy.random.default_rng([seed, 0])`` and the
n-th applied action uses ``default_rng([seed, n])`` (``n = state.step``), created only
when the action needs a random draw.

Cards are ints 0..51 (:mod:`scenarios.canuck.cards`). Areas are indices into
``state.board.areas``; every per-area tuple (``garrison``, ``groups``, ``leaders``,
``bases``) is indexed the same way. A garrison strength of 0 means "no die".
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import numpy as np

from geometry.errors import InputError

from .board import CanuckMap, default_map
from .cards import is_black_number, is_red_number, labels

__all__ = ["State", "Action", "Pending", "Work", "IllegalAction", "new_game", "Score",
           "LEADERS", "GROUPS", "BASES", "RED_FACES_TO_END", "band"]

LEADERS, GROUPS, BASES = 4, 8, 4  # CN.K1
RED_FACES_TO_END = 6  # CN.E1
KINETIC = ("ambush", "sabotage")
OP_NAMES = {"ambush": "Ambush", "sabotage": "Sabotage", "train": "Train", "move": "Move",
            "build_base": "Build Base", "supply_drop": "Supply Drop"}
END_REASONS = {"sixth_advance": "the 6th red face card was drawn (CN.E1)",
               "last_base": "the last Base was lost in a Sweep (CN.E2)",
               "deadlock": "deadlock: no Reserve cards and no Group for a Pause (CN.E2)"}


class IllegalAction(InputError):
    """An action that is not legal in this state (the state is left unchanged)."""


@dataclass(frozen=True)
class Action:
    """One decision of the Partisan.

    ``kind`` is one of: ``ambush``/``sabotage`` (``area``), ``train``, ``move``,
    ``build_base``, ``supply_drop``, ``pause`` (``area``: the Group removed) — the
    options of the main menu (CN.P1, CN.P13); ``participants`` (``groups``,
    ``leaders``: CN.P4); ``add_card`` (``card``: CN.P5, CN.P9, CN.F2d); ``resolve``;
    ``cancel`` (drop a declaration before it resolves); ``place_group`` (``area``:
    CN.P11 Train); ``move_counter`` (``piece`` "group"/"leader", ``area`` → ``to``:
    CN.P11 Move); ``place_base`` (``area``: CN.P11 Build Base); ``done``.
    """

    kind: str
    area: int = -1
    to: int = -1
    card: int = -1
    groups: int = 0
    leaders: int = 0
    piece: str = ""


@dataclass(frozen=True)
class Pending:
    """A decision in progress.

    ``kind``: ``participants`` / ``cards`` (declaring operation ``op`` in ``area``),
    ``sweep`` (choosing Reserve cards against the garrison of area ``garrison``
    sweeping ``area``, CN.F2d), ``train`` (``left`` Groups still placeable), ``move``
    (``arrived_groups``/``arrived_leaders``: counters already moved, per area),
    ``base`` (choose a BASE box). ``cards``: the Reserve cards selected so far.
    """

    kind: str
    op: str = ""
    area: int = -1
    garrison: int = -1
    groups: int = 0
    leaders: int = 0
    cards: tuple[int, ...] = ()
    left: int = 0
    arrived_groups: tuple[int, ...] = ()
    arrived_leaders: tuple[int, ...] = ()


@dataclass(frozen=True)
class Score:
    """Final or provisional score (CN.E4, CN.E5): ``operations`` VP recorded, ``alba``
    bonus (10 liberated at the end, 5 liberated once but not at the end), ``total``,
    ``band`` and the end ``reason`` ("" while the game goes on)."""

    operations: int
    alba: int
    total: int
    band: str
    reason: str


def band(total: int, reason: str = "") -> str:
    """Result band (CN.E5, engine convention): a defeat by the last Base or deadlock
    (CN.E2) is ``defeat`` whatever the VP; else 25+ ``major``, 11–24 ``medium``,
    6–10 ``minor``, <= 5 ``defeat``."""
    if reason in ("last_base", "deadlock") or total <= 5:
        return "defeat"
    if total >= 25:
        return "major"
    if total >= 11:
        return "medium"
    return "minor"


@dataclass(frozen=True)
class State:
    """A position of Operation Canuck. See the module docstring for conventions.

    Card piles: ``deck`` (draw deck, top first), ``reserve`` (CN.K2), ``partisan_discard``,
    ``axis_deck`` (CN.K4; drawn at random, kept sorted), ``axis_discard``, ``removed``
    (out of play). Counters on the map per area: ``groups``, ``leaders``, ``bases``;
    off the map: ``unused_groups``, ``unused_bases``, ``lost_leaders`` (CN.F2h).
    ``draws_due``: deck draws still owed by the option being resolved (CN.P8, CN.P13).
    ``over``: "" or the end reason (CN.E1, CN.E2). ``events``: log lines of the last
    transition. ``options``: options resolved so far (the game length).
    """

    board: CanuckMap = field(repr=False)
    seed: int
    step: int
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
    over: str
    events: tuple[str, ...] = ()

    # -- queries -------------------------------------------------------------
    @property
    def areas(self) -> tuple[str, ...]:
        return self.board.areas

    def counters(self, area: int) -> int:
        """Partisan counters (Groups + Leaders + Base) in ``area`` (CN.F2d)."""
        return self.groups[area] + self.leaders[area] + self.bases[area]

    def alba_liberated(self) -> bool:
        """CN.E3: no garrison die in Alba and at least one Group or Leader there."""
        a = self.board.alba
        return self.garrison[a] == 0 and self.groups[a] + self.leaders[a] > 0

    def score(self) -> Score:
        """VP and band (CN.E4, CN.E5); provisional while the game goes on."""
        alba = 10 if self.alba_liberated() else (5 if self.alba_liberated_once else 0)
        total = self.vp + alba
        return Score(self.vp, alba, total, band(total, self.over), self.over)

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action, in a fixed order; ``()`` once the game is over.
        (Computed once per state and cached: the state is immutable.)"""
        cached = self.__dict__.get("_legal")
        if cached is None:
            from .operations import legal_actions
            cached = legal_actions(self)
            self.__dict__["_legal"] = cached
        return cached

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is in :meth:`legal_actions` (a cached set lookup)."""
        legal = self.__dict__.get("_legal_set")
        if legal is None:
            legal = frozenset(self.legal_actions())
            self.__dict__["_legal_set"] = legal
        return action in legal

    def apply(self, action: Action) -> "State":
        """The state after ``action``. Raises :class:`IllegalAction` if it is not legal."""
        from .operations import apply
        return apply(self, action)

    def describe(self, action: Action) -> str:
        """A short human-readable text of ``action``."""
        from .operations import describe
        return describe(self, action)


class Work:
    """A mutable copy of a :class:`State` used while one action resolves.

    Offers the primitive moves every rule uses: deck and Axis draws, filing cards,
    hitting garrisons, losing counters, and the Alba liberation check (CN.E3) after
    every change of the map.
    """

    def __init__(self, state: State):
        self.s = state
        self.board = state.board
        self.deck = list(state.deck)
        self.reserve = list(state.reserve)
        self.partisan_discard = list(state.partisan_discard)
        self.axis_deck = list(state.axis_deck)
        self.axis_discard = list(state.axis_discard)
        self.removed = list(state.removed)
        self.garrison = list(state.garrison)
        self.groups = list(state.groups)
        self.leaders = list(state.leaders)
        self.bases = list(state.bases)
        self.unused_groups = state.unused_groups
        self.unused_bases = state.unused_bases
        self.lost_leaders = state.lost_leaders
        self.vp = state.vp
        self.alba_liberated_once = state.alba_liberated_once
        self.red_faces = state.red_faces
        self.options = state.options
        self.draws_due = state.draws_due
        self.pending = state.pending
        self.over = state.over
        self.events: list[str] = []
        self._rng = None
        self._rng_key = [state.seed, state.step]

    # -- randomness ----------------------------------------------------------
    @property
    def rng(self) -> np.random.Generator:
        if self._rng is None:
            self._rng = np.random.default_rng(self._rng_key)
        return self._rng

    def pick(self, n: int) -> int:
        """A uniform random index in ``range(n)`` (``0`` without a draw when n == 1)."""
        return 0 if n == 1 else int(self.rng.integers(n))

    # -- log -----------------------------------------------------------------
    def log(self, text: str) -> None:
        self.events.append(text)

    def name(self, area: int) -> str:
        return self.board.areas[area]

    # -- cards ---------------------------------------------------------------
    def to_reserve(self, card: int) -> None:
        self.reserve.append(card)
        self.reserve.sort()

    def to_axis_deck(self, card: int) -> None:
        """A black number card joins the Axis deck, which is (re)shuffled (CN.P8):
        the deck is kept sorted and always drawn from at random."""
        self.axis_deck.append(card)
        self.axis_deck.sort()

    def draw_axis(self, n: int) -> list[int]:
        """Draw ``n`` black cards at random from the Axis deck (CN.P2), reshuffling the
        Axis discard pile into a new deck whenever it is empty. Engine convention: if
        both are empty, fewer cards are drawn (cards drawn by the current operation
        are not in the discard pile until it ends)."""
        drawn = []
        for _ in range(n):
            if not self.axis_deck:
                if not self.axis_discard:
                    self.log(f"  the Axis deck and discard pile are empty: {len(drawn)} of {n} cards drawn")
                    break
                self.axis_deck, self.axis_discard = sorted(self.axis_discard), []
                self.log("  the Axis discard pile is shuffled into a new Axis deck (CN.P2)")
            drawn.append(self.axis_deck.pop(self.pick(len(self.axis_deck))))
        return drawn

    def discard(self, red: list[int], black: list[int]) -> None:
        """Played red cards to the Partisan discard pile, drawn black cards to the Axis
        discard pile (CN.P8)."""
        self.partisan_discard.extend(red)
        self.partisan_discard.sort()
        self.axis_discard.extend(black)
        self.axis_discard.sort()

    def take_from_reserve(self, cards) -> list[int]:
        for c in cards:
            self.reserve.remove(c)
        return list(cards)

    # -- map -----------------------------------------------------------------
    def check_alba(self) -> None:
        """CN.E3: record that Alba has been liberated at this moment."""
        a = self.board.alba
        if not self.alba_liberated_once and self.garrison[a] == 0 and self.groups[a] + self.leaders[a] > 0:
            self.alba_liberated_once = True
            self.log("  Alba is liberated (CN.E3)")

    def hit_garrison(self, area: int, loss: int) -> None:
        """The garrison in ``area`` loses ``loss`` strength; at 0 or less its die is
        removed and the Partisan scores 1 VP (CN.P6, CN.F2f, CN.F2g)."""
        before = self.garrison[area]
        after = before - loss
        if after <= 0:
            self.garrison[area] = 0
            self.vp += 1
            self.log(f"  garrison in {self.name(area)} {before} -> removed: +1 VP (VP {self.vp})")
        else:
            self.garrison[area] = after
            self.log(f"  garrison in {self.name(area)} {before} -> {after}")
        self.check_alba()

    def lose_counters(self, area: int, n: int, groups: int, leaders: int, base: bool) -> tuple[int, int, int]:
        """Remove up to ``n`` counters from ``area``, taking at most ``groups`` Groups,
        ``leaders`` Leaders and (if ``base``) the Base. Engine convention: Groups go
        first, then Leaders, then the Base. Groups and Bases become unused, Leaders are
        gone for good (CN.P6, CN.F2h). Returns (groups, leaders, bases) removed."""
        g = min(n, groups, self.groups[area])
        l_ = min(n - g, leaders, self.leaders[area])
        b = min(n - g - l_, self.bases[area] if base else 0)
        self.groups[area] -= g
        self.unused_groups += g
        self.leaders[area] -= l_
        self.lost_leaders += l_
        self.bases[area] -= b
        self.unused_bases += b
        if g or l_ or b:
            parts = [f"{g} Group(s)" if g else "", f"{l_} Leader(s)" if l_ else "", "the Base" if b else ""]
            self.log(f"  lost in {self.name(area)}: {', '.join(p for p in parts if p)}")
        self.check_alba()
        return g, l_, b

    # -- freezing ------------------------------------------------------------
    def freeze(self) -> State:
        return State(
            board=self.board, seed=self.s.seed, step=self.s.step + 1, deck=tuple(self.deck),
            reserve=tuple(self.reserve), partisan_discard=tuple(self.partisan_discard),
            axis_deck=tuple(self.axis_deck), axis_discard=tuple(self.axis_discard),
            removed=tuple(self.removed), garrison=tuple(self.garrison), groups=tuple(self.groups),
            leaders=tuple(self.leaders), bases=tuple(self.bases), unused_groups=self.unused_groups,
            unused_bases=self.unused_bases, lost_leaders=self.lost_leaders, vp=self.vp,
            alba_liberated_once=self.alba_liberated_once, red_faces=self.red_faces,
            options=self.options, draws_due=self.draws_due, pending=self.pending, over=self.over,
            events=tuple(self.events),
        )


def _placement(board: CanuckMap, placement: Mapping[str, tuple[int, int, int]]):
    """Check a free set-up (CN.S3 optional): area -> (leaders, groups, bases)."""
    leaders, groups, bases = [0] * len(board.areas), [0] * len(board.areas), [0] * len(board.areas)
    for name, counts in placement.items():
        i = board.area(name)
        where = f"set-up: area '{name}'"
        if i not in board.base:
            raise InputError(f"{where}: expected an area with a BASE box (CN.S3)")
        if (not isinstance(counts, (tuple, list)) or len(counts) != 3
                or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts)):
            raise InputError(f"{where}: expected (leaders, groups, bases) as three integers >= 0, got {counts!r}")
        if counts[2] > 1:
            raise InputError(f"{where}: expected at most 1 Base per area (CN.S3), got {counts[2]}")
        leaders[i], groups[i], bases[i] = counts
    for what, values, most in (("Leaders", leaders, LEADERS), ("Groups", groups, GROUPS), ("Bases", bases, BASES)):
        if sum(values) > most:
            raise InputError(f"set-up: expected at most {most} {what} (CN.K1), got {sum(values)}")
    if sum(leaders) != LEADERS:
        raise InputError(f"set-up: expected all {LEADERS} Leaders placed (CN.S3), got {sum(leaders)}")
    if sum(bases) < 1:
        raise InputError("set-up: expected at least 1 Base placed (CN.S3)")
    return leaders, groups, bases


def new_game(seed: int, board: CanuckMap | None = None,
             placement: Mapping[str, tuple[int, int, int]] | None = None) -> State:
    """A new game after set-up (CN.S1–CN.S4), reproducible from ``seed``.

    CN.S1: shuffle; deal one card at a time keeping the first 4 red number cards (the
    Reserve) and the first 4 black number cards (the Axis deck); the other dealt cards
    are shuffled back into the deck. CN.S2: one die rolled per GAR box (in area order).
    CN.S3: by default 1 Leader, 2 Groups, 1 Base in each BASE* area; ``placement``
    (area name -> (leaders, groups, bases)) sets up freely in BASE areas instead
    (all 4 Leaders placed, at most 1 Base per area; the rest stay unused).
    Raises :class:`InputError` for a bad seed or placement.
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(f"seed: expected an integer >= 0, got {seed!r}")
    seed = int(seed)
    board = board or default_map()
    rng = np.random.default_rng([seed, 0])
    shuffled = [int(c) for c in rng.permutation(52)]
    reserve, axis, rest = [], [], []
    i = 0
    while len(reserve) < 4 or len(axis) < 4:
        c = shuffled[i]
        i += 1
        if is_red_number(c) and len(reserve) < 4:
            reserve.append(c)
        elif is_black_number(c) and len(axis) < 4:
            axis.append(c)
        else:
            rest.append(c)
    remaining = rest + shuffled[i:]
    deck = [remaining[k] for k in rng.permutation(len(remaining))]
    n = len(board.areas)
    garrison = [0] * n
    for g in board.gar:
        garrison[g] = int(rng.integers(1, 7))
    if placement is None:
        leaders, groups, bases = [0] * n, [0] * n, [0] * n
        for b in board.base_star:
            leaders[b], groups[b], bases[b] = 1, 2, 1
    else:
        leaders, groups, bases = _placement(board, placement)
    events = [
        f"set-up (seed {seed}, map '{board.graph.name}', {board.graph.provenance})",
        f"  Reserve: {labels(sorted(reserve))}; Axis deck: {labels(sorted(axis))}; "
        f"{len(rest)} other dealt card(s) shuffled back; draw deck {len(deck)} cards",
        "  garrisons: " + ", ".join(f"{board.areas[g]} {garrison[g]}" for g in board.gar),
        "  Partisans: " + ", ".join(f"{board.areas[a]} {leaders[a]}L {groups[a]}G {bases[a]}B"
                                    for a in range(n) if leaders[a] + groups[a] + bases[a]),
    ]
    return State(
        board=board, seed=seed, step=1, deck=tuple(deck), reserve=tuple(sorted(reserve)),
        partisan_discard=(), axis_deck=tuple(sorted(axis)), axis_discard=(), removed=(),
        garrison=tuple(garrison), groups=tuple(groups), leaders=tuple(leaders), bases=tuple(bases),
        unused_groups=GROUPS - sum(groups), unused_bases=BASES - sum(bases), lost_leaders=LEADERS - sum(leaders),
        vp=0, alba_liberated_once=False, red_faces=0, options=0, draws_due=0, pending=None, over="",
        events=tuple(events),
    )

