"""Damage inside a turn (DF.D1-DF.D7, DF.C4, DF.C5; from the published game): golden
cases with decks whose order is known, the piles, the specials, saving and reloading."""
import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from planes import HARMLESS, RULES, plane, table

from furball.errors import InputError
from furball.maneuvers.damage import (
    DamageCard,
    DamageDeck,
    Special,
    SpecialEffect,
    load_damage_deck,
    parse_damage_deck,
    shipped_damage_decks,
)
from furball.maneuvers.plan import PlanError, check_plan, plan_problem
from furball.scenarios.dogfight import Scenario, adjudicate, parse_scenario, scenario_toml
from furball.scenarios.dogfight.analysis import legal_plans
from furball.scenarios.dogfight.damage import DamageCause, LossReason

EFFECTS = {
    Special.EXPLOSION: SpecialEffect(Special.EXPLOSION, "boom", destroys=True),
    Special.FIRE: SpecialEffect(Special.FIRE, "burns", maneuvers=3, burn_points=1),
    Special.JAMMED_GUN: SpecialEffect(Special.JAMMED_GUN, "jams", maneuvers=3, silences_guns=True),
    Special.ENGINE: SpecialEffect(Special.ENGINE, "no climb", maneuvers=6, forbids=frozenset({"climb"})),
}


def deck(letter, *cards):
    """A damage deck whose cards are ``(value, special or None)``, in this order."""
    return DamageDeck(letter, tuple(DamageCard(f"{letter}#{i + 1}", v, s) for i, (v, s) in enumerate(cards)),
                      tuple(sorted(EFFECTS.items())), "reconstruction", "test deck")


def decks(**given):
    """The harmless decks with some letters replaced."""
    return tuple(given.get(d.letter, d) for d in HARMLESS)


NO_STEEP = dataclasses.replace(RULES, steep_sequencing=False)
STAY = ["A13", "A13", "A13"]  # stalls: the planes keep their places (DF.M4)


def facing(gap_mm, **kw):
    """Two planes nose to nose, stands ``gap_mm`` apart (each fires at the other)."""
    a = plane("Camel", 400, 400, 0, side="Allies", **kw.pop("camel", {}))
    b = plane("Albatros", 400 + gap_mm, 400, 180, side="Central", **kw.pop("albatros", {}))
    return table(a, b, rules=NO_STEEP, **kw)


def draws(result, k=0, cause=None):
    return [d for d in result.maneuvers[k].damage if cause is None or d.cause == cause]


def test_DF_D3_a_short_range_shot_draws_two_cards_of_the_guns_letter():
    b = deck("B", *[(1, None)] * 10)
    r = adjudicate(facing(90, damage_decks=decks(B=b), piles={"B": tuple(range(1, 11))}),
                   {"Camel": STAY, "Albatros": STAY}, seed=1)
    m = r.maneuvers[0]
    assert {(s.shooter, s.range) for s in m.fire} == {("Camel", "short"), ("Albatros", "short")}
    taken = [(d.plane, d.card.id, d.letter, d.by) for d in draws(r)]
    # shooter by shooter in name order (Albatros first), two cards each, from the top
    assert taken == [("Camel", "B#1", "B", "Albatros"), ("Camel", "B#2", "B", "Albatros"),
                     ("Albatros", "B#3", "B", "Camel"), ("Albatros", "B#4", "B", "Camel")]
    end = {p.name: p for p in m.planes}
    assert end["Camel"].damage == ("B#1", "B#2") and end["Camel"].damage_taken == 2


def test_DF_D3_a_long_range_shot_draws_one_card_and_the_rule_counts_are_configurable():
    b = deck("B", *[(1, None)] * 10)
    t = facing(150, damage_decks=decks(B=b), piles={"B": tuple(range(1, 11))})
    r = adjudicate(t, {"Camel": STAY, "Albatros": STAY}, seed=1)
    assert {s.range for s in r.maneuvers[0].fire} == {"long"}
    assert [d.card.id for d in draws(r)] == ["B#1", "B#2"]  # one card per shot
    three = t.replace(rules=dataclasses.replace(t.rules, long_range_cards=3))
    assert len(draws(adjudicate(three, {"Camel": STAY, "Albatros": STAY}, seed=1))) == 6


def test_DF_D2_the_gun_letter_decides_the_deck_and_a_plane_without_a_nose_gun_does_not_fire():
    t = facing(90, camel={"guns": {"nose": "D"}}, albatros={"guns": {"rear": "A"}})
    r = adjudicate(t, {"Camel": STAY, "Albatros": STAY}, seed=1)
    assert [(s.shooter, s.target) for s in r.maneuvers[0].fire] == [("Camel", "Albatros")]
    assert {d.letter for d in draws(r)} == {"D"}
    assert {(s.shooter, s.target) for s in r.maneuvers[0].shots} == {("Camel", "Albatros"), ("Albatros", "Camel")}


def test_DF_C4_a_collision_draws_one_A_card_for_each_plane_and_only_an_explosion_applies():
    a_deck = deck("A", (2, Special.FIRE), (1, Special.JAMMED_GUN), (1, None))
    a = plane("A", 300, 300, side="Allies")
    b = plane("B", 300, 340, side="Central")
    t = table(a, b, damage_decks=decks(A=a_deck), piles={"A": (1, 2, 3)})
    for seed in range(50):
        r = adjudicate(t, {"A": ["A2"] * 3, "B": ["A2"] * 3}, seed=seed)
        if r.maneuvers[0].collisions[0].collided:
            break
    else:  # pragma: no cover
        pytest.fail("no collision in 50 seeds")
    got = draws(r, 0, DamageCause.COLLISION)
    assert [(d.plane, d.letter, d.card.id, d.by) for d in got] == [("A", "A", "A#1", "B"), ("B", "A", "A#2", "A")]
    assert [d.applied for d in got] == [False, False]  # fire and jam do not apply in a collision (DF.C4)
    end = {p.name: p for p in r.maneuvers[0].planes}
    assert end["A"].effects == () and end["A"].damage_taken == 2 and end["B"].damage_taken == 1


def test_DF_C5_a_balloon_collision_draws_a_C_card_for_both():
    c_deck = deck("C", (3, None), (4, None))
    p = plane("Camel", 300, 300, side="Allies")
    balloon = plane("Drachen", 300, 330, side="Central", deck=None, kind="balloon")
    r = adjudicate(table(p, balloon, damage_decks=decks(C=c_deck), piles={"C": (1, 2)}, rules=NO_STEEP),
                   {"Camel": STAY}, seed=1)
    got = draws(r, 0, DamageCause.COLLISION)
    assert sorted((d.plane, d.letter, d.points) for d in got) == [("Camel", "C", 3), ("Drachen", "C", 4)]


def test_DF_D5_exactly_at_its_damage_points_a_plane_is_destroyed_at_the_end_of_the_maneuver_and_DF_D4_its_shots_count():
    b = deck("B", *[(1, None)] * 10)
    t = facing(90, camel={"damage_points": 4, "damage_taken": 2}, damage_decks=decks(B=b),
               piles={"B": tuple(range(1, 11))})
    r = adjudicate(t, {"Camel": STAY, "Albatros": STAY}, seed=1)
    m = r.maneuvers[0]
    camel = {p.name: p for p in m.planes}["Camel"]
    assert camel.damage_taken == 4 and camel.status == "destroyed"       # exactly at its points (DF.D5)
    assert [(x.plane, x.reason) for x in m.lost] == [("Camel", LossReason.DAMAGE)]
    assert [d.by for d in m.damage if d.plane == "Albatros"] == ["Camel", "Camel"]   # its shot counted (DF.D4)
    assert [mv.plane for mv in r.maneuvers[1].moves] == ["Albatros"]      # gone from then on
    assert r.maneuvers[1].fire == () and r.after.plane("Camel").status == "destroyed"
    one_less = t.replace(planes=(t.planes[0].replace(damage_taken=1), t.planes[1]))
    assert adjudicate(one_less, {"Camel": STAY, "Albatros": STAY}, seed=1).maneuvers[0].lost == ()


def test_DF_D5_an_explosion_destroys_at_once():
    """From a shot: the second card of a short-range shot is not drawn; from a collision
    (DF.C4: the one special that applies there): the plane is gone before firing."""
    b = deck("B", (0, Special.EXPLOSION), (1, None), (1, None), (1, None))
    r = adjudicate(facing(90, damage_decks=decks(B=b), piles={"B": (1, 2, 3, 4)}), {"Camel": STAY, "Albatros": STAY},
                   seed=1)
    m = r.maneuvers[0]
    on_camel = [d.card.id for d in m.damage if d.plane == "Camel"]
    assert on_camel == ["B#1"] and [(x.plane, x.reason) for x in m.lost] == [("Camel", LossReason.EXPLOSION)]
    assert [d.card.id for d in m.damage if d.plane == "Albatros"] == ["B#2", "B#3"]   # simultaneous (DF.D4)

    a_deck = deck("A", (0, Special.EXPLOSION), (0, None))
    a, c = plane("A", 300, 300, side="Allies"), plane("B", 300, 340, side="Central")
    enemy = plane("Far", 420, 320, 180, side="Central")
    t = table(a, c, enemy, damage_decks=decks(A=a_deck), piles={"A": (1, 2)}, rules=NO_STEEP)
    for seed in range(50):
        r = adjudicate(t, {"A": ["A2"] * 3, "B": ["A2"] * 3, "Far": STAY}, seed=seed)
        if r.maneuvers[0].collisions and r.maneuvers[0].collisions[0].collided:
            break
    else:  # pragma: no cover
        pytest.fail("no collision in 50 seeds")
    m = r.maneuvers[0]
    assert [(x.plane, x.reason) for x in m.lost] == [("A", LossReason.EXPLOSION)]
    assert all(s.shooter != "A" for s in m.fire) and {p.name: p for p in m.planes}["A"].status == "destroyed"


def test_DF_D6_fire_burns_the_next_maneuvers_a_jam_silences_and_engine_damage_forbids_climbing():
    b = deck("B", (1, Special.FIRE), (0, Special.JAMMED_GUN), (0, Special.ENGINE), *[(0, None)] * 20)
    # long range: Albatros fires first (name order) and draws B#1 (fire) on the Camel, the Camel draws B#2 (jam)
    t = facing(150, damage_decks=decks(B=b), piles={"B": tuple(range(1, 24))})
    r = adjudicate(t, {"Camel": STAY, "Albatros": STAY}, seed=1)
    fire = [d.points for m in r.maneuvers for d in m.damage if d.cause == DamageCause.FIRE and d.plane == "Camel"]
    assert fire == [1, 1]  # received in maneuver 1, burns at the end of maneuvers 2 and 3 (then 1 more left)
    assert [e.maneuvers_left for e in r.after.plane("Camel").effects] == [1]
    assert all(s.shooter != "Albatros" for m in r.maneuvers[1:] for s in m.fire)  # jammed (DF.D6)
    assert any(s.shooter == "Albatros" for s in r.maneuvers[1].shots)  # it still has the position
    engine = r.after.plane("Camel").replace(effects=(
        dataclasses.replace(r.after.plane("Camel").effects[0], forbids=("climb",)),))
    with pytest.raises(PlanError) as err:
        check_plan(engine, ["A1", "A14", "A2"], None, NO_STEEP)
    assert err.value.rule == "DF.D6" and "A14" in str(err.value)


def test_DF_D7_piles_draw_without_replacement_and_reshuffle_when_empty():
    b = deck("B", *[(0, None)] * 5)
    t = facing(90, damage_decks=decks(B=b))
    r = adjudicate(t, {"Camel": STAY, "Albatros": STAY}, seed=3)
    cards = [d.card.id for d in r.damage]
    assert len(cards) == 12 and sorted(cards[:5]) == [f"B#{i}" for i in range(1, 6)]
    assert sorted(cards[5:10]) == [f"B#{i}" for i in range(1, 6)]
    assert [d.reshuffled for d in r.damage].count(True) == 3  # the first draw, then each time it ran out
    assert dict(r.after.piles)["B"] and len(dict(r.after.piles)["B"]) == 3


def _roundtrip(t, tmp_path):
    path = tmp_path / "saved.toml"
    path.write_text(scenario_toml(Scenario(t, {}), tmp_path))
    import tomllib
    return parse_scenario(tomllib.loads(path.read_text()), str(path), tmp_path).table


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), gap=st.floats(60, 190))
def test_DF_D7_a_saved_table_reloads_with_the_same_piles_and_plays_on_identically(tmp_path_factory, seed, gap):
    tmp = tmp_path_factory.mktemp("saved")
    t = facing(gap, piles={})
    orders = {"Camel": STAY, "Albatros": STAY}
    first = adjudicate(t, orders, seed=seed, samples=False)
    saved = _roundtrip(first.after, tmp)
    assert saved == first.after and saved.piles == first.after.piles
    if saved.plane("Camel").on_table and saved.plane("Albatros").on_table:
        orders = {p.name: next(plan for plan in [STAY, *legal_plans(p, NO_STEEP)]
                               if plan_problem(p, plan, None, NO_STEEP) is None) for p in saved.planes}
        go_on = adjudicate(first.after, orders, seed=seed, samples=False)
        reloaded = adjudicate(saved, orders, seed=seed, samples=False)
        assert go_on.after == reloaded.after and go_on.damage == reloaded.damage


def test_DF_D1_damage_deck_files_are_labelled_and_refuse_mistakes_on_one_line(tmp_path):
    shipped = shipped_damage_decks()
    assert sorted(shipped) == list("ABCDE")
    assert all(d.provenance == "reconstruction" and d.notes for d in shipped.values())
    means = [sum(c.value for c in d.cards) / len(d) for d in shipped.values()]
    assert means == sorted(means)  # A lightest, E heaviest
    own = tmp_path / "B.toml"
    own.write_text('[deck]\nletter = "B"\nprovenance = "measured"\n[[card]]\nvalue = 2\ncount = 3\n'
                   '[[card]]\nvalue = 0\nspecial = "smoke"\n[special.smoke]\ntext = "smoke"\n')
    d = load_damage_deck(own)
    assert [c.id for c in d.cards] == ["B#1", "B#2", "B#3", "B#4"] and d.cards[3].special == Special.SMOKE
    for data, needle in (({"deck": {"letter": "B", "provenance": "guess"}, "card": [{"value": 1}]}, "provenance"),
                         ({"deck": {"letter": "B", "provenance": "measured"}, "card": [{"value": -1}]}, "value"),
                         ({"deck": {"letter": "B", "provenance": "measured"},
                           "card": [{"value": 1, "special": "fire"}]}, "special.fire"),
                         ({"deck": {"letter": "B", "provenance": "measured"},
                           "card": [{"value": 1, "special": "lightning"}]}, "special")):
        with pytest.raises(InputError) as err:
            parse_damage_deck(data, "my.toml")
        assert "\n" not in str(err.value) and needle in str(err.value) and str(err.value).startswith("my.toml")


def test_a_table_refuses_a_gun_without_a_deck_a_bad_pile_and_a_plane_already_destroyed():
    with pytest.raises(InputError, match="damage deck 'Z'"):
        table(plane("A", 300, 300, guns={"nose": "Z"}))
    with pytest.raises(InputError, match="pile 'B'"):
        table(plane("A", 300, 300), piles={"B": (1, 1)})
    with pytest.raises(InputError, match="damage_taken"):
        table(plane("A", 300, 300, damage_points=5, damage_taken=5))


@pytest.mark.parametrize("plane_line,top,needle", [
    ('guns = { nose = 5 }', "", "'nose'"), ('guns = "B"', "", "'guns'"), ('guns = { nose = "Q" }', "", "'Q'"),
    ('effects = [{ special = "lightning", maneuvers_left = 1 }]', "", "'special'"),
    ("damage_taken = 99", "", "damage_taken"), ("damage_points = 0", "", "damage_points"),
    ("", "[piles]\nB = [1, 1]\n", "pile 'B'"), ("", "[piles]\nZ = [1]\n", "pile 'Z'"),
    ("", "[victory]\nturn_limit = 0\n", "turn_limit"), ("", '[damage_decks]\nB = "nofile.toml"\n', "nofile"),
    ("", '[damage_decks]\nB = "C"\n', "letter 'B'"), ("", "[rules]\nshort_range_cards = -1\n", "short_range_cards"),
])
def test_bad_damage_fields_in_a_scenario_are_refused_on_one_line(cli, tmp_path, plane_line, top, needle):
    path = tmp_path / "bad.toml"
    path.write_text(top + '[table]\nwidth_mm = 900.0\nheight_mm = 900.0\n[[plane]]\nname = "Camel"\nside = "A"\n'
                    'deck = "A"\npose = { x_mm = 250.0, y_mm = 420.0, heading_deg = 0.0 }\naltitude = 2\n'
                    + plane_line + "\n")
    code, out, err = cli(["turn", path])
    assert code == 2 and err.count("\n") == 1 and needle in err and err.count("bad.toml") == 1, err
