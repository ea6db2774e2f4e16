"""Ruling margins: how close each call was, and how likely it is to flip (issue 27).

Every ruling the referee makes on a table — a tail kept or lost (DF.T1, DF.T5-DF.T7), two
bases overlapping or not (DF.O1), a firing position and its range band or its absence
(DF.O2, DF.O3, DF.D3), a stand on the table or off it (DF.E1) — is a conjunction of
geometric conditions. Each condition gets a **signed margin** in the field's unit: positive
when the condition holds, by that much; negative when it fails, by that much; so a ruling
holds exactly when every one of its margins is positive (zero is the tie, decided as the
rule's own tie says). Each is measured against the very threshold the referee uses (the
tolerance of :mod:`geometry.tolerance` included) and only from the bases' relative
placement, so it keeps its value under any rigid motion of the whole table. How each is
measured (points, edges) is in docs/margins.md.

Margins (kind, unit):

* ``reach`` (mm, DF.T1a): ruler length + tolerance - the distance between the stands;
* ``front edge`` / ``rear edge`` (mm, DF.T1b, DF.T1c): where the ruler leaves the chaser's
  base (enters the target's): on the front (rear) edge, its distance from the nearer end
  of the part of that edge that counts (the edge less the tolerance at each corner);
  elsewhere, minus the distance along the base's outline to it;
* ``clear ruler`` / ``line of fire`` (mm, DF.T1d, DF.O3): the clearance between the
  segment and the nearest other base (shrunk by the tolerance, as
  :func:`geometry.segments.enters_interior`): the gap when it passes by, minus the depth
  it reaches inside when it crosses one;
* ``overlap`` (mm, DF.O1): interpenetration depth - tolerance when the bases share area,
  else minus the gap between them (minus the tolerance); ``apart`` (DF.T5, DF.O2) is its
  negative;
* ``arc`` (degrees, DF.D3): how far the shooter would have to turn for the target's base
  to leave the arc (positive) or to enter it (negative), its base's angular extent seen
  from the gun against the arc's edges;
* ``range`` (mm, DF.D3): ruler length + tolerance - the distance to the closest in-arc
  point; ``band`` (mm): the slack to the short/long boundary of the band ruled;
* ``table edge`` (mm, DF.E1): the stand's signed distance to the play area's outline
  (grown by the tolerance): inside, to the nearest edge; outside, minus the distance to
  the area.

**Flip chance.** :func:`flip_chances` jitters the poses of the bases a ruling involves
with a :class:`PlacementError` (default: normal, 1 mm in x and y, 1 degree in heading,
each base independently, the base turning about its centre) and re-decides the ruling
with the batch kernels of :mod:`geometry.kernels` (the referee's answers) on enough
samples for a 95 % Wilson interval narrower than +-1 %.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

import numpy as np

from furball.errors import InputError
from furball.geometry import kernels as gk
from furball.geometry.base import penetration_depth_mm, rectangle_corners
from furball.geometry.pose import compose_batch, to_local_batch
from furball.geometry.sector import closest_in_sector_batch
from furball.geometry.segments import clip_parameters
from furball.geometry.tolerance import TOLERANCE_MM

from .batch import (
    LONG_SHOT,
    SHORT_SHOT,
    Planes,
    bases_overlap,
    fire_blockers,
    fire_fixed,
    shot_codes_rows,
    stand_points,
    tail_blockers,
    tails_rows,
)
from .firing import FiringRange, firing_positions
from .kernels import stands_on_table
from .plane import PlaneState, Rules
from .tailing import TailCheck

__all__ = ["PlacementError", "MarginKind", "RulingKind", "Outcome", "Unit", "Margin", "FlipChance", "Ruling", "tail_rulings",
           "overlap_rulings", "firing_rulings", "table_rulings", "flip_chances", "wilson", "segment_clearance",
           "crossing_margin", "overlap_margin", "arc_slack", "table_margin", "NEAR_MM", "HALF_WIDTH"]

NEAR_MM = 20.0
"""Non-rulings listed: pairs of bases (or a target's base and a gun) within this many
millimetres of the threshold that decides them; farther pairs cannot flip under any
placement error a hand makes and are not listed."""

HALF_WIDTH = 0.01
"""Half-width of the 95 % interval every flip chance is estimated to (1 %)."""

_Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95 % interval."""

MAX_PLACEMENT_ERROR = 100.0
"""The largest placement error accepted, in mm (x, y) and in degrees (heading)."""

FAR_FROM_ARC_DEG = 30.0
"""Non-shots listed: a pair with no in-arc point is listed only when its nearest arc is
within this many degrees of reaching the target's base."""

FIRST_SAMPLES = 1000
"""Jittered placements drawn first for each flip chance."""

MAX_SAMPLES = 20_000
"""The most jittered placements drawn for one flip chance."""

JSON_DECIMALS = 6
"""Decimals of the margins and chances written to JSON."""

_P_FLOOR, _P_CEILING = 0.02, 0.5
"""The proportion the sample-size estimate assumes is kept within these (a chance near 0
would ask for too few samples; p(1 - p) is largest at 0.5)."""

_SAMPLE_MARGIN, _EXTRA_SAMPLES = 1.15, 200
"""The samples a flip chance asks for: 15 % more than the estimate, and 200 more."""

_NO_ERROR = 1e-9
"""The size used for a placement error of 0 in a unit (no division by zero)."""


class MarginKind(StrEnum):
    """The condition a margin measures (module doc)."""

    REACH = "reach"
    FRONT_EDGE = "front edge"
    REAR_EDGE = "rear edge"
    CLEAR_RULER = "clear ruler"
    APART = "apart"
    OVERLAP = "overlap"
    ARC = "arc"
    RANGE = "range"
    BAND = "band"
    LINE_OF_FIRE = "line of fire"
    TABLE_EDGE = "table edge"


class RulingKind(StrEnum):
    TAIL = "tail"
    OVERLAP = "overlap"
    FIRING = "firing"
    TABLE = "table"


class Outcome(StrEnum):
    """What a ruling decided, in the words of the JSON and the text lines."""

    TAIL = "tail"
    NO_TAIL = "no tail"
    OVERLAP = "overlap"
    APART = "apart"
    SHORT = "short"
    LONG = "long"
    NO_SHOT = "no shot"
    ON_TABLE = "on table"
    OFF_TABLE = "off table"


class Unit(StrEnum):
    """A margin's unit: millimetres or degrees."""

    MM = "mm"
    DEG = "deg"


_RULES = {MarginKind.REACH: "DF.T1a", MarginKind.FRONT_EDGE: "DF.T1b", MarginKind.REAR_EDGE: "DF.T1c",
          MarginKind.CLEAR_RULER: "DF.T1d", MarginKind.OVERLAP: "DF.O1", MarginKind.ARC: "DF.D3",
          MarginKind.RANGE: "DF.D3", MarginKind.BAND: "DF.D3", MarginKind.LINE_OF_FIRE: "DF.O3",
          MarginKind.TABLE_EDGE: "DF.E1"}


@dataclass(frozen=True)
class PlacementError:
    """How far a hand misplaces a base: independent normal errors with standard
    deviations ``xy_mm`` (in x and in y, mm) and ``heading_deg`` (degrees, the base
    turning about its centre), each base on its own."""

    xy_mm: float = 1.0
    heading_deg: float = 1.0

    def __post_init__(self):
        for name in ("xy_mm", "heading_deg"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and 0 <= value <= MAX_PLACEMENT_ERROR):
                raise InputError(f"placement error {name}: expected 0 to {MAX_PLACEMENT_ERROR:g}, got {value!r:.40}")
        if self.xy_mm == 0 and self.heading_deg == 0:
            raise InputError("placement error: expected a positive error in position or heading, got none")

    @classmethod
    def parse(cls, text: str) -> PlacementError:
        """``"1mm,1deg"`` (either part may be omitted, e.g. ``"0.5mm"``). Raises InputError."""
        xy, heading = 0.0, 0.0
        parts = [t.strip().lower() for t in str(text).split(",") if t.strip()]
        if not 1 <= len(parts) <= 2:
            raise InputError(f"--placement-error {text[:40]!r}: expected e.g. 1mm,1deg")
        for part in parts:
            for unit in (Unit.MM, Unit.DEG):
                if part.endswith(unit):
                    try:
                        value = float(part[:-len(unit)])
                    except ValueError:
                        break
                    if unit == Unit.MM:
                        xy = value
                    else:
                        heading = value
                    break
            else:
                raise InputError(f"--placement-error {text[:40]!r}: expected e.g. 1mm,1deg")
        try:
            return cls(xy, heading)
        except InputError as exc:
            raise InputError(f"--placement-error {text[:40]!r}: {exc}") from None

    def scale(self, unit: Unit) -> float:
        """The error's size in ``unit``, to compare margins of both units."""
        value = self.xy_mm if unit == Unit.MM else self.heading_deg
        return value if value > 0 else _NO_ERROR

    def jitter(self, poses: np.ndarray, rng) -> np.ndarray:
        """``poses`` ``(..., 3)`` with independent errors added (a new array)."""
        poses = np.asarray(poses, float)
        noise = rng.standard_normal(poses.shape)
        return poses + noise * np.array([self.xy_mm, self.xy_mm, self.heading_deg])


@dataclass(frozen=True)
class Margin:
    """One condition of a ruling: ``kind``, ``value`` (signed, positive: it holds by that
    much), ``unit`` (:class:`Unit`), ``rule`` ID, ``about``: the other base it concerns
    (the nearest base to a ruler or line of fire)."""

    kind: MarginKind
    value: float
    unit: Unit = Unit.MM
    about: str = ""
    rule_id: str = ""

    @property
    def rule(self) -> str:
        """The rule ID of the condition (``apart``: DF.T5 for a tail, DF.O2 for a shot)."""
        return self.rule_id or _RULES.get(self.kind, "DF.T5")

    def as_json(self) -> dict:
        out = {"kind": str(self.kind), "rule": self.rule, "value": round(float(self.value), JSON_DECIMALS), "unit": str(self.unit)}
        if self.about:
            out["about"] = self.about
        return out

    def __str__(self) -> str:
        return f"{self.kind} {self.value:+.2f} {self.unit}"


@dataclass(frozen=True)
class FlipChance:
    """The share of ``samples`` jittered placements on which the ruling came out
    otherwise, and its 95 % Wilson interval ``[low, high]``."""

    chance: float
    low: float
    high: float
    samples: int

    def as_json(self) -> dict:
        return {"chance": round(self.chance, JSON_DECIMALS), "low": round(self.low, JSON_DECIMALS),
                "high": round(self.high, JSON_DECIMALS),
                "samples": self.samples}


@dataclass(frozen=True)
class Ruling:
    """One ruling: ``kind``, the ``planes`` it is about (chaser/target, shooter/target,
    the pair, or the plane), ``holds`` (the referee's answer), ``outcome``
    (:class:`Outcome`), the ``margins`` of its conditions, ``fixed``: rule IDs of conditions
    no placement changes that rule it out (altitude, sides, status), ``bases``: every
    base whose placement can change it (names), ``arc``: the firing arc measured
    (firing rulings), ``flip``: its :class:`FlipChance` once estimated."""

    kind: RulingKind
    planes: tuple[str, ...]
    holds: bool
    outcome: Outcome
    margins: tuple[Margin, ...]
    fixed: tuple[str, ...] = ()
    bases: tuple[str, ...] = ()
    arc: int | None = None
    flip: FlipChance | None = None

    def deciding(self, error: PlacementError | None = None) -> Margin | None:
        """The margin that decides: the smallest in units of the placement error (the
        condition nearest to failing when the ruling holds, the one failing worst when it
        does not); ``None`` when no geometric condition can decide (``fixed``)."""
        error = error or PlacementError()
        usable = [m for m in self.margins if math.isfinite(m.value)]
        if not usable or (self.fixed and not self.holds):
            return None
        return min(usable, key=lambda m: m.value / error.scale(m.unit))

    def close(self, threshold: float) -> bool:
        """A close call: its flip chance exceeds ``threshold`` (0..1)."""
        return self.flip is not None and self.flip.chance > threshold

    def as_json(self, error: PlacementError | None = None, threshold: float | None = None) -> dict:
        decide = self.deciding(error)
        out = {"kind": str(self.kind), "planes": list(self.planes), "holds": self.holds, "outcome": str(self.outcome),
               "margin": None if decide is None else decide.as_json(),
               "margins": [m.as_json() for m in self.margins if math.isfinite(m.value)], "fixed": list(self.fixed)}
        if self.arc is not None:
            out["arc"] = self.arc
        if self.flip is not None:
            out["flip"] = self.flip.as_json()
            if threshold is not None:
                out["close_call"] = self.close(threshold)
        return out


# -- the measures ------------------------------------------------------------------------------
def _local(points, poses):
    """Points ``(N, 2)`` in the frames of ``poses`` ``(N, 3)``."""
    return to_local_batch(np.asarray(poses, float).reshape(-1, 3), np.asarray(points, float).reshape(-1, 1, 2))[:, 0]


def _point_segment(p, a, b):
    """Distance of points ``p`` to segments ``a``-``b`` (broadcast ``(..., 2)``)."""
    d = b - a
    dd = np.einsum("...i,...i", d, d)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(dd > 0, np.einsum("...i,...i", p - a, d) / dd, 0.0)
    t = np.clip(t, 0.0, 1.0)
    c = a + t[..., None] * d
    return np.hypot(p[..., 0] - c[..., 0], p[..., 1] - c[..., 1])


def segment_clearance(a, b, poses, length_mm, width_mm) -> np.ndarray:
    """Signed clearance (mm) of segments ``a[n]``-``b[n]`` from rectangles ``n``, each
    shrunk by the tolerance (as :func:`geometry.segments.enters_interior`): the distance
    between them when the segment stays out, minus the deepest the segment gets inside
    when it enters (so it is positive exactly when ``enters_interior`` is False, zero
    aside). ``(N,)``; inputs broadcast."""
    a, b = np.asarray(a, float).reshape(-1, 2), np.asarray(b, float).reshape(-1, 2)
    poses = np.asarray(poses, float).reshape(-1, 3)
    n = max(len(a), len(b), len(poses))
    a, b, poses = np.broadcast_to(a, (n, 2)), np.broadcast_to(b, (n, 2)), np.broadcast_to(poses, (n, 3))
    hx = np.broadcast_to(np.asarray(length_mm, float), (n,)) / 2 - TOLERANCE_MM
    hy = np.broadcast_to(np.asarray(width_mm, float), (n,)) / 2 - TOLERANCE_MM
    p, q = _local(a, poses), _local(b, poses)
    d = q - p
    # deepest point inside: the depth min(hx - |x|, hy - |y|) is concave along the segment,
    # so its maximum is at an end, where x or y is 0, or where both terms are equal
    cands = [np.zeros(len(a)), np.ones(len(a))]
    with np.errstate(divide="ignore", invalid="ignore"):
        cands += [-p[:, 0] / d[:, 0], -p[:, 1] / d[:, 1]]
        for sx in (1.0, -1.0):
            for sy in (1.0, -1.0):
                cands.append((hx - hy - sx * p[:, 0] + sy * p[:, 1]) / (sx * d[:, 0] - sy * d[:, 1]))
    t = np.clip(np.nan_to_num(np.stack(cands, 1), nan=0.0, posinf=0.0, neginf=0.0), 0.0, 1.0)
    pts = p[:, None, :] + t[..., None] * d[:, None, :]
    depth = np.minimum(hx[:, None] - np.abs(pts[..., 0]), hy[:, None] - np.abs(pts[..., 1])).max(axis=1)
    # the gap when outside: an end to the rectangle, or a corner to the segment
    def to_rect(x):
        return np.hypot(np.maximum(np.abs(x[:, 0]) - hx, 0.0), np.maximum(np.abs(x[:, 1]) - hy, 0.0))
    corners = np.stack([np.stack([sx * hx, sy * hy], -1) for sx, sy in ((1, 1), (-1, 1), (-1, -1), (1, -1))], 1)
    gap = np.minimum(np.minimum(to_rect(p), to_rect(q)),
                     _point_segment(corners, p[:, None, :], q[:, None, :]).min(axis=1))
    return np.where(depth > 0, -depth, gap)


def crossing_margin(a, b, poses, length_mm, width_mm, leaving: bool) -> np.ndarray:
    """DF.T1b (``leaving``: the segment ``a``-``b`` leaves rectangle ``n``, which holds
    ``a``, through its front edge) or DF.T1c (it enters it, holding ``b``, through its
    rear edge): ``(N,)`` mm, the crossing point's distance from the nearer end of the part
    of that edge that counts (the edge less the tolerance at each corner, as
    :func:`geometry.segments.exit_edge`), negative (minus the distance along the outline
    to it) when it crosses elsewhere; NaN when the segment does not cross the outline."""
    a, b = np.broadcast_arrays(np.asarray(a, float).reshape(-1, 2), np.asarray(b, float).reshape(-1, 2))
    n = len(a)
    poses = np.broadcast_to(np.asarray(poses, float).reshape(-1, 3), (n, 3))
    hx = np.broadcast_to(np.asarray(length_mm, float), (n,)) / 2
    hy = np.broadcast_to(np.asarray(width_mm, float), (n,)) / 2
    p, q = _local(a, poses), _local(b, poses)
    t_in, t_out = clip_parameters(a, b, poses, hx, hy)
    t = t_out if leaving else t_in
    crosses = (t_in <= t_out) & (t >= 0.0) & (t <= 1.0) & ((t_in <= 0.0) if leaving else (t_out >= 1.0))
    with np.errstate(invalid="ignore", over="ignore"):
        point = p + t[:, None] * (q - p)
    x, y = (point[:, 0] if leaving else -point[:, 0]), np.abs(point[:, 1])  # the rear edge: the front turned
    front = (x >= hx - TOLERANCE_MM) & (y < hy)
    side = ~front & (y >= hy - TOLERANCE_MM)  # on a side: along it to the corner
    with np.errstate(invalid="ignore"):
        out = np.where(front, hy - TOLERANCE_MM - y,
                       np.where(side, -(hx - x + TOLERANCE_MM),
                                -(hy - y + 2 * hx + TOLERANCE_MM)))  # the opposite edge: a corner, the whole side
    return np.where(crosses, out, np.nan)


def _rect_gap(pa, la, wa, pb, lb, wb) -> np.ndarray:
    """Distance (mm) between rectangles that do not overlap: corners of each to the
    edges of the other."""
    ca, cb = rectangle_corners(pa, la, wa), rectangle_corners(pb, lb, wb)

    def side(c, other):
        e0, e1 = other, np.roll(other, -1, axis=1)
        return _point_segment(c[:, :, None, :], e0[:, None, :, :], e1[:, None, :, :]).min(axis=(1, 2))
    return np.minimum(side(ca, cb), side(cb, ca))


def overlap_margin(pose_a, length_a, width_a, pose_b, length_b, width_b) -> np.ndarray:
    """DF.O1, ``(N,)`` mm: interpenetration depth - tolerance when the bases share area
    (:func:`geometry.base.penetration_depth_mm`), minus (gap + tolerance) when they are
    apart; positive exactly when they overlap."""
    pa, pb = np.asarray(pose_a, float).reshape(-1, 3), np.asarray(pose_b, float).reshape(-1, 3)
    depth = penetration_depth_mm(pa, length_a, width_a, pb, length_b, width_b)
    out = depth - TOLERANCE_MM
    apart = depth <= 0
    if apart.any():
        n = len(depth)
        args = [np.broadcast_to(np.asarray(x, float), (n,))[apart] for x in (length_a, width_a, length_b, width_b)]
        out[apart] = -_rect_gap(np.broadcast_to(pa, (n, 3))[apart], args[0], args[1],
                                np.broadcast_to(pb, (n, 3))[apart], args[2], args[3]) - TOLERANCE_MM
    return out


def _wrap(deg):
    return (np.asarray(deg, float) + 180.0) % 360.0 - 180.0


def arc_slack(gun, centre_deg, half_width_deg, corners) -> np.ndarray:
    """DF.D3, ``(N,)`` degrees: for guns ``(N, 3)`` (poses), arcs (centre relative to the
    gun's heading, half-width) and targets' corners ``(N, 4, 2)``: how far the gun must
    turn for the target's angular extent to leave the arc (positive: it reaches into
    it) or to reach it (negative). ``inf`` for a whole-circle arc or a gun on the
    target's base."""
    gun = np.asarray(gun, float).reshape(-1, 3)
    rel = _local(np.asarray(corners, float).reshape(-1, 2), np.repeat(gun, 4, axis=0)).reshape(-1, 4, 2)
    ang = np.degrees(np.arctan2(rel[..., 1], rel[..., 0]))
    mid = np.degrees(np.arctan2(rel[..., 1].mean(1), rel[..., 0].mean(1)))
    off = _wrap(ang - mid[:, None])
    centre = np.broadcast_to(np.asarray(centre_deg, float), mid.shape)
    half = np.broadcast_to(np.asarray(half_width_deg, float), mid.shape)
    base = _wrap(mid - centre)
    lo, hi = base + off.min(1), base + off.max(1)
    out = np.minimum(hi + half, half - lo)
    # the gun on the target's base: its extent is every direction
    x, y = rel[..., 0], rel[..., 1]
    e0x, e0y = np.roll(x, -1, 1) - x, np.roll(y, -1, 1) - y
    inside = ((e0x * (-y) - e0y * (-x)) >= 0).all(1) | ((e0x * (-y) - e0y * (-x)) <= 0).all(1)
    return np.where((half >= 180.0) | inside | (off.max(1) - off.min(1) >= 180.0), np.inf, out)


def table_margin(stands, width_mm: float, height_mm: float) -> np.ndarray:
    """DF.E1, ``(N,)`` mm: the stands' signed distance to the play area grown by the
    tolerance (as ``Table.stand_on_table``): inside, to its nearest edge; outside, minus
    the distance to it."""
    st = np.asarray(stands, float).reshape(-1, 2)
    dx = np.minimum(st[:, 0] + TOLERANCE_MM, width_mm + TOLERANCE_MM - st[:, 0])
    dy = np.minimum(st[:, 1] + TOLERANCE_MM, height_mm + TOLERANCE_MM - st[:, 1])
    inside = np.minimum(dx, dy)
    outside = -np.hypot(np.minimum(dx, 0.0), np.minimum(dy, 0.0))
    return np.where((dx >= 0) & (dy >= 0), inside, outside)


# -- rulings -----------------------------------------------------------------------------------
def _clearances(board: Planes, a, b, skip, kind: MarginKind) -> tuple[list[Margin], list[list[int]]]:
    """For segments ``a[n]``-``b[n]`` (``(N, 2)`` mm): the board rows of the bases near
    each — centre within :data:`NEAR_MM` + half-diagonal of the segment, not masked by
    ``skip`` (``(N, K)`` bool) — and the clear-line margin against the nearest of them
    (``inf`` when none), all segments at once."""
    a, b = np.asarray(a, float).reshape(-1, 2), np.asarray(b, float).reshape(-1, 2)
    n = len(a)
    if not n or not len(board):
        return [Margin(kind, math.inf)] * n, [[] for _ in range(n)]
    reach = np.hypot(board.lengths, board.widths) / 2 + NEAR_MM
    near = (_point_segment(board.poses[None, :, :2], a[:, None, :], b[:, None, :]) <= reach) & ~skip
    i, k = np.nonzero(near)  # segment by segment, rows in board order
    cl = segment_clearance(a[i], b[i], board.poses[k], board.lengths[k], board.widths[k])
    rows: list[list[int]] = [[] for _ in range(n)]
    found: list[list[float]] = [[] for _ in range(n)]
    for seg, row, value in zip(i.tolist(), k.tolist(), cl.tolist()):
        rows[seg].append(row)
        found[seg].append(value)
    margins = []
    for seg in range(n):
        if not rows[seg]:
            margins.append(Margin(kind, math.inf))
            continue
        j = int(np.argmin(found[seg]))
        margins.append(Margin(kind, found[seg][j], Unit.MM, board.states[rows[seg][j]].name))
    return margins, rows


def _stand(p: PlaneState) -> np.ndarray:
    return np.asarray(p.stand, float)


def tail_rulings(checks: Sequence[TailCheck], planes: Sequence[PlaneState], rules: Rules) -> list[Ruling]:
    """The margins of tail checks (DF.T1, DF.T5-DF.T7) made on ``planes``: reach, front
    and rear edge, clear ruler (nearest other base), apart (DF.T5); altitude, sides and
    statuses are ``fixed``."""
    board = Planes.of(planes)
    by_name = {p.name: p for p in planes}
    if not checks:
        return []
    cs, ts = [by_name[c.chaser] for c in checks], [by_name[c.target] for c in checks]
    a, b = np.array([_stand(c) for c in cs]), np.array([_stand(t) for t in ts])
    cp, tp = np.array([c.pose.as_array() for c in cs]), np.array([t.pose.as_array() for t in ts])
    cl, cw = np.array([c.base.length_mm for c in cs]), np.array([c.base.width_mm for c in cs])
    tl, tw = np.array([t.base.length_mm for t in ts]), np.array([t.base.width_mm for t in ts])
    reach = rules.ruler_length_mm + TOLERANCE_MM - np.hypot(b[:, 0] - a[:, 0], b[:, 1] - a[:, 1])
    front = crossing_margin(a, b, cp, cl, cw, True)
    rear = crossing_margin(a, b, tp, tl, tw, False)
    apart = -overlap_margin(cp, cl, cw, tp, tl, tw)
    rows = [board.index[c.name] for c in cs], [board.index[t.name] for t in ts]
    clear, near = _clearances(board, a, b, tail_blockers(board, *rows), MarginKind.CLEAR_RULER)
    out = []
    for n, check in enumerate(checks):
        c, t = cs[n], ts[n]
        fixed = tuple(r.rule for r in check.reasons if r.rule not in ("DF.T1a", "DF.T1b", "DF.T1c", "DF.T1d",
                                                                      "DF.T5"))
        margins = (Margin(MarginKind.REACH, float(reach[n])), Margin(MarginKind.FRONT_EDGE, float(front[n])),
                   Margin(MarginKind.REAR_EDGE, float(rear[n])), clear[n], Margin(MarginKind.APART, float(apart[n])))
        out.append(Ruling(RulingKind.TAIL, (c.name, t.name), check.ok, Outcome.TAIL if check.ok else Outcome.NO_TAIL,
                          margins,
                          fixed, (c.name, t.name, *(board.states[k].name for k in near[n]))))
    return out


def overlap_rulings(planes: Sequence[PlaneState], board: Planes | None = None) -> list[Ruling]:
    """DF.O1 for every pair of bases on the table that overlap or are less than
    :data:`NEAR_MM` apart, in table order."""
    board = board or Planes.on_table_of(planes)
    arrays = board
    if len(board) < 2:
        return []
    reach = np.hypot(arrays.lengths, arrays.widths) / 2
    i, j = gk.near_pairs(arrays.poses[:, :2], 2 * float(reach.max()) + NEAR_MM)
    m = overlap_margin(arrays.poses[i], arrays.lengths[i], arrays.widths[i], arrays.poses[j], arrays.lengths[j],
                       arrays.widths[j])
    out = []
    for a, b, v in zip(i.tolist(), j.tolist(), m.tolist()):
        holds = bool(board.overlap[a, b])
        if holds or v > -NEAR_MM:
            names = (board.states[a].name, board.states[b].name)
            out.append(Ruling(RulingKind.OVERLAP, names, holds, Outcome.OVERLAP if holds else Outcome.APART,
                              (Margin(MarginKind.OVERLAP, float(v)),), (), names))
    return out


def table_rulings(planes: Sequence[PlaneState], width_mm: float, height_mm: float) -> list[Ruling]:
    """DF.E1 for every plane given (on the table before the check)."""
    if not planes:
        return []
    stands = Planes.of(planes).stands
    on = stands_on_table(stands, width_mm, height_mm)
    m = table_margin(stands, width_mm, height_mm)
    return [Ruling(RulingKind.TABLE, (p.name,), bool(h), Outcome.ON_TABLE if h else Outcome.OFF_TABLE,
                   (Margin(MarginKind.TABLE_EDGE, float(v)),), (), (p.name,)) for p, h, v in zip(planes, on, m)]


def firing_rulings(planes: Sequence[PlaneState], rules: Rules, board: Planes | None = None) -> list[Ruling]:
    """Every firing position on the table (DF.O2, DF.O3, DF.D3) and every absence of one
    between enemies that may fire at each other whose bases come within
    :data:`NEAR_MM` of the ruler: apart (DF.O2), arc (degrees), range, band (shots
    only) and line of fire (mm), for the arc of the best shot, or (no shot) the arc
    nearest to giving one. Shooter by shooter, target by target, in table order."""
    board = board or Planes.on_table_of(planes)
    positions = firing_positions(board, rules)
    best = {(s.shooter, s.target): s for s in positions.best}
    bp = board.states
    if not bp:
        return []
    stands = np.zeros((len(bp), 3))
    stands[:, :2] = board.stand_offsets
    fixed = fire_fixed(board, rules)
    guns = compose_batch(board.poses, stands).reshape(-1, 3)
    corners = rectangle_corners(board.poses, board.lengths, board.widths)
    half_diag = np.hypot(board.lengths, board.widths) / 2
    pairs = [(si, ti) for si in range(len(bp)) for ti in range(len(bp)) if fixed[si, ti]
             and float(np.hypot(*(board.poses[ti, :2] - guns[si, :2])))
             <= rules.ruler_length_mm + half_diag[ti] + NEAR_MM]
    if not pairs:
        return []
    # every arc of every pair as one row: closest in-arc point, arc slack, line of fire
    arcs = [bp[si].firing_arcs(rules) for si, _ in pairs]
    first = np.cumsum([0] + [len(x) for x in arcs])
    pair_rows = np.array(pairs, dtype=np.int64)  # (P, 2): shooter and target board rows
    si_pairs, ti_pairs = pair_rows.T
    si_rows, ti_rows = pair_rows[np.repeat(np.arange(len(pairs)), np.diff(first))].T
    centre = np.array([a[0] for x in arcs for a in x], float)
    half = np.array([a[1] for x in arcs for a in x], float)
    g, cn = guns[si_rows], corners[ti_rows]
    dist, aim = closest_in_sector_batch(g, centre, half, cn)
    slack = arc_slack(g, centre, half, cn)
    finite = np.isfinite(dist)
    rng_all = rules.ruler_length_mm + TOLERANCE_MM - dist
    # bases skipped by a line of fire: the two planes', and those overlapping the shooter (DF.O3)
    skip = fire_blockers(board, si_rows, ti_rows)
    idx = np.flatnonzero(finite)
    lines, near = _clearances(board, g[idx, :2], aim[idx], skip[idx], MarginKind.LINE_OF_FIRE)
    line_of = {int(r): (m, rows) for r, m, rows in zip(idx, lines, near)}
    apart_all = -overlap_margin(board.poses[si_pairs], board.lengths[si_pairs], board.widths[si_pairs],
                                board.poses[ti_pairs], board.lengths[ti_pairs], board.widths[ti_pairs])
    out = []
    for p, (si, ti) in enumerate(pairs):
        s, t = bp[si], bp[ti]
        per_arc = []
        for r in range(first[p], first[p + 1]):
            line, rows = line_of.get(r, (Margin(MarginKind.LINE_OF_FIRE, math.nan), []))
            per_arc.append((float(rng_all[r]), line, rows))
        n = len(per_arc)
        shot = best.get((s.name, t.name))
        if shot is not None:
            k = shot.arc
        else:
            finite_arcs = [k for k in range(n) if math.isfinite(per_arc[k][0])]
            k = (max(finite_arcs, key=lambda k: min(per_arc[k][0], per_arc[k][1].value)) if finite_arcs
                 else int(np.argmax(slack[first[p]:first[p + 1]])))
        rng_m, line, _ = per_arc[k]
        arc_slack_k = float(slack[first[p] + k])
        if shot is None and math.isfinite(rng_m) and rng_m < -NEAR_MM:
            continue
        if shot is None and not math.isfinite(rng_m) and arc_slack_k < -FAR_FROM_ARC_DEG:
            continue
        margins = [Margin(MarginKind.APART, float(apart_all[p]), rule_id="DF.O2"),
                   Margin(MarginKind.ARC, arc_slack_k, Unit.DEG), Margin(MarginKind.RANGE, rng_m)]
        if shot is not None:
            short = rules.short_range_mm + TOLERANCE_MM - shot.distance_mm
            margins.append(Margin(MarginKind.BAND, short if shot.range == FiringRange.SHORT else -short))
        margins.append(line)
        # the bases whose placement matters: the two, those near any arc's line of fire
        rows = sorted({r for _, _, rs in per_arc for r in rs})
        outcome = Outcome.NO_SHOT if shot is None else Outcome(str(shot.range))
        out.append(Ruling(RulingKind.FIRING, (s.name, t.name), shot is not None, outcome, tuple(margins), (),
                          (s.name, t.name, *(bp[r].name for r in rows if bp[r].name not in (s.name, t.name))),
                          k))
    return out


# -- flip chances ------------------------------------------------------------------------------
def wilson(flips: int, samples: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion ``flips / samples``."""
    if samples <= 0:
        return 0.0, 1.0
    p = flips / samples
    z2 = _Z95 * _Z95
    centre = (p + z2 / (2 * samples)) / (1 + z2 / samples)
    half = _Z95 * math.sqrt(p * (1 - p) / samples + z2 / (4 * samples * samples)) / (1 + z2 / samples)
    return max(0.0, centre - half), min(1.0, centre + half)


class _Sampler:
    """Re-decides rulings on jittered placements with the batch kernels."""

    def __init__(self, planes: Sequence[PlaneState], rules: Rules, width_mm, height_mm, error: PlacementError, rng,
                 errors: Mapping[str, PlacementError] | None = None):
        self.planes = {p.name: p for p in planes}
        self.rules, self.width, self.height, self.error, self.rng = rules, width_mm, height_mm, error, rng
        self.errors = errors or {}

    def _poses(self, names, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Jittered poses ``(len(names), count, 3)``, sizes and stand offsets of ``names``."""
        ps = [self.planes[n] for n in names]
        poses = np.array([p.pose.as_array() for p in ps]).reshape(-1, 1, 3)
        poses = np.broadcast_to(poses, (len(ps), count, 3))
        if self.errors:  # each base its own error (a table measured from a photo); the same draws
            own = [self.errors.get(n, self.error) for n in names]
            sd = np.array([[e.xy_mm, e.xy_mm, e.heading_deg] for e in own]).reshape(-1, 1, 3)
            poses = poses + self.rng.standard_normal(poses.shape) * sd
        else:
            poses = self.error.jitter(poses, self.rng)
        sizes = np.array([[p.base.length_mm, p.base.width_mm] for p in ps]).reshape(-1, 2)
        offsets = np.array([[p.base.stand_x_mm, p.base.stand_y_mm] for p in ps]).reshape(-1, 2)
        return poses, sizes[:, 0], sizes[:, 1], offsets

    def outcomes(self, ruling: Ruling, count: int) -> np.ndarray:
        """The outcome of ``ruling`` on ``count`` jittered placements: True where it comes
        out as the referee ruled."""
        poses, lengths, widths, offsets = self._poses(ruling.bases, count)
        if ruling.kind == RulingKind.TABLE:
            stands = stand_points(poses[0], offsets[0])
            return stands_on_table(stands, self.width, self.height) == ruling.holds
        if ruling.kind == RulingKind.OVERLAP:
            got = bases_overlap(poses[0], lengths[0], widths[0], poses[1], lengths[1], widths[1])
            return got == ruling.holds
        if ruling.kind == RulingKind.TAIL:
            return self._tail(ruling, poses, lengths, widths, offsets) == ruling.holds
        return self._firing(ruling, poses, lengths, widths, offsets) == ruling.outcome

    def _tail(self, ruling, poses, lengths, widths, offsets) -> np.ndarray:
        if ruling.fixed:
            return np.zeros(poses.shape[1], bool)
        walls = [(poses[k], lengths[k], widths[k]) for k in range(2, len(poses))]
        return tails_rows(poses[0], (lengths[0], widths[0]), offsets[0], poses[1], (lengths[1], widths[1]),
                          offsets[1], walls, self.rules)

    def _firing(self, ruling, poses, lengths, widths, offsets) -> np.ndarray:
        s = self.planes[ruling.bases[0]]
        count = poses.shape[1]
        # bases overlapping the shooter do not block (DF.O3): as ruled, those overlapping it now
        blocks = np.ones(count, bool)
        walls = [(poses[k], lengths[k], widths[k], blocks) for k, n in enumerate(ruling.bases[2:], start=2)
                 if not bool(bases_overlap(s.pose.as_array(), s.base.length_mm, s.base.width_mm,
                                           self.planes[n].pose.as_array(), self.planes[n].base.length_mm,
                                           self.planes[n].base.width_mm))]
        codes = shot_codes_rows(poses[0], (lengths[0], widths[0]), offsets[0], s.firing_arcs(self.rules), poses[1],
                                (lengths[1], widths[1]), walls, self.rules)
        out = np.full(count, Outcome.NO_SHOT, dtype=object)
        out[codes == LONG_SHOT] = Outcome.LONG
        out[codes == SHORT_SHOT] = Outcome.SHORT
        return out


def flip_chances(rulings: Sequence[Ruling], planes: Sequence[PlaneState], rules: Rules, width_mm: float,
                 height_mm: float, error: PlacementError | None = None, seed: int = 0,
                 half_width: float = HALF_WIDTH, max_samples: int = MAX_SAMPLES,
                 errors: Mapping[str, PlacementError] | None = None) -> list[Ruling]:
    """``rulings`` (made on ``planes``) with their :class:`FlipChance`: each re-decided by
    the batch kernels on placements jittered by ``error`` (default :class:`PlacementError`)
    until its 95 % Wilson interval is narrower than ``+-half_width`` (:data:`FIRST_SAMPLES` first,
    then as many as the estimate needs, at most ``max_samples``). ``seed``: the
    generator's (same seed, same chances). Rulings ruled out by ``fixed`` conditions
    cannot flip (0 of 0 samples). ``errors``: plane name -> its own error (a table
    measured from a photo, docs/capture.md); a plane not named there has ``error``."""
    error = error or PlacementError()
    rng = np.random.default_rng(seed)
    sampler = _Sampler(planes, rules, width_mm, height_mm, error, rng, errors)
    out = []
    for r in rulings:
        if r.fixed and not r.holds:
            out.append(replace(r, flip=FlipChance(0.0, 0.0, 0.0, 0)))
            continue
        flips, samples, want = 0, 0, FIRST_SAMPLES
        while True:
            flips += int((~sampler.outcomes(r, want)).sum())
            samples += want
            low, high = wilson(flips, samples)
            if (high - low) / 2 < half_width or samples >= max_samples:
                break
            p = min(max(flips / samples, _P_FLOOR), _P_CEILING)
            need = int(math.ceil(_SAMPLE_MARGIN * _Z95 ** 2 * p * (1 - p) / half_width ** 2)) + _EXTRA_SAMPLES
            want = min(max(need - samples, FIRST_SAMPLES), max_samples - samples)
        out.append(replace(r, flip=FlipChance(flips / samples, low, high, samples)))
    return out
