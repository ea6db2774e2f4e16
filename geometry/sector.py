"""Angular sectors (firing arcs) against convex polygons.

A sector is an apex, a centre direction and a half-width: the points whose bearing
from the apex is within ``half_width_deg`` of the centre. :func:`closest_in_sector`
clips a convex polygon (e.g. a base outline) to the sector and returns the point of the
clipped part closest to the apex. Everything is computed in the apex's frame, and
membership uses the one tolerance: the polygon must reach more than ``TOLERANCE_MM``
inside the sector's boundary lines (touching an arc line is not being in the arc).
Sectors wider than 180 deg are split into convex pieces; 360 deg is everything.
"""
from __future__ import annotations

import math

import numpy as np

from .pose import Pose, cos_sin_deg
from .tolerance import TOLERANCE_MM

__all__ = ["clip_convex_halfplane", "closest_point_of_convex", "closest_in_sector"]


def clip_convex_halfplane(poly: np.ndarray, normal, offset: float) -> np.ndarray:
    """Keep the part of convex polygon ``poly`` ``(K, 2)`` where ``normal . p >= offset``
    (Sutherland-Hodgman). Returns ``(M, 2)``, possibly empty."""
    if len(poly) == 0:
        return poly
    n = np.asarray(normal, float)
    side = poly @ n - offset
    out = []
    k = len(poly)
    for i in range(k):
        p, q = poly[i], poly[(i + 1) % k]
        sp, sq = side[i], side[(i + 1) % k]
        if sp >= 0:
            out.append(p)
        if (sp >= 0) != (sq >= 0):
            t = sp / (sp - sq)
            out.append(p + t * (q - p))
    return np.array(out).reshape(-1, 2)


def closest_point_of_convex(poly: np.ndarray) -> np.ndarray:
    """The point of convex polygon ``poly`` ``(K, 2)`` (counter-clockwise) closest to the origin."""
    if len(poly) == 1:
        return poly[0]
    inside = True
    best, best_d = poly[0], math.inf
    k = len(poly)
    for i in range(k):
        p, q = poly[i], poly[(i + 1) % k]
        e = q - p
        if e[0] * (-p[1]) - e[1] * (-p[0]) < 0:  # origin right of a CCW edge: outside
            inside = False
        ee = float(e @ e)
        t = 0.0 if ee == 0 else min(1.0, max(0.0, float(-(p @ e)) / ee))
        c = p + t * e
        d = float(c @ c)
        if d < best_d:
            best, best_d = c, d
    return np.zeros(2) if inside and k >= 3 else best


def _pieces(half_width_deg: float) -> list[tuple[float, float, bool, bool] | None]:
    """Split a sector into convex pieces: (lower_deg, upper_deg, lower_outer, upper_outer)."""
    if half_width_deg >= 180.0:
        return [None]
    if half_width_deg <= 90.0:
        return [(-half_width_deg, half_width_deg, True, True)]
    return [(-half_width_deg, 0.0, True, False), (0.0, half_width_deg, False, True)]


def _clip_piece(poly, lo_deg, hi_deg, lo_outer, hi_outer, shrink):
    # inside: left of the ray at lo (cross(u_lo, p) >= 0), right of the ray at hi
    c_lo, s_lo = (float(v) for v in cos_sin_deg(lo_deg))
    c_hi, s_hi = (float(v) for v in cos_sin_deg(hi_deg))
    tol_lo = TOLERANCE_MM if (shrink and lo_outer) else 0.0
    tol_hi = TOLERANCE_MM if (shrink and hi_outer) else 0.0
    poly = clip_convex_halfplane(poly, (-s_lo, c_lo), tol_lo)
    return clip_convex_halfplane(poly, (s_hi, -c_hi), tol_hi)


def closest_in_sector(apex: Pose, centre_deg: float, half_width_deg: float, polygon):
    """Closest point to the apex of the part of a convex polygon inside a sector.

    ``apex``: pose of the apex (its heading is the frame's forward); ``centre_deg``:
    sector centre relative to that heading; ``half_width_deg``: 0 < w <= 180;
    ``polygon``: ``(K, 2)`` table points, counter-clockwise. Returns
    ``(distance_mm, point)`` with ``point`` ``(2,)`` in table mm, or ``None`` when the
    polygon does not reach more than ``TOLERANCE_MM`` into the sector.
    """
    frame = apex @ Pose.rotation(centre_deg)
    local = frame.inverse().apply(np.asarray(polygon, float))
    best = None
    for piece in _pieces(half_width_deg):
        if piece is None:
            inner, exact = local, local
        else:
            inner = _clip_piece(local, *piece, shrink=True)
            exact = _clip_piece(local, *piece, shrink=False)
        # "reaches more than the tolerance inside": the part left after clipping by the
        # lines moved in by the tolerance is not empty. (Not its area: a corner poking
        # 2e-6 mm in makes a triangle of area ~1e-12 mm², below the rounding noise of
        # the area sum, so an area test would change its answer when the table moves.)
        if len(inner) == 0 or len(exact) == 0:
            continue
        pt = closest_point_of_convex(exact)
        d = float(np.hypot(*pt))
        if best is None or d < best[0]:
            best = (d, pt)
    if best is None:
        return None
    return best[0], frame.apply(best[1])
