"""Firing geometry: arcs, ranges, blocking, DF.O2/DF.O3, autonomous targets (DF.A2)."""
import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from planes import RULES, plane
from strategies import poses

from furball.geometry.pose import Pose
from furball.maneuvers.firing import arc_shots, autonomous_fire, shot_at, shots


def fire(shooter, target, *others):
    return shot_at(shooter, target, [shooter, target, *others], RULES)


def test_short_and_long_range_to_the_closest_point_in_the_arc():
    """Range ruler 200 mm: short up to 100 mm, long up to 200 mm (closest in-arc point)."""
    s = fire(plane("Camel", 0, 0), plane("Albatros", 100, 0))  # rear edge at x = 78
    assert s.range == "short" and s.distance_mm == 78.0 and s.aim == (78.0, 0.0)
    assert fire(plane("Camel", 0, 0), plane("Albatros", 200, 0)).range == "long"
    assert fire(plane("Camel", 0, 0), plane("Albatros", 223, 0)) is None  # 201 mm away


def test_target_outside_the_front_arc_cannot_be_hit_and_touching_the_arc_line_is_outside():
    assert fire(plane("Camel", 0, 0), plane("Albatros", -120, 0)) is None
    # the arc's edge is the line y = x; the target's front-right corner (x + 22, y - 30)
    # exactly on it at (100, 100), the rest of the base beyond it: not in the arc
    assert fire(plane("Camel", 0, 0), plane("Albatros", 78, 130)) is None
    assert fire(plane("Camel", 0, 0), plane("Albatros", 79, 130)) is not None  # 1 mm inside


def test_DF_O2_overlapping_planes_cannot_fire_at_each_other_but_can_at_others():
    a, b, c = plane("A", 0, 0, side="Allies"), plane("B", 40, 10, side="Allies"), plane("C", 150, 0)
    enemy_b = b.replace(side="Central")
    assert fire(a, enemy_b) is None and fire(enemy_b, a) is None  # DF.O2: overlapping, no fire
    assert fire(a, c, b) is not None  # both still fire at C (and the overlap does not block, DF.O3)
    assert fire(b, c, a) is not None


def test_DF_O3_a_plane_overlapping_the_shooter_does_not_block_its_fire():
    shooter, target = plane("A", 0, 0), plane("T", 150, 0)
    wingman = plane("W", 40, 0, side="A")  # overlaps the shooter, in the line of fire
    assert fire(shooter, target, wingman) is not None
    blocker = plane("X", 90, 0, heading=90, side="A")  # between, not overlapping the shooter
    assert fire(shooter, target, blocker) is None


def test_balloons_do_not_fire_and_altitude_gap_limits_fire():
    balloon = plane("Drachen", 0, 0, deck=None, kind="balloon")
    assert fire(balloon, plane("Camel", 100, 0)) is None
    assert fire(plane("Camel", -100, 0), balloon) is not None
    assert fire(plane("Camel", 0, 0, altitude=3), plane("Albatros", 100, 0, altitude=1)) is None


def _targets(shooter, planes, seed=0):
    return [s.target for s in autonomous_fire(shooter, planes, RULES, np.random.default_rng(seed))]


def test_DF_A2_autonomous_fires_at_the_closest_then_most_damaged_then_random():
    """DF.A2: always fires; closest; tie -> more damaged; still tied -> random."""
    bomber = plane("Gotha", 0, 0, deck="M", base="large", engines="multi", autonomous=True, side="C")
    near, far = plane("Near", 150, 20), plane("Far", 190, -20)
    assert _targets(bomber, [bomber, near, far]) == ["Near"]
    twin_a, twin_b = plane("P", 150, 30), plane("Q", 150, -30, damage=("A", "B"))
    assert _targets(bomber, [bomber, twin_a, twin_b]) == ["Q"]
    twin_b = twin_b.replace(damage=())
    picks = {t for s in range(20) for t in _targets(bomber, [bomber, twin_a, twin_b], s)}
    assert picks == {"P", "Q"}


def test_DF_A2_every_gun_fires_at_its_own_closest_target():
    """DF.A2 "todas las ametralladoras disparan": the large base's nose and rear guns
    (maneuvers/data/bases.toml) each fire, at different planes, in one firing step."""
    bomber = plane("Gotha", 300, 300, deck="M", base="large", engines="multi", autonomous=True, side="C")
    ahead, behind = plane("Ahead", 450, 300), plane("Behind", 150, 300, heading=0)
    fired = autonomous_fire(bomber, [bomber, ahead, behind], RULES, np.random.default_rng(0))
    assert [(s.arc, s.target) for s in fired] == [(0, "Ahead"), (1, "Behind")]
    assert [s.arc for s in arc_shots(bomber, behind, [bomber, ahead, behind], RULES)] == [1]
    # with one gun only, one target
    single = plane("Solo", 300, 300, autonomous=True, side="C")
    assert _targets(single, [single, ahead, behind]) == ["Ahead"]


scene_pose = st.builds(Pose, st.floats(-200, 200), st.floats(-200, 200), st.floats(0, 360))


@given(scene_pose, scene_pose, scene_pose, poses)
def test_firing_is_invariant_under_any_rigid_motion_of_the_table(pa, pb, pc, motion):
    planes = [plane(n, 0, 0).replace(pose=p) for n, p in zip("ABC", (pa, pb, pc))]
    moved = [p.replace(pose=motion @ p.pose) for p in planes]
    before = shots(planes, RULES)
    after = shots(moved, RULES)
    assert [(s.shooter, s.target, s.range) for s in before] == [(s.shooter, s.target, s.range) for s in after]
    for x, y in zip(before, after):
        assert abs(x.distance_mm - y.distance_mm) < 1e-6
        assert np.allclose(motion.apply(np.array(x.aim)), y.aim, atol=1e-6)
