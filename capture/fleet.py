"""Fleet files: which plane wears which base sticker.

```toml
provenance = "measured"     # optional, as every data file
[[plane]]
sticker = 1                 # the number printed on the sticker (furball print markers)
name = "Camel"
side = "Allies"
deck = "A"                  # a shipped deck or a deck file (relative to this file)
altitude = 2                # optional, default 1
```

A sticker not named here is read as plane ``P<number>`` (its own side, the shipped
deck of its base kind). Every mistake is one line naming the file, the plane and the
field.
"""
from __future__ import annotations

import pathlib
from dataclasses import dataclass

from furball.errors import InputError
from furball.geometry.datafile import Table as FileTable
from furball.geometry.datafile import load_toml
from furball.i18n import N_

from .markers import marker_layout

__all__ = ["FleetPlane", "load_fleet", "parse_fleet", "default_plane"]

FIELDS = ("sticker", "name", "side", "deck", "altitude")
DEFAULT_DECKS = {"small": "A", "large": "M"}
"""The shipped deck a sticker's plane flies without a fleet file, by base kind."""


@dataclass(frozen=True)
class FleetPlane:
    """A plane of the fleet: ``sticker`` number, ``name``, ``side``, ``deck`` (a shipped
    name or an absolute deck file path), ``altitude``; ``kind`` the sticker's base kind."""

    sticker: int
    name: str
    side: str
    deck: str
    altitude: int
    kind: str


def default_plane(sticker: int) -> FleetPlane:
    """The plane of a sticker no fleet names: ``P<n>``, its own side (to be set by the
    user: every plane an enemy of every other), the shipped deck of its base kind."""
    kind = marker_layout().sticker_of_number(sticker).kind
    return FleetPlane(sticker, f"P{sticker}", f"P{sticker}", DEFAULT_DECKS.get(kind, "A"), 1, kind)


def parse_fleet(data: dict, source: str, folder: pathlib.Path | None = None) -> tuple[FleetPlane, ...]:
    """The fleet from parsed TOML. Raises InputError (an unknown deck, sticker or a
    name used twice)."""
    from furball.maneuvers.deck import find_deck

    folder = folder or pathlib.Path(".")
    top = FileTable(data, source).only(("provenance", "notes", "plane"))
    if "provenance" in top:
        top.provenance()
    planes, names, stickers = [], set(), set()
    raw = top.list("plane")
    if not raw:
        raise top.error("plane", N_("at least one [[plane]] with sticker, name, side and deck"), raw)
    for i, entry in enumerate(raw):
        t = FileTable(entry, f"{source}: plane #{i + 1}")
        name = t.string("name")
        t = FileTable(entry, f"{source}: plane {name!r:.60}").only(FIELDS)
        if name in names:
            raise t.error("name", N_("a name no other plane has"), name)
        sticker = t.integer("sticker", minimum=1, maximum=1000)
        if sticker in stickers:
            raise t.error("sticker", N_("a sticker no other plane wears"), sticker)
        try:
            kind = marker_layout().sticker_of_number(sticker).kind
        except InputError as exc:
            raise InputError(f"{t.where}: field 'sticker': {exc}") from None
        ref = t.string("deck")
        looks_like_file = ref.endswith(".toml") or "/" in ref
        resolved = str((folder / ref).resolve()) if looks_like_file and not pathlib.Path(ref).is_absolute() else ref
        try:
            deck = find_deck(resolved)
        except InputError as exc:
            raise InputError(f"{t.where}: field 'deck': {exc}") from None
        if deck.base and deck.base != kind:
            raise t.error("deck", f"a deck flown on a {kind} base (sticker {sticker} is a {kind} sticker)",
                          f"deck '{deck.name}' of a {deck.base} base")
        names.add(name)
        stickers.add(sticker)
        planes.append(FleetPlane(sticker, name, t.string("side"), resolved, t.integer("altitude", 1, minimum=0,
                                                                                      maximum=1000), kind))
    return tuple(planes)


def load_fleet(path) -> tuple[FleetPlane, ...]:
    """A fleet file. Raises InputError naming the file, the plane and the field."""
    p = pathlib.Path(path)
    return parse_fleet(load_toml(p), str(p), p.parent)
