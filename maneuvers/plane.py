"""The state of one plane (or balloon) on the table, and the dogfight's table rules.

Values only: every rule module takes :class:`PlaneState` values and returns new ones.
Closed vocabularies are enums (:class:`PlaneStatus`, :class:`Engines`,
:class:`PlaneKind`); their values are the words used in files and JSON.
"""
from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

from furball.errors import InputError
from furball.geometry.base import Base
from furball.geometry.datafile import Table, load_toml
from furball.geometry.pose import Pose
from furball.i18n import msg

from .bases import find_base
from .damage import ActiveEffect, Gun, damage_defaults, guns_of
from .deck import DATA_DIR, Deck, find_deck

if TYPE_CHECKING:
    import numpy as np

__all__ = ["PlaneState", "Rules", "default_rules", "PlaneStatus", "Engines", "PlaneKind", "check_name"]


class PlaneStatus(StrEnum):
    """Where a plane is: in the air, landed on its base (DF.H3), out of the game by
    leaving the table (DF.E1), or destroyed by damage (DF.D5)."""

    FLYING = "flying"
    LANDED = "landed"
    OUT = "out"
    DESTROYED = "destroyed"


class Engines(StrEnum):
    """Single-engine planes may tail; multi-engine planes may not (DF.T7)."""

    SINGLE = "single"
    MULTI = "multi"


class PlaneKind(StrEnum):
    """A plane, or a balloon (DF.C5: collisions with it cannot be avoided)."""

    PLANE = "plane"
    BALLOON = "balloon"


JOINERS = frozenset("\u200c\u200d")
"""Zero-width (non-)joiners: format characters that belong in names (emoji sequences
such as a pilot 🧑‍✈️, and scripts that join letters)."""


def _allowed(ch: str) -> bool:
    """Whether ``ch`` may appear in a name: anything but control, surrogate, private-use
    and unassigned characters and format characters — except the joiners and the tag
    characters of emoji flag sequences. Bidirectional overrides (U+202A-U+202E,
    U+2066-U+2069 ...) stay refused: they can make a name read as another."""
    category = unicodedata.category(ch)
    if not category.startswith("C"):
        return True
    return category == "Cf" and (ch in JOINERS or "\U000e0020" <= ch <= "\U000e007f")


@lru_cache(maxsize=4096)
def _printable_name(value: str) -> bool:
    """At most 80 characters, each :func:`_allowed` (names are checked at every state
    change, so each distinct name is examined once)."""
    return len(value) <= 80 and all(map(_allowed, value))


def check_name(value: str, what: str) -> str:
    """A name for a plane, side or scenario: non-empty, at most 80 characters, no
    control characters (a newline would break reports and saved files) nor
    bidirectional overrides; emoji sequences are welcome. Raises :class:`InputError`
    naming ``what``."""
    if not isinstance(value, str) or not value.strip():
        raise InputError(msg("{what}: expected a non-empty name, got {value}", what=what, value=format(repr(value), ".60")))
    if not _printable_name(value):
        raise InputError(msg("{what}: expected a name of at most 80 characters without control characters (newlines, "
                             "tabs) or direction overrides, got {value}", what=what, value=format(repr(value), ".60")))
    return value


@dataclass(frozen=True)
class Rules:
    """Table-level rule settings (defaults from ``maneuvers/data/dogfight.toml``).

    ``ruler_length_mm``: the range ruler (long range; short range is its first half);
    ``max_altitude``: the ceiling (DF.H3); ``default_arcs``: firing arcs
    ``(centre_deg, half_width_deg)`` for bases whose data gives none;
    ``fire_altitude_difference``: most levels between shooter and target (engine
    convention); ``steep_sequencing`` / ``immelmann_sequencing``: the published game's
    deck-sequencing rules, DF.M5 (on by default); ``short_range_cards`` /
    ``long_range_cards``: damage cards a shot draws at each range (DF.D3);
    ``provenance``: of these numbers.
    """

    ruler_length_mm: float
    max_altitude: int = 3
    default_arcs: tuple[tuple[float, float], ...] = ((0.0, 45.0),)
    fire_altitude_difference: int = 1
    steep_sequencing: bool = True
    immelmann_sequencing: bool = True
    provenance: str = "reconstruction"
    short_range_cards: int = 2
    long_range_cards: int = 1

    def __post_init__(self):
        if not (isinstance(self.ruler_length_mm, (int, float)) and math.isfinite(self.ruler_length_mm)
                and self.ruler_length_mm > 0):
            raise InputError(f"rules: ruler_length_mm: expected a positive number of mm, got {self.ruler_length_mm!r}")
        object.__setattr__(self, "ruler_length_mm", float(self.ruler_length_mm))

    @property
    def short_range_mm(self) -> float:
        return self.ruler_length_mm / 2.0


@lru_cache(maxsize=1)
def default_rules() -> Rules:
    """The shipped defaults (a labelled reconstruction; see the data file)."""
    source = "maneuvers/data/dogfight.toml"
    top = Table(load_toml(DATA_DIR / "dogfight.toml"), source)
    firing = top.table("firing")
    arcs = []
    for i, raw in enumerate(firing.list("default_arcs")):
        arc = Table(raw, f"{source}: firing: default_arcs[{i}]")
        arcs.append((arc.number("centre_deg"), arc.number("half_width_deg", positive=True, maximum=180.0)))
    return Rules(
        ruler_length_mm=top.table("ruler").number("length_mm", positive=True),
        max_altitude=top.table("altitude").integer("max_altitude", minimum=0),
        default_arcs=tuple(arcs),
        fire_altitude_difference=firing.integer("max_altitude_difference", minimum=0),
        provenance=top.provenance(),
        short_range_cards=damage_defaults().short_range_cards,
        long_range_cards=damage_defaults().long_range_cards,
    )


@dataclass(frozen=True)
class PlaneState:
    """One plane or balloon.

    ``name`` (unique on a table), ``side``; ``deck``: a :class:`~maneuvers.deck.Deck` or
    a shipped deck's name or a deck file (``None`` for a balloon); ``base``: a
    :class:`~geometry.base.Base`, a base spec (``"small"``, ``"44x60"``, a file), or
    ``None`` for the deck's base; ``pose``: a :class:`~geometry.pose.Pose` of the base
    centre or ``(x_mm, y_mm, heading_deg)``; ``altitude`` 0..max (DF.H2); ``climb_rate``:
    counters per level (DF.H6); ``climb_counters``; ``engines`` (DF.T7); ``kind``
    (DF.C5); ``bombs_at_start`` / ``bombs``: the load at the start of the game and now
    (DF.B1; ``bombs`` defaults to ``bombs_at_start``); ``autonomous`` (DF.A1);
    ``damage``: the damage cards taken so far (ids such as ``"B#7"``, or bare deck
    letters for cards whose value is not recorded); ``status``; ``last_card``: id of its
    previous maneuver (sequencing across turns), or ``None``; ``damage_points``: the
    damage it can take (DF.D2; ``None``: the default of its kind, from
    ``maneuvers/data/dogfight.toml``); ``damage_taken``: the damage points taken so
    far (DF.D5); ``guns``: the damage deck letter of each gun, ``{"nose": "B", "rear":
    "A"}`` or ``(Gun, letter)`` pairs (``None``: the default of its kind; a balloon has
    none; DF.D2); ``effects``: the specials in effect (:class:`ActiveEffect`, DF.D6).

    Raises :class:`InputError` for a bad name, an unknown deck, base or card, negative
    counts, more bombs than the load, or a plane flying at altitude 0 without a climb
    counter (DF.H3: that plane has landed; say ``status="landed"``).
    """

    name: str
    side: str
    # The annotations say what a built plane holds; the constructor also takes a deck's
    # or base's name (or None for the deck's base) and a pose as three numbers, which
    # __post_init__ turns into these types (see the class docstring).
    deck: Deck | None
    base: Base
    pose: Pose
    altitude: int
    climb_rate: int = 3
    climb_counters: int = 0
    engines: Engines = Engines.SINGLE
    kind: PlaneKind = PlaneKind.PLANE
    bombs_at_start: int = 0
    bombs: int = None  # type: ignore[assignment]  # None: bombs_at_start (set by __post_init__)
    autonomous: bool = False
    damage: tuple[str, ...] = ()
    status: PlaneStatus = PlaneStatus.FLYING
    last_card: str | None = None
    damage_points: int | None = None
    damage_taken: int = 0
    guns: tuple[tuple[Gun, str], ...] | Mapping[str, str] | None = None
    effects: tuple[ActiveEffect, ...] = ()

    def __post_init__(self):
        where = f"plane '{self.name}'"
        check_name(self.name, "plane: field 'name'")
        check_name(self.side, f"{where}: field 'side'")
        set_ = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        set_("kind", PlaneKind(self.kind))
        set_("engines", Engines(self.engines))
        set_("status", PlaneStatus(self.status))
        if isinstance(self.deck, str):
            set_("deck", find_deck(self.deck))
        if self.kind == PlaneKind.PLANE and self.deck is None:
            raise InputError(msg("{where}: field 'deck': expected a deck (only balloons have none)", where=where))
        if self.base is None:
            if self.deck is None or self.deck.base is None:
                raise InputError(msg("{where}: field 'base': expected a base (the deck names none)", where=where))
            set_("base", find_base(self.deck.base))
        elif isinstance(self.base, str):
            set_("base", find_base(self.base))
        if not isinstance(self.pose, Pose):
            try:
                set_("pose", Pose(*self.pose))
            except (TypeError, ValueError):
                raise InputError(msg("{where}: field 'pose': expected (x_mm, y_mm, heading_deg) as three finite numbers, "
                                     "got {value}", where=where, value=format(repr(self.pose), ".60"))) from None
        if not self.pose.single:
            raise InputError(f"{where}: field 'pose': expected one pose, got a batch")
        if self.bombs is None:
            set_("bombs", self.bombs_at_start)
        defaults = damage_defaults()
        if self.damage_points is None:
            set_("damage_points", defaults.balloon_points if self.kind == PlaneKind.BALLOON else defaults.plane_points)
        if self.guns is None:
            set_("guns", () if self.kind == PlaneKind.BALLOON else defaults.guns)
        elif not (isinstance(self.guns, tuple) and all(isinstance(g, Gun) for g, _ in self.guns)):
            set_("guns", guns_of(self.guns, where))
        set_("effects", tuple(self.effects))
        if not all(isinstance(e, ActiveEffect) for e in self.effects):
            raise InputError(f"{where}: field 'effects': expected ActiveEffect values, got {self.effects!r:.60}")
        for key in ("altitude", "climb_rate", "climb_counters", "bombs_at_start", "bombs", "damage_points",
                    "damage_taken"):
            value = getattr(self, key)
            least = 1 if key in ("climb_rate", "damage_points") else 0
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise InputError(msg("{where}: field '{key}': expected a whole number >= {least}, got {value}", where=where,
                                     key=key, least=least, value=format(repr(value), ".40")))
        if self.bombs > self.bombs_at_start:
            raise InputError(msg("{where}: field 'bombs': expected at most bombs_at_start = {most}, got {bombs}",
                                 where=where, most=self.bombs_at_start, bombs=self.bombs))
        set_("damage", tuple(self.damage))
        if self.last_card is not None and (self.deck is None or self.last_card not in self.deck):
            raise InputError(msg("{where}: field 'last_card': expected a card of deck '{deck}', got {value}", where=where,
                                 deck=str(getattr(self.deck, "name", None)), value=format(repr(self.last_card), ".40")))
        if self.autonomous and (self.deck is None or self.deck.autonomous is None):
            raise InputError(msg("{where}: field 'autonomous': expected a deck with an 8-card autonomous list (DF.A1); "
                                 "deck '{deck}' has none", where=where, deck=str(getattr(self.deck, "name", None))))
        if (self.status == PlaneStatus.FLYING and self.kind == PlaneKind.PLANE and self.altitude == 0
                and self.climb_counters == 0):
            raise InputError(msg("{where}: field 'climb_counters': expected at least 1 for a plane flying at altitude 0 "
                                 "(DF.H3), or status \"landed\", got 0", where=where))
        if self.status == PlaneStatus.LANDED and self.altitude != 0:
            raise InputError(msg("{where}: field 'altitude': expected 0 for a landed plane (DF.H3), got {altitude}",
                                 where=where, altitude=self.altitude))

    @property
    def is_balloon(self) -> bool:
        return self.kind == PlaneKind.BALLOON

    @property
    def on_table(self) -> bool:
        """Still on the table (flying or landed; not out by DF.E1 nor destroyed, DF.D5)."""
        return self.status == PlaneStatus.FLYING or self.status == PlaneStatus.LANDED

    @property
    def lost(self) -> bool:
        """Out of the game: off the table (DF.E1) or destroyed (DF.D5)."""
        return not self.on_table

    @property
    def gun_letters(self) -> dict[Gun, str]:
        """The damage deck letter of each gun it has (DF.D2)."""
        return dict(self.guns)  # type: ignore[arg-type]  # pairs once __post_init__ has run

    def gun_letter(self, arc: int, rules: Rules) -> str | None:
        """The damage deck letter of the gun firing through arc ``arc`` of its base
        (:meth:`firing_arcs`): the nose gun for an arc centred within 90 degrees of the
        heading, else the rear gun; ``None`` when it has no such gun (DF.D2)."""
        centre = self.firing_arcs(rules)[arc][0]
        gun = Gun.NOSE if abs((centre + 180.0) % 360.0 - 180.0) <= 90.0 else Gun.REAR
        return self.gun_letters.get(gun)

    @property
    def guns_silent(self) -> bool:
        """Its guns are jammed by a special in effect (DF.D6)."""
        return any(e.silences_guns and e.maneuvers_left > 0 and not e.fresh for e in self.effects)

    @property
    def flying(self) -> bool:
        return self.status == PlaneStatus.FLYING

    @property
    def landed(self) -> bool:
        return self.status == PlaneStatus.LANDED

    @property
    def stands(self) -> int:
        """DF.H2: stands under the miniature = altitude + 1."""
        return self.altitude + 1

    @cached_property
    def _stand_point(self) -> np.ndarray:
        return self.base.stand_point(self.pose)

    @property
    def stand(self) -> np.ndarray:
        """The stand's table point ``(2,)`` mm (computed once per value; a copy each time)."""
        return self._stand_point.copy()

    def firing_arcs(self, rules: Rules) -> tuple[tuple[float, float], ...]:
        """This plane's firing arcs: its base's data, else the rules' default."""
        return self.base.firing_arcs if self.base.firing_arcs is not None else rules.default_arcs

    def replace(self, **changes) -> PlaneState:
        """A copy with some fields changed (checked again)."""
        return replace(self, **changes)
