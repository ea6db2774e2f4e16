"""The engine protocol: states, players and the game descriptor (see the package doc)."""
from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeGuard, cast, runtime_checkable

from furball.errors import IllegalAction, InputError

__all__ = ["GameState", "SimultaneousState", "acting_seats", "awaited_seats", "seat_actions", "Player", "Game",
           "GameInfo", "Utility", "Information", "Option", "IllegalAction", "TERMINAL", "action_text", "decide", "Reason",
           "Explains", "Timed", "SeatEvents", "PublicDescribe", "refuse", "TakeBack", "TakesBack", "take_back"]

TERMINAL = None
"""What ``current_player()`` returns once the game is over."""


def action_text(action: Any, most: int = 120) -> str:
    """An action (any value) as short readable text for an error line: a dataclass as its
    kind and the fields that differ from their defaults, enum members by their value
    (``set_up nodes=(6, 7)``, not ``Action(kind=<Kind.SET_UP: 'set_up'>, ...)``)."""
    import dataclasses
    import enum

    def plain(value: Any) -> str:
        if isinstance(value, enum.Enum):
            return str(value.value)
        if isinstance(value, tuple):
            return "(" + ", ".join(map(plain, value)) + ("," if len(value) == 1 else "") + ")"
        return repr(value)

    if dataclasses.is_dataclass(action) and not isinstance(action, type):
        parts: list[str] = []
        for f in dataclasses.fields(action):
            value = getattr(action, f.name)
            if f.name == "kind":
                parts.insert(0, plain(value).strip("'"))
            elif f.default is dataclasses.MISSING or value != f.default:
                parts.append(f"{f.name}={plain(value)}")
        text = " ".join(parts)
    else:
        text = plain(action)
    return text if len(text) <= most else text[:most - 3] + "..."


@runtime_checkable
class GameState(Protocol):
    """An immutable game position. Every engine's ``State`` has these members."""

    events: tuple[str, ...]
    """Log lines of the transition that produced this state (set-up for the first)."""

    def current_player(self) -> int | None:
        """The seat (0-based) to act, or :data:`TERMINAL` (``None``) when the game is over.
        Chance is resolved inside ``apply`` from the game's seed, never by a player."""

    def legal_actions(self) -> Sequence[Hashable]:
        """Every legal action of the current player, in a fixed order; empty at the end."""

    def apply(self, action: Hashable) -> GameState:
        """The state after ``action``. Raises :class:`IllegalAction` (nothing changes)."""

    def is_terminal(self) -> bool:
        """Whether the game is over."""

    def returns(self) -> tuple[float, ...]:
        """One number per seat: the score so far (final once terminal)."""

    def observation(self, player: int) -> Any:
        """What ``player`` may see now; bots choose from this only (hidden information
        stays hidden). Perfect-information games may return the state itself."""

    def observation_string(self, player: int) -> str:
        """The observation as text, for the terminal."""

    def describe(self, action: Hashable) -> str:
        """A short human-readable text of ``action`` in this state."""

    def outcome(self) -> tuple[str, ...]:
        """Closing lines of a finished game (the result in words)."""

    def result(self) -> dict[str, Any]:
        """One flat row (str/int/float/bool values) describing the result, for
        Monte Carlo tables and sweep files."""

    # Optional: ``without_log() -> GameState``, the same position whose transitions
    # keep no log (``events`` empty, no log line formatted). ``play_game(...,
    # keep_log=False)`` uses it when a state has it; every draw, decision and result
    # must stay the same as with the log.
    #
    # Optional, each a protocol of its own below: ``explain`` (:class:`Explains`), a
    # game clock (:class:`Timed`), per-seat event lines (:class:`SeatEvents`) and a
    # public description of an action (:class:`PublicDescribe`). Event lines never
    # carry the game's seed (it decides every hidden card): whoever holds the seed
    # (the CLI, a room once the game is over) says it.


@dataclass(frozen=True)
class Reason:
    """Why an action is not legal now: ``rule``, the rule it breaks (a spec ID such as
    ``CN.P4``), and ``text``, one line made only from what the acting seat sees (a
    refusal tells no secret). ``str(reason)`` is ``"text (RULE)"``."""

    rule: str
    text: str

    def __str__(self) -> str:
        return f"{self.text} ({self.rule})"


@runtime_checkable
class Explains(Protocol):
    """A state that says why an action is refused, as the dogfight's ``PlanError.rule``
    does: ``apply`` raises :class:`IllegalAction` with this reason."""

    def explain(self, action: Any) -> Reason | None:
        """``None`` when ``action`` is legal now, else the :class:`Reason` it is not."""


def refuse(action: str, reason: Reason) -> IllegalAction:
    """The :class:`IllegalAction` of an engine's ``apply`` for ``action`` (its text):
    ``"action TEXT: WHY (RULE)"``."""
    return IllegalAction(f"action {action}: {reason}", reason.rule)


@runtime_checkable
class Timed(Protocol):
    """A state of a game played against a clock (Yorktown's timer, YT.S4). A game room
    may run the clock in real time through these members only."""

    clock_s: int
    """The game clock's reading, seconds since the start."""
    limit_s: int
    """The reading at which time is up (the game is then over)."""

    def at_clock(self, reading_s: int) -> GameState:
        """The same position with the clock read at ``reading_s`` (past the limit: the
        game lost on time, its events saying so)."""


@runtime_checkable
class SeatEvents(Protocol):
    """A state whose log is a referee's (the dogfight's turn reports name every damage
    card): ``events_for(player)`` gives the lines of ``events`` as seat ``player`` may
    see them (``None``: what every seat sees). Without it ``events`` is public: a game
    room sends it to every seat. Where the state also has ``entries_for(player)`` (the
    same lines as log entries ``(template, args)``), a room keeps those and renders them
    in each reader's language."""

    def events_for(self, player: int | None) -> tuple[str, ...]:
        """The lines of the last transition that ``player`` may read."""


@runtime_checkable
class PublicDescribe(Protocol):
    """A state that says what every seat may be told of an action as it is taken."""

    def public_describe(self, action: Any) -> str | None:
        """``None``: nothing (the log says what may be said, e.g. a token put face down
        into a sealed bid), else a text. Terminal play prints it for a bot's action in
        place of ``describe``, which may name the deciding seat's secrets."""


class TakeBack(enum.StrEnum):
    """Whether an action may be taken back (a room's undo request, docs/rooms.md): what
    an engine declares through :class:`TakesBack`.

    * ``NEVER``: the action drew chance or revealed hidden information (or the engine
      does not say): neither it nor anything before it may be taken back;
    * ``HIDDEN``: it draws nothing and reveals nothing, but the other seats do not see
      that it was taken (a changed secret plan): it may be undone along with another
      seat's earlier action, never asked back by its own seat (asking would tell);
    * ``OPEN``: it draws nothing, reveals nothing, and every seat sees that it was taken.
    """

    NEVER = "never"
    HIDDEN = "hidden"
    OPEN = "open"


@runtime_checkable
class TakesBack(Protocol):
    """A state that says which of its actions may be taken back (:class:`TakeBack`). An
    engine without it never allows a take-back. Whether an action is ``NEVER`` must be
    something every seat can tell (it is in every seat's observation, e.g. a flown turn):
    a room closes every seat's take-backs at such an action."""

    def take_back(self, action: Any) -> TakeBack:
        """Whether ``action``, taken in this state, may be taken back."""


def take_back(state: GameState, action: Any) -> TakeBack:
    """``state.take_back(action)`` (:class:`TakesBack`), else ``NEVER``."""
    return TakeBack(state.take_back(action)) if isinstance(state, TakesBack) else TakeBack.NEVER


@runtime_checkable
class SimultaneousState(Protocol):
    """Optional, for a game with simultaneous nodes (the dogfight's planning, DF.M1), as
    OpenSpiel's simultaneous games and boardgame.io's ``setActivePlayers`` have them:
    several seats may act on the same state, each with its own legal actions, and an
    action names its seat (the engine tells whose it is). ``apply`` stays one function
    of (state, action).

    Such a state still answers the sequential protocol of :class:`GameState`, for the
    consumers that take one decision at a time (``furball play``, sweeps, search bots,
    the OpenSpiel and PettingZoo adapters): ``current_player()`` is the first of
    :meth:`awaited_players` (the seat the sequential presentation asks next) and
    ``legal_actions()`` that seat's actions in it; applying them one after another
    plays the same game. A room (:mod:`scenarios.web.rooms`) lets every seat of
    :meth:`current_players` act at once (:func:`acting_seats`, :func:`seat_actions`)."""

    def current_players(self) -> tuple[int, ...]:
        """Every seat that may act now, in seat order (``()`` once the game is over)."""

    def awaited_players(self) -> tuple[int, ...]:
        """The seats the node still waits for (they have not acted yet), in seat order;
        a subset of :meth:`current_players` (the others may act again, e.g. change a
        locked plan). Its first is ``current_player()``."""

    def legal_actions_for(self, seat: int) -> Sequence[Hashable]:
        """Every legal action of ``seat`` now, in a fixed order (empty for a seat not
        among :meth:`current_players`). Raises :class:`IndexError` for a seat the game
        does not have."""


@functools.lru_cache(maxsize=64)
def _simultaneous_class(cls: Hashable) -> bool:
    return isinstance(cls, type) and issubclass(cls, SimultaneousState)


def is_simultaneous(state: Any) -> TypeGuard[SimultaneousState]:
    """``isinstance(state, SimultaneousState)``, answered once per class of state: a
    protocol of methods only is a question about the class, where ``isinstance`` against
    a runtime protocol walks its members on every call (20-80 µs on Python 3.11, several
    times per move and viewer in a room)."""
    return _simultaneous_class(cast(Hashable, type(state)))  # classes hash (typeshed says type[Any] may not)


def acting_seats(state: GameState) -> tuple[int, ...]:
    """The seats that may act in ``state``: its ``current_players()``
    (:class:`SimultaneousState`), else its ``current_player()`` alone (``()`` at the end)."""
    if is_simultaneous(state):
        return tuple(state.current_players())
    seat = state.current_player()
    return () if seat is None else (seat,)


def awaited_seats(state: GameState) -> tuple[int, ...]:
    """The seats ``state`` waits for: its ``awaited_players()`` (:class:`SimultaneousState`),
    else its ``current_player()`` alone (``()`` at the end)."""
    if is_simultaneous(state):
        return tuple(state.awaited_players())
    seat = state.current_player()
    return () if seat is None else (seat,)


def seat_actions(state: GameState, seat: int) -> Sequence[Hashable]:
    """Seat ``seat``'s legal actions in ``state``: ``legal_actions_for(seat)``
    (:class:`SimultaneousState`), else ``legal_actions()`` when ``seat`` is the
    current player, else ``()``."""
    if is_simultaneous(state):
        return state.legal_actions_for(seat)
    return state.legal_actions() if state.current_player() == seat else ()


class Player(Protocol):
    """A bot: picks one of the legal actions from what its seat may see."""

    name: str

    def choose(self, observation: Any) -> Hashable:
        """An action among the observation's legal actions."""

    # Optional: ``choose_in(state, seat) -> action``, for a bot that searches (the
    # ``mcts`` and ``ismcts`` bots of :mod:`.search`). It is given the state, and reads
    # it only through its game's resampling (``furball.scenarios.rl``), which re-deals
    # everything the seat cannot see before any search looks at it. :func:`decide`
    # calls it in place of ``choose``.


def decide(bot: Player, state: GameState, seat: int) -> Hashable:
    """The action ``bot`` takes for ``seat`` in ``state``: ``bot.choose(
    state.observation(seat))``, or ``bot.choose_in(state, seat)`` for a bot that
    searches (see :class:`Player`)."""
    search = getattr(bot, "choose_in", None)
    if search is not None:
        return search(state, seat)
    return bot.choose(state.observation(seat))


@dataclass(frozen=True)
class Option:
    """A game option that sweeps and the CLI can set (``--set KEY=VALUE``).

    ``kind`` turns the text into the value: ``int``, ``float``, ``str``, ``bool`` or any
    callable (e.g. a map loader, raising :class:`InputError`); ``choices`` limits the
    values; ``default`` is what ``new_game`` gets when the option is not set."""

    name: str
    kind: Callable[[str], Any]
    default: Any
    help: str = ""
    choices: tuple | None = None

    def parse(self, text: str) -> Any:
        """The value written as ``text``. Raises :class:`InputError` naming the option."""
        try:
            if self.kind is bool:
                low = text.strip().lower()
                if low not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError
                value = low in ("true", "1", "yes")
            else:
                value = self.kind(text)
        except InputError:
            raise
        except (ValueError, OverflowError):
            what = getattr(self.kind, "__name__", "a value")
            raise InputError(f"option {self.name}: expected {what}, got {text[:40]!r}") from None
        return self.check(value)

    def check(self, value: Any) -> Any:
        if self.choices is not None and value not in self.choices:
            raise InputError(f"option {self.name}: expected one of {', '.join(map(str, self.choices))}, "
                             f"got {str(value)[:40]!r}")
        return value


class Utility(enum.StrEnum):
    """How the seats' returns relate (OpenSpiel's ``GameType.Utility``)."""

    ZERO_SUM = "zero_sum"
    CONSTANT_SUM = "constant_sum"
    GENERAL_SUM = "general_sum"
    IDENTICAL = "identical"


class Information(enum.StrEnum):
    """What seats see (OpenSpiel's ``GameType.Information``)."""

    PERFECT = "perfect"
    IMPERFECT = "imperfect"


@dataclass(frozen=True)
class GameInfo:
    """The facts of one game as set up (OpenSpiel's ``GameInfo``): how the seats'
    returns relate (``utility``), their bounds (``min_utility`` to ``max_utility``: every
    seat's return lies between them) and the most decisions the game can take
    (``max_length``)."""

    utility: Utility
    min_utility: float
    max_utility: float
    max_length: int


@dataclass(frozen=True)
class Game:
    """A game engine described as data.

    ``name`` (CLI spelling, e.g. ``"canuck"``), ``title``; ``min_players`` /
    ``max_players`` (seats); ``new_game(seed, **options) -> GameState``; ``players``:
    bot name -> factory ``(seed, seat) -> Player``; ``options``: the settable options
    (passed to ``new_game`` by name); ``seats(options)``: how many seats a game with
    these options has (default ``min_players``); ``combinations(given, spell)``: raises
    :class:`InputError` for options that do not go together (``spell(name)`` writes an
    option as the user gave it); ``outcome``: the result column that
    pictures of many games show (default: the first numeric one, else the first).

    The game's facts, as OpenSpiel's ``GameType`` and ``GameInfo`` declare them: the
    seats above; ``information``: whether seats see everything (:class:`Information`);
    ``info(first) -> GameInfo``: the utility and the longest game of the game that starts
    at state ``first`` (they may depend on its options, e.g. a dogfight of two seats on
    two sides is zero-sum), or ``None`` where the game declares none.
    """

    name: str
    title: str
    new_game: Callable[..., GameState]
    players: Mapping[str, Callable[[int, int], Player]]
    min_players: int = 1
    max_players: int = 1
    options: tuple[Option, ...] = ()
    seats: Callable[[Mapping[str, Any]], int] | None = None
    combinations: Callable[[Mapping[str, Any], Callable[[str], str]], None] | None = None
    notes: str = field(default="", compare=False)
    outcome: str | None = None
    information: Information = Information.IMPERFECT
    info: Callable[[GameState], GameInfo] | None = None

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise InputError(f"{self.name}: unknown option {name!r} (options: "
                         f"{', '.join(o.name for o in self.options) or 'none'})")

    def defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def check_combination(self, given: Mapping[str, Any],
                          spell: Callable[[str], str] = lambda name: f"option {name}") -> None:
        """Raise :class:`InputError` if the options ``given`` together (without the
        defaults) make no sense for this game (see :attr:`combinations`, called with
        ``given`` and ``spell``). ``spell`` writes an option's name as the user wrote it
        (the CLI: ``lambda name: f"--{name}"``), so the line names what to change."""
        if self.combinations is not None:
            self.combinations(given, spell)

    def seat_count(self, options: Mapping[str, Any]) -> int:
        return self.seats(options) if self.seats is not None else self.min_players

    def game_info(self, first: GameState) -> GameInfo:
        """The :class:`GameInfo` of the game that starts at state ``first``. Raises
        :class:`InputError` for a game that declares none."""
        if self.info is None:
            raise InputError(f"{self.name}: the game declares no utility or longest game")
        return self.info(first)

    def player(self, kind: str, seed: int, seat: int = 0) -> Player:
        """A bot of ``kind`` for ``seat``. Raises :class:`InputError` for an unknown kind."""
        if kind not in self.players:
            raise InputError(f"--player {kind[:40]!r}: expected one of {', '.join(self.players)}")
        return self.players[kind](seed, seat)
