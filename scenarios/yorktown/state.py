"""The game state of 1942 USS Yorktown: an immutable value with ``legal_actions()`` and
``apply(action)`` (the engine protocol of :mod:`scenarios.engine`).

**Seats and planes.** The four SBD Dauntless crews are planes 0–3 ("Dauntless 1–4").
With 1–4 players the planes are shared as the rules say (YT.S2 note): one player flies
all four; two fly two each; with three, seat 0 (the most experienced) flies planes 0
and 1; with four, one each. Each plane's decisions (its action card, YT.R5, and how it
carries the action out) belong to the seat that flies it. The team's order of
execution (YT.R5 "in the order they want") is called by seat 0, the flight leader.
Every seat scores the same (a cooperative game). The last ``novices`` seats are
novices (YT.S4).

**Decisions** (a :class:`Phase` each): ``set_up`` — the two red islands (YT.S2);
``choose`` — each plane's action card; ``next`` — which plane acts next; ``plane`` —
how that plane carries out its card (a scope for an attack, a destination, a load), or
jettisons its bomb first; ``after_move`` — Lightning Attack, Emergency Landing or
nothing (YT.A9); ``roll`` — throw again (keeping which faces) or stop (YT.D2, the roll
in ``roll``); ``assign`` — which targets an attack's results go to (YT.A7). A decision
with a single possible answer is taken at once and logged (``(only choice)``), so
every menu a player sees has two options or more.

**Chance** happens inside ``apply`` from the step's generator
(:func:`~furball.scenarios.engine.frozen.step_rng`: ``numpy.random.default_rng([seed,
step])``; set-up uses step 0), so the same seed gives the same log byte for byte.

**Time** (YT.S4, YT.E2) is ``clock``: simulated seconds from the game's
:class:`~.tables.TimeModel`, never decreasing; reaching ``limit`` is a defeat.

Per-plane tuples are indexed by plane; per-island tuples by island position
(number − 1); ``loc`` holds graph node indices (``None``: the plane is out of the game).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from furball.errors import InputError
from furball.i18n import N_, Phrase, render_entry

from ..engine.frozen import FrozenState, step_rng
from ..engine.menu import ListedMenu
from ..engine.protocol import Reason
from . import crews
from .actions import (
    END_TEXT,
    PLANES,
    Action,
    Card,
    Difficulty,
    EndReason,
    Expansion,
    Load,
    Maneuver,
    Phase,
    PlaneType,
    Weather,
    plane_name,
)
from .board import ISLANDS, Archipelago, default_map
from .deck import JapaneseDeck, default_deck
from .rolls import ATTACKS, Roll
from .tables import Rules, TimeModel, default_rules, default_time
from .text import board_text
from .work import Work

__all__ = ["Setup", "State", "new_game", "PLANES", "plane_name", "seats_for"]

MAX_PLAYERS = 4


def seats_for(players: int) -> tuple[int, ...]:
    """Which seat flies each plane with ``players`` players (see the module doc)."""
    return {1: (0, 0, 0, 0), 2: (0, 0, 1, 1), 3: (0, 0, 1, 2), 4: (0, 1, 2, 3)}[players]


@dataclass(frozen=True)
class Setup:
    """What stays fixed during a game: ``board``, ``deck``, ``rules``, ``time`` model,
    ``players``, ``novices``, ``difficulty``, ``expansions``, the timer ``limit`` in
    seconds and ``seat_of`` (plane -> seat)."""

    board: Archipelago
    deck: JapaneseDeck
    rules: Rules
    time: TimeModel
    players: int
    novices: int
    difficulty: Difficulty
    expansions: frozenset
    limit: int
    seat_of: tuple[int, ...]

    def novice(self, p: int) -> bool:
        """Whether plane ``p`` is flown by a novice (the last ``novices`` seats)."""
        return self.seat_of[p] >= self.players - self.novices


@dataclass(frozen=True, init=False)
class State(FrozenState, ListedMenu[Action]):
    """A position (see the module doc), built the one way every engine builds its states
    (:mod:`furball.scenarios.engine.frozen`): by keyword, every field named; the next
    state by :meth:`~furball.scenarios.engine.frozen.FrozenState.replace` or a
    :class:`~.work.Work` draft; derived answers (legal actions, the occupancy mask) as
    :func:`functools.cached_property` members kept by this state alone.

    Clock and turn: ``clock`` (seconds), ``turn``, ``phase``, ``acting`` (the plane
    carrying out its action, or ``None``). Japanese: ``deck`` (card indices into
    ``setup.deck.cards``, top first), ``discard``, ``japanese`` (per island, the types
    of its planes), ``supply`` (per token pool, tokens in the reserve), ``cap`` (Zekes
    on CAP). Tracks: ``search`` 0–7, ``yorktown`` and ``shoho`` damage 0–3. Planes:
    ``loc``, ``fuel``, ``skill`` (points), ``side_b`` (cockpit card), ``load``
    (bomb/tank or ``None``), ``tile`` (an unused expert maneuver or ``None``),
    ``choice`` (this turn's action card), ``done`` (acted this turn). ``runway_used``
    this turn. Weather (expansion): ``weather`` per island and ``revealed``. Tallies:
    ``shot_down``, ``crashes``, ``throws``, and of the expansions: ``tiles_played``
    (expert maneuvers), ``tanks_used``, ``weather_searches``. ``roll``: the continuous roll under way
    (:class:`~.rolls.Roll`: its dice, faces showing, 1s locked) or ``None``. ``over``:
    the :class:`EndReason` or ``None``. ``seed``, ``step``, ``log_entries`` and ``logging``: see
    :class:`~furball.scenarios.engine.frozen.FrozenState`.
    """

    setup: Setup = field(repr=False)
    phase: Phase
    turn: int
    clock: int
    acting: int | None
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    japanese: tuple[tuple[PlaneType, ...], ...]
    supply: tuple[int, ...]
    cap: int
    search: int
    yorktown: int
    shoho: int
    loc: tuple[int | None, ...]
    fuel: tuple[int, ...]
    skill: tuple[int, ...]
    side_b: tuple[bool, ...]
    load: tuple[Load | None, ...]
    tile: tuple[Maneuver | None, ...]
    choice: tuple[Card | None, ...]
    done: tuple[bool, ...]
    runway_used: int
    weather: tuple[Weather | None, ...]
    revealed: tuple[bool, ...]
    shot_down: int
    crashes: int
    throws: int
    tiles_played: int
    tanks_used: int
    weather_searches: int
    roll: Roll | None
    over: EndReason | None

    # -- queries -------------------------------------------------------------
    @property
    def board(self) -> Archipelago:
        """The game's map."""
        return self.setup.board

    @cached_property
    def mask(self) -> int:
        """Occupied islands as a bit mask (bit k: island number k + 1)."""
        return sum(1 << k for k, planes in enumerate(self.japanese) if planes)

    def located(self) -> bool:
        """YT.R1: whether the Japanese planes chain an orange island to a red one."""
        return self.board.located(self.mask)

    def alive(self) -> tuple[int, ...]:
        """Planes still in the game."""
        return tuple(p for p in range(PLANES) if self.loc[p] is not None)

    def bombs_left(self) -> int:
        """Bomb/tank tokens in the reserve (YT.K3)."""
        return self.setup.rules.bomb_tokens - sum(1 for x in self.load if x is not None)

    def pool_tokens(self) -> dict[str, int]:
        """Tokens per pool on the islands, on CAP and in the reserve (for checks)."""
        deck = self.setup.deck
        out = {pool: 0 for pool, _ in deck.pools}
        for planes in self.japanese:
            for t in planes:
                out[deck.planes[t].pool] += 1
        out[deck.planes[PlaneType.ZEKE].pool] += self.cap
        for (pool, _), n in zip(deck.pools, self.supply):
            out[pool] += n
        return out

    # -- the engine protocol -------------------------------------------------
    def current_player(self) -> int | None:
        """The seat to decide (see the module doc), or ``None`` at the end."""
        if self.over is not None:
            return None
        if self.phase in (Phase.SET_UP, Phase.NEXT):
            return 0
        if self.phase == Phase.CHOOSE:
            return self.setup.seat_of[self.chooser()]
        return self.setup.seat_of[self.acting]

    def chooser(self) -> int | None:
        """The plane to choose its action card next (YT.R5), in plane order."""
        for p in range(PLANES):
            if self.loc[p] is not None and self.choice[p] is None:
                return p
        return None

    def is_terminal(self) -> bool:
        """Whether the game is over (YT.E1, YT.E2)."""
        return self.over is not None

    def returns(self) -> tuple[float, ...]:
        """1 for every seat after a victory, else 0 (a cooperative game)."""
        won = 1.0 if self.over == EndReason.SHOHO_SUNK else 0.0
        return (won,) * self.setup.players

    def observation(self, player: int = 0) -> State:
        """The state itself: the crews see the whole board. Bots must not read the
        Japanese deck's order nor other seats' expert tiles, which no rule reveals."""
        return self

    @cached_property
    def legal(self) -> tuple[Action, ...]:
        """Every legal action in a fixed order; ``()`` at the end (computed on first use)."""
        return crews.legal_actions(self)

    @cached_property
    def assignments(self) -> tuple:
        """The ways worth choosing to assign the results of the attack roll under way
        (:func:`.crews.roll_outcomes`; ``()`` without one), computed on first use."""
        if self.roll is None or self.roll.purpose not in ATTACKS:
            return ()
        return crews.roll_outcomes(self, self.roll)

    def explain(self, action: Action) -> Reason | None:
        """``None`` when ``action`` is legal now, else the rule it breaks and why
        (:class:`~furball.scenarios.engine.protocol.Explains`)."""
        return crews.explain(self, action)

    def apply(self, action: Action) -> State:
        """The state after ``action`` (and after any decision left with a single
        answer). Raises :class:`~scenarios.engine.IllegalAction`; the state is unchanged."""
        return crews.apply(self, action)

    def describe(self, action: Action) -> str:
        """The action in words (any action, legal or not)."""
        return crews.describe(self, action)

    def describe_entry(self, action: Action) -> tuple[str, tuple]:
        """:meth:`describe` as a log entry ``(template, args)``, for a reader's language."""
        return crews.describe_entry(self, action)

    def outcome(self) -> tuple[str, ...]:
        """How the game ended (YT.E1, YT.E2)."""
        return tuple(render_entry(template, args) for template, args in self.outcome_entries())

    def outcome_entries(self) -> tuple[tuple[str, tuple], ...]:
        """:meth:`outcome` as log entries ``(template, args)``, for a reader's language."""
        if self.over is None:
            return ((N_("the game is not over"), ()),)
        m, s = divmod(self.clock, 60)
        return ((N_("game over in turn {} after {} of {}:00: {}"),
                 (self.turn, f"{m}:{s:02d}", self.setup.limit // 60, END_TEXT[self.over])),
                (N_("Shōhō damage {}, Yorktown damage {}, search {}, planes left {}, Japanese planes shot down {}, "
                    "crashes {}"), (self.shoho, self.yorktown, self.search, len(self.alive()), self.shot_down,
                                    self.crashes)))

    def result(self) -> dict[str, Any]:
        """The result row: ``result`` (victory/defeat), ``end`` (:class:`EndReason`),
        ``minutes`` (simulated), ``turns``, ``shoho_damage``, ``yorktown_damage``,
        ``search``, ``planes_left``, ``shot_down``, ``crashes``, ``throws``, and the
        expansions' ``tiles_played``, ``tanks_used``, ``weather_searches``."""
        return {"result": "victory" if self.over == EndReason.SHOHO_SUNK else "defeat",
                "end": str(self.over or ""), "minutes": round(self.clock / 60, 3), "turns": self.turn,
                "shoho_damage": self.shoho, "yorktown_damage": self.yorktown, "search": self.search,
                "planes_left": len(self.alive()), "shot_down": self.shot_down, "crashes": self.crashes,
                "throws": self.throws, "tiles_played": self.tiles_played, "tanks_used": self.tanks_used,
                "weather_searches": self.weather_searches}

    def observation_string(self, player: int = 0) -> str:
        """The board as text for ``player`` (see :func:`.text.board_text`)."""
        return board_text(self, player)

    # -- the game clock (scenarios.engine.Timed) -----------------------------------------
    @property
    def clock_s(self) -> int:
        """The clock's reading, seconds since the start (YT.S4)."""
        return int(self.clock)

    @property
    def limit_s(self) -> int:
        """The timer's limit in seconds: reaching it loses the game (YT.E2)."""
        return int(self.setup.limit)

    def at_clock(self, seconds: int) -> State:
        """The position with its clock read from a real one (a game room whose timer
        runs in real time, YT.S4; the game then uses :meth:`TimeModel.real_time
        <.tables.TimeModel.real_time>`, so no simulated seconds are added): ``clock``
        becomes ``seconds`` when that is later (a clock never runs back); reaching the
        limit loses the game (YT.E2), logged as when the timer rings. The same
        readings give the same game: a room stores each one with the action taken at it."""
        seconds = int(seconds)
        if self.over is not None or seconds <= self.clock:
            return self
        if seconds < self.setup.limit:
            return self.replace(clock=seconds)
        w = Work(self)
        w.spend(seconds - self.clock)
        return w.freeze()


DIFFICULTY_WORDS = (N_("easy"), N_("normal"), N_("hard"), N_("expert"), N_("tank"), N_("weather"))
"""The difficulties' and expansions' words as the set-up line writes them, for the catalog."""


def _expansions(_, names: tuple[str, ...]) -> str:
    return ", ".join(map(_, names)) or _("none")


def new_game(seed: int, players: int = 1, difficulty: Difficulty | str = Difficulty.NORMAL, novices: int = 0,
             map: Archipelago | None = None, deck: JapaneseDeck | None = None, rules: Rules | None = None,
             time: TimeModel | None = None, expansions=frozenset()) -> State:
    """A new game (YT.S1–S4), waiting for the set-up choice of two red islands.

    ``players`` 1–4, ``novices`` 0–players, ``difficulty`` easy/normal/hard,
    ``expansions``: a set of :class:`Expansion`. ``map``, ``deck``, ``rules``,
    ``time``: default the shipped data. Set-up randomness (deck order, weather and
    expert tiles) uses ``default_rng([seed, 0])``. Raises :class:`InputError`.
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(f"seed: expected an integer >= 0, got {seed!r}")
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= MAX_PLAYERS:
        raise InputError(f"--players {players!r}: expected 1 to {MAX_PLAYERS}")
    if isinstance(novices, bool) or not isinstance(novices, int) or not 0 <= novices <= players:
        raise InputError(f"--novices {novices!r}: expected 0 to the number of players ({players})")
    if str(difficulty) not in tuple(Difficulty):
        raise InputError(f"--difficulty {str(difficulty)[:40]!r}: expected one of {', '.join(Difficulty)}")
    expansions = frozenset(Expansion(e) for e in expansions)
    seed = int(seed)
    board, deck, rules, time = map or default_map(), deck or default_deck(), rules or default_rules(), \
        time or default_time()
    setup = Setup(board, deck, rules, time, players, novices, Difficulty(difficulty), expansions,
                  time.limit(difficulty, players, novices), seats_for(players))
    rng = step_rng(seed, 0)
    order = tuple(int(i) for i in rng.permutation(len(deck.cards)))
    weather: list[Weather | None] = [None] * ISLANDS
    if Expansion.WEATHER in expansions:
        tiles = [w for w, n in rules.weather_tiles for _ in range(n)]
        drawn = [tiles[int(i)] for i in rng.permutation(len(tiles))[:rules.weather_placed]]
        for k, w in zip(board.green, drawn):
            weather[k] = w
    tile: list[Maneuver | None] = [None] * PLANES
    if Expansion.EXPERT in expansions:
        mix = [list(Maneuver)[int(i)] for i in rng.permutation(len(Maneuver))]
        tile = mix[:PLANES]
    r = rules
    entries = ((N_("set-up (map '{}' {}, deck {}, {} {}, {}, {} novice(s), expansions: {})"),
                (board.name, board.graph.provenance, deck.provenance, players, N_("players") if players > 1 else
                 N_("player"), str(Difficulty(difficulty)), novices, Phrase(_expansions, tuple(sorted(expansions))))),
               (N_("  timer {} minutes (YT.S4); Dauntless 1 and 2 in the approach zone with fuel {}; Dauntless 3 "
                   "and 4 go to two red islands with fuel {} (YT.S2)"), (setup.limit // 60, r.fuel_max, r.fuel_on_red)))
    return State(
        setup=setup, seed=seed, step=1, phase=Phase.SET_UP, turn=0, clock=0, acting=None, deck=order, discard=(),
        japanese=((),) * ISLANDS, supply=tuple(n for _, n in deck.pools), cap=0, search=0, yorktown=0, shoho=0,
        loc=(board.approach, board.approach, board.runway, board.runway),
        fuel=(r.fuel_max, r.fuel_max, r.fuel_on_red, r.fuel_on_red), skill=(0,) * PLANES, side_b=(False,) * PLANES,
        load=(None,) * PLANES, tile=tuple(tile), choice=(None,) * PLANES, done=(False,) * PLANES, runway_used=0,
        weather=tuple(weather), revealed=(False,) * ISLANDS, shot_down=0, crashes=0, throws=0,
        tiles_played=0, tanks_used=0, weather_searches=0, roll=None, over=None,
        log_entries=entries)
