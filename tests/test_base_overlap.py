"""Bases and the overlap predicate (DF.O1 engine convention: positive shared area)."""
import numpy as np
import pytest
import shapely
from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import bases, local_poses, poses

from furball.geometry.base import Base, penetration_depth_mm, rectangle_corners, rectangles_overlap
from furball.geometry.pose import Pose
from furball.geometry.tolerance import TOLERANCE_MM

B = Base(44.0, 60.0)


def test_marks_and_stand_default_to_edge_middles_and_centre():
    assert B.front_mark_mm == 22.0 and B.rear_mark_mm == -22.0
    assert B.stand.as_array().tolist() == [0.0, 0.0, 0.0]
    corners = B.corners(Pose(0, 0, 0))
    assert corners.tolist() == [[22, -30], [22, 30], [-22, 30], [-22, -30]]
    assert B.polygon(Pose(5, 5, 33)).area == pytest.approx(44 * 60)


def test_bad_base_sizes_are_rejected():
    for args in [(0, 10), (-1, 10), (10, float("nan"))]:
        with pytest.raises(ValueError):
            Base(*args)
    with pytest.raises(ValueError):
        Base(40, 40, front_mark_mm=30)


def test_DF_O1_touching_but_not_overlapping_bases():
    """Engine convention for DF.O1-O3: touching is not overlap."""
    side_by_side = Pose(0, 60, 0)  # shares the whole left edge
    corner_to_corner = Pose(44, 60, 0)
    for other in (side_by_side, corner_to_corner):
        assert not B.overlaps(Pose(), B, other)
    assert B.overlaps(Pose(), B, Pose(0, 60 - 10 * TOLERANCE_MM, 0))
    # touching along an edge stays "not overlapping" after a rotation of the whole scene
    m = Pose(123.4, -56.7, 33.3)
    assert not B.overlaps(m @ Pose(), B, m @ side_by_side)


@given(bases, local_poses, bases, local_poses)
def test_overlap_agrees_with_shapely_away_from_the_boundary(ba, pa, bb, pb):
    depth = float(penetration_depth_mm(pa.as_array(), ba.length_mm, ba.width_mm,
                                       pb.as_array(), bb.length_mm, bb.width_mm)[0])
    assume(abs(depth) > 1e-3)
    # snap to a 1e-6 mm grid: GEOS's floating overlay drops nearly-collinear shared edges
    inter = shapely.intersection(ba.polygon(pa), bb.polygon(pb), grid_size=1e-6).area
    assert (depth > 0) == (inter > 1e-9)


@given(bases, local_poses, bases, local_poses, poses)
def test_overlap_is_symmetric_and_invariant_under_rigid_motion(ba, pa, bb, pb, m):
    d1 = penetration_depth_mm(pa.as_array(), ba.length_mm, ba.width_mm, pb.as_array(), bb.length_mm, bb.width_mm)
    d2 = penetration_depth_mm(pb.as_array(), bb.length_mm, bb.width_mm, pa.as_array(), ba.length_mm, ba.width_mm)
    d3 = penetration_depth_mm((m @ pa).as_array(), ba.length_mm, ba.width_mm,
                              (m @ pb).as_array(), bb.length_mm, bb.width_mm)
    assert np.allclose([d2[0], d3[0]], d1[0], atol=1e-8)
    assert ba.overlaps(pa, bb, pb) == bb.overlaps(pb, ba, pa) == ba.overlaps(m @ pa, bb, m @ pb) \
        or abs(d1[0] - TOLERANCE_MM) < 1e-8


@given(st.lists(st.tuples(local_poses, local_poses), min_size=1, max_size=10))
def test_overlap_batch_equals_single(pairs):
    a = np.array([p.as_array() for p, _ in pairs])
    b = np.array([q.as_array() for _, q in pairs])
    batch = rectangles_overlap(a, 44.0, 60.0, b, 44.0, 60.0)
    assert batch.tolist() == [B.overlaps(p, B, q) for p, q in pairs]
    assert rectangle_corners(a, 44.0, 60.0).shape == (len(pairs), 4, 2)
