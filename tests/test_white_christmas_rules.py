"""1975 White Christmas rules: one test (or more) per rule ID (WC.G*, WC.F*, WC.H*), and the
source's worked examples as golden tests (the staircase example of WC.G2, the radar example
of WC.F5, Captain Chambers' move of WC.H9)."""
from dataclasses import replace

import pytest
from white_christmas_helpers import (
    CH46,
    CH53,
    COMP,
    ROW,
    B,
    Icon,
    P,
    S,
    V,
    ask,
    board,
    card_id,
    carrier,
    fly,
    fresh,
    hand,
    on_carrier,
    play,
    private,
    radar,
    revealed_stairs,
    roofs,
    side,
    slot,
    stairs_at,
    until,
    work,
)

from furball.scenarios.white_christmas import IllegalAction, chambers, flow
from furball.scenarios.white_christmas import actions as A
from furball.scenarios.white_christmas.actions import Ask, Pending, Phase, Stairs
from furball.scenarios.white_christmas.components import MODELS, PEOPLE, Bonus, Wild
from furball.scenarios.white_christmas.options import moves, radar_payments, rescues, upgrade_payments


def people_total(s):
    """Every People token, wherever it is (WC.G2, WC.G6, WC.F6)."""
    b = s.board
    n = sum(b.supply) + sum(b.discarded) + sum(len(r) for r in b.roofs) + sum(len(x) for x in b.stairs)
    return n + sum(len(x.carrier) + sum(len(a) for a in x.aboard) for x in s.sides)


# -- the board (G) ------------------------------------------------------------------------------
@pytest.mark.parametrize("players, solo, count", [(2, False, 3), (3, False, 4), (4, False, 5), (2, True, 3)])
def test_WC_G1_rooftops_in_a_row_by_player_count(players, solo, count):
    """WC.G1: 3/4/5 rooftops for 2/3/4 players (solo as 2), left to right in the data order."""
    s = fresh(1, players, solo)
    g = s.table.graph
    assert len(s.table.roofs) == count
    assert s.table.roofs == tuple(r.name for r in COMP.rooftops if (2 if solo else players) in r.players)
    assert g.ranked("order", among=g.select(kind="rooftop")) == s.table.roofs
    assert [g.node(r).attr("order") for r in s.table.roofs] == list(range(count))
    assert s.table.spaces == tuple(g.node(r).capacity for r in s.table.roofs)


def test_WC_G2_a_face_down_staircase_left_of_each_rooftop_in_phase_1():
    """WC.G2: phase 1 adds a face-down staircase per rooftop; the graph gains a staircase
    node joined to each rooftop; nobody sees its People (the observation shows none)."""
    s = fresh(2, 3)
    assert s.board.phase == Phase.DRAW and s.board.stairs_state == Stairs.FACE_DOWN
    assert len(s.stairs_down) == 4 and s.board.stairs == ((),) * 4
    g = s.table.graph
    for k, roof in enumerate(s.table.roofs):
        (stairs,) = g.neighbours(roof, kind="stairs")
        assert g.node(stairs).kind == "staircase" and s.table.stairs[k] == stairs
    assert "staircase: face down" in s.observation_string(0)


def test_WC_G2_staircases_revealed_and_filled_from_the_supply_in_phase_2():
    """WC.G2, WC.F3: at phase 2 the staircases are revealed and their spaces filled."""
    s = fresh(3, 2)
    cards = s.stairs_down
    before = sum(s.board.supply)
    s = until(s, lambda t: t.board.phase == Phase.PLAY)
    assert s.board.stairs_state == Stairs.REVEALED and s.board.stairs_cards == cards
    for k, card in enumerate(cards):
        assert s.board.stairs[k] == COMP.staircases[card].people
    assert sum(s.board.supply) == before - sum(len(COMP.staircases[c].people) for c in cards)


@pytest.mark.parametrize("overflow", ["supply", "discard"])
def test_WC_G2_source_example_soldier_climbs_and_politician_has_no_room(overflow):
    """WC.G2 (the source's picture): one free space on the rooftop; the staircase shows a
    Soldier then a Politician in arrow order: the Soldier climbs, the Politician finds no
    room: back to the supply (the default reading) or, with the rule option, discarded out
    of the game. The staircase is discarded and leaves the graph."""
    s = until(fresh(4, 2, overflow=overflow),
              lambda t: t.board.phase == Phase.PLAY and t.board.turn == 9 and not t.board.pending)
    space = s.table.spaces[0]
    s = roofs(s, [[V] * (space - 1)] + [list(r) for r in s.board.roofs[1:]])
    s = stairs_at(s, 0, [S, P])
    assert people_total(s) == 32
    discarded, supply = s.board.discarded[PEOPLE.index(P)], s.board.supply[PEOPLE.index(P)]
    hand_card = s.private[s.current_player()].hand[0]
    s = s.apply(A.discard(hand_card))
    assert s.board.phase == Phase.SIGHTING and s.board.stairs_state == Stairs.NONE
    assert s.board.roofs[0] == (V,) * (space - 1) + (S,)
    gone = 1 if overflow == "discard" else 0
    assert s.board.discarded[PEOPLE.index(P)] == discarded + gone
    assert s.board.supply[PEOPLE.index(P)] == supply + 1 - gone and people_total(s) == 32
    assert not s.table.graph.select(kind="staircase")
    where = "discarded" if overflow == "discard" else "back to the supply"
    assert any(f"soldier climb(s) up, politician {where} (no room)" in e for e in s.events)


def test_WC_G2_engine_convention_the_staircase_deck_is_rebuilt_from_the_discards():
    """WC.G2 engine convention: 10 staircases cannot serve 4 rounds of 5 rooftops; an empty
    deck is rebuilt from the discarded staircases (logged), and none is ever lost."""
    from furball.scenarios.engine import play_game
    from furball.scenarios.white_christmas.game import WHITE_CHRISTMAS
    record = play_game(WHITE_CHRISTMAS, 5, "random", {"players": 4})
    assert any("shuffled into a new staircase deck" in line for line in record.log_lines())
    s = record.final
    assert sorted(s.stairs_deck + s.stairs_used + s.stairs_down) == list(range(10))


def test_WC_G3_a_slot_holds_one_helicopter_and_both_of_a_players_may_share_a_rooftop():
    """WC.G3: each rooftop has a top (CH-46) and a bottom (CH-53) slot; an occupied slot is
    not a destination; a player's two helicopters may share one rooftop."""
    s = fresh(5, 2)
    g = s.table.graph
    for _k, roof in enumerate(s.table.roofs):
        kinds = {g.node(n).attr("model"): g.node(n).attr("position") for n in g.neighbours(roof, kind="landing")}
        assert kinds == {"CH-46": "top", "CH-53": "bottom"}
    s = fly(s, 1, CH46, slot(s, 0, CH46))
    mine = moves(s.table, s.sides, 0)
    assert (CH46, slot(s, 0, CH46)) not in mine and (CH46, slot(s, 1, CH46)) in mine
    s = fly(s, 0, CH46, slot(s, 1, CH46))
    assert (CH53, slot(s, 1, CH53)) in moves(s.table, s.sides, 0)
    assert g.node(carrier(s, 0)).kind == "carrier" and g.node(carrier(s, 0)).capacity == COMP.spaces


def test_WC_G4_flights_carrier_to_rooftop_rooftop_to_rooftop_and_home_only():
    """WC.G4: from the carrier to a free slot of the helicopter's model on any rooftop;
    rooftop to rooftop; rooftop to its own carrier; never to another carrier."""
    s = fresh(6, 3)
    out = set(moves(s.table, s.sides, 0, (CH46,)))
    assert out == {(CH46, slot(s, k, CH46)) for k in range(4)}
    s = fly(s, 0, CH46, slot(s, 2, CH46))
    out = set(moves(s.table, s.sides, 0, (CH46,)))
    assert out == {(CH46, slot(s, k, CH46)) for k in (0, 1, 3)} | {(CH46, carrier(s, 0))}
    assert all(d not in (carrier(s, 1), carrier(s, 2)) for _, d in out)


def test_WC_G4_taking_off_with_people_aboard_returns_them_to_the_supply():
    """WC.G4: a helicopter leaving the carrier must be empty: People still aboard go back
    to the supply (no VP)."""
    s = fly(fresh(7, 2), 0, CH53, carrier(fresh(7, 2), 0), aboard=(V, S))
    s = board(s, supply=tuple(n - (p in (V, S)) for p, n in zip(PEOPLE, s.board.supply)))
    s = ask(s, Pending(Ask.MOVE, 0))
    total, vp = sum(s.board.supply), s.sides[0].vp
    s2 = s.apply(A.move(CH53, slot(s, 0, CH53)))
    assert s2.sides[0].aboard[0] == () and sum(s2.board.supply) == total + 2 and s2.sides[0].vp == vp
    assert s2.sides[0].at[0] == slot(s, 0, CH53)
    with pytest.raises(IllegalAction) as refused:
        s.apply(A.move(CH53, slot(s, 0, CH46)))
    assert refused.value.rule == "WC.G4" == s.explain(A.move(CH53, slot(s, 0, CH46))).rule
    assert s.explain(A.move(CH53, slot(s, 0, CH53))) is None


def test_WC_refusals_carry_their_rule_and_only_what_the_seat_sees():
    """Issue #37: a refused action names the rule of the decision the game waits for in
    one line (WC.F2 in phase 1; WC.F4 for a radar token the seat does not hold), and
    ``explain`` says the same without applying anything."""
    s = fresh(8, 2)
    assert s.board.phase == Phase.DRAW and not s.board.pending
    with pytest.raises(IllegalAction, match="in phase 1 each seat takes a card") as refused:
        s.apply(A.SEAL)
    assert refused.value.rule == "WC.F2" and str(refused.value).endswith("legal actions) (WC.F2)")
    assert s.explain(s.legal_actions()[0]) is None and s.explain("take").rule == "WC.F2"
    sighting = board(s, phase=Phase.SIGHTING)
    side = sighting.current_player()
    held = set(sighting.private[side].radar)
    missing = next(v for v in range(1, 10) if v not in held)
    reason = sighting.explain(A.bid(missing))
    assert reason.rule == "WC.F4" and f"no radar token worth {missing}" in reason.text


def test_WC_G5_rescue_from_the_rooftop_or_its_staircase_where_the_helicopter_lands():
    """WC.G5: a helicopter with a free seat takes a person it may carry from its rooftop or
    that rooftop's staircase (reached along the graph), nowhere else."""
    s = fresh(8, 2)
    s = roofs(s, [[V], [P, S], [B]])
    s = revealed_stairs(s, [[S], [B], [V]])
    s = fly(s, 0, CH46, slot(s, 1, CH46))            # CH-46 day: Vietnamese, Soldier, Businesswoman
    found = set(rescues(COMP, s.table, s.sides, s.board.roofs, s.board.stairs, 0, None))
    roof, stairs = s.table.roofs[1], s.table.stairs[1]
    assert found == {(CH46, roof, S), (CH46, stairs, B)}   # no Politician: it cannot carry one
    assert not rescues(COMP, s.table, s.sides, s.board.roofs, s.board.stairs, 0, V)
    s = ask(s, Pending(Ask.RESCUE, 0, person=None))
    s2 = s.apply(A.rescue(CH46, stairs, B))
    assert s2.sides[0].aboard[1] == (B,) and s2.board.stairs[1] == ()
    full = fly(s, 0, CH46, slot(s, 1, CH46), aboard=(V, V))
    assert not rescues(COMP, full.table, full.sides, full.board.roofs, full.board.stairs, 0, None)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_WC_G6_four_starting_people_one_of_each_type(players):
    """WC.G6 (set-up step 11): one token of each type, 4 in all; with 5 rooftops a random 4
    hold one; with 3 one rooftop holds 2."""
    shapes = set()
    for seed in range(12):
        s = fresh(seed, players)
        placed = [p for r in s.board.roofs for p in r]
        assert sorted(placed) == sorted(PEOPLE)
        shapes.add(tuple(sorted(len(r) for r in s.board.roofs)))
        assert people_total(s) == 32
    expected = {2: {(1, 1, 2)}, 3: {(1, 1, 1, 1)}, 4: {(0, 1, 1, 1, 1)}}[players]
    assert shapes == expected


# -- the flow (F) ---------------------------------------------------------------------------------
def test_WC_F1_turn_order_by_influence_ties_to_the_marker_on_top():
    """WC.F1: most influence first; on one space the later arrival (on top) goes first."""
    s = fresh(9, 3)
    assert s.board.order == (0, 1, 2)              # set-up stack: P1 on top
    s = side(s, 0, influence=2, arrived=9)
    s = side(s, 1, influence=3, arrived=5)
    s = side(s, 2, influence=3, arrived=7)
    assert flow.turn_order(work(s)) == (2, 1, 0)


def test_WC_F1_order_redistributed_and_special_orders_refilled_at_every_phase():
    """WC.F1: at the start of every phase the turn order follows the influence track and
    the special-order row is refilled to 4/5/6 cards."""
    for players, size in ((2, 4), (3, 5), (4, 6)):
        assert len(fresh(1, players).board.orders_row) == size
    s = fresh(10, 3)
    s = board(s, orders_row=s.board.orders_row[:2])
    s = side(s, 2, influence=4, arrived=20)
    s = until(s, lambda t: t.board.phase == Phase.PLAY)
    assert len(s.board.orders_row) == 5
    influence = [(-x.influence, -x.arrived) for x in s.sides]
    assert list(s.board.order) == sorted(range(3), key=lambda i: influence[i])


def test_WC_F2_phase_1_takes_until_every_hand_holds_five():
    """WC.F2: in turn order, take a card from a slot and do the slot's action, refill;
    until every player holds 5 cards (never more)."""
    s = fresh(11, 4)
    while s.board.phase == Phase.DRAW:
        assert all(len(x.hand) <= 5 for x in s.private)
        if not s.board.pending:
            assert all(c is not None for c in s.board.row)      # refilled after every take
        s = until(s, lambda t, step=s.step: t.step > step)
    assert [len(x.hand) for x in s.private] == [5, 5, 5, 5]
    assert [x.hand for x in s.sides] == [5, 5, 5, 5]


def test_WC_F2_inspect_the_deck_top_scores_1_vp_and_peeks_at_a_staircase_secretly():
    """WC.F2, WC.F5 Inspect: the deck top into hand, +1 VP, one face-down staircase seen
    by that player alone."""
    s = fresh(12, 2)
    top = s.deck[0]
    s2 = s.apply(A.take(Icon.INSPECT, 1))
    assert top in s2.private[0].hand and s2.sides[0].vp == 1
    assert s2.private[0].inspected == ((1, s.stairs_down[1]),)
    mine = s2.observation_string(0)
    people = ", ".join(COMP.staircases[s.stairs_down[1]].people)
    assert f"You inspected the staircase of {s.table.roofs[1]}: {people}" in mine
    assert "You inspected" not in s2.observation_string(1) and s2.observation(1).own.inspected == ()


def test_WC_F2_an_empty_action_deck_is_rebuilt_from_the_discard_pile():
    """WC.F2: refilling from an exhausted deck first shuffles the discard pile into a new one."""
    s = fresh(13, 2)
    s = replace(s, deck=())
    s = board(s, discard=(card_id(S, Icon.MOVE),), deck=0)
    w = work(s)
    assert w.draw_card() == card_id(S, Icon.MOVE) and w.b["discard"] == ()
    assert any("shuffled into a new deck" in t for t in w.freeze().events)


def test_WC_F3_play_a_card_for_one_of_its_two_actions_or_discard_it():
    """WC.F3: a regular card offers its Rescue and its lower action (when possible), or a
    discard without effect; the card goes to the discard pile."""
    s = until(fresh(14, 2), lambda t: t.board.phase == Phase.PLAY and not t.board.pending)
    me = s.current_player()
    radar_card = card_id(V, Icon.RADAR)
    s = hand(s, me, [radar_card])
    legal = s.legal_actions()
    assert A.play(radar_card, Icon.RADAR) in legal and A.discard(radar_card) in legal
    s2 = s.apply(A.play(radar_card, Icon.RADAR))
    assert s2.private[me].hand == () and radar_card in s2.board.discard and s2.sides[me].radar == s.sides[me].radar + 1
    s3 = s.apply(A.discard(radar_card))
    assert s3.sides[me].radar == s.sides[me].radar and radar_card in s3.board.discard


def test_WC_F3_the_face_up_wild_does_any_of_four_actions_and_is_replaced_from_hand():
    """WC.F3: play the face-up card (the Action Wild: Radar, Influence, Move or Special
    Order), then put a hand card face up in its place."""
    s = until(fresh(15, 2), lambda t: t.board.phase == Phase.PLAY and not t.board.pending
              and COMP.cards[t.sides[t.current_player()].faceup].wild == Wild.ACTION)
    me = s.current_player()
    wild = s.sides[me].faceup
    offered = {a.use for a in s.legal_actions() if a.kind == A.ActionKind.FACEUP}
    assert offered <= {Icon.RADAR, Icon.INFLUENCE, Icon.MOVE, Icon.SPECIAL_ORDER} and Icon.RADAR in offered
    s2 = s.apply(A.faceup(Icon.RADAR))
    assert s2.board.pending[0].ask == Ask.REPLACE and wild in s2.board.discard
    card = s2.private[me].hand[0]
    s3 = s2.apply(A.replace(card))
    assert s3.sides[me].faceup == card and len(s3.private[me].hand) == len(s.private[me].hand) - 1


def test_WC_F4_sealed_bids_highest_wins_ties_to_the_lower_turn_order_card():
    """WC.F4: sealed bids (the others see counts only), revealed together; the highest
    total wins (a tie goes to the lower turn-order card); the others score 1 VP per token;
    every bid token returns to the supply; passengers join the winner's carrier."""
    s = until(fresh(16, 3), lambda t: t.board.phase == Phase.SIGHTING)
    first, second, third = s.board.order
    s = radar(radar(radar(s, first, [5]), second, [2, 3]), third, [1])
    supply = len(s.radar_supply)
    s = s.apply(A.bid(5)).apply(A.SEAL)
    obs = s.observation(second)
    assert obs.sides[first].bid == 1 and obs.own.bid == () and 5 not in obs.own.radar
    s = s.apply(A.bid(2)).apply(A.bid(3))
    assert s.observation(first).sides[second].bid is None       # still being made: nothing shown
    vp = [x.vp for x in s.sides]
    s = s.apply(A.SEAL).apply(A.bid(1)).apply(A.SEAL)
    assert any(f"{s.setup.labels[first]} wins the sighting" in e for e in s.events)   # 5 ties 2+3: lower card
    assert s.sides[second].vp >= vp[second] + 2 and s.sides[third].vp >= vp[third] + 1
    assert len(s.radar_supply) == supply + 4 and all(x.bid == () for x in s.private)


def test_WC_F4_the_winner_takes_the_passengers_from_the_supply_and_keeps_the_actions():
    """WC.F4 (sighting effects): passengers join the winner's carrier from the supply; the
    actions may be used at once or kept for a later turn."""
    s = until(fresh(17, 2), lambda t: t.board.phase == Phase.SIGHTING)
    first = s.board.order[0]
    s = radar(s, first, [4])
    card = next(i for i, c in enumerate(COMP.sightings) if c.actions and c.passengers)
    s = board(s, sighting=card)
    s = play(s, A.bid(4), A.SEAL, A.SEAL)
    me = s.sides[first]
    assert sorted(me.carrier) == sorted(COMP.sightings[card].passengers)
    assert s.board.pending and s.board.pending[0].ask == Ask.SIGHTING and me.extras == COMP.sightings[card].actions
    assert A.KEEP in s.legal_actions()
    kept = s.apply(A.KEEP)
    assert kept.sides[first].extras == me.extras and not kept.board.pending


def test_WC_F5_radar_draws_a_face_down_token_source_example_three_tokens_worth_11():
    """WC.F5 Radar (a hidden value), and the source's example: discarding 3 radar tokens
    worth 11 meets carrier upgrade 4 (at least 10)."""
    s = fresh(18, 2)
    s2 = s.apply(A.take(Icon.RADAR))
    assert s2.sides[0].radar == 1 and len(s2.private[0].radar) == 1 and s2.board.radar_left == 17
    assert s2.observation(1).sides[0].radar == 1 and s2.observation(1).own.radar == ()
    assert (3, 4, 4) in radar_payments((3, 4, 4), 10)
    s = radar(s, 0, [3, 4, 4])
    assert upgrade_payments(COMP, s.sides[0], s.setup.colours[0], s.private[0].radar, 4) == [(3, 4, 4)]
    s = ask(s, Pending(Ask.SPECIAL_ORDER, 0))
    s = s.apply(A.upgrade(4, tokens=(3, 4, 4)))
    assert s.sides[0].upgrades[3] and s.private[0].radar == () and s.board.radar_left == 18


def test_WC_F5_influence_resolves_the_space_and_chains_on_a_further_influence():
    """WC.F5 Influence: advance; the space's effect happens at once; a further Influence
    advances again; the threshold space makes upgrade 1 possible."""
    s = fresh(19, 2)
    track = list(s.setup.track)
    track[1], track[2] = Bonus.INFLUENCE, Bonus.RADAR
    s = replace(s, setup=replace(s.setup, track=tuple(track)))
    s2 = s.apply(A.take(Icon.INFLUENCE))
    assert s2.sides[0].influence == 2 and s2.sides[0].radar == 1
    th = COMP.influence.threshold
    assert upgrade_payments(COMP, side(s, 0, influence=th - 1).sides[0], s.setup.colours[0], (), 1) == []
    assert upgrade_payments(COMP, side(s, 0, influence=th).sides[0], s.setup.colours[0], (), 1) == [()]


def test_WC_F5_special_orders_and_the_five_carrier_upgrades():
    """WC.F5 Special Order: complete an order by discarding People from the carrier, or
    upgrade the carrier: 1 night CH-53 (threshold), 2 night CH-46 (own an order), 3 two
    of the colour's type + 1 (two People per Rescue), 4 radar >= 10 (both helicopters per
    Move), 5 two People (2 more carrier spaces, the graph's carrier grows)."""
    s = fresh(20, 2)
    order = next(i for i in s.board.orders_row if COMP.orders[i].any == 0)
    need = [p for p, n in zip(PEOPLE, COMP.orders[order].people) for _ in range(n)]
    colour = s.setup.colours[0].rescue_device
    s = on_carrier(s, 0, need + [colour, colour, V])
    s = ask(s, Pending(Ask.SPECIAL_ORDER, 0))
    s2 = s.apply(A.order(order, tuple(sorted(need, key=PEOPLE.index))))
    assert s2.private[0].orders == (order,) and s2.sides[0].orders == 1 and order not in s2.board.orders_row
    assert sum(s2.board.supply) == sum(s.board.supply) + len(need) and sum(s2.board.discarded) == 0   # paid: supply
    assert upgrade_payments(COMP, s2.sides[0], s2.setup.colours[0], (), 2) == [()]
    s3 = ask(s2, Pending(Ask.SPECIAL_ORDER, 0)).apply(A.upgrade(2))
    assert s3.sides[0].night == (False, True)
    paid = tuple(sorted([colour, colour, V], key=PEOPLE.index))
    assert paid in upgrade_payments(COMP, s3.sides[0], s3.setup.colours[0], (), 3)
    s4 = ask(s3, Pending(Ask.SPECIAL_ORDER, 0)).apply(A.upgrade(3, people=paid))
    assert s4.sides[0].upgrades[2] and s4.sides[0].carrier == ()
    s5 = on_carrier(s4, 0, [B, P])
    s5 = ask(s5, Pending(Ask.SPECIAL_ORDER, 0)).apply(A.upgrade(5, people=(B, P)))
    assert s5.sides[0].spaces == COMP.spaces + 2 and s5.table.capacity[0] == COMP.spaces + 2
    assert s5.table.graph.node(carrier(s5, 0)).capacity == COMP.spaces + 2


def test_WC_F5_upgrade_3_rescues_two_and_upgrade_4_moves_both_helicopters():
    """WC.F5: with upgrade 3 a Rescue takes two People (one or both helicopters); with
    upgrade 4 a Move may move each helicopter once."""
    s = fresh(21, 2)
    s = roofs(s, [[S, S], [S], []])
    s = fly(fly(s, 0, CH46, slot(s, 0, CH46)), 0, CH53, slot(s, 1, CH53))
    s = side(s, 0, upgrades=(False, False, True, True, False))
    s = until(s, lambda t: t.board.phase == Phase.PLAY and t.current_player() == 0 and not t.board.pending)
    s = roofs(s, [[S, S], [S], []])
    s = fly(fly(s, 0, CH46, slot(s, 0, CH46)), 0, CH53, slot(s, 1, CH53))
    s = hand(s, 0, [card_id(S, Icon.MOVE)])
    s2 = s.apply(A.play(card_id(S, Icon.MOVE), Icon.RESCUE))
    assert s2.board.pending[0].picks == 2
    s2 = s2.apply(A.rescue(CH46, s.table.roofs[0], S))
    assert s2.board.pending[0].ask == Ask.RESCUE and s2.board.pending[0].picks == 1
    s2 = s2.apply(A.rescue(CH53, s.table.roofs[1], S))
    assert s2.sides[0].aboard == ((S,), (S,))
    m = s.apply(A.play(card_id(S, Icon.MOVE), Icon.MOVE))
    assert m.board.pending[0].both
    m = m.apply(A.move(CH46, slot(s, 2, CH46)))
    assert m.board.pending[0].ask == Ask.MOVE and m.board.pending[0].helis == (CH53,)
    m = m.apply(A.move(CH53, slot(s, 2, CH53)))
    assert m.sides[0].at == (slot(s, 2, CH53), slot(s, 2, CH46))


def test_WC_F6_unloading_scores_the_helicopter_vp_and_must_happen_when_room_appears():
    """WC.F6: returning to the carrier unloads and scores the helicopter's VP per type;
    with too little room the player picks whom to unload, the rest stay aboard and are
    unloaded as soon as room appears."""
    s = fresh(22, 2)
    s = on_carrier(s, 0, [V, V, V])              # 1 space left of 4
    s = fly(s, 0, CH53, slot(s, 0, CH53), aboard=(V, P, S))
    supply = list(s.board.supply)
    for p in (V, P, S):
        supply[PEOPLE.index(p)] -= 1
    s = board(s, supply=tuple(supply))
    s = ask(s, Pending(Ask.MOVE, 0))
    s2 = s.apply(A.move(CH53, carrier(s, 0)))
    assert s2.board.pending[0].ask == Ask.UNLOAD and s2.current_player() == 0
    assert set(s2.legal_actions()) == {A.unload(CH53, p) for p in (V, P, S)}
    vp = s2.sides[0].vp
    s3 = s2.apply(A.unload(CH53, P))
    assert s3.sides[0].vp == vp + COMP.helicopters[0].day.value(P) and s3.sides[0].aboard[0] == (V, S)
    assert not s3.board.pending
    order = [i for i, o in enumerate(COMP.orders) if o.people == (3, 0, 0, 0) and o.any == 0][0]
    s4 = board(s3, orders_row=(order,))
    s4 = ask(s4, Pending(Ask.SPECIAL_ORDER, 0)).apply(A.order(order, (V, V, V)))
    assert s4.sides[0].aboard[0] == () and sorted(s4.sides[0].carrier) == sorted([P, V, S])
    assert s4.sides[0].vp == vp + sum(COMP.helicopters[0].day.value(p) for p in (P, V, S))


def test_WC_F7_cessna_8_5_2_ties_to_the_lower_card_and_at_least_one_token():
    """WC.F7 Cessna: radar totals score 8/5/2 (a player without tokens scores nothing;
    ties go to the lower turn-order card)."""
    s = fresh(23, 4)
    s = radar(radar(radar(s, 0, [3]), 1, [1, 2]), 2, [6])
    w = work(s)
    flow.cessna(w)
    gained = [x.vp - y.vp for x, y in zip(w.sides, s.sides)]
    assert gained == [5, 2, 8, 0]                  # 6 first, 3 ties 1+2 (P1 has the lower card), P4 none
    s = board(s, order=(1, 0, 2, 3))
    w = work(s)
    flow.cessna(w)
    assert [x.vp - y.vp for x, y in zip(w.sides, s.sides)] == [2, 5, 8, 0]


def test_WC_F7_cessna_with_two_players_scores_8_and_3():
    """WC.F7: with 2 players (and solo) the Cessna pays 8 and 3."""
    for solo in (False, True):
        s = radar(radar(fresh(24, 2, solo), 0, [2]), 1, [5])
        w = work(s)
        flow.cessna(w)
        assert [x.vp for x in w.sides] == [3, 8]


def test_WC_F7_end_scoring_and_ties_to_the_lower_turn_order_card():
    """WC.F7 end: +1 VP per 2 People still aboard, the upgrades' VP, the special orders'
    VP; the highest total wins, a tie goes to the lower turn-order card."""
    s = fresh(25, 3)
    s = fly(s, 1, CH53, slot(s, 0, CH53), aboard=(V, V, S))
    s = side(s, 1, upgrades=(True, False, False, False, True), vp=10)
    s = private(s, 2, orders=(0, 1))
    s = side(s, 2, vp=2)
    top = 10 + 1 + COMP.upgrades[0].vp + COMP.upgrades[4].vp
    s = side(s, 0, vp=top)
    s = board(s, order=(2, 1, 0))
    w = work(s)
    flow.end_game(w)
    assert w.sides[1].vp == top and w.sides[0].vp == top          # a tie at the top
    assert w.sides[2].vp == 2 + COMP.orders[0].vp + COMP.orders[1].vp < top
    assert w.b["over"] and w.b["winner"] == 1                     # P2 holds the lower turn-order card


# -- Captain Chambers (H) --------------------------------------------------------------------------
def test_WC_H1_solo_set_up_night_side_wilds_removed_and_turn_order_card_1():
    """WC.H1: 2-player set-up; Chambers' helicopters on their night side; the 2 Rescue
    Wilds and 3 Action Wilds removed, the last next to the player's carrier (single use);
    the player always holds turn-order card 1."""
    s = fresh(26, solo=True)
    assert s.setup.labels == ("P1", "Chambers") and s.setup.seats == 1 and len(s.table.roofs) == 3
    assert s.sides[1].night == (True, True) and s.sides[0].night == (False, False)
    removed = sorted(s.board.removed)
    assert removed == sorted(COMP.wilds(Wild.RESCUE) + COMP.wilds(Wild.ACTION)[1:])
    assert COMP.cards[s.sides[0].faceup].wild == Wild.ACTION and s.sides[1].faceup is None
    assert all(COMP.cards[c].wild is None for c in s.deck + s.board.row)
    s = side(s, 1, influence=9, arrived=99)
    assert flow.turn_order(work(s)) == (0, 1)


def test_WC_H1_the_solo_wild_is_used_once_then_removed():
    """WC.H1: in solo the Action Wild leaves the game after its use."""
    s = until(fresh(27, solo=True), lambda t: t.board.phase == Phase.PLAY and not t.board.pending)
    wild = s.sides[0].faceup
    s2 = s.apply(A.faceup(Icon.RADAR))
    assert wild in s2.board.removed and wild not in s2.board.discard


def test_WC_H2_chambers_scores_when_leading_and_advances_each_phase_1():
    """WC.H2: at the start of each phase +1 VP if Chambers leads the influence track; at
    phase 1 he also advances one space, without effects."""
    s = side(fresh(28, solo=True), 1, influence=3, arrived=50)
    w = work(s)
    flow.start_phase(w, Phase.PLAY)
    assert w.sides[1].vp == 1 and w.sides[1].influence == 3
    s = side(fresh(28, solo=True), 0, influence=3, arrived=50)
    before = s.sides[1].influence
    track = list(s.setup.track)
    track[before + 1] = Bonus.RADAR
    s = replace(s, setup=replace(s.setup, track=tuple(track)))
    w = work(s)
    chambers.phase_start(w, 1, Phase.DRAW)
    assert w.sides[1].vp == 0 and w.sides[1].influence == before + 1 and w.sides[1].radar == 0   # no effect


def test_WC_H3_chambers_draw_takes_the_card_under_the_deck_tops_lower_icon():
    """WC.H3: discard the deck top; take the board card under its lower action icon into
    his face-down deck; do that slot's action; refill."""
    s = fresh(29, solo=True)
    top = card_id(V, Icon.RADAR)
    rest = tuple(c for c in s.deck if c != top)
    s = replace(s, deck=(top,) + rest)
    under = s.board.row[ROW.index(Icon.RADAR)]
    w = work(s)
    chambers.draw(w, 1)
    assert top in w.b["discard"] and w.private[1].hand == (under,) and w.sides[1].radar == 1
    assert w.b["row"][ROW.index(Icon.RADAR)] == rest[0]


def test_WC_H4_chambers_plays_his_rescue_else_the_lower_action_else_nothing():
    """WC.H4: reveal his next card; its Rescue if possible, else its lower action if
    possible, else nothing."""
    s = fresh(30, solo=True)
    s = roofs(s, [[S], [], []])
    s = fly(s, 1, CH46, slot(s, 0, CH46))
    rescue_card, radar_card = card_id(S, Icon.RADAR), card_id(P, Icon.RADAR)
    s = private(s, 1, hand=(rescue_card, radar_card))
    w = work(s)
    chambers.play(w, 1)
    assert w.sides[1].aboard[1] == (S,) and w.sides[1].radar == 0
    chambers.play(w, 1)
    assert w.sides[1].radar == 1
    s = replace(s, radar_supply=())
    s = private(s, 1, hand=(radar_card,))
    w = work(s)
    chambers.play(w, 1)
    assert any("Chambers does nothing" in t for t in w.freeze().events)


def test_WC_H5_chambers_bids_your_tokens_plus_one_and_never_takes_passengers():
    """WC.H5: he bids as many tokens as the player holds (bid or not) plus one, or all he
    has; winning, he does the actions but takes no passengers; losing, 1 VP per token."""
    start = until(fresh(31, solo=True), lambda t: t.board.phase == Phase.SIGHTING)
    s = radar(radar(start, 0, [1, 1]), 1, [2, 3, 4, 5])
    card = next(i for i, c in enumerate(COMP.sightings) if c.passengers and c.actions)
    s = board(s, sighting=card)
    won = s.apply(A.SEAL)                         # the player bids nothing, holding 2 tokens
    log = "\n".join(won.events)
    assert "Chambers bids 3 token(s)" in log and "Chambers wins the sighting" in log
    assert "Chambers takes no passengers" in log and won.sides[1].carrier == () and won.sides[1].extras == ()
    lost = radar(radar(start, 0, [6, 6]), 1, [1])
    lost = lost.apply(A.bid(6)).apply(A.SEAL)
    log = "\n".join(lost.events)
    assert "Chambers bids 1 token(s)" in log and "Chambers scores 1 VP (radar tokens bid)" in log


def test_WC_H6_chambers_moves_out_first_to_the_best_free_rooftop_ties_leftmost():
    """WC.H6: first a helicopter from his carrier to the free rooftop worth most; ties to
    the leftmost helicopter (the CH-53 on carrier card 1) and then the leftmost rooftop."""
    s = fresh(32, solo=True)
    s = roofs(s, [[V], [V], []])                    # a Vietnamese: 2 VP on either night side
    w = work(s)
    assert chambers.move(w, 1)
    assert w.sides[1].at == (slot(s, 0, CH53), carrier(s, 1))      # tie: CH-53, leftmost rooftop
    s = roofs(s, [[S], [P], []])                   # CH-53 night: Politician 3; CH-46 night: Soldier 2
    w = work(s)
    chambers.move(w, 1)
    assert w.sides[1].at == (slot(s, 1, CH53), carrier(s, 1))


def test_WC_H6_chambers_otherwise_flies_home_unloads_and_returns_the_people():
    """WC.H6: with no helicopter on the carrier he flies one home (the load worth most),
    scores it and returns the People to the supply: nobody stays on his carrier."""
    s = fresh(33, solo=True)
    s = fly(fly(s, 1, CH53, slot(s, 0, CH53), aboard=(P,)), 1, CH46, slot(s, 1, CH46), aboard=(V, V))
    supply = list(s.board.supply)
    for p in (P, V, V):
        supply[PEOPLE.index(p)] -= 1
    s = board(s, supply=tuple(supply))
    w = work(s)
    assert chambers.move(w, 1)
    assert w.sides[1].at[1] == carrier(s, 1) and w.sides[1].vp == 4 and w.sides[1].carrier == ()
    assert sum(w.b["supply"]) == sum(supply) + 2


def test_WC_H7_chambers_rescues_the_most_vp_ties_to_the_leftmost_helicopter():
    """WC.H7: the rescue worth most VP to the helicopter taking it; ties to the leftmost."""
    s = fresh(34, solo=True)
    s = roofs(s, [[V], [V], [P]])
    s = fly(fly(s, 1, CH53, slot(s, 1, CH53)), 1, CH46, slot(s, 0, CH46))
    w = work(s)
    assert chambers.rescue(w, 1, V)                  # 2 VP for either: the CH-46 is further left
    assert w.sides[1].aboard == ((), (V,))
    s = fly(s, 1, CH53, slot(s, 2, CH53))
    w = work(s)
    assert chambers.rescue(w, 1, None)               # any type: the CH-53's Politician is worth 3
    assert w.sides[1].aboard == ((P,), ())
    assert not chambers.rescue(work(roofs(s, [[], [], []])), 1, None)


def test_WC_H8_chambers_alternates_upgrade_1_order_upgrade_2_without_requirements():
    """WC.H8: no requirements: upgrade carrier card 1, then the row's lowest-VP order, then
    upgrade 2, ..."""
    s = fresh(35, solo=True)
    w = work(s)
    assert chambers.special(w, 1)
    assert w.sides[1].upgrades == (True, False, False, False, False)
    row = w.b["orders_row"]
    lowest = min(row, key=lambda o: (COMP.orders[o].vp, row.index(o)))
    assert chambers.special(w, 1)
    assert w.private[1].orders == (lowest,) and lowest not in w.b["orders_row"]
    assert chambers.special(w, 1)
    assert w.sides[1].upgrades == (True, True, False, False, False)
    w.b["orders_row"] = ()
    assert chambers.special(w, 1)                    # no order to take: the next upgrade instead
    assert sum(w.sides[1].upgrades) == 3


def test_WC_H9_golden_chambers_ch46_flies_to_the_right_hand_rooftop_worth_2_2_0():
    """WC.H9, the source's Move example: Chambers' CH-46 is on his carrier; counting the
    rescue value of each free rooftop, it flies to the right-hand one, worth 2 + 2 + 0 = 4
    (a Vietnamese and a Soldier, 2 VP each on the night CH-46, and a Politician it cannot
    carry)."""
    s = fresh(36, solo=True)
    s = roofs(s, [[S], [B], [V, S, P]])
    s = fly(s, 1, CH53, slot(s, 0, CH53))
    w = work(s)
    worth = [chambers.potential(w, 1, MODELS.index(CH46), slot(s, k, CH46)) for k in range(3)]
    assert worth == [2, 3, 2 + 2 + 0]
    assert chambers.move(w, 1)
    assert w.sides[1].at == (slot(s, 0, CH53), slot(s, 2, CH46))
    assert any("(4 VP to rescue)" in t for t in w.freeze().events)
