"""How a dogfight game is won (DF.V1, DF.V2; engine conventions, docs/dogfight.md).

* **DF.V1 Last side flying.** The game ends as soon as at most one side has planes
  (not balloons) flying: that side wins; if none has, the game is a draw.
* **DF.V2 Turn limit.** Otherwise it ends after turn ``turn_limit``, and each side
  scores the damage its enemies' planes have taken (each counted up to its damage
  points, whatever dealt it: shots, collisions, fire) plus ``plane_points`` for each
  enemy plane lost (destroyed, DF.D5, or off the table, DF.E1). The highest score
  wins; equal best scores are a draw. Everything is read from the table, so a saved
  game scores the same when reloaded.

The numbers are a scenario's ``[victory]`` table; the defaults are in
``maneuvers/data/dogfight.toml``.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from furball.errors import InputError
from furball.geometry.datafile import Table as FileTable
from furball.geometry.datafile import load_toml
from furball.i18n import msg
from furball.maneuvers.plane import PlaneKind, PlaneState

__all__ = ["Victory", "default_victory", "sides_flying", "side_scores", "MAX_TURN_LIMIT"]

MAX_TURN_LIMIT = 1000
"""The longest game a scenario may ask for (turns)."""


@dataclass(frozen=True)
class Victory:
    """The victory conditions of a game (module docstring): ``turn_limit`` (the last
    turn played, DF.V2) and ``plane_points`` (points per enemy plane lost)."""

    turn_limit: int
    plane_points: int

    def __post_init__(self):
        for key, least, most in (("turn_limit", 1, MAX_TURN_LIMIT), ("plane_points", 0, 10**6)):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
                raise InputError(msg("victory: field '{key}': expected a whole number from {least} to {most}, "
                                     "got {value}", key=key, least=least, most=most, value=format(repr(value), ".40")))

    def as_json(self) -> dict:
        return {"turn_limit": self.turn_limit, "plane_points": self.plane_points}


@lru_cache(maxsize=1)
def default_victory() -> Victory:
    """The shipped defaults (``maneuvers/data/dogfight.toml``, ``[victory]``)."""
    source = "maneuvers/data/dogfight.toml"
    top = FileTable(load_toml(resources.files("furball.maneuvers") / "data" / "dogfight.toml"), source)
    v = top.table("victory").only(("turn_limit", "plane_points"))
    return Victory(v.integer("turn_limit", minimum=1), v.integer("plane_points", minimum=0))


def sides_flying(planes: Sequence[PlaneState]) -> tuple[str, ...]:
    """DF.V1: the sides that still have a plane (not a balloon) in the air, sorted."""
    return tuple(sorted({p.side for p in planes if p.flying and p.kind == PlaneKind.PLANE}))


def side_scores(planes: Sequence[PlaneState], sides: Sequence[str], victory: Victory) -> dict[str, int]:
    """DF.V2: each side's points (module docstring)."""
    damage = {s: 0 for s in sides}
    lost = {s: 0 for s in sides}
    for p in planes:
        if p.kind == PlaneKind.PLANE and p.side in damage:
            damage[p.side] += min(p.damage_taken, p.damage_points)
            lost[p.side] += p.lost
    all_damage, all_lost = sum(damage.values()), sum(lost.values())
    return {s: all_damage - damage[s] + victory.plane_points * (all_lost - lost[s]) for s in sides}
