"""Game rooms as Python values: a game several people (and bots) play through a server.

A **room** is a game engine's :class:`~scenarios.engine.Game` descriptor (by name, from
the registry of games, :mod:`scenarios.engine.registry`; :func:`available_games`), its
options (as text), a seed, who plays each seat (a person, or a bot by name) and the list
of accepted **events**: the actions taken, each stored as its index in the state's
``legal_actions()`` and its ``describe()`` text, and the owner's changes of who plays a
seat. The state is never stored: it is rebuilt from the seed and
the actions (:meth:`Room.replay`), and a stored text that the engine no longer gives
for that index stops the replay with one line (:class:`RoomBroken`), so a room is never
continued from a position the engine did not make.

**Secrecy is a function of (state, seat), written once**: what a seat receives
(:meth:`Room.view`) is made from the engine's ``observation(seat)`` and
``observation_string(seat)`` only, turned into JSON by the game's view module
(:mod:`.views`); a spectator (``seat=None``) gets the public half of it. The log a seat
reads holds the engine's event lines (public by the engine protocol) and the
``describe()`` text of its own actions only (another seat's "add a radar token worth 6"
stays with that seat). The seed decides every hidden card, so it is hidden too: no
engine writes it in its event lines, and the views carry it only once the game is over
(``furball play GAME --seed N`` replays it).

**Simultaneous nodes** (an engine's optional
:class:`~scenarios.engine.protocol.SimultaneousState`, the dogfight's planning, DF.M1):
every seat among the state's ``current_players()`` may act at once, by the index of its
action in its own ``legal_actions_for(seat)`` (what an event stores); a seat's refusal as
stale comes only from its own :meth:`Room.view_version`, which another seat's secret lock
does not move. A bot decides as soon as its seat is awaited (``awaited_players()``);
a searching bot (``mcts``, ``ismcts``), which searches the engine's sequential
presentation, when its seat is ``current_player()``.

**A limit on one seat's choice** (the dogfight's chaser, DF.T2): where the game's view
module has a ``limited_seat(state)`` and the room its ``chaser_limit_s`` option, a
person whose seat that function names has so many seconds from the event that made the
position (:meth:`Room.choice_deadline`); then the room takes the seat's first legal
action (the engine's default: the chaser keeps its order), stored as a ``timeout``
event (:meth:`Room.timeout_event`), so a restarted server agrees.

Bots decide from their seat's observation, one decision at a time, each with a fresh bot
seeded from the room's seed and the event number (:func:`bot_seed`): the same room
gives the same game whether or not the server was restarted in between.

**Take-backs** (:meth:`Room.take_back_event`, docs/rooms.md): a seat may ask to take
back its last action while the engine says nothing was drawn or revealed since
(:class:`~scenarios.engine.protocol.TakesBack`; an engine without it never takes back);
the other seats played by persons accept or refuse (bots accept), and the request and
each answer are events (:data:`EventKind.UNDO`), so a rebuilt room agrees.

Credentials (:func:`new_token`, :func:`token_hash`, :func:`token_matches`): 192-bit
random tokens (``secrets.token_urlsafe(24)``), stored as SHA-256 hashes only and
compared in constant time (:func:`hmac.compare_digest`). Documents and messages:
docs/rooms.md.
"""
from __future__ import annotations

import functools
import hashlib
import hmac
import importlib
import json
import math
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from types import MappingProxyType, ModuleType
from typing import Any

import numpy as np

from furball.errors import IllegalAction, InputError
from furball.i18n import DEFAULT_LANG, N_, Entry, Lang, Message, msg, render, render_entry, translator
from furball.scenarios.engine import Game, GameState, Option, decide, registry
from furball.scenarios.engine.protocol import (
    Explains,
    SeatEvents,
    TakeBack,
    Timed,
    acting_seats,
    awaited_seats,
    seat_actions,
    take_back,
)
from furball.scenarios.engine.search import SEARCH_KINDS

__all__ = ["RoomGame", "RoomOption", "EventKind", "Event", "RoomSpec", "LogLine", "Room", "RoomBroken",
           "StaleAction", "MAX_SEED", "MAX_EVENTS", "MAX_TITLE", "room_game", "available_games", "new_token",
           "token_hash", "token_matches", "new_room_id", "bot_seed", "make_spec", "games_json", "seat_count", "ClockMode",
           "CLOCK", "PAUSING", "BotCall", "bot_choice", "QUICK_BOTS", "seat_names", "Taken", "TakeBackWord",
           "MAX_TAKE_BACK", "ChatLine", "chat_text"]

MAX_SEED = 2**53 - 1
"""Seeds are at most this (what a page's JavaScript keeps exactly)."""
MAX_EVENTS = 100_000
"""A room refuses more than this many actions of one seat, and more than this many of the
owner's events (controls, clock): no shipped game comes near it. Counted apart, so that
whether a seat's action is refused depends only on what that seat sees (its own actions
and the public events), never on how many secret actions other seats made."""
MAX_TITLE = 80
"""The longest room title, in characters."""
MAX_OPTION_CHARS = 200
"""The longest text of an option (unless its :class:`RoomOption` allows more)."""
ROOM_ID_BYTES = 12
"""Random bytes in a room's id (96 bits: the spectator link cannot be guessed)."""
TOKEN_BYTES = 24
"""Random bytes in a seat's or the owner's token (192 bits)."""
MAX_TAKE_BACK = 64
"""The most actions a room keeps for take-backs (the oldest is forgotten first)."""


# ------------------------------------------------------------------------------ the games
_attribute = registry.import_attribute


@dataclass(frozen=True)
class RoomOption:
    """How a room reads one of its game's options when the engine's own reading would
    not do for text sent over a network (the dogfight's ``scenario`` names a file to the
    CLI): ``parse`` (``"module:function"``, text -> value, raising
    :class:`InputError`), the lobby's ``kind`` (e.g. ``"scenario"``: a shipped name or an
    uploaded file), ``choices`` (``"module:function"`` listing the values to offer, or
    ``None``) and the longest text accepted, ``max_chars``."""

    parse: str
    kind: str = "text"
    choices: str | None = None
    max_chars: int = 200


@dataclass(frozen=True)
class RoomGame:
    """A game that can be played in a room: its registry entry
    (:mod:`scenarios.engine.registry`) with what its view module says of rooms
    (:func:`room_game`).

    ``name``: the CLI spelling; ``descriptor``: ``"module:ATTRIBUTE"`` of its
    :class:`~scenarios.engine.Game`; ``options``: the options a room may set, given as
    text and read by :meth:`~scenarios.engine.Option.parse` (options that name files are
    left out: nothing a request says opens a file); ``view``: the module turning its
    observations into JSON (:mod:`.views`), or ``None`` (text only); ``room_options``:
    ``(name, RoomOption)`` pairs for options a room reads its own way; ``own``: options
    of the room, not of the engine (:data:`CLOCK`, :data:`PAUSING`: a game with a timer
    whose room may run it in real time); ``prepare``: ``"module:function"`` turning the
    engine's options and the room's own into the options ``new_game`` gets (e.g. the
    time model of a real-time clock).
    """

    name: str
    descriptor: str
    options: tuple[str, ...] = ()
    view: str | None = None
    room_options: tuple[tuple[str, RoomOption], ...] = ()
    own: tuple[Option, ...] = ()
    prepare: str | None = None

    def room_option(self, name: str) -> RoomOption | None:
        """The :class:`RoomOption` of option ``name``, if the room reads it its own way."""
        return dict(self.room_options).get(name)

    def game(self) -> Game:
        """Its :class:`~scenarios.engine.Game` descriptor (imported now)."""
        return _attribute(self.descriptor)

    def view_module(self) -> ModuleType | None:
        return importlib.import_module(self.view) if self.view else None


class ClockMode(StrEnum):
    """How a timed game's clock runs in a room: in ``real`` time while people think (and
    bots decide), or by the engine's ``simulated`` time model (as in Monte Carlo)."""

    REAL = "real"
    SIMULATED = "simulated"


CLOCK = Option(N_("clock"), str, ClockMode.REAL.value, N_("the timer runs in real time while people think, or by the "
                                                     "simulated time model (as for bots and Monte Carlo)"),
               tuple(c.value for c in ClockMode))
"""A room's own option for a game with a timer (Yorktown, YT.S4)."""
PAUSING = Option(N_("pausing"), bool, False, N_("the room's owner may pause the real-time clock (the rules say it "
                                            "never stops)"))
"""A room's own option: whether its owner may stop the clock."""

@functools.lru_cache(maxsize=16)
def _room_game(entry: registry.GameEntry) -> RoomGame:
    """The :class:`RoomGame` of a registry entry, from its view module (:mod:`.views`):
    ``ROOM_OPTIONS`` (the options a room may set), and where it has them ``ROOM_READINGS``
    (:attr:`RoomGame.room_options`), ``ROOM_OWN`` (:attr:`RoomGame.own`) and
    ``prepare``."""
    view = entry.room_module()
    return RoomGame(entry.name, entry.engine, tuple(view.ROOM_OPTIONS), entry.room,
                    room_options=tuple(getattr(view, "ROOM_READINGS", ())), own=tuple(getattr(view, "ROOM_OWN", ())),
                    prepare=f"{entry.room}:prepare" if hasattr(view, "prepare") else None)


def available_games() -> tuple[RoomGame, ...]:
    """Every game a room can hold whose engine is installed, in the registry's order
    (the lobby's). Nothing else in the room layer names a game."""
    return tuple(_room_game(g) for g in registry.GAMES if g.available)


def room_game(name: Any) -> RoomGame:
    """The :class:`RoomGame` called ``name``. Raises :class:`InputError` listing the games."""
    names = [g.name for g in registry.GAMES if g.available]
    if name not in names:
        raise InputError(f"room: field 'game': expected one of {', '.join(names)}, got {_short(name)}")
    return _room_game(registry.entry(name))


def games_json(lang: Lang = DEFAULT_LANG) -> list[dict]:
    """The games a room can hold, for the lobby and the room pages: ``name``, ``title``,
    ``seats`` (min, max), ``bots``, ``options`` (``name``; ``label`` and ``help`` in ``lang``,
    the name read through the catalog where its game marks it; ``default``,
    ``choices``, ``kind``), ``page`` (the module of ``static/js/rooms/games/`` that draws
    it, its view module's ``PAGE``; ``None``: the engine's text)."""
    _ = translator(lang)
    out = []
    for rg in available_games():
        g = rg.game()
        options = []
        own_names = {o.name for o in rg.own}  # a room's own reading of an engine option replaces it
        for o in (*(o for o in g.options if o.name not in own_names), *rg.own):
            if o.name not in rg.options:
                continue
            kind = o.kind.__name__ if o.kind in (int, float, str, bool) else "text"
            choices = None if o.choices is None else [_jsonable(c) for c in o.choices]
            own = rg.room_option(o.name)
            if own is not None:
                kind = own.kind
                choices = None if own.choices is None else [_jsonable(c) for c in _attribute(own.choices)()]
            options.append({"name": o.name, "label": _(o.name), "help": _(o.help), "default": _jsonable(o.default), "choices": choices,
                            "kind": kind, "max_chars": own.max_chars if own is not None else MAX_OPTION_CHARS})
        out.append({"name": rg.name, "title": g.title, "seats": [g.min_players, g.max_players],
                    "bots": list(g.players), "options": options, "notes": _(g.notes) if g.notes else g.notes,
                    "page": getattr(rg.view_module(), "PAGE", None)})
    return out


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (set, frozenset)):
        return ",".join(sorted(map(str, value)))
    return str(value)


def _short(value: Any, most: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= most else text[:most - 3] + "..."


# ------------------------------------------------------------------------------ credentials
def new_token() -> str:
    """A new seat or owner token: ``secrets.token_urlsafe(24)`` (192 random bits)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_room_id() -> str:
    """A new room id: 96 random bits, URL-safe."""
    return secrets.token_urlsafe(ROOM_ID_BYTES)


def token_hash(token: str) -> str:
    """What the store keeps of a token: its SHA-256, hex (a stolen database holds no
    usable credential)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def token_matches(token: Any, stored_hash: str | None) -> bool:
    """Whether ``token`` is the one whose hash is ``stored_hash``, compared in constant
    time (:func:`hmac.compare_digest`)."""
    if not isinstance(token, str) or not stored_hash or len(token) > 200:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)


def bot_seed(seed: int, event: int, seat: int) -> int:
    """The seed of the bot deciding event ``event`` for ``seat`` in a room of ``seed``:
    ``SeedSequence([seed, event, seat])`` as a 32-bit integer. A fresh bot decides
    each event, so a restarted server makes the same decisions as one that never stopped."""
    return int(np.random.SeedSequence([int(seed), int(event), int(seat)]).generate_state(1)[0])


QUICK_BOTS = ("heuristic", "random")
"""The bots a seat falls back on, the first the game has, for a decision its own bot
did not make within the time limit."""


@dataclass(frozen=True)
class BotCall:
    """A bot's decision to make, as plain values a worker process receives: the
    ``game``'s name, the ``bot``'s name, its ``seed`` (:func:`bot_seed`), the ``seat``,
    the ``state`` to decide in (its clock read at ``now``: ``reading``), and the room's
    ``version`` it was made for."""

    game: str
    bot: str
    seed: int
    seat: int
    state: Any = field(repr=False)
    reading: int | None
    now: float
    version: int

    def quick(self) -> BotCall:
        """The same decision for the game's quick bot (:data:`QUICK_BOTS`)."""
        players = room_game(self.game).game().players
        name = next((b for b in QUICK_BOTS if b in players), self.bot)
        return BotCall(self.game, name, self.seed, self.seat, self.state, self.reading, self.now, self.version)


def bot_choice(call: BotCall) -> int:
    """The index, among ``call.state``'s legal actions, of the action ``call.bot``
    chooses (a fresh bot seeded with ``call.seed``). A module-level function of plain
    values, so a worker process can run it."""
    game = room_game(call.game).game()
    bot = game.player(call.bot, call.seed, call.seat)
    chosen = decide(bot, call.state, call.seat)
    legal = seat_actions(call.state, call.seat)
    index = next((i for i, a in enumerate(legal) if a is chosen), None)
    return list(legal).index(chosen) if index is None else index


# ------------------------------------------------------------------------------ values
class EventKind(StrEnum):
    """What an :class:`Event` records."""

    ACTION = "action"    # a seat's action (by a person or a bot)
    CONTROL = "control"  # the owner hands a seat to a bot, or back to its person
    CLOCK = "clock"      # a real-time clock paused or resumed by the owner, or run out
    UNDO = "undo"        # a seat asks to take back its last action, or answers another's request
    TIMEOUT = "timeout"  # a seat's time to choose ran out: the room took its first legal action


class TakeBackWord(StrEnum):
    """What an :data:`EventKind.UNDO` event says (its ``text``)."""

    ASK = "ask"
    ACCEPT = "accept"
    REFUSE = "refuse"


@dataclass(frozen=True)
class Event:
    """One accepted event of a room, numbered from 1 (0 is the set-up).

    ``action``: the index of the action among the seat's legal actions (ACTION:
    ``legal_actions()``, or ``legal_actions_for(seat)`` of an engine with simultaneous
    nodes, the same list where both exist) or ``None``;
    ``text``: its ``describe()`` text (ACTION, TIMEOUT: checked when the room is rebuilt), the
    bot now playing the seat, ``""`` for a person (CONTROL), ``pause``, ``resume``,
    ``time`` (CLOCK), or a :class:`TakeBackWord` (UNDO: ``seat`` asks or answers); ``at``: Unix time, seconds; ``clock``: in a room whose clock runs in
    real time, the game clock's reading (seconds) when the event happened, which the
    rebuilt game is given (the engine's ``at_clock``), else ``None``.
    """

    n: int
    kind: EventKind
    seat: int
    action: int | None
    text: str
    at: float = 0.0
    clock: int | None = None


@dataclass(frozen=True)
class RoomSpec:
    """What a room was created with (never changes): ``id``, ``game`` (a name of
    the registry), ``options`` (option name -> text, as parsed), ``seed``, the
    first ``controllers`` (per seat: a bot name, or ``None`` for a person), ``title``,
    ``created`` (Unix time)."""

    id: str
    game: str
    options: Mapping[str, str]
    seed: int
    controllers: tuple[str | None, ...]
    title: str = ""
    created: float = 0.0


LogText = str | Message | tuple[str, tuple]
"""A log line as a room keeps it: the engine's log entry ``(template, args)`` (its
``log_entries``), a :class:`~furball.i18n.Message`, or finished text (an engine
without entries, a line not converted yet): never rendered until a viewer reads it,
in the viewer's language (docs/i18n.md)."""


def render_line(line: LogText, lang: Lang = DEFAULT_LANG) -> str:
    """``line`` in ``lang`` (finished text through the catalog: itself where it has no entry)."""
    if isinstance(line, tuple):
        return render_entry(*line, lang)
    if isinstance(line, Message):
        return render(line, lang)
    return translator(lang)(line)


@dataclass(frozen=True)
class LogLine:
    """One entry of the log a viewer reads: the event number ``n`` (kept server-side
    only), the acting ``seat`` (``None``: the set-up), ``action`` (the ``describe()``
    text, present only for the seat that acted) and the public event ``entries``, kept
    as ids and values (:data:`LogText`) and rendered per reader: :meth:`as_json` in a
    language, :attr:`lines` in English."""

    n: int
    seat: int | None
    action: LogText | None
    entries: tuple[LogText, ...]

    @property
    def lines(self) -> tuple[str, ...]:
        """The event lines in English."""
        return tuple(render_line(line) for line in self.entries)

    def as_json(self, lang: Lang = DEFAULT_LANG) -> dict:
        """What a reader of ``lang`` receives: ``seat``, ``action`` and ``lines`` as text."""
        return {"seat": self.seat, "action": None if self.action is None else render_line(self.action, lang),
                "lines": [render_line(line, lang) for line in self.entries]}


@dataclass(frozen=True)
class Taken:
    """An action a take-back may reach: its ``seat``, what the engine declares of it
    (:class:`~scenarios.engine.protocol.TakeBack`) and the state ``before`` it."""

    seat: int
    kind: TakeBack
    before: GameState = field(repr=False, compare=False)


@dataclass(frozen=True)
class ChatLine:
    """One line of a room's chat: ``n``, its number in the chat's own sequence (from 1;
    never an event number), the writing ``seat``, its ``text`` and ``at`` (Unix time,
    kept in the store only: a page is sent no time, nothing that could date another
    seat's secret action)."""

    n: int
    seat: int
    text: str
    at: float = 0.0

    def as_json(self, labels: Sequence[str]) -> dict:
        return {"n": self.n, "seat": self.seat, "label": labels[self.seat], "text": self.text}


def chat_text(text: Any, most: int) -> str:
    """A chat line's text, checked: printable text (new lines allowed) of 1 to ``most``
    characters once stripped. Raises :class:`InputError` (one line)."""
    if not isinstance(text, str) or not text.strip():
        raise InputError(msg("request: field 'text': expected the text of a chat line"))
    text = text.strip()
    if len(text) > most:
        raise InputError(msg("request: field 'text': expected at most {most} characters, got {count}", most=most,
                             count=len(text)))
    if not all(c.isprintable() or c == "\n" for c in text):
        raise InputError(msg("request: field 'text': expected printable text (no control characters)"))
    return text


class RoomBroken(InputError):
    """A stored room cannot be rebuilt: an event is not what this engine makes of it
    (another furball version, or an edited database)."""


class StaleAction(IllegalAction):
    """An action chosen in a position the room has left (another event came first)."""


@dataclass(frozen=True)
class Room:
    """A live room: its ``spec``, the engine's ``state`` after every event (and the
    game's ``kind``, its :class:`RoomGame`), who plays each seat now (``controllers``), the ``events`` so far and, per viewer (each seat, then the
    spectators), the log lines it may read (``logs``). With a real-time clock
    (:data:`CLOCK`): whether the owner has ``paused`` it, and ``clock_since``, the Unix
    time of the state's clock reading (``None``: not started: the clock starts with the
    first action). Take-backs (docs/rooms.md, "Take-backs"): ``takeback``, the actions
    since the last one the engine says may not be taken back (:class:`Taken`, at most
    :data:`MAX_TAKE_BACK`), and ``asked``, a pending request: the asking seat and the
    seats still to answer. Immutable: :meth:`act`, :meth:`control`, :meth:`clock_event`,
    :meth:`take_back_event` and :meth:`apply` return a new room.
    """

    spec: RoomSpec
    game: Game = field(repr=False, compare=False)
    state: GameState = field(repr=False, compare=False)
    kind: RoomGame = field(repr=False, compare=False)
    controllers: tuple[str | None, ...]
    events: tuple[Event, ...]
    logs: tuple[tuple[LogLine, ...], ...] = field(repr=False, compare=False)
    paused: bool = False
    clock_since: float | None = None
    takeback: tuple[Taken, ...] = field(default=(), repr=False, compare=False)
    asked: tuple[int, tuple[int, ...]] | None = None

    # -- building ---------------------------------------------------------------------
    @classmethod
    def new(cls, spec: RoomSpec) -> Room:
        """The room at its set-up. Raises :class:`InputError` for a bad game, option or
        seat count (see :func:`make_spec`, which checks them first)."""
        rg = room_game(spec.game)
        game = rg.game()
        options = _parse_options(rg, game, spec.options)
        seats = game.seat_count(options)
        if len(spec.controllers) != seats:
            raise InputError(f"room: field 'seats': expected {seats} seats for these options, "
                             f"got {len(spec.controllers)}")
        state = game.new_game(spec.seed, **options)
        logs = tuple((LogLine(0, None, None, _events(state, viewer, seats)),) for viewer in range(seats + 1))
        return cls(spec, game, state, rg, tuple(spec.controllers), (), logs)

    @classmethod
    def replay(cls, spec: RoomSpec, events: Sequence[Event]) -> Room:
        """The room after ``events`` (from the store). Raises :class:`RoomBroken` when an
        event does not fit (see :meth:`apply`)."""
        room = cls.new(spec)
        for e in events:
            room = room.apply(e)
        return room

    # -- reading ----------------------------------------------------------------------
    @property
    def version(self) -> int:
        """Events so far (the number of the last one; 0 at the set-up)."""
        return len(self.events)

    def view_version(self, seat: int | None) -> int:
        """The position number ``seat`` (``None``: a spectator) knows: how many events of
        its own log there are after the set-up (0 at the set-up). It moves only with an
        event the viewer sees (its own action, or one that gives it log lines), never with
        another seat's secret one, so a seat's view, its acknowledgements and its refusals
        never carry the room's event number (:attr:`version`: another seat adding radar
        tokens to its sealed bid moves that, WC.F4)."""
        return len(self.log_for(seat)) - 1

    @property
    def seats(self) -> int:
        return len(self.controllers)

    @cached_property
    def labels(self) -> tuple[str, ...]:
        """Each seat's name: ``P1``, ``P2`` ..."""
        return tuple(f"P{i + 1}" for i in range(self.seats))

    @cached_property
    def names(self) -> tuple[str, ...]:
        """What each seat plays, in words, where the engine says (its optional
        ``seat_names()``: a dogfight seat's planes, ``"SPAD, Nieuport"``), else ``""``."""
        return _seat_names(self.state, self.seats)

    @property
    def to_act(self) -> int | None:
        """The seat to act (at a simultaneous node: the first seat it waits for), or
        ``None`` once the game is over."""
        return self.state.current_player()

    @property
    def acting(self) -> tuple[int, ...]:
        """Every seat that may act now (more than one at a simultaneous node)."""
        return acting_seats(self.state)

    @property
    def awaited(self) -> tuple[int, ...]:
        """The seats the game waits for now (at a simultaneous node, those that have not
        acted yet; else the seat to act)."""
        return awaited_seats(self.state)

    @property
    def terminal(self) -> bool:
        return self.state.is_terminal()

    def bot_seat(self) -> int | None:
        """The seat a bot decides for now, if any: the first awaited seat a bot plays (a
        searching bot only when its seat is :attr:`to_act`: module docstring); none while
        a take-back is asked (the answers come first)."""
        if self.asked is not None:
            return None
        for seat in self.awaited:
            bot = self.controllers[seat]
            if bot is not None and (bot.split(":")[0] not in SEARCH_KINDS or seat == self.to_act):
                return seat
        return None

    def bot_to_act(self) -> str | None:
        """The bot that decides now (:meth:`bot_seat`), if a bot does."""
        seat = self.bot_seat()
        return None if seat is None else self.controllers[seat]

    # -- a real-time clock (YT.S4) --------------------------------------------------------
    @cached_property
    def room_options(self) -> dict[str, Any]:
        """The room's own options (:attr:`RoomGame.own`), parsed."""
        return _all_options(self.kind, self.game, self.spec.options)[1]

    @property
    def real_time(self) -> bool:
        """Whether the game's clock runs in real time (:data:`CLOCK`)."""
        return self.room_options.get("clock") == ClockMode.REAL

    @property
    def _timed(self) -> Timed:
        """The state as a :class:`~scenarios.engine.protocol.Timed` one (a room whose
        clock runs in real time holds a timed game: :data:`CLOCK` is offered only there)."""
        if not isinstance(self.state, Timed):
            raise InputError(f"room {self.spec.id}: {self.spec.game} has no game clock")
        return self.state

    @property
    def clock_running(self) -> bool:
        """Whether the real-time clock runs now (started, not paused, game not over)."""
        return self.real_time and self.clock_since is not None and not self.paused and not self.terminal

    def clock_at(self, now: float) -> int | None:
        """The game clock's reading (whole seconds) at Unix time ``now``, or ``None``
        without a real-time clock: the state's clock plus the time since its reading
        while the clock runs, at most the game's limit."""
        if not self.real_time:
            return None
        base = self._timed.clock_s
        if not self.clock_running:
            return base
        return min(self._timed.limit_s, base + max(0, int(now - self.clock_since)))

    def deadline(self) -> float | None:
        """The Unix time the running clock reaches the game's limit (``None``: it does
        not run)."""
        if not self.clock_running:
            return None
        return self.clock_since + (self._timed.limit_s - self._timed.clock_s)

    def _clocked(self, now: float) -> tuple[GameState, int | None]:
        """The state with its clock read at ``now`` (real time), and the reading."""
        reading = self.clock_at(now)
        if reading is None:
            return self.state, None
        return self._timed.at_clock(reading), reading

    # -- a limit on one seat's choice (the dogfight's chaser, DF.T2) ------------------------
    def limited_seat(self) -> int | None:
        """The seat whose choice the room times now (module docstring): named by the
        view module's ``limited_seat(state)``, played by a person, with a limit set."""
        hook = getattr(self.kind.view_module(), "limited_seat", None)
        if hook is None or not self.room_options.get("chaser_limit_s") or self.terminal:
            return None
        seat = hook(self.state)
        return seat if seat is not None and self.controllers[seat] is None else None

    def choice_deadline(self) -> float | None:
        """The Unix time the limited seat's choice runs out (``None``: no limit now):
        the time of the event that made the position (the room's creation at first)
        plus the room's ``chaser_limit_s``."""
        if self.limited_seat() is None:
            return None
        since = self.events[-1].at if self.events else self.spec.created
        return since + self.room_options["chaser_limit_s"]

    def timeout_event(self, now: float | None = None) -> tuple[Room, Event]:
        """The limited seat's time has run out: its first legal action (the chaser keeps
        its order). Raises :class:`IllegalAction` when no limit has run out now."""
        now = time.time() if now is None else now
        deadline = self.choice_deadline()
        if deadline is None or now < deadline:
            raise IllegalAction(msg("no choice has run out of time"))
        seat = self.limited_seat()
        text = self.state.describe(seat_actions(self.state, seat)[0])
        event = Event(self.version + 1, EventKind.TIMEOUT, seat, 0, text, now)
        return self.apply(event), event

    def clock_event(self, what: str, now: float | None = None) -> tuple[Room, Event]:
        """The owner pauses (``pause``) or resumes (``resume``) the real-time clock, or
        the clock has run out (``time``: the game is lost, YT.E2). Raises
        :class:`IllegalAction` (one line) when that cannot be now."""
        now = time.time() if now is None else now
        if not self.real_time:
            raise IllegalAction(msg("this room's clock is not a real-time one"))
        if self.terminal:
            raise IllegalAction(msg("the game is over"))
        if what in ("pause", "resume"):
            if not self.room_options.get("pausing"):
                raise IllegalAction(msg("pausing is off in this room (the rules say the clock never stops)"))
            if (what == "pause") == self.paused:
                raise IllegalAction(msg("the clock is already paused") if self.paused else msg("the clock is already running"))
        elif what == "time":
            if self.clock_at(now) < self._timed.limit_s:
                raise IllegalAction(msg("time has not run out"))
        else:
            raise InputError(f"request: clock: expected pause, resume or time, got {_short(what)}")
        if what != "time" and self._acted(None) >= MAX_EVENTS:
            raise IllegalAction(msg("the owner has made {count} changes in this room, the most it may", count=MAX_EVENTS))
        event = Event(self.version + 1, EventKind.CLOCK, 0, None, what, now, self.clock_at(now))
        return self.apply(event), event

    # -- changing ---------------------------------------------------------------------
    def act(self, seat: int, action: Any, version: Any, now: float | None = None) -> tuple[Room, Event]:
        """A person's action: ``action`` is the index of one of the legal actions of the
        position ``version`` (the seat's :meth:`view_version` when it looked). Returns the
        new room and the event to store. Raises :class:`IllegalAction` (one line; nothing
        changes) or :class:`StaleAction` (the room has moved on). A refusal carries only
        what the seat's view carries: never the room's event number."""
        if isinstance(version, bool) or not isinstance(version, int):
            raise IllegalAction(f"request: field 'version': expected the version of the view you chose from, "
                                f"got {_short(version)}")
        if version != self.view_version(seat):
            raise StaleAction(msg("the game has moved on since you looked: choose again"))
        if self.terminal:
            raise IllegalAction(msg("the game is over"))
        acting = self.acting
        if seat not in acting:
            raise IllegalAction(msg("it is {seats}'s turn, not {seat}'s", seats=", ".join(self.labels[i] for i in acting),
                                    seat=self.labels[seat]))
        if self.controllers[seat] is not None:
            raise IllegalAction(msg("{seat} is played by the {bot} bot now: ask the room's owner to give the seat back",
                                    seat=self.labels[seat], bot=self.controllers[seat]))
        if self.paused:
            raise IllegalAction(msg("the owner has paused the clock: wait until it runs again"))
        if self.asked is not None:
            raise IllegalAction(msg("{seat} asks to take back its last action: the answers come first",
                                    seat=self.labels[self.asked[0]]))
        now = time.time() if now is None else now
        state, reading = self._clocked(now)
        if state.is_terminal():
            raise IllegalAction(f"the timer has rung, time is up: {state.outcome()[0]}")
        legal = seat_actions(state, seat)
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < len(legal):
            raise IllegalAction(f"request: field 'action': expected the number of a legal action, 0 to "
                                f"{len(legal) - 1}, got {_short(action)}")
        return self._act(seat, action, state, reading, now)

    def bot_event(self, now: float | None = None) -> tuple[Room, Event] | None:
        """The decision of the bot playing the seat to act (``None`` when a person plays
        it or the game is over): a fresh bot seeded by :func:`bot_seed` chooses from
        the seat's observation (:meth:`bot_call`, :func:`bot_choice`, :meth:`bot_decided`)."""
        call = self.bot_call(now)
        return None if call is None else self.bot_decided(call, bot_choice(call))

    def bot_call(self, now: float | None = None) -> BotCall | None:
        """The decision the bot playing the seat to act must make now (``None`` when a
        person plays it, the clock is paused or the game is over)."""
        seat = self.bot_seat()
        if seat is None or self.paused:
            return None
        now = time.time() if now is None else now
        state, reading = self._clocked(now)
        if state.is_terminal():
            return None
        return BotCall(self.spec.game, self.controllers[seat], bot_seed(self.spec.seed, self.version + 1, seat), seat,
                       state, reading, now, self.version)

    def bot_decided(self, call: BotCall, index: int) -> tuple[Room, Event]:
        """The room after ``call``'s decision ``index`` (from :func:`bot_choice`), and the
        event to store. Raises :class:`StaleAction` when the room has moved on since
        ``call`` was made."""
        if call.version != self.version:
            raise StaleAction(f"the bot decided for event {call.version + 1}, the room is at {self.version}")
        return self._act(call.seat, index, call.state, call.reading, call.now)

    def _acted(self, seat: int | None) -> int:
        """Events so far of ``seat``'s actions (``None``: the owner's controls and clock
        events), which :data:`MAX_EVENTS` bounds."""
        if seat is None:
            return sum(1 for e in self.events if e.kind != EventKind.ACTION)
        return sum(1 for e in self.events if e.kind == EventKind.ACTION and e.seat == seat)

    def _act(self, seat: int, index: int, state: GameState, reading: int | None, now: float) -> tuple[Room, Event]:
        if self._acted(seat) >= MAX_EVENTS:
            raise IllegalAction(msg("{seat} has made {count} actions in this room, the most a seat may",
                                    seat=self.labels[seat], count=MAX_EVENTS))
        a = seat_actions(state, seat)[index]
        text = state.describe(a)
        entry = state.describe_entry(a) if hasattr(state, "describe_entry") else None
        after = state.apply(a)
        event = Event(self.version + 1, EventKind.ACTION, seat, index, text, now, reading)
        return self._next(after, self.controllers, event, self._taken(seat, state, a), action=entry), event

    def _taken(self, seat: int, state: GameState, action: Any) -> tuple[Taken, ...]:
        """The take-back list after ``seat``'s ``action`` in ``state``: emptied by an
        action the engine says may not be taken back (and in a real-time room)."""
        kind = TakeBack.NEVER if self.real_time else take_back(state, action)
        if kind == TakeBack.NEVER:
            return ()
        return (self.takeback + (Taken(seat, kind, state),))[-MAX_TAKE_BACK:]

    # -- take-backs ---------------------------------------------------------------------
    def take_back_event(self, seat: Any, word: Any, now: float | None = None) -> tuple[Room, Event]:
        """``seat`` asks to take back its last action (``word`` ``ask``), or accepts or
        refuses another seat's request (``accept``, ``refuse``): :class:`TakeBackWord`.
        Returns the new room and the event to store. Raises :class:`IllegalAction` (one
        line naming only what every seat sees; nothing changes)."""
        if word not in tuple(TakeBackWord):
            raise InputError(f"request: field 'answer': expected one of {', '.join(TakeBackWord)}, got {_short(word)}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise InputError(f"request: seat: expected 0 to {self.seats - 1}, got {_short(seat)}")
        event = Event(self.version + 1, EventKind.UNDO, seat, None, str(word), time.time() if now is None else now)
        return self._undo(event), event

    def can_take_back(self, seat: int) -> bool:
        """Whether ``seat`` may ask to take back its last action now."""
        try:
            self._check_ask(seat)
        except IllegalAction:
            return False
        return True

    def _check_ask(self, seat: int) -> int:
        """The index in :attr:`takeback` of ``seat``'s last action, when it may ask to take
        it back now. Raises :class:`IllegalAction`."""
        if self.terminal:
            raise IllegalAction(msg("the game is over: nothing can be taken back"))
        if self.real_time:
            raise IllegalAction(msg("take-backs are off in a room whose clock runs in real time"))
        if self.controllers[seat] is not None:
            raise IllegalAction(msg("{seat} is played by the {bot} bot now", seat=self.labels[seat],
                                    bot=self.controllers[seat]))
        if self.asked is not None:
            raise IllegalAction(msg("{seat} has asked for a take-back already: wait for the answers",
                                    seat=self.labels[self.asked[0]]))
        mine = [k for k, t in enumerate(self.takeback) if t.seat == seat]
        if not mine:
            raise IllegalAction(msg("nothing of yours to take back: a take-back reaches back to your last action only "
                                    "while nothing has been drawn or revealed since (and only in games that allow it)"))
        if self.takeback[mine[-1]].kind != TakeBack.OPEN:
            raise IllegalAction(msg("your last action cannot be asked back: the other seats did not see it (change "
                                    "it instead)"))
        return mine[-1]

    def _undo(self, event: Event) -> Room:
        """The room after a take-back event (checked). Raises :class:`IllegalAction`."""
        seat, label = event.seat, self.labels[event.seat]
        if event.text == TakeBackWord.ASK:
            index = self._check_ask(seat)
            others = tuple(o for o in range(self.seats) if o != seat and self.controllers[o] is None)
            if not others:  # bots accept: taken back at once
                return self._taken_back(index, event, msg("{seat} takes back its last action", seat=label))
            names = ", ".join(self.labels[o] for o in others)
            return self._next(self.state, self.controllers, event, self.takeback, (seat, others),
                              (msg("{seat} asks to take back its last action: {names} to accept or refuse", seat=label,
                                   names=names),))
        if self.asked is None:
            raise IllegalAction(msg("nobody has asked for a take-back"))
        asker, waiting = self.asked
        if seat not in waiting:
            raise IllegalAction(msg("{seat} is not asked to answer {asker}'s take-back", seat=label,
                                    asker=self.labels[asker]))
        if event.text == TakeBackWord.REFUSE:
            return self._next(self.state, self.controllers, event, self.takeback, None,
                              (msg("{seat} refuses {asker}'s take-back", seat=label, asker=self.labels[asker]),))
        rest = tuple(o for o in waiting if o != seat)
        if rest:
            return self._next(self.state, self.controllers, event, self.takeback, (asker, rest),
                              (msg("{seat} accepts {asker}'s take-back", seat=label, asker=self.labels[asker]),))
        index = next(k for k in range(len(self.takeback) - 1, -1, -1) if self.takeback[k].seat == asker)
        return self._taken_back(index, event, msg("{seat} accepts: {asker}'s last action is taken back", seat=label,
                                                   asker=self.labels[asker]))

    def _taken_back(self, index: int, event: Event, line: LogText) -> Room:
        """The room with the state before :attr:`takeback` ``[index]`` (and every action since)."""
        return self._next(self.takeback[index].before, self.controllers, event, self.takeback[:index], None, (line,))

    def control(self, seat: Any, bot: Any, now: float | None = None) -> tuple[Room, Event]:
        """The owner hands ``seat`` to ``bot`` (a bot name of the game) or back to its
        person (``None``). Raises :class:`InputError` for a bad seat or bot, and when the
        seat is already so played."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise InputError(f"request: seat: expected 0 to {self.seats - 1}, got {_short(seat)}")
        if bot is not None and bot not in self.game.players:
            raise InputError(f"request: field 'bot': expected one of {', '.join(self.game.players)} or null, "
                             f"got {_short(bot)}")
        if self.controllers[seat] == bot:
            if bot is None:
                raise IllegalAction(msg("{seat} is already played by a person", seat=self.labels[seat]))
            raise IllegalAction(msg("{seat} is already played by the {bot} bot", seat=self.labels[seat], bot=bot))
        if self._acted(None) >= MAX_EVENTS:
            raise IllegalAction(msg("the owner has made {count} changes in this room, the most it may", count=MAX_EVENTS))
        event = Event(self.version + 1, EventKind.CONTROL, seat, None, bot or "",
                      time.time() if now is None else now)
        return self.apply(event), event

    def apply(self, event: Event) -> Room:
        """The room after a stored ``event`` (numbered ``version + 1``). Raises
        :class:`RoomBroken` when it does not fit: wrong number, seat not to act, an
        index out of range, or a ``describe()`` text other than the stored one."""
        where = f"room {self.spec.id} event {event.n}"
        if event.n != self.version + 1:
            raise RoomBroken(f"{where}: expected event {self.version + 1}")
        if event.kind == EventKind.UNDO:
            try:
                if event.text not in tuple(TakeBackWord) or not 0 <= event.seat < self.seats:
                    raise IllegalAction(f"seat {event.seat} and {event.text!r} do not fit this room")
                return self._undo(event)
            except IllegalAction as exc:
                raise RoomBroken(f"{where}: take-back: {exc}") from None
        if event.kind == EventKind.CONTROL:
            if not 0 <= event.seat < self.seats or (event.text and event.text not in self.game.players):
                raise RoomBroken(f"{where}: seat {event.seat} and bot {event.text!r} do not fit this game")
            controllers = tuple(event.text or None if i == event.seat else c for i, c in enumerate(self.controllers))
            return self._next(self.state, controllers, event)
        state = self.state
        if self.real_time:
            if event.clock is None:
                raise RoomBroken(f"{where}: no clock reading in a room whose clock runs in real time")
            state = self._timed.at_clock(event.clock)
        if event.kind == EventKind.CLOCK:
            if event.text not in ("pause", "resume", "time") or not self.real_time:
                raise RoomBroken(f"{where}: clock event {event.text!r} does not fit this room")
            return self._next(state, self.controllers, event)
        if event.kind == EventKind.TIMEOUT and (event.seat != self.limited_seat() or event.action != 0):
            raise RoomBroken(f"{where}: seat {event.seat} had no time limit running out there")
        if event.seat not in acting_seats(state) or event.action is None:
            raise RoomBroken(f"{where}: action {event.action} of seat {event.seat} is not legal there")
        legal = seat_actions(state, event.seat)
        if not 0 <= event.action < len(legal):
            raise RoomBroken(f"{where}: action {event.action} of seat {event.seat} is not legal there")
        a = legal[event.action]
        if state.describe(a) != event.text:
            raise RoomBroken(f"{where}: the stored action {event.text[:60]!r} is {state.describe(a)[:60]!r} in "
                             f"this version of the game; the room was played with another furball")
        entry = state.describe_entry(a) if hasattr(state, "describe_entry") else None
        return self._next(state.apply(a), self.controllers, event, self._taken(event.seat, state, a), action=entry)

    def _next(self, state: GameState, controllers: tuple[str | None, ...], event: Event,
              takeback: tuple[Taken, ...] | None = None, asked: tuple[int, tuple[int, ...]] | None = None,
              said: tuple[LogText, ...] = (), *, action: LogText | None = None) -> Room:
        """The room after ``event``: ``state``, ``controllers``, the take-back list
        (``None``: kept, emptied by a clock event) and request ``asked``; ``said``: an
        UNDO event's line for every viewer; ``action``: the acting seat's own line for it
        as an entry (the engine's ``describe_entry``), else its stored text."""
        lines: tuple[LogText, ...] = said
        if event.kind == EventKind.CONTROL:
            label = self.labels[event.seat]
            lines = (msg("{seat} is played by the {bot} bot from now on (the owner's choice)", seat=label, bot=event.text)
                     if event.text else msg("{seat} is played by its person again", seat=label),)
            if self.asked is not None:
                lines += (msg("{seat}'s take-back request lapses (the owner changed who plays a seat)",
                              seat=self.labels[self.asked[0]]),)
        elif event.kind == EventKind.CLOCK and event.text != "time":
            at = f"{event.clock // 60}:{event.clock % 60:02d}"
            lines = (msg("the owner pauses the clock at {time}", time=at) if event.text == "pause" else
                     msg("the owner restarts the clock at {time}", time=at),)
        paused, since = self.paused, self.clock_since
        if event.kind == EventKind.CLOCK and event.text in ("pause", "resume"):
            paused = event.text == "pause"
        if self.real_time and event.kind != EventKind.CONTROL:
            since = event.at
        logs = []
        for viewer, log in enumerate(self.logs):
            if event.kind in (EventKind.ACTION, EventKind.TIMEOUT) or (event.kind == EventKind.CLOCK
                                                                       and event.text == "time"):
                lines = _events(state, viewer, self.seats)
            mine = event.kind in (EventKind.ACTION, EventKind.TIMEOUT) and viewer == event.seat
            if mine or lines:
                text = ((msg("time ran out: {action}", action=Entry(*action) if isinstance(action, tuple) else event.text)
                         if event.kind == EventKind.TIMEOUT
                         else (action or event.text))
                        if mine else None)
                log = log + (LogLine(event.n, event.seat, text, lines),)
            logs.append(log)
        if takeback is None:
            takeback = () if event.kind == EventKind.CLOCK else self.takeback
        return Room(self.spec, self.game, state, self.kind, controllers, self.events + (event,), tuple(logs), paused,
                    since, takeback, asked)

    def why(self, seat: int, targets: list[str], lang: Lang = DEFAULT_LANG) -> str:
        """Why clicking ``targets`` (piece ids of ``seat``'s page) does nothing, in one
        line in ``lang`` (the engine's own reason stays English): the engine's reason (:class:`~scenarios.engine.protocol.Explains`: its rule
        and why) for the action the view module's ``refusal(observation, targets)`` says
        the click means, or that no action concerns them. Made from the seat's
        observation and the engine's reason only, which names nothing the seat may not
        see. Changes nothing."""
        state = self.state
        if self.terminal:
            return render(msg("the game is over"), lang)
        if seat not in self.acting:
            return render(msg("it is {seats}'s turn, not yours", seats=", ".join(self.labels[i] for i in self.acting)),
                          lang)
        refusal = getattr(self.kind.view_module(), "refusal", None)
        action = refusal(state.observation(seat), list(targets)) if refusal is not None else None
        if action is None:
            pieces = " → ".join(t.partition(":")[2] or t for t in targets)
            return render(msg("no legal action concerns {pieces} now: choose among the highlighted pieces and the buttons",
                              pieces=pieces), lang)
        if isinstance(state, Explains):
            reason = state.explain(action)
            if reason is not None:
                return " ".join(str(reason).split())
        else:
            try:
                state.apply(action)
            except IllegalAction as exc:
                return " ".join(str(exc).split())
        return render(msg("{action}: legal now (choose it among the highlighted pieces)",
                          action=_action_text(state, action, lang)), lang)

    # -- what a viewer receives -----------------------------------------------------------
    def log_for(self, seat: int | None) -> tuple[LogLine, ...]:
        """The log lines ``seat`` may read (``None``: a spectator), oldest first. A
        viewer's lines are numbered by their place in this list, never by the room's
        event numbers (a gap would tell that another seat acted in secret)."""
        return self.logs[self.seats if seat is None else seat]

    def public_view(self, lang: Lang = DEFAULT_LANG) -> dict:
        """The public half of every view now, its words in ``lang``: the view module's
        ``public`` (or its ``view(...)["public"]``) of seat 0's observation (the same for
        every seat, tests/test_rooms_secrecy.py); ``{}`` for a game without a view module."""
        module = self.kind.view_module()
        if module is None:
            return {}
        o = self.state.observation(0)
        words = _words(module, lang)
        return module.public(o, **words) if hasattr(module, "public") else module.view(o, 0, **words)["public"]

    def public_text(self, lang: Lang = DEFAULT_LANG) -> str:
        """:meth:`public_view` as compact JSON text (``separators=(",", ":")``): the view
        module's ``public_json`` where it has one (the same text, made faster: issue 36),
        else encoded here."""
        module = self.kind.view_module()
        if module is not None and hasattr(module, "public_json"):
            return module.public_json(self.state.observation(0), **_words(module, lang))
        return json.dumps(self.public_view(lang), allow_nan=False, separators=(",", ":"))

    def view(self, seat: int | None, public: Any = None, lang: Lang = DEFAULT_LANG) -> dict:
        """What ``seat`` sees now (``None``: a spectator), as JSON (docs/rooms.md), its
        words (the panels, the legal actions' texts) in ``lang`` (docs/i18n.md):
        ``room``, ``game``, ``title``, ``seat``, ``labels``, ``seats`` (who plays each),
        ``bots`` (the game's bot names), ``to_act`` (at a simultaneous node: the first seat it
        waits for), ``acting`` (every seat that may act now), ``awaited`` (those the game
        waits for), ``terminal``; for a seat, ``text`` (``observation_string``) and
        ``view`` (the game's JSON of ``observation(seat)``: ``public`` and
        ``private``) and ``can_take_back`` (:meth:`can_take_back`); ``take_back``: a
        pending take-back request (``asked_by``, ``waiting``) or ``None``; for a seat that
        may act (among ``acting``), played by its person, ``legal`` (each action's
        ``describe()`` text, in the engine's order; left out by a game with thousands of
        actions, whose view module says ``LEGAL_TEXTS = False``), ``legal_count``,
        ``choices`` (the view module's own JSON of the legal actions, when it has a
        ``choices(observation, seat)``: the dogfight's plan tree, the card games' pieces
        each action concerns) and ``version`` (the seat's :meth:`view_version`, to send
        back with the choice); for a spectator, ``view.public`` only. Once the
        game is over: ``outcome``, ``result``, ``returns`` and ``seed``.

        ``public``: the public half to put in, made once for every viewer
        (:meth:`public_view`, or a placeholder the caller replaces in the JSON text);
        ``None``: made here (a seat's from its own observation), where the view module
        makes the halves apart (``public(o)``, ``private(o, seat)``). ``lang``: the
        reader's language, for a view module whose views hold texts (``VIEW_LANG``:
        the dogfight's reports)."""
        s = self.state
        to_act = s.current_player()
        acting = acting_seats(s)
        out: dict[str, Any] = {
            "room": self.spec.id, "game": self.spec.game, "title": self.spec.title, "seat": seat,
            "labels": list(self.labels),
            "seats": [{"label": label, "bot": bot, "name": name}
                      for label, bot, name in zip(self.labels, self.controllers, self.names)],
            "bots": list(self.game.players),
            "to_act": to_act, "acting": list(acting), "awaited": list(awaited_seats(s)),
            "terminal": s.is_terminal(),
            "take_back": None if self.asked is None else {"asked_by": self.asked[0], "waiting": list(self.asked[1])}}
        if self.real_time:
            out["clock"] = {"mode": "real", "reading_s": self._timed.clock_s, "limit_s": self._timed.limit_s,
                            "since": self.clock_since, "running": self.clock_running, "paused": self.paused,
                            "pausing": bool(self.room_options.get("pausing"))}
        deadline = self.choice_deadline()
        if deadline is not None:
            out["choice_limit"] = {"seat": self.limited_seat(), "deadline": deadline,
                                   "limit_s": self.room_options["chaser_limit_s"]}
        module = self.kind.view_module()
        if seat is None:
            out["view"] = {"public": self.public_view(lang) if public is None else public, "private": None}
        else:
            out["text"] = s.observation_string(seat)
            out["can_take_back"] = self.can_take_back(seat)
            o = s.observation(seat)
            words = _words(module, lang)
            if module is not None and hasattr(module, "private"):
                out["view"] = {"public": module.public(o, **words) if public is None else public,
                               "private": module.private(o, seat, **words)}
            else:
                out["view"] = module.view(o, seat, **words) if module else {"public": {}, "private": None}
            if seat in acting and self.controllers[seat] is None:
                legal = seat_actions(s, seat)
                if getattr(module, "LEGAL_TEXTS", True):
                    out["legal"] = [_action_text(s, a, lang) for a in legal]
                out["legal_count"] = len(legal)
                if module is not None and hasattr(module, "choices"):
                    out["choices"] = module.choices(s.observation(seat), seat)
                out["version"] = self.view_version(seat)
        if out["terminal"]:
            out.update(outcome=list(s.outcome()), result=_row(s.result()), returns=list(s.returns()),
                       seed=self.spec.seed)
        return out


def _words(module: ModuleType | None, lang: Lang) -> dict[str, Any]:
    """The keyword that gives a view module the reader's language (``lang``), for a module
    that writes its words in it (``VIEW_LANG = True``, :mod:`.views`); none for the
    others, whose words stay English."""
    return {"lang": lang} if getattr(module, "VIEW_LANG", False) else {}


def _action_text(state: GameState, action: Any, lang: Lang) -> str:
    """A legal action's text in ``lang``: the engine's ``describe_entry`` rendered where
    it has one, else (and in English, the ids themselves) its ``describe()``."""
    if lang == DEFAULT_LANG or not hasattr(state, "describe_entry"):
        return state.describe(action)
    return render_entry(*state.describe_entry(action), lang)


def _events(state: GameState, viewer: int, seats: int) -> tuple[LogText, ...]:
    """The log lines of the transition that made ``state`` as ``viewer`` (a seat, or
    ``seats``: the spectators) may read them: the engine's ``entries_for`` (or
    ``events_for``) when it has one (its log is a referee's), else its ``events`` (public by the engine protocol), kept
    as the engine's entries ``(template, args)`` where it has them (``log_entries``), so
    each viewer reads them in its own language."""
    if isinstance(state, SeatEvents):
        player = viewer if viewer < seats else None
        return state.entries_for(player) if hasattr(state, "entries_for") else state.events_for(player)
    entries = getattr(state, "log_entries", None)
    return tuple(entries) if entries is not None and getattr(state, "logging", True) else state.events


def _row(result: Mapping[str, Any]) -> dict:
    return {str(k): _jsonable(v) for k, v in result.items()}


# ------------------------------------------------------------------------------ making a spec
def _parse_options(rg: RoomGame, game: Game, given: Mapping[str, str]) -> dict[str, Any]:
    """The engine's options for ``new_game`` (after the game's ``prepare``)."""
    opts, room = _all_options(rg, game, given)
    if rg.prepare is not None:
        opts = _attribute(rg.prepare)(opts, room)
    return opts


def _all_options(rg: RoomGame, game: Game, given: Mapping[str, str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The engine's options and the room's own (:attr:`RoomGame.own`), parsed."""
    opts = game.defaults()
    own = {o.name: o for o in rg.own}
    room = {o.name: o.default for o in rg.own}
    for name, text in given.items():
        if name not in rg.options:
            allowed = ", ".join(rg.options) or "none"
            raise InputError(f"room: field 'options': {rg.name} has no room option {_short(name)} "
                             f"(options: {allowed})")
        special = rg.room_option(name)
        if name in own:
            room[name] = own[name].parse(text)
        elif special is not None:
            opts[name] = _attribute(special.parse)(text)
        else:
            opts[name] = game.option(name).parse(text)
    game.check_combination({k: opts[k] for k in given if k not in own})
    return opts, room


def _option_text(value: Any, most: int = MAX_OPTION_CHARS) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) or (isinstance(value, float) and math.isfinite(value)):  # bool: above
        return repr(value)
    if isinstance(value, str) and len(value) <= most:
        return value
    raise InputError(f"room: field 'options': expected numbers, true/false or text of at most {most} characters, "
                     f"got {_short(value)}")


def _options_of(rg: RoomGame, data: Mapping) -> dict[str, str]:
    given = data.get("options") or {}
    if not isinstance(given, Mapping) or len(given) > 20:
        raise InputError("room: field 'options': expected an object of option names and values")
    out = {}
    for k, v in given.items():
        own = rg.room_option(str(k))
        out[str(k)] = _option_text(v, own.max_chars if own is not None else MAX_OPTION_CHARS)
    return out


def _seat_names(state: GameState, seats: int) -> tuple[str, ...]:
    names = getattr(state, "seat_names", None)
    return tuple(names()) if names is not None else ("",) * seats


def seat_names(data: Any) -> tuple[str, ...]:
    """What each seat of a room of ``data`` plays, in words (:attr:`Room.names`; ``""``
    where the game does not say): the lobby names each seat by it ("P1: SPAD,
    Nieuport"). Checks ``data`` as :func:`seat_count` does. Raises :class:`InputError`."""
    n = seat_count(data)
    rg = room_game(data.get("game"))
    game = rg.game()
    return _seat_names(game.new_game(0, **_parse_options(rg, game, _options_of(rg, data))), n)


def seat_count(data: Any) -> int:
    """How many seats a room of ``data`` (``game`` and ``options``, as for
    :func:`make_spec`) has: what the lobby asks before it offers a person or a bot per
    seat. Raises :class:`InputError` (one line)."""
    if not isinstance(data, Mapping):
        raise InputError("seats: expected a JSON object with game and options")
    unknown = sorted(set(data) - {"game", "options"})
    if unknown:
        raise InputError(f"seats: unknown field {_short(unknown[0])} (expected: game, options)")
    rg = room_game(data.get("game"))
    game = rg.game()
    return game.seat_count(_parse_options(rg, game, _options_of(rg, data)))


def make_spec(data: Any, now: float | None = None) -> RoomSpec:
    """A checked :class:`RoomSpec` from a request: ``game``, optional ``options`` (name
    -> value), ``seed`` (default: random, 0 to 2**53-1), ``seats`` (one per seat:
    ``null`` for a person or a bot name; default every seat a person) and ``title``.
    Raises :class:`InputError` (one line naming the field)."""
    if not isinstance(data, Mapping):
        raise InputError("room: expected a JSON object with game, options, seed, seats, title")
    unknown = sorted(set(data) - {"game", "options", "seed", "seats", "title"})
    if unknown:
        raise InputError(f"room: unknown field {_short(unknown[0])} (expected: game, options, seed, seats, title)")
    rg = room_game(data.get("game"))
    game = rg.game()
    options = _options_of(rg, data)
    parsed = _parse_options(rg, game, options)
    seats = game.seat_count(parsed)
    seed = data.get("seed")
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InputError(f"room: field 'seed': expected a whole number from 0 to 2**53-1, got {_short(seed)}")
    controllers = data.get("seats")
    if controllers is None:
        controllers = [None] * seats
    if not isinstance(controllers, list) or len(controllers) != seats:
        raise InputError(f"room: field 'seats': expected a list of {seats} entries (null for a person or a bot: "
                         f"{', '.join(game.players)})")
    for i, c in enumerate(controllers):
        if c is not None and c not in game.players:
            raise InputError(f"room: field 'seats': seat {i + 1}: expected null (a person) or one of "
                             f"{', '.join(game.players)}, got {_short(c)}")
    title = data.get("title") or game.title
    if not isinstance(title, str) or len(title) > MAX_TITLE or not title.isprintable():
        raise InputError(f"room: field 'title': expected printable text of at most {MAX_TITLE} characters")
    return RoomSpec(new_room_id(), rg.name, MappingProxyType(options), int(seed), tuple(controllers),
                    title.strip() or game.title, time.time() if now is None else now)
