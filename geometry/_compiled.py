"""The compiled half of :mod:`geometry.kernels` (numba). Import it only through
:func:`geometry.kernels.compiled`, which loads it on first use: importing numba and
compiling (or loading the cache of) these functions costs time that commands which never
ask a batch question should not pay.

Every function here mirrors a scalar predicate of :mod:`geometry.base`,
:mod:`geometry.segments` or :mod:`geometry.sector` step by step, with the same tolerance,
so that both give the same answer (tests compare them on random and near-touching
cases). A rectangle is given by its **frame** ``(x, y, cos, sin)`` (centre and heading,
see :func:`frames`) and its **half sizes** ``(half_length, half_width)``; angles never
enter the pair loops, so the trigonometry is done once per pose, not once per pair.

Keep every numba function of the geometry layer in this one file: numba's cache checks
only the file of the function it compiled, so a jitted caller in another file would keep
a stale copy of a callee changed here.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from .tolerance import TOLERANCE_MM

TOL = TOLERANCE_MM
NONE, FRONT, LEFT, REAR, RIGHT = -1, 0, 1, 2, 3  # geometry.base.Edge values


# -- scalar helpers (inlined into the loops) ------------------------------------------
@njit(cache=True, inline="always")
def cos_sin_deg(h):
    """As :func:`geometry.pose.cos_sin_deg` for one angle: exact at quarter turns."""
    r = h % 360.0
    quarter = np.rint(r / 90.0)
    rest = (r - 90.0 * quarter) * (math.pi / 180.0)
    c0 = math.cos(rest)
    s0 = math.sin(rest)
    q = int(quarter) % 4
    if q == 0:
        return c0, s0
    if q == 1:
        return -s0, c0
    if q == 2:
        return -c0, -s0
    return s0, -c0


@njit(cache=True, inline="always")
def sat_depth(ax, ay, ca, sa, ahl, ahw, bx, by, cb, sb, bhl, bhw):
    """Separating-axis interpenetration depth of two rectangles (mm), as
    :func:`geometry.base.penetration_depth_mm`."""
    dx = bx - ax
    dy = by - ay
    best = math.inf
    for k in range(4):
        if k == 0:
            ux, uy = ca, sa
        elif k == 1:
            ux, uy = -sa, ca
        elif k == 2:
            ux, uy = cb, sb
        else:
            ux, uy = -sb, cb
        ra = abs(ux * ca + uy * sa) * ahl + abs(ux * -sa + uy * ca) * ahw
        rb = abs(ux * cb + uy * sb) * bhl + abs(ux * -sb + uy * cb) * bhw
        d = ra + rb - abs(ux * dx + uy * dy)
        if d < best:
            best = d
    return best


@njit(cache=True, inline="always")
def to_local(x, y, c, s, px, py):
    """Table point ``(px, py)`` in the frame ``(x, y, c, s)``."""
    dx = px - x
    dy = py - y
    return c * dx + s * dy, -s * dx + c * dy


@njit(cache=True, inline="always")
def clip_line(px, py, dx, dy, hx, hy):
    """Liang-Barsky: the line ``p + t d`` (local frame) is inside the box ``|x| <= hx,
    |y| <= hy`` for ``t_in <= t <= t_out``, as :func:`geometry.segments.clip_parameters`."""
    t_in = -math.inf
    t_out = math.inf
    for axis in range(2):
        p = px if axis == 0 else py
        d = dx if axis == 0 else dy
        h = hx if axis == 0 else hy
        if d == 0.0:
            if abs(p) <= h:
                lo, hi = -math.inf, math.inf
            else:
                lo, hi = math.inf, -math.inf
        else:
            t1 = (-h - p) / d
            t2 = (h - p) / d
            lo, hi = min(t1, t2), max(t1, t2)
        t_in = max(t_in, lo)
        t_out = min(t_out, hi)
    return t_in, t_out


@njit(cache=True, inline="always")
def edge_of(qx, qy, hx, hy):
    """The edge whose interior (beyond the tolerance from its corners) holds the
    boundary point ``q`` (local frame), or ``NONE``."""
    on_x = abs(qy) < hy - TOL
    on_y = abs(qx) < hx - TOL
    edge = NONE
    if on_x and qx >= hx - TOL:
        edge = FRONT
    if on_x and qx <= -hx + TOL:
        edge = REAR
    if on_y and qy >= hy - TOL:
        edge = LEFT
    if on_y and qy <= -hy + TOL:
        edge = RIGHT
    return edge


@njit(cache=True, inline="always")
def crossing_edge(ax, ay, bx, by, x, y, c, s, hx, hy, leaving):
    """Edge through whose interior segment ``a``-``b`` leaves (``leaving``) or enters the
    rectangle, as :func:`geometry.segments.exit_edge` / ``entry_edge``."""
    pax, pay = to_local(x, y, c, s, ax, ay)
    pbx, pby = to_local(x, y, c, s, bx, by)
    dx = pbx - pax
    dy = pby - pay
    t_in, t_out = clip_line(pax, pay, dx, dy, hx, hy)
    t = t_out if leaving else t_in
    valid = t_in <= t_out and t >= 0.0 and t <= 1.0
    if leaving:
        valid = valid and t_in <= 0.0
    else:
        valid = valid and t_out >= 1.0
    if not valid:
        return NONE
    if not math.isfinite(t):
        t = 0.0
    return edge_of(pax + t * dx, pay + t * dy, hx, hy)


@njit(cache=True, inline="always")
def enters(ax, ay, bx, by, x, y, c, s, hx, hy):
    """Does segment ``a``-``b`` get more than the tolerance inside the rectangle? As
    :func:`geometry.segments.enters_interior`."""
    pax, pay = to_local(x, y, c, s, ax, ay)
    pbx, pby = to_local(x, y, c, s, bx, by)
    t_in, t_out = clip_line(pax, pay, pbx - pax, pby - pay, hx - TOL, hy - TOL)
    return max(t_in, 0.0) < min(t_out, 1.0)


@njit(cache=True, inline="always")
def _clip_half_plane(src, n_src, dst, nx, ny, offset):
    """Sutherland-Hodgman: keep the part of convex polygon ``src[:n_src]`` where
    ``n . p >= offset``, written to ``dst``; returns its vertex count. As
    :func:`geometry.sector.clip_convex_halfplane`."""
    m = 0
    for i in range(n_src):
        j = i + 1 if i + 1 < n_src else 0
        px, py = src[i, 0], src[i, 1]
        qx, qy = src[j, 0], src[j, 1]
        sp = px * nx + py * ny - offset
        sq = qx * nx + qy * ny - offset
        if sp >= 0:
            dst[m, 0] = px
            dst[m, 1] = py
            m += 1
        if (sp >= 0) != (sq >= 0):
            t = sp / (sp - sq)
            dst[m, 0] = px + t * (qx - px)
            dst[m, 1] = py + t * (qy - py)
            m += 1
    return m


@njit(cache=True, inline="always")
def _edge_closest(px, py, qx, qy):
    """Point of edge p-q closest to the origin, its squared distance, and whether the
    origin lies right of the edge (outside a counter-clockwise polygon)."""
    ex, ey = qx - px, qy - py
    ee = ex * ex + ey * ey
    t = 0.0
    if ee != 0:
        t = min(1.0, max(0.0, -(px * ex + py * ey) / ee))
    cx, cy = px + t * ex, py + t * ey
    return cx, cy, cx * cx + cy * cy, ex * -py - ey * -px < 0


@njit(cache=True, inline="always")
def corner_local(k, x, y, c, s, hx, hy, fx, fy, fc, fs):
    """Corner ``k`` (counter-clockwise from front-right) of the rectangle ``(x, y, c,
    s)``, half sizes ``hx``, ``hy``, in the frame ``(fx, fy, fc, fs)``."""
    lx = hx if k < 2 else -hx
    ly = -hy if (k == 0 or k == 3) else hy
    return to_local(fx, fy, fc, fs, x + c * lx - s * ly, y + s * lx + c * ly)


@njit(cache=True, inline="always")
def _closest_of_convex(poly, k):
    """Point of convex polygon ``poly[:k]`` (counter-clockwise) closest to the origin,
    as :func:`geometry.sector.closest_point_of_convex`."""
    if k == 1:
        return poly[0, 0], poly[0, 1]
    inside = True
    bx, by, best = 0.0, 0.0, math.inf
    for i in range(k):
        j = i + 1 if i + 1 < k else 0
        cx, cy, d, right = _edge_closest(poly[i, 0], poly[i, 1], poly[j, 0], poly[j, 1])
        if right:
            inside = False
        if d < best:
            bx, by, best = cx, cy, d
    if inside and k >= 3:
        return 0.0, 0.0
    return bx, by


@njit(cache=True, inline="always")
def sector_pieces(half_deg, pieces):
    """Split a sector of half-width ``half_deg`` into convex pieces, as
    :func:`geometry.sector._pieces`: writes rows ``(cos lo, sin lo, cos hi, sin hi,
    lo is the sector's edge, hi is the sector's edge)`` into ``pieces`` ``(2, 6)`` and
    returns their count (0: the whole plane, no clipping)."""
    if half_deg >= 180.0:
        return 0
    if half_deg <= 90.0:
        bounds = ((-half_deg, half_deg, 1.0, 1.0), (0.0, 0.0, 0.0, 0.0))
        count = 1
    else:
        bounds = ((-half_deg, 0.0, 1.0, 0.0), (0.0, half_deg, 0.0, 1.0))
        count = 2
    for k in range(count):
        lo, hi, lo_outer, hi_outer = bounds[k]
        pieces[k, 0], pieces[k, 1] = cos_sin_deg(lo)
        pieces[k, 2], pieces[k, 3] = cos_sin_deg(hi)
        pieces[k, 4] = lo_outer
        pieces[k, 5] = hi_outer
    return count


@njit(cache=True, inline="always")
def _clip_piece(local, c_lo, s_lo, c_hi, s_hi, tol_lo, tol_hi, tmp, out):
    m = _clip_half_plane(local, 4, tmp, -s_lo, c_lo, tol_lo)
    return _clip_half_plane(tmp, m, out, s_hi, -c_hi, tol_hi)


@njit(cache=True)
def _closest_of_quad(xs, ys):
    """:func:`_closest_of_convex` for a quadrilateral given as two 4-tuples (no arrays)."""
    inside = True
    bx, by, best = 0.0, 0.0, math.inf
    for i in range(4):
        j = i + 1 if i + 1 < 4 else 0
        cx, cy, d, right = _edge_closest(xs[i], ys[i], xs[j], ys[j])
        if right:
            inside = False
        if d < best:
            bx, by, best = cx, cy, d
    if inside:
        return 0.0, 0.0
    return bx, by


@njit(cache=True)
def sector_quick(fx, fy, fc, fs, n_pieces, lo_c, lo_s, hi_c, hi_s, lo2_c, lo2_s, hi2_c, hi2_s,
                 x, y, c, s, hx, hy):
    """The cheap cases of :func:`closest_in_sector`, with scalars only: returns
    ``(state, distance, aim_x, aim_y)``; state 0: the rectangle's circumcircle lies beyond
    a boundary line of every piece (not in the sector); 1: a one-piece sector holds every
    corner beyond the tolerance, so the closest point is the rectangle's own (no
    clipping); 2: clipping needed. ``lo*``/``hi*``: the pieces' boundary directions
    (:func:`sector_pieces` rows, the second piece's for two-piece sectors)."""
    if n_pieces > 0:
        cx, cy = to_local(fx, fy, fc, fs, x, y)
        margin = -(math.hypot(hx, hy) + 1.0)
        outside = -lo_s * cx + lo_c * cy < margin or hi_s * cx - hi_c * cy < margin
        if n_pieces == 2:
            outside = outside and (-lo2_s * cx + lo2_c * cy < margin or hi2_s * cx - hi2_c * cy < margin)
        if outside:
            return 0, math.inf, math.nan, math.nan
    if n_pieces != 1:
        return 2, 0.0, 0.0, 0.0
    xs = (0.0, 0.0, 0.0, 0.0)
    ys = (0.0, 0.0, 0.0, 0.0)
    inside = True
    for k in range(4):
        u, v = corner_local(k, x, y, c, s, hx, hy, fx, fy, fc, fs)
        if u * -lo_s + v * lo_c - TOL < 0 or u * hi_s + v * -hi_c - TOL < 0:
            inside = False
            break
        xs = (u, xs[0], xs[1], xs[2])
        ys = (v, ys[0], ys[1], ys[2])
    if not inside:
        return 2, 0.0, 0.0, 0.0
    bx, by = _closest_of_quad((xs[3], xs[2], xs[1], xs[0]), (ys[3], ys[2], ys[1], ys[0]))
    return 1, math.hypot(bx, by), fx + fc * bx - fs * by, fy + fs * bx + fc * by


@njit(cache=True)
def band_by_bounds(fx, fy, fc, fs, lo_c, lo_s, hi_c, hi_s, x, y, c, s, hx, hy, short, reach):
    """For a one-piece sector: bound the distance to the closest in-sector point of the
    rectangle between its distance to the whole rectangle and to its nearest corner
    inside the sector beyond the tolerance (such a corner also proves that the
    rectangle reaches inside). Returns the band (2: within ``short``, 1: within
    ``reach``, 0: beyond) when both bounds give it, 1e-9 mm clear of each limit, else -1."""
    upper = math.inf
    for k in range(4):
        u, v = corner_local(k, x, y, c, s, hx, hy, fx, fy, fc, fs)
        if u * -lo_s + v * lo_c - TOL >= 0 and u * hi_s + v * -hi_c - TOL >= 0:
            upper = min(upper, math.hypot(u, v))
    if upper == math.inf:
        return -1
    ax, ay = to_local(x, y, c, s, fx, fy)  # the apex in the rectangle's frame
    lower = math.hypot(ax - min(hx, max(-hx, ax)), ay - min(hy, max(-hy, ay)))
    for limit, value in ((short, 2), (reach, 1)):
        if upper < limit - 1e-9:
            return value
        if not lower > limit + 1e-9:
            return -1
    return 0


@njit(cache=True)
def closest_in_sector(fx, fy, fc, fs, pieces, n_pieces, x, y, c, s, hx, hy, local, tmp, inner, exact):
    """Closest point to the apex of the part of a rectangle inside a sector, as
    :func:`geometry.sector.closest_in_sector`. The sector's frame ``(fx, fy, fc, fs)``
    is the apex turned to the sector's centre line; ``pieces``, ``n_pieces`` its convex
    pieces (:func:`sector_pieces`). Returns ``(distance, aim_x, aim_y)`` (table mm),
    distance ``inf`` when the rectangle does not reach more than the tolerance inside.
    ``local``, ``tmp``, ``inner``, ``exact``: scratch arrays ``(8, 2)``."""
    for k in range(4):
        local[k, 0], local[k, 1] = corner_local(k, x, y, c, s, hx, hy, fx, fy, fc, fs)
    best, bx, by = math.inf, 0.0, 0.0
    for piece in range(max(n_pieces, 1)):
        if n_pieces == 0:
            n_inner = 4
            n_exact = 4
            for k in range(4):
                exact[k, 0], exact[k, 1] = local[k, 0], local[k, 1]
        else:
            c_lo, s_lo, c_hi, s_hi = pieces[piece, 0], pieces[piece, 1], pieces[piece, 2], pieces[piece, 3]
            tol_lo = TOL if pieces[piece, 4] > 0 else 0.0
            tol_hi = TOL if pieces[piece, 5] > 0 else 0.0
            n_exact = _clip_piece(local, c_lo, s_lo, c_hi, s_hi, 0.0, 0.0, tmp, exact)
            if n_exact == 0:
                continue
            # the part inside the lines moved in by the tolerance is not empty when a
            # corner lies there (the clip keeps it); only otherwise clip to find out
            n_inner = 0
            for k in range(4):
                if (local[k, 0] * -s_lo + local[k, 1] * c_lo - tol_lo >= 0
                        and local[k, 0] * s_hi + local[k, 1] * -c_hi - tol_hi >= 0):
                    n_inner = 1
                    break
            if n_inner == 0:
                n_inner = _clip_piece(local, c_lo, s_lo, c_hi, s_hi, tol_lo, tol_hi, tmp, inner)
        if n_inner == 0 or n_exact == 0:
            continue
        qx, qy = _closest_of_convex(exact, n_exact)
        d = math.hypot(qx, qy)
        if d < best:
            best, bx, by = d, qx, qy
    if best == math.inf:
        return best, math.nan, math.nan
    return best, fx + fc * bx - fs * by, fy + fs * bx + fc * by


# -- batch kernels ---------------------------------------------------------------------
@njit(cache=True)
def frames(poses, out):
    """``out[i] = (x, y, cos h, sin h)`` for poses ``(N, 3)`` (mm, mm, deg)."""
    for i in range(poses.shape[0]):
        c, s = cos_sin_deg(poses[i, 2])
        out[i, 0] = poses[i, 0]
        out[i, 1] = poses[i, 1]
        out[i, 2] = c
        out[i, 3] = s


@njit(cache=True)
def depth_pairs(fa, ha, fb, hb, ia, ib, out):
    """``out[n] = depth(rect ia[n] of a, rect ib[n] of b)``."""
    for n in range(out.shape[0]):
        i, j = ia[n], ib[n]
        out[n] = sat_depth(fa[i, 0], fa[i, 1], fa[i, 2], fa[i, 3], ha[i, 0], ha[i, 1],
                           fb[j, 0], fb[j, 1], fb[j, 2], fb[j, 3], hb[j, 0], hb[j, 1])


@njit(cache=True, nogil=True)
def depth_rows(pa, ha, pb, hb, out):
    """``out[n] = depth(rect n of a, rect n of b)`` from poses ``(N, 3)`` (mm, mm, deg)
    and half sizes ``(N, 2)``: the trigonometry in the loop, no frames stored."""
    for n in range(out.shape[0]):
        ca, sa = cos_sin_deg(pa[n, 2])
        cb, sb = cos_sin_deg(pb[n, 2])
        out[n] = sat_depth(pa[n, 0], pa[n, 1], ca, sa, ha[n, 0], ha[n, 1], pb[n, 0], pb[n, 1], cb, sb,
                           hb[n, 0], hb[n, 1])


@njit(cache=True, nogil=True)
def depth_grid(fa, ha, fb, hb, out):
    """``out[i, j] = depth(rect i of a, rect j of b)``: every pair, both cores."""
    for i in range(fa.shape[0]):
        for j in range(fb.shape[0]):
            out[i, j] = sat_depth(fa[i, 0], fa[i, 1], fa[i, 2], fa[i, 3], ha[i, 0], ha[i, 1],
                                  fb[j, 0], fb[j, 1], fb[j, 2], fb[j, 3], hb[j, 0], hb[j, 1])


@njit(cache=True, nogil=True)
def overlap_grid(fa, ha, fb, hb, out):
    """``out[i, j]``: rect i of a and rect j of b share area (depth > the tolerance);
    a quick bounding-circle test skips pairs far apart."""
    for i in range(fa.shape[0]):
        ra = math.hypot(ha[i, 0], ha[i, 1])
        for j in range(fb.shape[0]):
            dx = fb[j, 0] - fa[i, 0]
            dy = fb[j, 1] - fa[i, 1]
            far = ra + math.hypot(hb[j, 0], hb[j, 1]) + 1.0
            if dx * dx + dy * dy > far * far:
                out[i, j] = False
                continue
            out[i, j] = sat_depth(fa[i, 0], fa[i, 1], fa[i, 2], fa[i, 3], ha[i, 0], ha[i, 1],
                                  fb[j, 0], fb[j, 1], fb[j, 2], fb[j, 3], hb[j, 0], hb[j, 1]) > TOL


@njit(cache=True)
def overlap_count_pairs(fa, ha, fb, hb, ia, ib, out):
    """``out[n]``: over every placement ``k`` of rect ``ia[n]`` (``fa[ia[n], k]``) and
    ``l`` of rect ``ib[n]``, how many pairs share area (depth > the tolerance). ``fa``
    ``(Na, Ka, 4)``, ``fb`` ``(Nb, Kb, 4)`` frames; ``ha``, ``hb`` ``(2,)`` half sizes."""
    for n in range(out.shape[0]):
        i, j = ia[n], ib[n]
        hits = 0
        for k in range(fa.shape[1]):
            for m in range(fb.shape[1]):
                if sat_depth(fa[i, k, 0], fa[i, k, 1], fa[i, k, 2], fa[i, k, 3], ha[0], ha[1],
                             fb[j, m, 0], fb[j, m, 1], fb[j, m, 2], fb[j, m, 3], hb[0], hb[1]) > TOL:
                    hits += 1
        out[n] = hits


@njit(cache=True)
def crossing_pairs(seg, fr, hr, ia, ib, leaving, out):
    """``out[n]``: edge of rect ``ib[n]`` through which segment ``ia[n]`` (rows
    ``(ax, ay, bx, by)``) leaves (``leaving``) or enters."""
    for n in range(out.shape[0]):
        i, j = ia[n], ib[n]
        out[n] = crossing_edge(seg[i, 0], seg[i, 1], seg[i, 2], seg[i, 3], fr[j, 0], fr[j, 1], fr[j, 2],
                               fr[j, 3], hr[j, 0], hr[j, 1], leaving)


@njit(cache=True, nogil=True)
def ruler_edges_rows(seg, pa, ha, pb, hb, out_exit, out_entry):
    """Row n: the edge of rect a (pose ``pa[n]``) through which segment n leaves it, and
    the edge of rect b through which it enters b (the ruler between two stands, DF.T1
    (b), (c)); the trigonometry in the loop, no frames stored."""
    for n in range(out_exit.shape[0]):
        ca, sa = cos_sin_deg(pa[n, 2])
        cb, sb = cos_sin_deg(pb[n, 2])
        out_exit[n] = crossing_edge(seg[n, 0], seg[n, 1], seg[n, 2], seg[n, 3], pa[n, 0], pa[n, 1], ca, sa,
                                    ha[n, 0], ha[n, 1], True)
        out_entry[n] = crossing_edge(seg[n, 0], seg[n, 1], seg[n, 2], seg[n, 3], pb[n, 0], pb[n, 1], cb, sb,
                                     hb[n, 0], hb[n, 1], False)


@njit(cache=True)
def enters_pairs(seg, fr, hr, ia, ib, out):
    """``out[n]``: segment ``ia[n]`` gets more than the tolerance inside rect ``ib[n]``."""
    for n in range(out.shape[0]):
        i, j = ia[n], ib[n]
        out[n] = enters(seg[i, 0], seg[i, 1], seg[i, 2], seg[i, 3], fr[j, 0], fr[j, 1], fr[j, 2], fr[j, 3],
                        hr[j, 0], hr[j, 1])


@njit(cache=True)
def _sector_setup(half_deg, pieces):
    """:func:`sector_pieces` of a sector, returned as scalars: the count, then the first
    and the second piece's boundary directions ``(cos lo, sin lo, cos hi, sin hi)``."""
    count = sector_pieces(half_deg, pieces)
    return (count, pieces[0, 0], pieces[0, 1], pieces[0, 2], pieces[0, 3],
            pieces[1, 0], pieces[1, 1], pieces[1, 2], pieces[1, 3])


@njit(cache=True, inline="always")
def _beyond(ax, ay, x, y, hx, hy, reach):
    """The rectangle centred at ``(x, y)`` lies wholly farther than ``reach`` from ``a``."""
    far = reach + math.hypot(hx, hy)
    dx = x - ax
    dy = y - ay
    return dx * dx + dy * dy > far * far


@njit(cache=True)
def _scratch():
    """Scratch arrays of :func:`closest_in_sector` and :func:`sector_pieces`."""
    return np.empty((8, 2)), np.empty((8, 2)), np.empty((8, 2)), np.empty((8, 2)), np.empty((2, 6))


@njit(cache=True)
def sector_pairs(fs, half, fr, hr, ia, ib, dist, aim):
    """``dist[n], aim[n]``: closest point of rect ``ib[n]`` inside sector ``ia[n]``
    (frames ``fs``, half-widths ``half``); distance ``inf`` and aim NaN when none."""
    local, tmp, inner, exact, pieces = _scratch()
    pieces[:] = 0.0
    for n in range(dist.shape[0]):
        i, j = ia[n], ib[n]
        count, lo_c, lo_s, hi_c, hi_s, lo2_c, lo2_s, hi2_c, hi2_s = _sector_setup(half[i], pieces)
        state, d, x, y = sector_quick(fs[i, 0], fs[i, 1], fs[i, 2], fs[i, 3], count, lo_c, lo_s, hi_c, hi_s, lo2_c,
                                      lo2_s, hi2_c, hi2_s, fr[j, 0], fr[j, 1], fr[j, 2], fr[j, 3], hr[j, 0], hr[j, 1])
        if state == 2:
            d, x, y = closest_in_sector(fs[i, 0], fs[i, 1], fs[i, 2], fs[i, 3], pieces, count, fr[j, 0], fr[j, 1],
                                        fr[j, 2], fr[j, 3], hr[j, 0], hr[j, 1], local, tmp, inner, exact)
        dist[n] = d
        aim[n, 0] = x
        aim[n, 1] = y


@njit(cache=True, nogil=True)
def sector_grid(fs, half, reach, fr, hr, dist, aim):
    """``dist[i, j], aim[i, j]``: as :func:`sector_pairs` for every sector ``i`` and rect
    ``j``, both cores. Rects whose centre is farther than ``reach`` plus their half
    diagonal from the apex are skipped (distance ``inf``): they cannot matter."""
    local, tmp, inner, exact, pieces = _scratch()
    pieces[:] = 0.0
    for i in range(fs.shape[0]):
        count, lo_c, lo_s, hi_c, hi_s, lo2_c, lo2_s, hi2_c, hi2_s = _sector_setup(half[i], pieces)
        for j in range(fr.shape[0]):
            if _beyond(fs[i, 0], fs[i, 1], fr[j, 0], fr[j, 1], hr[j, 0], hr[j, 1], reach):
                dist[i, j] = math.inf
                aim[i, j, 0] = math.nan
                aim[i, j, 1] = math.nan
                continue
            state, d, x, y = sector_quick(fs[i, 0], fs[i, 1], fs[i, 2], fs[i, 3], count, lo_c, lo_s, hi_c, hi_s,
                                          lo2_c, lo2_s, hi2_c, hi2_s, fr[j, 0], fr[j, 1], fr[j, 2], fr[j, 3],
                                          hr[j, 0], hr[j, 1])
            if state == 2:
                d, x, y = closest_in_sector(fs[i, 0], fs[i, 1], fs[i, 2], fs[i, 3], pieces, count, fr[j, 0],
                                            fr[j, 1], fr[j, 2], fr[j, 3], hr[j, 0], hr[j, 1], local, tmp, inner, exact)
            dist[i, j] = d
            aim[i, j, 0] = x
            aim[i, j, 1] = y


@njit(cache=True, nogil=True)
def sector_band_grid(fs, half, limits, fr, hr, out):
    """``out[i, j]``: in how many of the nested distance bands ``limits`` (increasing,
    mm) the closest point of rect ``j`` inside sector ``i`` lies — ``len(limits)`` within
    the first, 0 beyond the last or outside the sector. As :func:`sector_grid` without
    the aim points (for questions that need only the distance)."""
    local, tmp, inner, exact, pieces = _scratch()
    pieces[:] = 0.0
    reach = limits[limits.shape[0] - 1]
    for i in range(fs.shape[0]):
        count, lo_c, lo_s, hi_c, hi_s, lo2_c, lo2_s, hi2_c, hi2_s = _sector_setup(half[i], pieces)
        for j in range(fr.shape[0]):
            out[i, j] = 0
            if _beyond(fs[i, 0], fs[i, 1], fr[j, 0], fr[j, 1], hr[j, 0], hr[j, 1], reach):
                continue
            state, d, x, y = sector_quick(fs[i, 0], fs[i, 1], fs[i, 2], fs[i, 3], count, lo_c, lo_s, hi_c, hi_s,
                                          lo2_c, lo2_s, hi2_c, hi2_s, fr[j, 0], fr[j, 1], fr[j, 2], fr[j, 3],
                                          hr[j, 0], hr[j, 1])
            if state == 2 and count == 1 and limits.shape[0] == 2:
                band = band_by_bounds(fs[i, 0], fs[i, 1], fs[i, 2], fs[i, 3], lo_c, lo_s, hi_c, hi_s, fr[j, 0],
                                      fr[j, 1], fr[j, 2], fr[j, 3], hr[j, 0], hr[j, 1], limits[0], limits[1])
                if band >= 0:
                    out[i, j] = band
                    continue
            if state == 2:
                d, x, y = closest_in_sector(fs[i, 0], fs[i, 1], fs[i, 2], fs[i, 3], pieces, count, fr[j, 0],
                                            fr[j, 1], fr[j, 2], fr[j, 3], hr[j, 0], hr[j, 1], local, tmp, inner, exact)
            for b in range(limits.shape[0]):
                if d <= limits[b]:
                    out[i, j] = limits.shape[0] - b
                    break


@njit(cache=True)
def blocked_any(seg, fr, hr, skip, out):
    """``out[n]``: segment ``n`` gets more than the tolerance inside any rect ``k`` with
    ``skip[n, k]`` false."""
    for n in range(seg.shape[0]):
        hit = False
        for k in range(fr.shape[0]):
            if skip[n, k]:
                continue
            if enters(seg[n, 0], seg[n, 1], seg[n, 2], seg[n, 3], fr[k, 0], fr[k, 1], fr[k, 2], fr[k, 3],
                      hr[k, 0], hr[k, 1]):
                hit = True
                break
        out[n] = hit
