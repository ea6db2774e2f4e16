"""The state of one plane (or balloon) on the table, and the dogfight's table rules.

Values only: every rule module takes :class:`Plane` values and returns new ones.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from geometry.base import Base
from geometry.datafile import Table, load_toml
from geometry.pose import Pose

from .deck import DATA_DIR, Deck

__all__ = ["Plane", "Rules", "default_rules", "FLYING", "LANDED", "OUT", "STATUSES",
           "SINGLE", "MULTI", "PLANE", "BALLOON"]

FLYING, LANDED, OUT = "flying", "landed", "out"
STATUSES = (FLYING, LANDED, OUT)
SINGLE, MULTI = "single", "multi"
PLANE, BALLOON = "plane", "balloon"


@dataclass(frozen=True)
class Rules:
    """Table-level rule settings (defaults from ``maneuvers/data/dogfight.toml``).

    ``ruler_length_mm``: the range ruler (long range; short range is its first half);
    ``max_altitude``: the ceiling (DF.H3); ``default_arcs``: firing arcs
    ``(centre_deg, half_width_deg)`` for bases whose data gives none;
    ``fire_altitude_difference``: most levels between shooter and target (engine
    convention); ``provenance``: of these numbers.
    """

    ruler_length_mm: float
    max_altitude: int = 3
    default_arcs: tuple[tuple[float, float], ...] = ((0.0, 45.0),)
    fire_altitude_difference: int = 1
    provenance: str = "reconstruction"

    @property
    def short_range_mm(self) -> float:
        return self.ruler_length_mm / 2.0


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
    )


@dataclass(frozen=True)
class Plane:
    """One plane or balloon.

    ``name`` (unique), ``side``; ``deck`` (``None`` for a balloon); ``base``; ``pose``
    (centre, mm/deg); ``altitude`` 0..max (DF.H2); ``climb_rate``: counters per level
    (DF.H6); ``climb_counters``; ``engines``: ``"single"`` or ``"multi"`` (DF.T7);
    ``kind``: ``"plane"`` or ``"balloon"`` (DF.C5); ``bombs_at_start`` / ``bombs``:
    the load at the start of the game and now (DF.B1); ``autonomous`` (DF.A1);
    ``damage``: damage-card letters taken so far; ``status``: flying | landed | out;
    ``last_card``: id of its previous maneuver (sequencing across turns), or ``None``.
    """

    name: str
    side: str
    deck: Deck | None
    base: Base
    pose: Pose
    altitude: int
    climb_rate: int = 3
    climb_counters: int = 0
    engines: str = SINGLE
    kind: str = PLANE
    bombs_at_start: int = 0
    bombs: int = 0
    autonomous: bool = False
    damage: tuple[str, ...] = ()
    status: str = FLYING
    last_card: str | None = None

    @property
    def is_balloon(self) -> bool:
        return self.kind == BALLOON

    @property
    def on_table(self) -> bool:
        """Still in the game (not out by DF.E1)."""
        return self.status != OUT

    @property
    def flying(self) -> bool:
        return self.status == FLYING

    @property
    def stands(self) -> int:
        """DF.H2: stands under the miniature = altitude + 1."""
        return self.altitude + 1

    @property
    def stand(self):
        """The stand's table point ``(2,)`` mm."""
        return self.base.stand_point(self.pose)

    def firing_arcs(self, rules: Rules) -> tuple[tuple[float, float], ...]:
        """This plane's firing arcs: its base's data, else the rules' default."""
        return self.base.firing_arcs if self.base.firing_arcs is not None else rules.default_arcs

    def but(self, **changes) -> "Plane":
        """A copy with some fields changed."""
        return replace(self, **changes)
