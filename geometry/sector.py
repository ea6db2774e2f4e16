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


# -- the same computation for many sectors at once ---------------------------------------------
def _dot_rows(poly: np.ndarray, count: np.ndarray, normal: np.ndarray) -> np.ndarray:
    """``poly[n, :count[n]] @ normal[n]`` for every row ``n`` (``(N, K)``, zeros past each
    row's count), by the same matrix products as ``poly @ normal`` on each row alone:
    rows are grouped by their count, so each group is one stacked ``np.matmul`` whose
    items take numpy's own path for that shape (a dot for one vertex, a matrix-vector
    product for more). Bit for bit the values of :func:`clip_convex_halfplane`."""
    out = np.zeros(poly.shape[:2])
    for k in np.unique(count):
        if k == 0:
            continue
        rows = np.flatnonzero(count == k)
        out[rows, :k] = np.matmul(np.ascontiguousarray(poly[rows, :k]),
                                  np.ascontiguousarray(normal[rows])[:, :, None])[..., 0]
    return out


def _clip_rows(poly: np.ndarray, count: np.ndarray, normal: np.ndarray, offset) -> tuple[np.ndarray, np.ndarray]:
    """:func:`clip_convex_halfplane` of every row (``poly`` ``(N, K, 2)`` with ``count``
    vertices each, ``normal`` ``(N, 2)``, ``offset`` ``(N,)``): ``(N, 2K, 2)`` and the new
    counts, the vertices in the scalar function's order and with its values."""
    n, k = poly.shape[:2]
    side = _dot_rows(poly, count, normal) - np.asarray(offset, float)[:, None]
    out = np.zeros((n, max(2 * k, 1), 2))
    size = np.zeros(n, dtype=np.int64)
    rows = np.arange(n)
    for i in range(k):
        valid = i < count
        nxt = np.where(i + 1 < count, i + 1, 0)
        p, q = poly[:, i], poly[rows, nxt]
        sp, sq = side[:, i], side[rows, nxt]
        keep = valid & (sp >= 0)
        out[rows[keep], size[keep]] = p[keep]
        size += keep
        cross = valid & ((sp >= 0) != (sq >= 0))
        if cross.any():
            c = rows[cross]
            t = sp[c] / (sp[c] - sq[c])
            out[c, size[c]] = p[c] + t[:, None] * (q[c] - p[c])
            size += cross
    return out, size


def _closest_rows(poly: np.ndarray, count: np.ndarray) -> np.ndarray:
    """:func:`closest_point_of_convex` of every row with ``count`` >= 1, ``(N, 2)``, with
    the scalar function's values (its dot products by the same stacked products)."""
    n, k = poly.shape[:2]
    rows = np.arange(n)
    best = poly[:, 0].copy()
    best_d = np.full(n, np.inf)
    inside = np.ones(n, dtype=bool)
    for i in range(k):
        valid = (i < count) & (count > 1)
        if not valid.any():
            continue
        nxt = np.where(i + 1 < count, i + 1, 0)
        p, q = poly[:, i], poly[rows, nxt]
        e = q - p
        inside &= ~(valid & (e[:, 0] * (-p[:, 1]) - e[:, 1] * (-p[:, 0]) < 0))
        ee = np.matmul(e[:, None, :], e[:, :, None])[:, 0, 0]
        pe = np.matmul(np.ascontiguousarray(p)[:, None, :], e[:, :, None])[:, 0, 0]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = -pe / ee
        t = np.where(ee == 0, 0.0, np.where(ratio > 0.0, np.where(ratio < 1.0, ratio, 1.0), 0.0))
        c = p + t[:, None] * e
        d = np.matmul(c[:, None, :], c[:, :, None])[:, 0, 0]
        better = valid & (d < best_d)
        best[better], best_d[better] = c[better], d[better]
    best[inside & (count >= 3)] = 0.0
    return best


def closest_in_sector_batch(apex, centre_deg, half_width_deg, polygons):
    """:func:`closest_in_sector` for many sectors and polygons at once, with its very
    numbers (bit for bit: the same operations, row by row; tests compare them).

    ``apex``: poses ``(N, 3)``; ``centre_deg``, ``half_width_deg``: ``(N,)``;
    ``polygons``: ``(N, K, 2)`` table points, counter-clockwise. Returns ``(distance_mm
    (N,), point (N, 2))``: distance ``inf`` and point NaN where the polygon does not reach
    more than ``TOLERANCE_MM`` into the sector."""
    from .pose import compose_batch, inverse_batch, normalize_heading_deg, to_table_batch

    apex = np.asarray(apex, float).reshape(-1, 3)
    n = apex.shape[0]
    centre = np.broadcast_to(np.asarray(centre_deg, float), (n,))
    half = np.broadcast_to(np.asarray(half_width_deg, float), (n,))
    poly = np.asarray(polygons, float)
    poly = poly.reshape(n, poly.shape[-2] if poly.ndim == 3 else 0, 2)
    turn = np.zeros((n, 3))
    turn[:, 2] = normalize_heading_deg(centre)
    frame = compose_batch(apex, turn)
    local = to_table_batch(inverse_batch(frame), poly)
    count = np.full(n, poly.shape[1], dtype=np.int64)
    dist = np.full(n, np.inf)
    point = np.full((n, 2), np.nan)
    whole = half >= 180.0
    one = (half <= 90.0) & ~whole
    # the pieces of _pieces(): (rows, lower, upper, lower is outer, upper is outer)
    pieces = [(whole, None, None, False, False), (one, -half, half, True, True),
              (~whole & ~one, -half, np.zeros(n), True, False), (~whole & ~one, np.zeros(n), half, False, True)]
    for rows_mask, lo, hi, lo_outer, hi_outer in pieces:
        rows = np.flatnonzero(rows_mask)
        if not len(rows):
            continue
        sub, sub_count = local[rows], count[rows]
        if lo is None or hi is None:
            inner, inner_count, exact, exact_count = sub, sub_count, sub, sub_count
        else:
            c_lo, s_lo = cos_sin_deg(lo[rows])
            c_hi, s_hi = cos_sin_deg(hi[rows])
            n_lo = np.stack([-s_lo, c_lo], axis=-1)
            n_hi = np.stack([s_hi, -c_hi], axis=-1)
            tol_lo = np.full(len(rows), TOLERANCE_MM if lo_outer else 0.0)
            tol_hi = np.full(len(rows), TOLERANCE_MM if hi_outer else 0.0)
            zero = np.zeros(len(rows))
            inner, inner_count = _clip_rows(*_clip_rows(sub, sub_count, n_lo, tol_lo), n_hi, tol_hi)
            exact, exact_count = _clip_rows(*_clip_rows(sub, sub_count, n_lo, zero), n_hi, zero)
        ok = (inner_count > 0) & (exact_count > 0)
        if not ok.any():
            continue
        pt = _closest_rows(exact[ok], exact_count[ok])
        d = np.hypot(pt[:, 0], pt[:, 1])
        hit = rows[ok]
        better = d < dist[hit]
        dist[hit[better]] = d[better]
        point[hit[better]] = pt[better]
    found = np.isfinite(dist)
    if found.any():
        point[found] = to_table_batch(frame[found], point[found][:, None, :])[:, 0, :]
    return dist, point
