"""The live rooms of one server process: the referee between the pages and the store.

:class:`Hub` keeps the rooms in use in memory (:class:`~.rooms.Room` values, at most
``max_loaded``, least recently used dropped first), checks every request against the
room's engine and the seat's token, appends every accepted event to the store
(:mod:`.store`) **before** anyone hears of it, and wakes the room's subscribers (the
WebSocket connections) so each receives what its seat may see. It runs on one asyncio
event loop; engine work (an action, rebuilding a room, applying a bot's decision) runs
in worker threads (at most ``engine_threads`` at once, each call limited to
``time_limit_s``; a person's call waiting goes before every bot's) and store work in
others, so one slow room never holds the loop.

* Per room, one action at a time (an :class:`asyncio.Lock`); a stale or illegal action
  changes nothing and gets one line.
* Bots play the seats given to them, one decision ``bot_delay_s`` after the event that
  gave them the move (a pace people can follow; 0 in tests). Bots **decide** apart from
  everything else: in ``bot_pool`` (the server's worker processes, so a search never
  holds this process's GIL; ``None``: threads here), at most ``bot_lanes`` decisions at
  once, taken from one queue of rooms in turn (round robin: a room waits for a decision
  at most once in the queue, so a client with many rooms of bots gets no more than its
  rooms' turns), each within ``time_limit_s``. A decision past that limit is made again
  by the game's quick bot (:data:`~.rooms.QUICK_BOTS`, logged); one that still fails is
  tried again ``bot_retry_s`` later: a room's bot is never forgotten.
* Several processes sharing a PostgreSQL store: each process's appends are numbered, a
  second writer of the same number loses (the store's primary key) and catches up; the
  store's notifications (:meth:`~.store.Store.listen`) make every process read the
  events it did not write and push them to its own subscribers.

Messages to subscribers (docs/rooms.md): ``{"type": "update", "log_from": K, "log":
[...], "view": {...}, "present": [...], "owner": bool, "rematch": ROOM_ID or null, "now":
UNIX TIME}``, sent only when something the seat sees changed, the log numbered per viewer
(``now``: the server's clock, so a page shows a real-time game clock right whatever its
own says); ``{"type": "chat", "chat_from": K, "chat": [...]}`` with the chat lines the
page has not seen (numbered in the chat's own sequence, without times: chat never
moves a view version).

A room whose game clock runs in real time (Yorktown, YT.S4) has a timer here that rings
when its time runs out: the loss is stored as an event like any other. The same timer
rings when a limited choice runs out (a dogfight chaser's order, DF.T2:
:meth:`~.rooms.Room.choice_deadline`): the room keeps the order, a ``timeout`` event.

A room's owner may give a webhook (:mod:`.webhook`): when the people the game waits for
change through an event this process stored, the room's spectator-made payload is
POSTed in a worker thread (at most one request per room at a time, the newest payload
replacing a waiting one, at most :data:`~.webhook.MAX_WAITING` rooms waiting, no
retries); a failure is logged, never fatal. A webhook set through another process is
known here when the room is next loaded.

Rooms are bounded (:class:`~.limits.RoomLimits`): each client creates at most so many a
minute and holds at most so many unfinished ones, the server at most so many in all; the
owner may delete a room; finished and abandoned rooms are removed after a while (a task
of the hub, every ``expire_every_s``).
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import anyio
import anyio.to_thread

from furball.errors import IllegalAction, InputError
from furball.i18n import DEFAULT_LANG, Lang, msg, parse_lang, render_entry

from .limits import Creations, RoomLimits
from .rooms import (
    BotCall,
    ChatLine,
    Room,
    RoomBroken,
    StaleAction,
    bot_choice,
    chat_text,
    make_spec,
    new_token,
    token_hash,
    token_matches,
)
from .security import Bucket
from .store import EXPIRE_BATCH, RoomGone, Store
from .webhook import MAX_WAITING, TIMEOUT_S, Reach, check_url, payload, send, worth_sending

__all__ = ["Hub", "Subscriber", "NotFound", "Forbidden", "Busy", "TooMany", "Role"]

log = logging.getLogger("furball.rooms")


class NotFound(InputError):
    """No room with that id."""


class Forbidden(InputError):
    """The token does not open what was asked (a seat's action, the owner's controls)."""


class Busy(InputError):
    """The work took longer than the time limit, or too much work is waiting."""


class TooMany(InputError):
    """This client asked for more than its share (rooms created, rooms held)."""


@dataclass(frozen=True)
class Role:
    """Who a token is in a room: ``seat`` (or ``None``: a spectator) and ``owner``."""

    seat: int | None
    owner: bool


@dataclass(eq=False)
class Subscriber:
    """One connection watching a room as ``role``: ``sent`` log lines and the ``last``
    message's view already sent; ``wake`` is set when the room changed."""

    room: str
    role: Role
    sent: int = 0
    last: str = ""
    chat_sent: int = 0
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    gone: bool = False
    lang: Lang = DEFAULT_LANG
    """The language its page reads the log in (docs/i18n.md)."""


@dataclass(eq=False)
class Live:
    """A loaded room: the current :class:`Room`, its token hashes, subscribers, the
    views made for its current version, its pending bot decision (``bot``: the delay's
    timer; ``queued``: waiting for a bot lane; ``deciding``: being decided), with a
    real-time clock the timer that rings when its time runs out, its ``chat`` lines
    (their own lock and each seat's rate bucket), its ``rematch`` room's id, and its
    owner's ``webhook`` (``url``, ``link``) and the payload it last ``hooked`` on."""

    room: Room
    owner_hash: str
    seat_hashes: tuple[str, ...]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    views: dict[Any, str] = field(default_factory=dict)
    bot: asyncio.TimerHandle | None = None
    queued: bool = False
    deciding: bool = False
    timer: asyncio.TimerHandle | None = None
    used: float = field(default_factory=time.monotonic)
    chat: tuple[ChatLine, ...] = ()
    chat_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    chat_buckets: dict[int, Bucket] = field(default_factory=dict)
    rematch: str | None = None
    webhook: dict | None = None
    hooked: dict | None = None


class _Lane:
    """At most ``size`` calls at once; a waiting person's call goes before every waiting
    bot's (``slot(person)``), each kind in the order it came."""

    def __init__(self, size: int):
        self.free = int(size)
        self.waiting: tuple[deque, deque] = (deque(), deque())  # people's, bots'

    @contextlib.asynccontextmanager
    async def slot(self, person: bool) -> AsyncIterator[None]:
        if self.free > 0 and not (self.waiting[0] or self.waiting[1]):
            self.free -= 1
        else:
            turn = asyncio.get_running_loop().create_future()
            queue = self.waiting[0 if person else 1]
            queue.append(turn)
            try:
                await turn
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():  # given the slot as it was cancelled: pass it on
                    self._release()
                elif turn in queue:
                    queue.remove(turn)
                raise
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        for queue in self.waiting:
            while queue:
                turn = queue.popleft()
                if not turn.done():
                    turn.set_result(None)
                    return
        self.free += 1


class Hub:
    """The live rooms of this process (see the module docstring).

    ``store``: where rooms are kept; ``bot_delay_s``: the pause before a bot's decision;
    ``time_limit_s``: the most one engine call may take; ``engine_threads``: engine calls
    at once; ``max_loaded``: rooms kept in memory; ``limits``: the limits on creating
    and keeping rooms; ``bot_pool``: where bots decide (anything with ``async
    run(fn, *args, time_limit_s=...)`` raising :class:`Busy` past the limit, such as a
    :class:`~.pool.WorkPool`; ``None``: threads of this process); ``bot_lanes``: bot
    decisions at once; ``bot_retry_s``: the pause before a failed decision is tried
    again; ``webhooks``: where the rooms' webhooks may go (:class:`~.webhook.Reach`)."""

    def __init__(self, store: Store, bot_delay_s: float = 1.0, time_limit_s: float = 10.0, engine_threads: int = 2,
                 max_loaded: int = 1000, limits: RoomLimits | None = None, bot_pool: Any = None, bot_lanes: int = 2,
                 bot_retry_s: float = 5.0, webhooks: Reach | str = Reach.PUBLIC):
        self.store = store
        self.webhooks = Reach(webhooks)
        self._hooks_waiting: dict[str, tuple[str, dict]] = {}
        self._hooks_busy: set[str] = set()
        self._hook_threads: anyio.CapacityLimiter | None = None
        self.bot_pool = bot_pool
        self.bot_lanes = max(1, int(bot_lanes))
        self.bot_retry_s = float(bot_retry_s)
        self._bots_waiting: asyncio.Queue[Live] | None = None
        self._bot_threads: anyio.CapacityLimiter | None = None
        self._lane = _Lane(engine_threads)
        self.limits = limits or RoomLimits()
        self._creations = Creations(self.limits)
        self.bot_delay_s = float(bot_delay_s)
        self.time_limit_s = float(time_limit_s)
        self.max_loaded = int(max_loaded)
        self._engine_threads = int(engine_threads)
        self._loaded: OrderedDict[str, Live] = OrderedDict()
        self._loading: dict[str, asyncio.Future] = {}
        self._tasks: set[asyncio.Task] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._engine: anyio.CapacityLimiter | None = None
        self._db: anyio.CapacityLimiter | None = None
        self._halt: Callable[[], None] | None = None
        self.closed = False

    # -- the loop, the pools ------------------------------------------------------------
    def _start(self) -> None:
        """Bind to the running loop on first use (limiters, the store's listener)."""
        if self._loop is not None:
            return
        self._loop = asyncio.get_running_loop()
        self._engine = anyio.CapacityLimiter(self._engine_threads)
        self._db = anyio.CapacityLimiter(4)
        self._bots_waiting = asyncio.Queue()
        self._bot_threads = anyio.CapacityLimiter(self.bot_lanes)
        self._hook_threads = anyio.CapacityLimiter(4)
        for _ in range(self.bot_lanes):
            self._spawn(self._bot_lane())
        loop = self._loop
        self._halt = self.store.listen(lambda room, n: loop.call_soon_threadsafe(self._notified, room, n))
        if self.limits.expire_every_s > 0:
            self._spawn(self._expire_loop())

    async def engine(self, fn: Callable, *args, person: bool = True) -> Any:
        """``fn(*args)`` in an engine thread, within :attr:`time_limit_s` (waiting
        included); a ``person``'s call waiting goes before every bot's. Raises
        :class:`Busy` past the limit (the thread's answer is then dropped)."""
        self._start()
        try:
            with anyio.fail_after(self.time_limit_s):
                async with self._lane.slot(person):
                    return await anyio.to_thread.run_sync(fn, *args, limiter=self._engine, abandon_on_cancel=True)
        except TimeoutError:
            raise Busy(msg("the game engine took longer than {seconds} s: try again", seconds=format(self.time_limit_s, "g"))) from None

    async def _store(self, fn: Callable, *args) -> Any:
        self._start()
        try:
            return await anyio.to_thread.run_sync(fn, *args, limiter=self._db)
        except RoomGone:  # an append to a room deleted through another process: gone here too
            self._forget(str(args[0]))
            raise

    def _spawn(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            log.error("room work failed: %s", " ".join(str(exc).split())[:300])

    async def close(self) -> None:
        """Stop the bots' timers, the listener and pending work (the store stays open)."""
        self.closed = True
        for live in self._loaded.values():
            for handle in (live.bot, live.timer):
                if handle is not None:
                    handle.cancel()
        for task in list(self._tasks):
            task.cancel()
        if self._halt is not None:
            halt, self._halt = self._halt, None
            await anyio.to_thread.run_sync(halt)

    # -- rooms --------------------------------------------------------------------------
    async def create(self, data: Any, creator: str | None = None) -> dict:
        """A new room from a request (:func:`~.rooms.make_spec`), stored, loaded and its
        bots started. ``creator``: the client asking (:func:`~.limits.client_key`),
        held to the creation rate and its share of open rooms (``None``: not counted).
        Returns ``room`` (id), ``owner`` (the owner's token) and ``seats`` (``label``,
        ``bot``, ``token``, ``name``: what it plays, per seat): the only time tokens are sent. Raises
        :class:`TooMany` (this client's limits), :class:`Busy` (the server's),
        :class:`~furball.errors.InputError`."""
        self._start()
        await self._may_create(creator)
        spec = make_spec(data)
        owner = new_token()
        tokens = [new_token() for _ in spec.controllers]
        room = await self._open(spec, token_hash(owner), tuple(token_hash(t) for t in tokens), creator)
        log.info("room %s created: %s", spec.id, spec.game)
        return {"room": spec.id, "owner": owner, "title": spec.title, "game": spec.game,
                "seats": [{"label": label, "bot": bot, "token": token, "name": name}
                          for label, bot, token, name in zip(room.labels, spec.controllers, tokens, room.names)]}

    async def _may_create(self, creator: str | None) -> None:
        """Whether ``creator`` (and the server) may create a room now. Raises
        :class:`TooMany`, :class:`Busy`."""
        limits = self.limits
        if creator is not None:
            if not self._creations.take(creator):
                raise TooMany(f"too many rooms created from your address: at most {limits.create_per_min:g} a minute "
                              f"(bursts of {limits.create_burst:g}); try again later")
            if await self._store(self.store.open_rooms, creator) >= limits.open_per_client:
                raise TooMany(f"your address already holds {limits.open_per_client} unfinished rooms: delete one "
                              f"(its owner link) or finish a game first")
        if await self._store(self.store.open_rooms) >= limits.open_total:
            raise Busy(msg("the server holds as many open rooms as it may: try again later"))

    async def _open(self, spec, owner_hash: str, seat_hashes: tuple[str, ...], creator: str | None) -> Room:
        """A new room of ``spec`` with these token hashes: stored, loaded, its bots started."""
        room = await self.engine(Room.new, spec)
        await self._store(self.store.create, spec, owner_hash, seat_hashes, creator)
        live = Live(room, owner_hash, seat_hashes)
        self._keep(spec.id, live)
        self._schedule_bot(live)
        self._schedule_timer(live)
        return room

    async def rematch(self, room_id: Any, token: Any, creator: str | None = None) -> str:
        """A seat or the owner asks for a rematch of a finished game: a new room with the
        same game, options, title and seats as created (a person's seat stays a
        person's), a new random seed, and the **same token hashes** (each seat's key and
        the owner's open their places in the new room). The first call creates it (held to
        ``creator``'s limits, as :meth:`create`); every later call, from any seat or
        process, answers the same room. Every page of the room is told (its updates'
        ``rematch``). Returns the new room's id. Raises :class:`NotFound`,
        :class:`Forbidden` (a spectator's link), :class:`~furball.errors.IllegalAction`
        (the game is not over), :class:`TooMany`, :class:`Busy`."""
        live = await self.live(room_id)
        role = self.role(live, token)
        if role.seat is None and not role.owner:
            raise Forbidden(msg("only the room's seats and its owner may start a rematch"))
        if not live.room.terminal:
            raise IllegalAction(msg("a rematch starts once the game is over"))
        async with live.lock:
            if live.rematch is None:
                old = live.room.spec
                await self._may_create(creator)
                spec = make_spec({"game": old.game, "options": dict(old.options), "seats": list(old.controllers),
                                  "title": old.title})
                await self._open(spec, live.owner_hash, live.seat_hashes, creator)
                chosen = await self._store(self.store.set_rematch, old.id, spec.id)
                if chosen != spec.id:  # another process made it first: ours goes
                    await self._store(self.store.delete, spec.id)
                    self._forget(spec.id)
                if chosen is None:
                    raise NotFound(msg("the room was deleted"))
                live.rematch = chosen
                log.info("room %s: rematch in room %s", old.id, chosen)
                self._wake(live)
            return live.rematch

    async def live(self, room_id: Any) -> Live:
        """The loaded room ``room_id`` (read from the store and rebuilt if needed).
        Raises :class:`NotFound`."""
        self._start()
        if not isinstance(room_id, str) or not 8 <= len(room_id) <= 40:
            raise NotFound(msg("no such room"))
        live = self._loaded.get(room_id)
        if live is not None:
            self._loaded.move_to_end(room_id)
            live.used = time.monotonic()
            return live
        pending = self._loading.get(room_id)
        if pending is None:
            pending = self._loading[room_id] = asyncio.get_running_loop().create_future()
            try:
                stored = await self._store(self.store.load, room_id)
                if stored is None:
                    raise NotFound(msg("no such room (check the link)"))
                room = await self.engine(Room.replay, stored.spec, stored.events)
                live = Live(room, stored.owner_hash, stored.seat_hashes, chat=stored.chat, rematch=stored.rematch)
                if stored.webhook:
                    live.webhook = json.loads(stored.webhook)
                    live.hooked = payload(room, live.webhook["link"])
                if room.terminal:  # finished before the store kept the time (or by another process)
                    self._spawn(self._store(self.store.finish, room_id, time.time()))
                self._keep(room_id, live)
                self._schedule_bot(live)
                self._schedule_timer(live)
                pending.set_result(live)
            except BaseException as exc:
                pending.set_exception(exc)
                pending.exception()  # retrieved: the waiters re-raise it
                raise
            finally:
                del self._loading[room_id]
            return live
        return await asyncio.shield(pending)

    def _keep(self, room_id: str, live: Live) -> None:
        self._loaded[room_id] = live
        while len(self._loaded) > self.max_loaded:
            old = next((k for k, v in self._loaded.items() if not v.subscribers and not v.lock.locked()), None)
            if old is None:
                break
            gone = self._loaded.pop(old)
            for handle in (gone.bot, gone.timer):
                if handle is not None:
                    handle.cancel()

    @staticmethod
    def role(live: Live, token: Any) -> Role:
        """Who ``token`` is in the room (no token or an unknown one: a spectator)."""
        if not token:
            return Role(None, False)
        seat = next((i for i, h in enumerate(live.seat_hashes) if token_matches(token, h)), None)
        return Role(seat, token_matches(token, live.owner_hash))

    async def act(self, room_id: Any, token: Any, version: Any, action: Any) -> int:
        """A person's action (see :meth:`~.rooms.Room.act`), stored before this returns
        the seat's new view version (:meth:`~.rooms.Room.view_version`, never the room's
        event number: that would count other seats' secret actions). Raises :class:`NotFound`, :class:`Forbidden`,
        :class:`~furball.errors.IllegalAction` (one line, nothing changed),
        :class:`~.rooms.StaleAction`, :class:`Busy`."""
        live = await self.live(room_id)
        seat = self.role(live, token).seat
        if seat is None:
            raise Forbidden(msg("this link has no seat in the room: open your seat's link to play"))
        async with live.lock:
            try:
                room, event = await self.engine(live.room.act, seat, action, version)
            except IllegalAction:
                if live.room.deadline() is not None and live.room.deadline() <= time.time():
                    self._spawn(self._time_up(live))  # the timer rang before its call: ring it now
                raise
            if not await self._store(self.store.append, room.spec.id, event):
                await self._catch_up_locked(live)
                raise StaleAction(msg("the game has moved on since you looked: choose again"))
            self._advance(live, room)
            return room.view_version(seat)

    async def control(self, room_id: Any, token: Any, seat: Any, bot: Any) -> int:
        """The owner hands ``seat`` to ``bot`` or back to its person (``None``). Returns
        the spectators' view version (public; the owner may hold a seat too). Raises
        :class:`NotFound`, :class:`Forbidden` (not the owner's token),
        :class:`~furball.errors.InputError`."""
        live = await self.live(room_id)
        if not self.role(live, token).owner:
            raise Forbidden(msg("only the room's owner (the owner's link) may hand seats to bots"))
        async with live.lock:
            room, event = live.room.control(seat, bot)
            if not await self._store(self.store.append, room.spec.id, event):
                await self._catch_up_locked(live)
                raise StaleAction(msg("the room has moved on (an event arrived through another server): try again"))
            self._advance(live, room)
            return room.view_version(None)

    async def take_back(self, room_id: Any, token: Any, word: Any) -> int:
        """A seat asks to take back its last action (``ask``) or answers another seat's
        request (``accept``, ``refuse``): :meth:`~.rooms.Room.take_back_event`, stored as
        an event. Returns the seat's new view version. Raises :class:`NotFound`,
        :class:`Forbidden` (not a seat's key), :class:`~furball.errors.IllegalAction`."""
        live = await self.live(room_id)
        seat = self.role(live, token).seat
        if seat is None:
            raise Forbidden(msg("this link has no seat in the room: open your seat's link"))
        async with live.lock:
            room, event = await self.engine(live.room.take_back_event, seat, word)
            if not await self._store(self.store.append, room.spec.id, event):
                await self._catch_up_locked(live)
                raise StaleAction(msg("the game has moved on since you looked: try again"))
            self._advance(live, room)
            return room.view_version(seat)

    async def chat(self, room_id: Any, token: Any, text: Any) -> int:
        """A seat writes a chat line (:func:`~.rooms.chat_text`, at most
        ``limits.chat_chars`` characters, ``limits.chat_per_min`` a minute per seat): stored
        with the room, then sent to every page of the room (spectators included). Chat
        never moves a view version. Returns the line's number (the chat's own
        sequence). Raises :class:`NotFound`, :class:`Forbidden` (not a seat's key),
        :class:`TooMany` (past the rate, or the room's chat is full),
        :class:`~furball.errors.InputError`."""
        live = await self.live(room_id)
        seat = self.role(live, token).seat
        if seat is None:
            raise Forbidden(msg("only the room's seats may write in its chat (spectators read it)"))
        limits = self.limits
        text = chat_text(text, limits.chat_chars)
        bucket = live.chat_buckets.setdefault(seat, Bucket(limits.chat_per_min / 60.0, limits.chat_burst))
        if not bucket.take():
            raise TooMany(msg("chat: at most {lines} lines a minute (bursts of {burst}): slow down",
                              lines=format(limits.chat_per_min, "g"), burst=format(limits.chat_burst, "g")))
        async with live.chat_lock:
            for _ in range(3):  # another process may take the number first
                if len(live.chat) >= limits.chat_lines:
                    raise TooMany(msg("chat: this room's chat is full ({lines} lines)", lines=limits.chat_lines))
                line = ChatLine(len(live.chat) + 1, seat, text, time.time())
                if await self._store(self.store.chat_append, live.room.spec.id, line):
                    live.chat += (line,)
                    self._wake(live)
                    return line.n
                await self._chat_catch_up_locked(live)
        raise Busy(msg("chat: too many lines at once: try again"))

    async def _chat_catch_up(self, live: Live) -> None:
        async with live.chat_lock:
            await self._chat_catch_up_locked(live)

    async def _chat_catch_up_locked(self, live: Live) -> None:
        more = await self._store(self.store.chat_after, live.room.spec.id, len(live.chat))
        if more:
            live.chat += tuple(more)
            self._wake(live)

    async def _rematch_catch_up(self, live: Live) -> None:
        stored = await self._store(self.store.load, live.room.spec.id)
        if stored is not None and stored.rematch and live.rematch != stored.rematch:
            live.rematch = stored.rematch
            self._wake(live)

    @staticmethod
    def _wake(live: Live) -> None:
        for sub in live.subscribers:
            sub.wake.set()

    async def analysis(self, room_id: Any, token: Any, data: Any) -> tuple[str, int, Callable, tuple]:
        """A seat's request for a long calculation (the dogfight's Best plans), checked
        by the game's view module (``analysis(observation, data, key)``, ``key`` the
        asking seat ``(room id, seat)`` for a cache of its own) against what that seat
        sees now. Returns ``(room id, seat, function, arguments)`` for the server's
        pool. Raises :class:`NotFound` (no room, or a game without one),
        :class:`Forbidden` (not a seat's key), :class:`~furball.errors.InputError`."""
        live = await self.live(room_id)
        seat = self.role(live, token).seat
        if seat is None:
            raise Forbidden(msg("this link has no seat in the room: open your seat's link"))
        room = live.room
        module = room.kind.view_module()
        ask = getattr(module, "analysis", None)
        if ask is None:
            raise NotFound(f"{room.spec.game} rooms have no analysis")
        fn, args = await self.engine(lambda: ask(room.state.observation(seat), data, (room.spec.id, seat)))
        return room.spec.id, seat, fn, args

    async def why(self, room_id: Any, token: Any, targets: Any, lang: Lang = DEFAULT_LANG) -> str:
        """Why clicking ``targets`` (ids of pieces on a card game's page that no legal
        action concerns) does nothing: the engine's own one-line refusal of the action the
        click would mean (the view module's ``refusal(observation, targets)``), or a
        line saying no action concerns them. Changes nothing. Raises :class:`NotFound`,
        :class:`Forbidden` (not a seat's key), :class:`~furball.errors.InputError`."""
        live = await self.live(room_id)
        seat = self.role(live, token).seat
        if seat is None:
            raise Forbidden(msg("this link has no seat in the room: open your seat's link"))
        if (not isinstance(targets, list) or not 1 <= len(targets) <= 4
                or not all(isinstance(t, str) and 0 < len(t) <= 120 for t in targets)):
            raise InputError("request: field 'targets': expected 1 to 4 piece names")
        return await self.engine(live.room.why, seat, list(targets), lang)

    async def clock(self, room_id: Any, token: Any, paused: Any) -> int:
        """The owner pauses (``paused`` true) or restarts the room's real-time clock
        (where the room allows it, :data:`~.rooms.PAUSING`). Returns the spectators' view
        version. Raises :class:`NotFound`,
        :class:`Forbidden` (not the owner's key), :class:`~furball.errors.IllegalAction`."""
        live = await self.live(room_id)
        if not self.role(live, token).owner:
            raise Forbidden(msg("only the room's owner (the owner's link) may pause the clock"))
        if not isinstance(paused, bool):
            raise InputError("request: field 'paused': expected true or false")
        async with live.lock:
            room, event = live.room.clock_event("pause" if paused else "resume")
            if not await self._store(self.store.append, room.spec.id, event):
                await self._catch_up_locked(live)
                raise StaleAction(msg("the room has moved on (an event arrived through another server): try again"))
            self._advance(live, room)
            return room.view_version(None)

    def _schedule_timer(self, live: Live) -> None:
        """With a running real-time clock or a limited choice: ring when its time runs out."""
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        deadline = _first_deadline(live.room)
        if self.closed or deadline is None:
            return
        loop = asyncio.get_running_loop()

        def ring():
            live.timer = None
            self._spawn(self._time_up(live))
        live.timer = loop.call_later(max(0.0, deadline - time.time()) + 0.05, ring)

    async def _time_up(self, live: Live) -> None:
        """The real-time clock has run out: the game is lost (YT.E2); or a limited choice
        has: the room takes the seat's first action (DF.T2: the chaser keeps its order);
        stored as an event."""
        async with live.lock:
            room = live.room
            deadline = _first_deadline(room)
            if deadline is None:
                return
            if deadline > time.time():
                self._schedule_timer(live)
                return
            clock = room.deadline()
            new, event = room.clock_event("time") if clock is not None and clock <= time.time() else \
                room.timeout_event()
            if await self._store(self.store.append, room.spec.id, event):
                self._advance(live, new)
            else:
                await self._catch_up_locked(live)

    def _advance(self, live: Live, room: Room, here: bool = True) -> None:
        """``room`` is now the room (its events stored): wake everyone, start the bots
        and the clock's timer; a game just finished is marked so in the store; the
        webhook called (``here``: the events were stored by this process, which alone
        calls it)."""
        if room.terminal and not live.room.terminal:
            self._spawn(self._store(self.store.finish, room.spec.id, time.time()))
        live.room = room
        live.views.clear()
        mover = room.events[-1].seat if room.events else None
        # the seat that acted hears first, then the seat to act, then the rest (the loop runs them in this order)
        for sub in sorted(live.subscribers, key=lambda s: (s.role.seat != mover, s.role.seat not in room.acting)):
            sub.wake.set()
        self._schedule_bot(live)
        self._schedule_timer(live)
        self._hook(live, here)

    # -- the owner's webhook (.webhook) ---------------------------------------------------
    async def set_webhook(self, room_id: Any, token: Any, url: Any, link: str) -> str | None:
        """The owner sets the room's webhook to ``url`` (``None`` or ``""``: none);
        ``link``: the room's spectator link, sent with each call. Kept in the store; the
        current payload is sent at once when someone is to act (a check that it
        arrives). Returns the URL. Raises :class:`NotFound`, :class:`Forbidden` (not the
        owner's token), :class:`~furball.errors.InputError` (a bad URL; webhooks off)."""
        live = await self.live(room_id)
        if not self.role(live, token).owner:
            raise Forbidden(msg("only the room's owner (the owner's link) may set its webhook"))
        checked = check_url(url)
        if checked is not None and self.webhooks == Reach.OFF:
            raise InputError("request: field 'url': webhooks are off on this server (furball serve --webhooks)")
        webhook = None if checked is None else {"url": checked, "link": link}
        await self._store(self.store.set_webhook, live.room.spec.id, None if webhook is None else json.dumps(webhook))
        live.webhook, live.hooked = webhook, None
        self._hook(live)
        log.info("room %s: webhook %s by its owner", live.room.spec.id, "set" if webhook else "removed")
        return checked

    async def webhook(self, room_id: Any, token: Any) -> str | None:
        """The room's webhook URL (``None``: none), for its owner only. Raises
        :class:`NotFound`, :class:`Forbidden`."""
        live = await self.live(room_id)
        if not self.role(live, token).owner:
            raise Forbidden(msg("only the room's owner (the owner's link) may read its webhook"))
        return None if live.webhook is None else live.webhook["url"]

    def _hook(self, live: Live, here: bool = True) -> None:
        """Queue the webhook's call when the people to act changed
        (:func:`~.webhook.worth_sending`) through this process (``here``)."""
        if live.webhook is None or self.webhooks == Reach.OFF or self.closed:
            return
        body = payload(live.room, live.webhook["link"])
        news = worth_sending(live.hooked, body)
        live.hooked = body
        if not (news and here):
            return
        room_id = live.room.spec.id
        if room_id not in self._hooks_busy and len(self._hooks_busy) >= MAX_WAITING:  # waiting or being sent
            log.warning("room %s: webhook call dropped (%d rooms' calls waiting)", room_id, MAX_WAITING)
            return
        self._hooks_waiting[room_id] = (live.webhook["url"], body)
        if room_id not in self._hooks_busy:
            self._hooks_busy.add(room_id)
            self._spawn(self._hook_lane(room_id))

    async def _hook_lane(self, room_id: str) -> None:
        """A room's webhook calls, one at a time, the newest waiting one each time."""
        try:
            while room_id in self._hooks_waiting:
                url, body = self._hooks_waiting.pop(room_id)
                host = url.split("/")[2].rpartition("@")[2][:100]  # never the whole URL: it may hold a secret
                try:
                    with anyio.fail_after(TIMEOUT_S + 1):
                        await anyio.to_thread.run_sync(send, url, body, self.webhooks, TIMEOUT_S,
                                                       limiter=self._hook_threads, abandon_on_cancel=True)
                except Exception as exc:  # noqa: BLE001 - logged, never fatal, never retried
                    why = f"HTTP {exc.code}" if hasattr(exc, "code") else " ".join(str(exc).split())[:200]
                    log.warning("room %s: webhook to %s failed: %s", room_id, host, why or type(exc).__name__)
        finally:
            self._hooks_busy.discard(room_id)

    # -- bots ---------------------------------------------------------------------------
    def _schedule_bot(self, live: Live, delay_s: float | None = None) -> None:
        """A bot to act in ``live``: into the bots' queue after ``delay_s`` (default
        :attr:`bot_delay_s`), unless its decision is already pending."""
        if self.closed or live.bot is not None or live.queued or live.deciding or live.room.bot_to_act() is None:
            return
        loop = asyncio.get_running_loop()

        def fire():
            live.bot = None
            if not self.closed and not live.queued and self._bots_waiting is not None:
                live.queued = True
                self._bots_waiting.put_nowait(live)
        live.bot = loop.call_later(self.bot_delay_s if delay_s is None else delay_s, fire)

    async def _bot_lane(self) -> None:
        """One bot lane: the rooms' pending decisions, one at a time, in the queue's order."""
        while True:
            live = await self._bots_waiting.get()
            live.queued = False
            if self._loaded.get(live.room.spec.id) is not live:  # deleted or dropped from memory meanwhile
                continue
            live.deciding = True
            try:
                await self._bot_move(live)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - never forgotten: tried again a little later
                log.error("room %s: the bot's decision failed (%s): trying again in %g s", live.room.spec.id,
                          " ".join(str(exc).split())[:200] or type(exc).__name__, self.bot_retry_s)
                live.deciding = False
                self._schedule_bot(live, self.bot_retry_s)
            else:
                live.deciding = False
                self._schedule_bot(live)

    async def _decide(self, call: BotCall) -> int:
        """``call``'s decision (:func:`~.rooms.bot_choice`) in the bots' pool, within
        :attr:`time_limit_s`. Raises :class:`Busy` past it."""
        if self.bot_pool is not None:
            return await self.bot_pool.run(bot_choice, call, time_limit_s=self.time_limit_s)
        try:
            with anyio.fail_after(self.time_limit_s):
                return await anyio.to_thread.run_sync(bot_choice, call, limiter=self._bot_threads,
                                                      abandon_on_cancel=True)
        except TimeoutError:
            raise Busy(f"the bot took longer than {self.time_limit_s:g} s") from None

    async def _bot_move(self, live: Live) -> None:
        """The bot to act in ``live`` decides (without holding the room) and its decision
        is applied and stored, unless the room moved on meanwhile."""
        call = live.room.bot_call()
        if call is None:
            return
        try:
            index = await self._decide(call)
        except Busy as exc:
            quick = call.quick()
            log.warning("room %s: the %s bot of seat %d did not decide (%s): the %s bot decides instead",
                        live.room.spec.id, call.bot, call.seat, exc, quick.bot)
            index = await self._decide(quick)
        async with live.lock:
            room = live.room
            if room.version != call.version:
                return
            new, event = await self.engine(room.bot_decided, call, index, person=False)
            if await self._store(self.store.append, room.spec.id, event):
                self._advance(live, new)
            else:
                await self._catch_up_locked(live)

    # -- the end of rooms ------------------------------------------------------------------
    async def delete(self, room_id: Any, token: Any) -> None:
        """The owner deletes the room: its events and record are removed, its pages told
        it is gone. Raises :class:`NotFound`, :class:`Forbidden` (not the owner's key)."""
        live = await self.live(room_id)
        if not self.role(live, token).owner:
            raise Forbidden(msg("only the room's owner (the owner's link) may delete it"))
        async with live.lock:
            await self._store(self.store.delete, live.room.spec.id)
            self._forget(live.room.spec.id)
        log.info("room %s deleted by its owner", live.room.spec.id)

    async def expire(self, now: float | None = None) -> list[str]:
        """Remove the rooms finished more than ``finished_kept_s`` ago and the unfinished
        ones idle for more than ``idle_kept_s`` (:class:`~.limits.RoomLimits`), a batch
        at a time. Returns their ids."""
        now = time.time() if now is None else float(now)
        ids = await self._store(self.store.expire, now - self.limits.finished_kept_s, now - self.limits.idle_kept_s)
        for room_id in ids:
            self._forget(room_id)
        if ids:
            log.info("%d finished or abandoned rooms removed", len(ids))
        return ids

    async def _expire_loop(self) -> None:
        while not self.closed:
            try:
                while len(await self.expire()) >= EXPIRE_BATCH and not self.closed:
                    await asyncio.sleep(0)  # a whole batch: another at once
            except Exception as exc:  # noqa: BLE001 - the store failed: log it, try again later
                log.error("expiring rooms failed: %s", " ".join(str(exc).split())[:300])
            await asyncio.sleep(self.limits.expire_every_s)

    def _forget(self, room_id: str) -> None:
        """Drop a deleted room from memory: its timers stop, its pages hear it is gone."""
        live = self._loaded.pop(room_id, None)
        if live is None:
            return
        for handle in (live.bot, live.timer):
            if handle is not None:
                handle.cancel()
        live.bot = live.timer = None
        for sub in live.subscribers:
            sub.gone = True
            sub.wake.set()

    # -- other processes ------------------------------------------------------------------
    def _notified(self, room_id: str | None, n: int) -> None:
        """From the store's listener: event ``n`` of ``room_id`` exists (``None``: any
        room may have changed)."""
        if room_id is not None and room_id.startswith(("chat:", "rematch:")):
            what, _, rid = room_id.partition(":")
            live = self._loaded.get(rid)
            if live is not None:
                self._spawn(self._chat_catch_up(live) if what == "chat" else self._rematch_catch_up(live))
            return
        targets = list(self._loaded.values()) if room_id is None else [self._loaded.get(room_id)]
        for live in targets:
            if live is not None and room_id is None:  # the listener reconnected: chat and rematch may have changed
                self._spawn(self._chat_catch_up(live))
                self._spawn(self._rematch_catch_up(live))
            if live is not None and (room_id is None or n > live.room.version):
                self._spawn(self._catch_up(live))

    async def _catch_up(self, live: Live) -> None:
        async with live.lock:
            await self._catch_up_locked(live)

    async def _catch_up_locked(self, live: Live) -> None:
        room = live.room
        events = await self._store(self.store.events_after, room.spec.id, room.version)
        if not events:
            return
        try:
            new = await self.engine(_apply_all, room, events)
        except RoomBroken as exc:
            log.error("%s", exc)
            return
        self._advance(live, new, here=False)

    # -- subscribers ----------------------------------------------------------------------
    async def subscribe(self, room_id: Any, token: Any, seen: Any = 0, owner: Any = None,
                        lang: Any = None, chat_seen: Any = 0) -> Subscriber:
        """A new subscriber of ``room_id`` as the seat of ``token`` (none: a spectator),
        the owner if ``owner`` (or ``token``) is the owner's token, having read ``seen``
        log lines and ``chat_seen`` chat lines already (resume after a dropped
        connection), reading the log in ``lang`` (``"es"``, ``"en"``; anything else:
        English). Raises :class:`NotFound`."""
        live = await self.live(room_id)
        role = self.role(live, token)
        if owner and not role.owner:
            role = Role(role.seat, self.role(live, owner).owner)
        start = seen if isinstance(seen, int) and not isinstance(seen, bool) and seen >= 0 else 0
        sub = Subscriber(live.room.spec.id, role, sent=min(start, len(live.room.log_for(role.seat))),
                         lang=(parse_lang(lang) if isinstance(lang, str) else None) or DEFAULT_LANG)
        if isinstance(chat_seen, int) and not isinstance(chat_seen, bool) and chat_seen >= 0:
            sub.chat_sent = min(chat_seen, len(live.chat))
        live.subscribers.add(sub)
        self._presence_changed(live)
        sub.wake.set()
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        live = self._loaded.get(sub.room)
        if live is not None and sub in live.subscribers:
            live.subscribers.discard(sub)
            self._presence_changed(live)

    def _presence_changed(self, live: Live) -> None:
        for other in live.subscribers:
            other.wake.set()

    @staticmethod
    def present(live: Live) -> list[bool]:
        """Per seat: whether a page holding its token is connected to this process."""
        here = {s.role.seat for s in live.subscribers}
        return [i in here for i in range(live.room.seats)]

    async def next_message(self, sub: Subscriber) -> str:
        """The next message for ``sub`` (waits until something it sees has changed).
        Raises :class:`NotFound` once the room is deleted."""
        while True:
            await sub.wake.wait()
            sub.wake.clear()
            if sub.gone:
                raise NotFound(msg("the room was deleted"))
            live = self._loaded.get(sub.room)
            if live is None:  # dropped from memory: load it again
                live = await self.live(sub.room)
                live.subscribers.add(sub)
            message = self.message(live, sub)
            if message is not None:
                if len(live.chat) > sub.chat_sent:
                    sub.wake.set()  # the chat goes next
                return message
            message = self.chat_message(live, sub)
            if message is not None:
                return message

    def message(self, live: Live, sub: Subscriber) -> str | None:
        """The update ``sub`` has not seen yet, as JSON text, or ``None`` when nothing it
        sees changed. Marks it sent."""
        room = live.room
        seat = sub.role.seat
        key = (room.version, seat, sub.lang)
        view = live.views.get(key)
        if view is None:
            view = live.views[key] = view_text(room, seat, live.views, sub.lang)
        present = json.dumps(self.present(live))
        rematch = json.dumps(live.rematch)
        state = view + present + rematch + ("o" if sub.role.owner else "")
        lines = room.log_for(seat)[sub.sent:]
        if state == sub.last and not lines:
            return None
        start = sub.sent
        sub.sent += len(lines)
        sub.last = state
        log_json = json.dumps([line.as_json(sub.lang) for line in lines], separators=(",", ":"))
        outcome = ""
        if room.terminal and hasattr(room.state, "outcome_entries"):  # the game's end in the reader's language
            said = [render_entry(template, args, sub.lang) for template, args in room.state.outcome_entries()]
            outcome = f',"outcome":{json.dumps(said, separators=(",", ":"))}'
        return (f'{{"type":"update","log_from":{start},"log":{log_json},"view":{view},"present":{present},'
                f'"owner":{"true" if sub.role.owner else "false"},"rematch":{rematch}{outcome},'
                f'"now":{time.time():.3f}}}')

    @staticmethod
    def chat_message(live: Live, sub: Subscriber) -> str | None:
        """The chat lines ``sub`` has not seen yet, as JSON text (``None``: none). Marks
        them sent. Their numbers are the chat's own; they carry no time."""
        lines = live.chat[sub.chat_sent:]
        if not lines:
            return None
        start = sub.chat_sent
        sub.chat_sent += len(lines)
        labels = live.room.labels
        return json.dumps({"type": "chat", "chat_from": start, "chat": [line.as_json(labels) for line in lines]},
                          separators=(",", ":"))

    def summary(self, live: Live) -> dict:
        """What anyone may read of a room without a token (its spectator view's head)."""
        v = live.room.view(None, public={})  # the head only: no need to draw the table
        return {k: v[k] for k in ("room", "game", "title", "labels", "seats", "to_act", "acting", "terminal")} | {
            "options": dict(live.room.spec.options), "present": self.present(live), "rematch": live.rematch}


PUBLIC_MARK = "\u2063furball:public-half\u2063"
"""Stands for the public half in a view until its JSON text is put in."""


def view_text(room: Room, seat: int | None, made: dict, lang: Lang = DEFAULT_LANG) -> str:
    """``room.view(seat)`` in ``lang`` as JSON text, its public half (the same for every
    viewer of a language) made and encoded once per version and language and kept in
    ``made`` (a :class:`Live`'s ``views``, emptied at each new version): the same text
    as encoding the whole view."""
    public = made.get(("public", room.version, lang))
    if public is None:
        public = made[("public", room.version, lang)] = room.public_text(lang)
    text = json.dumps(room.view(seat, public=PUBLIC_MARK, lang=lang), allow_nan=False, separators=(",", ":"))
    return text.replace(json.dumps(PUBLIC_MARK), public, 1)


def _apply_all(room: Room, events) -> Room:
    for e in events:
        room = room.apply(e)
    return room


def _first_deadline(room: Room) -> float | None:
    """The first of the room's real-time clock's end and its limited choice's end."""
    times = [t for t in (room.deadline(), room.choice_deadline()) if t is not None]
    return min(times) if times else None
