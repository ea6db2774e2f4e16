"""Intermediate poses of a maneuver: both marks ride the arrow's centreline."""
import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import bases, cards, poses

from furball.geometry.base import Base
from furball.geometry.pose import Pose
from furball.maneuvers import shipped_decks
from furball.maneuvers.card import Anchor, Arc, ManeuverCard, Straight
from furball.maneuvers.path import CARD_MIN_LENGTH_MM, _point_at, arrow_points, card_outline, centreline, path_poses
from furball.maneuvers.placement import place

B = Base(44.0, 60.0)


@given(poses, cards(), bases)
def test_last_sample_is_the_placement_and_first_is_the_start(start, card, base):
    samples = path_poses(start, card, base)
    assert Pose.from_array(samples.poses[0]).isclose(start, 1e-7)
    assert Pose.from_array(samples.poses[-1]).isclose(place(start, card, base), 1e-6)
    assert np.all(np.diff(samples.travel_mm) >= 0)
    assert samples.poses.shape == (len(samples.travel_mm), 3)


def _centreline_line(card, lead_in, tail):
    pieces, _ = centreline(card, lead_in_mm=lead_in)
    end = pieces[-1].s0_mm + tail
    s = np.arange(-lead_in, end + 0.005, 0.005)
    pts, _ = _point_at(pieces, s)
    return shapely.LineString(pts)


@settings(max_examples=25)
@given(st.lists(st.one_of(st.builds(Straight, st.floats(5, 80)),
                          st.builds(Arc, st.floats(30, 150), st.floats(-120, 120).filter(lambda a: abs(a) > 1))),
                min_size=1, max_size=2))
@pytest.mark.slow
def test_both_marks_ride_the_extended_centreline_one_length_apart(segments):
    """DF.M2/DF.M3 in motion: front and rear marks stay on the (extended) arrow."""
    card = ManeuverCard.from_path("X", "x", segments)
    samples = path_poses(Pose(), card, B, step_mm=5.0)
    line = _centreline_line(card, B.length_mm, B.length_mm * 3)
    frame = Pose.forward(B.front_mark_mm)  # arrow-start frame seen from the start pose
    for row in samples.poses:
        p = Pose.from_array(row)
        rear = frame.inverse().apply(p.apply([B.rear_mark_mm, 0.0]))
        front = frame.inverse().apply(p.apply([B.front_mark_mm, 0.0]))
        assert line.distance(shapely.Point(rear)) < 1e-3
        assert line.distance(shapely.Point(front)) < 1e-3
        assert math.dist(rear, front) == __import__("pytest").approx(B.length_mm)


def test_straight_path_samples_slide_along_the_axis():
    card = ManeuverCard.from_path("S", "s", [Straight(40.0)])
    samples = path_poses(Pose(), card, B, step_mm=1.0)
    assert samples.travel_mm[-1] == 44.0 + 40.0
    assert np.allclose(samples.poses[:, 1], 0) and np.allclose(samples.poses[:, 2], 0)
    assert np.allclose(samples.poses[:, 0], samples.travel_mm)  # centre moves with the rear mark


def test_DF_M4_stall_path_stays_in_place_and_arrow_is_a_point():
    stall = shipped_decks()["A"].card("A13")
    samples = path_poses(Pose(10, 20, 30), stall, B)
    assert np.allclose(samples.poses, [10, 20, 30])
    assert arrow_points(Pose(10, 20, 30), stall, B).shape == (1, 2)


def test_arrow_is_laid_from_the_front_mark():
    card = shipped_decks()["A"].card("A4")
    pts = arrow_points(Pose(0, 0, 90), card, B)
    assert np.allclose(pts[0], [0.0, 22.0])
    tip = Pose(0, 0, 90) @ Pose.forward(22.0) @ card.arrow_end
    assert np.allclose(pts[-1], [tip.x_mm, tip.y_mm])


@given(poses, cards(), bases)
@settings(max_examples=60, deadline=None)
def test_DF_M2_the_card_laid_in_front_of_the_base_holds_its_arrow(start, card, base):
    # the card's near edge is the base's front line, across the whole base; the arrow lies on the card
    corners = card_outline(start, card, base)
    local = (start @ base.front_mark).inverse().apply(corners)  # the card frame
    on_card = card.anchor == Anchor.MARKS  # (a stand-anchored card's arrow is drawn at the stand, DF.M4)
    anchor = start @ (base.front_mark if on_card else base.stand)
    arrow = anchor.inverse().apply(arrow_points(start, card, base))
    near = min(0.0, float(arrow[:, 0].min()))
    assert np.allclose(local[[0, 3], 0], near, atol=1e-9)
    assert local[0, 1] <= -base.width_mm / 2 + 1e-9 and local[3, 1] >= base.width_mm / 2 - 1e-9
    assert local[1, 0] >= CARD_MIN_LENGTH_MM - 1e-9
    sheet = shapely.Polygon(corners)
    assert sheet.is_valid and sheet.area > 0
    if on_card:
        assert sheet.buffer(1e-6).contains(shapely.MultiPoint(arrow_points(start, card, base)))
