"""The compiled loops of the plan analysis (:mod:`scenarios.dogfight.analysis`, numba),
loaded on first use through :func:`geometry.kernels.load_compiled`. Self-contained
(numba's cache checks only this file): it calls no jitted function of another file, and
the codes it shares with ``analysis.py`` — the metric columns, the node status codes,
the firing codes — are named here (tests/test_analyze.py checks that both files agree).

Loops over every core (numba ``prange``):

* :func:`apply_rules`: the turn's rules on one moment's geometry (who may fire, which
  overlaps count, how many pairs take the collision test; :func:`collision_pairs` lists
  them);
* :func:`combine`: one pass over a block of plan pairs — per pair the three maneuvers'
  outcomes (maneuvers 1 and 2 from the :data:`Early` sums of the plan tree's level-2
  nodes, maneuver 3 from the block's own grids) turned into the metrics, summed with the
  enemy plans' weights per enemy first card, and, when asked, each pair's scores.
  Parallel over the plane's plans: each writes its own rows;
* :func:`their_sums`: the enemy's own score summed per first card of the plane, over
  the rows in order. Parallel over the enemy's plans: each writes its own columns.

Every sum runs in plan order, whatever the number of cores: the answers do not depend
on it.
"""
from __future__ import annotations

from collections import namedtuple

from numba import njit, prange

(GIVEN_SHORT, GIVEN_LONG, TAKEN_SHORT, TAKEN_LONG, COLLISIONS, P_COLLISION, OVERLAPS, THEY_LEAVE, LEAVES,
 SCORE) = range(10)
"""Metric columns of ``grouped`` (``analysis.METRICS``, in order)."""
N_METRICS = 10

FLYING, LANDED, OUT = 0, 1, 2
"""Node status codes (``analysis.FLYING``, ``LANDED``, ``OUT``)."""

FIRE_NONE, FIRE_LONG, FIRE_SHORT = 0, 1, 2
"""Firing codes (``maneuvers.kernels.FIRE_NONE``, ...)."""

Moment = namedtuple("Moment", "fire_ab fire_ba p_collision overlap")
"""One maneuver's outcome grids, plane poses x enemy poses: firing codes both ways
(int8), the collision chance (float32), the bases overlap (int8)."""

Early = namedtuple("Early", "given_short given_long taken_short taken_long collisions no_collision overlaps")
"""Maneuvers 1 and 2 summed, per pair of level-2 nodes (the plane's x the enemy's):
firing positions (int8 counts), expected collisions (float64), the chance of no
collision (float64, a product), overlaps (int8)."""

Rows = namedtuple("Rows", "node2 first weights leaves")
"""Plans of one side: level-2 node, first-card group, weight, leaves the table (0/1 float)."""

Groups = namedtuple("Groups", "order starts runs group_runs")
"""The enemy's plans by first-card group: group g is ``order[starts[g]:starts[g + 1]]``.
When ``order`` is the identity (plans listed by first card, as the plan trees list
them), ``runs`` cuts the plans into runs sharing a level-2 node (run k is plans
``runs[k]:runs[k + 1]``; every group start is a cut) and group g is runs
``group_runs[g]:group_runs[g + 1]``; otherwise both are empty."""

Weights = namedtuple("Weights", "short long collision leave")
"""The score weights (``analysis.ScoreWeights``)."""


@njit(cache=True, inline="always")  # one test per cell of two loops: a call would cost more
def collision_test(overlap, alt_a, status_a, alt_b, status_b):
    """DF.C1: a pair, its ``overlap`` (bool) already decided, takes the collision test:
    overlapping, at the same altitude, at least one flying. No branch: the callers' loops
    over cells stay free of them."""
    return overlap & (alt_a == alt_b) & ((status_a == FLYING) | (status_b == FLYING))


@njit(cache=True, parallel=True, nogil=True)
def apply_rules(moment, alt_a, status_a, alt_b, status_b, fire_difference, counts):
    """The turn's rules on one moment's geometry, in place (DF.O1, DF.O2): bases overlap
    only when both are on the table; firing needs both flying, at most
    ``fire_difference`` levels apart, not overlapping; no collision chance yet (every
    cell of ``p_collision`` set to 0). ``counts[i]``: how many pairs of row i take the
    collision test (:func:`collision_test`). Rows over the cores; no branch per cell
    (the compiler can then work on several cells at once)."""
    overlap, fire_ab, fire_ba, p_collision = moment.overlap, moment.fire_ab, moment.fire_ba, moment.p_collision
    for i in prange(overlap.shape[0]):  # the same work in every row: halves balance
        on_a = status_a[i] != OUT
        flying_a = status_a[i] == FLYING
        alt = alt_a[i]
        tests = 0
        for j in range(overlap.shape[1]):
            p_collision[i, j] = 0.0
            flying_b = status_b[j] == FLYING
            ov = (overlap[i, j] != 0) & on_a & (status_b[j] != OUT)
            overlap[i, j] = ov
            fires = flying_a & flying_b & (not ov) & (abs(alt - alt_b[j]) <= fire_difference)
            fire_ab[i, j] = fire_ab[i, j] * fires  # FIRE_NONE where it may not fire
            fire_ba[i, j] = fire_ba[i, j] * fires
            tests += collision_test(ov, alt, status_a[i], alt_b[j], status_b[j])
        counts[i] = tests


@njit(cache=True, parallel=True, nogil=True)
def collision_pairs(overlap, alt_a, status_a, alt_b, status_b, starts, rows, cols):
    """The pairs that take the collision test (:func:`collision_test`, after
    :func:`apply_rules`), row by row (``starts``: where each row's begin in
    ``rows``/``cols``, from its counts), in row-major order; rows over the cores. A row
    whose count is 0 is not read."""
    for i in prange(overlap.shape[0]):
        k = starts[i]
        if k == starts[i + 1]:
            continue  # none in this row
        for j in range(overlap.shape[1]):
            if overlap[i, j] != 0 and collision_test(True, alt_a[i], status_a[i], alt_b[j], status_b[j]):  # most do not
                rows[k] = i
                cols[k] = j
                k += 1


@njit(cache=True, parallel=True, nogil=True)
def combine(me, them, groups, early, last, sw, remap, grouped, mine, theirs):
    """Sum a block of plan pairs (the plane's plans ``me`` x all the enemy's ``them``).

    ``early``: :data:`Early` of the level-2 nodes; ``last``: :data:`Moment` of maneuver
    3, block rows x enemy plans; ``sw``: :data:`Weights`; ``remap`` ``(R, Q)``: the
    enemy flies plan ``remap[r, j]`` instead of ``j`` (a reveal; ``(0, 0)``: none).
    Fills ``grouped`` ``(R, F, N_METRICS)`` (weighted sums per enemy first-card group;
    every cell written) and, when they have rows, ``mine`` and ``theirs`` ``(R, Q)``:
    each pair's score for the plane (without its leaving penalty) and for the enemy (its
    own view, its leaving penalty included; :func:`their_sums` adds them up). Rows over
    the cores: each row's sums run in plan order, whatever the number of cores. Without a
    reveal, on runs of plans (``groups.runs``), the same sums in the same order with no
    lookup per pair (:func:`_combine_row_runs`)."""
    if them.node2.shape[0] == 0:  # no enemy plan: every sum is 0
        grouped[:] = 0.0
        return
    by_runs = groups.runs.shape[0] > 0 and remap.shape[0] == 0
    for r in prange(last.fire_ab.shape[0]):
        if by_runs:
            _combine_row_runs(r, me, them, groups, early, last, sw, grouped, mine, theirs)
        else:
            _combine_row(r, me, them, groups, early, last, sw, remap, grouped, mine, theirs)


@njit(cache=True, inline="always")  # once per plan pair: a call would cost more
def _early_sums(early, u, v):
    """The :data:`Early` sums of the pair of level-2 nodes ``(u, v)``."""
    return (early.given_short[u, v], early.given_long[u, v], early.taken_short[u, v], early.taken_long[u, v],
            early.collisions[u, v], early.no_collision[u, v], early.overlaps[u, v])


@njit(cache=True, inline="always")  # once per plan pair: a call would cost more
def _pair(e, last, r, jj, sw):
    """One plan pair's metrics: the early sums ``e`` (:func:`_early_sums`) and maneuver
    3's cell ``(r, jj)`` of ``last``. Returns firing positions given (short, long) and
    taken, expected collisions, the chance of none, overlaps, and the pair's score for
    the plane and for the enemy (without collisions or leaving)."""
    a = last.fire_ab[r, jj]
    b = last.fire_ba[r, jj]
    p = last.p_collision[r, jj]
    gs = e[0] + (a == FIRE_SHORT)
    gl = e[1] + (a == FIRE_LONG)
    ts = e[2] + (b == FIRE_SHORT)
    tl = e[3] + (b == FIRE_LONG)
    ec = e[4] + p
    none = e[5] * (1.0 - p)
    ov = e[6] + last.overlap[r, jj]
    return gs, gl, ts, tl, ec, none, ov, sw.short * gs + sw.long * gl, sw.short * ts + sw.long * tl


@njit(cache=True)
def _combine_row(r, me, them, groups, early, last, sw, remap, grouped, mine, theirs):
    """:func:`combine` for row ``r`` (the enemy has plans): the sums group by group, then (when kept) each
    pair's scores in a loop of their own (a store in the summing loop, even one never
    made, slows it). The enemy's plans come in runs sharing a level-2 node (the same
    first two cards): the :data:`Early` sums of the pair's level-2 nodes are read once
    per run, not once per pair (the same values)."""
    moved = remap.shape[0] > 0
    u = me.node2[r]
    my_leave = me.leaves[r]
    v_read = them.node2[0]  # the enemy's level-2 node whose early sums are read
    e = _early_sums(early, u, v_read)
    for g in range(groups.starts.shape[0] - 1):
        given_s = given_l = taken_s = taken_l = collisions = p_any = overlaps = leave_them = leave_me = 0.0
        total = 0.0
        for m in range(groups.starts[g], groups.starts[g + 1]):
            j = groups.order[m]
            jj = remap[r, j] if moved else j
            v = them.node2[jj]
            if v != v_read:
                v_read = v
                e = _early_sums(early, u, v)
            gs, gl, ts, tl, ec, none, ov, score_mine, score_theirs = _pair(e, last, r, jj, sw)
            score = score_mine - score_theirs - sw.collision * ec
            w = them.weights[j]
            given_s += w * gs
            given_l += w * gl
            taken_s += w * ts
            taken_l += w * tl
            collisions += w * ec
            p_any += w * (1.0 - none)
            overlaps += w * ov
            leave_them += w * them.leaves[jj]
            leave_me += w * my_leave
            total += w * score
        grouped[r, g, GIVEN_SHORT] = given_s
        grouped[r, g, GIVEN_LONG] = given_l
        grouped[r, g, TAKEN_SHORT] = taken_s
        grouped[r, g, TAKEN_LONG] = taken_l
        grouped[r, g, COLLISIONS] = collisions
        grouped[r, g, P_COLLISION] = p_any
        grouped[r, g, OVERLAPS] = overlaps
        grouped[r, g, THEY_LEAVE] = leave_them
        grouped[r, g, LEAVES] = leave_me
        grouped[r, g, SCORE] = total
    if mine.shape[0] == 0 and theirs.shape[0] == 0:
        return
    for j in range(them.node2.shape[0]):
        jj = remap[r, j] if moved else j
        _, _, _, _, ec, _, _, score_mine, score_theirs = _pair(_early_sums(early, u, them.node2[jj]), last, r, jj, sw)
        if mine.shape[0] > 0:
            mine[r, j] = score_mine - score_theirs - sw.collision * ec
        if theirs.shape[0] > 0:
            theirs[r, j] = score_theirs - score_mine - sw.collision * ec - sw.leave * them.leaves[jj]


@njit(cache=True)
def _combine_row_runs(r, me, them, groups, early, last, sw, grouped, mine, theirs):
    """:func:`_combine_row` without a reveal, on the runs of enemy plans sharing a
    level-2 node (``groups.runs``): the :data:`Early` sums read once per run, and within
    a run the plans one after another, with no index to look up and no test per pair.
    Every sum adds the same terms in the same order as :func:`_combine_row`: the same
    answers, to the bit (tests check). The sums and their stores are written out here
    as there: shared through inlined helpers (the sums as a tuple, or only the stores
    and the pair scores) this loop measured 10-15 % slower."""
    runs, group_runs = groups.runs, groups.group_runs
    u = me.node2[r]
    my_leave = me.leaves[r]
    for g in range(group_runs.shape[0] - 1):
        given_s = given_l = taken_s = taken_l = collisions = p_any = overlaps = leave_them = leave_me = 0.0
        total = 0.0
        for k in range(group_runs[g], group_runs[g + 1]):
            e = _early_sums(early, u, them.node2[runs[k]])
            for j in range(runs[k], runs[k + 1]):
                gs, gl, ts, tl, ec, none, ov, score_mine, score_theirs = _pair(e, last, r, j, sw)
                score = score_mine - score_theirs - sw.collision * ec
                w = them.weights[j]
                given_s += w * gs
                given_l += w * gl
                taken_s += w * ts
                taken_l += w * tl
                collisions += w * ec
                p_any += w * (1.0 - none)
                overlaps += w * ov
                leave_them += w * them.leaves[j]
                leave_me += w * my_leave
                total += w * score
        grouped[r, g, GIVEN_SHORT] = given_s
        grouped[r, g, GIVEN_LONG] = given_l
        grouped[r, g, TAKEN_SHORT] = taken_s
        grouped[r, g, TAKEN_LONG] = taken_l
        grouped[r, g, COLLISIONS] = collisions
        grouped[r, g, P_COLLISION] = p_any
        grouped[r, g, OVERLAPS] = overlaps
        grouped[r, g, THEY_LEAVE] = leave_them
        grouped[r, g, LEAVES] = leave_me
        grouped[r, g, SCORE] = total
    if mine.shape[0] == 0 and theirs.shape[0] == 0:
        return
    for k in range(runs.shape[0] - 1):
        e = _early_sums(early, u, them.node2[runs[k]])
        for j in range(runs[k], runs[k + 1]):
            _, _, _, _, ec, _, _, score_mine, score_theirs = _pair(e, last, r, j, sw)
            if mine.shape[0] > 0:
                mine[r, j] = score_mine - score_theirs - sw.collision * ec
            if theirs.shape[0] > 0:
                theirs[r, j] = score_theirs - score_mine - sw.collision * ec - sw.leave * them.leaves[j]


THEIR_COLUMNS = 256
"""Enemy plans per task of :func:`their_sums`."""


@njit(cache=True, parallel=True, nogil=True)
def their_sums(first, weights, theirs, their):
    """Add the enemy's pair scores ``theirs`` ``(R, Q)`` (:func:`combine`), weighted by
    the plane's plan ``weights`` ``(R,)``, to ``their`` ``(Fm, Q)`` per first card of the
    plane (``first`` ``(R,)``). Blocks of enemy plans over the cores: each sum runs over
    the rows in order, whatever the number of cores."""
    q = theirs.shape[1]
    for block in prange((q + THEIR_COLUMNS - 1) // THEIR_COLUMNS):
        end = min(q, (block + 1) * THEIR_COLUMNS)
        for r in range(theirs.shape[0]):
            f, w = first[r], weights[r]
            for j in range(block * THEIR_COLUMNS, end):
                their[f, j] += w * theirs[r, j]


@njit(cache=True, parallel=True, nogil=True)
def collision_chance(p_collision, starts, rows, cols, hits, combinations):
    """DF.C3 into the grid: ``p_collision[rows[k], cols[k]] = hits[k] / combinations``
    for the pairs of :func:`collision_pairs` (row ``i``'s are ``starts[i]:starts[i +
    1]``), the chance computed in float64 and stored as the grid's float32. Rows over
    the cores (each writes its own row)."""
    for i in prange(starts.shape[0] - 1):
        for k in range(starts[i], starts[i + 1]):
            p_collision[rows[k], cols[k]] = hits[k] / combinations


@njit(cache=True, parallel=True, nogil=True)
def early_sums(up_me, up_them, first, second, early):
    """Fill ``early`` (:data:`Early`, arrays of level-2 nodes: the plane's x the
    enemy's) from the :data:`Moment` grids of maneuver 1 (``first``, level-1 nodes;
    ``up_me[u]``, ``up_them[v]``: the level-1 node above level-2 node u, v) and
    maneuver 2 (``second``): firing positions and overlaps counted, the collision
    chances added and the chance of none multiplied in float64. Rows over the cores."""
    fire_ab1, fire_ba1, p1_grid, overlap1 = first.fire_ab, first.fire_ba, first.p_collision, first.overlap
    fire_ab2, fire_ba2, p2_grid, overlap2 = second.fire_ab, second.fire_ba, second.p_collision, second.overlap
    given_short, given_long, taken_short, taken_long = (early.given_short, early.given_long, early.taken_short,
                                                        early.taken_long)
    collisions, no_collision, overlaps = early.collisions, early.no_collision, early.overlaps
    for u in prange(up_me.shape[0]):  # the arrays taken out of the tuples first, as apply_rules does
        a = up_me[u]
        for v in range(up_them.shape[0]):
            b = up_them[v]
            ab1, ba1, ab2, ba2 = fire_ab1[a, b], fire_ba1[a, b], fire_ab2[u, v], fire_ba2[u, v]
            given_short[u, v] = (ab1 == FIRE_SHORT) + (ab2 == FIRE_SHORT)
            given_long[u, v] = (ab1 == FIRE_LONG) + (ab2 == FIRE_LONG)
            taken_short[u, v] = (ba1 == FIRE_SHORT) + (ba2 == FIRE_SHORT)
            taken_long[u, v] = (ba1 == FIRE_LONG) + (ba2 == FIRE_LONG)
            p1, p2 = float(p1_grid[a, b]), float(p2_grid[u, v])
            collisions[u, v] = p1 + p2
            no_collision[u, v] = (1.0 - p1) * (1.0 - p2)
            overlaps[u, v] = overlap1[a, b] + overlap2[u, v]


@njit(cache=True, parallel=True, nogil=True)
def group_totals(grouped, totals):
    """``totals[r, m]``: the sum of ``grouped[r, :, m]`` ``(R, F, M)`` over the groups,
    added in group order from the first (as numpy's ``grouped.sum(axis=1)``, to the
    bit). Rows over the cores."""
    for r in prange(grouped.shape[0]):
        for m in range(grouped.shape[2]):
            total = grouped[r, 0, m]
            for g in range(1, grouped.shape[1]):
                total += grouped[r, g, m]
            totals[r, m] = total
