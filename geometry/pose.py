"""Poses and SE(2) transforms of the table plane.

A pose ``(x_mm, y_mm, heading_deg)`` is both a place on the table and the rigid motion
that carries the origin frame onto it, so poses compose like SE(2) elements:
``a @ b`` is "``b`` expressed in ``a``'s frame", the pose reached by first going to
``a`` and then moving by ``b`` in ``a``'s own axes (x forward, y left).

Conventions (docs/conventions.md): millimetres; headings in degrees, counter-clockwise
positive, 0 deg = +x, normalised to [0, 360); radians appear only inside the kernels of
this module. Batches are numpy arrays of shape ``(N, 3)`` with columns
``x_mm, y_mm, heading_deg``; every batch function is loop-free and broadcasts a single
``(3,)`` pose against an ``(N, 3)`` batch.

The trigonometry reduces headings to the nearest multiple of 90 deg first, so quarter
turns are exact (``cos 90 = 0`` exactly) and other angles lose no accuracy to large
arguments.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = [
    "Pose",
    "cos_sin_deg",
    "normalize_heading_deg",
    "heading_difference_deg",
    "compose_batch",
    "inverse_batch",
    "to_table_batch",
    "to_local_batch",
    "mirror_batch",
    "as_pose_array",
]


def cos_sin_deg(heading_deg):
    """Cosine and sine of angles given in degrees, exact at multiples of 90 deg.

    ``heading_deg``: array-like of any shape. Returns two float arrays of that shape.
    """
    h = np.asarray(heading_deg, dtype=float)
    r = np.mod(h, 360.0)
    quarter = np.rint(r / 90.0)
    rest_rad = np.deg2rad(r - 90.0 * quarter)  # in [-45, 45] degrees
    c0, s0 = np.cos(rest_rad), np.sin(rest_rad)
    q = quarter.astype(int) % 4
    cos = np.choose(q, [c0, -s0, -c0, s0])
    sin = np.choose(q, [s0, c0, -s0, -c0])
    return cos, sin


def _cos_sin_deg_scalar(heading_deg: float) -> tuple[float, float]:
    """Scalar twin of :func:`cos_sin_deg` (same reduction, so the same exact quarter turns)."""
    r = heading_deg % 360.0
    quarter = round(r / 90.0)
    rest = math.radians(r - 90.0 * quarter)
    c0, s0 = math.cos(rest), math.sin(rest)
    q = quarter % 4
    if q == 0:
        return c0, s0
    if q == 1:
        return -s0, c0
    if q == 2:
        return -c0, -s0
    return s0, -c0


def _normalize_scalar(heading_deg: float) -> float:
    r = heading_deg % 360.0 + 0.0
    return 0.0 if r >= 360.0 else r


def normalize_heading_deg(heading_deg):
    """Map headings (degrees, any shape) into [0, 360); ``-0.0`` becomes ``0.0``."""
    r = np.mod(np.asarray(heading_deg, dtype=float), 360.0) + 0.0
    return np.where(r >= 360.0, 0.0, r)


def heading_difference_deg(a_deg, b_deg):
    """Signed smallest rotation from ``b`` to ``a`` in degrees, in [-180, 180)."""
    d = np.mod(np.asarray(a_deg, dtype=float) - np.asarray(b_deg, dtype=float) + 180.0, 360.0)
    return d - 180.0


def as_pose_array(poses) -> np.ndarray:
    """Validate and return ``poses`` as a float array of shape ``(N, 3)`` or ``(3,)``.

    Raises ``ValueError`` when the last axis is not of length 3.
    """
    arr = np.asarray(poses, dtype=float)
    if arr.shape[-1:] != (3,):
        raise ValueError(f"poses must have shape (N, 3) or (3,), got {arr.shape}")
    return arr


def compose_batch(a, b) -> np.ndarray:
    """SE(2) product ``a @ b`` row by row: ``b`` given in ``a``'s frame, returned in the table's.

    ``a``, ``b``: arrays of shape ``(N, 3)`` or ``(3,)`` (broadcast). Returns ``(N, 3)``
    (or ``(3,)`` when both are single poses), headings normalised to [0, 360).
    """
    a = as_pose_array(a)
    b = as_pose_array(b)
    c, s = cos_sin_deg(a[..., 2])
    x = a[..., 0] + c * b[..., 0] - s * b[..., 1]
    y = a[..., 1] + s * b[..., 0] + c * b[..., 1]
    h = normalize_heading_deg(a[..., 2] + b[..., 2])
    return np.stack(np.broadcast_arrays(x, y, h), axis=-1)


def inverse_batch(p) -> np.ndarray:
    """SE(2) inverse of each pose: ``compose_batch(p, inverse_batch(p))`` is the identity.

    ``p``: ``(N, 3)`` or ``(3,)``. Returns the same shape.
    """
    p = as_pose_array(p)
    c, s = cos_sin_deg(p[..., 2])
    x = -(c * p[..., 0] + s * p[..., 1])
    y = s * p[..., 0] - c * p[..., 1]
    h = normalize_heading_deg(-p[..., 2])
    return np.stack([x, y, h], axis=-1)


def to_table_batch(poses, points) -> np.ndarray:
    """Points given in each pose's frame (x forward, y left), returned in the table frame.

    ``poses``: ``(N, 3)``; ``points``: ``(K, 2)`` (the same points for every pose) or
    ``(N, K, 2)``. Returns ``(N, K, 2)`` millimetres. A single pose ``(3,)`` with
    ``(K, 2)`` points returns ``(K, 2)``.
    """
    poses = as_pose_array(poses)
    pts = np.asarray(points, dtype=float)
    c, s = cos_sin_deg(poses[..., 2])
    c = c[..., None]
    s = s[..., None]
    x = poses[..., 0, None] + c * pts[..., 0] - s * pts[..., 1]
    y = poses[..., 1, None] + s * pts[..., 0] + c * pts[..., 1]
    return np.stack([x, y], axis=-1)


def to_local_batch(poses, points) -> np.ndarray:
    """Table-frame points expressed in each pose's frame; inverse of :func:`to_table_batch`.

    Shapes as in :func:`to_table_batch`.
    """
    poses = as_pose_array(poses)
    pts = np.asarray(points, dtype=float)
    c, s = cos_sin_deg(poses[..., 2])
    c = c[..., None]
    s = s[..., None]
    dx = pts[..., 0] - poses[..., 0, None]
    dy = pts[..., 1] - poses[..., 1, None]
    return np.stack([c * dx + s * dy, -s * dx + c * dy], axis=-1)


def mirror_batch(p) -> np.ndarray:
    """Reflect poses in the x axis: ``(x, y, h) -> (x, -y, -h)``.

    Conjugation by this reflection turns a left maneuver into its right twin and is an
    automorphism of SE(2): ``mirror(a @ b) == mirror(a) @ mirror(b)``.
    """
    p = as_pose_array(p)
    return np.stack([p[..., 0], -p[..., 1] + 0.0, normalize_heading_deg(-p[..., 2])], axis=-1)


@dataclass(frozen=True, slots=True)
class Pose:
    """A pose on the table, equivalently an SE(2) transform.

    Fields: ``x_mm``, ``y_mm`` (millimetres, table frame x right, y up) and
    ``heading_deg`` (degrees, counter-clockwise from +x, normalised to [0, 360) on
    construction). Raises ``ValueError`` for non-finite numbers.
    """

    x_mm: float = 0.0
    y_mm: float = 0.0
    heading_deg: float = 0.0

    def __post_init__(self):
        for name in ("x_mm", "y_mm", "heading_deg"):
            value = float(getattr(self, name))
            if not math.isfinite(value):
                raise ValueError(f"Pose.{name} must be finite, got {value!r}")
            object.__setattr__(self, name, value)
        object.__setattr__(self, "heading_deg", _normalize_scalar(self.heading_deg))

    # constructors -----------------------------------------------------------------
    @classmethod
    def identity(cls) -> "Pose":
        return cls(0.0, 0.0, 0.0)

    @classmethod
    def forward(cls, distance_mm: float) -> "Pose":
        """``Tx(d)``: a move of ``distance_mm`` along the current heading."""
        return cls(distance_mm, 0.0, 0.0)

    @classmethod
    def rotation(cls, angle_deg: float) -> "Pose":
        """A turn on the spot by ``angle_deg`` (counter-clockwise positive)."""
        return cls(0.0, 0.0, angle_deg)

    @classmethod
    def from_array(cls, row) -> "Pose":
        """From a length-3 sequence ``(x_mm, y_mm, heading_deg)``."""
        x, y, h = (float(v) for v in np.asarray(row, dtype=float).reshape(3))
        return cls(x, y, h)

    # algebra ----------------------------------------------------------------------
    def to_array(self) -> np.ndarray:
        """``np.array([x_mm, y_mm, heading_deg])``, shape ``(3,)``."""
        return np.array([self.x_mm, self.y_mm, self.heading_deg])

    def __matmul__(self, other: "Pose") -> "Pose":
        if not isinstance(other, Pose):
            return NotImplemented
        c, s = _cos_sin_deg_scalar(self.heading_deg)
        return Pose(
            self.x_mm + c * other.x_mm - s * other.y_mm,
            self.y_mm + s * other.x_mm + c * other.y_mm,
            self.heading_deg + other.heading_deg,
        )

    def compose(self, other: "Pose") -> "Pose":
        """``self @ other``: ``other`` given in this pose's frame, returned in the table's."""
        return self @ other

    def inverse(self) -> "Pose":
        """The SE(2) inverse: ``p @ p.inverse()`` is the identity."""
        c, s = _cos_sin_deg_scalar(self.heading_deg)
        return Pose(-(c * self.x_mm + s * self.y_mm), s * self.x_mm - c * self.y_mm, -self.heading_deg)

    def mirrored(self) -> "Pose":
        """Reflection in the x axis, ``(x, -y, -heading)``: left becomes right."""
        return Pose(self.x_mm, -self.y_mm + 0.0, -self.heading_deg)

    def apply(self, points) -> np.ndarray:
        """Map points from this pose's frame to the table frame.

        ``points``: ``(2,)`` or ``(K, 2)`` millimetres; returns the same shape.
        """
        pts = np.asarray(points, dtype=float)
        out = to_table_batch(self.to_array(), pts.reshape(-1, 2))
        return out.reshape(pts.shape)

    def isclose(self, other: "Pose", tol_mm: float | None = None) -> bool:
        """Same pose within ``tol_mm`` (default: the geometric tolerance) in position
        and the angle whose arc on a 1 m radius is ``tol_mm`` in heading."""
        from .tolerance import TOLERANCE_MM

        tol = TOLERANCE_MM if tol_mm is None else tol_mm
        dh = abs(float(heading_difference_deg(self.heading_deg, other.heading_deg)))
        return (
            math.hypot(self.x_mm - other.x_mm, self.y_mm - other.y_mm) <= tol
            and math.radians(dh) * 1000.0 <= tol
        )

    def __str__(self) -> str:
        return f"({self.x_mm:.2f} mm, {self.y_mm:.2f} mm, {self.heading_deg:.2f} deg)"
