"""Where rooms live: an append-only store of room specs and events (SQLite or PostgreSQL).

A room is stored as what it was created with (:class:`~.rooms.RoomSpec`, the hashes of
its tokens) and its events (:class:`~.rooms.Event`), one row each, appended in a
transaction that is committed before the event is acknowledged to anyone; the game
state is never stored (it is rebuilt from the seed and the events). Two writers racing
for the same event number: the second insert fails on the primary key and
:meth:`Store.append` answers ``False`` (the caller reads the events it missed).

* :class:`SQLiteStore` (the default: ``rooms.sqlite3`` in the user's data directory,
  from :mod:`platformdirs`, or any path): WAL journal, ``synchronous=FULL`` (a commit is
  on disk before it returns); appends that arrive while a commit is being written wait
  and are committed together in the next transaction (group commit: one ``fsync`` for
  all, none acknowledged before its commit).
* :class:`PostgresStore` (``postgresql://...``, the ``postgres`` extra): the same
  tables; each append also sends ``NOTIFY furball_rooms, 'ROOM:N'`` in its transaction,
  and :meth:`PostgresStore.listen` hands every notification to a callback, so several
  ``furball serve`` processes sharing the database see each other's events at once.

Rooms end (docs/rooms.md, "Limits"): :meth:`Store.finish` marks a finished game,
:meth:`Store.delete` removes a room (its owner's choice) and :meth:`Store.expire` the
rooms finished or abandoned long enough ago; :meth:`Store.open_rooms` counts the
unfinished rooms (of one creator, the client address that made them), for the caps on
creation. An event appended to a room that is gone raises :class:`RoomGone`.

The schema is versioned (table ``furball_schema``); a database written by a newer
furball is refused with one line. Schema: docs/rooms.md.
"""
from __future__ import annotations

import json
import pathlib
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType

from furball.errors import InputError

from .rooms import ChatLine, Event, EventKind, RoomSpec

__all__ = ["SCHEMA_VERSION", "StoredRoom", "Store", "SQLiteStore", "PostgresStore", "open_store",
           "default_path", "CHANNEL", "RoomGone", "EXPIRE_BATCH"]

SCHEMA_VERSION = 4
"""The version of the tables this furball writes (``furball_schema.version``): 2 added
``furball_events.clock`` (a real-time clock's reading), 3 ``furball_rooms.creator`` and
``furball_rooms.finished``, 4 ``furball_rooms.webhook`` (the owner's webhook, JSON
``{"url", "link"}``, :mod:`.webhook`), ``furball_chat`` (a room's chat) and
``furball_rooms.rematch`` (the room of its rematch); an older database is upgraded in
place when opened."""
EXPIRE_BATCH = 500
"""The most rooms one :meth:`Store.expire` call removes (one transaction stays short)."""


class RoomGone(InputError):
    """The room was deleted (by its owner or by expiry) while it was in use."""
CHANNEL = "furball_rooms"
"""The PostgreSQL notification channel (payload ``ROOM_ID:EVENT_NUMBER``)."""

TABLES = (
    """CREATE TABLE IF NOT EXISTS furball_schema (version INTEGER NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS furball_rooms (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        title TEXT NOT NULL,
        options TEXT NOT NULL,
        seed BIGINT NOT NULL,
        controllers TEXT NOT NULL,
        owner_hash TEXT NOT NULL,
        seat_hashes TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        creator TEXT,
        finished DOUBLE PRECISION,
        webhook TEXT,
        rematch TEXT)""",
    """CREATE TABLE IF NOT EXISTS furball_events (
        room TEXT NOT NULL REFERENCES furball_rooms (id),
        n INTEGER NOT NULL,
        kind TEXT NOT NULL,
        seat INTEGER NOT NULL,
        action INTEGER,
        text TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        clock INTEGER,
        PRIMARY KEY (room, n))""",
    """CREATE TABLE IF NOT EXISTS furball_chat (
        room TEXT NOT NULL REFERENCES furball_rooms (id),
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        text TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (room, n))""",
)
UPGRADES = {1: ("ALTER TABLE furball_events ADD COLUMN clock INTEGER",),
            2: ("ALTER TABLE furball_rooms ADD COLUMN creator TEXT",
                "ALTER TABLE furball_rooms ADD COLUMN finished DOUBLE PRECISION"),
            3: ("ALTER TABLE furball_rooms ADD COLUMN webhook TEXT",
                "ALTER TABLE furball_rooms ADD COLUMN rematch TEXT")}
"""SQL that takes the schema from a version to the next (the same for both databases)."""
INDEXES = ("CREATE INDEX IF NOT EXISTS furball_rooms_open ON furball_rooms (finished, creator)",)
"""Indexes made once the tables are at :data:`SCHEMA_VERSION`."""
ROOM_COLUMNS = "id, game, title, options, seed, controllers, owner_hash, seat_hashes, created, creator"
"""The columns a room is written to and read from."""
OPEN_ROOMS = "SELECT count(*) FROM furball_rooms WHERE finished IS NULL"
"""How many rooms are unfinished (``AND creator = ?`` for one creator's)."""
EXPIRED = ("SELECT r.id FROM furball_rooms r WHERE (r.finished IS NOT NULL AND r.finished < {p}) OR "
           "(r.finished IS NULL AND coalesce((SELECT max(e.at) FROM furball_events e WHERE e.room = r.id), "
           "r.created) < {p}) LIMIT {p}")
"""The rooms to expire: finished before a time, or unfinished with no event (nor
creation) since another; at most a number of them."""
EVENT_COLUMNS = "n, kind, seat, action, text, at, clock"
"""The columns an event is read from (and, after ``room``, written to)."""
CHAT_COLUMNS = "n, seat, text, at"
"""The columns a chat line is read from (and, after ``room``, written to)."""
"""The schema (version :data:`SCHEMA_VERSION`), the same SQL for both databases."""


@dataclass(frozen=True)
class StoredRoom:
    """A room as stored: its ``spec``, ``owner_hash``, ``seat_hashes`` (SHA-256 of
    each token, hex), ``events`` (in order), its ``chat`` lines (in order), the id of
    its ``rematch`` room (``None``: none yet) and its owner's ``webhook`` (JSON text, or
    ``None``: :meth:`Store.set_webhook`)."""

    spec: RoomSpec
    owner_hash: str
    seat_hashes: tuple[str, ...]
    events: tuple[Event, ...]
    chat: tuple[ChatLine, ...] = ()
    rematch: str | None = None
    webhook: str | None = None


def default_path() -> pathlib.Path:
    """The default SQLite file: ``rooms.sqlite3`` in the user's data directory
    (``platformdirs.user_data_path("furball")``)."""
    import platformdirs

    return platformdirs.user_data_path("furball") / "rooms.sqlite3"


def _event(row) -> Event:
    n, kind, seat, action, text, at, clock = row
    return Event(int(n), EventKind(kind), int(seat), None if action is None else int(action), text, float(at),
                 None if clock is None else int(clock))


def _event_row(room_id: str, event: Event) -> tuple:
    return (room_id, event.n, event.kind.value, event.seat, event.action, event.text, event.at, event.clock)


def _spec_row(spec: RoomSpec, owner_hash: str, seat_hashes, creator: str | None) -> tuple:
    return (spec.id, spec.game, spec.title, json.dumps(dict(spec.options), sort_keys=True), int(spec.seed),
            json.dumps(list(spec.controllers)), owner_hash, json.dumps(list(seat_hashes)), float(spec.created),
            creator)


def _chat(row) -> ChatLine:
    n, seat, text, at = row
    return ChatLine(int(n), int(seat), text, float(at))


def _chat_row(room_id: str, line: ChatLine) -> tuple:
    return (room_id, line.n, line.seat, line.text, line.at)


def _room(row, events, chat=(), rematch: str | None = None) -> StoredRoom:
    rid, game, title, options, seed, controllers, owner_hash, seat_hashes, created, _creator, webhook = row
    spec = RoomSpec(rid, game, MappingProxyType(json.loads(options)), int(seed), tuple(json.loads(controllers)),
                    title, float(created))
    return StoredRoom(spec, owner_hash, tuple(json.loads(seat_hashes)), tuple(_event(r) for r in events),
                      tuple(_chat(r) for r in chat), rematch, webhook)


class Store:
    """The store's interface (both databases): :meth:`create`, :meth:`load`,
    :meth:`events_after`, :meth:`append`, :meth:`finish`, :meth:`delete`,
    :meth:`expire`, :meth:`open_rooms`, :meth:`close`; :meth:`listen` where updates
    from other processes can arrive. Thread-safe: the server calls it from worker
    threads."""

    name = "store"
    shared = False
    """Whether other processes may write the same rooms (and :meth:`listen` reports them)."""

    def create(self, spec: RoomSpec, owner_hash: str, seat_hashes: tuple[str, ...], creator: str | None = None) -> None:
        """Store a new room; ``creator``: who made it (the client's address, for the cap
        on open rooms; ``None``: nobody counted)."""
        raise NotImplementedError

    def open_rooms(self, creator: str | None = None) -> int:
        """How many rooms are unfinished (``creator``'s only, when given)."""
        raise NotImplementedError

    def finish(self, room_id: str, at: float) -> None:
        """Mark the room's game finished at Unix time ``at`` (kept the first time)."""
        raise NotImplementedError

    def delete(self, room_id: str) -> bool:
        """Remove the room and its events; ``False`` when there was none."""
        raise NotImplementedError

    def expire(self, finished_before: float, idle_before: float, most: int = EXPIRE_BATCH) -> list[str]:
        """Remove (as :meth:`delete`) at most ``most`` rooms whose game finished before
        Unix time ``finished_before``, or that are unfinished with no event (nor their
        creation) since ``idle_before``. Returns their ids."""
        raise NotImplementedError

    def load(self, room_id: str) -> StoredRoom | None:
        raise NotImplementedError

    def set_webhook(self, room_id: str, webhook: str | None) -> bool:
        """Keep the room's webhook (JSON text; ``None``: none). ``False`` when there is
        no such room."""
        raise NotImplementedError

    def events_after(self, room_id: str, n: int) -> list[Event]:
        raise NotImplementedError

    def append(self, room_id: str, event: Event) -> bool:
        """Store ``event`` (committed when this returns ``True``); ``False`` when event
        number ``event.n`` of the room is already taken. Raises :class:`RoomGone` when
        the room is no longer stored."""
        raise NotImplementedError

    def chat_append(self, room_id: str, line: ChatLine) -> bool:
        """Store a chat line (committed when this returns ``True``); ``False`` when its
        number is taken. Raises :class:`RoomGone` when the room is no longer stored."""
        raise NotImplementedError

    def chat_after(self, room_id: str, n: int) -> list[ChatLine]:
        """The room's chat lines numbered after ``n``, in order."""
        raise NotImplementedError

    def set_rematch(self, room_id: str, rematch: str) -> str | None:
        """Record ``rematch`` as the room's rematch unless it has one; returns the one it
        has now (``None``: the room is gone)."""
        raise NotImplementedError

    def listen(self, callback: Callable[[str, int], None]) -> Callable[[], None] | None:
        """Call ``callback(room_id, n)`` (from another thread) whenever another process
        appends an event (``room_id``: the room's id), a chat line (``chat:ROOM``) or a
        rematch (``rematch:ROOM``); returns a function that stops listening, or ``None``
        when this store has no other writers."""
        return None

    def close(self) -> None:
        pass


def _check_version(found: int | None, where: str) -> None:
    if found is not None and found > SCHEMA_VERSION:
        raise InputError(f"--db {where}: the rooms were written by a newer furball (schema {found}; this one "
                         f"reads up to {SCHEMA_VERSION}): upgrade furball or choose another --db")


@dataclass(eq=False)
class _Append:
    """An event row waiting for a commit; ``inserted``: ``True`` once committed, ``False``
    when its number was taken, the exception when the transaction failed."""

    row: tuple
    inserted: bool | BaseException | None = None


class SQLiteStore(Store):
    """Rooms in a SQLite file (``":memory:"``: in memory, gone when the server stops).
    Raises :class:`InputError` when the file cannot be opened or holds a newer schema."""

    name = "sqlite"

    def __init__(self, path: str | pathlib.Path):
        self.where = str(path)
        self._lock = threading.Lock()
        self._waiting_lock = threading.Lock()
        self._waiting: list[_Append] = []
        try:
            if self.where != ":memory:":
                pathlib.Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
                path = pathlib.Path(path).expanduser()
            self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=10.0)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.Error as exc:
            raise InputError(f"--db {self.where}: cannot use it as the rooms database ({exc})") from None
        except OSError as exc:
            raise InputError(f"--db {self.where}: cannot create its folder ({exc.strerror or exc})") from None

    def _migrate(self) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            has = db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name='furball_schema'").fetchone()
            found = db.execute("SELECT max(version) FROM furball_schema").fetchone()[0] if has else None
            _check_version(found, self.where)
            for sql in TABLES:
                db.execute(sql)
            if found is None:
                db.execute("INSERT INTO furball_schema (version) VALUES (?)", (SCHEMA_VERSION,))
            for version in range(found or SCHEMA_VERSION, SCHEMA_VERSION):
                for sql in UPGRADES[version]:
                    db.execute(sql)
                db.execute("UPDATE furball_schema SET version = ?", (version + 1,))
            for sql in INDEXES:
                db.execute(sql)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def _write(self, fn):
        """``fn(db)`` in one transaction."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                out = fn(self._db)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return out

    def create(self, spec, owner_hash, seat_hashes, creator=None):
        self._write(lambda db: db.execute(f"INSERT INTO furball_rooms ({ROOM_COLUMNS}) VALUES "
                                          f"(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                          _spec_row(spec, owner_hash, seat_hashes, creator)))

    def open_rooms(self, creator=None):
        with self._lock:
            if creator is None:
                return int(self._db.execute(OPEN_ROOMS).fetchone()[0])
            return int(self._db.execute(OPEN_ROOMS + " AND creator = ?", (creator,)).fetchone()[0])

    def finish(self, room_id, at):
        self._write(lambda db: db.execute("UPDATE furball_rooms SET finished = ? WHERE id = ? AND finished IS NULL",
                                          (float(at), room_id)))

    @staticmethod
    def _delete(db, ids) -> None:
        for room_id in ids:
            db.execute("DELETE FROM furball_events WHERE room = ?", (room_id,))
            db.execute("DELETE FROM furball_chat WHERE room = ?", (room_id,))
            db.execute("DELETE FROM furball_rooms WHERE id = ?", (room_id,))

    def delete(self, room_id):
        def gone(db):
            found = db.execute("SELECT 1 FROM furball_rooms WHERE id = ?", (room_id,)).fetchone() is not None
            self._delete(db, [room_id])
            return found
        return self._write(gone)

    def expire(self, finished_before, idle_before, most=EXPIRE_BATCH):
        def gone(db):
            ids = [r[0] for r in db.execute(EXPIRED.format(p="?"), (float(finished_before), float(idle_before),
                                                                     int(most))).fetchall()]
            self._delete(db, ids)
            return ids
        return self._write(gone)

    def load(self, room_id):
        with self._lock:
            row = self._db.execute(f"SELECT {ROOM_COLUMNS}, webhook FROM furball_rooms WHERE id = ?",
                                   (room_id,)).fetchone()
            if row is None:
                return None
            events = self._db.execute(f"SELECT {EVENT_COLUMNS} FROM furball_events WHERE room = ? "
                                      "ORDER BY n", (room_id,)).fetchall()
            chat = self._db.execute(f"SELECT {CHAT_COLUMNS} FROM furball_chat WHERE room = ? ORDER BY n",
                                    (room_id,)).fetchall()
            rematch = self._db.execute("SELECT rematch FROM furball_rooms WHERE id = ?", (room_id,)).fetchone()[0]
        return _room(row, events, chat, rematch)

    def chat_append(self, room_id, line):
        def write(db):
            if db.execute("SELECT 1 FROM furball_rooms WHERE id = ?", (room_id,)).fetchone() is None:
                raise RoomGone("no such room (it was deleted)")
            try:
                db.execute(f"INSERT INTO furball_chat (room, {CHAT_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
                           _chat_row(room_id, line))
            except sqlite3.IntegrityError:
                return False
            return True
        return self._write(write)

    def chat_after(self, room_id, n):
        with self._lock:
            rows = self._db.execute(f"SELECT {CHAT_COLUMNS} FROM furball_chat WHERE room = ? AND n > ? ORDER BY n",
                                    (room_id, n)).fetchall()
        return [_chat(r) for r in rows]

    def set_rematch(self, room_id, rematch):
        def write(db):
            db.execute("UPDATE furball_rooms SET rematch = ? WHERE id = ? AND rematch IS NULL", (rematch, room_id))
            row = db.execute("SELECT rematch FROM furball_rooms WHERE id = ?", (room_id,)).fetchone()
            return None if row is None else row[0]
        return self._write(write)

    def set_webhook(self, room_id, webhook):
        return self._write(lambda db: db.execute("UPDATE furball_rooms SET webhook = ? WHERE id = ?",
                                                 (webhook, room_id)).rowcount > 0)

    def events_after(self, room_id, n):
        with self._lock:
            rows = self._db.execute(f"SELECT {EVENT_COLUMNS} FROM furball_events WHERE room = ? "
                                    "AND n > ? ORDER BY n", (room_id, n)).fetchall()
        return [_event(r) for r in rows]

    def append(self, room_id, event):
        """Group commit: the appends waiting while a commit is on its way to the disk go
        into the next transaction together (one ``fsync`` for all of them); each is in its
        own savepoint, so a taken event number fails alone. Returns once the transaction
        holding this event is committed."""
        mine = _Append(_event_row(room_id, event))
        with self._waiting_lock:
            self._waiting.append(mine)
        with self._lock:
            if mine.inserted is None:  # not committed by another thread's batch: lead one
                with self._waiting_lock:
                    batch, self._waiting = self._waiting, []
                self._commit(batch)
        if isinstance(mine.inserted, BaseException):
            raise mine.inserted
        return mine.inserted

    def _commit(self, batch: list[_Append]) -> None:
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                outcomes = []
                for a in batch:
                    db.execute("SAVEPOINT furball_append")
                    try:
                        db.execute(f"INSERT INTO furball_events (room, {EVENT_COLUMNS}) "
                                   f"VALUES (?, ?, ?, ?, ?, ?, ?, ?)", a.row)
                        outcomes.append(True)
                    except sqlite3.IntegrityError as exc:
                        db.execute("ROLLBACK TO furball_append")
                        gone = "FOREIGN KEY" in str(exc).upper()  # the room was deleted
                        outcomes.append(RoomGone("no such room (it was deleted)") if gone else False)
                    db.execute("RELEASE furball_append")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        except BaseException as exc:
            for a in batch:
                a.inserted = exc
            return
        for a, ok in zip(batch, outcomes):
            a.inserted = ok

    def close(self):
        with self._lock:
            self._db.close()


class PostgresStore(Store):
    """Rooms in a PostgreSQL database (``dsn``: ``postgresql://...``), shared by every
    ``furball serve`` process that names it. Needs the ``postgres`` extra (psycopg).
    Raises :class:`InputError` when the server cannot be reached or holds a newer schema."""

    name = "postgresql"
    shared = True

    def __init__(self, dsn: str):
        from furball.extras import require

        self.psycopg = require("postgres", "--db postgresql://...", "psycopg")
        self.dsn = dsn
        self.where = _redacted(dsn)
        self._lock = threading.Lock()
        try:
            self._db = self.psycopg.connect(dsn, autocommit=False, connect_timeout=10)
            self._migrate()
        except self.psycopg.Error as exc:
            raise InputError(f"--db {self.where}: cannot use it as the rooms database "
                             f"({' '.join(str(exc).split())[:200]})") from None

    def _migrate(self) -> None:
        with self._db.transaction(), self._db.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(74120522)")  # one process creates the tables
            cur.execute("SELECT to_regclass('furball_schema')")
            has = cur.fetchone()[0] is not None
            found = None
            if has:
                cur.execute("SELECT max(version) FROM furball_schema")
                found = cur.fetchone()[0]
            _check_version(found, self.where)
            for sql in TABLES:
                cur.execute(sql)
            if found is None:
                cur.execute("INSERT INTO furball_schema (version) VALUES (%s)", (SCHEMA_VERSION,))
            for version in range(found or SCHEMA_VERSION, SCHEMA_VERSION):
                for sql in UPGRADES[version]:
                    cur.execute(sql)
                cur.execute("UPDATE furball_schema SET version = %s", (version + 1,))
            for sql in INDEXES:
                cur.execute(sql)

    def _run(self, fn):
        """``fn(cursor)`` in a transaction, reconnecting once if the connection broke."""
        with self._lock:
            for attempt in (0, 1):
                try:
                    with self._db.transaction(), self._db.cursor() as cur:
                        return fn(cur)
                except self.psycopg.OperationalError:
                    if attempt or not self._db.closed and not self._db.broken:
                        raise
                    self._db = self.psycopg.connect(self.dsn, autocommit=False, connect_timeout=10)
        return None  # pragma: no cover

    def create(self, spec, owner_hash, seat_hashes, creator=None):
        self._run(lambda cur: cur.execute(f"INSERT INTO furball_rooms ({ROOM_COLUMNS}) VALUES "
                                          f"(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                                          _spec_row(spec, owner_hash, seat_hashes, creator)))

    def open_rooms(self, creator=None):
        def count(cur):
            if creator is None:
                cur.execute(OPEN_ROOMS)
            else:
                cur.execute(OPEN_ROOMS + " AND creator = %s", (creator,))
            return int(cur.fetchone()[0])
        return self._run(count)

    def finish(self, room_id, at):
        self._run(lambda cur: cur.execute("UPDATE furball_rooms SET finished = %s WHERE id = %s AND finished IS NULL",
                                          (float(at), room_id)))

    @staticmethod
    def _delete(cur, ids) -> None:
        if ids:
            cur.execute("DELETE FROM furball_events WHERE room = ANY(%s)", (list(ids),))
            cur.execute("DELETE FROM furball_chat WHERE room = ANY(%s)", (list(ids),))
            cur.execute("DELETE FROM furball_rooms WHERE id = ANY(%s)", (list(ids),))

    def delete(self, room_id):
        def gone(cur):
            cur.execute("SELECT 1 FROM furball_rooms WHERE id = %s FOR UPDATE", (room_id,))
            found = cur.fetchone() is not None
            self._delete(cur, [room_id])
            return found
        return self._run(gone)

    def expire(self, finished_before, idle_before, most=EXPIRE_BATCH):
        def gone(cur):
            cur.execute(EXPIRED.format(p="%s") + " FOR UPDATE SKIP LOCKED",
                        (float(finished_before), float(idle_before), int(most)))
            ids = [r[0] for r in cur.fetchall()]
            self._delete(cur, ids)
            return ids
        return self._run(gone)

    def load(self, room_id):
        def read(cur):
            cur.execute(f"SELECT {ROOM_COLUMNS}, webhook FROM furball_rooms WHERE id = %s", (room_id,))
            row = cur.fetchone()
            if row is None:
                return None
            cur.execute(f"SELECT {EVENT_COLUMNS} FROM furball_events WHERE room = %s ORDER BY n",
                        (room_id,))
            events = cur.fetchall()
            cur.execute(f"SELECT {CHAT_COLUMNS} FROM furball_chat WHERE room = %s ORDER BY n", (room_id,))
            chat = cur.fetchall()
            cur.execute("SELECT rematch FROM furball_rooms WHERE id = %s", (room_id,))
            return _room(row, events, chat, cur.fetchone()[0])
        return self._run(read)

    def set_webhook(self, room_id, webhook):
        def write(cur):
            cur.execute("UPDATE furball_rooms SET webhook = %s WHERE id = %s", (webhook, room_id))
            return cur.rowcount > 0
        return self._run(write)

    def chat_append(self, room_id, line):
        return self._insert_notified(f"INSERT INTO furball_chat (room, {CHAT_COLUMNS}) VALUES (%s, %s, %s, %s, %s)",
                                     _chat_row(room_id, line), f"chat:{room_id}:{line.n}")

    def chat_after(self, room_id, n):
        def read(cur):
            cur.execute(f"SELECT {CHAT_COLUMNS} FROM furball_chat WHERE room = %s AND n > %s ORDER BY n",
                        (room_id, n))
            return [_chat(r) for r in cur.fetchall()]
        return self._run(read)

    def set_rematch(self, room_id, rematch):
        def write(cur):
            cur.execute("UPDATE furball_rooms SET rematch = %s WHERE id = %s AND rematch IS NULL", (rematch, room_id))
            cur.execute("SELECT rematch FROM furball_rooms WHERE id = %s", (room_id,))
            row = cur.fetchone()
            cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"rematch:{room_id}:0"))
            return None if row is None else row[0]
        return self._run(write)

    def events_after(self, room_id, n):
        def read(cur):
            cur.execute(f"SELECT {EVENT_COLUMNS} FROM furball_events WHERE room = %s AND n > %s "
                        "ORDER BY n", (room_id, n))
            return [_event(r) for r in cur.fetchall()]
        return self._run(read)

    def append(self, room_id, event):
        return self._insert_notified(f"INSERT INTO furball_events (room, {EVENT_COLUMNS}) "
                                     f"VALUES (%s, %s, %s, %s, %s, %s, %s, %s)", _event_row(room_id, event),
                                     f"{room_id}:{event.n}")

    def _insert_notified(self, sql: str, row: tuple, note: str) -> bool:
        """Insert ``row`` and tell the other servers ``note`` in one transaction: ``False``
        when the row's number is taken already, :class:`RoomGone` when its room is not there."""
        unique = self.psycopg.errors.UniqueViolation
        missing = self.psycopg.errors.ForeignKeyViolation

        def write(cur):
            cur.execute(sql, row)
            cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, note))
        try:
            self._run(write)
        except unique:
            return False
        except missing:
            raise RoomGone("no such room (it was deleted)") from None
        return True

    def listen(self, callback):
        """A thread with its own connection ``LISTEN``-ing on :data:`CHANNEL`; it
        reconnects after a lost connection (and then reports every room as changed:
        ``callback(None, 0)``, so the caller catches up)."""
        stop = threading.Event()

        def run():
            first = True
            while not stop.is_set():
                try:
                    with self.psycopg.connect(self.dsn, autocommit=True, connect_timeout=10) as conn:
                        conn.execute(f"LISTEN {CHANNEL}")
                        if not first:
                            callback(None, 0)
                        first = False
                        while not stop.is_set():
                            for note in conn.notifies(timeout=0.5):
                                room, _, n = note.payload.rpartition(":")
                                if n.isdigit():
                                    callback(room, int(n))
                except self.psycopg.Error:
                    stop.wait(1.0)

        thread = threading.Thread(target=run, name="furball-listen", daemon=True)
        thread.start()

        def halt():
            stop.set()
            thread.join(5.0)
        return halt

    def close(self):
        with self._lock:
            self._db.close()


def _redacted(dsn: str) -> str:
    """``dsn`` without its password (for messages)."""
    import re

    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", dsn)


def open_store(db: str | None) -> Store:
    """The store named by ``--db``: ``None`` (the default file, :func:`default_path`), a
    SQLite path, ``:memory:``, or ``postgresql://...``/``postgres://...``. Raises
    :class:`InputError`."""
    if db is None:
        return SQLiteStore(default_path())
    if db.startswith(("postgresql://", "postgres://")):
        return PostgresStore(db)
    if "://" in db:
        raise InputError(f"--db {_redacted(db)[:80]}: expected a file path or postgresql://...")
    return SQLiteStore(db)

