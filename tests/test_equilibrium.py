"""Issue #21 item 5: the plan-pair table as a zero-sum matrix game, solved by linear
programming (scipy HiGHS): the payoff as documented, and neither side gains by
deviating from its mix."""
import dataclasses
import json

import numpy as np
import pytest
from planes import DECKS, HARMLESS, plane, table

from furball.errors import InputError
from furball.scenarios.dogfight import adjudicate
from furball.scenarios.dogfight.equilibrium import equilibrium, equilibrium_text, payoff_table, solve_zero_sum

FOUR = dataclasses.replace(DECKS["A"], name="four", autonomous=None, cards=tuple(
    c for c in DECKS["A"].cards if c.id in ("A1", "A3", "A6", "A7")))
"""A four-card deck (the collision cards A6/A7 included): 64 plans."""
SIX = dataclasses.replace(DECKS["A"], name="six", autonomous=None, cards=tuple(
    c for c in DECKS["A"].cards if c.id in ("A1", "A3", "A4", "A5", "A6", "A7")))


def duel(deck, gap=170.0, **kw):
    """Nose to nose, ``gap`` mm apart."""
    return table(plane("Camel", 300, 400, 0, side="Allies", **kw).replace(deck=deck),
                 plane("Albatros", 300 + gap, 420, 180, side="Central").replace(deck=deck), damage_decks=HARMLESS)


def tailing(deck):
    """The shipped duel's positions: the Camel on the Albatros's tail."""
    return table(plane("Camel", 250, 420, 0, side="Allies").replace(deck=deck),
                 plane("Albatros", 400, 440, 10, side="Central").replace(deck=deck), damage_decks=HARMLESS)


@pytest.mark.parametrize("t,mixed", [(tailing(FOUR), True), (tailing(SIX), True), (duel(SIX, 150.0), False)],
                         ids=["four-tailing", "six-tailing", "six-nose-to-nose"])
def test_neither_side_gains_by_deviating_from_its_mix(t, mixed):
    """Best response to the enemy's mix is no better than the value, and the enemy's
    best response to the plane's mix no worse (within 1e-6); behind the enemy the
    plane's best is a true mix of several plans."""
    found = equilibrium(t, "Camel")
    _, _, payoff = payoff_table(t, "Camel", "Albatros")
    x, y, v = found.mix, found.enemy_mix, found.value
    assert np.all(x >= 0) and np.all(y >= 0) and abs(x.sum() - 1) < 1e-9 and abs(y.sum() - 1) < 1e-9
    assert (payoff @ y).max() <= v + 1e-6      # the plane cannot do better than v against y
    assert (x @ payoff).min() >= v - 1e-6      # the enemy cannot hold it below v against x
    assert found.support() and found.support(enemy=True)
    assert abs(float(x @ payoff @ y) - v) < 1e-6
    if mixed:
        assert len(found.support()) > 2 and len(found.support(enemy=True)) > 2 and v > 1.0


def test_known_matrix_games():
    """Matching pennies (value 0, 1/2-1/2) and a saddle point; duplicate rows merged."""
    x, y, v = solve_zero_sum(np.array([[1.0, -1.0], [-1.0, 1.0], [1.0, -1.0]]))
    assert abs(v) < 1e-9 and abs(x[0] + x[2] - 0.5) < 1e-9 and x[2] == 0 and np.allclose(y, [0.5, 0.5])
    x, y, v = solve_zero_sum(np.array([[3.0, 5.0], [1.0, 2.0]]))
    assert v == pytest.approx(3.0) and np.allclose(x, [1, 0]) and np.allclose(y, [1, 0])


def test_the_payoff_is_half_the_difference_of_the_two_sides_scores_as_adjudicated():
    """(Camel's score - Albatros's score) / 2 with short 2, long 1 and leaving -10 each,
    checked against adjudicate's firing positions (harmless damage decks: nobody is
    destroyed, the geometry is the rules')."""
    t = duel(SIX, 150.0)
    mine, theirs, payoff = payoff_table(t, "Camel", "Albatros")
    rng = np.random.default_rng(1)
    weight = {"short": 2.0, "long": 1.0}
    for i, j in rng.integers(0, [len(mine), len(theirs)], (12, 2)):
        r = adjudicate(t, {"Camel": mine[i], "Albatros": theirs[j]}, seed=1, samples=False)
        given = sum(weight[s.range] for m in r.maneuvers for s in m.shots if s.shooter == "Camel")
        taken = sum(weight[s.range] for m in r.maneuvers for s in m.shots if s.shooter == "Albatros")
        leave = {n: float(r.after.plane(n).status == "out") for n in ("Camel", "Albatros")}
        assert payoff[i, j] == pytest.approx(given - taken - 5.0 * (leave["Camel"] - leave["Albatros"]))


def test_text_json_and_refusals():
    found = equilibrium(duel(FOUR), "Camel", vs="Albatros")
    text = equilibrium_text(found, 3)
    assert "value of the game for Camel" in text and "Albatros's mixed strategy" in text and "HiGHS" in text
    doc = json.loads(json.dumps(found.as_json()))
    assert abs(sum(r["weight"] for r in doc["mix"]) - 1) < 1e-9 and doc["shape"] == [64, 64]
    with pytest.raises(InputError, match="enemy"):
        equilibrium(duel(FOUR), "Camel", vs="Camel")


@pytest.mark.slow
def test_cli_equilibrium_on_the_duel_prints_both_mixes_and_the_value(cli):
    code, out, err = cli(["analyze", "scenarios/examples/duel.toml", "--plane", "Camel", "--equilibrium"])
    assert code == 0, err
    assert "Camel's mixed strategy" in out and "Albatros's mixed strategy" in out and "value of the game" in out
