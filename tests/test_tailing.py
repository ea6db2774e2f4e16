"""Tailing, DF.T1-DF.T7: the exact ruler test and its rule conditions."""
import math

from hypothesis import assume, given
from hypothesis import strategies as st
from planes import RULES, plane
from strategies import poses

from furball.geometry.pose import Pose
from furball.maneuvers.tailing import choose_tails, tail_check

# small base: 44 mm long, 60 mm wide, stand at the centre; ruler 200 mm


def check(chaser, target, *others):
    return tail_check(chaser, target, [chaser, target, *others], RULES)


def test_DF_T1_chaser_right_behind_its_target_can_tail():
    """DF.T1: reach, through the chaser's front edge, the target's rear edge, nothing between."""
    c = check(plane("Camel", 0, 0), plane("Albatros", 150, 10))
    assert c.ok and c.distance_mm > 150


def test_DF_T1a_out_of_the_rulers_reach():
    c = check(plane("Camel", 0, 0), plane("Albatros", 201, 0))
    assert not c.ok and "DF.T1a" in c.rules
    assert check(plane("Camel", 0, 0), plane("Albatros", 200, 0)).ok  # exactly the ruler's length


def test_DF_T1b_ruler_must_leave_through_the_chasers_front_edge():
    c = check(plane("Camel", 0, 0), plane("Albatros", 0, 120, heading=90))
    assert any(r.rule == "DF.T1b" and "left edge" in r.text for r in c.reasons)


def test_DF_T1c_ruler_must_enter_through_the_targets_rear_edge():
    head_on = check(plane("Camel", 0, 0), plane("Albatros", 150, 0, heading=180))
    assert any(r.rule == "DF.T1c" and "front edge" in r.text for r in head_on.reasons)
    crossing = check(plane("Camel", 0, 0), plane("Albatros", 150, 0, heading=90))
    # facing +y, the target shows its left side to a ruler coming from -x
    assert any(r.rule == "DF.T1c" and "left edge" in r.text for r in crossing.reasons)


def test_DF_T1d_a_third_base_between_blocks_but_grazing_it_does_not():
    blocker = plane("Fokker", 75, 0, heading=90)
    c = check(plane("Camel", 0, 0), plane("Albatros", 150, 0), blocker)
    assert not c.ok and c.blocked_by == ("Fokker",) and "DF.T1d" in c.rules
    # the ruler runs exactly along the blocker's right edge (the line y = 0)
    grazing = plane("Fokker", 75, 30, heading=0)  # its right edge lies on y = 0
    assert check(plane("Camel", 0, 0), plane("Albatros", 150, 0), grazing).ok


def test_ruler_line_through_a_base_corner():
    """DF.T1 engine convention: a ruler through a corner crosses no edge (chaser, target)
    and does not block (third base). Corners are decided by the one tolerance."""
    # the chaser's front-left corner is (22, 30); the target's stand (110, 150) is on the
    # same line from the chaser's stand (150/110 == 30/22), so the ruler leaves the
    # chaser exactly through that corner
    facing_away = math.degrees(math.atan2(150, 110))
    through_own_corner = check(plane("Camel", 0, 0), plane("Albatros", 110, 150, heading=facing_away))
    assert any(r.rule == "DF.T1b" and "corner" in r.text for r in through_own_corner.reasons)
    # turn the chaser to face the target: now the ruler leaves through its front edge but
    # enters the target (heading 0) exactly through its rear-right corner (88, 120)
    through_target_corner = check(plane("Camel", 0, 0, heading=facing_away), plane("Albatros", 110, 150))
    assert [(r.rule, r.text) for r in through_target_corner.reasons if r.rule.startswith("DF.T1")] == [
        ("DF.T1c", "the ruler enters the target's base through its corner, not its rear edge")]
    # 1 mm further right, the ruler enters through the rear edge
    assert check(plane("Camel", 0, 0, heading=facing_away), plane("Albatros", 111, 150)).ok
    # a third base whose corner touches the ruler does not block it
    corner_blocker = plane("Fokker", 75 + 22, 30, heading=0)  # rear-right corner at (75, 0)
    assert check(plane("Camel", 0, 0), plane("Albatros", 150, 0), corner_blocker).ok
    # and the same after turning and shifting the whole table
    m = Pose(321.0, -45.5, 37.0)
    moved = [p.replace(pose=m @ p.pose) for p in (plane("Camel", 0, 0), plane("Albatros", 150, 0), corner_blocker)]
    assert check(*moved).ok


def test_DF_T5_overlapping_bases_cannot_tail():
    c = check(plane("Camel", 0, 0), plane("Albatros", 40, 0))
    assert "DF.T5" in c.rules


def test_DF_T6_chaser_same_level_or_one_above_only():
    """DF.T6: from the same level or exactly one above; not two above, not below."""
    def ok(chaser_alt, target_alt):
        return check(plane("C", 0, 0, altitude=chaser_alt), plane("T", 150, 0, altitude=target_alt)).ok
    assert ok(2, 2) and ok(3, 2)
    assert not ok(3, 1) and not ok(1, 2)


def test_DF_T7_multi_engine_cannot_tail_but_can_be_tailed():
    bomber = plane("Gotha", 150, 0, deck="M", base="large", engines="multi")
    assert check(plane("Pup", 0, 0), bomber).ok
    back = check(plane("Gotha", 0, 0, deck="M", base="large", engines="multi"), plane("Pup", 170, 0))
    assert "DF.T7" in back.rules


def test_DF_T3_a_chaser_picks_exactly_one_target():
    """DF.T3: several tailable enemies: the player's pick, else the nearest."""
    camel = plane("Camel", 0, 0)
    near, far = plane("Near", 120, 40, side="Central"), plane("Far", 160, -60, side="Central")
    planes = [camel, near, far]
    assert check(camel, near, far).ok and check(camel, far, near).ok
    assert choose_tails(planes, RULES)["Camel"].target == "Near"
    assert choose_tails(planes, RULES, {"Camel": "Far"})["Camel"].target == "Far"
    assert choose_tails(planes, RULES, {"Camel": "Nobody"}) == {}
    # a wish for an enemy that cannot be tailed: the chaser tails nobody (not the nearest)
    blocked = plane("Far", 160, -60, side="Central", altitude=3)  # 1 level above the Camel: DF.T6
    assert choose_tails([camel, near, blocked], RULES, {"Camel": "Far"}) == {}


def test_same_side_is_never_tailed():
    c = check(plane("Camel", 0, 0, side="Allies"), plane("SPAD", 150, 0, side="Allies"))
    assert not c.ok and c.rules == ("DF.T3",)


def test_DF_T1d_a_landed_plane_still_blocks_the_ruler():
    """DF.T1d "no cruza la base de ningún otro avión": a landed plane sits on its base
    (DF.H3). Issue #8's case: chaser (100,400) alt 0 with 1 counter, landed plane at
    (200,400), enemy at (280,400) alt 0."""
    chaser = plane("Chaser", 100, 400, altitude=0, climb_counters=1)
    landed = plane("Landed", 200, 400, altitude=0, status="landed")
    enemy = plane("Enemy", 280, 400, altitude=0, climb_counters=1)
    c = check(chaser, enemy, landed)
    assert not c.ok and c.rules == ("DF.T1d",) and c.blocked_by == ("Landed",)
    gone = landed.replace(status="out")
    assert check(chaser, enemy, gone).ok  # a plane out of the game is not on the table


def test_DF_T7_a_single_engine_plane_may_tail_an_autonomous_one():
    """DF.T7 "cualquier avión monomotor puede ponerse a su cola"; autonomous planes do not tail."""
    auto = plane("Gotha", 150, 0, deck="M", base="large", engines="multi", autonomous=True)
    assert check(plane("Pup", 0, 0), auto).ok
    assert "DF.A1" in check(plane("Auto", 0, 0, autonomous=True), plane("Pup", 150, 0)).rules


scene_pose = st.builds(Pose, st.floats(-250, 250), st.floats(-250, 250), st.floats(0, 360))


@given(scene_pose, scene_pose, scene_pose, st.integers(1, 3), st.integers(1, 3), poses)
def test_tailing_is_invariant_under_any_rigid_motion_of_the_table(pa, pb, pc, alt_a, alt_b, motion):
    planes = [plane("A", 0, 0, altitude=alt_a).replace(pose=pa), plane("B", 0, 0, altitude=alt_b).replace(pose=pb),
              plane("C", 0, 0).replace(pose=pc)]
    moved = [p.replace(pose=motion @ p.pose) for p in planes]
    for i in range(3):
        for j in range(3):
            if i != j:
                before = tail_check(planes[i], planes[j], planes, RULES)
                after = tail_check(moved[i], moved[j], moved, RULES)
                assert before.ok == after.ok
                assert before.rules == after.rules and before.blocked_by == after.blocked_by


@given(scene_pose, scene_pose, st.integers(1, 3), st.integers(1, 3))
def test_mutual_tailing_never_holds(pa, pb, alt_a, alt_b):
    a = plane("A", 0, 0, altitude=alt_a).replace(pose=pa)
    b = plane("B", 0, 0, altitude=alt_b).replace(pose=pb)
    assert not (check(a, b).ok and check(b, a).ok)


@given(st.floats(-80, 80), st.floats(100, 199), st.floats(-40, 40))
def test_mutual_tailing_never_holds_even_nose_to_tail(dy, dx, dh):
    a, b = plane("A", 0, 0), plane("B", dx, dy, heading=dh)
    assume(check(a, b).ok)
    assert not check(b, a).ok
