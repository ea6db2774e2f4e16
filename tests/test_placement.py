"""Placing maneuver cards (DF.M1-DF.M4): golden cases and SE(2) properties."""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import bases, cards, poses

from furball.geometry.base import Base
from furball.geometry.pose import Pose
from furball.maneuvers import shipped_decks
from furball.maneuvers.card import Arc, ManeuverCard, Straight
from furball.maneuvers.placement import card_motion, card_motions, place, place_batch, place_sequence

B = Base(44.0, 60.0)


@given(st.floats(0.5, 300), poses, bases)
def test_DF_M3_straight_moves_centre_by_front_plus_s_plus_rear(s, start, base):
    """DF.M2/DF.M3 golden: a straight of length s moves the centre by L/2 + s + L/2."""
    card = ManeuverCard.from_path("S", "straight", [Straight(s)])
    end = place(start, card, base)
    expected = start @ Pose.forward(base.length_mm / 2 + s + base.length_mm / 2)
    assert end.isclose(expected, 1e-8)
    # exact on the axes
    exact = place(Pose(), card, Base(44.0, 60.0))
    assert (exact.x_mm, exact.y_mm, exact.heading_deg) == (22.0 + s + 22.0, 0.0, 0.0)


@pytest.mark.parametrize("radius, angle", [(80.0, 45.0), (50.0, -70.0), (28.0, 90.0), (140.0, 25.0)])
def test_DF_M3_arc_matches_closed_form(radius, angle):
    """DF.M3 golden: forward = L/2 + r sin θ + (L/2) cos θ,
    lateral (toward the turn) = r(1 - cos θ) + (L/2) sin θ, heading change θ."""
    card = ManeuverCard.from_path("T", "turn", [Arc(radius, angle)])
    L = B.length_mm
    th = math.radians(abs(angle))
    end = place(Pose(), card, B)
    forward = L / 2 + radius * math.sin(th) + L / 2 * math.cos(th)
    lateral = radius * (1 - math.cos(th)) + L / 2 * math.sin(th)
    assert end.x_mm == pytest.approx(forward, abs=1e-9)
    assert end.y_mm == pytest.approx(math.copysign(lateral, angle), abs=1e-9)
    assert end.heading_deg == pytest.approx(angle % 360, abs=1e-12)


def test_DF_M4_stall_anchored_at_the_stand_does_not_move():
    """DF.M4: stall = the plane does not advance along an arrow (anchor = stand)."""
    stall = shipped_decks()["A"].card("A13")
    start = Pose(100, 200, 37)
    assert place(start, stall, B).isclose(start, 1e-9)


def test_DF_M4_immelmann_ends_facing_back_with_rear_mark_on_the_tip():
    """DF.M4: Immelmann = the plane ends facing back; final_turn applied at the tip."""
    card = ManeuverCard.from_path("I", "immelmann", [Straight(40.0)], final_turn_deg=180.0)
    end = place(Pose(), card, B)
    # front mark at 22, arrow tip at 62; the rear mark (now facing back) sits on the tip,
    # so the centre is 22 mm further back along the new heading: x = 62 - 22 = 40
    assert end.isclose(Pose(40.0, 0.0, 180.0), 1e-9)


@given(poses, cards(), bases)
def test_placement_is_the_product_P_F_C_Rinv(start, card, base):
    """DF.M3 geometry: P' = P · Tx(front) · card · Tx(rear)^-1 (marks anchor)."""
    got = place(start, card, base)
    if card.anchor == "marks":
        want = start @ Pose.forward(base.front_mark_mm) @ card.transform @ Pose.forward(base.rear_mark_mm).inverse()
    else:
        want = start @ base.stand @ card.transform @ base.stand.inverse()
    assert got.isclose(want, 1e-7)


@given(poses, poses, cards(), bases)
def test_placement_commutes_with_any_rigid_motion_of_the_table(motion, start, card, base):
    assert place(motion @ start, card, base).isclose(motion @ place(start, card, base), 1e-6)


@given(poses, cards(), bases)
def test_left_card_is_the_mirror_of_its_right_twin(start, card, base):
    twin = card.mirrored(id="Y")
    assert card_motion(twin, base).isclose(card_motion(card, base).mirrored(), 1e-7)
    # flying the twin from the mirrored start ends at the mirror of the original end
    assert place(start.mirrored(), twin, base).isclose(place(start, card, base).mirrored(), 1e-6)


def test_shipped_twins_are_mirror_images():
    """Every shipped left/right twin pair is an exact mirror (DF.C2 uses such pairs)."""
    for deck in shipped_decks().values():
        for card in deck:
            if card.twin:
                twin = deck.card(card.twin)
                assert card_motion(card, B).isclose(card_motion(twin, B).mirrored(), 1e-9)
                assert ("left" in card.flags) == ("right" in twin.flags)


@given(st.lists(poses, min_size=1, max_size=12), st.sampled_from(list(shipped_decks()["A"].ids)))
def test_batch_placement_equals_single(starts, card_id):
    card = shipped_decks()["A"].card(card_id)
    arr = np.array([p.as_array() for p in starts])
    out = place_batch(arr, card_motion(card, B).as_array())
    for row, p in zip(out, starts):
        assert Pose.from_array(row).isclose(place(p, card, B), 1e-9)


def test_batch_placement_tries_every_card_from_every_pose():
    deck = shipped_decks()["A"]
    starts = np.array([[0.0, 0.0, 0.0], [100.0, 50.0, 90.0], [-20.0, 10.0, 200.0]])
    motions = card_motions(deck.cards, B)
    grid = place_batch(starts[:, None, :], motions[None, :, :])
    assert grid.shape == (3, len(deck), 3)
    for i, s in enumerate(starts):
        for j, card in enumerate(deck.cards):
            assert Pose.from_array(grid[i, j]).isclose(place(Pose.from_array(s), card, B), 1e-9)


@given(poses, st.lists(st.sampled_from(list(shipped_decks()["A"].ids)), min_size=1, max_size=6))
def test_DF_M1_a_sequence_of_cards_is_the_product_of_their_motions(start, ids):
    """DF.M1: three (or any number of) cards are flown one after another."""
    deck = shipped_decks()["A"]
    seq = place_sequence(start, [deck.card(i) for i in ids], B)
    product = start
    for i in ids:
        product = product @ card_motion(deck.card(i), B)
    assert len(seq) == len(ids) and seq[-1].isclose(product, 1e-6)
