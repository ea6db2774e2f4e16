"""Issue 25.3: a big turn in batches — the referee's answers and the referee's numbers.

The turn's firing positions come from one batch pass (:func:`firing_positions`) whose
closest in-arc points are the scalar :func:`closest_in_sector`'s bit for bit, its lines
of fire decided by the kernels on those very aim points; overlaps, tails and collision
combinations are found among near pairs only. Every answer and every number must be the
scalar path's (DF.O1-DF.O3, DF.T1, DF.C3, DF.E1, DF.A2)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kernel_paths import MODES, compiled_path
from oracles import Board, arc_shots, shot_at, tail_ok
from planes import plane, table

from furball.geometry import kernels as gk
from furball.geometry.base import rectangle_corners
from furball.geometry.pose import Pose
from furball.geometry.sector import closest_in_sector, closest_in_sector_batch
from furball.maneuvers.batch import Planes, may_tail, overlaps
from furball.maneuvers.collision import collision_test, collision_tests
from furball.maneuvers.firing import autonomous_fire, firing_positions, shots
from furball.maneuvers.firing import shot_at as referee_shot_at
from furball.maneuvers.plane import default_rules
from furball.maneuvers.tailing import tail_check

RULES = default_rules()


def _sector_cases(rng, n):
    apex = np.c_[rng.uniform(-900, 900, (n, 2)), rng.uniform(0, 360, n)]
    apex[::4, 2] = np.round(apex[::4, 2] / 90.0) * 90.0  # quarter turns: exact trigonometry
    centre = rng.choice([0.0, 180.0, 90.0, -30.0, 45.0], n)
    half = rng.choice([45.0, 30.0, 90.0, 91.0, 120.0, 179.5, 180.0, 60.0], n)
    target = np.c_[apex[:, :2] + rng.uniform(-260, 260, (n, 2)), rng.uniform(0, 360, n)]
    target[::3, 2] = apex[::3, 2] + rng.choice([0.0, 90.0, 45.0], len(target[::3]))
    return apex, centre, half, target, rng.choice([44.0, 60.0, 20.0], n), rng.choice([60.0, 44.0, 90.0], n)


def test_issue_25_the_batch_closest_in_arc_point_is_the_scalar_one_bit_for_bit():
    """Every distance and aim point of closest_in_sector_batch equals the scalar
    function's exactly (==, not approximately): one, two and whole-plane sectors,
    quarter-turn headings, bases inside, across and outside the arcs."""
    apex, centre, half, target, length, width = _sector_cases(np.random.default_rng(25), 3000)
    dist, aim = closest_in_sector_batch(apex, centre, half, rectangle_corners(target, length, width))
    found = 0
    for k in range(len(apex)):
        ref = closest_in_sector(Pose.from_array(apex[k]), float(centre[k]), float(half[k]),
                                rectangle_corners(target[k], length[k], width[k])[0])
        if ref is None:
            assert np.isinf(dist[k]) and np.isnan(aim[k]).all()
            continue
        found += 1
        assert (ref[0], float(ref[1][0]), float(ref[1][1])) == (dist[k], aim[k, 0], aim[k, 1]), k
    assert 500 < found < len(apex) - 500


def _crowd(seed, n=14, spread=260.0):
    """Planes of every kind packed close: rear gunners (deck M, two arcs), autonomous
    planes, a landed plane, a balloon; three sides; overlaps, blocked lines, ties."""
    rng = np.random.default_rng(seed)
    kinds = [dict(), dict(deck="M", base="large", engines="multi"), dict(autonomous=True), dict()]
    planes = []
    for i in range(n):
        kw = dict(kinds[int(rng.integers(0, len(kinds)))])
        altitude = int(rng.integers(1, 3))
        if i == 3:
            kw, altitude = dict(status="landed"), 0
        if i == 5:
            kw = dict(kind="balloon", deck=None, base="small")
        x, y = rng.uniform(200, 200 + spread, 2)
        heading = float(rng.choice([0.0, 90.0, rng.uniform(0, 360)]))
        planes.append(plane(f"P{i:02d}", x, y, heading, side=f"S{i % 3}", altitude=altitude, **kw))
    return planes


@pytest.mark.parametrize("seed", range(8))
def test_issue_25_firing_positions_are_the_referees_shots_bit_for_bit(seed):
    """DF.O2, DF.O3, arcs, range bands: firing_positions gives, for every ordered pair,
    exactly arc_shots' shots (every field equal, floats included) and shot_at's best
    shot, on the scalar, pair-loop and grid paths of the kernels."""
    planes = _crowd(seed)
    board = Board(planes)
    expected = {(a.name, b.name): arc_shots(a, b, planes, RULES, board) for a in board.planes for b in board.planes
                if a is not b}
    best = [shot_at(a, b, planes, RULES, board) for a in board.planes for b in board.planes if a is not b]
    assert sum(map(len, expected.values())) >= 3
    for mode in (None, *MODES):
        with compiled_path(mode) if mode else _nothing():
            positions = firing_positions(Planes.on_table_of(planes), RULES)
            assert {pair: positions.of(*pair) for pair in expected} == expected, mode
            assert list(positions.best) == [s for s in best if s is not None], mode
            assert shots(planes, RULES) == list(positions.best)
            assert [referee_shot_at(a, b, planes, RULES) for a in board.planes for b in board.planes
                    if a is not b] == best


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.mark.parametrize("seed", range(4))
def test_issue_25_autonomous_fire_from_the_batch_pass_is_the_scalar_choice(seed):
    """DF.A2: an autonomous plane's guns pick the same targets (and draw the same ties)
    from the batch pass as from arc_shots one target at a time."""
    planes = _crowd(seed + 40)
    board = Planes.on_table_of(planes)
    positions = firing_positions(board, RULES)
    for p in planes:
        if not (p.flying and not p.is_balloon):
            continue
        scalar = autonomous_fire(p, planes, RULES, np.random.default_rng(seed))
        batch = autonomous_fire(p, planes, RULES, np.random.default_rng(seed), board, positions=positions)
        assert batch == scalar


@pytest.mark.parametrize("seed", range(4))
def test_issue_25_overlaps_tails_and_collisions_among_near_pairs_are_the_scalar_answers(seed):
    """DF.O1, DF.T1/T5-T7, DF.C3: the near-pair searches miss nothing and decide as the
    scalar predicates, pair by pair."""
    planes = _crowd(seed + 80, n=18)
    board = Board(planes)
    for mode in (None, *MODES):
        with compiled_path(mode) if mode else _nothing():
            assert np.array_equal(overlaps(Planes.of(planes)), board.overlap)
            ok = may_tail(Planes.of(planes), RULES)
            for i, a in enumerate(planes):
                for j, b in enumerate(planes):
                    if i != j:
                        assert ok[i, j] == tail_ok(a, b, planes, RULES) == tail_check(a, b, planes, RULES).ok
            pairs = [(a, b) for i, a in enumerate(planes) for b in planes[i + 1:]
                     if board.overlap[board.index[a.name], board.index[b.name]] if a.on_table and b.on_table]
            assert pairs
            assert collision_tests(pairs) == [collision_test(a, b) for a, b in pairs]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(-50, 50), st.floats(-50, 50)), min_size=0, max_size=40), st.floats(0.5, 30))
def test_issue_25_near_pairs_finds_exactly_the_pairs_within_the_radius(points, radius):
    p = np.array(points, float).reshape(-1, 2)
    i, j = gk.near_pairs(p, radius)
    brute = [(a, b) for a in range(len(p)) for b in range(a + 1, len(p))
             if np.hypot(p[b, 0] - p[a, 0], p[b, 1] - p[a, 1]) <= radius]
    assert list(zip(i.tolist(), j.tolist())) == brute


def test_issue_25_a_big_turn_gives_the_same_report_whether_or_not_the_kernels_are_compiled():
    """Same seed, same turn JSON, byte for byte, on the scalar path and the compiled loops."""
    import json

    from furball.scenarios.dogfight import adjudicate, turn_json

    planes = [p for p in _crowd(7, n=24, spread=420.0) if p.flying and not p.is_balloon]
    orders = {p.name: ["A2", "A2", "A1"] if p.deck.name == "A" else ["M2", "M2", "M1"] for p in planes
              if not p.autonomous}
    t = table(*planes)
    reference = json.dumps(turn_json(adjudicate(t, orders, seed=3, samples=False)))
    for mode in MODES:
        with compiled_path(mode):
            assert json.dumps(turn_json(adjudicate(t, orders, seed=3, samples=False))) == reference
