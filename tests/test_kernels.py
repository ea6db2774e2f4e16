"""Issue 12: the batch kernels answer exactly as the scalar predicates (same tolerance),
as shapely away from the boundary, on random and near-touching cases (a few tolerances
either side of every boundary), and after any rigid motion of the whole scene.
Issue 26.10: they decide every threshold literally as the scalar path does, ties
included (targets exactly on range limits, arc lines, the ruler's reach, touching)."""
import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from kernel_paths import MODES, compiled_path
from oracles import Board, shot_at, tail_ok
from planes import plane, table
from strategies import poses

from furball.geometry import kernels as gk
from furball.geometry.base import penetration_depth_mm, rectangle_corners
from furball.geometry.pose import Pose, compose_batch, to_table_batch
from furball.geometry.sector import closest_in_sector
from furball.geometry.segments import enters_interior, entry_edge, exit_edge
from furball.geometry.tolerance import TOLERANCE_MM as TOL
from furball.maneuvers.batch import Planes, may_tail, overlaps
from furball.maneuvers.collision import collision_test
from furball.maneuvers.firing import firing_positions
from furball.maneuvers.firing import shot_at as referee_shot_at
from furball.maneuvers.kernels import (
    FIRE_LONG,
    FIRE_NONE,
    FIRE_SHORT,
    Shooters,
    Targets,
    fire_grid,
)
from furball.maneuvers.plane import default_rules
from furball.maneuvers.tailing import tail_check

RULES = default_rules()

OFFSETS = np.array([-3.0, -1.5, -0.5, 0.0, 0.5, 1.5, 3.0]) * TOL
"""Near-touching cases: this far across (or short of) a boundary."""


def _motion(rng, n):
    return np.c_[rng.uniform(-1500, 1500, (n, 2)), rng.uniform(-720, 720, n)]


def _moved(m, p):
    return compose_batch(m, p)


def _overlap_cases(rng, n=3000):
    """Random pairs, plus B touching A along an edge or at a corner, a few tolerances
    in or out, the whole scene then moved anywhere."""
    la, wa = rng.uniform(20, 120, n), rng.uniform(20, 160, n)
    lb, wb = rng.uniform(20, 120, n), rng.uniform(20, 160, n)
    rel = np.c_[rng.uniform(-150, 150, (n, 2)), rng.uniform(0, 360, n)]
    edge = rng.random(n) < 0.6
    quarter = rng.integers(0, 4, n) * 90.0
    delta = rng.choice(OFFSETS, n)
    along = rng.uniform(-10, 10, n)
    # edge to edge: B turned by a quarter, its side at A's front edge +- delta
    half_b = np.where(quarter % 180 == 0, lb, wb) / 2
    rel[edge] = np.c_[la[edge] / 2 + half_b[edge] - delta[edge], along[edge], quarter[edge]]
    m = _motion(rng, n)
    return _moved(m, np.zeros((n, 3))), la, wa, _moved(m, rel), lb, wb


def test_DF_O1_overlap_kernel_answers_as_the_scalar_path_on_random_and_near_touching_pairs():
    pa, la, wa, pb, lb, wb = _overlap_cases(np.random.default_rng(1))
    kernel = gk.overlap_depth(pa, la, wa, pb, lb, wb)
    scalar = penetration_depth_mm(pa, la, wa, pb, lb, wb)
    assert np.array_equal(kernel > TOL, scalar > TOL)
    assert np.allclose(kernel, scalar, atol=1e-9)
    near = np.abs(scalar) < 10 * TOL
    assert near.sum() > 500  # the adversarial cases really sit on the boundary


def test_overlap_kernel_agrees_with_shapely_snapped_away_from_the_boundary():
    pa, la, wa, pb, lb, wb = _overlap_cases(np.random.default_rng(2), 600)
    depth = gk.overlap_depth(pa, la, wa, pb, lb, wb)
    a = shapely.polygons(rectangle_corners(pa, la, wa))
    b = shapely.polygons(rectangle_corners(pb, lb, wb))
    area = shapely.area(shapely.intersection(a, b, grid_size=1e-6))
    clear = np.abs(depth) > 1e-3
    assert np.array_equal((depth > TOL)[clear], (area > 1e-9)[clear])


def test_overlap_kernel_broadcasts_like_numpy_and_grids_match():
    rng = np.random.default_rng(3)
    a = np.c_[rng.uniform(0, 200, (7, 2)), rng.uniform(0, 360, 7)]
    b = np.c_[rng.uniform(0, 200, (5, 2)), rng.uniform(0, 360, 5)]
    scalar = gk.overlap_depth(a[:, None, :], 44.0, 60.0, b[None, :, :], 44.0, 60.0)  # few pairs: the scalar path
    assert scalar.shape == (7, 5)
    ra, rb = gk.Rects.of(a, 44.0, 60.0), gk.Rects.of(b, 44.0, 60.0)
    for mode in MODES:
        with compiled_path(mode):
            outer = gk.overlap_depth(a[:, None, :], 44.0, 60.0, b[None, :, :], 44.0, 60.0)
            assert np.array_equal(outer, gk.depth_grid(ra, rb)) and np.allclose(outer, scalar, atol=1e-9)
            assert np.array_equal(gk.overlap_grid(ra, rb), scalar > TOL)
            assert np.array_equal(outer[2], gk.overlap_depth(a[2], 44.0, 60.0, b, 44.0, 60.0))


def _ruler_cases(rng, n=3000):
    """Segments from inside a rectangle to a point just beside a corner, on an edge, or
    anywhere; the whole scene moved."""
    length, width = rng.uniform(20, 120, n), rng.uniform(20, 160, n)
    corner = rng.integers(0, 4, n)
    signs = np.array([[1, -1], [1, 1], [-1, 1], [-1, -1]], float)[corner]
    hit = signs * np.c_[length, width] / 2
    slide = rng.choice(OFFSETS, n)
    along_x = rng.random(n) < 0.5
    hit[along_x, 0] -= signs[along_x, 0] * slide[along_x]
    hit[~along_x, 1] -= signs[~along_x, 1] * slide[~along_x]
    start = rng.uniform(-0.4, 0.4, (n, 2)) * np.c_[length, width]
    far = start + (hit - start) * rng.uniform(1.2, 4.0, (n, 1))
    loose = rng.random(n) < 0.3
    far[loose] = rng.uniform(-200, 200, (loose.sum(), 2))
    m = _motion(rng, n)
    a = to_table_batch(m, start[:, None, :])[:, 0]
    b = to_table_batch(m, far[:, None, :])[:, 0]
    return a, b, m, length, width


@pytest.mark.parametrize("kernel,scalar", [(gk.exit_edge, exit_edge)])
def test_DF_T1b_exit_edge_kernel_answers_as_the_scalar_path(kernel, scalar):
    a, b, rect, length, width = _ruler_cases(np.random.default_rng(4))
    mine = kernel(a, b, rect, length, width)
    ref = np.array([scalar(a[i], b[i], rect[i], length[i], width[i])[0] for i in range(len(a))])
    assert np.array_equal(mine, ref)
    assert len(set(ref.tolist())) == 5  # front, left, rear, right and corners all occur


def test_DF_T1c_entry_edge_kernel_answers_as_the_scalar_path():
    b, a, rect, length, width = _ruler_cases(np.random.default_rng(5))  # reversed: the segment enters
    mine = gk.entry_edge(a, b, rect, length, width)
    ref = np.array([entry_edge(a[i], b[i], rect[i], length[i], width[i])[0] for i in range(len(a))])
    assert np.array_equal(mine, ref)
    assert len(set(ref.tolist())) == 5
    out, into = gk.ruler_edges(a, b, rect[::-1], length[::-1], width[::-1], rect, length, width)
    assert np.array_equal(into, ref) and np.array_equal(out, gk.exit_edge(a, b, rect[::-1], length[::-1], width[::-1]))


def test_DF_T1d_blocking_kernel_answers_as_the_scalar_path_for_grazing_segments():
    rng = np.random.default_rng(6)
    n = 3000
    length, width = rng.uniform(20, 120, n), rng.uniform(20, 160, n)
    # a segment parallel to an edge, a few tolerances inside or outside it, or through a corner
    y = width / 2 + rng.choice(OFFSETS, n)
    a = np.c_[rng.uniform(-200, 0, n), y]
    b = np.c_[rng.uniform(0, 200, n), y + rng.choice([0.0, 0.0, 1e-7, -1e-7], n)]
    m = _motion(rng, n)
    ta, tb = to_table_batch(m, a[:, None, :])[:, 0], to_table_batch(m, b[:, None, :])[:, 0]
    mine = gk.segment_enters(ta, tb, m, length, width)
    ref = np.array([enters_interior(ta[i], tb[i], m[i], length[i], width[i])[0] for i in range(n)])
    assert np.array_equal(mine, ref)
    assert 0.2 < ref.mean() < 0.8
    skip = rng.random((n, 1)) < 0.5
    assert np.array_equal(gk.segments_blocked(ta, tb, m[:1], length[:1], width[:1], skip),
                          gk.segment_enters(ta, tb, m[:1], length[:1], width[:1]) & ~skip[:, 0])


@pytest.mark.parametrize("half", [45.0, 60.0, 135.0, 180.0])
def test_firing_sector_kernel_answers_as_the_scalar_path_at_the_arc_lines(half):
    """The target's corner on the arc's line, a few tolerances in or out (touching the
    line is not being in the arc), and random targets."""
    rng = np.random.default_rng(int(half))
    n = 1500
    apex = _motion(rng, n)
    length, width = rng.uniform(20, 120, n), rng.uniform(20, 160, n)
    heading = rng.uniform(0, 360, n)
    # put corner 0 of the target on the arc's left line at distance r, shifted by delta across it
    r = rng.uniform(30, 250, n)
    side = np.deg2rad(half) * rng.choice([-1.0, 1.0], n)
    corner = np.c_[r * np.cos(side), r * np.sin(side)]
    normal = np.c_[-np.sin(side), np.cos(side)] * np.sign(side)[:, None]
    corner += normal * rng.choice(OFFSETS, n)[:, None]
    h = np.deg2rad(heading)
    offset = np.c_[np.cos(h) * length / 2 + np.sin(h) * width / 2, np.sin(h) * length / 2 - np.cos(h) * width / 2]
    local = np.c_[corner - offset, heading]  # the target's centre so that corner 0 sits there
    loose = rng.random(n) < 0.3
    local[loose] = np.c_[rng.uniform(-250, 250, (loose.sum(), 2)), rng.uniform(0, 360, loose.sum())]
    target = compose_batch(apex, local)
    dist, aim = gk.closest_in_sector(apex, 0.0, half, target, length, width)
    for i in range(n):
        ref = closest_in_sector(Pose(*apex[i]), 0.0, half, rectangle_corners(target[i], length[i], width[i])[0])
        if ref is None:
            assert not np.isfinite(dist[i])
        else:
            assert abs(ref[0] - dist[i]) < 1e-9 and np.allclose(ref[1], aim[i], atol=1e-9)


@pytest.mark.parametrize("half", [45.0, 135.0])
def test_firing_band_grid_answers_as_the_scalar_path_near_the_range_limits(half):
    """Short/long range bands of every sector against every rectangle, targets placed so
    that their closest point sits a few tolerances either side of 100 and 200 mm; the
    compiled pair loops and the parallel grids."""
    rng = np.random.default_rng(11)
    n = 60
    apex = np.c_[rng.uniform(-5, 5, (n, 2)), rng.uniform(-30, 30, n)]
    # rectangles facing the apex, their near edge at 100 or 200 mm (+- a few tolerances) or anywhere
    r = rng.choice([100.0, 200.0], n) + rng.choice(OFFSETS, n) + 22.0
    a = np.deg2rad(rng.uniform(-50, 50, n))
    rects = np.c_[r * np.cos(a), r * np.sin(a), np.rad2deg(a)]
    loose = rng.random(n) < 0.4
    rects[loose] = np.c_[rng.uniform(-250, 250, (loose.sum(), 2)), rng.uniform(0, 360, loose.sum())]
    limits = np.array([100.0 + TOL, 200.0 + TOL])
    sectors, targets = gk.Sectors.of(apex, 0.0, half), gk.Rects.of(rects, 44.0, 60.0)
    refs = [[closest_in_sector(Pose(*apex[i]), 0.0, half, rectangle_corners(rects[j], 44.0, 60.0)[0])
             for j in range(n)] for i in range(n)]
    for mode in MODES:
        with compiled_path(mode):
            bands = gk.sector_band_grid(sectors, targets, limits)
            dist, aim = gk.sector_grid(sectors, targets, limits)
        for i in range(n):
            for j in range(n):
                ref = refs[i][j]
                d = np.inf if ref is None else ref[0]
                assert bands[i, j] == (2 if d <= limits[0] else 1 if d <= limits[1] else 0), (mode, i, j, d)
                if d <= limits[1]:
                    assert dist[i, j] == d or abs(dist[i, j] - d) < 1e-9 and abs(d - limits[0]) > 1e-6
                    assert np.allclose(aim[i, j], ref[1], atol=1e-9)
                else:
                    assert dist[i, j] == np.inf and np.isnan(aim[i, j]).all()
        assert len(set(bands.ravel().tolist())) == 3


def test_issue_36_transposed_band_grid_needs_no_zeroed_answer():
    """The transposed grid writes only the cells it measures, after zeroing its answer
    itself over the cores: an answer array full of leftovers (reused memory) comes back
    as the grid untransposed."""
    rng = np.random.default_rng(7)
    n = 60
    apex = np.c_[rng.uniform(0, 600, (n, 2)), rng.uniform(0, 360, n)]
    rects = np.c_[rng.uniform(0, 600, (n, 2)), rng.uniform(0, 360, n)]
    sectors, targets = gk.Sectors.of(apex, 0.0, 45.0), gk.Rects.of(rects, 44.0, 60.0)
    limits = np.array([100.0 + TOL, 200.0 + TOL])
    bands = gk.sector_band_grid(sectors, targets, limits)
    leftovers = np.full((n, n), 77, np.int8)
    gk.compiled().sector_grid(sectors.frames, sectors.half, targets.frames, targets.halves, limits, gk.GUARD_MM,
                              gk.threads(), leftovers, True, False, np.empty((0, 0)), np.empty((0, 0, 0)))
    assert np.array_equal(leftovers, bands.T) and (bands == 0).any()


@pytest.mark.parametrize("half", [45.0, 135.0, 180.0])
def test_issue_36_band_grid_decided_by_a_rectangles_centre_answers_as_the_scalar_path(half):
    """Rectangles whose centre lies well inside the arc, at any distance across the two
    range limits (the grid decides most of them from the centre distance alone, measures
    those near a limit): the same bands as the scalar path, transposed too."""
    rng = np.random.default_rng(36)
    n = 50  # 2,500 pairs: the binned parallel grid
    apex = np.c_[rng.uniform(-3, 3, (n, 2)), rng.uniform(-10, 10, n)]
    r, a = rng.uniform(0.0, 260.0, n), np.deg2rad(rng.uniform(-25, 25, n))
    rects = np.c_[r * np.cos(a), r * np.sin(a), rng.uniform(0, 360, n)]
    limits = np.array([100.0 + TOL, 200.0 + TOL])
    sectors, targets = gk.Sectors.of(apex, 0.0, half), gk.Rects.of(rects, 44.0, 60.0)
    bands = gk.sector_band_grid(sectors, targets, limits)
    assert np.array_equal(gk.sector_band_grid(sectors, targets, limits, transposed=True), bands.T)
    for i in range(n):
        for j in range(n):
            ref = closest_in_sector(Pose(*apex[i]), 0.0, half, rectangle_corners(rects[j], 44.0, 60.0)[0])
            d = np.inf if ref is None else ref[0]
            assert bands[i, j] == (2 if d <= limits[0] else 1 if d <= limits[1] else 0), (i, j, d)
    assert len(set(bands.ravel().tolist())) == 3


@settings(max_examples=25)
@given(st.lists(poses, min_size=4, max_size=4), poses)
def test_kernels_are_invariant_under_any_rigid_motion_of_the_scene(scene, motion):
    with compiled_path("pairs"):
        _invariant(scene, motion)


def _invariant(scene, motion):
    p = np.array([q.as_array() for q in scene])
    moved = compose_batch(motion.as_array(), p)
    depth = gk.overlap_depth(p[:2], 44.0, 60.0, p[2:], 44.0, 60.0)
    assert np.array_equal(depth > TOL, gk.overlap_depth(moved[:2], 44.0, 60.0, moved[2:], 44.0, 60.0) > TOL)
    d0, _ = gk.closest_in_sector(p[:2], 0.0, 45.0, p[2:], 44.0, 60.0)
    d1, _ = gk.closest_in_sector(moved[:2], 0.0, 45.0, moved[2:], 44.0, 60.0)
    assert np.array_equal(np.isfinite(d0), np.isfinite(d1))
    assert np.allclose(d0[np.isfinite(d0)], d1[np.isfinite(d1)], atol=1e-6)


def _crowd(seed, n=9):
    rng = np.random.default_rng(seed)
    kinds = [dict(), dict(deck="M", base="large", engines="multi"), dict(autonomous=True)]
    planes = []
    for i in range(n):
        kw = kinds[int(rng.integers(0, 3))] if i % 3 else {}
        planes.append(plane(f"P{i}", *rng.uniform(150, 450, 2), rng.uniform(0, 360), side=f"S{i % 3}",
                            altitude=int(rng.integers(1, 4)), **kw))
    return planes


@pytest.mark.parametrize("seed", range(6))
def test_rule_level_kernels_answer_as_the_scalar_rules_for_every_pair(seed):
    """DF.O1 overlaps, DF.T1/T5-T7 tailing and firing positions (DF.O2, DF.O3) for all
    pairs at once equal the scalar predicates pair by pair."""
    planes = _crowd(seed)
    board = Board(planes)
    rules = table(*planes).rules
    for mode in MODES:
        with compiled_path(mode):
            assert np.array_equal(overlaps(Planes.of(planes)), board.overlap)
            ok = may_tail(Planes.of(planes), rules)
            fire = _fire_table(planes, rules)
        for i, a in enumerate(planes):
            for j, b in enumerate(planes):
                if i == j:
                    continue
                assert ok[i, j] == tail_ok(a, b, planes, rules) == tail_check(a, b, planes, rules).ok
                shot = shot_at(a, b, planes, rules, board)
                assert fire.get((a.name, b.name)) == shot
                assert referee_shot_at(a, b, planes, rules) == shot


def _fire_table(planes, rules) -> dict:
    """The referee's best shot of every pair (:func:`firing_positions`), by names."""
    return {(s.shooter, s.target): s for s in firing_positions(Planes.on_table_of(planes), rules).best}


def test_DF_C3_collision_counts_equal_the_scalar_collision_test():
    from furball.maneuvers.kernels import collision_counts
    from furball.maneuvers.placement import card_motion

    rng = np.random.default_rng(7)
    a_poses = np.c_[rng.uniform(280, 320, (40, 2)), rng.uniform(0, 360, 40)]
    b_poses = np.c_[rng.uniform(280, 320, (40, 2)), rng.uniform(0, 360, 40)]
    a0 = plane("A", 0, 0)
    motions = np.array([card_motion(a0.deck.card(c), a0.base).as_array() for c in a0.deck.collision])
    with compiled_path("pairs"):
        counts = collision_counts(a_poses, motions, 44.0, 60.0, b_poses, motions, 44.0, 60.0)
    for k in range(40):
        test = collision_test(a0.replace(pose=Pose(*a_poses[k])), a0.replace(name="B", pose=Pose(*b_poses[k])))
        assert counts[k] == sum(test.combinations.values())
    assert len(set(counts.tolist())) >= 3


def test_DF_E1_stands_on_table_kernel_answers_as_the_table_at_its_edges():
    """A stand exactly on the edge, within the tolerance, is still on the table."""
    from furball.maneuvers.kernels import stands_on_table

    rng = np.random.default_rng(9)
    t = table(plane("A", 100, 100), width=900.0, height=600.0)
    near_x = np.c_[rng.choice([0.0, 900.0], 200) + rng.choice(OFFSETS * 2, 200), rng.uniform(-10, 610, 200)]
    near_y = np.c_[rng.uniform(-10, 910, 200), rng.choice([0.0, 600.0], 200) + rng.choice(OFFSETS * 2, 200)]
    stands = np.vstack([near_x, near_y])
    mine = stands_on_table(stands, t.width_mm, t.height_mm)
    ref = [t.stand_on_table(t.planes[0].replace(pose=Pose(x, y, 0.0), status="out")) for x, y in stands]
    assert list(mine) == ref and 0 < sum(ref) < len(ref)


# -- issue 26.10: every threshold decided as the scalar path decides it ---------------------------
def _planes_of(a, b, far=True):
    """Shooter/chaser ``a`` and target ``b`` (enemies, same altitude); with ``far`` a
    third plane well away from both, so the blocking path runs too."""
    planes = [a, b]
    if far:
        x, y = a.pose.x_mm, a.pose.y_mm
        planes.append(plane("Far", x - 600.0, y - 600.0, 0.0, side="Neutral"))
    return planes


def _assert_paths_agree(planes):
    """Overlap (DF.O1), tailing (DF.T1, DF.T5-T7) and firing (DF.O2, DF.O3, arcs, range
    bands, blocking) of every ordered pair: the batch kernels as the scalar path, on the
    compiled pair loops and on the parallel grids."""
    board = Board(planes)
    pairs = [(i, j) for i in range(len(planes)) for j in range(len(planes)) if i != j]
    tails = {(i, j): tail_ok(planes[i], planes[j], planes, RULES) for i, j in pairs}
    shots = {(i, j): shot_at(planes[i], planes[j], planes, RULES, board) for i, j in pairs}
    for mode in MODES:
        with compiled_path(mode):
            assert np.array_equal(overlaps(Planes.of(planes)), board.overlap), mode
            ok = may_tail(Planes.of(planes), RULES)
            fire = _fire_table(planes, RULES)
            for i, j in pairs:
                a, b, shot = planes[i], planes[j], shots[i, j]
                assert ok[i, j] == tails[i, j] == tail_check(a, b, planes, RULES).ok, (a.name, b.name, mode)
                assert fire.get((a.name, b.name)) == shot, (a.name, b.name, mode)
                if "Far" in (a.name, b.name):
                    continue
                code = FIRE_NONE if shot is None else FIRE_SHORT if shot.range == "short" else FIRE_LONG
                shooters = Shooters.of(a.pose.as_array()[None], a.base, a.firing_arcs(RULES))
                targets = Targets.of(b.pose.as_array()[None], b.base.length_mm, b.base.width_mm)
                others = [p for p in planes if p.name not in (a.name, b.name)]
                blockers = (np.array([p.pose.as_array() for p in others]).reshape(-1, 3),
                            np.array([p.base.length_mm for p in others]), np.array([p.base.width_mm for p in others]))
                overlap = np.array([[board.overlap[i, j]]])
                assert fire_grid(shooters, targets, RULES, overlap=overlap)[0, 0] == code, (a.name, b.name, mode)
                assert fire_grid(shooters, targets, RULES, blockers, overlap)[0, 0] == code, (a.name, b.name, mode)


THRESHOLDS = ("short range", "long range", "arc edge", "arc corner", "ruler reach", "touching")
motions = st.tuples(st.floats(-1500, 1500), st.floats(-1500, 1500), st.floats(0, 360))


@settings(max_examples=40)
@given(kind=st.sampled_from(THRESHOLDS), motion=motions, angle=st.floats(-40, 40), turn=st.floats(0, 360),
       side=st.sampled_from([-1.0, 1.0]), heading=st.sampled_from([0.0, 45.0, 90.0, 30.0, 17.3]),
       base=st.sampled_from(["small", "large"]))
def test_issue_26_kernels_and_scalar_path_agree_with_targets_exactly_on_every_threshold(kind, motion, angle, turn,
                                                                                       side, heading, base):
    """Targets placed exactly on a threshold, the whole scene then moved anywhere: the
    closest point at short range or at the ruler's reach plus the tolerance (range
    bands), an edge or a corner exactly the tolerance inside an arc line (arc lines),
    stands exactly the ruler plus the tolerance apart (the ruler's reach, DF.T1a), bases
    interpenetrating by exactly the tolerance (DF.O1). Rounding puts each case on either
    side; the kernels must always pick the scalar path's side."""
    shooter = plane("A", 0.0, 0.0, heading, base=base)
    gun = shooter.pose @ shooter.base.stand
    tb = plane("B", 0.0, 0.0, 0.0).base
    hl, hw = tb.length_mm / 2, tb.width_mm / 2
    half = shooter.firing_arcs(RULES)[0][1]
    if kind in ("short range", "long range"):  # the near edge's middle at the limit, facing the gun
        limit = (RULES.short_range_mm if kind == "short range" else RULES.ruler_length_mm) + TOL
        u = np.deg2rad(angle)
        local = (gun @ Pose((limit + hl) * math.cos(u), (limit + hl) * math.sin(u), angle)).as_array()
    elif kind == "arc edge":  # an edge along an arc line, the tolerance inside it
        u = np.deg2rad(side * half)
        r = 60.0 + abs(angle) * 2.0
        out = side * np.array([-math.sin(u), math.cos(u)])
        c = r * np.array([math.cos(u), math.sin(u)]) + (hw - TOL) * out
        local = (gun @ Pose(c[0], c[1], side * half)).as_array()
    elif kind == "arc corner":  # a corner the tolerance inside an arc line
        u = np.deg2rad(side * half)
        r = 60.0 + abs(angle) * 2.0
        inward = -side * np.array([-math.sin(u), math.cos(u)])
        corner = r * np.array([math.cos(u), math.sin(u)]) + TOL * inward
        h = np.deg2rad(turn)
        to_centre = -np.array([math.cos(h) * hl + math.sin(h) * hw, math.sin(h) * hl - math.cos(h) * hw])
        c = corner + to_centre
        local = (gun @ Pose(c[0], c[1], turn)).as_array()
    elif kind == "ruler reach":  # the target's stand straight ahead at the ruler plus the tolerance
        d = RULES.ruler_length_mm + TOL
        u = np.deg2rad(angle / 8)
        local = (shooter.pose @ Pose(d * math.cos(u), d * math.sin(u), angle / 8)).as_array()
    else:  # bases edge to edge, interpenetrating by exactly the tolerance
        quarter = 90.0 * (int(turn) % 4)
        half_b = (hl if quarter % 180 == 0 else hw)
        local = (shooter.pose @ Pose(shooter.base.length_mm / 2 + half_b - TOL, angle / 4, quarter)).as_array()
    m = Pose(*motion)
    a = shooter.replace(pose=m @ shooter.pose, side="Allies")
    b = plane("B", *(m @ Pose(*local)).as_array(), side="Central")
    _assert_paths_agree(_planes_of(a, b))


def test_issue_26_the_tie_cases_of_the_issue_are_decided_as_the_scalar_path():
    """The two ties of issue 26.10, kernel against scalar path: a target whose rear edge
    is 100.000001 mm (short range plus the tolerance) from the gun — short for the
    scalar path (distance 100.00000099999997 mm) — and a base edge exactly the
    tolerance inside an arc line, outside for the scalar path."""
    from furball.maneuvers.placement import place

    ace = plane("Ace", 319.84161436974404, 510.50352984374825, 291.8065442877595, base="large", climb_counters=2,
                last_card="A7", side="Allies")
    boche = plane("Boche", 334.105419337027, 514.056392648732, 111.8065442877595, last_card="A10", side="Central")
    after = [p.replace(pose=place(p.pose, p.deck.card(c), p.base)) for p, c in ((ace, "A13"), (boche, "A1"))]
    shot = shot_at(after[0], after[1], after, RULES)
    assert shot is not None and shot.range == "short" and 100.0 < shot.distance_mm <= 100.0 + TOL
    _assert_paths_agree(after)
    a = plane("Ace", 474.439093604867, 303.70344353404215, 254.69840424138383, side="Allies")
    a = a.replace(pose=place(a.pose, a.deck.card("A1"), a.base))
    b = plane("Blimp", 507.40962086119754, 129.47064371002728, 299.69840424138386, side="Central")
    assert shot_at(a, b, [a, b], RULES) is None
    _assert_paths_agree(_planes_of(a, b))


# -- issue 25.1: the first answer compiles nothing; the cache lives in the user's cache directory ---------
def test_issue_25_a_turn_of_a_few_planes_imports_no_compiler():
    """A dogfight turn of the shipped four-plane example asks only small questions: the
    scalar predicates answer them, numba is never imported (the first answer of a new
    user costs no compilation)."""
    import subprocess
    import sys

    code = """
import contextlib, io, sys
from furball.scenarios.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    assert main(["turn", "furball"]) == 0
assert "numba" not in sys.modules, "numba imported"
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/")
    assert done.returncode == 0, done.stderr


def test_issue_25_compiled_kernels_are_cached_in_the_users_cache_directory_for_this_version(monkeypatch, tmp_path):
    """Not in the source tree (a read-only install works) and keyed by the furball
    version (a cache of another version is never read); NUMBA_CACHE_DIR overrides."""
    from pathlib import Path

    import platformdirs

    import furball

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    path = gk.cache_dir()
    assert path == Path(platformdirs.user_cache_dir("furball", appauthor=False)) / furball.__version__ / "numba"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert gk.cache_dir() == tmp_path
    where = Path(gk.compiled().sector_pairs._cache._cache_path)  # where numba keeps this module's functions
    assert Path(gk.__file__).parent not in where.parents


@pytest.mark.slow
def test_issue_25_furball_warm_fills_an_empty_cache_and_then_only_loads_it(tmp_path):
    """``furball warm`` compiles every kernel into the cache once; a second run, and the
    plan analysis after it, compile nothing (they are much cheaper)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    warm = [str(__import__("pathlib").Path(sys.executable).with_name("furball")), "warm"]
    first = subprocess.run(warm, capture_output=True, text=True, env=env, cwd="/")
    assert first.returncode == 0 and "kernels ready in" in first.stdout and str(tmp_path) in first.stdout
    files = sorted(p.name for p in tmp_path.rglob("*.nbi"))
    assert len(files) >= 8
    again = subprocess.run(warm, capture_output=True, text=True, env=env, cwd="/")
    assert again.returncode == 0 and sorted(p.name for p in tmp_path.rglob("*.nbi")) == files
