"""Zones around one plane: where an enemy could be tailed, where it could be shot.

**Tail zone** (DF.T1, DF.T5): the set of table points where an enemy's *stand* could be
so that this plane tails it, for an enemy flying a given heading on a given base:

* (a) within the ruler's length of this plane's stand;
* (b) inside the cone from this stand through the open front edge, outside this base;
* (c) such that the ruler, seen from the enemy, arrives through its rear edge: the
  point lies in the cone from this stand opposite to the enemy's rear cone;
* (d) not in the "shadow" of another base on the table (points whose ruler would get
  more than the tolerance inside it, a landed plane's base included), and DF.T5: not
  where the enemy's base would overlap this one.

Each condition is an exact polygon (shapely), so the zone is their intersection minus
the exclusions; circles are drawn with 256 sides (at most 0.02 mm inside the true
circle for a 200 mm ruler). The zone ignores altitude and engines (DF.T6, DF.T7),
which the report states separately.

**Firing bands**: for each firing arc, the sector from the gun point (the stand)
within half the ruler (short range) and within the ruler (long range), less the
shadows of the bases of friends and landed planes that would block the line of fire
(DF.O3: not those overlapping this plane's base). A shot goes to the closest point of
the target's base inside the arc (the aim point): the target is shot at short or long
range exactly when its aim point lies in that band.

**Close-call bands** (docs/margins.md, issue 27): the enemy stands where the tail ruling
(:func:`tail_close_band`) or the firing ruling — no shot, long, short —
(:func:`shot_close_band`) flips under a :class:`~maneuvers.margins.PlacementError` with a
chance above a threshold, each grid point re-decided by the batch kernels.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import MultiPoint, Point, Polygon

from furball.geometry.base import Base, rectangle_corners
from furball.geometry.pose import Pose
from furball.geometry.tolerance import TOLERANCE_MM

from .batch import LONG_SHOT, NO_SHOT, SHORT_SHOT, Planes, bases_overlap, shot_codes_rows, tail_fixed, tails_rows
from .firing import Shot, shot_at
from .margins import PlacementError
from .plane import PlaneState, Rules
from .tailing import TailCheck, tail_check, tail_checks

__all__ = ["Zones", "zones", "tail_zone", "firing_bands", "tail_close_band", "shot_close_band", "NO_SHOT",
           "LONG_SHOT", "SHORT_SHOT"]

_CIRCLE_SEGMENTS = 64  # per quarter circle


def _cone(apex, angle_from: float, angle_to: float, radius: float, steps: int = 48) -> Polygon:
    """Polygon covering the disk sector of ``radius`` around ``apex`` between two
    directions (radians, counter-clockwise from ``angle_from``, span < 2 pi)."""
    span = (angle_to - angle_from) % (2 * math.pi)
    angles = angle_from + np.linspace(0.0, span, steps + 1)
    ring = np.column_stack([apex[0] + radius * np.cos(angles), apex[1] + radius * np.sin(angles)])
    return Polygon(np.vstack([apex, ring]))


def _direction(v) -> float:
    return math.atan2(v[1], v[0])


def _shadow(stand, corners, far: float):
    """Points whose segment from ``stand`` enters the convex outline ``corners`` (given
    already shrunk by the tolerance: a ruler blocks only when it gets more than the
    tolerance inside a base, as in :func:`~maneuvers.tailing.tail_check`)."""
    if Polygon(corners).contains(Point(stand)):
        return None  # the ruler starts more than the tolerance inside it: everything is blocked
    rays = [stand + (c - stand) * (far / max(np.hypot(*(c - stand)), 1e-9)) for c in corners]
    return MultiPoint(np.vstack([corners, rays])).convex_hull


def _base_shadow(point, other: PlaneState, far: float):
    """:func:`_shadow` from ``point`` of ``other``'s base, shrunk by the tolerance (a
    line is blocked only when it gets more than the tolerance inside a base)."""
    inner = rectangle_corners(other.pose, other.base.length_mm - 2 * TOLERANCE_MM,
                              other.base.width_mm - 2 * TOLERANCE_MM)[0]
    return _shadow(point, inner, far)


def _blockers(plane: PlaneState, planes: Sequence[PlaneState]) -> list[PlaneState]:
    """The bases that block ``plane``'s ruler and line of fire in its zones: friends and
    landed planes on the table (the enemies are the candidate targets)."""
    return [p for p in planes if (p.side == plane.side or p.landed) and p.name != plane.name and p.on_table]


def tail_zone(chaser: PlaneState, planes: Sequence[PlaneState], rules: Rules, enemy_heading_deg: float,
              enemy_base: Base):
    """The tail zone (module doc) as a shapely geometry in table mm (possibly empty)."""
    stand = np.asarray(chaser.stand, float)
    r = rules.ruler_length_mm
    far = 3.0 * r
    corners = chaser.base.corners(chaser.pose)  # FR, FL, RL, RR
    disk = Point(stand).buffer(r, quad_segs=_CIRCLE_SEGMENTS)
    front = _cone(stand, _direction(corners[0] - stand), _direction(corners[1] - stand), far)
    zone = disk.intersection(front).difference(Polygon(corners))
    # (c): the enemy's rear cone, seen from its stand, in its own frame, turned by its heading
    e = Pose(0.0, 0.0, enemy_heading_deg)
    local = enemy_base.corners(Pose()) - [enemy_base.stand_x_mm, enemy_base.stand_y_mm]
    rear_left, rear_right = e.apply(local[2]), e.apply(local[3])
    # p qualifies when (stand - p) points into that cone, i.e. p lies in the opposite cone at stand
    zone = zone.intersection(_cone(stand, _direction(-rear_left), _direction(-rear_right), far))
    # DF.T5: the enemy's base would overlap this one (Minkowski sum, boundary = touching)
    enemy_shape = e.apply(local)
    overlap = MultiPoint(np.array([c - t for c in corners for t in enemy_shape])).convex_hull
    zone = zone.difference(overlap)
    for other in planes:
        if other.name == chaser.name or not other.on_table:
            continue
        shadow = _base_shadow(stand, other, far)
        if shadow is None:
            return Polygon()
        zone = zone.difference(shadow)
    return shapely.make_valid(zone)


def _multi_engine(plane: PlaneState) -> bool:
    """DF.T7: ``plane`` can tail nobody (:func:`~maneuvers.batch.tail_fixed`)."""
    return bool(tail_fixed(Planes.of([plane]), 0, 0)["DF.T7"])


def _fire_blockers(plane: PlaneState, blockers: Sequence[PlaneState]) -> list[PlaneState]:
    """The bases among ``blockers`` that block ``plane``'s line of fire: on the table,
    not ``plane`` itself, and not overlapping its base (DF.O3)."""
    return [b for b in blockers if b.name != plane.name and b.on_table
            and not bases_overlap(plane.pose.as_array(), plane.base.length_mm, plane.base.width_mm,
                                  b.pose.as_array(), b.base.length_mm, b.base.width_mm)]


def firing_bands(plane: PlaneState, rules: Rules,
                 blockers: Sequence[PlaneState] = ()) -> list[tuple[Polygon, Polygon]]:
    """For each firing arc: ``(short, long)`` regions of table points (mm) where an aim
    point is in range — sectors from the gun point (long excludes short) less the
    shadows of ``blockers``' bases (points whose line of fire gets more than the
    tolerance inside one, as :func:`~maneuvers.batch.fire_blockers`), those
    overlapping ``plane``'s base excepted (DF.O3)."""
    gun = np.asarray(plane.stand, float)
    shadows = []
    for other in _fire_blockers(plane, blockers):
        shadow = _base_shadow(gun, other, 3.0 * rules.ruler_length_mm)
        if shadow is not None:  # (the gun is never inside a base that does not overlap this one)
            shadows.append(shadow)
    out = []
    for centre, half in plane.firing_arcs(rules):
        if half >= 180.0:
            short = Point(gun).buffer(rules.short_range_mm, quad_segs=_CIRCLE_SEGMENTS)
            full = Point(gun).buffer(rules.ruler_length_mm, quad_segs=_CIRCLE_SEGMENTS)
        else:
            a = math.radians(plane.pose.heading_deg + centre)
            w = math.radians(half)
            short = _cone(gun, a - w, a + w, rules.short_range_mm, 96)
            full = _cone(gun, a - w, a + w, rules.ruler_length_mm, 96)
        if shadows:
            blocked = shapely.union_all(shadows)
            short, full = short.difference(blocked), full.difference(blocked)
        out.append((short, full.difference(short)))
    return out


@dataclass(frozen=True)
class Zones:
    """Zones of ``plane``: the tail zone for an enemy flying ``enemy_heading_deg`` (the
    bases of friends and landed planes — ``blockers`` — block the ruler; the enemies,
    being the candidate targets, do not), firing bands per arc (the blockers' bases
    block the line of fire too, DF.O3), and every enemy's tail check and shot now (with
    every base on the table). ``in_zone``: for each enemy, whether its stand lies
    in the tail zone — the zone's question (that enemy flying the zone's heading on the
    zone's base, there), which may differ from whether it can be tailed now, flying its
    own heading. ``close_band`` / ``shot_band``: the close-call bands of the tail and
    firing rulings (:func:`tail_close_band`, :func:`shot_close_band`; shapely, mm) when
    found, ``close_call`` their threshold (0..1)."""

    plane: PlaneState
    enemy_heading_deg: float
    tail_zone: object
    bands: tuple
    enemies: tuple[tuple[PlaneState, TailCheck, Shot | None], ...]
    rules: Rules
    table_mm: tuple[float, float]
    scenario: str = ""
    turn: int | None = None
    in_zone: tuple[bool, ...] = ()
    enemy_base: Base | None = None
    close_band: object = None
    close_call: float | None = None
    shot_band: object = None
    blockers: tuple[PlaneState, ...] = ()

    @property
    def can_tail(self) -> bool:
        return not _multi_engine(self.plane) and not self.plane.autonomous and not self.plane.is_balloon


def zones(plane: PlaneState, planes: Sequence[PlaneState], rules: Rules, enemy_heading_deg: float | None = None,
          enemy_base: Base | None = None, table_mm=(0.0, 0.0), scenario: str = "",
          turn: int | None = None) -> Zones:
    """Compute :class:`Zones`; defaults: an enemy on the same base flying the same heading."""
    heading = plane.pose.heading_deg if enemy_heading_deg is None else enemy_heading_deg
    base = enemy_base or plane.base
    foes = [p for p in planes if p.side != plane.side and p.on_table]
    if any(p is plane for p in planes):  # every enemy's tail check in one pass
        checks = tail_checks([(plane.name, p.name) for p in foes], planes, rules)
    else:
        checks = [tail_check(plane, p, planes, rules) for p in foes]
    board = Planes.on_table_of(planes)
    enemies = tuple((p, c, shot_at(plane, p, planes, rules, board)) for p, c in zip(foes, checks))
    # the candidates are the enemies themselves, so their own bases do not cast shadows
    # on the zone: friends and landed planes do
    blockers = _blockers(plane, planes)
    multi = _multi_engine(plane)
    zone = tail_zone(plane, blockers, rules, heading, base) if not multi else Polygon()
    in_zone = []
    for p, _, _ in enemies:
        hypothetical = p.replace(base=base, pose=p.pose @ p.base.stand @ Pose.rotation(heading - p.pose.heading_deg)
                             @ base.stand.inverse())
        in_zone.append(tail_check(plane, hypothetical, blockers + [hypothetical], rules).ok
                       if not multi else False)
    return Zones(plane, heading, zone, tuple(firing_bands(plane, rules, blockers)), enemies, rules,
                 tuple(table_mm), scenario, turn, tuple(in_zone), enemy_base=base, blockers=tuple(blockers))


def _poses_at_stands(stands, heading_deg: float, base: Base, k: int) -> np.ndarray:
    """``(M, k, 3)``: the poses of ``base`` flying ``heading_deg`` whose stand is at each of
    ``stands`` ``(M, 2)`` (mm), each repeated ``k`` times (one per placement sample)."""
    offset = Pose(0.0, 0.0, heading_deg).apply(np.array([[base.stand_x_mm, base.stand_y_mm]]))[0]
    poses = np.zeros((len(stands), k, 3))
    poses[..., :2] = (np.asarray(stands, float) - offset)[:, None, :]
    poses[..., 2] = heading_deg
    return poses


def _tail_decisions(chaser: PlaneState, blockers: Sequence[PlaneState], rules: Rules, stands, heading_deg: float,
                    base: Base, error: PlacementError | None, samples: int, rng) -> np.ndarray:
    """``(M, samples)`` (or ``(M, 1)`` without ``error``): can ``chaser`` tail an enemy on
    ``base`` flying ``heading_deg`` whose stand is at each of ``stands`` ``(M, 2)``, with
    every base placed with ``error`` — the tail check's conditions (DF.T1, DF.T5)
    decided by :func:`~maneuvers.batch.tails_rows`, the blockers' bases blocking the ruler."""
    m = len(stands)
    k = 1 if error is None else samples
    enemy = _poses_at_stands(stands, heading_deg, base, k)
    chaser_poses = np.broadcast_to(chaser.pose.as_array(), (m, k, 3))
    others = [np.broadcast_to(p.pose.as_array(), (m, k, 3)) for p in blockers]
    if error is not None:
        enemy, chaser_poses = error.jitter(enemy, rng), error.jitter(chaser_poses, rng)
        others = [error.jitter(o, rng) for o in others]
    cb = chaser.base
    walls = [(o.reshape(-1, 3), p.base.length_mm, p.base.width_mm) for p, o in zip(blockers, others)]
    ok = tails_rows(chaser_poses.reshape(-1, 3), (cb.length_mm, cb.width_mm), (cb.stand_x_mm, cb.stand_y_mm),
                    enemy.reshape(-1, 3), (base.length_mm, base.width_mm), (base.stand_x_mm, base.stand_y_mm),
                    walls, rules)
    return ok.reshape(m, k)


def _close_band(region, decide, error: PlacementError, threshold: float, step_mm: float, samples: int,
                seed: int):
    """The squares of ``step_mm`` around the grid points inside ``region`` whose ruling
    ``decide(points, error_or_None, samples, rng)`` (codes ``(M, k)``) flips under
    ``error`` on more than ``threshold`` of ``samples`` jittered placements."""
    x0, y0, x1, y1 = region.bounds
    xs, ys = np.meshgrid(np.arange(x0, x1 + step_mm, step_mm), np.arange(y0, y1 + step_mm, step_mm))
    pts = np.c_[xs.ravel(), ys.ravel()]
    pts = pts[shapely.contains_xy(region, pts[:, 0], pts[:, 1])]
    if not len(pts):
        return Polygon()
    rng = np.random.default_rng(seed)
    close = np.zeros(len(pts), bool)
    chunk = max(1, 200_000 // samples)
    for start in range(0, len(pts), chunk):
        part = pts[start:start + chunk]
        ruled = decide(part, None, 1, rng)[:, 0]
        jittered = decide(part, error, samples, rng)
        close[start:start + chunk] = (jittered != ruled[:, None]).mean(axis=1) > threshold
    h = step_mm / 2
    boxes = shapely.box(pts[close, 0] - h, pts[close, 1] - h, pts[close, 0] + h, pts[close, 1] + h)
    return shapely.union_all(boxes) if len(boxes) else Polygon()


def _reach_mm(error: PlacementError, rules: Rules, step_mm: float) -> float:
    """How far from the exact outline a ruling can flip: four standard deviations of the
    stands' errors and of the heading error swinging the ruler's far end, and a grid step."""
    return 4.0 * (math.sqrt(2.0) * error.xy_mm + math.radians(error.heading_deg) * rules.ruler_length_mm) + step_mm


def tail_close_band(z: Zones, planes: Sequence[PlaneState], error: PlacementError | None = None,
                    threshold: float = 0.05, step_mm: float = 2.0, samples: int = 300, seed: int = 0):
    """The close-call band of the tail zone ``z`` (docs/margins.md): the enemy stands
    where the tail ruling (in the zone or not) flips under ``error`` with a chance above
    ``threshold`` — squares of ``step_mm`` around grid points near the zone's outline,
    each point decided on ``samples`` jittered placements by the batch kernels (an
    estimate to about +-3 %, enough to draw the band; a ruling's own chance in
    ``furball turn --margins`` is estimated to +-1 %). A shapely geometry (mm)."""
    error = error or PlacementError()
    zone = shapely.make_valid(z.tail_zone)
    if not z.can_tail or zone.is_empty:
        return Polygon()
    plane, rules = z.plane, z.rules
    blockers = _blockers(plane, planes)
    region = zone.boundary.buffer(_reach_mm(error, rules, step_mm))
    heading, base = z.enemy_heading_deg, z.enemy_base or plane.base

    def decide(stands, err, k, rng):
        return _tail_decisions(plane, blockers, rules, stands, heading, base, err, k, rng)

    return _close_band(region, decide, error, threshold, step_mm, samples, seed)


def _shot_decisions(shooter: PlaneState, rules: Rules, stands, heading_deg: float, base: Base,
                    error: PlacementError | None, samples: int, rng,
                    blockers: Sequence[PlaneState] = ()) -> np.ndarray:
    """``(M, samples)`` (or ``(M, 1)`` without ``error``) int8 codes: the best firing
    position of ``shooter`` on a target on ``base`` flying ``heading_deg`` whose stand is
    at each of ``stands`` ``(M, 2)``, both bases placed with ``error``: :data:`NO_SHOT`,
    :data:`LONG_SHOT` or :data:`SHORT_SHOT` — DF.O2, DF.D3 and DF.O3 decided by
    :func:`~maneuvers.batch.shot_codes_rows`: the line of fire to an arc's aim point is
    blocked by a base of ``blockers`` it gets more than the tolerance into, unless that
    base overlaps the shooter's (every base placed with ``error``)."""
    m = len(stands)
    k = 1 if error is None else samples
    target = _poses_at_stands(stands, heading_deg, base, k)
    shooter_poses = np.broadcast_to(shooter.pose.as_array(), (m, k, 3))
    others = [np.broadcast_to(p.pose.as_array(), (m, k, 3)) for p in blockers]
    if error is not None:
        target, shooter_poses = error.jitter(target, rng), error.jitter(shooter_poses, rng)
        others = [error.jitter(o, rng) for o in others]
    shooter_rows = shooter_poses.reshape(-1, 3)
    sb = shooter.base
    walls = []
    for p, o in zip(blockers, others):  # DF.O3: a base overlapping the shooter's (as placed in each sample) blocks nothing
        rows = o.reshape(-1, 3)
        apart = ~bases_overlap(shooter_rows, sb.length_mm, sb.width_mm, rows, p.base.length_mm, p.base.width_mm)
        walls.append((rows, p.base.length_mm, p.base.width_mm, apart))
    code = shot_codes_rows(shooter_rows, (sb.length_mm, sb.width_mm), (sb.stand_x_mm, sb.stand_y_mm),
                           shooter.firing_arcs(rules), target.reshape(-1, 3), (base.length_mm, base.width_mm), walls,
                           rules)
    return code.reshape(m, k)


def shot_close_band(z: Zones, error: PlacementError | None = None, threshold: float = 0.05,
                    step_mm: float = 2.0, samples: int = 300, seed: int = 0):
    """The close-call band of the firing bands of ``z`` (docs/margins.md): the target
    stands (a target on the zone's enemy base flying the zone's enemy heading, as the
    tail zone's) where the firing ruling — no shot, long or short (DF.O2, DF.D3, the
    line of fire past ``z.blockers``, DF.O3) — flips under ``error`` with a chance above
    ``threshold``; grid and samples as :func:`tail_close_band`, near the outlines of the
    arcs' bands (their shadow edges included) grown by the target base's reach from its
    stand. A shapely geometry (mm); empty for a plane that cannot fire (a balloon)."""
    error = error or PlacementError()
    plane, rules = z.plane, z.rules
    if plane.is_balloon or not z.bands:
        return Polygon()
    base = z.enemy_base or plane.base
    local = base.corners(Pose()) - [base.stand_x_mm, base.stand_y_mm]
    extent = float(np.hypot(*local.T).max())
    outlines = [shapely.make_valid(short).boundary for short, _ in z.bands]
    outlines += [shapely.make_valid(short.union(long)).boundary for short, long in z.bands]
    own = Polygon(plane.base.corners(plane.pose))
    outlines.append(own.boundary)  # DF.O2: the bases overlapping
    reach = _reach_mm(error, rules, step_mm)
    gun = np.asarray(plane.stand, float)
    for other in z.blockers:  # DF.O3: a base that may overlap this one, or not: its whole shadow may flip
        corners = other.base.corners(other.pose)
        if own.distance(Polygon(corners)) <= reach:
            shadow = _shadow(gun, corners, 3.0 * rules.ruler_length_mm)
            outlines.append(Polygon(corners) if shadow is None else shadow)
    region = shapely.union_all(outlines).buffer(reach + extent)
    heading, blockers = z.enemy_heading_deg, list(z.blockers)

    def decide(stands, err, k, rng):
        return _shot_decisions(plane, rules, stands, heading, base, err, k, rng, blockers)

    return _close_band(region, decide, error, threshold, step_mm, samples, seed)
