"""The compiled loop of :func:`scenarios.dogfight.analysis.evaluate_chunk` (numba),
imported on first use. Self-contained (numba's cache checks only this file): it calls
no jitted function of another file.

One pass over a block of plan pairs: per maneuver, the outcome codes (firing codes both
ways, collision chance) are looked up — maneuvers 1 and 2 in the node x node grids,
maneuver 3 in the block's own grids — and turned into the per-pair metrics, summed with
the enemy plans' weights per enemy first card, and the enemy's own score summed per
first card of the plane.
"""
from __future__ import annotations

from numba import njit

FIRE_LONG, FIRE_SHORT = 1, 2  # maneuvers.kernels codes
N_METRICS = 10  # analysis.METRICS


@njit(cache=True, nogil=True)
def combine(me_n1, me_n2, them_n1, them_n2, g1_ab, g1_ba, g1_p, g1_ov, g2_ab, g2_ba, g2_p, g2_ov,
            l3_ab, l3_ba, l3_p, l3_ov,
            cols, remap, leave_me, leave_them, w_them, first_them, first_me, w_me, sw,
            grouped, their, scores, keep_scores, detail, keep_detail):
    """Fill ``grouped`` ``(R, F, M)``, ``their`` ``(Fm, Q)``, and (when asked)
    ``scores`` ``(R, Q)`` and ``detail`` ``(R, Q, 3, 3)``. ``sw``: score weights
    ``(short, long, collision, leave)``; ``remap``: whether ``cols[r, j]`` is the plan
    the enemy flies instead of ``j``."""
    n_rows, q = l3_ab.shape
    for r in range(n_rows):
        for j in range(q):
            jj = cols[r, j] if remap else j
            gs = 0
            gl = 0
            ts = 0
            tl = 0
            ov = 0
            ec = 0.0
            none = 1.0
            for k in range(3):
                if k == 0:
                    u, v = me_n1[r], them_n1[jj]
                    a, b, p, o = g1_ab[u, v], g1_ba[u, v], g1_p[u, v], g1_ov[u, v]
                elif k == 1:
                    u, v = me_n2[r], them_n2[jj]
                    a, b, p, o = g2_ab[u, v], g2_ba[u, v], g2_p[u, v], g2_ov[u, v]
                else:
                    a, b, p, o = l3_ab[r, jj], l3_ba[r, jj], l3_p[r, jj], l3_ov[r, jj]
                gs += a == FIRE_SHORT
                gl += a == FIRE_LONG
                ts += b == FIRE_SHORT
                tl += b == FIRE_LONG
                ec += p
                none *= 1.0 - p
                ov += o
                if keep_detail:
                    detail[r, j, k, 0] = a
                    detail[r, j, k, 1] = b
                    detail[r, j, k, 2] = p
            mine = sw[0] * gs + sw[1] * gl
            theirs = sw[0] * ts + sw[1] * tl
            score = mine - theirs - sw[2] * ec
            w = w_them[j]
            f = first_them[j]
            grouped[r, f, 0] += w * gs
            grouped[r, f, 1] += w * gl
            grouped[r, f, 2] += w * ts
            grouped[r, f, 3] += w * tl
            grouped[r, f, 4] += w * ec
            grouped[r, f, 5] += w * (1.0 - none)
            grouped[r, f, 6] += w * ov
            grouped[r, f, 7] += w * leave_them[jj]
            grouped[r, f, 8] += w * leave_me[r]
            grouped[r, f, 9] += w * score
            their[first_me[r], j] += w_me[r] * (theirs - mine - sw[2] * ec - sw[3] * leave_them[jj])
            if keep_scores:
                scores[r, j] = score


@njit(cache=True, nogil=True)
def apply_rules(overlap, fire_ab, fire_ba, alt_a, status_a, alt_b, status_b, fire_difference, test):
    """The turn's rules on one moment's geometry, in place (DF.O1, DF.O2, DF.C1): bases
    overlap only when both are on the table; firing needs both flying, at most
    ``fire_difference`` levels apart, not overlapping; ``test[i, j]``: the pair takes the
    collision test (overlapping, same altitude, at least one flying). Status codes:
    0 flying, 1 landed, 2 out."""
    for i in range(overlap.shape[0]):
        for j in range(overlap.shape[1]):
            on = status_a[i] != 2 and status_b[j] != 2
            ov = overlap[i, j] and on
            overlap[i, j] = ov
            fly = status_a[i] == 0 and status_b[j] == 0
            if not fly or ov or abs(alt_a[i] - alt_b[j]) > fire_difference:
                fire_ab[i, j] = 0
                fire_ba[i, j] = 0
            test[i, j] = ov and alt_a[i] == alt_b[j] and (status_a[i] == 0 or status_b[j] == 0)
