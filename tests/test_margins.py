"""Issue 27: ruling margins and flip chances (docs/margins.md).

Golden cases of the issue's Done-when, the sign of every margin against the referee's
ruling, invariance under rigid motion of the whole table, and the flip chance of a
one-dimensional case against the normal model's closed form."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import shot_at, tail_ok
from planes import HARMLESS, RULES, SMALL, plane, table

from furball.errors import InputError
from furball.geometry.pose import Pose
from furball.maneuvers.batch import Planes
from furball.maneuvers.firing import firing_positions
from furball.maneuvers.margins import (
    MarginKind,
    PlacementError,
    firing_rulings,
    flip_chances,
    overlap_rulings,
    table_rulings,
    tail_rulings,
    wilson,
)
from furball.maneuvers.tailing import tail_check
from furball.scenarios.dogfight import adjudicate
from furball.scenarios.dogfight.margins import margins_json, parse_close_call, turn_margins


def _margin(ruling, kind):
    return next(m for m in ruling.margins if m.kind == kind)


def test_df_t1a_golden_a_stand_199_5_mm_away_has_ruler_slack_plus_0_5_mm():
    a, b = plane("A", 100, 400, 0), plane("B", 299.5, 400, 0)
    check = tail_check(a, b, [a, b], RULES)
    (r,) = tail_rulings([check], [a, b], RULES)
    assert r.holds and check.ok
    assert _margin(r, MarginKind.REACH).value == pytest.approx(0.5, abs=1e-5)
    assert r.deciding().kind == MarginKind.REACH


def test_df_o1_golden_bases_0_3_mm_apart_have_overlap_margin_minus_0_3_mm():
    a, b = plane("A", 100, 100, 0), plane("B", 100 + SMALL.length_mm + 0.3, 100, 0)
    (r,) = overlap_rulings([a, b])
    assert not r.holds and r.outcome == "apart"
    assert _margin(r, MarginKind.OVERLAP).value == pytest.approx(-0.3, abs=1e-5)
    # diagonal gap: the corners' distance, not the separating axis's bound
    c = plane("C", 100 + SMALL.length_mm + 3.0, 100 + SMALL.width_mm + 4.0, 0)
    (r,) = overlap_rulings([a, c])
    assert _margin(r, MarginKind.OVERLAP).value == pytest.approx(-5.0, abs=1e-5)


def _rotated_about(p, centre, deg):
    pose = Pose(centre[0], centre[1], deg) @ Pose(p.pose.x_mm - centre[0], p.pose.y_mm - centre[1], p.pose.heading_deg)
    return p.replace(pose=pose)


def test_df_d3_golden_a_shot_0_2_deg_inside_the_arc_edge_has_plus_0_2_deg():
    shooter = plane("S", 100, 400, 0)
    target = plane("T", 100 + 150 * math.cos(math.radians(50)), 400 + 150 * math.sin(math.radians(50)), 20)
    corners = target.base.corners(target.pose)
    lowest = min(math.degrees(math.atan2(y - 400, x - 100)) for x, y in corners)
    target = _rotated_about(target, (100, 400), 45 - 0.2 - lowest)  # its nearest corner 0.2 deg inside
    (r,) = firing_rulings([shooter, target], RULES)
    assert r.holds and r.outcome in ("short", "long")
    assert _margin(r, MarginKind.ARC).value == pytest.approx(0.2, abs=1e-9)
    assert _margin(r, MarginKind.ARC).unit == "deg"
    target = _rotated_about(target, (100, 400), 0.4)  # now 0.2 deg outside
    (r,) = firing_rulings([shooter, target], RULES)
    assert not r.holds and _margin(r, MarginKind.ARC).value == pytest.approx(-0.2, abs=1e-9)


def test_df_e1_table_edge_margin_is_the_signed_distance_to_the_play_area():
    inside, out, corner = plane("A", 3.0, 450, 0), plane("B", 905.0, 450, 0), plane("C", -3.0, -4.0, 0)
    rs = table_rulings([inside, out, corner], 900, 900)
    assert [r.holds for r in rs] == [True, False, False]
    assert [m.margins[0].value for m in rs] == pytest.approx([3.0, -5.0, -5.0], abs=1e-5)


def test_one_dimensional_flip_chance_matches_the_normal_closed_form():
    """Only the ruler slack decides (a tail straight ahead, nothing near): the stands'
    distance moves by the difference of two independent N(0, 1 mm) errors along the
    line, so the tail is lost with chance 1 - Phi(slack / (sqrt(2) 1 mm))."""
    a, b = plane("A", 100, 400, 0), plane("B", 299.5, 400, 0)
    rulings = tail_rulings([tail_check(a, b, [a, b], RULES)], [a, b], RULES)
    (r,) = flip_chances(rulings, [a, b], RULES, 900, 900, PlacementError(1.0, 1.0), seed=3)
    closed = 0.5 * math.erfc(0.5 / (math.sqrt(2) * math.sqrt(2)))
    assert r.flip.low <= closed <= r.flip.high
    assert r.flip.high - r.flip.low < 0.02
    assert r.close(0.05)


def test_flip_chances_narrow_enough_and_far_rulings_do_not_flip():
    a, b = plane("A", 100, 400, 0), plane("B", 250, 400, 0)
    (r,) = flip_chances(tail_rulings([tail_check(a, b, [a, b], RULES)], [a, b], RULES), [a, b], RULES, 900, 900)
    assert r.flip.chance == 0 and r.flip.high < 0.01 and not r.close(0.05)


def test_wilson_interval_and_parsers():
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and hi - lo == pytest.approx(2 * 0.0955, abs=0.002)
    assert PlacementError.parse("2mm,0.5deg") == PlacementError(2.0, 0.5)
    assert PlacementError.parse("0.5mm") == PlacementError(0.5, 0.0)
    assert parse_close_call("5%") == pytest.approx(0.05) and parse_close_call("0.1") == pytest.approx(0.1)
    for bad in ("", "1", "1mm,2deg,3mm", "-1mm", "nanmm", "500mm"):
        with pytest.raises(InputError):
            PlacementError.parse(bad)
    for bad in ("0", "100%", "x", "-5%"):
        with pytest.raises(InputError):
            parse_close_call(bad)


def _crowd(rng, n=9, spread=300.0):
    planes = []
    for i in range(n):
        x, y = rng.uniform(300, 300 + spread, 2)
        planes.append(plane(f"P{i}", float(x), float(y), float(rng.uniform(0, 360)), side=f"S{i % 2}",
                            altitude=int(rng.integers(1, 3))))
    return planes


def _all_rulings(planes):
    checks = [tail_check(a, b, planes, RULES) for a in planes for b in planes if a is not b]
    return (tail_rulings(checks, planes, RULES) + overlap_rulings(planes) + firing_rulings(planes, RULES)
            + table_rulings(planes, 1200, 1200))


def _agrees(r) -> bool:
    values = [m.value for m in r.margins if not math.isnan(m.value)]
    if r.fixed and not r.holds:
        return True
    return all(v > 0 for v in values) if r.holds else any(v <= 0 for v in values)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(-2000, 2000), st.floats(-2000, 2000), st.floats(0, 360))
def test_margins_are_invariant_under_rigid_motion_and_agree_with_the_ruling(seed, dx, dy, turn):
    """DF.T1, DF.O1-DF.O3, DF.D3: every margin keeps its value (to 1e-6 mm or degree)
    when the whole table is moved rigidly, and its sign agrees with the referee's ruling
    (every margin positive exactly when the ruling holds). Table edges: the table turned
    half a turn about its centre maps onto itself."""
    planes = _crowd(np.random.default_rng(seed))
    motion = Pose(dx, dy, turn)
    moved = [p.replace(pose=motion @ p.pose) for p in planes]
    here = _all_rulings(planes)[:-len(planes)]
    there = _all_rulings(moved)[:-len(planes)]
    assert [(r.kind, r.planes, r.holds, r.outcome) for r in here] == [(r.kind, r.planes, r.holds, r.outcome)
                                                                        for r in there]
    for r, s in zip(here, there):
        assert _agrees(r), r
        for m, n in zip(r.margins, s.margins):
            if math.isfinite(m.value) and abs(m.value) > 1e-4:
                assert n.value == pytest.approx(m.value, abs=1e-6), (r, m, n)
    half_turn = [p.replace(pose=Pose(1200, 1200, 180) @ p.pose) for p in planes]
    a, b = table_rulings(planes, 1200, 1200), table_rulings(half_turn, 1200, 1200)
    assert [x.margins[0].value for x in a] == pytest.approx([x.margins[0].value for x in b], abs=1e-6)
    assert all(_agrees(r) for r in a)


def test_firing_rulings_list_every_firing_position_of_the_referee():
    """DF.O2, DF.O3: the shots the rulings hold are exactly firing_positions' best shots."""
    for seed in range(6):
        planes = _crowd(np.random.default_rng(seed), n=12, spread=350)
        board = Planes.on_table_of(planes)
        shots = {(s.shooter, s.target): str(s.range) for s in firing_positions(board, RULES).best}
        held = {r.planes: r.outcome for r in firing_rulings(planes, RULES) if r.holds}
        assert held == shots


def _furball_turn(seed):
    rng = np.random.default_rng(seed)
    planes = _crowd(rng, n=10, spread=320)
    orders = {p.name: ["A2", "A2", "A1"] for p in planes}
    return adjudicate(table(*planes, width=1200, height=1200, damage_decks=HARMLESS), orders, seed=seed,
                      samples=False)


@pytest.mark.parametrize("seed", range(3))
def test_turn_margins_rule_as_the_turn_did(seed):
    """Each step's rulings are the turn's own: the overlaps, firing positions, tails and
    planes leaving the table that the report lists (DF.O1, DF.O2, DF.T1, DF.T4, DF.E1)."""
    result = _furball_turn(seed)
    tm = turn_margins(result, flips=False)
    for m in result.maneuvers:
        steps = {s.step: s.rulings for s in tm.steps if s.maneuver == m.index}
        assert {r.planes for r in steps["overlaps"] if r.holds} == {tuple(p) for p in m.overlaps}
        assert {r.planes: r.outcome for r in steps["firing"] if r.holds} == {
            (s.shooter, s.target): str(s.range) for s in m.shots}
        assert {r.planes[0] for r in steps["table edge"] if not r.holds} == set(m.left_table)
        assert [(r.planes, r.holds) for r in steps.get("tails again", ())] == [
            ((c.chaser, c.target), c.ok) for c in m.tail_checks]
    assert all(_agrees(r) for r in tm.rulings)


def test_turn_margins_json_and_same_seed_same_chances():
    result = _furball_turn(1)
    a, b = margins_json(turn_margins(result, seed=4)), margins_json(turn_margins(result, seed=4))
    assert a == b
    flips = [r["flip"] for s in a["steps"] for r in s["rulings"]]
    assert flips and all(f["high"] - f["low"] < 0.02 or f["samples"] == 0 for f in flips)


def test_zones_close_band_df_t1_decisions_are_the_tail_checks_and_the_band_hugs_the_edge():
    """furball zones --close-calls: the kernels' decision at each stand is the tail
    check's (DF.T1, DF.T5), and the close-call band holds stands on the zone's outline
    (the ruler's end) but not those deep inside or far outside it."""
    from furball.maneuvers.zones import _tail_decisions, tail_close_band, zones

    camel, friend = plane("Camel", 250, 420, 0, side="Allies"), plane("Friend", 330, 330, 0, side="Allies")
    z = zones(camel, [camel, friend], RULES)
    rng = np.random.default_rng(0)
    stands = np.c_[rng.uniform(200, 500, 300), rng.uniform(150, 650, 300)]
    got = _tail_decisions(camel, [friend], RULES, stands, 0.0, camel.base, None, 1, rng)[:, 0]
    for (x, y), ok in zip(stands, got):
        enemy = plane("E", float(x), float(y), 0.0, side="Enemy")
        assert ok == tail_ok(camel, enemy, [camel, friend, enemy], RULES) == tail_check(camel, enemy, [camel, friend, enemy], RULES).ok
    assert got.any() and not got.all()
    band = tail_close_band(z, [camel, friend], step_mm=4.0, samples=200)
    from shapely.geometry import Point

    assert band.contains(Point(250 + 200, 420))  # straight ahead at the ruler's length
    assert not band.contains(Point(250 + 120, 420))  # well inside
    assert not band.contains(Point(250 + 260, 420))  # well outside


# -- furball zones --close-calls: the firing ruling's band (issue 27 item 3) -------------------
def _target_at_stand(name, stand, heading, base):
    """A plane on ``base`` flying ``heading`` whose stand is at ``stand`` (as the zones place it)."""
    from furball.geometry.pose import Pose

    return plane(name, 0.0, 0.0, heading, side="Enemy").replace(
        base=base, pose=Pose(float(stand[0]), float(stand[1]), heading) @ base.stand.inverse())


@given(st.floats(0, 360), st.floats(-90, 90), st.sampled_from([0.0, 6.0]))
@settings(max_examples=25, deadline=None)
def test_DF_D3_shot_band_decisions_are_shot_at_rulings(heading, turn, stand_x):
    """The kernels' code at each target stand (no shot, long, short) is the firing
    position ``shot_at`` finds between the two planes alone (DF.O2, DF.D3), a base whose
    stand is off its centre included."""
    import dataclasses

    from furball.maneuvers.firing import FiringRange
    from furball.maneuvers.zones import LONG_SHOT, NO_SHOT, SHORT_SHOT, _shot_decisions

    shooter = plane("S", 250, 420, heading, side="Allies")
    base = dataclasses.replace(SMALL, stand_x_mm=stand_x)
    rng = np.random.default_rng(1)
    stands = np.c_[rng.uniform(0, 500, 60), rng.uniform(170, 670, 60)]
    got = _shot_decisions(shooter, RULES, stands, heading + turn, base, None, 1, rng)[:, 0]
    for stand, code in zip(stands, got):
        target = _target_at_stand("T", stand, heading + turn, base)
        shot = shot_at(shooter, target, [shooter, target], RULES)
        want = NO_SHOT if shot is None else SHORT_SHOT if shot.range == FiringRange.SHORT else LONG_SHOT
        assert code == want


def _flip_share(shooter, stand, heading, samples=400):
    from furball.maneuvers.zones import _shot_decisions

    rng = np.random.default_rng(2)
    stands = np.asarray([stand], float)
    ruled = _shot_decisions(shooter, RULES, stands, heading, SMALL, None, 1, rng)[0, 0]
    return float((_shot_decisions(shooter, RULES, stands, heading, SMALL, PlacementError(), samples, rng)[0]
                  != ruled).mean())


@given(st.floats(150, 180), st.floats(125, 175), st.builds(Pose, st.floats(-1e3, 1e3), st.floats(-1e3, 1e3),
                                                            st.floats(0, 360)))
@settings(max_examples=20, deadline=None)
def test_DF_D3_stands_on_the_arc_line_and_the_range_limits_are_close_calls_far_ones_are_not(along, ahead, m):
    """A target (small base, the shooter's heading) whose front-right corner lies on
    the arc's left line (y = x from the gun, ``along`` mm out), or whose rear edge is at
    the ruler's length or half of it straight ahead (``ahead`` - 150 mm to the side): the firing ruling flips under the
    default placement error well above 5 %; the same target 30 mm inside or outside
    those lines never flips. The whole table moved by any rigid motion ``m``."""
    shooter = plane("S", 0, 0, 0, side="Allies").replace(pose=m)
    half_l, half_w = SMALL.length_mm / 2, SMALL.width_mm / 2
    d = along / math.sqrt(2)

    def moved(x, y):
        return m.apply(np.array([[x, y]]))[0]

    on_arc = (d - half_l, d + half_w)  # the stand whose front-right corner is (d, d)
    normal = np.array([-1.0, 1.0]) / math.sqrt(2)  # out of the arc, across its left line
    cases = [(on_arc, normal)]
    for limit in (RULES.ruler_length_mm, RULES.short_range_mm):  # DF.D3: long, short
        cases.append(((limit + half_l, ahead - 150.0), np.array([1.0, 0.0])))
    for stand, out in cases:
        stand = np.asarray(stand)
        assert _flip_share(shooter, moved(*stand), m.heading_deg) > 0.2
        for far in (stand + 30 * out, stand - 30 * out):
            assert _flip_share(shooter, moved(*far), m.heading_deg) == 0.0


@pytest.mark.slow
def test_zones_shot_close_band_holds_the_ruling_lines_not_far_from_them():
    """furball zones --close-calls, shots: the band drawn (2 mm grid) holds stands on the
    arc line and at the range limits (DF.D3), not those 30 mm away from every line."""
    from shapely.geometry import Point

    from furball.maneuvers.zones import shot_close_band, zones

    shooter = plane("Camel", 250, 420, 0, side="Allies")
    band = shot_close_band(zones(shooter, [shooter], RULES), samples=100)
    half_l, half_w = SMALL.length_mm / 2, SMALL.width_mm / 2
    d = 150 / math.sqrt(2)
    assert band.contains(Point(250 + d - half_l, 420 + d + half_w))  # corner on the arc's left line
    assert band.contains(Point(250 + 200 + half_l, 420))  # rear edge at the ruler's length
    assert band.contains(Point(250 + 100 + half_l, 420))  # short / long
    assert not band.contains(Point(250 + 150 + half_l, 420))  # long range, 50 mm from both limits
    assert not band.contains(Point(250 + 260 + half_l, 420))  # out of range
    assert not band.contains(Point(250 + d - half_l - 30, 420 + d + half_w + 30))  # well outside the arc
    assert shot_close_band(zones(shooter, [shooter], RULES), PlacementError(0.1, 0.1), samples=100).area < band.area


@given(st.floats(0, 360), st.floats(-60, 60), st.floats(0, 180))
@settings(max_examples=20, deadline=None)
def test_DF_O3_shot_band_decisions_with_a_friend_in_the_way_are_shot_at_rulings(heading, offset_mm, friend_heading):
    """With a friend's base in the arc, the kernels' code at each target stand is
    ``shot_at``'s on the three planes: a line of fire into the friend's base is
    blocked (DF.O3), whichever arc or range band it would have been."""
    from furball.geometry.pose import Pose
    from furball.maneuvers.firing import FiringRange
    from furball.maneuvers.zones import LONG_SHOT, NO_SHOT, SHORT_SHOT, _shot_decisions

    shooter = plane("S", 250, 420, heading, side="Allies")
    spot = (shooter.pose @ Pose(90.0, offset_mm, friend_heading - heading))
    friend = plane("F", spot.x_mm, spot.y_mm, spot.heading_deg, side="Allies")
    rng = np.random.default_rng(3)
    stands = np.c_[rng.uniform(0, 500, 80), rng.uniform(170, 670, 80)]
    got = _shot_decisions(shooter, RULES, stands, heading, SMALL, None, 1, rng, [friend])[:, 0]
    for stand, code in zip(stands, got):
        target = _target_at_stand("T", stand, heading, SMALL)
        shot = shot_at(shooter, target, [shooter, friend, target], RULES)
        want = NO_SHOT if shot is None else SHORT_SHOT if shot.range == FiringRange.SHORT else LONG_SHOT
        assert code == want


@pytest.mark.slow
def test_DF_O3_shot_close_band_holds_the_edge_of_a_friends_shadow_not_its_middle():
    """furball zones --close-calls: with a friend's base ahead, the stands where the line
    of fire grazes the friend's base are close calls; those deep in its shadow, or well
    clear of it, are not."""
    from shapely.geometry import Point

    from furball.maneuvers.zones import shot_close_band, zones

    shooter = plane("Camel", 250, 420, 0, side="Allies")
    friend = plane("Friend", 330, 420, 90, side="Allies")
    band = shot_close_band(zones(shooter, [shooter, friend], RULES), step_mm=2.0, samples=100)

    def shot(y):  # a target flying the shooter's heading whose stand is at (400, y)
        target = _target_at_stand("T", (400.0, y), 0.0, SMALL)
        return shot_at(shooter, target, [shooter, friend, target], RULES) is not None

    low, high = 420.0, 560.0  # in the shadow straight ahead; clear of it to the left
    assert not shot(low) and shot(high)
    for _ in range(40):
        mid = (low + high) / 2
        low, high = (mid, high) if not shot(mid) else (low, mid)
    assert band.contains(Point(400.0, low))  # where the line of fire starts to graze the friend
    assert not band.contains(Point(400.0, 420.0))  # deep in the shadow
    assert not band.contains(Point(400.0, low + 40))  # 40 mm clear of its edge


@given(st.integers(0, 10_000))
@settings(max_examples=15, deadline=None)
def test_margins_of_many_rulings_at_once_are_each_rulings_own(seed):
    """The margins are measured for every tail check at once (one call of each measure);
    a crowded table's margins are the ones each check gets alone, number for number, and
    the crossing margins (DF.T1b, DF.T1c) of many segments are each segment's own."""
    from furball.maneuvers.margins import crossing_margin

    rng = np.random.default_rng(seed)
    planes = [plane(f"P{i}", *rng.uniform(300, 600, 2), rng.uniform(0, 360), side="AB"[i % 2]) for i in range(9)]
    checks = [tail_check(a, b, planes, RULES) for a in planes for b in planes if a.side != b.side]
    together = tail_rulings(checks, planes, RULES)
    assert list(map(repr, together)) == [repr(tail_rulings([c], planes, RULES)[0]) for c in checks]  # NaN: repr
    poses = np.c_[rng.uniform(350, 550, (40, 2)), rng.uniform(0, 360, 40)]
    inside, far = poses[:, :2] + rng.uniform(-15, 15, (40, 2)), rng.uniform(250, 650, (40, 2))
    for leaving in (True, False):
        a, b = (inside, far) if leaving else (far, inside)  # the segment leaves or enters the base
        many = crossing_margin(a, b, poses, 44.0, 60.0, leaving)
        one = np.array([crossing_margin(a[k], b[k], poses[k], 44.0, 60.0, leaving)[0] for k in range(40)])
        assert np.array_equal(many, one, equal_nan=True) and (many > 0).any() and (many < 0).any()
