"""Each game's observations as JSON, for the rooms (:mod:`..rooms`) and their pages.

One module per game, each with ``view(observation, seat) -> {"public": {...},
"private": {...} | None}``. It reads **only the observation** the engine gives that seat
(``State.observation(seat)``: the engine decides what a seat may see, once), and puts
in ``public`` nothing that depends on the seat: a spectator receives the ``public`` half
of seat 0's view, and a test checks that ``public`` is the same for every seat and that
nothing in a seat's view changes when another seat's hidden values do
(tests/test_rooms_secrecy.py). Shapes: docs/rooms.md.

Each module also says what a room makes of its game (the registry of games,
:mod:`scenarios.engine.registry`, names the module): ``ROOM_OPTIONS``, the options a room
may set (never one naming a file); ``PAGE``, the module of ``static/js/rooms/games/``
that draws its page (without one: the engine's text); and where needed ``ROOM_READINGS``
(``(name, RoomOption)`` pairs: an option read the room's way), ``ROOM_OWN`` (the room's
own options, e.g. a real-time clock) and ``prepare(options, room_options)`` (the engine's
options from both). A module whose words a reader reads in its own language says
``VIEW_LANG = True``: its ``view`` (or ``public`` and ``private``) then take the reader's
language as the keyword ``lang`` (:class:`furball.i18n.Lang`) and write every word in
it; the room makes and keeps each view per language (docs/i18n.md). The values
(ids, numbers, names) are the same in every language.

A card game's page is drawn from its view alone, with one page for every game
(``static/js/rooms/games/board.js``):

* ``public.board``: the table's drawing description (:class:`viz.sketch.Sketch`, made
  by the same function as ``furball play GAME --plot``), each game object a shape id;
* ``panels`` (in ``public`` and, for the seat's own things, ``private``): reference and
  status panels (:func:`panel`), whose items may be game objects too (``card:12``);
* ``choices(observation, seat)``: for the seat to act, per legal action (in the
  engine's order) the ``targets`` a player clicks to choose it (shape or item ids, in
  order; none: a button), so the actions sit on the pieces they concern;
* ``refusal(observation, targets)``: the engine action a click on pieces no legal action
  concerns would mean, so the server can answer with the engine's own one-line reason.
"""
from __future__ import annotations

import dataclasses
import enum
from typing import Any

__all__ = ["plain", "panel", "item"]


def plain(value: Any) -> Any:
    """``value`` as JSON data: dataclasses as objects of their fields, enums as their
    values, tuples, lists and sets as lists, numbers, strings, booleans and ``None`` as
    themselves (numpy scalars as Python numbers). Raises ``TypeError`` for anything else
    (a view never sends an object it did not mean to)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(plain(v) for v in value)
    if hasattr(value, "item") and callable(value.item):  # a numpy scalar
        return plain(value.item())
    raise TypeError(f"plain: cannot send a {type(value).__name__}")


def item(id: str, text: str, tip: str = "", **more: Any) -> dict:
    """One thing in a panel: its ``id`` (a game object a legal action may concern, or
    ``""``), the ``text`` shown, a ``tip``, and ``more`` (``back``: a card's back, hidden;
    ``colour``; ``kind``)."""
    out = {"id": id, "text": text}
    if tip:
        out["tip"] = tip
    out.update(more)
    return out


def panel(id: str, title: str, lines=(), items=(), table: dict | None = None, open: bool = True,
          rule: str = "") -> dict:
    """A panel of a card game's page: ``title``, text ``lines``, ``items`` (:func:`item`),
    a ``table`` (``{"head": [...], "rows": [[...], ...]}``), whether it starts ``open``
    (a phone folds the others away) and the ``rule`` it refers to."""
    out: dict[str, Any] = {"id": id, "title": title, "lines": list(lines), "items": list(items), "open": open}
    if table is not None:
        out["table"] = table
    if rule:
        out["rule"] = rule
    return out
