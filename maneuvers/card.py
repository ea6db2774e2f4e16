"""Maneuver cards: an arrow from a start to a tip, as data.

A card's arrow is either a chain of path segments (:class:`Straight`, :class:`Arc`)
or just its tip pose (``end``), both expressed in the **arrow-start frame**
(x forward along the arrow's start, y left, headings counter-clockwise). An
Immelmann-type card may add ``final_turn_deg``, a turn on the spot applied at the tip.

Every effect of a card on the pose is data (DF.M4): the engine never special-cases a
card by its name or flags. Flags (``straight``, ``stall``, ``left``, ``right``,
``steep``, ``immelmann``, ``climb``, ``descent``, ``complex``...) only feed the rules
that read them (sequencing, altitude, autonomous decks).

``anchor`` says which point of the base the arrow moves:

* ``"marks"`` (default, DF.M2/DF.M3): the front mark goes on the arrow start, the rear
  mark on the tip, facing the tip;
* ``"stand"``: start and tip are both taken at the stand, so a card whose tip is its
  start leaves the plane where it is ("the plane does not advance along an arrow",
  DF.M4 stall; DF.H6 climb).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

import numpy as np

from furball.geometry.pose import Pose, cos_sin_deg

__all__ = ["Straight", "Arc", "Segment", "ManeuverCard", "chain_end", "Anchor"]


class Anchor(StrEnum):
    """Which point of the base a card's arrow moves (module docstring)."""

    MARKS = "marks"
    STAND = "stand"


@dataclass(frozen=True)
class Straight:
    """A straight stretch of ``length_mm`` (> 0) along the current heading."""

    length_mm: float

    @property
    def end(self) -> Pose:
        return Pose(self.length_mm, 0.0, 0.0)

    def mirrored(self) -> Straight:
        return self


@dataclass(frozen=True)
class Arc:
    """A constant-radius arc: ``radius_mm`` > 0, ``angle_deg`` != 0, positive = left (CCW).

    End in its own start frame: ``(r sin|a|, sign(a) r (1 - cos a), a)``.
    """

    radius_mm: float
    angle_deg: float

    @property
    def length_mm(self) -> float:
        return self.radius_mm * abs(np.deg2rad(self.angle_deg))

    @property
    def end(self) -> Pose:
        c, s = cos_sin_deg(self.angle_deg)
        sign = 1.0 if self.angle_deg > 0 else -1.0
        return Pose(self.radius_mm * abs(float(s)), sign * self.radius_mm * (1.0 - float(c)), self.angle_deg)

    def mirrored(self) -> Arc:
        return Arc(self.radius_mm, -self.angle_deg)


Segment = Straight | Arc


def chain_end(segments) -> Pose:
    """The tip of a chain of segments, in the frame of the chain's start."""
    end = Pose.identity()
    for seg in segments:
        end = end @ seg.end
    return end


@dataclass(frozen=True)
class ManeuverCard:
    """One maneuver card.

    ``id``: unique within its deck; ``name``: a label. ``arrow_end``: the arrow tip in
    the arrow-start frame (mm, deg). ``path``: the segments the arrow is made of, or
    ``None`` when the card was given by its end only. ``final_turn_deg``: a turn on the
    spot at the tip (Immelmann: 180). ``flags``: free labels read by the rules.
    ``anchor``: an :class:`Anchor` (module docstring). ``twin``: id of the
    mirror-image card (left/right), or ``None``.
    """

    id: str
    name: str
    arrow_end: Pose
    path: tuple[Segment, ...] | None = None
    final_turn_deg: float = 0.0
    flags: frozenset[str] = field(default_factory=frozenset)
    anchor: Anchor = Anchor.MARKS
    twin: str | None = None

    def __post_init__(self):
        try:
            object.__setattr__(self, "anchor", Anchor(self.anchor))
        except ValueError:
            raise ValueError(f"card {self.id!r}: anchor must be one of {[a.value for a in Anchor]}, "
                             f"got {self.anchor!r}") from None
        object.__setattr__(self, "flags", frozenset(self.flags))
        if self.path is not None:
            object.__setattr__(self, "path", tuple(self.path))

    @classmethod
    def from_path(cls, id: str, name: str, path, **kwargs) -> ManeuverCard:
        """A card whose arrow is the chain of ``path`` segments."""
        path = tuple(path)
        return cls(id=id, name=name, arrow_end=chain_end(path), path=path, **kwargs)

    @classmethod
    def from_end(cls, id: str, name: str, end: Pose, **kwargs) -> ManeuverCard:
        """A card known only by its arrow tip ``end`` (e.g. measured on a real card)."""
        return cls(id=id, name=name, arrow_end=end, path=None, **kwargs)

    @property
    def transform(self) -> Pose:
        """The card as an SE(2) element: arrow tip then the final turn, ``(dx, dy, dθ)``."""
        if self.final_turn_deg == 0.0:
            return self.arrow_end
        return self.arrow_end @ Pose.rotation(self.final_turn_deg)

    @property
    def path_length_mm(self) -> float | None:
        """Length of the arrow along its segments, or ``None`` for end-only cards."""
        if self.path is None:
            return None
        return float(sum(s.length_mm for s in self.path))

    def has(self, flag: str) -> bool:
        return flag in self.flags

    def mirrored(self, id: str | None = None, name: str | None = None) -> ManeuverCard:
        """The mirror-image card (left <-> right): reflect the arrow in its start axis."""
        swap = {"left": "right", "right": "left"}
        return replace(
            self,
            id=self.id if id is None else id,
            name=self.name if name is None else name,
            arrow_end=self.arrow_end.mirrored(),
            path=None if self.path is None else tuple(s.mirrored() for s in self.path),
            final_turn_deg=-self.final_turn_deg,
            flags=frozenset(swap.get(f, f) for f in self.flags),
            twin=self.id,
        )
