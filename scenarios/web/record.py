"""A room's whole game as one **game record** (docs/formats.md, "Game record"): every step
a viewer saw, from the set-up to now, to step through on the room page, download as one
JSON file, print with ``furball replay FILE`` and open again on the practice page.

**A record holds only what its viewer could see.** It is made by rebuilding the room from
its seed and events (:meth:`~.rooms.Room.replay`, one event at a time) and keeping, for the
viewer, each position where what it receives changed: its new log lines
(:meth:`~.rooms.Room.log_for`) and its view then (:meth:`~.rooms.Room.view`, the secrecy
of both is proved in tests/test_rooms_secrecy.py), without what only serves to act (the
legal actions, the plan tree, the view version) and without times (a real-time clock's
reading is kept, not the Unix time it was read at). Steps are numbered by the viewer's own
count, never by the room's event numbers, and carry no times of events: another seat's
secret actions leave no gap and no trace. The record of a **finished** game holds every
seat's steps (everything is public then, the seed included); of a running game, the
asking seat's only (a spectator: the spectators' log and the public views).

:func:`read_record` checks a record read back (format, version, sizes, fields) and
refuses an absurd one before parsing it (:data:`MAX_RECORD_BYTES`).
"""
from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from furball.errors import InputError

from .rooms import MAX_EVENTS, Event, LogLine, Room, RoomSpec, render_line

__all__ = ["FORMAT", "VERSION", "MAX_RECORD_BYTES", "MAX_VIEWERS", "RecordStep", "RecordViewer", "GameRecord",
           "game_record", "read_record", "record_lines", "record_text", "record_name", "view_changes",
           "apply_changes"]

FORMAT = "furball-game-record"
"""The ``format`` field of every game record."""
VERSION = 1
"""The version of the game-record format this furball writes (and the newest it reads)."""
MAX_RECORD_BYTES = 32 * 1024 * 1024
"""The largest record file read (a long White Christmas game for four is under 5 MiB)."""
MAX_VIEWERS = 17
"""The most viewers in a record (every seat of the largest game, and the spectators)."""
MAX_LINES = 100_000
"""The most log entries, lines of one entry, or view changes in one step."""
MAX_DEPTH = 64
"""The longest path of one view change."""
MAX_COPIES = 100_000_000
"""The most object and list entries copied while rebuilding a record's views (a long
White Christmas game for four copies a few million)."""
ACTING_FIELDS = ("legal", "legal_count", "choices", "version")
"""What a seat's live view holds to act with, left out of a record's views."""


@dataclass(frozen=True)
class RecordStep:
    """One step of a viewer's record: its number ``step`` (0: the set-up; the viewer's own
    count), the ``log`` entries that arrived with it (:class:`~.rooms.LogLine`, their
    ``n`` the entry's place in the viewer's log) and the viewer's ``view`` then (JSON, as
    :meth:`~.rooms.Room.view` without :data:`ACTING_FIELDS`)."""

    step: int
    log: tuple[LogLine, ...]
    view: Mapping[str, Any] = field(repr=False, compare=False)

    def as_json(self, before: Mapping[str, Any] | None = None) -> dict:
        """The step as the file holds it: its ``view`` whole (``before`` ``None``: the
        first step), else its ``changes`` from the view ``before`` (:func:`view_changes`)."""
        out: dict[str, Any] = {"step": self.step, "log": [line.as_json() for line in self.log]}
        if before is None:
            out["view"] = self.view
        else:
            out["changes"] = view_changes(before, self.view)
        return out


@dataclass(frozen=True)
class RecordViewer:
    """What one viewer saw: its ``seat`` (``None``: the spectators), its ``label``
    (``P1`` ..., ``spectator``) and its ``steps``."""

    seat: int | None
    label: str
    steps: tuple[RecordStep, ...]

    def as_json(self) -> dict:
        steps = [s.as_json(self.steps[i - 1].view if i else None) for i, s in enumerate(self.steps)]
        return {"seat": self.seat, "label": self.label, "steps": steps}


@dataclass(frozen=True)
class GameRecord:
    """A game record (docs/formats.md): the room's ``game``, ``title``, ``room`` id,
    ``options`` (as text), seat ``labels`` and ``names``, whether the game is over
    (``terminal``) and, once it is, its ``seed``, ``outcome`` (lines) and ``returns``;
    ``whole``: whether it holds every seat's steps; ``viewers``."""

    game: str
    title: str
    room: str
    options: Mapping[str, str]
    labels: tuple[str, ...]
    names: tuple[str, ...]
    terminal: bool
    whole: bool
    viewers: tuple[RecordViewer, ...]
    seed: int | None = None
    outcome: tuple[str, ...] = ()
    returns: tuple[float, ...] = ()

    def as_json(self) -> dict:
        """The record as the file holds it (``format`` and ``version`` first)."""
        return {"format": FORMAT, "version": VERSION, "game": self.game, "title": self.title, "room": self.room,
                "options": dict(self.options), "labels": list(self.labels), "names": list(self.names),
                "terminal": self.terminal, "whole": self.whole, "seed": self.seed, "outcome": list(self.outcome),
                "returns": list(self.returns), "viewers": [v.as_json() for v in self.viewers]}

    def viewer(self, label: str | None) -> RecordViewer:
        """The viewer called ``label`` (``P1``, ``spectator``; ``None``: the first).
        Raises :class:`InputError` listing the viewers."""
        for v in self.viewers:
            if label is None or v.label.lower() == label.lower():
                return v
        raise InputError(f"record: no viewer {label!r} (it holds {', '.join(v.label for v in self.viewers)})")


def view_changes(before: Any, after: Any, path: tuple = ()) -> list[list]:
    """What turns the JSON value ``before`` into ``after``, as a list of changes made in
    order: ``[path, value]`` (put ``value`` at ``path``), ``[path]`` (remove the object
    key at ``path``) and ``[path, at, count, items]`` (in the list at ``path``, replace
    ``count`` entries from position ``at`` by ``items``), a path being the object keys
    and list positions from the top. Objects are compared key by key, lists of equal
    length place by place, other lists by their longest common runs
    (:class:`difflib.SequenceMatcher`). :func:`apply_changes` is its inverse."""
    if before == after:
        return []
    if isinstance(before, dict) and isinstance(after, dict):
        out: list[list] = [[[*path, k]] for k in before if k not in after]
        for k, v in after.items():
            out += view_changes(before[k], v, (*path, k)) if k in before else [[[*path, k], v]]
        return out
    if isinstance(before, list) and isinstance(after, list):
        if len(before) == len(after):
            return [c for i, (a, b) in enumerate(zip(before, after)) for c in view_changes(a, b, (*path, i))]
        keys: dict[str, int] = {}
        old = [keys.setdefault(json.dumps(x, sort_keys=True), len(keys)) for x in before]
        new = [keys.setdefault(json.dumps(x, sort_keys=True), len(keys)) for x in after]
        ops = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
        out = []
        for tag, i1, i2, j1, j2 in reversed(ops):  # from the end: the positions before stay right
            if tag == "replace" and i2 - i1 == j2 - j1:
                out += [c for i, j in zip(range(i1, i2), range(j1, j2)) for c in view_changes(before[i], after[j],
                                                                                             (*path, i))]
            elif tag != "equal":
                out.append([list(path), i1, i2 - i1, after[j1:j2]])
        return out
    return [[list(path), after]]


def apply_changes(view: Any, changes: Any, where: str, budget: list[int] | None = None) -> Any:
    """``view`` (a JSON value, left unchanged) with ``changes`` (:func:`view_changes`)
    made: a new value sharing every part the changes do not touch. ``budget``: how many
    more entries of objects and lists may be copied (``[n]``, counted down: a hostile
    record that would copy a huge view at every step is refused). Raises
    :class:`InputError` naming ``where`` when a change does not fit."""
    if not isinstance(changes, list) or len(changes) > MAX_LINES:
        raise _fail(where, f"field 'changes': expected a list of at most {MAX_LINES} changes")
    budget = [MAX_COPIES] if budget is None else budget
    for change in changes:
        if (not isinstance(change, list) or len(change) not in (1, 2, 4) or not isinstance(change[0], list)
                or len(change[0]) > MAX_DEPTH or (len(change) == 1 and not change[0])):
            raise _fail(where, f"field 'changes': expected [path], [path, value] or [path, at, count, items], "
                               f"got {_short(change)}")
        try:
            if len(change) == 4:
                view = _put(view, change[0], _splice(_get(view, change[0]), *change[1:]), False, budget)
            else:
                view = _put(view, change[0], change[1] if len(change) == 2 else None, len(change) == 1, budget)
        except (KeyError, IndexError, TypeError):
            raise _fail(where, f"field 'changes': path {_short(change[0])} is not in the view before") from None
        if budget[0] < 0:
            raise _fail(where, "field 'changes': the record's views take too much rebuilding (a record made by "
                               "furball takes far less)")
    return view


def _get(node: Any, path: list) -> Any:
    for key in path:
        if isinstance(node, list) and (isinstance(key, bool) or not isinstance(key, int) or key < 0):
            raise TypeError(key)
        node = node[key]
    return node


def _splice(node: Any, at: Any, count: Any, items: Any) -> list:
    if (not isinstance(node, list) or not isinstance(items, list) or isinstance(at, bool) or isinstance(count, bool)
            or not isinstance(at, int) or not isinstance(count, int) or not 0 <= at <= at + count <= len(node)):
        raise TypeError(at)
    return node[:at] + items + node[at + count:]


def _put(node: Any, path: list, value: Any, remove: bool, budget: list[int]) -> Any:
    if not path:
        return value
    key, rest = path[0], path[1:]
    if isinstance(node, (dict, list)):
        budget[0] -= len(node)
    if isinstance(node, dict) and isinstance(key, str):
        new = dict(node)
        if remove and not rest:
            del new[key]
        else:
            new[key] = _put(node[key], rest, value, remove, budget) if rest else value
        return new
    if (isinstance(node, list) and isinstance(key, int) and not isinstance(key, bool) and 0 <= key < len(node)
            and not (remove and not rest)):
        new_list = list(node)
        new_list[key] = _put(node[key], rest, value, remove, budget)
        return new_list
    raise TypeError(key)


def _seen(view: dict) -> dict:
    """``view`` as a record keeps it: without :data:`ACTING_FIELDS` and without the Unix
    time of a real-time clock's reading (``clock.since``: a record holds no times)."""
    out = {k: v for k, v in view.items() if k not in ACTING_FIELDS}
    if isinstance(out.get("clock"), dict):
        out["clock"] = {k: v for k, v in out["clock"].items() if k != "since"}
    return out


def game_record(room: Room, seat: int | None) -> GameRecord:
    """The record of ``room``'s game as ``seat`` may have it (``None``: a spectator):
    every seat's steps once the game is over, else the steps of ``seat`` alone (module
    docstring). Rebuilds the room from its events (as long as loading it from the
    store)."""
    whole = room.terminal
    viewers: tuple[int | None, ...] = tuple(range(room.seats)) if whole else (seat,)
    at = Room.new(room.spec)
    steps: list[list[RecordStep]] = [[] for _ in viewers]
    entries = [0] * len(viewers)  # log entries in each viewer's steps so far

    def look() -> None:
        public = at.public_view()  # the same for every viewer (tests/test_rooms_secrecy.py)
        for k, viewer in enumerate(viewers):
            view = _seen(at.view(viewer, public=public))
            log = at.log_for(viewer)
            had = entries[k]
            before = steps[k][-1].view if steps[k] else None
            if view == before and len(log) == had:
                continue
            if before is not None:  # kept as the changes made to the last view: unchanged parts shared
                view = apply_changes(before, view_changes(before, view), "record")
            # the record's text is English (what a reader of the file reads; docs/formats.md)
            new = tuple(LogLine(i, line.seat, None if line.action is None else render_line(line.action), line.lines)
                        for i, line in enumerate(log) if i >= had)
            steps[k].append(RecordStep(len(steps[k]), new, view))
            entries[k] = len(log)

    look()
    for event in room.events:
        at = at.apply(event)
        look()
    final = at.view(None, public={})
    return GameRecord(
        room.spec.game, room.spec.title, room.spec.id, dict(room.spec.options), room.labels, room.names,
        room.terminal, whole,
        tuple(RecordViewer(v, "spectator" if v is None else room.labels[v], tuple(s)) for v, s in zip(viewers, steps)),
        seed=room.spec.seed if whole else None, outcome=tuple(final.get("outcome", ())),
        returns=tuple(float(r) for r in final.get("returns", ())))


def record_text(spec: RoomSpec, events: Sequence[Event], seat: int | None) -> str:
    """The JSON text of the record of the room made by ``spec`` and ``events``, as
    ``seat`` may have it (:func:`game_record`): a module-level function of plain values,
    so a worker process can make it (``spec.options`` a plain dict)."""
    record = game_record(Room.replay(spec, events), seat)
    return json.dumps(record.as_json(), allow_nan=False, ensure_ascii=False, separators=(",", ":"))


def record_name(room: Room, seat: int | None) -> str:
    """The file name a record of ``room`` for ``seat`` is downloaded as:
    ``furball-GAME-ROOM-P1.json`` (``spectator``; ``all``: a finished game's)."""
    who = "all" if room.terminal else "spectator" if seat is None else room.labels[seat]
    return f"furball-{room.spec.game}-{room.spec.id}-{who}.json"


# ------------------------------------------------------------------------------ reading one back
def _fail(where: str, what: str) -> InputError:
    return InputError(f"{where}: {what}")


def _short(value: Any, most: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= most else text[:most - 3] + "..."


def _text(data: Mapping, name: str, where: str, most: int = 200, optional: bool = False) -> str:
    value = data.get(name)
    if optional and value is None:
        return ""
    if not isinstance(value, str) or len(value) > most:
        raise _fail(where, f"field {name!r}: expected text of at most {most} characters, got {_short(value)}")
    return value


def _list(data: Mapping, name: str, where: str, most: int, least: int = 0) -> list:
    value = data.get(name)
    if not isinstance(value, list) or not least <= len(value) <= most:
        raise _fail(where, f"field {name!r}: expected a list of {least} to {most} entries, got {_short(value)}")
    return value


def _seat(value: Any, seats: int, where: str, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        raise _fail(where, f"field {name!r}: expected null or a seat from 0 to {seats - 1}, got {_short(value)}")
    return value


def _log_line(data: Any, n: int, seats: int, where: str) -> LogLine:
    if not isinstance(data, Mapping):
        raise _fail(where, f"expected a log entry object, got {_short(data)}")
    lines = _list(data, "lines", where, MAX_LINES)
    if not all(isinstance(t, str) for t in lines):
        raise _fail(where, "field 'lines': expected lines of text")
    action = data.get("action")
    if action is not None and not isinstance(action, str):
        raise _fail(where, f"field 'action': expected text or null, got {_short(action)}")
    return LogLine(n, _seat(data.get("seat"), seats, where, "seat"), action, tuple(lines))


def read_record(data: bytes | str, where: str = "record") -> GameRecord:
    """The :class:`GameRecord` in ``data`` (a record file's bytes or text; ``where``
    names it in errors). Checks, before anything else, the size
    (:data:`MAX_RECORD_BYTES`), then the JSON, ``format``, ``version`` (1 to
    :data:`VERSION`), the seat labels, viewers and steps (at most one per event,
    :data:`~.rooms.MAX_EVENTS`) and every field's type. Raises :class:`InputError` (one
    line naming ``where`` and the field)."""
    size = len(data)
    if size > MAX_RECORD_BYTES:
        raise _fail(where, f"expected a game record of at most {MAX_RECORD_BYTES // 2**20} MiB, "
                           f"got {size / 2**20:.0f} MiB")
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise _fail(where, f"expected a furball game record (JSON), but it is not JSON: {str(exc)[:80]}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        got = doc.get("format") if isinstance(doc, dict) else type(doc).__name__
        raise _fail(where, f"field 'format': expected {FORMAT!r}, got {_short(got)}")
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= VERSION:
        raise _fail(where, f"field 'version': expected 1 to {VERSION} (this furball reads those), got "
                           f"{_short(version)}")
    labels = _list(doc, "labels", where, MAX_VIEWERS - 1, 1)
    if not all(isinstance(t, str) and len(t) <= 40 for t in labels):
        raise _fail(where, "field 'labels': expected short seat names")
    names = doc.get("names") or [""] * len(labels)
    if not isinstance(names, list) or len(names) != len(labels) or not all(isinstance(t, str) for t in names):
        raise _fail(where, f"field 'names': expected {len(labels)} texts, one per seat")
    options = doc.get("options") or {}
    if not isinstance(options, dict) or len(options) > 20 or not all(isinstance(v, str) for v in options.values()):
        raise _fail(where, "field 'options': expected an object of option names and texts")
    seed = doc.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise _fail(where, f"field 'seed': expected a whole number or null, got {_short(seed)}")
    outcome = doc.get("outcome") or []
    returns = doc.get("returns") or []
    if not isinstance(outcome, list) or not all(isinstance(t, str) for t in outcome):
        raise _fail(where, "field 'outcome': expected lines of text")
    if (not isinstance(returns, list) or len(returns) > len(labels)
            or not all(isinstance(r, (int, float)) and not isinstance(r, bool) for r in returns)):
        raise _fail(where, "field 'returns': expected a number per seat")
    viewers = []
    budget = [MAX_COPIES]
    for k, v in enumerate(_list(doc, "viewers", where, MAX_VIEWERS, 1)):
        at = f"{where}: viewers[{k}]"
        if not isinstance(v, dict):
            raise _fail(at, f"expected an object, got {_short(v)}")
        seat = _seat(v.get("seat"), len(labels), at, "seat")
        steps: list[RecordStep] = []
        entries = 0  # log entries so far
        for i, s in enumerate(_list(v, "steps", at, MAX_EVENTS + 1, 1)):
            here = f"{at}.steps[{i}]"
            if not isinstance(s, dict) or s.get("step") != i:
                raise _fail(here, f"field 'step': expected {i}")
            view = s.get("view") if i == 0 else apply_changes(steps[-1].view, s.get("changes"), here, budget)
            if not isinstance(view, dict):
                raise _fail(here, f"field 'view': expected an object, got {_short(view)}")
            log = tuple(_log_line(line, entries + j, len(labels), f"{here}.log[{j}]")
                        for j, line in enumerate(_list(s, "log", here, MAX_LINES)))
            entries += len(log)
            steps.append(RecordStep(i, log, view))
        viewers.append(RecordViewer(seat, _text(v, "label", at, 40), tuple(steps)))
    terminal = doc.get("terminal")
    whole = doc.get("whole")
    if not isinstance(terminal, bool) or not isinstance(whole, bool):
        raise _fail(where, "fields 'terminal' and 'whole': expected true or false")
    return GameRecord(_text(doc, "game", where, 40), _text(doc, "title", where, 200, optional=True),
                      _text(doc, "room", where, 40, optional=True), options, tuple(labels), tuple(names), terminal,
                      whole, tuple(viewers), seed, tuple(outcome), tuple(float(r) for r in returns))


def record_lines(record: GameRecord, label: str | None = None) -> list[str]:
    """The record as text, turn by turn (``furball replay``): a head (game, seats, how it
    ended), then each viewer's steps (``label``: that viewer's only) with the actions
    and log lines that arrived at each."""
    seats = ", ".join(f"{label}: {name}" if name else label for label, name in zip(record.labels, record.names))
    out = [f"furball game record: {record.game} {record.title!r} (room {record.room or '?'}); seats {seats}"]
    if record.terminal:
        out.append(f"game over (seed {record.seed}): {'; '.join(record.outcome) or 'no outcome given'}")
    else:
        out.append("a game still going on when the record was made")
    chosen = record.viewers if label is None else (record.viewer(label),)
    for v in chosen:
        out += ["", f"== as {v.label} saw it: {len(v.steps)} steps =="]
        for s in v.steps:
            out.append(f"-- step {s.step}" + (" (the set-up)" if s.step == 0 else ""))
            for line in s.log:
                actor = "set-up" if line.seat is None else record.labels[line.seat]
                if line.action is not None:
                    out.append(f"{actor}: {line.action}")
                out += [f"  {t}" if t else "" for t in line.lines]
    return out
