"""Each game's observations as JSON, for the rooms (:mod:`..rooms`) and their pages.

One module per game, each with ``view(observation, seat) -> {"public": {...},
"private": {...} | None}``. It reads **only the observation** the engine gives that seat
(``State.observation(seat)``: the engine decides what a seat may see, once), and puts
in ``public`` nothing that depends on the seat: a spectator receives the ``public`` half
of seat 0's view, and a test checks that ``public`` is the same for every seat and that
nothing in a seat's view changes when another seat's hidden values do
(tests/test_rooms_secrecy.py). Shapes: docs/rooms.md.
"""
from __future__ import annotations

import dataclasses
import enum
from typing import Any

__all__ = ["plain"]


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
