"""1942 USS Yorktown: one test (or more) per rule YT.*, and the source's worked examples
as golden tests (the 9 -> 10 -> 1 spill, the Jake needing three equal results, the
located chain)."""
import pytest
from yorktown_helpers import (
    APPROACH,
    MAP,
    RUNWAY,
    acting,
    assert_located_error,
    decide,
    japanese,
    node,
    of_kind,
    position,
    script,
    started,
    work,
)

from furball.errors import InputError
from furball.scenarios.engine import IllegalAction
from furball.scenarios.yorktown import TimeModel, default_deck, default_rules, new_game
from furball.scenarios.yorktown.actions import (
    Card,
    Difficulty,
    EndReason,
    Expansion,
    Kind,
    Load,
    Maneuver,
    MoveKind,
    Phase,
    PlaneType,
    Scope,
    Target,
    Weather,
)
from furball.scenarios.yorktown.board import DEFAULT_MAP_PATH, load_map
from furball.scenarios.yorktown.crews import attack_dice, landing_dice, search_dice
from furball.scenarios.yorktown.deck import DEFAULT_DECK_PATH, load_deck
from furball.scenarios.yorktown.japanese import japanese_phase, place, set_up_planes
from furball.scenarios.yorktown.players import HeuristicPlayer
from furball.scenarios.yorktown.rolls import counts_of, outcomes

RULES = default_rules()
DECK = default_deck()


def card_index(pred):
    return next(i for i, c in enumerate(DECK.cards) if pred(c))


# -- components and set-up (K, S) ----------------------------------------------------
def test_YT_K1_shipped_map_is_a_labelled_reconstruction_with_every_part():
    """YT.K1."""
    assert MAP.graph.provenance == "reconstruction"
    assert [MAP.names[k] for k in (0, 8, 9)] == ["Admiralty", "Guadalcanal", "Rendova"]  # named in the source
    assert len(MAP.island_node) == 10 and len(MAP.green) == 4 and len(MAP.red) >= 2 and len(MAP.orange) >= 1
    assert all(MAP.graph.nodes[i].capacity == 2 for i in MAP.island_node)
    assert MAP.runway_places == 2 and MAP.cap_boxes == 2
    assert len(MAP.search_nodes) == 8 and len(MAP.yorktown_nodes) == len(MAP.shoho_nodes) == 4
    assert set(MAP.graph.kinds) == {"white line", "approach", "deck", "track"}
    assert MAP.touching  # islands touching the approach zone are board data


ISLAND_3 = 'name = "New Britain"\nkind = "island"\ncolour = "orange"\nnumber = 3'


@pytest.mark.parametrize("edit, words", [
    (lambda t: t.replace(ISLAND_3, ISLAND_3.replace("number = 3", "number = 1")),
     ["node 'New Britain'", "'number'", "already used by 'Admiralty'"]),
    (lambda t: t.replace(ISLAND_3, ISLAND_3.replace("number = 3", "number = 11")), ["'number'", "1-10"]),
    (lambda t: t.replace(ISLAND_3 + "\ncapacity = 2", ISLAND_3 + "\ncapacity = 3"), ["'capacity'", "expected 2"]),
    (lambda t: t.replace(ISLAND_3, ISLAND_3.replace('"orange"', '"purple"')), ["'colour'", "'purple'"]),
    (lambda t: t.replace('colour = "red"\nnumber = 7', 'colour = "green"\nnumber = 7'),
     ["exactly 4 (one per weather tile) green islands", "got 5"]),
    (lambda t: t.replace('colour = "red"\nnumber = 7', 'colour = "orange"\nnumber = 7')
     .replace('colour = "red"\nnumber = 8', 'colour = "orange"\nnumber = 8'), ["at least 2", "red islands, got 1"]),
    (lambda t: t.replace('between = ["Admiralty", "New Britain"]\nkind = "white line"',
                         'between = ["Admiralty", "New Britain"]\nkind = "white lines"'),
     ["edge #1", "'kind'", "declared edge kinds", "'white lines'"]),
    (lambda t: t.replace('edge_kinds = ["white line", "approach", "deck", "track"]\n', ''), ["edge_kinds"]),
    (lambda t: t.replace('name = "search 7"\nkind = "search"', 'name = "search 7"\nkind = "searches"'),
     ["8 'search' nodes"]),
    (lambda t: t.replace('capacity = 2\nattrs = { x = 240', 'capacity = 0\nattrs = { x = 240'), ["runway", "capacity"]),
])
def test_YT_K1_the_map_checker_gives_one_located_line(tmp_path, edit, words):
    """YT.K1."""
    assert_located_error(tmp_path / "map.toml", edit(DEFAULT_MAP_PATH.read_text(encoding="utf-8")), load_map, words)


def test_YT_K1_map_checker_needs_a_possible_chain_and_every_island_reachable():
    """YT.K1."""
    g = MAP.graph
    cut_lines = [(e.a, e.b) for e in g.edges if e.kind == "white line"
                 and {g.nodes[g.index(e.a)].number, g.nodes[g.index(e.b)].number} & {4, 10}
                 and {g.nodes[g.index(e.a)].number, g.nodes[g.index(e.b)].number} & {7, 8, 9}]
    from furball.scenarios.yorktown.board import check_map
    with pytest.raises(InputError, match="chaining an orange island to a red one"):
        check_map(g.with_changes(remove_edges=cut_lines))
    lonely = [(e.a, e.b) for e in g.edges if "Bougainville" in (e.a, e.b)]
    with pytest.raises(InputError, match="node 'Bougainville'.*cannot be reached"):
        check_map(g.with_changes(remove_edges=lonely))


def test_YT_K2_four_dauntless_planes_fuel_14_cockpit_A_three_dice():
    """YT.K2."""
    s = new_game(0)
    assert len(s.loc) == 4 and RULES.fuel_max == 14 and not any(s.side_b)
    assert RULES.dice_for(0) == 3 and s.skill == (0, 0, 0, 0)


def test_YT_K3_japanese_tokens_bombs_and_types():
    """YT.K3."""
    assert dict(DECK.pools) == {"Jake": 8, "Kate/Zeke": 12}
    assert DECK.planes[PlaneType.KATE].pool == DECK.planes[PlaneType.ZEKE].pool  # one token, two sides
    assert RULES.bomb_tokens == 4
    assert new_game(0).supply == (8, 12)


def test_YT_K4_deck_of_38_with_a_direct_hit_and_labelled_reconstruction():
    """YT.K4."""
    assert len(DECK.cards) == 38 and sum(c.direct_hit for c in DECK.cards) == 1
    assert DECK.provenance == "reconstruction" and dict(DECK.sources)["attack_dice"] == "official"
    assert {c.event for c in DECK.cards} >= {"cap", "shoho moves", ""}
    assert all(1 <= len(c.islands) <= 2 for c in DECK.cards if not c.direct_hit)


@pytest.mark.parametrize("edit, words", [
    (lambda t: t.replace('plane = "Kate"', 'plane = "Val"', 1), ["card '1'", "'plane'", "'Val'"]),
    (lambda t: t.replace('islands = [1]', 'islands = [11]', 1), ["'islands'", "1-10"]),
    (lambda t: t.replace('id = "2"', 'id = "1"', 1), ["card '1'", "'id'", "used once"]),
    (lambda t: t.replace('attack_dice = 2', 'attack_dice = "two"', 1), ["plane: Jake", "'attack_dice'"]),
    (lambda t: t.replace('event = "cap"', 'event = "storm"', 1), ["'event'", "'storm'"]),
    (lambda t: t.replace('[yorktown]', '[yorktowns]'), ["unknown field 'yorktowns'"]),
    (lambda t: t.replace('direct_hit = true', 'direct_hit = true\nplane = "Kate"'), ["DIRECT HIT"]),
])
def test_YT_K4_the_deck_checker_gives_one_located_line(tmp_path, edit, words):
    """YT.K4."""
    assert_located_error(tmp_path / "deck.toml", edit(DEFAULT_DECK_PATH.read_text(encoding="utf-8")), load_deck, words)


def test_YT_S1_markers_at_zero_full_fuel_side_A():
    """YT.S1."""
    s = new_game(3)
    assert (s.search, s.yorktown, s.shoho, s.cap, s.turn, s.clock) == (0, 0, 0, 0, 0, 0)
    assert s.phase == Phase.SET_UP and s.load == (None,) * 4


def test_YT_S2_two_planes_in_the_approach_zone_two_on_chosen_red_islands():
    """YT.S2."""
    s = new_game(3)
    menu = s.legal_actions()
    assert all(a.kind == Kind.SET_UP for a in menu) and len(menu) == 3  # C(3 red islands, 2)
    chosen = menu[1]
    t = s.apply(chosen)
    assert t.loc[:2] == (APPROACH, APPROACH) and t.fuel[:2] == (14, 14)
    assert t.loc[2:] == chosen.nodes and t.fuel[2:] == (13, 13)
    assert all(MAP.island_of[n] in MAP.red for n in chosen.nodes)


@pytest.mark.parametrize("seed", range(12))
def test_YT_S3_two_or_three_japanese_planes_start_and_events_are_ignored(seed):
    """YT.S3."""
    s = new_game(seed)
    w = work(s)
    set_up_planes(w)
    on_board = sum(len(p) for p in w.japanese)
    assert on_board in (2, 3)
    assert w.cap == 0 and w.search == 0  # YT.S3: events ignored


@pytest.mark.parametrize("difficulty, players, novices, minutes", [
    ("normal", 4, 0, 30), ("hard", 4, 0, 25), ("easy", 4, 0, 35), ("normal", 1, 0, 33), ("normal", 3, 2, 35),
    ("hard", 2, 1, 29),
])
def test_YT_S4_timer_minutes_difficulty_players_and_novices(difficulty, players, novices, minutes):
    """YT.S4."""
    s = new_game(0, players=players, difficulty=difficulty, novices=novices)
    assert s.setup.limit == minutes * 60


def test_YT_S4_the_time_model_is_pluggable_and_every_throw_costs_time(monkeypatch):
    """YT.S4."""
    slow = TimeModel(throw=30)
    s = acting(started(5, time=slow), 0, Card.SEARCH, loc=(node(1), APPROACH, RUNWAY, RUNWAY))
    script(monkeypatch, [2, 2, 4, 5, 3, 6])
    t = s.apply(of_kind(s, Kind.SEARCH)[0])
    assert t.clock - s.clock == slow.action + 30  # the action, and its first throw
    assert decide(t, (2,)).clock - t.clock == 30  # every throw costs time


# -- dice (D) ------------------------------------------------------------------------
def test_YT_D1_dice_come_from_the_skill_card_plus_modifiers():
    """YT.D1."""
    s = position(started(2), loc=(node(1), node(3), RUNWAY, RUNWAY), skill=(3, 0, 0, 0),
                 choice=(Card.SEARCH, Card.SEARCH, None, None))
    assert RULES.dice_for(3) == 4
    assert search_dice(s, 0) == 4 + 1 + 1  # skill 4, fuel die, another plane searching from another orange island


def test_YT_D2_ones_lock_cost_fuel_and_never_count_as_equal(monkeypatch):
    """YT.D2."""
    s = acting(started(2), 0, Card.SEARCH, loc=(node(1), APPROACH, RUNWAY, RUNWAY), fuel=(10, 14, 13, 13))
    script(monkeypatch, [1, 1, 4, 5, 5])  # two 1s locked (never a pair), then the 5 is matched
    t = s.apply(of_kind(s, Kind.SEARCH)[0])
    assert t.roll.faces == (4, 5) and t.roll.ones == 2 and t.fuel[0] == 10 - 1 - 2
    assert {a.keep for a in of_kind(t, Kind.THROW)} == {(4,), (5,), ()}  # the 1s are never thrown again
    t = decide(t, (5,), "stop")
    assert t.fuel[0] == 10 - 1 - 2 and t.search == 1


def test_YT_D3_no_limit_on_the_number_of_dice():
    """YT.D3."""
    from furball.scenarios.yorktown.dice import RollPolicy, continuous_roll
    faces = iter([2, 3, 4, 5, 6, 2, 3, 4, 5, 6, 2, 3])
    r = continuous_roll(12, (2,), RollPolicy(), lambda n: [next(faces) for _ in range(n)], fuel=None)
    assert r.end == "met" and r.throws == 1 and sum(r.counts) == 12


# -- the Japanese phase (R1-R4) ---------------------------------------------------------
LOCATED = japanese(i3=["Kate"], i6=["Jake"], i10=["Zeke"], i8=["Kate"])  # 3 New Britain - 6 - 10 - 8 Tulagi


def test_YT_R1_golden_the_located_chain_and_the_zeke_attacks_with_three_dice(monkeypatch):
    """YT.R1. The source's example: the Yorktown is located, so the Zeke attacks rolling 3 dice."""
    s = position(started(4), jp=LOCATED)
    assert s.located() and MAP.located(s.mask)
    assert not MAP.located(s.mask & ~(1 << 9))  # clearing 10 Rendova breaks the chain
    zeke = card_index(lambda c: c.plane == PlaneType.ZEKE and len(c.islands) == 1 and c.event == "")
    w = work(position(s, deck=(zeke,) + s.deck))
    drawn = []
    monkeypatch.setattr(type(w), "draw", lambda self, n: drawn.append(n) or [2, 5, 6][:n])
    japanese_phase(w)
    text = "\n".join(f.format(*a) for f, a in w.entries)
    assert drawn == [3] and "a Zeke attacks with 3 dice" in text and "LOCATED" in text
    assert HeuristicPlayer()._threat_islands(s)  # the heuristic sees islands to clear


@pytest.mark.parametrize("plane, dice", [("Jake", 2), ("Zeke", 3), ("Kate", 4)])
def test_YT_R1_attack_dice_by_type_one_roll_hits_per_pair(monkeypatch, plane, dice):
    """YT.R1."""
    s = position(started(4), jp=LOCATED)
    idx = card_index(lambda c: c.plane == plane and c.event == "" and len(c.islands) == 1)
    w = work(position(s, deck=(idx,) + s.deck))
    script(monkeypatch, [4, 4, 5, 5][:dice])
    japanese_phase(w)
    assert w.yorktown == min(dice // 2, 2)  # Jake one pair; Zeke one pair; Kate two pairs = two hits


def test_YT_R1_two_pairs_are_two_hits_four_equal_too_and_a_pair_of_ones_shoots_down(monkeypatch):
    """YT.R1."""
    s = position(started(4), jp=LOCATED)
    kate = card_index(lambda c: c.plane == PlaneType.KATE and len(c.islands) == 1 and c.event == "")
    for faces, hits, down in (([3, 3, 3, 3], 2, False), ([1, 1, 5, 5], 1, True), ([1, 1, 2, 3], 0, True)):
        w = work(position(s, deck=(kate,) + s.deck))
        script(monkeypatch, faces)
        before = sum(len(p) for p in w.japanese)
        japanese_phase(w)
        assert w.yorktown == hits
        assert (sum(len(p) for p in w.japanese) == before) == down  # shot down: no plane placed


def test_YT_R2_the_event_comes_after_the_placement_cap_then_full_and_shoho_moves():
    """YT.R2."""
    s = started(4)
    cap = card_index(lambda c: c.event == "cap")
    w = work(position(s, deck=(cap,) + s.deck, jp=japanese(), cap=0, search=2))
    japanese_phase(w)
    lines = [f.format(*a) for f, a in w.entries]
    placed = max(i for i, t in enumerate(lines) if "is placed on" in t)
    event = next(i for i, t in enumerate(lines) if "event CAP" in t)
    assert placed < event and w.cap == 1
    w = work(position(s, deck=(cap,) + s.deck, jp=japanese(), cap=2))
    japanese_phase(w)
    assert w.cap == 2 and any("both CAP boxes are full" in f.format(*a) for f, a in w.entries)
    moves = card_index(lambda c: c.event == "shoho moves")
    for before, after in ((2, 1), (0, 0)):
        w = work(position(s, deck=(moves,) + s.deck, jp=japanese(), search=before))
        japanese_phase(w)
        assert w.search == after


def test_YT_R3_direct_hit_only_when_located_and_never_a_plane(monkeypatch):
    """YT.R3."""
    s = started(4)
    dh = card_index(lambda c: c.direct_hit)
    w = work(position(s, deck=(dh,) + s.deck, jp=LOCATED))
    japanese_phase(w)
    assert w.yorktown == 1 and sum(len(p) for p in w.japanese) == 4
    w = work(position(s, deck=(dh,) + s.deck, jp=japanese(i1=["Jake"])))
    japanese_phase(w)
    assert w.yorktown == 0 and sum(len(p) for p in w.japanese) == 1


def test_YT_R4_golden_the_jake_spills_from_9_past_10_to_1():
    """YT.R4. The source's example: a Jake for island 9 (full) skips 10 (full) and lands on 1."""
    s = position(started(4), jp=japanese(i9=["Kate", "Kate"], i10=["Zeke", "Jake"]))
    w = work(s)
    place(w, PlaneType.JAKE, 9)
    assert w.japanese[0] == (PlaneType.JAKE,) and len(w.japanese[8]) == len(w.japanese[9]) == 2
    text = [f.format(*a) for f, a in w.entries]
    assert any("9 Guadalcanal is full, 10 Rendova too: the Jake goes on to 1 Admiralty (YT.R4)" in x for x in text)


def test_YT_R4_substitution_chart_and_every_island_full():
    """YT.R4."""
    s = started(4)
    w = work(position(s, japanese=japanese(), supply=(0, 12)))
    place(w, PlaneType.JAKE, 2)
    assert w.japanese[1] == (PlaneType.KATE,) and w.supply == [0, 11]  # no Jake left: a Kate (chart)
    full = japanese(**{f"i{n}": ["Jake", "Jake"] if n <= 4 else ["Kate", "Zeke"] for n in range(1, 11)})
    w = work(position(s, jp=full))
    w.supply = [2, 2]  # (tokens from a bigger deck)
    before = list(w.supply)
    place(w, PlaneType.KATE, 5)
    assert w.supply == before and any("every island is full" in f.format(*a) for f, a in w.entries)


def test_YT_R4_an_empty_deck_is_reshuffled_from_its_discard_pile():
    """YT.R4."""
    s = started(4)
    w = work(position(s, deck=(), discard=tuple(range(38))))
    japanese_phase(w)
    assert len(w.deck) == 37 and len(w.discard) == 1


# -- Allied turn (R5, R6) ----------------------------------------------------------------
def test_YT_R5_each_plane_chooses_a_card_then_seat_0_calls_the_order():
    """YT.R5."""
    s = started(6, players=4)
    assert s.phase == Phase.CHOOSE
    for p in range(4):
        assert s.current_player() == p and {a.card for a in s.legal_actions()} == set(Card)
        s = s.apply(of_kind(s, Kind.CHOOSE, card=Card.MOVE)[0])
    assert s.phase == Phase.NEXT and s.current_player() == 0 and len(s.legal_actions()) == 4


@pytest.mark.parametrize("players, seats", [(1, (0, 0, 0, 0)), (2, (0, 0, 1, 1)), (3, (0, 0, 1, 2)),
                                            (4, (0, 1, 2, 3))])
def test_YT_R5_planes_are_shared_among_the_players(players, seats):
    """YT.R5."""
    assert new_game(0, players=players).setup.seat_of == seats


def test_YT_R6_at_the_end_of_the_turn_the_discs_come_back():
    """YT.R6."""
    s = started(6)
    turn = s.turn
    for _ in range(200):
        if s.turn > turn or s.over:
            break
        s = s.apply(s.legal_actions()[-1])
    assert s.turn == turn + 1 and s.phase == Phase.CHOOSE and s.choice == (None,) * 4 and s.done == (False,) * 4


def test_illegal_actions_raise_and_change_nothing():
    s = started(6)
    before = (s.loc, s.fuel, s.clock, s.phase)
    from furball.scenarios.yorktown.actions import Action
    for bad in (Action(Kind.NEXT, plane=0), Action(Kind.CHOOSE, plane=3, card=Card.MOVE), "search"):
        with pytest.raises(IllegalAction):
            s.apply(bad)
    assert (s.loc, s.fuel, s.clock, s.phase) == before


def test_YT_refusals_carry_their_rule():
    """Issue #37: a refused action names the rule of the decision the game waits for (or
    of its own kind, open now with other values), in one line; ``explain`` says the same
    without applying anything, and ``None`` for a legal action."""
    from furball.scenarios.yorktown import YORKTOWN
    from furball.scenarios.yorktown.actions import Action
    fresh = YORKTOWN.new_game(3)
    assert fresh.explain(fresh.legal_actions()[0]) is None
    reason = fresh.explain(Action(Kind.NEXT, plane=0))
    assert reason.rule == "YT.S2" and "red islands" in reason.text
    s = started(6)
    assert s.phase == Phase.CHOOSE
    choose = [a for a in s.legal_actions() if a.kind == Kind.CHOOSE]
    wrong = Action(Kind.CHOOSE, plane=choose[0].plane, card=Card.MOVE, keep=(9, 9))
    for bad, rule in ((Action(Kind.MOVE, plane=0), "YT.R5"), (wrong, "YT.R5"), ("search", "YT.R5")):
        with pytest.raises(IllegalAction) as refused:
            s.apply(bad)
        assert refused.value.rule == rule == s.explain(bad).rule, refused.value
        assert f"({rule})" in str(refused.value) and "\n" not in str(refused.value)


# -- actions (A) ---------------------------------------------------------------------------
def test_YT_A1_search_from_orange_pair_one_level_triple_two_and_a_skill_point(monkeypatch):
    """YT.A1."""
    base = started(7)
    s = acting(base, 0, Card.SEARCH, loc=(node(3), node(5), RUNWAY, RUNWAY), fuel=(9, 9, 13, 13))
    assert search_dice(s, 0) == 3 + 1 + 1  # plane 1 also searches, from another orange island
    script(monkeypatch, [5, 5, 5, 2, 3])
    t = s.apply(of_kind(s, Kind.SEARCH)[0])  # three equal: nothing better to throw for, the roll stops
    assert t.search == 2 and t.skill[0] == RULES.search_skill and t.fuel[0] == 8
    s = acting(base, 0, Card.SEARCH, loc=(node(3), node(3), RUNWAY, RUNWAY), search=6)
    assert search_dice(s, 0) == 4  # the other searcher is on the same island: no bonus
    script(monkeypatch, [4, 4, 4, 2])
    assert s.apply(of_kind(s, Kind.SEARCH)[0]).search == 7  # the track ends at 7
    green = acting(base, 0, Card.SEARCH, loc=(node(2), APPROACH, RUNWAY, RUNWAY))
    assert [a.kind for a in green.legal_actions()] == [Kind.FORFEIT]  # not from a green island


def test_YT_A1_A7_search_levels_locate_the_shoho_and_add_dice_against_it():
    """YT.A1."""
    s = acting(started(7), 0, Card.ATTACK, others=Card.ATTACK, loc=(node(3), node(3), RUNWAY, RUNWAY),
               load=(Load.BOMB, None, None, None), cap=2)
    for level, bonus, shoho in ((2, 0, False), (3, 0, True), (5, 1, True), (7, 2, True)):
        t = position(s, search=level)
        shoho_attacks = of_kind(t, Kind.ATTACK, scope=Scope.SHOHO)
        assert bool(shoho_attacks) == shoho
        if shoho:
            # skill 3 + fuel die + plane 1 attacking here + the level's bonus - 2 CAP Zekes (bomb dropped: no penalty)
            assert attack_dice(t, 0, Scope.SHOHO) == 3 + 1 + 1 + bonus - 2
            # against the CAP: the bonus too, and the bomb's penalty
            assert attack_dice(t, 0, Scope.CAP) == 3 + 1 + 1 + bonus - 1


def test_YT_A2_runway_two_planes_a_turn_refused_landing_costs_fuel():
    """YT.A2."""
    s = acting(started(8), 2, Card.LAND_TAKE_OFF, loc=(APPROACH, APPROACH, APPROACH, RUNWAY), fuel=(14, 14, 9, 14),
               runway_used=2)
    assert [a.kind for a in s.legal_actions()] == [Kind.FORFEIT]
    t = s.apply(s.legal_actions()[0])
    assert t.fuel[2] == 8 and t.loc[2] == APPROACH  # loses its turn and 1 fuel
    r = acting(started(8), 3, Card.LAND_TAKE_OFF, loc=(APPROACH, APPROACH, APPROACH, RUNWAY), runway_used=2)
    u = r.apply(r.legal_actions()[0])
    assert u.fuel[3] == r.fuel[3] and u.loc[3] == RUNWAY  # on deck: loses its turn only


def test_YT_A3_take_off_with_or_without_a_bomb_1_fuel_to_the_zone_3_to_a_red_island():
    """YT.A3."""
    s = acting(started(8), 3, Card.LAND_TAKE_OFF, loc=(APPROACH, APPROACH, node(7), RUNWAY), fuel=(14, 14, 13, 14))
    menu = of_kind(s, Kind.TAKE_OFF)
    assert {a.load for a in menu} == {None, Load.BOMB}  # a tank only with its expansion
    assert {a.to for a in menu} == {APPROACH} | {MAP.island_node[k] for k in MAP.red}
    t = s.apply(of_kind(s, Kind.TAKE_OFF, load=Load.BOMB, to=APPROACH)[0])
    assert t.fuel[3] == 13 and t.load[3] == Load.BOMB and t.runway_used == 1
    jp = japanese(i9=["Kate"])
    s2 = position(s, jp=jp)
    t = s2.apply(of_kind(s2, Kind.TAKE_OFF, load=None, to=node(9))[0])
    assert t.fuel[3] == 11 and t.phase == Phase.AFTER_MOVE  # a movement: Lightning Attack may follow
    assert of_kind(t, Kind.LIGHTNING)


def test_YT_A4_a_bomb_costs_a_die_and_may_be_jettisoned():
    """YT.A4."""
    s = acting(started(8), 0, Card.SEARCH, loc=(node(1), APPROACH, RUNWAY, RUNWAY), load=(Load.BOMB, None, None, None))
    assert search_dice(s, 0) == 3 + 1 - 1
    jettison = of_kind(s, Kind.JETTISON)
    t = s.apply(jettison[0])  # then the search is the only choice left: its roll has the die back
    assert t.load[0] is None and t.roll.dice == 4 and t.roll.purpose == "search" and t.acting == 0


@pytest.mark.parametrize("faces, where, side_b, skill", [
    ([5, 5, 5, 2, 3, 4], "runway", False, 4),   # three equal: safe landing
    ([5, 5, 2, 3, 4, 6] + [1] * 30, "runway", True, 4),  # a pair only: crash, pilot unhurt
    ([2, 3, 4, 5, 6, 1] + [1] * 30, "runway", True, 1),  # nothing equal: crash, pilot hurt (-3)
])
def test_YT_A5_landing_roll_below_5_fuel_safe_unhurt_or_hurt(monkeypatch, faces, where, side_b, skill):
    """YT.A5."""
    s = acting(started(9), 0, Card.LAND_TAKE_OFF, loc=(APPROACH, node(1), RUNWAY, RUNWAY), fuel=(2, 9, 13, 13),
               skill=(4, 0, 0, 0))
    assert landing_dice(s, 0) == 4 + 2  # skill dice (4 at 4 points) + 1 per fuel point
    script(monkeypatch, faces)
    t = s.apply(of_kind(s, Kind.LAND)[0])
    if t.phase == Phase.ROLL:
        t = decide(t, "stop")  # the player stops with what shows
    assert t.loc[0] == RUNWAY and t.fuel[0] == 14 and t.side_b[0] == side_b and t.skill[0] == skill


def test_YT_A5_automatic_landing_from_5_fuel_and_ones_cost_no_fuel_when_landing(monkeypatch):
    """YT.A5."""
    s = acting(started(9), 0, Card.LAND_TAKE_OFF, loc=(APPROACH, node(1), RUNWAY, RUNWAY), fuel=(5, 9, 13, 13),
               load=(Load.BOMB, None, None, None))
    t = s.apply(of_kind(s, Kind.LAND)[0])
    assert t.loc[0] == RUNWAY and t.fuel[0] == 14 and t.load[0] is None and t.throws == s.throws
    s = position(s, fuel=(1, 9, 13, 13), load=(None,) * 4)
    script(monkeypatch, [1, 1, 1, 4])  # 4 dice: three 1s lock (no fuel needed), then nothing
    t = s.apply(of_kind(s, Kind.LAND)[0])
    assert t.fuel[0] == 1 and t.roll.ones == 3
    t = decide(t, "stop")
    text = "\n".join(t.events)
    assert t.side_b[0] and t.crashes == 1 and "crashes on landing" in text and "needs fuel" not in text


def test_YT_A6_crash_for_lack_of_fuel_flips_the_cockpit_and_a_second_one_eliminates():
    """YT.A6."""
    s = acting(started(10), 0, Card.MOVE, loc=(node(2), node(1), RUNWAY, RUNWAY), fuel=(0, 9, 13, 13),
               skill=(5, 0, 0, 0))
    t = s.apply(s.legal_actions()[0])  # no move affordable: the card cannot be done, 1 fuel needed, none left
    assert t.side_b[0] and t.loc[0] == RUNWAY and t.fuel[0] == 14 and t.skill[0] == 2
    s = position(s, side_b=(True, False, False, False))
    t = s.apply(s.legal_actions()[0])
    assert t.loc[0] is None and 0 not in t.alive()


def test_YT_A7_attack_bonuses_and_the_shoho_needs_a_bomb():
    """YT.A7."""
    s = acting(started(11), 0, Card.ATTACK, others=Card.ATTACK, loc=(node(4), node(4), node(4), RUNWAY),
               jp=japanese(i4=["Kate", "Jake"]))
    assert attack_dice(s, 0, (Target.KATE,)) == 3 + 1 + 2  # fuel die, two other planes attacking here
    assert [a.scope for a in of_kind(s, Kind.ATTACK)] == [Scope.PLANES]  # the planes here, Jake and Kate
    orange = acting(started(11), 0, Card.ATTACK, loc=(node(1), RUNWAY, RUNWAY, RUNWAY), search=4)
    assert orange.legal_actions() == (of_kind(orange, Kind.FORFEIT)[0],)  # no bomb: no Shōhō attack


def test_YT_A7_golden_the_jake_needs_three_equal_results(monkeypatch):
    """YT.A7. The source's example: a Jake needs 3 equal results; five dice; a 1 is set aside
    (1 fuel more), the other dice are thrown again until the third equal result comes."""
    assert DECK.planes[PlaneType.JAKE].shoot_down == 3
    s = acting(started(11), 0, Card.ATTACK, loc=(node(4), APPROACH, RUNWAY, RUNWAY), jp=japanese(i4=["Jake"]),
               fuel=(9, 14, 13, 13), skill=(3, 0, 0, 0))
    attack = of_kind(s, Kind.ATTACK)[0]
    assert attack_dice(s, 0, attack.scope) == 5
    script(monkeypatch, [3, 3, 5, 2, 6,   # a pair of 3s set aside
                         1, 4, 5,         # a 1: locked, 1 fuel
                         3, 6])           # the third 3
    t = decide(s.apply(attack), (3,), (3,))  # three equal shoot the Jake: nothing more to throw for
    assert t.japanese[3] == () and t.shot_down == 1
    assert t.fuel[0] == 9 - 1 - 1  # the mandatory fuel die and the 1
    assert t.skill[0] == 3 + DECK.planes[PlaneType.JAKE].skill


def test_YT_A7_results_are_split_two_pairs_shoot_two_kates():
    """YT.A7."""
    need = ((Target.KATE, 2), (Target.JAKE, 3), (Target.CAP, 4))
    hits = (0, 0, 1, 2, 3)
    kates = (Target.KATE, Target.KATE)
    assert outcomes(counts_of([3, 3, 5, 5]), kates, need, 4, hits) == (((Target.KATE, Target.KATE), (2, 2)),)
    assert outcomes(counts_of([4, 4, 4, 4]), kates, need, 4, hits) == (((Target.KATE, Target.KATE), (2, 2)),)
    # the Shōhō takes the biggest set it can use: a perfect hit and a Kate from 5 5
    best = outcomes(counts_of([4, 4, 4, 4, 5, 5]), (Target.KATE, Target.SHOHO), need, 4, hits)
    assert best == (((Target.KATE, Target.SHOHO), (2, 4)),)
    # 3 3 3 and 6 6: a Jake and a Kate, or the Jake and 1 hit... every outcome no other beats
    found = outcomes(counts_of([3, 3, 3, 6, 6]), (Target.JAKE, Target.KATE, Target.SHOHO), need, 4, hits)
    assert ((Target.JAKE, Target.KATE), (3, 2)) in found and ((Target.JAKE, Target.SHOHO), (3, 2)) in found
    assert ((Target.KATE, Target.SHOHO), (2, 3)) in found and all(len(t) == 2 for t, _ in found)


def test_YT_A7_E1_shoho_hits_pair_one_triple_two_perfect_sinks(monkeypatch):
    """YT.A7."""
    s = acting(started(12), 0, Card.ATTACK, loc=(node(3), APPROACH, RUNWAY, RUNWAY), search=7,
               load=(Load.BOMB, None, None, None), skill=(9, 0, 0, 0), jp=japanese(), cap=0)
    for faces, damage, over in (([2, 2, 3, 4, 5, 6, 3, 5], 1, None),
                                ([4, 4, 4, 2, 3, 5, 6, 2], 2, None),
                                ([6, 6, 6, 6, 2, 3, 5, 4], 3, EndReason.SHOHO_SUNK)):
        shoho = of_kind(s, Kind.ATTACK, scope=Scope.SHOHO)[0]
        assert attack_dice(s, 0, shoho.scope) == 5 + 1 + 2 - 0  # skill 5 dice, fuel die, search 7: +2
        script(monkeypatch, faces)
        t = s.apply(shoho)
        if t.phase == Phase.ROLL:
            t = decide(t, "stop")
        assert t.shoho == damage and t.load[0] is None and t.over == over


def test_YT_E1_the_third_hit_sinks_the_shoho_at_once(monkeypatch):
    """YT.E1."""
    s = acting(started(12), 0, Card.ATTACK, loc=(node(3), APPROACH, RUNWAY, RUNWAY), search=4,
               load=(Load.BOMB, None, None, None), shoho=2, jp=japanese(), cap=0)
    script(monkeypatch, [5, 5, 2, 3, 4, 6])
    t = s.apply(of_kind(s, Kind.ATTACK, scope=Scope.SHOHO)[0])  # a pair is the third hit: nothing more to want
    assert t.over == EndReason.SHOHO_SUNK and t.is_terminal() and t.returns() == (1.0,)
    assert t.legal_actions() == () and "VICTORY" in t.outcome()[0]


def test_YT_A8_moves_adjacent_double_over_an_empty_island_and_return():
    """YT.A8."""
    s = acting(started(13), 0, Card.MOVE, loc=(node(9), APPROACH, RUNWAY, RUNWAY), fuel=(10, 14, 13, 13),
               jp=japanese(i4=["Kate"]))
    adjacent = {a.to for a in of_kind(s, Kind.MOVE, via=MoveKind.ADJACENT)}
    assert adjacent == {n for n in MAP.steps[node(9)] if n != APPROACH}
    double = {MAP.island_of[a.to] + 1 for a in of_kind(s, Kind.MOVE, via=MoveKind.DOUBLE)}
    assert double == {2, 6}  # both through 10 Rendova (empty); not through 4 Trobriand (occupied)
    both = position(s, jp=japanese(i4=["Kate"], i10=["Jake"]))
    assert not of_kind(both, Kind.MOVE, via=MoveKind.DOUBLE)
    assert of_kind(s, Kind.MOVE, via=MoveKind.RETURN)
    t = s.apply(of_kind(s, Kind.MOVE, via=MoveKind.DOUBLE, to=node(2))[0])
    assert t.fuel[0] == 7 and t.loc[0] == node(2)
    blocked = acting(started(13), 0, Card.MOVE, loc=(node(1), APPROACH, RUNWAY, RUNWAY),
                     jp=japanese(i2=["Kate"], i3=["Kate"]))
    assert not of_kind(blocked, Kind.MOVE, via=MoveKind.RETURN)  # every way home passes an occupied island
    cheap = position(blocked, fuel=(2, 14, 13, 13))
    assert not of_kind(cheap, Kind.MOVE, via=MoveKind.DOUBLE)  # 3 fuel


def test_YT_A9_lightning_attack_skill_dice_only_and_emergency_landing(monkeypatch):
    """YT.A9."""
    s = acting(started(14), 0, Card.MOVE, loc=(node(9), APPROACH, RUNWAY, RUNWAY), jp=japanese(i10=["Kate"]),
               load=(Load.BOMB, None, None, None))
    t = s.apply(of_kind(s, Kind.MOVE, to=node(10))[0])
    lightning = of_kind(t, Kind.LIGHTNING)
    assert t.phase == Phase.AFTER_MOVE and [a.scope for a in lightning] == [Scope.PLANES]
    assert attack_dice(t, 0, Scope.PLANES, full=False) == 3 - 1  # skill dice, the bomb still weighs
    script(monkeypatch, [3, 3])
    u = t.apply(lightning[0])
    assert u.japanese[9] == () and u.fuel[0] == t.fuel[0]  # no fuel die in a Lightning Attack
    home = acting(started(14), 0, Card.MOVE, loc=(node(9), APPROACH, RUNWAY, RUNWAY), fuel=(1, 14, 13, 13))
    v = home.apply(of_kind(home, Kind.MOVE, via=MoveKind.RETURN)[0])
    assert v.fuel[0] == 0 and of_kind(v, Kind.EMERGENCY_LANDING)
    script(monkeypatch, [4, 4, 4])
    w = v.apply(of_kind(v, Kind.EMERGENCY_LANDING)[0])
    assert w.loc[0] == RUNWAY and not w.side_b[0]


def test_YT_A9_no_lightning_attack_on_the_shoho_or_its_cap():
    """YT.A9."""
    s = acting(started(14), 0, Card.MOVE, loc=(node(2), APPROACH, RUNWAY, RUNWAY), search=7, cap=2,
               load=(Load.BOMB, None, None, None), jp=japanese(i3=["Jake"]))
    t = s.apply(of_kind(s, Kind.MOVE, to=node(3))[0])
    assert {a.scope for a in of_kind(t, Kind.LIGHTNING)} == {Scope.PLANES}


def test_YT_A10_a_plane_in_the_air_that_cannot_act_loses_a_fuel_point():
    """YT.A10."""
    s = acting(started(15), 0, Card.ATTACK, loc=(node(2), APPROACH, RUNWAY, RUNWAY), fuel=(6, 14, 13, 13),
               jp=japanese())
    assert [a.kind for a in s.legal_actions()] == [Kind.FORFEIT]
    t = s.apply(s.legal_actions()[0])
    assert t.fuel[0] == 5 and t.done[0]
    menu = position(s, phase=Phase.CHOOSE, choice=(None,) * 4)
    texts = {a.card: menu.describe(a) for a in menu.legal_actions()}
    assert "not possible there: loses 1 fuel" in texts[Card.SEARCH]  # the card menu warns (a green island)
    assert "not possible" not in texts[Card.MOVE]


def test_YT_X1_skill_points_give_dice_and_the_card_flips_past_8(monkeypatch):
    """YT.X1."""
    assert [RULES.dice_for(p) for p in (0, 3, 6, 9, 17, 40)] == [3, 4, 5, 5, 7, 7]
    s = acting(started(16), 0, Card.ATTACK, loc=(node(4), APPROACH, RUNWAY, RUNWAY), jp=japanese(i4=["Zeke"]),
               skill=(7, 0, 0, 0))
    script(monkeypatch, [5, 5, 5, 5, 2, 3])
    t = s.apply(of_kind(s, Kind.ATTACK)[0])
    assert t.skill[0] == 10 and "(skill card flipped)" in "\n".join(t.events)


# -- the end (E2) ------------------------------------------------------------------------
def test_YT_E2_time_runs_out_is_a_defeat_and_the_clock_stops_at_the_limit():
    """YT.E2."""
    s = position(started(17), clock=new_game(0).setup.limit - 3)
    t = s.apply(s.legal_actions()[0])
    assert t.over == EndReason.TIME and t.clock == t.setup.limit and t.returns() == (0.0,)


def test_YT_E2_the_third_yorktown_hit_is_a_defeat(monkeypatch):
    """YT.E2."""
    s = position(started(4), jp=LOCATED, yorktown=2)
    dh = card_index(lambda c: c.direct_hit)
    w = work(position(s, deck=(dh,) + s.deck))
    japanese_phase(w)
    assert w.over == EndReason.YORKTOWN_SUNK


def test_YT_E2_no_plane_left_is_a_defeat():
    """YT.E2."""
    s = acting(started(18), 0, Card.ATTACK, loc=(node(2), None, None, None), fuel=(0, 0, 0, 0),
               side_b=(True,) * 4)
    t = s.apply(s.legal_actions()[0])
    assert t.over == EndReason.NO_PLANES and "no Allied plane" in t.outcome()[0]


# -- expansions ---------------------------------------------------------------------------
def test_expansion_expert_tiles_are_single_use_variants(monkeypatch):
    s = new_game(3, expansions={Expansion.EXPERT})
    assert len(set(s.tile)) == 4 and None not in s.tile and new_game(3).tile == (None,) * 4
    s = acting(started(3, expansions={Expansion.EXPERT}), 0, Card.LAND_TAKE_OFF, loc=(APPROACH, node(1), RUNWAY, RUNWAY),
               fuel=(1, 9, 13, 13), tile=(Maneuver.GROUND_ACE, None, None, None))
    ace = of_kind(s, Kind.LAND, maneuver=Maneuver.GROUND_ACE)
    t = s.apply(ace[0])
    assert t.loc[0] == RUNWAY and t.tile[0] is None and t.throws == s.throws  # no roll


def test_expansion_tank_gives_four_fuel_at_seven_or_less():
    s = position(started(3, expansions={Expansion.TANK}), phase=Phase.NEXT, loc=(node(1), node(2), RUNWAY, RUNWAY),
                 fuel=(7, 9, 13, 13), load=(Load.TANK, None, None, None),
                 choice=(Card.MOVE, Card.SEARCH, Card.SEARCH, Card.SEARCH), done=(False,) * 4)
    t = s.apply(of_kind(s, Kind.NEXT, plane=0)[0])
    assert t.fuel[0] == 11 and t.load[0] is None and t.tanks_used == 1


def test_expansion_weather_tiles_on_the_green_islands_and_a_weather_search(monkeypatch):
    s = started(3, expansions={Expansion.WEATHER})
    assert sum(w is not None for w in s.weather) == 4
    assert all(s.weather[k] is not None for k in MAP.green)
    weather = tuple(Weather.GOOD_VISIBILITY if k == 1 else None for k in range(10))
    s = acting(s, 0, Card.SEARCH, loc=(node(2), APPROACH, RUNWAY, RUNWAY), weather=weather)
    script(monkeypatch, [6, 6, 2, 3])
    t = s.apply(of_kind(s, Kind.SEARCH)[0])
    assert t.search == 1 and t.weather[1] is None and t.skill[0] == 1


def test_options_are_checked():
    for bad in (dict(players=0), dict(players=5), dict(novices=2), dict(difficulty="brutal")):
        with pytest.raises(InputError):
            new_game(0, **bad)
    with pytest.raises(InputError):
        new_game(-1)
    assert new_game(0, difficulty=Difficulty.HARD).setup.limit == 28 * 60
    from furball.scenarios.yorktown.tables import check_expansions
    assert check_expansions("none") == check_expansions("") == frozenset()  # a sweep's grid value


def test_an_illegal_action_is_refused_in_words_not_enum_reprs():
    """Issue #26 item 9: error lines read `action set_up targets=(Jake,)`, never
    `<PlaneType.JAKE: 'Jake'>`."""
    import furball.scenarios.yorktown.actions as A
    from furball.errors import IllegalAction
    from furball.scenarios.yorktown import YORKTOWN

    with pytest.raises(IllegalAction) as refused:
        YORKTOWN.new_game(3).apply(A.Action(kind=A.Kind.SET_UP, targets=(A.PlaneType.JAKE,)))
    assert "set_up targets=(Jake,)" in str(refused.value) and "<" not in str(refused.value)
