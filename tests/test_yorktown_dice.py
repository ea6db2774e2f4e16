"""The continuous roll (YT.D1-D3): the explicit process, and its exact Markov chain
checked against simulation of the same process."""
import math
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from furball.scenarios.yorktown.dice import (
    RollChain,
    RollEnd,
    RollPolicy,
    continuous_roll,
    keep_faces,
    p_success,
    roll_summary,
    satisfies,
    throw_outcomes,
)


def test_YT_D1_one_throw_probabilities_are_exact():
    """YT.D1."""
    assert math.isclose(p_success(2, (2,), 1), 5 / 36)  # a pair of 2-6 with two dice
    assert math.isclose(p_success(3, (2,), 1), 80 / 216)
    assert math.isclose(p_success(3, (3,), 1), 5 / 216)
    # brute force over every outcome of 4 dice: two pairs (four equal count, YT.R1) of faces 2-6
    hits = sum(1 for faces in product(range(1, 7), repeat=4)
               if satisfies(tuple(sorted((faces.count(f) for f in range(2, 7) if faces.count(f)), reverse=True)), (2, 2)))
    assert math.isclose(p_success(4, (2, 2), 1), hits / 6 ** 4)


def test_YT_D2_one_throw_outcomes_sum_to_one_and_count_ones():
    """YT.D2."""
    for kept, r in (((), 5), ((2,), 3), ((1, 1), 4), ((3,), 1)):
        outcomes = throw_outcomes(kept, r, 6)
        assert math.isclose(sum(p for _, _, p in outcomes), 1.0)
        mean_ones = sum(o * p for o, _, p in outcomes)
        assert math.isclose(mean_ones, r / 6)  # each thrown die shows 1 with chance 1/6


def test_YT_D2_within_k_throws_grows_with_k_and_dice():
    """YT.D2."""
    values = [p_success(4, (3,), k) for k in range(1, 8)]
    assert all(a < b for a, b in zip(values, values[1:]))
    assert p_success(6, (3,), 3) > p_success(5, (3,), 3) > p_success(4, (3,), 3)
    assert p_success(2, (3,), 10) == 0.0  # fewer dice than the set: impossible


@pytest.mark.parametrize("dice, aim, throws, fuel", [
    (5, (3,), 5, None), (5, (2, 2), 4, 3), (6, (4,), 8, 4), (4, (2,), 3, 1), (7, (3, 2), 6, 5),
])
def test_YT_D1_D2_D3_chain_agrees_with_simulation_of_the_process(dice, aim, throws, fuel):
    """YT.D1. The chain's success and crash probabilities match 4000 simulated rolls within
    4.5 standard errors."""
    policy = RollPolicy(max_throws=throws, fuel_reserve=1)
    met, crash, best = roll_summary(dice, aim, policy, fuel)
    assert math.isclose(sum(best) + crash, 1.0)
    rng = np.random.default_rng(12345)
    n = 4000
    ends = [continuous_roll(dice, aim, policy, lambda r: rng.integers(1, 7, size=r).tolist(), fuel).end
            for _ in range(n)]
    for p, end in ((met, RollEnd.MET), (crash, RollEnd.CRASHED)):
        observed = sum(1 for e in ends if e == end) / n
        se = math.sqrt(max(p * (1 - p), 1e-4) / n)
        assert abs(observed - p) < 4.5 * se, (end, p, observed)


def test_YT_D2_ones_cost_fuel_and_a_one_with_no_fuel_left_crashes():
    """YT.D2."""
    faces = iter([1, 1, 2])
    r = continuous_roll(3, (2,), RollPolicy(8, 0), lambda n: [next(faces) for _ in range(n)], fuel=1)
    assert r.end == RollEnd.CRASHED and r.fuel_spent == 1 and r.ones == 2
    faces = iter([1, 1, 2])
    r = continuous_roll(3, (2,), RollPolicy(8, 0), lambda n: [next(faces) for _ in range(n)], fuel=None)
    assert r.end == RollEnd.STOPPED and r.ones == 2 and r.fuel_spent == 0  # landing: 1s lock for free


def test_YT_D2_set_aside_dice_may_be_picked_up_again():
    """YT.D2."""
    # 4 dice for a triple: 2 2 3 4 keeps the 2s; 3 3 shows next: the 2s are picked up, the 3s kept
    counts = [0, 0, 2, 2, 0, 0, 0]
    kept = keep_faces(counts, (3,), 4)
    assert sum(kept) == 2 and kept[2] + kept[3] == 2
    counts = [0, 0, 1, 3, 0, 0, 0]
    assert keep_faces(counts, (4,), 4)[3] == 3 and keep_faces(counts, (4,), 4)[2] == 0


def test_the_policy_stops_at_the_fuel_reserve_and_the_throw_limit():
    calls = []

    def draw(n):
        calls.append(n)
        return [2, 3, 4, 5, 6][:n] if n <= 5 else [2, 3, 4, 5, 6] + [1] * (n - 5)
    r = continuous_roll(5, (3,), RollPolicy(max_throws=3, fuel_reserve=0), draw, fuel=10)
    assert r.end == RollEnd.STOPPED and r.throws == 3
    calls.clear()
    r = continuous_roll(5, (3,), RollPolicy(max_throws=8, fuel_reserve=2), lambda n: [1] + [2, 3, 4, 5][:n - 1],
                        fuel=3)
    assert r.end == RollEnd.STOPPED and r.fuel_spent == 1 and r.throws == 1  # 3 - 1 = 2 <= reserve: stop


def test_every_throw_asks_the_clock_and_the_clock_can_end_a_roll():
    ticks = []
    r = continuous_roll(3, (3,), RollPolicy(8, 0), lambda n: [2, 3, 4][:n], None, on_throw=lambda: ticks.append(1)
                        or len(ticks) < 3)
    assert r.end == RollEnd.TIME and r.throws == 2 and len(ticks) == 3


@given(st.integers(2, 7), st.sampled_from([(2,), (3,), (4,), (2, 2), (3, 2)]), st.integers(1, 6),
       st.one_of(st.none(), st.integers(0, 8)))
def test_chain_distributions_are_probability_distributions(dice, aim, throws, fuel):
    chain = RollChain(aim, RollPolicy(throws, 1), fuel)
    dist = chain.distribution(dice)
    assert math.isclose(sum(dist.values()), 1.0, abs_tol=1e-9)
    assert all(p >= -1e-12 for p in dist.values())
    if fuel is None:
        assert not any(state[0] == RollEnd.CRASHED for state in dist)


def test_the_chain_is_exact_in_rationals_for_one_throw():
    # P(at least a pair of 2-6 in one throw of 3 dice) = 80/216 exactly
    assert Fraction(p_success(3, (2,), 1)).limit_denominator(1000) == Fraction(80, 216)


def test_expert_decisive_throws_the_first_one_again_and_efficient_pays_no_fuel():
    faces = iter([1, 4, 4])  # the 1 is thrown again and shows a 4: a pair at once, no 1 locked
    r = continuous_roll(2, (2,), RollPolicy(), lambda n: [next(faces) for _ in range(n)], fuel=3,
                        reroll_first_one=True)
    assert r.end == RollEnd.MET and r.ones == 0 and r.fuel_spent == 0
    faces = iter([1, 1, 5, 5])  # Efficient: fuel=None, the two 1s lock for free even with no fuel
    r = continuous_roll(4, (2,), RollPolicy(), lambda n: [next(faces) for _ in range(n)], fuel=None)
    assert r.end == RollEnd.MET and r.ones == 2 and r.fuel_spent == 0
