"""The tail zone polygon agrees with the exact tailing test (DF.T1, DF.T5)."""
import shapely
from hypothesis import assume, given
from hypothesis import strategies as st

from maneuvers.tailing import tail_check
from maneuvers.zones import firing_bands, zones
from planes import RULES, plane


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
