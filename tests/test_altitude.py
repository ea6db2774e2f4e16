"""Altitude, climb counters and bombs: DF.H1-DF.H6, DF.B1, DF.B2."""
import pytest
from planes import DECKS, RULES, plane

from furball.maneuvers.altitude import AltitudeError, after_card, after_drop, effective_climb_rate, fully_loaded
from furball.maneuvers.plan import PlanError, check_plan

A = DECKS["A"]
CLIMB, DESCENT = A.card("A14"), A.card("A15")


def test_DF_H1_climb_and_descent_cards_are_planned_like_any_card():
    """DF.H1: the red stall (climb) and red straight (descent) are ordinary plan entries,
    the deck's last two cards."""
    cards = check_plan(plane("Camel", 0, 0, altitude=1), ["A14", "A1", "A15"], None, RULES)
    assert [c.id for c in cards] == ["A14", "A1", "A15"]
    assert "climb" in cards[0].flags and "descent" in cards[2].flags
    assert A.ids[-2:] == ("A14", "A15")


def test_DF_H2_stands_are_altitude_plus_one_and_games_start_at_1_to_3():
    """DF.H2: starting altitude 1..3 (checked on turn 1); stands = altitude + 1."""
    from planes import table

    from furball.errors import InputError

    assert plane("Camel", 0, 0, altitude=2).stands == 3
    low = plane("Camel", 10, 10, altitude=0, climb_counters=1)
    with pytest.raises(InputError, match=r"plane 'Camel': field 'altitude': expected 1 to 3 on turn 1 \(DF.H2"):
        table(low, turn=1)
    assert table(low, turn=4).planes[0].altitude == 0


def test_DF_H6_counters_build_up_to_the_climb_rate_then_one_level():
    p = plane("Camel", 0, 0, altitude=1, climb_rate=2)
    p, events = after_card(p, CLIMB, 3)
    assert (p.altitude, p.climb_counters) == (1, 1) and "DF.H6" in events[0]
    p, events = after_card(p, CLIMB, 3)
    assert (p.altitude, p.climb_counters) == (2, 0) and "climbs to altitude 2" in events[0]


def test_climb_at_altitude_3():
    """DF.H3: at the ceiling a climb card is legal while it only adds a counter; the
    one that would reach altitude 4 is illegal (and rejected at planning)."""
    top = plane("Camel", 0, 0, altitude=3, climb_rate=2)
    p, _ = after_card(top, CLIMB, 3)
    assert (p.altitude, p.climb_counters) == (3, 1)
    with pytest.raises(AltitudeError, match="DF.H3"):
        after_card(p, CLIMB, 3)
    with pytest.raises(PlanError, match=r"plane 'Camel': card 'A14' \(2nd maneuver\).*DF.H3"):
        check_plan(top, ["A14", "A14", "A1"], None, RULES)


def test_DF_H4_descent_loses_a_level_and_every_counter():
    p, events = after_card(plane("Camel", 0, 0, altitude=3, climb_counters=2), DESCENT, 3)
    assert (p.altitude, p.climb_counters) == (2, 0) and "DF.H4" in events[0]


def test_descent_to_0_with_and_without_counters():
    """DF.H4: descending to level 0 keeps exactly one climb counter (takes one if none)."""
    with_counters, _ = after_card(plane("Camel", 0, 0, altitude=1, climb_counters=2), DESCENT, 3)
    without, _ = after_card(plane("Camel", 0, 0, altitude=1, climb_counters=0), DESCENT, 3)
    assert (with_counters.altitude, with_counters.climb_counters, with_counters.status) == (0, 1, "flying")
    assert (without.altitude, without.climb_counters, without.status) == (0, 1, "flying")


def test_DF_H3_descending_at_altitude_0_lands_the_plane():
    """DF.H3: at altitude 0 with no climb counter the plane has landed."""
    p, events = after_card(plane("Camel", 0, 0, altitude=0, climb_counters=1), DESCENT, 3)
    assert (p.altitude, p.climb_counters, p.status) == (0, 0, "landed") and "lands" in events[0]


def test_DF_H5_descent_moves_like_a_straight_but_is_not_one():
    """DF.H5: an Immelmann needs a real straight next; the descent card does not do."""
    assert DESCENT.path == A.card("A2").path and "straight" not in DESCENT.flags
    with pytest.raises(PlanError, match="Immelmann.*followed by a straight"):
        check_plan(plane("Camel", 0, 0, altitude=2), ["A1", "A12", "A15"], None, RULES)
    check_plan(plane("Camel", 0, 0, altitude=2), ["A1", "A12", "A2"], None, RULES)


def test_DF_B1_a_fully_loaded_plane_climbs_slower_and_flies_simple():
    """DF.B1: no Immelmann, at least two non-complex maneuvers, climb rate + 1."""
    loaded = plane("Breguet", 0, 0, altitude=1, climb_rate=3, bombs_at_start=4, bombs=4)
    assert fully_loaded(loaded) and effective_climb_rate(loaded) == 4
    with pytest.raises(PlanError, match=r"card 'A12'.*no Immelmann.*DF.B1"):
        check_plan(loaded, ["A1", "A12", "A2"], None, RULES)
    with pytest.raises(PlanError, match=r"card 'A10'.*second complex maneuver.*at least two must be non-complex"):
        check_plan(loaded, ["A8", "A1", "A10"], None, RULES)
    check_plan(loaded, ["A8", "A1", "A2"], None, RULES)
    light = loaded.replace(bombs=1)
    assert not fully_loaded(light) and effective_climb_rate(light) == 3
    check_plan(light, ["A1", "A12", "A2"], None, RULES)


def test_bombs_dropped_to_exactly_half():
    """DF.B1/DF.B2 disagree at exactly half; engine convention: dropping half ends the
    restrictions (fully loaded means strictly more than half aboard)."""
    loaded = plane("Breguet", 0, 0, altitude=1, climb_rate=3, bombs_at_start=4, bombs=4)
    half, events = after_drop(loaded, 2)
    assert half.bombs == 2 and not fully_loaded(half)
    assert any("DF.B2" in e for e in events)
    three = loaded.replace(bombs=3)
    assert fully_loaded(three)


def test_DF_B2_restored_rate_reached_means_stay_and_discard_one_counter():
    """DF.B2: with enough counters to climb under the restored rate, stay and discard 1."""
    loaded = plane("Breguet", 0, 0, altitude=1, climb_rate=3, climb_counters=3, bombs_at_start=4, bombs=4)
    after, events = after_drop(loaded, 2)
    assert (after.altitude, after.climb_counters) == (1, 2)
    assert "discards 1 counter" in events[-1]
    not_enough, _ = after_drop(loaded.replace(climb_counters=2), 2)
    assert not_enough.climb_counters == 2
    with pytest.raises(Exception, match="cannot drop 5 bombs"):
        after_drop(loaded, 5)


def test_DF_B2_restrictions_end_at_the_drop_in_the_middle_of_a_turn():
    """DF.B2 "dejan de aplicarse en cuanto suelte": bombs 2/2 (fully loaded), plan
    A2, A2, A12 with drops [1, 0, 0]: the Immelmann is flown after the drop, so it is legal."""
    bomber = plane("Breguet", 0, 0, altitude=2, bombs_at_start=2, bombs=2, last_card="A2")
    check_plan(bomber, ["A2", "A2", "A12"], [1, 0, 0], RULES)
    with pytest.raises(PlanError, match="no Immelmann") as failed:  # dropped only after it
        check_plan(bomber, ["A2", "A12", "A2"], [0, 1, 0], RULES)
    assert failed.value.rule == "DF.B1"
    # complex cards: at most one among the cards flown fully loaded; after the drop, free
    check_plan(bomber, ["A8", "A1", "A10"], [1, 0, 0], RULES)
    with pytest.raises(PlanError, match="second complex"):
        check_plan(bomber, ["A8", "A10", "A1"], [0, 1, 0], RULES)
    check_plan(bomber, ["A8", "A1", "A10"], [0, 1, 0], RULES)


def test_DF_B2_unloading_at_altitude_0_keeps_the_last_climb_counter():
    """DF.B2 with DF.H3: at altitude 0 with 1 counter and a restored climb rate of 1, the
    drop would discard its last counter and land it in mid-air: it keeps one."""
    low = plane("Breguet", 0, 0, altitude=0, climb_rate=1, climb_counters=1, bombs_at_start=2, bombs=2)
    after, events = after_drop(low, 1)
    assert (after.altitude, after.climb_counters, after.status) == (0, 1, "flying")
    assert "keeps its last counter" in events[-1]
    higher, _ = after_drop(low.replace(altitude=1), 1)
    assert higher.climb_counters == 0  # above the ground the counter goes
