"""The compiled half of :mod:`geometry.kernels` (numba). Import it only through
:func:`geometry.kernels.compiled`, which loads it on first use with its cache in the
user's cache directory: importing numba and compiling (or loading the cache of) these
functions costs time that commands which never ask a batch question should not pay.
Each function is compiled the first time it is called, so a command compiles only what
it uses.

**Filter, then exact.** Every function here mirrors a scalar predicate of
:mod:`geometry.base`, :mod:`geometry.segments` or :mod:`geometry.sector` with the same
tolerance, but computes in its own order (frames prepared once per pose, closed forms
instead of polygon clipping), so its numbers differ from the scalar path's by rounding
(~1e-13 mm). A threshold is therefore *decided* here only when the compared quantity lies
farther than ``guard`` from it (times the quantity's condition number where rounding can
grow, as along a nearly parallel edge); otherwise the answer is :data:`UNSURE` and the
Python wrapper decides that case with the scalar predicate itself. The thresholds: an
overlap depth against the tolerance (DF.O1), how far a base reaches inside an arc's lines
and the distance against each range limit (firing), a ruler's exit and entry edges and
whether a segment gets inside a base (DF.T1). ``guard`` (mm) is chosen by the wrapper:
many times the rounding of the coordinates involved, far below the tolerance.

A rectangle is given by its **frame** ``(x, y, cos, sin)`` (centre and heading, see
:func:`frames`) and its **half sizes** ``(half_length, half_width)``; angles never enter
the pair loops. The grids split their rows over the cores (``prange``) and visit only the
rectangles that can matter: those binned by position near the row's pose.

Keep every numba function of the geometry layer in this one file: numba's cache checks
only the file of the function it compiled, so a jitted caller in another file would keep
a stale copy of a callee changed here.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from .tolerance import TOLERANCE_MM

TOL = TOLERANCE_MM
NONE, FRONT, LEFT, REAR, RIGHT = -1, 0, 1, 2, 3
"""geometry.base.Edge values."""
UNSURE = -2
"""The answer of a kernel too close to a threshold to decide: the wrapper asks the scalar path."""
OUT, IN = 0, 1
"""States of :func:`sector_rect`."""
COND_MAX = 1000.0
"""An aim point whose condition number exceeds this is left to the scalar path (UNSURE)."""
MAX_CELLS = 256
"""Cells per axis of the position bins (coarser cells on a larger spread)."""
ROW_BLOCK = 4
"""Rows per block of the parallel grids: blocks are dealt to the threads in turn (rows
are often ordered by position, so contiguous halves would differ in work). Small, as a
row's cost varies with what lies near its pose: the per-row costs of the two 20-card
decks' firing grids (500 rows a chunk), dealt to 16 threads, give them x13.4 at 4 rows
a block against x10.9 at 16 (benchmarks/bench_deal.py). Each row writes its own answer row,
so neighbouring rows on other threads share no cache line."""
COLUMN_BLOCK = 64
"""Rows per block when a grid writes its answer transposed (each row of the answer is
then a column): 64 one-byte cells, one cache line, so no two threads share one."""


# -- scalar helpers ----------------------------------------------------------------------
@njit(cache=True)
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


@njit(cache=True)
def to_local(x, y, c, s, px, py):
    """Table point ``(px, py)`` in the frame ``(x, y, c, s)``."""
    dx = px - x
    dy = py - y
    return c * dx + s * dy, -s * dx + c * dy


@njit(cache=True)
def sat_depth(ax, ay, ca, sa, ahl, ahw, bx, by, cb, sb, bhl, bhw):
    """Separating-axis interpenetration depth of two rectangles (mm), as
    :func:`geometry.base.penetration_depth_mm`: over the four edge normals, the smallest
    overlap of the two shadows."""
    dx = bx - ax
    dy = by - ay
    cr = abs(ca * cb + sa * sb)  # |cos| and |sin| of the angle between the two headings
    sr = abs(ca * sb - sa * cb)
    d0 = ahl + cr * bhl + sr * bhw - abs(ca * dx + sa * dy)
    d1 = ahw + sr * bhl + cr * bhw - abs(ca * dy - sa * dx)
    d2 = bhl + cr * ahl + sr * ahw - abs(cb * dx + sb * dy)
    d3 = bhw + sr * ahl + cr * ahw - abs(cb * dy - sb * dx)
    return min(min(d0, d1), min(d2, d3))


@njit(cache=True)
def overlap_code(depth, guard):
    """DF.O1 from a depth: 1 (deeper than the tolerance), 0, or UNSURE within ``guard``."""
    if depth - TOL > guard:
        return 1
    if depth - TOL < -guard:
        return 0
    return UNSURE


@njit(cache=True, inline="always")
def clip_box(px, py, dx, dy, hx, hy, t_in):
    """Liang-Barsky: the line ``p + t d`` (from ``t_in`` on: ``-inf`` for the whole line,
    0 for a ray) lies in the box ``|x| <= hx, |y| <= hy`` for ``t_in <= t <= t_out``, as
    :func:`geometry.segments.clip_parameters`. Returns ``(t_in, t_out, k_in, k_out)``:
    the axes (0: x, 1: y) whose sides bound each end, -1 where none does."""
    t_out = math.inf
    k_in = k_out = -1
    for axis in range(2):
        p, d, h = (px, dx, hx) if axis == 0 else (py, dy, hy)
        if d == 0.0:
            if abs(p) > h:
                return math.inf, -math.inf, axis, axis
            continue
        t1 = (-h - p) / d
        t2 = (h - p) / d
        lo, hi = min(t1, t2), max(t1, t2)
        if lo > t_in:
            t_in, k_in = lo, axis
        if hi < t_out:
            t_out, k_out = hi, axis
    return t_in, t_out, k_in, k_out


@njit(cache=True)
def crossing_edge(ax, ay, bx, by, x, y, c, s, hx, hy, leaving, guard):
    """Edge through whose interior segment ``a``-``b`` leaves (``leaving``: ``a`` inside)
    or enters (``b`` inside) the rectangle, as :func:`geometry.segments.exit_edge` /
    ``entry_edge``; NONE, or UNSURE when an end lies within ``guard`` of the outline or
    the crossing point within ``guard`` (times its condition) of a corner's zone."""
    pax, pay = to_local(x, y, c, s, ax, ay)
    pbx, pby = to_local(x, y, c, s, bx, by)
    margin_a = min(hx - abs(pax), hy - abs(pay))  # > 0: strictly inside
    margin_b = min(hx - abs(pbx), hy - abs(pby))
    inner, outer = (margin_a, margin_b) if leaving else (margin_b, margin_a)
    if inner < -guard or outer > guard:
        return NONE  # the end that should be inside is outside, or the other end is inside too
    if inner <= guard or outer >= -guard:
        return UNSURE
    dx = pbx - pax
    dy = pby - pay
    t_in, t_out, k_in, k_out = clip_box(pax, pay, dx, dy, hx, hy, -math.inf)
    t, k = (t_out, k_out) if leaving else (t_in, k_in)
    qx = pax + t * dx
    qy = pay + t * dy
    # the coordinate across the crossed edge is exact to rounding; the one along it moves
    # with t, by |d along| / |d across| times the rounding
    d_across, d_along = (dx, dy) if k == 0 else (dy, dx)
    g_along = guard * (1.0 + abs(d_along) / abs(d_across))
    gx, gy = (guard, g_along) if k == 0 else (g_along, guard)
    near_x = (abs(hx - TOL - abs(qx)) <= gx or abs(qx - (hx - TOL)) <= gx or abs(-hx + TOL - qx) <= gx)
    near_y = (abs(hy - TOL - abs(qy)) <= gy or abs(qy - (hy - TOL)) <= gy or abs(-hy + TOL - qy) <= gy)
    if near_x or near_y:
        return UNSURE
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


@njit(cache=True)
def _segment_depth(px, py, dx, dy, hx, hy):
    """How deep the segment ``p + t d`` (0 <= t <= 1) gets inside the box ``|x| <= hx,
    |y| <= hy``: the largest, over the segment, of the smallest distance inside the four
    sides (negative: how far it stays outside). A concave piecewise-linear function of t:
    its maximum is at an end or where two sides' distances cross."""
    a0, a1, a2, a3 = hx - px, hx + px, hy - py, hy + py
    b0, b1, b2, b3 = -dx, dx, -dy, dy
    best = max(min(min(a0, a1), min(a2, a3)), min(min(a0 + b0, a1 + b1), min(a2 + b2, a3 + b3)))
    alphas = (a0, a1, a2, a3)
    betas = (b0, b1, b2, b3)
    for k in range(4):
        for m in range(k + 1, 4):
            den = betas[k] - betas[m]
            if den == 0.0:
                continue
            t = (alphas[m] - alphas[k]) / den
            if 0.0 < t < 1.0:
                value = min(min(a0 + b0 * t, a1 + b1 * t), min(a2 + b2 * t, a3 + b3 * t))
                best = max(best, value)
    return best


@njit(cache=True)
def enters_code(ax, ay, bx, by, x, y, c, s, hx, hy, guard):
    """Does segment ``a``-``b`` get more than the tolerance inside the rectangle (as
    :func:`geometry.segments.enters_interior`)? 1, 0, or UNSURE when its depth inside the
    rectangle shrunk by the tolerance is within ``guard`` of 0."""
    pax, pay = to_local(x, y, c, s, ax, ay)
    pbx, pby = to_local(x, y, c, s, bx, by)
    hx2 = hx - TOL
    hy2 = hy - TOL
    if (min(pax, pbx) > hx2 + 1.0 or max(pax, pbx) < -hx2 - 1.0 or min(pay, pby) > hy2 + 1.0
            or max(pay, pby) < -hy2 - 1.0):
        return 0  # a millimetre clear of the box
    depth = _segment_depth(pax, pay, pbx - pax, pby - pay, hx2, hy2)
    if depth > guard:
        return 1
    if depth < -guard:
        return 0
    return UNSURE


# -- firing sectors ------------------------------------------------------------------------
@njit(cache=True)
def sector_shape(half_deg):
    """``(mode, cos half, sin half)`` of a sector of half-width ``half_deg``: mode 0 the
    whole plane (half >= 180), 1 one convex piece (half <= 90), 2 two pieces split on the
    centre line — the pieces of :func:`geometry.sector.closest_in_sector`."""
    c, s = cos_sin_deg(half_deg)
    if half_deg >= 180.0:
        return 0, c, s
    if half_deg <= 90.0:
        return 1, c, s
    return 2, c, s


@njit(cache=True, inline="always")
def _wedge_depth(a1, b1, c1, a2, b2, c2):
    """The largest, over a rectangle, of ``min(f1, f2)`` for two linear functions given at
    the corners by ``f = a + sx b + sy c`` (corner signs (+,-), (+,+), (-,+), (-,-)): how
    far the rectangle reaches inside both lines. Attained at a corner or where
    ``f1 = f2`` on an edge."""
    v1 = (a1 + b1 - c1, a1 + b1 + c1, a1 - b1 + c1, a1 - b1 - c1)
    v2 = (a2 + b2 - c2, a2 + b2 + c2, a2 - b2 + c2, a2 - b2 - c2)
    best = -math.inf
    for k in range(4):
        n = (k + 1) % 4
        best = max(best, min(v1[k], v2[k]))
        g0 = v1[k] - v2[k]
        g1 = v1[n] - v2[n]
        if (g0 > 0.0) != (g1 > 0.0):
            t = g0 / (g0 - g1)
            best = max(best, v1[k] + t * (v1[n] - v1[k]))
    return best


@njit(cache=True, inline="always")
def _ray_entry(px, py, wx, wy, hx, hy):
    """Where the ray ``p + t w`` (t >= 0, ``w`` a unit vector) first meets the box
    ``|x| <= hx, |y| <= hy``: ``(t, condition)``, ``t`` inf when it misses; the
    condition (1 / |w| across the entered side) bounds how rounding moves ``t``."""
    t_in, t_out, k_in, k_out = clip_box(px, py, wx, wy, hx, hy, 0.0)
    if t_in > t_out:
        return math.inf, 1.0
    if k_in == 0:
        return t_in, 1.0 / abs(wx)
    if k_in == 1:
        return t_in, 1.0 / abs(wy)
    return t_in, 1.0  # the apex itself is in the box


@njit(cache=True, inline="always")
def _piece(cx, cy, ca, sa, hx, hy, ax, ay, qx, qy, n1x, n1y, off1, n2x, n2y, off2, u1x, u1y, u2x, u2y, guard):
    """One convex piece of a sector — the wedge between the rays ``u1`` and ``u2`` from the
    apex, inside ``n1 . p >= 0`` and ``n2 . p >= 0`` — against a rectangle (centre ``c``,
    axes ``(ca, sa)``, half sizes, all in the sector frame; ``a``: the apex in the
    rectangle's frame; ``q``: the rectangle's point closest to the apex).

    Returns ``(state, distance, x, y, condition)``: OUT when the rectangle does not reach
    inside the lines moved in by ``off1``, ``off2`` (the tolerance on the sector's outer
    lines), UNSURE when it reaches within ``guard`` of them, else IN with the closest
    point of the rectangle's part inside the wedge (sector frame). That point is ``q``
    when ``q`` is in the wedge; otherwise it lies on one of the two rays."""
    exx, exy = ca * hx, sa * hx
    eyx, eyy = -sa * hy, ca * hy
    a1 = n1x * cx + n1y * cy - off1
    b1 = n1x * exx + n1y * exy
    c1 = n1x * eyx + n1y * eyy
    a2 = n2x * cx + n2y * cy - off2
    b2 = n2x * exx + n2y * exy
    c2 = n2x * eyx + n2y * eyy
    if a1 + abs(b1) + abs(c1) < -guard or a2 + abs(b2) + abs(c2) < -guard:
        return OUT, math.inf, 0.0, 0.0, 1.0  # wholly beyond one line
    q1 = n1x * qx + n1y * qy
    q2 = n2x * qx + n2y * qy
    if q1 - off1 > guard and q2 - off2 > guard:  # q itself reaches inside: the common case
        return IN, math.sqrt(qx * qx + qy * qy), qx, qy, 1.0
    depth = _wedge_depth(a1, b1, c1, a2, b2, c2)
    if depth < -guard:
        return OUT, math.inf, 0.0, 0.0, 1.0
    if depth <= guard:
        return UNSURE, math.inf, 0.0, 0.0, 1.0
    if q1 >= 0.0 and q2 >= 0.0:
        return IN, math.sqrt(qx * qx + qy * qy), qx, qy, 1.0
    best, bx, by, cond = math.inf, 0.0, 0.0, 1.0
    for k in range(2):
        ux, uy = (u1x, u1y) if k == 0 else (u2x, u2y)
        t, kc = _ray_entry(ax, ay, ux * ca + uy * sa, uy * ca - ux * sa, hx, hy)
        if t < best:
            best, bx, by, cond = t, t * ux, t * uy, kc
    if best == math.inf:
        return UNSURE, math.inf, 0.0, 0.0, 1.0  # rounding disagrees with the depth: let the scalar path say
    return IN, best, bx, by, cond


@njit(cache=True, inline="always")
def sector_rect(fx, fy, fc, fs, mode, ch, sh, x, y, c, s, hx, hy, reach, guard):
    """The closest point to the apex of the part of a rectangle (frame ``(x, y, c, s)``,
    half sizes) inside a sector (frame ``(fx, fy, fc, fs)``: the apex turned to the centre
    line; :func:`sector_shape` ``(mode, ch, sh)``), as
    :func:`geometry.sector.closest_in_sector`: the rectangle must reach more than the
    tolerance inside the sector's outer lines.

    Returns ``(state, distance, aim_x, aim_y, condition, tie)``: state OUT (not in the
    sector, or wholly farther than ``reach`` + ``guard``), UNSURE (within ``guard`` of the
    arc's lines: for the scalar path), or IN with the distance (mm), the aim point (table
    mm), the distance's condition number and ``tie``: a two-piece sector's pieces give
    distances within rounding of each other (which aim point is chosen is then the scalar
    path's call)."""
    cx, cy = to_local(fx, fy, fc, fs, x, y)
    ca = c * fc + s * fs
    sa = s * fc - c * fs
    ax = -(cx * ca + cy * sa)  # the apex in the rectangle's frame
    ay = cx * sa - cy * ca
    lx = min(hx, max(-hx, ax))
    ly = min(hy, max(-hy, ay))
    qx = cx + lx * ca - ly * sa  # the rectangle's point closest to the apex
    qy = cy + lx * sa + ly * ca
    near2 = qx * qx + qy * qy
    if near2 > (reach + guard) * (reach + guard):
        return OUT, math.inf, math.nan, math.nan, 1.0, False
    if mode == 0:
        return IN, math.sqrt(near2), fx + fc * qx - fs * qy, fy + fs * qx + fc * qy, 1.0, False
    if mode == 1:
        state, d, px, py, cond = _piece(cx, cy, ca, sa, hx, hy, ax, ay, qx, qy, sh, ch, TOL, sh, -ch, TOL,
                                        ch, -sh, ch, sh, guard)
        tie = False
    else:
        s1, d1, x1, y1, k1 = _piece(cx, cy, ca, sa, hx, hy, ax, ay, qx, qy, sh, ch, TOL, 0.0, -1.0, 0.0,
                                    ch, -sh, 1.0, 0.0, guard)
        s2, d2, x2, y2, k2 = _piece(cx, cy, ca, sa, hx, hy, ax, ay, qx, qy, 0.0, 1.0, 0.0, sh, -ch, TOL,
                                    1.0, 0.0, ch, sh, guard)
        if s1 == UNSURE or s2 == UNSURE:
            return UNSURE, math.inf, math.nan, math.nan, 1.0, False
        tie = s1 == IN and s2 == IN and abs(d1 - d2) <= guard * max(k1, k2)
        if s1 == IN and (s2 != IN or d1 <= d2):
            state, d, px, py, cond = s1, d1, x1, y1, k1
        else:
            state, d, px, py, cond = s2, d2, x2, y2, k2
    if state != IN:
        return state, math.inf, math.nan, math.nan, 1.0, False
    return IN, d, fx + fc * px - fs * py, fy + fs * px + fc * py, cond, tie


@njit(cache=True)
def band_code(state, d, cond, limits, guard):
    """In how many of the nested distance bands ``limits`` (increasing, mm) a
    :func:`sector_rect` answer lies (``len(limits)``: the first; 0: none, or OUT), or
    UNSURE within ``guard`` times its condition of a limit."""
    if state != IN:
        return state  # OUT is 0, UNSURE stays
    g = guard * cond
    count = 0
    for b in range(limits.shape[0]):
        if abs(d - limits[b]) <= g:
            return UNSURE
        if d <= limits[b]:
            count += 1
    return count


# -- position bins -------------------------------------------------------------------------
@njit(cache=True)
def max_diagonal(halves):
    """The largest half diagonal of rectangles with half sizes ``halves`` ``(N, 2)``."""
    best = 0.0
    for i in range(halves.shape[0]):
        best = max(best, math.sqrt(halves[i, 0] * halves[i, 0] + halves[i, 1] * halves[i, 1]))
    return best


@njit(cache=True)
def bins(points, side):
    """Sort points (the first two columns of ``points``) into square cells of at least
    ``side`` mm (a counting sort, stable): returns ``(order, starts, x0, y0, nx, ny,
    side)``; the points of cell ``(i, j)`` are ``order[starts[j * nx + i]:starts[j * nx +
    i + 1]]``, in increasing index."""
    n = points.shape[0]
    x0 = x1 = points[0, 0]
    y0 = y1 = points[0, 1]
    for j in range(n):
        x0, x1 = min(x0, points[j, 0]), max(x1, points[j, 0])
        y0, y1 = min(y0, points[j, 1]), max(y1, points[j, 1])
    side = max(side, (x1 - x0) / MAX_CELLS, (y1 - y0) / MAX_CELLS, 1e-3)
    nx = min(int((x1 - x0) / side) + 1, MAX_CELLS + 1)
    ny = min(int((y1 - y0) / side) + 1, MAX_CELLS + 1)
    starts = np.zeros(nx * ny + 1, np.int64)
    cell = np.empty(n, np.int64)
    for j in range(n):
        i_x = min(int((points[j, 0] - x0) / side), nx - 1)
        i_y = min(int((points[j, 1] - y0) / side), ny - 1)
        cell[j] = i_y * nx + i_x
        starts[cell[j] + 1] += 1
    for k in range(nx * ny):
        starts[k + 1] += starts[k]
    fill = starts[:-1].copy()
    order = np.empty(n, np.int64)
    for j in range(n):
        order[fill[cell[j]]] = j
        fill[cell[j]] += 1
    return order, starts, x0, y0, nx, ny, side


@njit(cache=True)
def cell_range(v, radius, v0, side, n):
    """The cells along one axis within ``radius`` of ``v``: ``(first, last)``."""
    lo = max(0, int(math.floor((v - radius - v0) / side)))
    hi = min(n - 1, int(math.floor((v + radius - v0) / side)))
    return lo, hi


@njit(cache=True)
def cell_in_reach(px, py, x0, y0, side, i_x, i_y, radius):
    """Does cell ``(i_x, i_y)`` come within ``radius`` of point ``p``?"""
    bx0 = x0 + i_x * side
    by0 = y0 + i_y * side
    dx = max(bx0 - px, 0.0, px - (bx0 + side))
    dy = max(by0 - py, 0.0, py - (by0 + side))
    return dx * dx + dy * dy <= radius * radius


# -- batch kernels: pairs (one thread; the dogfight turn) ------------------------------------
@njit(cache=True)
def depth_pairs(fa, ha, fb, hb, ia, ib, out):
    """``out[n] = depth(rect ia[n] of a, rect ib[n] of b)`` (mm)."""
    for n in range(out.shape[0]):
        i, j = ia[n], ib[n]
        out[n] = sat_depth(fa[i, 0], fa[i, 1], fa[i, 2], fa[i, 3], ha[i, 0], ha[i, 1],
                           fb[j, 0], fb[j, 1], fb[j, 2], fb[j, 3], hb[j, 0], hb[j, 1])


@njit(cache=True, parallel=True, nogil=True)
def overlap_count_pairs(fa, ha, fb, hb, ia, ib, guard, out):
    """``out[n]``: over every placement ``k`` of rect ``ia[n]`` (``fa[ia[n], k]``) and
    ``m`` of rect ``ib[n]``, how many pairs share area (DF.O1), or UNSURE when one is
    within ``guard`` of touching. ``fa`` ``(Na, Ka, 4)``, ``fb`` ``(Nb, Kb, 4)`` frames;
    ``ha`` ``(Na, Ka, 2)``, ``hb`` ``(Nb, Kb, 2)`` half sizes. Pairs over the cores."""
    for n in prange(out.shape[0]):
        i, j = ia[n], ib[n]
        hits = 0
        for k in range(fa.shape[1]):
            for m in range(fb.shape[1]):
                code = overlap_code(sat_depth(fa[i, k, 0], fa[i, k, 1], fa[i, k, 2], fa[i, k, 3], ha[i, k, 0],
                                              ha[i, k, 1], fb[j, m, 0], fb[j, m, 1], fb[j, m, 2], fb[j, m, 3],
                                              hb[j, m, 0], hb[j, m, 1]), guard)
                if code == UNSURE:
                    hits = UNSURE
                    break
                hits += code
            if hits == UNSURE:
                break
        out[n] = hits


@njit(cache=True)
def crossing_pairs(seg, fr, hr, ia, ib, leaving, guard, out):
    """``out[n]``: edge of rect ``ib[n]`` through which segment ``ia[n]`` (rows
    ``(ax, ay, bx, by)``) leaves (``leaving``) or enters, or UNSURE."""
    for n in range(out.shape[0]):
        i, j = ia[n], ib[n]
        out[n] = crossing_edge(seg[i, 0], seg[i, 1], seg[i, 2], seg[i, 3], fr[j, 0], fr[j, 1], fr[j, 2],
                               fr[j, 3], hr[j, 0], hr[j, 1], leaving, guard)


@njit(cache=True)
def enters_pairs(seg, fr, hr, ia, ib, guard, out):
    """``out[n]``: segment ``ia[n]`` gets more than the tolerance inside rect ``ib[n]``
    (1, 0, UNSURE)."""
    for n in range(out.shape[0]):
        i, j = ia[n], ib[n]
        out[n] = enters_code(seg[i, 0], seg[i, 1], seg[i, 2], seg[i, 3], fr[j, 0], fr[j, 1], fr[j, 2], fr[j, 3],
                             hr[j, 0], hr[j, 1], guard)


@njit(cache=True)
def sector_pairs(fs, half, fr, hr, ia, ib, limits, guard, dist, aim):
    """``dist[n], aim[n]``: closest point of rect ``ib[n]`` inside sector ``ia[n]``
    (frames ``fs``, half-widths ``half``); distance ``inf`` and aim NaN when it is not in
    the sector; distance NaN when the scalar path must decide (within ``guard`` of the
    arc's lines or of a distance in ``limits``, or an ill-conditioned aim point)."""
    for n in range(dist.shape[0]):
        i, j = ia[n], ib[n]
        mode, ch, sh = sector_shape(half[i])
        state, d, x, y, cond, tie = sector_rect(fs[i, 0], fs[i, 1], fs[i, 2], fs[i, 3], mode, ch, sh, fr[j, 0],
                                                fr[j, 1], fr[j, 2], fr[j, 3], hr[j, 0], hr[j, 1], math.inf, guard)
        if state == IN and (tie or cond > COND_MAX or band_code(state, d, cond, limits, guard) == UNSURE):
            state = UNSURE
        dist[n] = math.nan if state == UNSURE else d
        aim[n, 0] = x
        aim[n, 1] = y


# -- batch kernels: grids (every core, binned) ------------------------------------------------
@njit(cache=True)
def row_blocks(n_rows, threads, block):
    """``(blocks, tasks)``: ``block`` rows per block, and one parallel task per thread
    (task t takes blocks t, t + tasks, ...)."""
    blocks = (n_rows + block - 1) // block
    return blocks, max(1, min(blocks, threads))


@njit(cache=True)
def _overlap_row(i, fa, ha, fb, hb, guard, out, order, starts, x0, y0, nx, ny, side, reach):
    """Row ``i`` of :func:`overlap_grid`; returns how many are UNSURE. Only the cells
    within ``reach`` of the row's centre are visited, and in them only the rectangles
    whose centre is: farther, the two are more than 1 mm apart (0)."""
    unsure = 0
    for j in range(fb.shape[0]):
        out[i, j] = 0
    ax, ay = fa[i, 0], fa[i, 1]
    reach2 = reach * reach
    gx0, gx1 = cell_range(ax, reach, x0, side, nx)
    gy0, gy1 = cell_range(ay, reach, y0, side, ny)
    for gy in range(gy0, gy1 + 1):
        for gx in range(gx0, gx1 + 1):
            if not cell_in_reach(ax, ay, x0, y0, side, gx, gy, reach):
                continue
            cell = gy * nx + gx
            for m in range(starts[cell], starts[cell + 1]):
                j = order[m]
                dx = fb[j, 0] - ax
                dy = fb[j, 1] - ay
                if dx * dx + dy * dy > reach2:
                    continue
                code = overlap_code(sat_depth(ax, ay, fa[i, 2], fa[i, 3], ha[i, 0], ha[i, 1], fb[j, 0], fb[j, 1],
                                              fb[j, 2], fb[j, 3], hb[j, 0], hb[j, 1]), guard)
                out[i, j] = code
                if code == UNSURE:
                    unsure += 1
    return unsure


@njit(cache=True)
def overlap_setup(ha, fb, hb):
    """What :func:`overlap_grid` prepares once per call: the bins of b's rectangles
    (:func:`bins`, small cells: a row visits little beyond its reach) and the reach (mm)
    beyond which two rectangles are more than 1 mm apart."""
    reach = 1.0 + max_diagonal(ha) + max_diagonal(hb)
    return bins(fb, reach / 3), reach


@njit(cache=True, parallel=True, nogil=True)
def overlap_grid(fa, ha, fb, hb, guard, threads, out):
    """``out[i, j]``: rect i of a and rect j of b share area (1), not (0), or UNSURE,
    blocks of rows over the cores (``threads``: numba's thread count); only rects of b
    binned near rect i are measured (the others are 0). Returns how many are UNSURE."""
    unsure = 0
    if fa.shape[0] == 0 or fb.shape[0] == 0:
        return unsure
    (order, starts, x0, y0, nx, ny, side), reach = overlap_setup(ha, fb, hb)
    blocks, tasks = row_blocks(fa.shape[0], threads, ROW_BLOCK)
    for t in prange(tasks):
        for b in range(t, blocks, tasks):
            for i in range(b * ROW_BLOCK, min((b + 1) * ROW_BLOCK, fa.shape[0])):
                unsure += _overlap_row(i, fa, ha, fb, hb, guard, out, order, starts, x0, y0, nx, ny, side, reach)
    return unsure


@njit(cache=True)
def may_reach(fx, fy, fc, fs, mode, ch, sh, x, y, radius, margin):
    """A quick test on a rectangle's centre ``(x, y)``: False when it lies farther than
    ``radius`` from the apex, or (one-piece sectors) more than ``margin`` beyond one of
    the sector's lines — so that no point of a rectangle of half diagonal below
    ``margin`` - 1 mm can be in the sector within ``radius`` - ``margin``."""
    dx = x - fx
    dy = y - fy
    if dx * dx + dy * dy > radius * radius:
        return False
    if mode != 1:
        return True
    u = fc * dx + fs * dy
    v = fc * dy - fs * dx
    return sh * u + ch * v >= -margin and sh * u - ch * v >= -margin


@njit(cache=True)
def _sector_cells(fx, fy, fc, fs, mode, ch, sh, radius, margin, x0, y0, side, nx, ny, starts):
    """The bin cells a sector row must visit: within ``radius`` of the apex and, for a
    one-piece sector, not more than ``margin`` beyond either of its lines (its corners
    all are: the line's value at the centre of the cell, less its largest change over
    half a cell, 1e-6 mm of slack for rounding). Returns the runs of neighbouring cells
    to visit as ranges of the bin order, ``(count, ranges)``: run k is
    ``order[ranges[k, 0]:ranges[k, 1]]``."""
    gx0, gx1 = cell_range(fx, radius, x0, side, nx)
    gy0, gy1 = cell_range(fy, radius, y0, side, ny)
    ranges = np.empty(((gx1 - gx0 + 1) * (gy1 - gy0 + 1) if gx1 >= gx0 and gy1 >= gy0 else 0, 2), np.int64)
    # the lines' normals (into the sector) in the table frame: n . (p - apex) is how far p is inside
    n1x, n1y = sh * fc - ch * fs, sh * fs + ch * fc
    n2x, n2y = sh * fc + ch * fs, sh * fs - ch * fc
    half = side / 2.0
    reach1 = (abs(n1x) + abs(n1y)) * half + margin + 1e-6  # beyond when the centre's value is below -reach1
    reach2 = (abs(n2x) + abs(n2y)) * half + margin + 1e-6
    count = 0
    for gy in range(gy0, gy1 + 1):
        open_run = False
        for gx in range(gx0, gx1 + 1):
            visit = cell_in_reach(fx, fy, x0, y0, side, gx, gy, radius)
            if visit and mode == 1:
                dx = x0 + (gx + 0.5) * side - fx
                dy = y0 + (gy + 0.5) * side - fy
                visit = n1x * dx + n1y * dy >= -reach1 and n2x * dx + n2y * dy >= -reach2
            cell = gy * nx + gx
            if visit and open_run:
                ranges[count - 1, 1] = starts[cell + 1]
            elif visit:
                ranges[count, 0] = starts[cell]
                ranges[count, 1] = starts[cell + 1]
                count += 1
            open_run = visit
    return count, ranges


@njit(cache=True)
def band_thresholds(limits, diagonal):
    """Squared centre distances (mm²) that decide :func:`band_code` without measuring a
    rectangle (half diagonal at most ``diagonal``) whose closest point to the apex lies
    in the sector: ``(inside, beyond)`` ``(len(limits),)``; a centre closer than
    ``inside[b]`` (1 mm inside limit b) is within limit b, one farther than ``beyond[b]``
    (the half diagonal and 1 mm beyond it) is not; in between, measure."""
    inside = np.empty(limits.shape[0])
    beyond = np.empty(limits.shape[0])
    for b in range(limits.shape[0]):
        inside[b] = (limits[b] - 1.0) ** 2 if limits[b] > 1.0 else -1.0
        beyond[b] = (limits[b] + diagonal + 1.0) ** 2
    return inside, beyond


@njit(cache=True)
def _by_centre(i, order, xy, first, end, fx, fy, fc, fs, ch, sh, radius2, margin, no_lines, whole, by_centre,
               inside, beyond, bands, transposed, measure, scratch):
    """The first pass of :func:`_sector_row` over the rectangles ``order[first:end]``
    (neighbouring bin cells; ``xy`` ``(2, N)``: their centres in bin order, mm): writes
    the band of those its centre decides (0 for those out of reach), lists the others in
    ``measure`` and returns how many. ``scratch`` ``(3, N)``: room for the squared centre
    distances, the states and the bands. Loops without branches over contiguous arrays,
    which the compiler runs several rectangles at a time, then one that scatters."""
    n = end - first
    dist2, state, code = scratch[0], scratch[1], scratch[2]
    for t in range(n):
        dx = xy[0, first + t] - fx
        dy = xy[1, first + t] - fy
        d2 = dx * dx + dy * dy
        u = fc * dx + fs * dy
        v = fc * dy - fs * dx
        s1 = sh * u + ch * v  # how far inside each line (mm)
        s2 = sh * u - ch * v
        near = (d2 <= radius2) & (no_lines | ((s1 >= -margin) & (s2 >= -margin)))
        centre_in = by_centre & (whole | ((s1 > 1.0) & (s2 > 1.0)))
        dist2[t] = d2
        state[t] = near + (near & centre_in)  # 0: out of reach, 1: to measure, 2: decided by the centre...
        code[t] = 0.0
    for b in range(inside.shape[0]):
        for t in range(n):
            code[t] += dist2[t] < inside[b]
            unclear = (dist2[t] >= inside[b]) & (dist2[t] <= beyond[b])
            state[t] = state[t] - (state[t] == 2.0) * unclear  # ... unless a limit is too near
    k = 0
    for t in range(n):
        j = order[first + t]
        decided = state[t] == 2.0
        if transposed:
            bands[j, i] = code[t] * decided
        else:
            bands[i, j] = code[t] * decided
        measure[k] = j
        k += state[t] == 1.0
    return k


@njit(cache=True)
def _sector_row(i, fs, half, fr, hr, limits, guard, bands, transposed, want_aim, dist, aim, order, starts, x0, y0,
                nx, ny, side, diagonal, inside, beyond, xy, measure, scratch):
    """Row ``i`` (sector ``i``) of :func:`sector_grid`; returns how many cases it leaves
    to the scalar path. ``measure``: room for one index per rectangle.

    Each binned rectangle is first placed by its centre alone (mm, in the sector frame:
    ``u`` along the centre line, ``v`` to its left): farther than the last limit, its
    half diagonal and 1 mm, or beyond a one-piece sector's line by more than its half
    diagonal and 1 mm (as :func:`may_reach`), it is not in the sector (0). A rectangle
    whose centre lies in the sector more than 1 mm inside the lines at ``half`` either
    side of the centre line — for a two-piece sector (``half`` > 90), the lines at ``180
    - half``, which bound a wedge inside it; in a whole-plane sector, anywhere — reaches
    inside it, and the part inside comes no nearer the apex than the rectangle and no
    farther than its centre: so its band follows from its centre distance unless a limit
    lies within its half diagonal and 1 mm of it (:func:`band_thresholds`). Every other
    one is measured (:func:`sector_rect`). The first pass makes no branch per rectangle
    (it writes every decided code and lists the rest in ``measure``): which way a
    rectangle goes is unpredictable, and a mispredicted branch costs more than the
    arithmetic."""
    unsure = 0
    reach = limits[limits.shape[0] - 1]
    radius = reach + diagonal + 1.0
    radius2 = radius * radius
    margin = diagonal + 1.0
    for j in range(fr.shape[0]):
        if not transposed:
            bands[i, j] = 0
        if want_aim:
            dist[i, j] = math.inf
            aim[i, j, 0] = math.nan
            aim[i, j, 1] = math.nan
    fx, fy, fc, fsn = fs[i, 0], fs[i, 1], fs[i, 2], fs[i, 3]
    mode, ch, sh = sector_shape(half[i])
    no_lines = mode != 1  # no line to test the centre against (may_reach)
    whole = mode == 0  # every centre is in the sector
    by_centre = not want_aim  # the aim point needs the measure
    count, ranges = _sector_cells(fx, fy, fc, fsn, mode, ch, sh, radius, margin, x0, y0, side, nx, ny, starts)
    for c in range(count):
        k = _by_centre(i, order, xy, ranges[c, 0], ranges[c, 1], fx, fy, fc, fsn, ch, sh, radius2,
                       margin, no_lines, whole, by_centre, inside, beyond, bands, transposed, measure, scratch)
        for m in range(k):
            j = measure[m]
            state, d, x, y, cond, tie = sector_rect(fx, fy, fc, fsn, mode, ch, sh, fr[j, 0], fr[j, 1], fr[j, 2],
                                                    fr[j, 3], hr[j, 0], hr[j, 1], reach, guard)
            code = band_code(state, d, cond, limits, guard)
            if want_aim and code > 0 and (tie or cond > COND_MAX):
                code = UNSURE  # which aim point, or where exactly: the scalar path's call
            if transposed:
                bands[j, i] = code
            else:
                bands[i, j] = code
            if code == UNSURE:
                unsure += 1
                if want_aim:
                    dist[i, j] = math.nan
            elif code > 0 and want_aim:
                dist[i, j] = d
                aim[i, j, 0] = x
                aim[i, j, 1] = y
    return unsure


@njit(cache=True)
def sector_setup(fr, hr, limits):
    """What :func:`sector_grid` prepares once per call: the bins of the rectangles
    (:func:`bins`, small cells: a row visits little beyond its arc), their largest half
    diagonal, the :func:`band_thresholds` and the centres in bin order ``(2, N)``."""
    diagonal = max_diagonal(hr)
    radius = limits[limits.shape[0] - 1] + diagonal + 1.0
    order, starts, x0, y0, nx, ny, side = bins(fr, radius / 6)
    inside, beyond = band_thresholds(limits, diagonal)
    xy = np.empty((2, fr.shape[0]))
    for m in range(fr.shape[0]):
        xy[0, m] = fr[order[m], 0]
        xy[1, m] = fr[order[m], 1]
    return order, starts, x0, y0, nx, ny, side, diagonal, inside, beyond, xy


@njit(cache=True, parallel=True, nogil=True)
def sector_grid(fs, half, fr, hr, limits, guard, threads, bands, transposed, want_aim, dist, aim):
    """Every sector ``i`` against every rect ``j``, blocks of rows over the cores
    (``threads``: numba's thread count):
    ``bands[i, j]`` (``bands[j, i]`` when ``transposed``: zeroed here first, over the cores), the
    :func:`band_code` of the closest point of rect ``j`` inside sector ``i`` against the
    nested ``limits`` (``len(limits)`` within the first, 0 beyond the last or outside the
    sector, UNSURE for the scalar path); with ``want_aim`` also ``dist[i, j]`` and
    ``aim[i, j]`` as :func:`sector_pairs` for rects within the last limit (others: inf
    and NaN; NaN distance where the scalar path must decide, also for an ill-conditioned
    aim point). Only rects binned near the apex and the arc are measured. Returns how
    many cases are left to the scalar path."""
    unsure = 0
    if fs.shape[0] == 0 or fr.shape[0] == 0:
        return unsure
    if transposed:  # the rows write only the cells they measure: the others are 0
        for j in prange(fr.shape[0]):
            for i in range(fs.shape[0]):
                bands[j, i] = 0
    order, starts, x0, y0, nx, ny, side, diagonal, inside, beyond, xy = sector_setup(fr, hr, limits)
    block = COLUMN_BLOCK if transposed else ROW_BLOCK
    blocks, tasks = row_blocks(fs.shape[0], threads, block)
    for t in prange(tasks):
        measure = np.empty(fr.shape[0], np.int64)
        scratch = np.empty((3, fr.shape[0]))
        for b in range(t, blocks, tasks):
            for i in range(b * block, min((b + 1) * block, fs.shape[0])):
                unsure += _sector_row(i, fs, half, fr, hr, limits, guard, bands, transposed, want_aim, dist, aim,
                                      order, starts, x0, y0, nx, ny, side, diagonal, inside, beyond, xy, measure,
                                      scratch)
    return unsure
