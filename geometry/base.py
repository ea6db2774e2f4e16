"""Rectangular bases: outline, marks, stand, and the overlap predicate.

A base is a rectangle ``length_mm`` long along its heading and ``width_mm`` wide. Its
pose is the rectangle's centre and heading. In the base frame (x forward, y left):

* the **front mark** sits on the middle of the front edge, ``(length/2, 0)``;
* the **rear mark** (the base's black arrow) on the middle of the rear edge,
  ``(-length/2, 0)``;
* the **stand** (peg) at the centre ``(0, 0)``

unless the data file says otherwise (``front_mark_mm``, ``rear_mark_mm``: positions
along the axis; ``stand_x_mm``, ``stand_y_mm``). Marks stay on the axis because the
card's arrow is laid along it (DF.M2, DF.M3).

Overlap (DF.O*, engine convention): two bases overlap when they share positive area,
decided by the separating-axis theorem with the single tolerance of
:mod:`geometry.tolerance`: the interpenetration depth along each of the four edge
normals must exceed ``TOLERANCE_MM``. Touching edges or corners is not overlap.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import IntEnum
from typing import cast

import numpy as np
import shapely

from .pose import Pose, as_pose_array, cos_sin_deg, to_table_batch
from .tolerance import TOLERANCE_MM

__all__ = [
    "Base",
    "rectangle_corners",
    "penetration_depth_mm",
    "rectangles_overlap",
    "Edge",
]


class Edge(IntEnum):
    """The edges of a base. Corners run counter-clockwise from the front-right one
    (front-right, front-left, rear-left, rear-right) and edge k joins corner k to corner
    k+1. ``NONE`` means "through no edge's interior" (a corner, or no crossing); the
    array kernels return these integers."""

    NONE = -1
    FRONT = 0
    LEFT = 1
    REAR = 2
    RIGHT = 3

    @property
    def words(self) -> str:
        return "corner" if self is Edge.NONE else f"{self.name.lower()} edge"

_CORNER_SIGNS = np.array([[1.0, -1.0], [1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0]])


def rectangle_corners(poses, length_mm, width_mm) -> np.ndarray:
    """Corners of rectangles centred on ``poses``.

    ``poses``: ``(N, 3)``; ``length_mm``, ``width_mm``: scalars or ``(N,)``.
    Returns ``(N, 4, 2)`` in table millimetres, counter-clockwise from the front-right
    corner, so edge ``k`` (corner k to k+1) is front, left, rear, right for k = 0..3.
    """
    poses = np.atleast_2d(as_pose_array(poses))
    half = np.stack(
        np.broadcast_arrays(np.asarray(length_mm, float) / 2, np.asarray(width_mm, float) / 2),
        axis=-1,
    )
    local = _CORNER_SIGNS[None, :, :] * np.broadcast_to(half, (poses.shape[0], 2))[:, None, :]
    return to_table_batch(poses, local)


def penetration_depth_mm(pose_a, length_a, width_a, pose_b, length_b, width_b) -> np.ndarray:
    """Separating-axis interpenetration depth of pairs of rectangles, in millimetres.

    Row ``i`` compares rectangle ``(pose_a[i], length_a[i], width_a[i])`` with
    ``(pose_b[i], ...)``; poses are ``(N, 3)``, sizes scalars or ``(N,)``. Returns
    ``(N,)``: the smallest overlap of the two shadows over the four edge normals.
    Positive: the rectangles share area (the value is how far they must separate, at
    least); zero: they touch; negative: they are apart (by at least ``-value``).
    The value depends only on the relative placement, so it is invariant under any
    rigid motion of both rectangles.
    """
    pa = np.atleast_2d(as_pose_array(pose_a))
    pb = np.atleast_2d(as_pose_array(pose_b))
    ca, sa = cos_sin_deg(pa[:, 2])
    cb, sb = cos_sin_deg(pb[:, 2])
    # unit axes of each rectangle: (N, 2, 2) [forward, left]
    axes_a = np.stack([np.stack([ca, sa], -1), np.stack([-sa, ca], -1)], axis=1)
    axes_b = np.stack([np.stack([cb, sb], -1), np.stack([-sb, cb], -1)], axis=1)
    half_a = np.stack(np.broadcast_arrays(np.asarray(length_a, float) / 2, np.asarray(width_a, float) / 2), -1)
    half_b = np.stack(np.broadcast_arrays(np.asarray(length_b, float) / 2, np.asarray(width_b, float) / 2), -1)
    half_a = np.broadcast_to(half_a, (pa.shape[0], 2)) if half_a.ndim == 1 else half_a
    half_b = np.broadcast_to(half_b, (pb.shape[0], 2)) if half_b.ndim == 1 else half_b
    n = max(pa.shape[0], pb.shape[0])
    axes_a = np.broadcast_to(axes_a, (n, 2, 2))
    axes_b = np.broadcast_to(axes_b, (n, 2, 2))
    half_a = np.broadcast_to(half_a, (n, 2))
    half_b = np.broadcast_to(half_b, (n, 2))
    delta = np.broadcast_to(pb[:, :2] - pa[:, :2], (n, 2))
    axes = np.concatenate([axes_a, axes_b], axis=1)  # (n, 4, 2)
    # shadow radius of each rectangle on each axis
    ra = np.abs(np.einsum("nkd,njd->nkj", axes, axes_a)) @ half_a[:, :, None]
    rb = np.abs(np.einsum("nkd,njd->nkj", axes, axes_b)) @ half_b[:, :, None]
    dist = np.abs(np.einsum("nkd,nd->nk", axes, delta))
    return np.min(ra[..., 0] + rb[..., 0] - dist, axis=1)


def rectangles_overlap(pose_a, length_a, width_a, pose_b, length_b, width_b) -> np.ndarray:
    """Boolean ``(N,)``: the rectangles share positive area (depth > ``TOLERANCE_MM``)."""
    return penetration_depth_mm(pose_a, length_a, width_a, pose_b, length_b, width_b) > TOLERANCE_MM


def _positive(name: str, value: float) -> float:
    value = float(value)
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"Base.{name} must be a positive number of millimetres, got {value!r}")
    return value


@dataclass(frozen=True)
class Base:
    """A rectangular plane base.

    ``length_mm`` (along the heading) and ``width_mm`` are positive millimetres.
    ``front_mark_mm`` / ``rear_mark_mm``: positions of the front and rear marks along
    the base axis (default ``+length/2`` and ``-length/2``: the middles of the front and
    rear edges). ``stand_x_mm`` / ``stand_y_mm``: the stand (peg) in the base frame
    (default the centre). ``name`` and ``provenance`` are labels from the data file.
    ``firing_arcs``: sectors ``(centre_deg, half_width_deg)`` seen from the stand,
    relative to the heading, or ``None`` to let the game's rules supply a default.
    ``source``: the file it came from, if any (not part of its value).
    Raises ``ValueError`` for non-positive sizes or marks outside the base.
    """

    length_mm: float
    width_mm: float
    name: str = ""
    front_mark_mm: float | None = None
    rear_mark_mm: float | None = None
    stand_x_mm: float = 0.0
    stand_y_mm: float = 0.0
    provenance: str = "reconstruction"
    firing_arcs: tuple[tuple[float, float], ...] | None = None
    source: str = field(default="", compare=False)

    def __post_init__(self):
        length = _positive("length_mm", self.length_mm)
        width = _positive("width_mm", self.width_mm)
        object.__setattr__(self, "length_mm", length)
        object.__setattr__(self, "width_mm", width)
        front = length / 2 if self.front_mark_mm is None else float(self.front_mark_mm)
        rear = -length / 2 if self.rear_mark_mm is None else float(self.rear_mark_mm)
        object.__setattr__(self, "front_mark_mm", front)
        object.__setattr__(self, "rear_mark_mm", rear)
        half = length / 2 + TOLERANCE_MM
        if not (-half <= rear < front <= half):
            raise ValueError(
                f"Base marks must satisfy -length/2 <= rear_mark_mm < front_mark_mm <= length/2, "
                f"got rear {rear!r}, front {front!r} for length {length!r}"
            )
        sx, sy = float(self.stand_x_mm), float(self.stand_y_mm)
        if abs(sx) > length / 2 or abs(sy) > width / 2:
            raise ValueError(f"Base stand ({sx!r}, {sy!r}) mm lies outside the base")
        object.__setattr__(self, "stand_x_mm", sx)
        object.__setattr__(self, "stand_y_mm", sy)
        if self.firing_arcs is not None:
            arcs = tuple((float(c), float(w)) for c, w in self.firing_arcs)
            if not all(0.0 < w <= 180.0 for _, w in arcs):
                raise ValueError(f"Base firing arc half widths must be in (0, 180] degrees, got {arcs!r}")
            object.__setattr__(self, "firing_arcs", arcs)

    # frames of the marks and the stand, in the base frame --------------------------------
    @property
    def _front_mm(self) -> float:
        """``front_mark_mm`` (a number once built: ``None`` is replaced in ``__post_init__``)."""
        return cast(float, self.front_mark_mm)

    @property
    def _rear_mm(self) -> float:
        """``rear_mark_mm`` (a number once built)."""
        return cast(float, self.rear_mark_mm)

    @property
    def front_mark(self) -> Pose:
        """The front mark as a pose in the base frame: ``Tx(front_mark_mm)`` (DF.M2)."""
        return Pose(self._front_mm, 0.0, 0.0)

    @property
    def rear_mark(self) -> Pose:
        """The rear mark as a pose in the base frame: ``Tx(rear_mark_mm)`` (DF.M3)."""
        return Pose(self._rear_mm, 0.0, 0.0)

    @property
    def stand(self) -> Pose:
        """The stand (peg) as a pose in the base frame."""
        return Pose(self.stand_x_mm, self.stand_y_mm, 0.0)

    @property
    def mark_separation_mm(self) -> float:
        """Distance from the rear mark to the front mark (the length, by default)."""
        return self._front_mm - self._rear_mm

    # geometry on the table --------------------------------------------------------------
    def corners(self, pose: Pose) -> np.ndarray:
        """``(4, 2)`` table-frame corners, counter-clockwise from front-right."""
        return rectangle_corners(pose.as_array(), self.length_mm, self.width_mm)[0]

    def polygon(self, pose: Pose) -> shapely.Polygon:
        """The base outline at ``pose`` as a shapely polygon (table millimetres)."""
        return shapely.Polygon(self.corners(pose))

    def stand_point(self, pose: Pose) -> np.ndarray:
        """The stand's table position ``(2,)`` for a base at ``pose``."""
        return pose.apply([self.stand_x_mm, self.stand_y_mm])

    def overlaps(self, pose: Pose, other: Base, other_pose: Pose) -> bool:
        """Do this base at ``pose`` and ``other`` at ``other_pose`` share positive area?"""
        return bool(
            rectangles_overlap(
                pose.as_array(), self.length_mm, self.width_mm,
                other_pose.as_array(), other.length_mm, other.width_mm,
            )[0]
        )
