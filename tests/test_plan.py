"""Plan legality: three cards of the deck, sequencing flags across turns (DF.M1, DF.M5)."""
import pytest
from planes import RULES, plane

from furball.maneuvers.plan import PlanError, check_plan, plan_problem

CAMEL = plane("Camel", 0, 0, altitude=2)


def test_DF_M1_a_plan_is_three_cards_of_the_planes_deck():
    assert [c.id for c in check_plan(CAMEL, ["A1", "A4", "A2"], None, RULES)] == ["A1", "A4", "A2"]
    with pytest.raises(PlanError, match=r"plan has 2 cards, expected 3 \(DF.M1\)"):
        check_plan(CAMEL, ["A1", "A4"], None, RULES)
    with pytest.raises(PlanError, match=r"card 'M1' \(3rd maneuver\): not a card of deck 'A'"):
        check_plan(CAMEL, ["A1", "A4", "M1"], None, RULES)


def test_DF_M5_no_two_steep_cards_in_a_row_even_across_turns():
    with pytest.raises(PlanError, match=r"plane 'Camel': card 'A13' \(2nd maneuver\): two steep"):
        check_plan(CAMEL, ["A8", "A13", "A1"], None, RULES)
    after_steep = CAMEL.replace(last_card="A9")
    with pytest.raises(PlanError, match=r"card 'A8' \(1st maneuver\).*after 'A9'"):
        check_plan(after_steep, ["A8", "A1", "A2"], None, RULES)
    check_plan(after_steep, ["A1", "A8", "A2"], None, RULES)


def test_DF_M5_immelmann_needs_straights_around_it_across_turns():
    with pytest.raises(PlanError, match="must follow a straight, not 'A4'"):
        check_plan(CAMEL, ["A4", "A12", "A1"], None, RULES)
    check_plan(CAMEL, ["A1", "A12", "A2"], None, RULES)
    last_turn_immelmann = CAMEL.replace(last_card="A12")
    problem = plan_problem(last_turn_immelmann, ["A4", "A1", "A2"], None, RULES)
    assert problem.rule == "DF.M5" and problem.card == "A4" and "followed by a straight" in str(problem)
    assert plan_problem(last_turn_immelmann, ["A3", "A1", "A2"], None, RULES) is None


def test_DF_M5_sequencing_is_a_rule_option_that_can_be_switched_off():
    """DF.M5 comes from the published game, not the source: [rules] can switch it off."""
    import dataclasses

    free = dataclasses.replace(RULES, steep_sequencing=False, immelmann_sequencing=False)
    assert plan_problem(CAMEL, ["A8", "A13", "A1"], None, RULES).rule == "DF.M5"
    assert plan_problem(CAMEL, ["A8", "A13", "A1"], None, free) is None
    assert plan_problem(CAMEL, ["A4", "A12", "A1"], None, free) is None
    only_steep = dataclasses.replace(RULES, immelmann_sequencing=False)
    assert plan_problem(CAMEL, ["A4", "A12", "A1"], None, only_steep) is None
    assert plan_problem(CAMEL, ["A8", "A13", "A1"], None, only_steep).rule == "DF.M5"


def test_drops_are_checked_against_the_bombs_aboard():
    bomber = plane("Gotha", 0, 0, deck="M", base="large", bombs_at_start=4, bombs=4)
    with pytest.raises(PlanError, match="drops 5 bombs but carries 4") as failed:
        check_plan(bomber, ["M1", "M2", "M3"], [2, 3, 0], RULES)
    assert failed.value.rule == "DF.B1" and failed.value.plane == "Gotha"
    with pytest.raises(PlanError, match="drops must be 3 whole numbers"):
        check_plan(bomber, ["M1", "M2", "M3"], [2, 0], RULES)
