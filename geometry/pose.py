"""Poses and SE(2) transforms of the table plane: one type, single or batch.

A pose ``(x_mm, y_mm, heading_deg)`` is both a place on the table and the rigid motion
that carries the origin frame onto it, so poses compose like SE(2) elements:
``a @ b`` is "``b`` expressed in ``a``'s frame", the pose reached by first going to
``a`` and then moving by ``b`` in ``a``'s own axes (x forward, y left).

:class:`Pose` holds ONE pose or a BATCH of them, like ``scipy.spatial.transform.Rotation``:
``Pose(x, y, h)`` is a single pose, ``Pose.from_array(a)`` takes ``(3,)`` (single) or
``(N, 3)`` (batch); ``single`` says which; ``len``, indexing, iteration, ``@``
composition (broadcasting a single pose against a batch), ``inverse()``,
``mirrored()``, ``apply(points)`` and ``isclose`` work the same for both. There is one
implementation of the maths: the loop-free array kernels below (:func:`compose_batch`
and friends, on arrays of shape ``(N, 3)`` or ``(3,)``), which :class:`Pose` calls and
which compiled or vectorised code may call directly. Convert to other forms (JSON,
TOML, tuples) only at the boundaries (:meth:`Pose.as_json`, :meth:`Pose.from_json`).

Conventions (docs/conventions.md): millimetres; headings in degrees, counter-clockwise
positive, 0 deg = +x, normalised to [0, 360); radians appear only inside the kernels.
The trigonometry reduces headings to the nearest multiple of 90 deg first, so quarter
turns are exact (``cos 90 = 0`` exactly) and other angles lose no accuracy to large
arguments.
"""
from __future__ import annotations

from collections.abc import Iterator

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


# -- the array kernels: the one implementation --------------------------------------
def _mod_360(h: np.ndarray) -> np.ndarray:
    """``np.mod(h, 360.0)`` to the bit (numpy's rule: C ``fmod``, plus 360 when negative,
    +0.0 for a zero), about twice as fast on large arrays."""
    r = np.fmod(h, 360.0)
    return np.where(r < 0.0, r + 360.0, r) + 0.0


def cos_sin_deg(heading_deg):
    """Cosine and sine of angles given in degrees, exact at multiples of 90 deg.

    ``heading_deg``: array-like of any shape. Returns two float arrays of that shape.
    """
    h = np.asarray(heading_deg, dtype=float)
    r = _mod_360(h)
    quarter = np.rint(r / 90.0)
    rest_rad = np.deg2rad(r - 90.0 * quarter)  # in [-45, 45] degrees
    c0, s0 = np.cos(rest_rad), np.sin(rest_rad)
    if h.ndim == 0:  # one angle: pick the quadrant directly (np.choose costs more than the maths)
        q = int(quarter) % 4
        return ((c0, s0), (-s0, c0), (-c0, -s0), (s0, -c0))[q]
    # quadrant q = quarter mod 4: (cos, sin) = (c0, s0), (-s0, c0), (-c0, -s0), (s0, -c0); the swap and the
    # signs as whole-array steps (np.choose costs three times more; x * -1.0 is exactly -x)
    odd = (quarter == 1.0) | (quarter == 3.0)
    cos = np.where(odd, s0, c0) * np.where((quarter == 1.0) | (quarter == 2.0), -1.0, 1.0)
    sin = np.where(odd, c0, s0) * np.where((quarter == 2.0) | (quarter == 3.0), -1.0, 1.0)
    return cos, sin


def normalize_heading_deg(heading_deg):
    """Map headings (degrees, any shape) into [0, 360); ``-0.0`` becomes ``0.0``."""
    r = _mod_360(np.asarray(heading_deg, dtype=float))
    return np.where(r >= 360.0, 0.0, r)


def heading_difference_deg(a_deg, b_deg):
    """Signed smallest rotation from ``b`` to ``a`` in degrees, in [-180, 180)."""
    d = np.mod(np.asarray(a_deg, dtype=float) - np.asarray(b_deg, dtype=float) + 180.0, 360.0)
    return d - 180.0


def as_pose_array(poses) -> np.ndarray:
    """Validate and return ``poses`` as a float array of shape ``(N, 3)`` or ``(3,)``.

    Accepts a :class:`Pose` too. Raises ``ValueError`` when the last axis is not of length 3.
    """
    if isinstance(poses, Pose):
        return poses._data
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


# -- the type ------------------------------------------------------------------------
class Pose:
    """One pose on the table (an SE(2) transform), or a batch of them.

    ``Pose(x_mm, y_mm, heading_deg)`` builds a single pose: millimetres in the table
    frame (x right, y up), heading in degrees counter-clockwise from +x, normalised to
    [0, 360). :meth:`from_array` builds a single pose from ``(3,)`` or a batch from
    ``(N, 3)``. Values are immutable. ``x_mm``, ``y_mm``, ``heading_deg`` are floats for a
    single pose and read-only ``(N,)`` arrays for a batch. Raises ``ValueError`` for
    non-finite numbers or a wrong shape.
    """

    __slots__ = ("_data",)

    def __init__(self, x_mm: float = 0.0, y_mm: float = 0.0, heading_deg: float = 0.0):
        self._data = _checked(np.array([x_mm, y_mm, heading_deg], dtype=float))

    # constructors -------------------------------------------------------------------
    @classmethod
    def _wrap(cls, data: np.ndarray) -> Pose:
        """A pose around an array the kernels made (finite, normalised): no checks."""
        out = object.__new__(cls)
        data.setflags(write=False)
        out._data = data
        return out

    @classmethod
    def from_array(cls, array) -> Pose:
        """From ``(3,)`` (a single pose) or ``(N, 3)`` (a batch): ``x_mm, y_mm, heading_deg``.

        The array is copied; headings are normalised. Raises ``ValueError`` for another
        shape or non-finite values.
        """
        data = np.array(array, dtype=float)
        if data.ndim not in (1, 2) or data.shape[-1:] != (3,):
            raise ValueError(f"poses must have shape (3,) or (N, 3), got {data.shape}")
        return cls._wrap(_checked(data))

    @classmethod
    def identity(cls, n: int | None = None) -> Pose:
        """The identity (a single pose, or a batch of ``n``)."""
        return cls._wrap(np.zeros(3) if n is None else np.zeros((int(n), 3)))

    @classmethod
    def forward(cls, distance_mm: float) -> Pose:
        """``Tx(d)``: a move of ``distance_mm`` along the current heading."""
        return cls(distance_mm, 0.0, 0.0)

    @classmethod
    def rotation(cls, angle_deg: float) -> Pose:
        """A turn on the spot by ``angle_deg`` (counter-clockwise positive)."""
        return cls(0.0, 0.0, angle_deg)

    @classmethod
    def concatenate(cls, poses) -> Pose:
        """One batch from several poses or batches, in order."""
        return cls._wrap(np.vstack([np.atleast_2d(p._data) for p in poses]).reshape(-1, 3))

    @classmethod
    def from_json(cls, data: dict) -> Pose:
        """From ``{"x": mm, "y": mm, "heading": deg}`` (the JSON boundary)."""
        return cls(data["x"], data["y"], data["heading"])

    # what it holds --------------------------------------------------------------------
    @property
    def single(self) -> bool:
        """Whether this is one pose rather than a batch."""
        return self._data.ndim == 1

    @property
    def x_mm(self):
        return float(self._data[0]) if self.single else self._data[:, 0]

    @property
    def y_mm(self):
        return float(self._data[1]) if self.single else self._data[:, 1]

    @property
    def heading_deg(self):
        return float(self._data[2]) if self.single else self._data[:, 2]

    def as_array(self) -> np.ndarray:
        """A copy: ``(3,)`` for a single pose, ``(N, 3)`` for a batch (mm, mm, deg)."""
        return self._data.copy()

    def as_json(self):
        """``{"x": mm, "y": mm, "heading": deg}`` (a list of those for a batch)."""
        if self.single:
            return {"x": self.x_mm, "y": self.y_mm, "heading": self.heading_deg}
        return [p.as_json() for p in self]

    def __len__(self) -> int:
        if self.single:
            raise TypeError("a single pose has no len(); check .single")
        return self._data.shape[0]

    def __getitem__(self, index) -> Pose:
        if self.single:
            raise TypeError("a single pose cannot be indexed; check .single")
        return Pose._wrap(self._data[index].copy())

    def __iter__(self) -> Iterator[Pose]:
        if self.single:
            raise TypeError("a single pose cannot be iterated; check .single")
        return (Pose._wrap(row.copy()) for row in self._data)

    # algebra ------------------------------------------------------------------------------
    def __matmul__(self, other: Pose) -> Pose:
        """``self @ other``: ``other`` given in this pose's frame, returned in the table's
        (row by row for batches; a single pose broadcasts against a batch)."""
        if not isinstance(other, Pose):
            return NotImplemented
        return Pose._wrap(compose_batch(self._data, other._data))

    def compose(self, other: Pose) -> Pose:
        """``self @ other``."""
        return self @ other

    def inverse(self) -> Pose:
        """The SE(2) inverse: ``p @ p.inverse()`` is the identity."""
        return Pose._wrap(inverse_batch(self._data))

    def mirrored(self) -> Pose:
        """Reflection in the x axis, ``(x, -y, -heading)``: left becomes right."""
        return Pose._wrap(mirror_batch(self._data))

    def apply(self, points) -> np.ndarray:
        """Map points from this pose's frame to the table frame.

        Single pose: ``points`` ``(2,)`` or ``(K, 2)`` mm, returns the same shape.
        Batch of N: ``(K, 2)`` (the same points for each) or ``(N, K, 2)``, returns
        ``(N, K, 2)``.
        """
        pts = np.asarray(points, dtype=float)
        if self.single:
            return to_table_batch(self._data, pts.reshape(-1, 2)).reshape(pts.shape)
        return to_table_batch(self._data, pts)

    def isclose(self, other: Pose, tol_mm: float | None = None):
        """Same pose within ``tol_mm`` (default: the geometric tolerance) in position,
        and within the angle whose arc on a 1 m radius is ``tol_mm`` in heading.
        A bool for single poses, a boolean array for batches."""
        from .tolerance import TOLERANCE_MM

        tol = TOLERANCE_MM if tol_mm is None else tol_mm
        a, b = np.broadcast_arrays(self._data, other._data)
        dh = np.abs(heading_difference_deg(a[..., 2], b[..., 2]))
        ok = (np.hypot(a[..., 0] - b[..., 0], a[..., 1] - b[..., 1]) <= tol) & (np.deg2rad(dh) * 1000.0 <= tol)
        return bool(ok) if ok.ndim == 0 else ok

    # value semantics ---------------------------------------------------------------------
    def __eq__(self, other) -> bool:
        if not isinstance(other, Pose):
            return NotImplemented
        return self._data.shape == other._data.shape and bool(np.array_equal(self._data, other._data))

    def __hash__(self) -> int:
        return hash((self._data.shape, self._data.tobytes()))

    def __reduce__(self):
        return (Pose.from_array, (self._data,))

    def __repr__(self) -> str:
        if self.single:
            return f"Pose({self.x_mm!r}, {self.y_mm!r}, {self.heading_deg!r})"
        return f"Pose.from_array({self._data.tolist()!r})"

    def __str__(self) -> str:
        if self.single:
            return f"({self.x_mm:.2f} mm, {self.y_mm:.2f} mm, {self.heading_deg:.2f} deg)"
        return f"{len(self)} poses"


def _checked(data: np.ndarray) -> np.ndarray:
    """Finite values, headings normalised; read-only."""
    if not np.all(np.isfinite(data)):
        raise ValueError(f"pose values must be finite, got {data.tolist()!r}")
    data[..., 2] = normalize_heading_deg(data[..., 2])
    data.setflags(write=False)
    return data
