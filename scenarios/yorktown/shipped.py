"""The shipped data files of 1942 USS Yorktown (``scenarios/yorktown/data/*.toml``)."""
from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from typing import TypeVar

from furball.geometry.datafile import parse_toml

__all__ = ["DATA", "shipped"]

DATA = resources.files("furball.scenarios.yorktown") / "data"
T = TypeVar("T")


def shipped(name: str, parse: Callable[[dict, str], T]) -> T:
    """Read the shipped file ``data/NAME`` with ``parse(data, source)`` (errors name it as
    ``scenarios/yorktown/data/NAME``)."""
    source = f"scenarios/yorktown/data/{name}"
    return parse(parse_toml((DATA / name).read_text(encoding="utf-8"), source), source)
