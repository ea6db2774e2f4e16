"""A deck fan: where every card of a deck puts a base, flown once from one pose."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from furball.geometry.base import Base
from furball.geometry.pose import Pose

from .card import ManeuverCard
from .deck import Deck
from .path import PathSamples, arrow_points, path_poses
from .placement import place

__all__ = ["Fan", "FanEntry", "fan", "FAN_START"]

FAN_START = Pose(0.0, 0.0, 90.0)
"""Fans are flown from the origin, heading up the page."""


@dataclass(frozen=True)
class FanEntry:
    """One card of a fan: where it ends, its motion in the start frame, its sampled
    path and laid arrow."""

    card: ManeuverCard
    end: Pose
    motion: Pose
    path: PathSamples
    arrow: np.ndarray


@dataclass(frozen=True)
class Fan:
    """Every card of ``deck`` flown once from ``start`` by ``base``."""

    deck: Deck
    base: Base
    start: Pose
    entries: tuple[FanEntry, ...]

    def twin_groups(self) -> list[tuple[str, ...]]:
        """Cards grouped with their mirror twins, in deck order."""
        groups: list[tuple[str, ...]] = []
        seen: set[str] = set()
        for e in self.entries:
            if e.card.id in seen:
                continue
            group = (e.card.id,) + ((e.card.twin,) if e.card.twin and e.card.twin in self.deck else ())
            seen.update(group)
            groups.append(group)
        return groups

    def to_json(self) -> dict:
        """The ``furball fan --json`` document (motions in mm and degrees, start frame)."""
        return {"deck": self.deck.name, "provenance": self.deck.provenance, "base": self.base.name,
                "cards": [{"card": e.card.id, "name": e.card.name, "forward_mm": e.motion.x_mm,
                           "left_mm": e.motion.y_mm, "heading_change_deg": e.motion.heading_deg,
                           "twin": e.card.twin} for e in self.entries]}


def fan(deck: Deck, base: Base, start: Pose = FAN_START) -> Fan:
    """Fly every card of ``deck`` from ``start`` (DF.M2, DF.M3)."""
    entries = []
    for card in deck.cards:
        end = place(start, card, base)
        entries.append(FanEntry(card, end, start.inverse() @ end, path_poses(start, card, base),
                                arrow_points(start, card, base)))
    return Fan(deck, base, start, tuple(entries))
