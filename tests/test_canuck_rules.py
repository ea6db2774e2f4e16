"""Operation Canuck rules, one test (or more) per rule ID, and the two worked examples."""
import re
from dataclasses import replace

import pytest
from canuck_helpers import MAP, act, add, area, cards, per_area, play, position

from furball.errors import InputError
from furball.geometry.board_graph import parse_board
from furball.geometry.datafile import parse_toml
from furball.scenarios.canuck.board import DEFAULT_MAP_PATH, CanuckMap, load_map
from furball.scenarios.canuck.cards import (
    DECK,
    DIAMONDS,
    HEARTS,
    card_value,
    is_black_face,
    is_black_number,
    is_red_face,
    is_red_number,
    label,
    parse_card,
)
from furball.scenarios.canuck.state import IllegalAction, band, new_game


def all_cards(s):
    return sorted(s.deck + s.reserve + s.partisan_discard + s.axis_deck + s.axis_discard + s.removed)


# -- components (K) ----------------------------------------------------------------
def test_CN_K1_one_deck_six_dice_and_the_counter_mix():
    """CN.K1."""
    s = new_game(11)
    assert all_cards(s) == list(DECK) and len(DECK) == 52
    assert sum(1 for a in MAP.gar if s.garrison[a]) == 6
    assert sum(s.leaders) + s.lost_leaders == 4
    assert sum(s.groups) + s.unused_groups == 8
    assert sum(s.bases) + s.unused_bases == 4


def test_CN_K2_to_K5_card_classes_and_suit_doubling():
    """CN.K2, CN.K3, CN.K4, CN.K5."""
    assert sum(map(is_red_number, DECK)) == 20 and sum(map(is_black_number, DECK)) == 20
    assert sum(map(is_red_face, DECK)) == 6 and sum(map(is_black_face, DECK)) == 6  # CN.K3, CN.K5
    assert card_value(parse_card("4♥"), HEARTS) == 8 and card_value(parse_card("4♦"), HEARTS) == 4  # CN.K2
    assert card_value(parse_card("A♦"), DIAMONDS) == 2 and label(parse_card("10D")) == "10♦"
    with pytest.raises(InputError, match="expected a rank"):
        parse_card("11♥")


def test_CN_K4_black_number_card_drawn_goes_into_the_axis_deck():
    """CN.K4."""
    s = position(deck=("7♣", "2♥"), groups={"Castino": 1})
    s, events = play(s, act("pause", "Castino"))
    assert parse_card("7♣") in s.axis_deck and parse_card("2♥") in s.reserve  # and CN.K2
    assert "  draws 7♣: shuffled into the Axis deck" in events


def test_CN_K6_shipped_map_is_a_marked_reconstruction_with_the_right_boxes():
    """CN.K6."""
    m = load_map(str(DEFAULT_MAP_PATH))
    assert m.graph.provenance == "reconstruction" and "not in the sources" in m.graph.notes
    assert len(m.gar) == 6 and len(m.base) == 6 and len(m.base_star) == 4
    assert "Alba" in m.areas and m.alba in m.gar


CANALE = 'name = "Canale"\nkind = "area"\nboxes = ["GAR"]'


@pytest.mark.parametrize("edit, words", [
    (lambda t: t.replace('boxes = ["BASE*"]', 'boxes = ["BASE"]', 1), ["exactly 4 areas with a BASE* box", "got 3"]),
    (lambda t: t.replace(CANALE, CANALE.replace('["GAR"]', '[]')), ["exactly 6 areas with a GAR box", "got 5"]),
    (lambda t: t.replace('name = "Alba"', 'name = "Alba City"').replace('"Alba"', '"Alba City"'), ["an area named 'Alba'"]),
    (lambda t: t.replace(CANALE, CANALE.replace('"GAR"', '"FORT"')), ["node 'Canale'", "'boxes'", "'FORT'"]),
    (lambda t: t.replace(CANALE, CANALE.replace('"GAR"', '"GAR", "GAR"')), ["at most one GAR"]),
    (lambda t: t.replace('between = ["Bra", "Alba"]', 'between = ["Bra", "Albaa"]'), ["edge #4", "unknown node 'Albaa'"]),
])
def test_CN_K6_a_user_map_is_checked(tmp_path, edit, words):
    """CN.K6."""
    path = tmp_path / "map.toml"
    path.write_text(edit(DEFAULT_MAP_PATH.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_map(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)
    for w in words:
        assert w in str(info.value)


# -- set-up (S) --------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2, 99])
def test_CN_S1_first_four_red_and_black_number_cards_the_rest_back_in_the_deck(seed):
    """CN.S1."""
    s = new_game(seed)
    assert len(s.reserve) == 4 and all(map(is_red_number, s.reserve))
    assert len(s.axis_deck) == 4 and all(map(is_black_number, s.axis_deck))
    assert len(s.deck) == 44 and not s.partisan_discard and not s.axis_discard and not s.removed
    assert new_game(seed) == s  # reproducible


def test_CN_S2_one_die_per_gar_box_rolled_1_to_6():
    """CN.S2."""
    rolls = set()
    for seed in range(40):
        s = new_game(seed)
        for a in range(len(MAP.areas)):
            assert (1 <= s.garrison[a] <= 6) if a in MAP.gar else s.garrison[a] == 0
            rolls.add(s.garrison[a])
    assert rolls == {0, 1, 2, 3, 4, 5, 6}


def test_CN_S3_default_and_free_set_up():
    """CN.S3."""
    s = new_game(3)
    for a in range(len(MAP.areas)):
        want = (1, 2, 1) if a in MAP.base_star else (0, 0, 0)
        assert (s.leaders[a], s.groups[a], s.bases[a]) == want
    stacks = {name: (1, 2, 1) for name in ("Govone", "Bossolasco", "Castino", "Dogliani")}
    free = new_game(3, placement=stacks | {"Govone": (2, 4, 1), "Bossolasco": (0, 0, 1)})
    assert free.groups[area("Govone")] == 4 and free.unused_groups == 0 and free.unused_bases == 0
    with pytest.raises(InputError, match="at most 1 Base per area"):
        new_game(3, placement={"Govone": (4, 4, 2)})
    with pytest.raises(InputError, match="BASE box"):
        new_game(3, placement={"Alba": (4, 4, 1)})
    with pytest.raises(InputError, match="all 4 Leaders"):
        new_game(3, placement={"Govone": (3, 4, 1)})


@pytest.mark.parametrize("placement, words", [
    ({"Govone": (2, 4, 1), "Bossolasco": (2, 2, 1)}, "all 8 Groups placed on the map (CN.S3), got 6"),
    ({"Govone": (2, 4, 1), "Bossolasco": (2, 4, 1)}, "all 4 Bases placed on the map (CN.S3), got 2"),
    ({"Govone": (4, 0, 1), "Bossolasco": (0, 0, 1), "Castino": (0, 0, 1), "Dogliani": (0, 0, 1)}, "all 8 Groups")])
def test_CN_S3_a_free_set_up_leaves_no_group_or_base_off_the_map(placement, words):
    """Rule 3.0 (CN.S3): the free set-up places the Leaders, Groups and Bases in BASE
    areas; none is kept off the map (issue #35: such a set-up was accepted)."""
    with pytest.raises(InputError, match=re.escape(words)):
        new_game(3, placement=placement)


def test_CN_S4_play_starts_with_any_operation_or_a_pause():
    """CN.S4."""
    kinds = {a.kind for a in new_game(5).legal_actions()}
    assert kinds == {"train", "move", "build_base", "supply_drop", "pause"}  # nobody in a GAR area yet
    s = position(reserve=("2♥",), groups={"Bra": 1})
    assert {a.kind for a in s.legal_actions()} == {"ambush", "sabotage", "train", "move", "build_base",
                                                   "supply_drop", "pause"}


# -- Partisan options (P) ----------------------------------------------------------
def test_CN_P1_one_option_at_a_time_illegal_actions_leave_the_state_unchanged():
    """CN.P1."""
    s = position(reserve=("2♥",), groups={"Bra": 1})
    s1 = s.apply(act("ambush", "Bra"))
    assert s1.pending.kind == "participants"
    for bad, why in ((act("train"), "not an answer to the decision in progress (participants"),
                     (act("ambush", "Bra"), "decision in progress"),
                     (act("participants", groups=2, leaders=0), "more than 1 Group takes part only with a Leader"),
                     (act("resolve"), "decision in progress")):
        before = s1
        with pytest.raises(IllegalAction, match=re.escape(why)) as refused:
            s1.apply(bad)
        assert refused.value.rule == "CN.P4" and str(refused.value).endswith("(CN.P4)")
        assert s1 == before and s1.explain(bad).rule == "CN.P4"
    assert s1.apply(act("cancel")).pending is None and s1.explain(act("cancel")) is None


@pytest.mark.parametrize("setup, steps, bad, rule, words", [
    ({"garrison": {"Bra": 0}, "groups": {"Bra": 1}}, (), ("ambush", "Bra"), "CN.P3", "Bra has none"),
    ({"reserve": ("2♥",), "groups": {"Canale": 1}}, (), ("sabotage", "Bra"), "CN.P4", "none there"),
    ({"reserve": (), "groups": {"Bra": 1}}, (), ("train",), "CN.P9", "the Reserve is empty"),
    ({"reserve": ("2♥",), "groups": {"Bra": 1}}, (), ("pause", "Canale"), "CN.P13", "Canale: none there"),
    ({"reserve": ("2♥", "3♥"), "groups": {"Bra": 1}}, (("ambush", "Bra"), ("participants", 1, 0), ("add", "2♥")),
     ("add", "3♥"), "CN.P5", "at most 1 card(s)"),
    ({"reserve": ("2♥",), "groups": {"Bra": 1}}, (("train",),), ("resolve",), "CN.P9", "at least one Reserve card"),
])
def test_CN_refusals_carry_their_rule(setup, steps, bad, rule, words):
    """Issue #37: a refused action says which rule refuses it and why, in one line, and
    ``explain`` gives the same reason without applying anything."""
    def action(spec):
        if spec[0] == "add":
            return add(spec[1])[0]
        if spec[0] == "participants":
            return act("participants", groups=spec[1], leaders=spec[2])
        return act(*spec)
    s = position(**setup)
    for step in steps:
        s = s.apply(action(step))
    reason = s.explain(action(bad))
    assert reason is not None and reason.rule == rule and words in reason.text, reason
    with pytest.raises(IllegalAction, match=re.escape(f"{words}")) as refused:
        s.apply(action(bad))
    assert refused.value.rule == rule and "\n" not in str(refused.value)


def test_CN_P2_empty_axis_deck_reshuffles_the_discard_pile():
    """CN.P2."""
    s = position(reserve=("2♥",), axis=(), axis_discard=("5♠",), groups={"Bra": 1})
    s, events = play(s, act("train"), *add("2♥"), act("resolve"))
    assert any("shuffled into a new Axis deck (CN.P2)" in e for e in events)
    assert any("2♥ = 4 vs Axis 5♠ = 5: failure" in e for e in events)


def test_CN_P3_no_kinetic_operation_without_a_garrison_die():
    """CN.P3."""
    s = position(garrison={"Bra": 0}, groups={"Bra": 1, "Canale": 1})
    kinetic = {(a.kind, MAP.areas[a.area]) for a in s.legal_actions() if a.kind in ("ambush", "sabotage")}
    assert kinetic == {("ambush", "Canale"), ("sabotage", "Canale")}
    with pytest.raises(IllegalAction):
        s.apply(act("ambush", "Bra"))


def test_CN_P4_more_than_one_group_needs_a_leader():
    """CN.P4."""
    s = position(groups={"Bra": 3}, leaders={"Bra": 1}).apply(act("ambush", "Bra"))
    options = {(a.groups, a.leaders) for a in s.legal_actions() if a.kind == "participants"}
    assert (0, 0) not in options and (2, 0) not in options and (3, 0) not in options
    assert {(1, 0), (0, 1), (1, 1), (2, 1), (3, 1)} == options


def test_CN_P5_cards_limited_to_the_participants():
    """CN.P5."""
    s = position(reserve=("2♥", "3♥", "4♥"), groups={"Bra": 2}, leaders={"Bra": 1})
    s, _ = play(s, act("sabotage", "Bra"), act("participants", groups=1, leaders=0))
    assert {a.kind for a in s.legal_actions()} == {"add_card", "resolve", "cancel"}
    s = s.apply(add("2♥")[0])
    assert {a.kind for a in s.legal_actions()} == {"resolve", "cancel"}


def test_CN_P6_worked_example_ambush_16_vs_10_garrison_3_to_1():
    """CN.P6. Source: 2 Groups + 1 Leader play 4♥ and 5♦: 2+1+8+5 = 16; draws 6♠ 4♣ = 10."""
    s = position(reserve=("4♥", "5♦"), axis=("6♠", "4♣"), garrison={"Bra": 3},
                 groups={"Bra": 2}, leaders={"Bra": 1})
    s, events = play(s, act("ambush", "Bra"), act("participants", groups=2, leaders=1), *add("4♥", "5♦"),
                     act("resolve"))
    line = next(e for e in events if e.strip().startswith("Ambush in Bra"))
    assert line.endswith("= 16 vs Axis 4♣ 6♠ = 10") or line.endswith("= 16 vs Axis 6♠ 4♣ = 10")
    assert "  success" in events and s.garrison[area("Bra")] == 1 and s.vp == 0
    assert s.groups[area("Bra")] == 2 and s.leaders[area("Bra")] == 1
    assert s.partisan_discard == cards("4♥", "5♦") and sorted(s.axis_discard) == sorted(cards("6♠", "4♣"))
    assert s.reserve == cards("2♥")  # CN.P8: then 1 card from the deck


def test_CN_P6_ambush_removing_the_die_scores_and_failure_loses_counters():
    """CN.P6."""
    s = position(reserve=("9♥",), axis=("A♠",), garrison={"Bra": 1}, groups={"Bra": 1})
    s, _ = play(s, act("ambush", "Bra"), act("participants", groups=1, leaders=0), *add("9♥"), act("resolve"))
    assert s.garrison[area("Bra")] == 0 and s.vp == 1
    # failure: as many participants lost as black cards drawn; Leaders go for good
    s = position(reserve=("A♦", "2♦"), axis=("10♠", "10♣"), groups={"Bra": 1}, leaders={"Bra": 1})
    s, _ = play(s, act("ambush", "Bra"), act("participants", groups=1, leaders=1), *add("A♦", "2♦"),
                act("resolve"))
    assert s.groups[area("Bra")] == 0 and s.leaders[area("Bra")] == 0
    assert s.unused_groups == 1 and s.lost_leaders == 1 and s.garrison[area("Bra")] == 3
    # no card: 1 Axis card; a tie is a failure, and the Partisan chooses which participant goes
    s = position(axis=("2♠",), groups={"Bra": 1}, leaders={"Bra": 1})
    s, events = play(s, act("ambush", "Bra"), act("participants", groups=1, leaders=1), act("resolve"))
    assert "  failure" in events and s.pending.kind == "losses"
    assert set(s.legal_actions()) == {act("lose", piece="group"), act("lose", piece="leader")}
    kept_group, _ = play(s, act("lose", piece="leader"))
    assert kept_group.groups[area("Bra")] == 1 and kept_group.leaders[area("Bra")] == 0
    assert kept_group.lost_leaders == 1 and kept_group.pending is None and kept_group.draws_due == 0


def test_CN_P7_sabotage_diamonds_doubled_one_vp_per_card():
    """CN.P7."""
    s = position(reserve=("5♦", "3♥"), axis=("2♠", "3♠", "4♠"), garrison={"Canale": 2},
                 groups={"Canale": 1}, leaders={"Canale": 1})
    s, events = play(s, act("sabotage", "Canale"), act("participants", groups=1, leaders=1),
                     *add("5♦", "3♥"), act("resolve"))
    line = next(e for e in events if "Sabotage in Canale" in e)
    assert "= 15 vs Axis" in line and s.vp == 2 and s.garrison[area("Canale")] == 2
    # failure: counters lost = garrison strength, at most those declared
    s = position(axis=("10♠", "10♣", "9♠"), garrison={"Canale": 3}, groups={"Canale": 2},
                 leaders={"Canale": 1})
    s, _ = play(s, act("sabotage", "Canale"), act("participants", groups=1, leaders=1), act("resolve"))
    assert s.groups[area("Canale")] == 1 and s.leaders[area("Canale")] == 0 and s.vp == 0
    # success without cards: 1 VP
    s = position(axis=("A♠",), garrison={"Canale": 1}, groups={"Canale": 2}, leaders={"Canale": 1})
    s, _ = play(s, act("sabotage", "Canale"), act("participants", groups=2, leaders=1), act("resolve"))
    assert s.vp == 1


def test_CN_P8_after_a_kinetic_operation_discard_then_draw_one_card():
    """CN.P8."""
    s = position(reserve=("6♥",), axis=("A♠",), deck=("8♣", "2♥"), groups={"Bra": 1})
    s, events = play(s, act("ambush", "Bra"), act("participants", groups=1, leaders=0), *add("6♥"),
                     act("resolve"))
    assert s.partisan_discard == cards("6♥") and s.axis_discard == cards("A♠")
    assert s.axis_deck == cards("8♣") and s.deck == cards("2♥") and events[-1] == "  draws 8♣: shuffled into the Axis deck"


def test_CN_P9_non_kinetic_needs_a_card_and_compares_with_one_black_card():
    """CN.P9."""
    s = position(groups={"Castino": 1})
    assert not {"train", "move", "build_base", "supply_drop"} & {a.kind for a in s.legal_actions()}
    s = position(reserve=("3♦",), axis=("2♠", "5♠")).apply(act("train"))
    assert act("resolve") not in s.legal_actions()  # engine convention: at least one card
    s, events = play(s, *add("3♦"), act("resolve"))
    assert len(s.axis_discard) == 1 and len(s.axis_deck) == 1


def test_CN_P10_hearts_doubled_for_train_and_move_diamonds_for_base_and_supply():
    """CN.P10."""
    s = position(reserve=("3♥",), axis=("5♠",), groups={"Castino": 1})
    _, events = play(s, act("move"), *add("3♥"), act("resolve"))
    assert any("Move: 3♥ = 6 vs Axis 5♠ = 5: success" in e for e in events)
    s = position(reserve=("3♥",), axis=("5♠",))
    _, events = play(s, act("build_base"), *add("3♥"), act("resolve"))
    assert any("Build Base: 3♥ = 3 vs Axis 5♠ = 5: failure" in e for e in events)


def test_CN_P11_train_places_up_to_three_groups_in_base_areas():
    """CN.P11."""
    s = position(reserve=("9♥",), axis=("A♠",), bases={"Castino": 1, "Govone": 1}, unused_groups=8,
                 groups=None)
    s, _ = play(s, act("train"), *add("9♥"), act("resolve"))
    assert s.pending.kind == "train" and {MAP.areas[a.area] for a in s.legal_actions() if a.area is not None} == {"Castino", "Govone"}
    s, _ = play(s, act("place_group", "Castino"), act("place_group", "Govone"), act("place_group", "Govone"))
    assert s.pending is None and s.groups[area("Govone")] == 2 and s.unused_groups == 5


def test_CN_P11_move_any_counters_anywhere_once_each():
    """CN.P11."""
    s = position(reserve=("9♥",), axis=("A♠",), groups={"Castino": 2}, leaders={"Dogliani": 1})
    s, _ = play(s, act("move"), *add("9♥"), act("resolve"),
                act("move_counter", "Castino", to="Alba", piece="group"),
                act("move_counter", "Dogliani", to="Alba", piece="leader"))
    assert act("move_counter", "Alba", to="Bra", piece="group") not in s.legal_actions()  # moved already
    s, _ = play(s, act("done"))
    assert (s.groups[area("Alba")], s.leaders[area("Alba")], s.groups[area("Castino")]) == (1, 1, 1)


def test_CN_P11_build_base_in_a_free_base_box():
    """CN.P11."""
    s = position(reserve=("5♦",), axis=("A♠",), unused_bases=3)
    s, _ = play(s, act("build_base"), *add("5♦"), act("resolve"))
    sites = {MAP.areas[a.area] for a in s.legal_actions()}
    assert sites == {"Sommariva Perno", "Govone", "Castagnole delle Lanze", "Dogliani", "Bossolasco"}
    s = s.apply(act("place_base", "Govone"))
    assert s.bases[area("Govone")] == 1 and s.unused_bases == 2


def test_CN_P12_worked_example_supply_drop_9_vs_6():
    """CN.P12. Source: A♥ + 4♦ = 1 + 8 = 9 vs 6♣: success; draws 2♦ 8♦; then 7♣ to the Axis deck."""
    s = position(reserve=("A♥", "4♦"), axis=("6♣",), discard=("2♦", "8♦"), deck=("7♣", "2♥"))
    s, events = play(s, act("supply_drop"), *add("A♥", "4♦"), act("resolve"))
    assert "  Supply Drop: A♥ 4♦ = 9 vs Axis 6♣ = 6: success" in events
    assert s.reserve == cards("2♦", "8♦")
    assert s.partisan_discard == cards("A♥", "4♦")  # discarded after the drop
    assert s.axis_deck == cards("7♣") and s.axis_discard == cards("6♣")
    assert events[-1] == "  draws 7♣: shuffled into the Axis deck"


def test_CN_P13_pause_removes_a_group_and_draws_two_cards_in_turn():
    """CN.P13."""
    s = position(deck=("K♠", "3♥", "4♥"), groups={"Castino": 2}, leaders={"Castino": 1})
    s, events = play(s, act("pause", "Castino"))
    # the sweep (face card) resolved before the second draw; no Reserve: no decision
    assert s.groups[area("Castino")] <= 1 and s.unused_groups >= 1
    assert events.index("  draws K♠: Axis Sweep (CN.F2)") < events.index("  draws 3♥: to the Reserve")
    assert s.deck == cards("4♥") and s.options == 1
    assert act("pause", "Bra") not in position(groups={"Castino": 1}, leaders={"Bra": 1}).legal_actions()


# -- face cards (F) ----------------------------------------------------------------
WEAK_BUT_BRA_2 = {"Bra": 2, "Canale": 1, "Alba": 1, "Neive": 1, "Santo Stefano Belbo": 1, "Monforte": 1}

def test_CN_F1_allied_advance_keeps_the_first_red_number_card_removes_the_rest():
    """CN.F1."""
    s = position(deck=("J♥", "K♠", "5♣", "Q♦", "7♥", "2♥"), groups={"Castino": 1})
    s, events = play(s, act("pause", "Castino"))
    assert s.reserve == tuple(sorted(cards("7♥", "2♥")))
    assert sorted(s.removed) == sorted(cards("J♥", "K♠", "5♣", "Q♦"))
    assert s.red_faces == 2 and not s.axis_deck  # Q♦ counted (engine convention), 5♣ not filed


def test_CN_F2a_removed_garrisons_return_at_strength_1():
    """CN.F2."""
    s = position(deck=("Q♣", "2♥", "3♥"), garrison={"Bra": 0, "Neive": 0}, groups={"Castino": 1})
    s, events = play(s, act("pause", "Castino"))
    assert s.garrison[area("Bra")] == 1 and s.garrison[area("Neive")] == 1
    assert any("return at strength 1" in e for e in events)


def test_CN_F2b_strongest_garrison_sweeps_random_among_ties():
    """CN.F2."""
    chosen = set()
    for seed in range(12):
        s = replace(position(deck=("J♠", "2♥", "3♥"), garrison={"Bra": 5, "Neive": 5}, groups={"Castino": 1}),
                    seed=seed)
        _, events = play(s, act("pause", "Castino"))
        chosen.add(next(e for e in events if "the garrison in" in e).split()[3])
    assert chosen == {"Bra", "Neive"}


@pytest.mark.parametrize("where, expected", [
    # Alba first when it is the sweeper's own or an adjacent area
    ({"groups": {"Alba": 1, "Bra": 3}, "bases": {"Sommariva Perno": 1}}, "Alba"),
    # then its own area
    ({"groups": {"Bra": 1}, "bases": {"Sommariva Perno": 1}}, "Bra"),
    # then an adjacent area with a Base
    ({"groups": {"Dogliani": 3}, "bases": {"Sommariva Perno": 1}}, "Sommariva Perno"),
    # then the adjacent area without a Base holding the most Groups + Leaders
    ({"groups": {"Dogliani": 1, "Sommariva Perno": 2}, "bases": {"Castino": 1}}, "Sommariva Perno"),
])
def test_CN_F2c_target_priority_on_the_board_graph(where, expected):
    """CN.F2."""
    s = position(deck=("K♣", "2♥"), garrison={"Bra": 6}, **where)
    s = replace(s, groups=per_area({**where["groups"], "Castino": 1}), bases=per_area(where["bases"]))
    _, events = play(s, act("pause", "Castino"))
    assert any(f"the garrison in Bra (strength 6) sweeps {expected} " in e for e in events), events


def test_CN_F2c_no_partisans_in_reach_means_no_attack():
    """CN.F2."""
    s = position(deck=("K♣", "2♥"), garrison={"Bra": 6}, groups={"Castino": 2})
    _, events = play(s, act("pause", "Castino"))
    assert any("finds no Partisans in reach: no attack" in e for e in events)


def test_CN_F2d_f_failed_sweep_cards_undoubled_plus_counters_garrison_weakened():
    """CN.F2."""
    s = position(deck=("K♣", "2♥"), reserve=("5♥", "4♦", "9♥"), axis=("6♠", "6♣"),
                 garrison=WEAK_BUT_BRA_2, groups={"Bra": 2, "Castino": 1}, leaders={"Bra": 1})
    s, _ = play(s, act("pause", "Castino"))
    assert s.pending.kind == "sweep" and act("add_card", card="9♥") in s.legal_actions()
    s, events = play(s, *add("5♥", "4♦"), act("resolve"))
    assert "  Sweep: Partisan 5♥ 4♦ + 3 counter(s) = 12 vs Axis 6♠ 6♣ = 12" in events  # CN.F2e: 2 cards
    assert s.garrison[area("Bra")] == 0 and s.vp == 1  # 2 - 3 <= 0: removed, +1 VP
    assert s.partisan_discard == tuple(sorted(cards("4♦", "5♥"))) and s.reserve == tuple(sorted(cards("2♥", "9♥")))


def test_CN_F2g_successful_sweep_removes_counters_and_the_garrison_pays_for_them():
    """CN.F2."""
    s = position(deck=("K♣", "2♥"), axis=("10♠", "10♣", "9♣", "8♣"), garrison={"Bra": 4},
                 groups={"Sommariva Perno": 2, "Castino": 1}, leaders={"Sommariva Perno": 1},
                 bases={"Sommariva Perno": 1, "Castino": 1})
    s, events = play(s, act("pause", "Castino"))
    sp = area("Sommariva Perno")
    assert (s.groups[sp], s.leaders[sp], s.bases[sp]) == (0, 0, 0)
    assert s.unused_groups == 3 and s.lost_leaders == 1 and s.unused_bases == 1  # CN.F2h
    assert s.garrison[area("Bra")] == 0 and s.vp == 1 and not s.over


def test_CN_F2g_base_lost_red_cards_removed_and_CN_F2h_last_base_ends_in_defeat():
    """CN.F2."""
    s = position(deck=("K♣", "2♥"), reserve=("A♥",), axis=("10♠", "10♣"), garrison=WEAK_BUT_BRA_2,
                 groups={"Castino": 1}, bases={"Sommariva Perno": 1})
    s, _ = play(s, act("pause", "Castino"))
    s, events = play(s, *add("A♥"), act("resolve"))
    assert parse_card("A♥") in s.removed and parse_card("A♥") not in s.partisan_discard
    assert s.over == "last_base" and s.score().band == "defeat" and s.legal_actions() == ()
    with pytest.raises(IllegalAction, match="game is over"):
        s.apply(act("done"))


def _sweep_with_a_choice(deck=("K♣", "2♥"), reserve=()):
    """Bra (strength 2) sweeps Sommariva Perno's Group, Leader and Base: 2 of 3 must go."""
    s = position(deck=deck, reserve=reserve, axis=("10♠", "10♣"), garrison=WEAK_BUT_BRA_2,
                 groups={"Sommariva Perno": 1, "Castino": 1}, leaders={"Sommariva Perno": 1},
                 bases={"Sommariva Perno": 1, "Castino": 1})
    s, _ = play(s, act("pause", "Castino"))
    return s


def test_CN_F2g_the_partisan_chooses_which_counters_a_sweep_takes():
    """CN.F2: the source never says who picks; furball lets the Partisan (docs/canuck.md)."""
    s = _sweep_with_a_choice()
    assert s.pending.kind == "losses" and s.pending.left == 2
    assert {a.piece for a in s.legal_actions()} == {"group", "leader", "base"}
    s, events = play(s, act("lose", piece="base"))
    assert "  lost in Sommariva Perno: the Base" in events and s.pending.left == 1
    assert {a.piece for a in s.legal_actions()} == {"group", "leader"}
    s, events = play(s, act("lose", piece="group"))
    sp = area("Sommariva Perno")
    assert (s.groups[sp], s.leaders[sp], s.bases[sp]) == (0, 1, 0) and s.pending is None
    assert s.garrison[area("Bra")] == 0 and s.vp == 1  # the garrison pays for the 2 counters
    assert not s.over and s.reserve == cards("2♥")  # the second draw of the Pause follows


def test_CN_F2g_the_heuristic_keeps_its_last_group_when_the_reserve_is_empty():
    """CN.F2, CN.E2: losing the last Group with an empty Reserve risks a deadlock."""
    from furball.scenarios.canuck.players import HeuristicPlayer

    s = _sweep_with_a_choice()
    bot = HeuristicPlayer(0)
    first = bot.choose(s)
    assert first == act("lose", piece="leader")
    s = s.apply(first)
    assert bot.choose(s) == act("lose", piece="base")  # Castino's Base remains: not the last


def test_CN_P12_non_kinetic_cards_are_discarded_last():
    """CN.P12: "lo último que hace el Partisano es descartar": Train keeps its cards until
    the Groups are placed."""
    s = position(reserve=("9♥",), axis=("A♠",), bases={"Castino": 1}, unused_groups=8, groups=None)
    s, _ = play(s, act("train"), *add("9♥"), act("resolve"))
    assert s.pending.kind == "train" and s.partisan_discard == () and s.axis_discard == ()
    assert sorted(s.cards_in_play) == sorted(cards("9♥", "A♠"))
    s, _ = play(s, act("done"))
    assert s.partisan_discard == cards("9♥") and s.axis_discard == cards("A♠") and s.cards_in_play == ()


# -- end (E) -----------------------------------------------------------------------
def test_CN_E1_the_sixth_red_face_card_ends_the_game_at_once():
    """CN.E1."""
    s = position(deck=("K♦", "2♥", "3♥"), red_faces=5, groups={"Castino": 2})
    s, events = play(s, act("pause", "Castino"))
    assert s.over == "sixth_advance" and s.reserve == () and s.deck == cards("2♥", "3♥")


def test_CN_E2_deadlock_no_cards_and_no_group():
    """CN.E2."""
    s = position(deck=("5♣", "6♣"), groups={"Castino": 1}, leaders={"Castino": 1})
    s, events = play(s, act("pause", "Castino"))
    assert s.over == "deadlock" and s.score().band == "defeat"


def test_CN_E3_alba_liberated_at_a_moment_and_CN_E4_bonus_once():
    """CN.E3, CN.E4."""
    s = position(reserve=("9♥",), axis=("A♠",), deck=("Q♠", "2♥"), garrison={"Alba": 1, "Bra": 2},
                 groups={"Alba": 1})
    s, events = play(s, act("ambush", "Alba"), act("participants", groups=1, leaders=0), *add("9♥"),
                     act("resolve"))
    # liberated, then the sweep drawn right after brings the die back at strength 1
    assert "  Alba is liberated (CN.E3)" in events and s.alba_liberated_once
    assert s.garrison[area("Alba")] >= 1 and not s.alba_liberated()
    score = s.score()
    assert (score.operations, score.alba, score.total) == (s.vp, 5, s.vp + 5)  # CN.E4 +5
    free = replace(s, garrison=per_area({"Alba": 0}), groups=per_area({"Alba": 1}))
    assert free.alba_liberated() and free.score().alba == 10  # CN.E4 +10 at the end, not 15


@pytest.mark.parametrize("total, reason, expected", [
    (30, "sixth_advance", "major"), (25, "sixth_advance", "major"), (24, "sixth_advance", "medium"),
    (11, "sixth_advance", "medium"), (10, "sixth_advance", "minor"), (6, "sixth_advance", "minor"),
    (5, "sixth_advance", "defeat"), (4, "sixth_advance", "defeat"), (0, "sixth_advance", "defeat"),
    (30, "last_base", "defeat"), (30, "deadlock", "defeat"),
])
def test_CN_E5_result_bands(total, reason, expected):
    """CN.E5: the source's bands share 25 and 5; the spec's engine convention settles
    them as 25+ major, 11-24 medium, 6-10 minor, 5 or less defeat."""
    assert band(total, reason) == expected


def test_map_file_from_a_graph_built_in_code():
    text = DEFAULT_MAP_PATH.read_text(encoding="utf-8")
    m = CanuckMap.from_graph(parse_board(parse_toml(text, "x.toml"), "x.toml"))
    assert m.areas == MAP.areas and m.near[m.alba] == MAP.near[MAP.alba]


def test_CN_K1_the_observation_holds_no_draw_deck_order():
    """Issue #37: what the Partisan (and every bot) sees is the position with the draw
    deck face down: two deals that differ only in the deck's order look the same, and
    the observation keeps the deck's cards (known from what has been seen), sorted."""
    s = new_game(5)
    shuffled = replace(s, deck=tuple(reversed(s.deck)))
    assert s.deck != shuffled.deck and s.observation(0) == shuffled.observation(0)
    assert s.observation(0).deck == tuple(sorted(s.deck))
    assert s.observation(0).legal_actions() == s.legal_actions()
