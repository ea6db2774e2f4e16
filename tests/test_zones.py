"""The tail zone polygon agrees with the exact tailing test (DF.T1, DF.T5)."""
import shapely
from hypothesis import assume, given
from hypothesis import strategies as st
from planes import RULES, plane

from furball.maneuvers.tailing import tail_check
from furball.maneuvers.zones import firing_bands, zones


@given(st.floats(0, 360), st.floats(-40, 40), st.floats(-200, 200), st.floats(-200, 200),
       st.floats(-200, 200), st.floats(-200, 200), st.floats(0, 360))
def test_tail_zone_is_exactly_where_an_enemy_stand_would_be_tailable(
        heading, enemy_turn, px, py, bx, by, blocker_heading):
    """DF.T1 (a)-(d) and DF.T5 as one polygon: membership == tail_check, off the boundary."""
    chaser = plane("Camel", 0, 0, heading, side="Allies")
    blocker = plane("Fokker", bx, by, blocker_heading, side="Allies")
    assume(not chaser.base.overlaps(chaser.pose, blocker.base, blocker.pose))
    enemy_heading = heading + enemy_turn
    z = zones(chaser, [chaser, blocker], RULES, enemy_heading)
    probe = plane("Probe", px, py, enemy_heading, side="Central")
    point = shapely.Point(px, py)
    assume(z.tail_zone.boundary.distance(point) > 1e-3 if not z.tail_zone.is_empty else True)
    ok = tail_check(chaser, probe, [chaser, blocker, probe], RULES).ok
    assert ok == z.tail_zone.contains(point)


def test_DF_T7_multi_engine_planes_have_no_tail_zone():
    gotha = plane("Gotha", 0, 0, deck="M", base="large", engines="multi")
    assert zones(gotha, [gotha], RULES).tail_zone.is_empty


def test_firing_bands_are_the_arc_split_at_half_the_ruler():
    camel = plane("Camel", 0, 0)
    (short, long), = firing_bands(camel, RULES)
    assert short.contains(shapely.Point(90, 0)) and not short.contains(shapely.Point(110, 0))
    assert long.contains(shapely.Point(110, 0)) and not long.contains(shapely.Point(210, 0))
    assert not short.union(long).contains(shapely.Point(50, 60))  # outside the ±45° arc


# -- issue #14 item 7: the same answer after any rigid motion, at the micrometre -------------
from furball.geometry.pose import Pose  # noqa: E402
from furball.maneuvers.firing import shot_at  # noqa: E402

motions = st.builds(Pose, st.floats(-5e5, 5e5), st.floats(-5e5, 5e5), st.floats(0, 360))
depths = st.sampled_from([-3e-6, -2e-6, 2e-6, 3e-6, 5e-6, 1e-5])  # a few tolerances either side


@given(depths, st.floats(60, 110), motions)
def test_a_corner_poking_micrometres_into_a_firing_arc_is_judged_the_same_after_any_motion(depth, along, m):
    """The arc's edge is the line y = x from the stand; the target's front-right corner
    lies ``depth`` mm inside it (negative: outside). In the arc iff depth > tolerance."""
    import math

    cx = along
    cy = (cx + 22) + 30 - depth * math.sqrt(2)  # the corner (cx + 22, cy - 30), offset from y = x
    shooter, target = plane("S", 0, 0), plane("T", cx, cy)
    here = shot_at(shooter, target, [shooter, target], RULES) is not None
    s, t = shooter.replace(pose=m @ shooter.pose), target.replace(pose=m @ target.pose)
    assert (shot_at(s, t, [s, t], RULES) is not None) == here == (depth > 1e-6)


@given(st.sampled_from([-3e-6, -1e-9, 0.0, 1e-9, 3e-6]), st.floats(0, 360), motions)
def test_a_stand_within_a_tolerance_of_a_third_base_gives_the_same_zone_as_tail_check(offset, heading, m):
    """The chaser's stand lies ``offset`` mm inside (positive) or outside a third base's
    edge: the zone and tail_check agree, and neither changes when the table moves."""
    chaser = plane("Camel", 0, 0, heading, side="Allies")
    # the third base's right edge on the line y = -offset in the chaser's frame
    third = plane("Wing", 0, 30 - offset, heading, side="Allies", altitude=1)
    third = third.replace(pose=chaser.pose @ Pose(0, 30 - offset, 0))
    enemy = plane("Hun", 0, 0, heading, side="Central").replace(pose=chaser.pose @ Pose(150, 0, 0))
    planes = [chaser, third, enemy]
    moved = [p.replace(pose=m @ p.pose) for p in planes]
    ok = tail_check(chaser, enemy, planes, RULES).ok
    assert tail_check(moved[0], moved[2], moved, RULES).ok == ok == (offset <= 1e-6)
    for who in (planes, moved):
        z = zones(who[0], who, RULES)
        assert (not z.tail_zone.is_empty) == ok


@given(st.floats(0, 360), st.floats(-60, 60), st.floats(-200, 200), st.floats(-200, 200), st.floats(0, 360))
def test_the_in_zone_marker_answers_the_zones_question_not_the_enemys_own_heading(
        heading, zone_turn, ex, ey, enemy_heading):
    """Issue #14: the marker drawn on the zone uses the zone's enemy heading."""
    chaser = plane("Camel", 0, 0, heading, side="Allies")
    enemy = plane("Hun", ex, ey, enemy_heading, side="Central")
    assume(not chaser.base.overlaps(chaser.pose, enemy.base, enemy.pose))
    z = zones(chaser, [chaser, enemy], RULES, heading + zone_turn)
    point = shapely.Point(ex, ey)
    assume(z.tail_zone.is_empty or z.tail_zone.boundary.distance(point) > 1e-3)
    assert z.in_zone == (z.tail_zone.contains(point),)


def test_DF_T1_zones_command_names_each_failed_tail_condition_with_its_rule(cli):
    """Issue #26 item 1: a tail check that fails with reasons is printed (it used to
    raise a TypeError joining Reason objects as strings)."""
    code, out, err = cli(["zones", "duel", "--plane", "Albatros"])
    assert code == 0 and err == ""
    assert "Camel: cannot be tailed: " in out and "(DF.T1b)" in out and "(DF.T1c)" in out


# -- DF.O3 in the firing bands: friends' and landed planes' bases block the line of fire ----
@given(st.floats(0, 360), st.floats(-40, 200), st.floats(-120, 120), st.floats(0, 360),
       st.floats(20, 240), st.floats(-70, 70), st.floats(0, 360))
def test_DF_O3_firing_bands_less_the_friends_shadows_are_exactly_where_the_aim_point_is_shot(
        heading, ahead, aside, blocker_turn, reach, bearing, probe_turn):
    """A target is shot, at short or long range, exactly when its aim point (the closest
    point of its base in the arc) lies in the short or long band: the bands hold the
    shadows of a friend's base out, unless that base overlaps the shooter's (DF.O3:
    then it blocks nothing and casts no shadow)."""
    import math

    from furball.maneuvers.firing import FiringRange

    shooter = plane("Camel", 0, 0, heading, side="Allies")
    # in the shooter's frame: the friend somewhere around the arc, the probe in or near it
    f = shooter.pose @ Pose(ahead, aside, blocker_turn)
    b = math.radians(bearing)
    t = shooter.pose @ Pose(reach * math.cos(b), reach * math.sin(b), probe_turn)
    friend = plane("Friend", f.x_mm, f.y_mm, f.heading_deg, side="Allies")
    probe = plane("Probe", t.x_mm, t.y_mm, t.heading_deg, side="Central")
    alone = shot_at(shooter, probe, [shooter, probe], RULES)
    assume(alone is not None)
    z = zones(shooter, [shooter, friend, probe], RULES)
    (short, long), = z.bands
    aim = shapely.Point(alone.aim)
    assume(min(short.boundary.distance(aim), long.boundary.distance(aim)) > 1e-3)
    shot = shot_at(shooter, probe, [shooter, friend, probe], RULES)
    if shot is None:
        assert not short.contains(aim) and not long.contains(aim)
    else:
        assert short.contains(aim) == (shot.range == FiringRange.SHORT)
        assert long.contains(aim) == (shot.range == FiringRange.LONG)


def test_DF_O3_a_friend_in_front_shadows_the_band_and_one_overlapping_the_shooter_does_not():
    camel = plane("Camel", 0, 0, side="Allies")
    ahead = plane("Friend", 120, 0, 90, side="Allies")
    (short, long), = zones(camel, [camel, ahead], RULES).bands
    assert not long.contains(shapely.Point(180, 0)) and long.contains(shapely.Point(180, 80))
    on_top = plane("Friend", 45, 0, 90, side="Allies")  # its base overlaps the Camel's, clear of the gun
    (short, long), = zones(camel, [camel, on_top], RULES).bands
    assert short.contains(shapely.Point(90, 0)) and long.contains(shapely.Point(180, 0))
