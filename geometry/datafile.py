"""Reading TOML data files with one-line, located error messages.

Every loader in furball (bases, decks, scenarios, boards) reads its file through
:func:`load_toml` and walks it with :class:`Table`, so a mistake is reported as

    decks/A.toml: card 'A3': field 'radius_mm': expected a positive number, got -5

and raised as :class:`geometry.errors.InputError`. No game knowledge lives here.
"""
from __future__ import annotations

import math
import pathlib
import tomllib
from collections.abc import Iterable
from typing import Any

from furball.errors import InputError
from furball.i18n import Message, MessageText, msg

__all__ = ["load_toml", "Table", "PROVENANCES", "is_file"]

PROVENANCES = ("official", "measured", "reconstruction")
"""Allowed values of every data file's ``provenance`` field."""

MAX_LENGTH_MM = 1.0e6
"""Largest length or coordinate accepted from a file (1 km): anything bigger is a typo,
and would overflow the geometry."""


def is_file(path: str | pathlib.Path) -> bool:
    """Whether ``path`` names an existing regular file (``False`` for a name the system
    cannot even look up, e.g. one too long)."""
    try:
        return pathlib.Path(path).is_file()
    except OSError:
        return False


def load_toml(path: str | pathlib.Path) -> dict:
    """Parse a TOML file. Raises :class:`InputError` naming the file when it is missing,
    unreadable, not UTF-8 or not valid TOML."""
    p = pathlib.Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(msg("{file}: no such file", file=str(p))) from None
    except IsADirectoryError:
        raise InputError(msg("{file}: is a directory, expected a TOML file", file=str(p))) from None
    except UnicodeDecodeError:
        raise InputError(msg("{file}: not UTF-8 text, expected a TOML file", file=str(p))) from None
    except OSError as exc:
        raise InputError(msg("{file}: cannot be read ({problem})", file=str(p)[:80], problem=str(exc.strerror))) from None
    return parse_toml(text, str(p))


def parse_toml(text: str, source: str) -> dict:
    """Parse TOML text; ``source`` names it in error messages."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(msg("{file}: not valid TOML: {problem}", file=source, problem=str(exc))) from None
    except (ValueError, RecursionError) as exc:  # e.g. embedded NUL, absurd nesting
        raise InputError(msg("{file}: not valid TOML: {problem}", file=source, problem=str(exc))) from None


def _finite(value: int | float) -> bool:
    """Whether ``value`` is a finite number a float holds (a whole number past 1e308 is not)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class Table:
    """A TOML table with its location, for typed and checked field access.

    ``where`` is the message prefix, e.g. ``"decks/A.toml: card 'A3'"``. Every getter
    raises :class:`InputError` whose one line names ``where``, the field and the
    expectation.
    """

    def __init__(self, data: Any, where: str):
        if not isinstance(data, dict):
            raise InputError(msg("{where}: expected a table, got {value}", where=where, value=_describe(data)))
        self.data = data
        self.where = where

    def error(self, key: str | None, expected: str | Message, got: Any = ...) -> InputError:
        """The one-line error of field ``key``: ``expected`` (a message, or English text
        read through the catalog where it has an entry) and the value ``got``."""
        field = msg(": field '{key}'", key=key) if key is not None else ""
        tail = "" if got is ... else msg(", got {value}", value=_describe(got))
        if isinstance(expected, str) and "{" not in expected and "}" not in expected:
            expected = Message(expected)  # read through the catalog (itself where it has no entry)
        return InputError(msg("{where}{field}: expected {expected}{got}", where=self.where, field=field,
                              expected=expected, got=tail))

    def __contains__(self, key: str) -> bool:
        return key in self.data

    def keys(self) -> Iterable[str]:
        return self.data.keys()

    def only(self, allowed: Iterable[str]) -> Table:
        """Reject fields not in ``allowed`` (catches typos such as ``raduis_mm``)."""
        allowed = list(allowed)
        for key in self.data:
            if key not in allowed:
                raise InputError(msg("{where}: unknown field '{key}' (expected one of: {fields})", where=self.where,
                                     key=key, fields=", ".join(allowed)))
        return self

    def _get(self, key: str, required: bool, default: Any):
        if key in self.data:
            return self.data[key]
        if required:
            raise self.error(key, msg("a value (the field is missing)"))
        return default

    def number(self, key: str, default: Any = ..., *, minimum: float | None = None,
               positive: bool = False, maximum: float | None = None) -> float:
        """A finite int or float field (booleans rejected), with optional bounds."""
        value = self._get(key, default is ..., default)
        if value is default and default is not ...:
            return value
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not _finite(value):
            raise self.error(key, msg("a finite number"), value)
        if positive and not value > 0:
            raise self.error(key, msg("a positive number"), value)
        if minimum is not None and value < minimum:
            raise self.error(key, msg("a number >= {minimum}", minimum=format(minimum, "g")), value)
        if maximum is not None and value > maximum:
            raise self.error(key, msg("a number <= {maximum}", maximum=format(maximum, "g")), value)
        return float(value)

    def length(self, key: str, default: Any = ..., *, positive: bool = False) -> float:
        """A length or coordinate in mm: finite, at most ``MAX_LENGTH_MM`` in size."""
        value = self.number(key, default, positive=positive)
        if value is default and default is not ...:
            return value
        if abs(value) > MAX_LENGTH_MM:
            raise self.error(key, msg("a length of at most {most} mm in size", most=format(MAX_LENGTH_MM, "g")), value)
        return value

    def integer(self, key: str, default: Any = ..., *, minimum: int | None = None,
                maximum: int | None = None) -> int:
        """An integer field (booleans and floats rejected), with optional bounds."""
        value = self._get(key, default is ..., default)
        if value is default and default is not ...:
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(key, msg("an integer"), value)
        if minimum is not None and value < minimum:
            raise self.error(key, msg("an integer >= {minimum}", minimum=minimum), value)
        if maximum is not None and value > maximum:
            raise self.error(key, msg("an integer <= {maximum}", maximum=maximum), value)
        return value

    def string(self, key: str, default: Any = ..., *, choices: Iterable[str] | None = None,
               nonempty: bool = True) -> str:
        """A string field, optionally one of ``choices``."""
        value = self._get(key, default is ..., default)
        if value is default and default is not ...:
            return value
        if not isinstance(value, str) or (nonempty and not value.strip()):
            raise self.error(key, msg("a non-empty string") if nonempty else msg("a string"), value)
        if choices is not None:
            choices = list(choices)
            if value not in choices:
                raise self.error(key, msg("one of {choices}", choices=", ".join(repr(c) for c in choices)), value)
        return value

    def boolean(self, key: str, default: Any = ...) -> bool:
        value = self._get(key, default is ..., default)
        if value is default and default is not ...:
            return value
        if not isinstance(value, bool):
            raise self.error(key, msg("true or false"), value)
        return value

    def strings(self, key: str, default: Any = ...) -> tuple[str, ...]:
        """A list of non-empty strings."""
        value = self._get(key, default is ..., default)
        if value is default and default is not ...:
            return value
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise self.error(key, msg("a list of non-empty strings"), value)
        return tuple(value)

    def table(self, key: str, default: Any = ...) -> Table:
        """A sub-table, returned as a :class:`Table` located at ``where.key``."""
        value = self._get(key, default is ..., default)
        if value is default and default is not ...:
            return value
        if not isinstance(value, dict):
            raise self.error(key, msg("a table"), value)
        if isinstance(self.where, MessageText):  # a located place read in each language ("plane 'X'")
            return Table(value, MessageText(msg("{where}: {key}", where=self.where.message, key=key)))
        return Table(value, f"{self.where}: {key}" if self.where else key)

    def list(self, key: str, default: Any = ...) -> list:
        """A list (array) field of any items."""
        value = self._get(key, default is ..., default)
        if value is default and default is not ...:
            return value
        if not isinstance(value, list):
            raise self.error(key, msg("a list"), value)
        return value

    def provenance(self, key: str = "provenance") -> str:
        """The ``provenance`` field: one of official, measured, reconstruction."""
        return self.string(key, choices=PROVENANCES)
