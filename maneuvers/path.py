"""Intermediate poses of a maneuver: the base sliding along the card's arrow.

Model (issue #2, item 5; DF.M2/DF.M3 in motion): the arrow's centreline is extended
straight backwards from its start and forwards from its tip. The base's rear and front
marks both ride that centreline, always exactly one mark separation apart in a straight
line (the base is rigid); the pose has the rear mark where it is on the centreline and
heading from the rear mark to the front mark. Samples are parametrised by the distance
the rear mark has travelled along the centreline, from 0 (the start pose: front mark on
the arrow start) to ``separation + arrow length`` (rear mark on the tip: the placement
of DF.M3). A final turn (Immelmann) is then swept as a turn on the spot about the rear
mark, at constant travel. The last sample is exactly the placement.

Cards anchored at the stand move the stand along the centreline instead (tangent
heading). Cards given only by their ``end`` have no drawn arrow in the data; their
centreline is the cubic Hermite curve from the start to the tip with matching tangents,
which is a drawing aid only: the end pose, the only rule data, is exact.

The front mark's position is solved in closed form on each straight or arc piece (the
intersection of the piece with a circle of radius = mark separation around the rear
mark), vectorised over all samples.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from furball.geometry.base import Base
from furball.geometry.pose import Pose, compose_batch, cos_sin_deg, normalize_heading_deg

from .card import Anchor, Arc, ManeuverCard, Straight

__all__ = ["Piece", "centreline", "PathSamples", "path_poses", "arrow_points", "card_outline", "HERMITE_PIECES",
           "CARD_MARGIN_MM", "CARD_MIN_LENGTH_MM"]

HERMITE_PIECES = 64
"""Straight pieces used to draw the centreline of an end-only card."""

CARD_MARGIN_MM = 8.0
"""Paper around a card's arrow, mm (a reconstruction: real cards are not measured; the
outline is drawn only, no rule reads it)."""
CARD_MIN_LENGTH_MM = 30.0
"""The shortest card drawn, mm (a stall or climb card, whose arrow is a point)."""


@dataclass(frozen=True)
class Piece:
    """One piece of a centreline: a straight (``curvature == 0``) or an arc.

    ``start``: ``(x_mm, y_mm, heading_deg)`` in the arrow-start frame; ``s0_mm``: the
    centreline coordinate of its start; ``length_mm`` (may be ``inf`` for the final ray);
    ``curvature``: signed, 1/mm, positive = left.
    """

    start: tuple[float, float, float]
    s0_mm: float
    length_mm: float
    curvature: float = 0.0

    def points(self, w):
        """Points ``(K, 2)`` and headings ``(K,)`` (deg) at distances ``w`` (mm) into the piece."""
        x0, y0, h0 = self.start
        w = np.asarray(w, dtype=float)
        c, s = cos_sin_deg(h0)
        if self.curvature == 0.0:
            return np.stack([x0 + w * c, y0 + w * s], -1), np.full(w.shape, h0)
        r = 1.0 / abs(self.curvature)
        sign = 1.0 if self.curvature > 0 else -1.0
        cx, cy = x0 - sign * r * s, y0 + sign * r * c
        turn_deg = np.rad2deg(w * self.curvature)
        ch, sh = cos_sin_deg(h0 + turn_deg)
        return np.stack([cx + sign * r * sh, cy - sign * r * ch], -1), h0 + turn_deg

    def front_roots(self, rear, u, separation):
        """Smallest centreline coordinate ``v > u`` on this piece with
        ``|C(v) - rear| == separation``, per sample (``nan`` where none).

        ``rear``: ``(K, 2)`` rear-mark points; ``u``: ``(K,)`` their coordinates.
        """
        x0, y0, h0 = self.start
        c, s = cos_sin_deg(h0)
        if self.curvature == 0.0:
            qx, qy = x0 - rear[:, 0], y0 - rear[:, 1]
            b = qx * c + qy * s
            disc = b * b - (qx * qx + qy * qy) + separation * separation
            root = np.sqrt(np.where(disc >= 0, disc, np.nan))
            cands = np.stack([-b - root, -b + root], -1)
        else:
            r = 1.0 / abs(self.curvature)
            sign = 1.0 if self.curvature > 0 else -1.0
            cx, cy = x0 - sign * r * s, y0 + sign * r * c
            gx, gy = cx - rear[:, 0], cy - rear[:, 1]
            rho = np.hypot(gx, gy)
            m = (separation ** 2 - rho ** 2 - r ** 2) / (2 * r)
            with np.errstate(invalid="ignore", divide="ignore"):
                beta = np.arccos(np.where(np.abs(m) <= rho, m / rho, np.nan))
            alpha = np.arctan2(gy, gx)
            phi0 = math.radians(h0) - sign * math.pi / 2  # angle of the start point seen from the centre
            cands = np.stack(
                [r * np.mod(sign * (alpha + beta - phi0), 2 * math.pi),
                 r * np.mod(sign * (alpha - beta - phi0), 2 * math.pi)], -1)
        v = self.s0_mm + cands
        ok = (cands >= -1e-9) & (cands <= self.length_mm + 1e-9) & (v > u[:, None])
        v = np.where(ok, v, np.inf)
        best = v.min(axis=1)
        return np.where(np.isfinite(best), best, np.nan)


def _hermite_pieces(end: Pose, s0: float) -> list[Piece]:
    chord = math.hypot(end.x_mm, end.y_mm)
    c1, s1 = (float(v) for v in cos_sin_deg(end.heading_deg))
    t = np.linspace(0.0, 1.0, HERMITE_PIECES + 1)[:, None]
    p0, p3 = np.zeros(2), np.array([end.x_mm, end.y_mm])
    p1 = p0 + chord / 3 * np.array([1.0, 0.0])
    p2 = p3 - chord / 3 * np.array([c1, s1])
    pts = (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t ** 2 * p2 + t ** 3 * p3
    pieces = []
    for a, b in zip(pts[:-1], pts[1:]):
        d = b - a
        length = float(np.hypot(*d))
        if length == 0.0:
            continue
        pieces.append(Piece((float(a[0]), float(a[1]), math.degrees(math.atan2(d[1], d[0]))), s0, length))
        s0 += length
    return pieces


def centreline(card: ManeuverCard, lead_in_mm: float = 0.0) -> tuple[list[Piece], Pose]:
    """The card's centreline in the arrow-start frame, extended both ways.

    Returns ``(pieces, tip)``: a straight lead-in of ``lead_in_mm`` ending at the arrow
    start (coordinate 0), the arrow's own pieces, and an infinite straight ray from the
    tip along the tip heading; ``tip`` is the arrow tip as a pose (for end-only cards
    with a zero chord, the start: the heading change then happens on the spot).
    """
    pieces: list[Piece] = []
    if lead_in_mm > 0:
        pieces.append(Piece((-lead_in_mm, 0.0, 0.0), -lead_in_mm, lead_in_mm))
    s = 0.0
    pose = Pose.identity()
    if card.path is not None:
        for seg in card.path:
            if isinstance(seg, Straight):
                piece = Piece((pose.x_mm, pose.y_mm, pose.heading_deg), s, seg.length_mm)
            elif isinstance(seg, Arc):
                curvature = math.copysign(1.0 / seg.radius_mm, seg.angle_deg)
                piece = Piece((pose.x_mm, pose.y_mm, pose.heading_deg), s, seg.length_mm, curvature)
            else:  # pragma: no cover - the loader only builds these two
                raise TypeError(f"unknown segment {seg!r}")
            pieces.append(piece)
            s += piece.length_mm
            pose = pose @ seg.end
        tip = pose
    elif math.hypot(card.arrow_end.x_mm, card.arrow_end.y_mm) > 0.0:
        herm = _hermite_pieces(card.arrow_end, 0.0)
        pieces.extend(herm)
        s = herm[-1].s0_mm + herm[-1].length_mm
        tip = card.arrow_end
    else:
        tip = Pose.identity()
    pieces.append(Piece((tip.x_mm, tip.y_mm, tip.heading_deg), s, math.inf))
    return pieces, tip


def _point_at(pieces: list[Piece], s):
    """Points ``(K, 2)`` and headings ``(K,)`` at centreline coordinates ``s``."""
    s = np.asarray(s, dtype=float)
    starts = np.array([p.s0_mm for p in pieces])
    idx = np.clip(np.searchsorted(starts, s, side="right") - 1, 0, len(pieces) - 1)
    pts = np.empty(s.shape + (2,))
    hd = np.empty(s.shape)
    for k in np.unique(idx):
        sel = idx == k
        pts[sel], hd[sel] = pieces[k].points(s[sel] - pieces[k].s0_mm)
    return pts, hd


@dataclass(frozen=True)
class PathSamples:
    """Intermediate poses of one maneuver.

    ``travel_mm``: ``(K,)`` distance travelled by the rear mark (stand for
    stand-anchored cards), non-decreasing; ``poses``: ``(K, 3)`` base-centre poses in
    the table frame (mm, mm, deg). ``poses[0]`` is the start and ``poses[-1]`` the
    placement of the card.
    """

    travel_mm: np.ndarray
    poses: np.ndarray


MAX_SAMPLES = 400
"""The most samples along one card's travel (and along its final turn): enough for any
drawing, and the work stays bounded however large the card or the base."""


def _count(total: float, step: float) -> int:
    """Samples for ``total`` at spacing ``step``, at most :data:`MAX_SAMPLES` + 1."""
    return max(2, min(MAX_SAMPLES, math.ceil(total / step)) + 1)


def path_poses(start: Pose, card: ManeuverCard, base: Base, step_mm: float = 2.0,
               turn_step_deg: float = 1.0) -> PathSamples:
    """Sample the base's motion through ``card`` from the centre pose ``start``.

    ``step_mm`` (> 0): spacing of samples along the travel; ``turn_step_deg`` (> 0):
    spacing of samples of a final turn on the spot; each is widened when needed so that
    no card gets more than :data:`MAX_SAMPLES` samples of each. Returns
    :class:`PathSamples`; its last pose equals :func:`maneuvers.placement.place` exactly.
    """
    if not (step_mm > 0 and turn_step_deg > 0):
        raise ValueError("step_mm and turn_step_deg must be positive")
    if card.anchor == Anchor.STAND:
        anchor_in_base = base.stand
        pieces, tip = centreline(card)
        total = pieces[-1].s0_mm
        travel = np.linspace(0.0, total, _count(total, step_mm)) if total > 0 else np.zeros(1)
        pts, hd = _point_at(pieces, travel)
        local = np.column_stack([pts, hd])  # stand poses in the arrow-start frame
        local[0] = Pose.identity().as_array()
        local[-1] = tip.as_array()
    else:
        anchor_in_base = base.front_mark
        sep = base.mark_separation_mm
        pieces, tip = centreline(card, lead_in_mm=sep)
        total = sep + pieces[-1].s0_mm
        travel = np.linspace(0.0, total, _count(total, step_mm))
        u = travel - sep
        rear, _ = _point_at(pieces, u)
        v = np.full(u.shape, np.nan)
        for piece in pieces:
            todo = np.isnan(v)
            if not todo.any():
                break
            if piece.s0_mm + piece.length_mm <= u[todo].min():
                continue
            v[todo] = piece.front_roots(rear[todo], u[todo], sep)
        front, _ = _point_at(pieces, v)
        heading = np.rad2deg(np.arctan2(front[:, 1] - rear[:, 1], front[:, 0] - rear[:, 0]))
        # rear-mark poses in the arrow-start frame, then shift to the base's front-mark
        # convention (the anchor frame below is the front mark): rear @ R^-1 @ F
        rear_pose = np.column_stack([rear, heading])
        local = compose_batch(rear_pose, (base.rear_mark.inverse() @ base.front_mark).as_array())
        # the exact endpoints: start pose and tip pose
        local[0] = Pose.identity().as_array()
        local[-1] = compose_batch(tip.as_array(), (base.rear_mark.inverse() @ base.front_mark).as_array())
    # anchor frame on the table: start @ anchor; base centre = that @ local @ anchor^-1
    frame = (start @ anchor_in_base).as_array()
    back = anchor_in_base.inverse().as_array()
    poses = compose_batch(compose_batch(frame, local), back)
    # what is left of the card's heading change is a turn on the spot at the tip: the
    # final turn (its own sense kept, e.g. +180), or all of it for a zero-chord card
    if tip == card.arrow_end:
        remaining = card.final_turn_deg
    else:
        remaining = float(normalize_heading_deg(card.transform.heading_deg - tip.heading_deg + 180.0)) - 180.0
    if remaining != 0.0:
        n = max(1, min(MAX_SAMPLES, math.ceil(abs(remaining) / turn_step_deg)))
        angles = np.linspace(0.0, remaining, n + 1)[1:]
        pivot = local[-1]
        if card.anchor != Anchor.STAND:
            pivot = compose_batch(pivot, (base.front_mark.inverse() @ base.rear_mark).as_array())
            extra_back = (base.rear_mark.inverse() @ base.front_mark).as_array()
        else:
            extra_back = Pose.identity().as_array()
        turned = compose_batch(pivot, np.column_stack([np.zeros((n, 2)), angles]))
        turned = compose_batch(compose_batch(frame, compose_batch(turned, extra_back)), back)
        poses = np.vstack([poses, turned])
        travel = np.concatenate([travel, np.full(n, travel[-1])])
    return PathSamples(travel_mm=travel, poses=poses)


def arrow_points(start: Pose, card: ManeuverCard, base: Base, step_mm: float = 2.0) -> np.ndarray:
    """The card's arrow laid in front of a base at ``start``, as table points ``(K, 2)``.

    From the arrow start (the front mark, or the stand for stand-anchored cards) to its
    tip; a single point for a card whose tip is its start (a stall).
    """
    pieces, _ = centreline(card)
    total = pieces[-1].s0_mm
    s = np.linspace(0.0, total, _count(total, step_mm)) if total > 0 else np.zeros(1)
    pts, _ = _point_at(pieces, s)
    anchor = base.stand if card.anchor == Anchor.STAND else base.front_mark
    return (start @ anchor).apply(pts)


def card_outline(start: Pose, card: ManeuverCard, base: Base, margin_mm: float = CARD_MARGIN_MM) -> np.ndarray:
    """The card laid in front of a base at ``start`` (DF.M2), as its four table corners
    ``(4, 2)`` mm, counter-clockwise from the front line's right end.

    In the card frame (origin the base's front mark, x forward, y left) the card is a
    rectangle from the front line (x = 0, or farther back where an arrow curls behind it)
    to ``margin_mm`` past the arrow's farthest point
    (at least :data:`CARD_MIN_LENGTH_MM`), as wide as the base or the arrow and its
    margins, whichever is wider. A drawing aid for the pages (the card under a moving
    base); the real cards' size is not measured, so the outline is a reconstruction and
    no rule reads it (the arrow, :func:`arrow_points`, is the rule data).
    """
    mark = start @ base.front_mark
    # the card frame; a stand-anchored card's arrow (drawn at the stand) is laid out in front too
    anchor = start @ (base.stand if card.anchor == Anchor.STAND else base.front_mark)
    arrow = anchor.inverse().apply(arrow_points(start, card, base))
    half = base.width_mm / 2.0
    x1 = max(float(arrow[:, 0].max()) + margin_mm, CARD_MIN_LENGTH_MM)
    y0 = min(float(arrow[:, 1].min()) - margin_mm, -half)
    y1 = max(float(arrow[:, 1].max()) + margin_mm, half)
    x0 = min(float(arrow[:, 0].min()), 0.0)
    return mark.apply(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
