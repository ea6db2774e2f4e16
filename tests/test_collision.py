"""Collisions, DF.C1-DF.C5: exact k/4 probability and the seeded draw."""
from fractions import Fraction

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from planes import plane

from furball.geometry.pose import Pose
from furball.maneuvers.collision import collision_test, may_collide


def test_DF_C1_only_overlapping_pairs_at_the_same_altitude_may_collide():
    a, b = plane("A", 0, 0, altitude=1), plane("B", 30, 20, altitude=1)
    assert may_collide(a, b)
    assert not may_collide(a, b.replace(altitude=2))
    assert not may_collide(a, b.replace(pose=Pose(44, 0, 0)))  # touching only


def test_DF_C2_C3_probability_is_the_share_of_overlapping_left_right_combinations():
    """DF.C2: each plane's card is left or right with probability 1/2; DF.C3: the cards
    are laid from the current poses and a renewed overlap is a collision."""
    wing_to_wing = collision_test(plane("SPAD", 424, 600), plane("Fokker", 434, 555))
    assert wing_to_wing.probability == Fraction(1, 4)
    assert wing_to_wing.combinations[("left", "left")] and not wing_to_wing.combinations[("right", "left")]
    stacked = collision_test(plane("A", 0, 0), plane("B", 0, 0))
    # same pose: the same turn keeps them together, opposite turns part them
    assert stacked.probability == Fraction(1, 2)
    assert stacked.combinations == {("left", "left"): True, ("left", "right"): False,
                                    ("right", "left"): False, ("right", "right"): True}


def test_DF_C3_the_test_does_not_move_the_planes_and_DF_C4_damage_is_an_A_card():
    a, b = plane("A", 0, 0), plane("B", 0, 5)
    tests = [collision_test(a, b, np.random.default_rng(seed)) for seed in range(12)]
    hit = next(t for t in tests if t.collided)
    miss = next(t for t in tests if not t.collided)
    assert hit.damage == {"A": "A", "B": "A"} and miss.damage == {}  # DF.C4
    assert a.pose == Pose(0, 0, 0) and b.pose == Pose(0, 5, 0)


def test_DF_C5_a_collision_with_a_balloon_cannot_be_avoided():
    balloon = plane("Drachen", 0, 0, deck=None, kind="balloon")
    t = collision_test(plane("Camel", 10, 10), balloon, np.random.default_rng(3))
    assert t.balloon and t.probability == 1 and t.collided and t.damage == {"Camel": "C", "Drachen": "C"}


def test_the_draw_is_seeded_and_reproducible():
    a, b = plane("SPAD", 424, 600), plane("Fokker", 434, 555)
    draws = [collision_test(a, b, np.random.default_rng(s)).drawn for s in range(30)]
    assert draws == [collision_test(a, b, np.random.default_rng(s)).drawn for s in range(30)]
    assert len(set(draws)) == 4


near = st.builds(Pose, st.floats(-50, 50), st.floats(-50, 50), st.floats(0, 360))


@given(near, near, st.integers(0, 2**32 - 1))
def test_probability_is_always_k_over_4_and_symmetric_in_the_pair(pa, pb, seed):
    a, b = plane("A", 0, 0).replace(pose=pa), plane("B", 0, 0).replace(pose=pb)
    ab, ba = collision_test(a, b), collision_test(b, a)
    assert ab.probability * 4 == sum(ab.combinations.values())
    assert ab.probability.denominator in (1, 2, 4)
    assert ab.probability == ba.probability
    assert all(ab.combinations[(x, y)] == ba.combinations[(y, x)] for x, y in ab.combinations)
    drawn = collision_test(a, b, np.random.default_rng(seed))
    assert drawn.collided == ab.combinations[drawn.drawn]


def test_DF_C1_a_plane_flying_at_altitude_0_may_collide_with_a_landed_plane():
    """DF.C1 with DF.H3 (engine convention): the landed plane is on the table at altitude 0;
    it lays no card, so only the flyer's left and right cards are tried: P = k/2."""
    landed = plane("Landed", 0, 0, altitude=0, status="landed")
    low = plane("Low", 20, 5, altitude=0, climb_counters=1)
    high = plane("High", 20, 5, altitude=1)
    assert may_collide(low, landed) and may_collide(landed, low) and not may_collide(high, landed)
    assert not may_collide(landed, landed.replace(name="Other"))  # two landed planes do not collide
    t = collision_test(low, landed, np.random.default_rng(1))
    assert set(t.combinations) == {("left", "stays"), ("right", "stays")}
    assert t.probability == Fraction(sum(t.combinations.values()), 2)
    assert t.drawn[1] == "stays" and t.collided == t.combinations[t.drawn]
    if t.collided:
        assert t.damage == {"Low": "A", "Landed": "A"}
