"""Rules fidelity of 1975 White Christmas (issue #20, items 5-12), each a test named after
its rule ID, written to fail on the engine as it was before the fixes: sealed bids stay
secret in terminal play and no observation reaches another seat's tokens (WC.F4); the
influence markers are stacked at random in the solo game too (WC.H1, WC.F1); Captain
Chambers scores only for more influence than the player (WC.H2); seven sighting cards,
the Cessna among them (WC.F4, WC.F7); a phase-1 slot's action is performed when able
(WC.F2); influence effect cards have 4 positions, a face times a half (WC.F5); staircase
People with no room go back to the supply, the other reading kept as a rule option
(WC.G2); the sighting's winner chooses which passenger takes the one free space (WC.F4).

Only functions the engine had before the fixes are used to build positions, so each test
fails there on its assertion.
"""
import gc
import io
import itertools
import types
from dataclasses import replace

import pytest
from white_christmas_helpers import COMP, B, P, S, V, board, fresh, play, radar, roofs, side, stairs_at, until, work

from furball.scenarios.cli import main
from furball.scenarios.engine import play_game
from furball.scenarios.white_christmas import actions as A
from furball.scenarios.white_christmas import chambers
from furball.scenarios.white_christmas.actions import ActionKind, Phase
from furball.scenarios.white_christmas.components import PEOPLE, Icon, shipped_components
from furball.scenarios.white_christmas.game import WHITE_CHRISTMAS
from furball.scenarios.white_christmas.players import HeuristicPlayer


# -- item 5: sealed bids stay secret (WC.F4) --------------------------------------------
def _interactive(argv: list[str], keys: str) -> str:
    import sys
    out = io.StringIO()
    old_in, old_out = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = io.StringIO(keys), out
    try:
        assert main(["play", "white-christmas", "--interactive"] + argv) == 0
    finally:
        sys.stdin, sys.stdout = old_in, old_out
    return out.getvalue()


@pytest.mark.parametrize("seed", [4, 9])
def test_WC_F4_terminal_play_shows_a_bots_sealed_bid_as_a_count_until_the_reveal(seed):
    """WC.F4 ("face down ... reveal them simultaneously"): while the person at the keyboard
    has still to bid, a bot's bid shows only as "P3 bids 2 token(s), face down": neither
    the tokens it adds nor their values or total."""
    text = _interactive(["--players", "3", "--humans", "1", "--seed", str(seed)], "1\n" * 3000)
    sightings = text.split("bids revealed")
    assert len(sightings) >= 2 and "winner: " in text
    for before in sightings[:-1]:
        bot_lines = [line for line in before.splitlines() if "(bot)" in line]
        assert not any("radar token worth" in line or "seal the bid" in line for line in bot_lines)
        assert "token(s), face down" in before


def _reachable(root):
    """Every object reachable from ``root`` through data (not through classes, modules,
    functions or code: those lead to the whole interpreter)."""
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType,
            types.MethodType, types.WrapperDescriptorType, types.MethodWrapperType)
    seen, stack = {id(root): root}, [root]
    while stack:
        for ref in gc.get_referents(stack.pop()):
            if id(ref) not in seen and not isinstance(ref, skip):
                seen[id(ref)] = ref
                stack.append(ref)
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_WC_F4_no_observation_reaches_another_seats_tokens_hand_or_bid(players):
    """WC.F4, WC.F2: nothing a seat's observation holds — its values, and any answer or
    cache reachable from them — is another seat's radar tokens, hand or bid: the very
    private tuples of the other seats are never reachable from it, at any decision of a
    whole game (caches keyed by private values would make them so)."""
    seed = 31
    s = WHITE_CHRISTMAS.new_game(seed, **{**WHITE_CHRISTMAS.defaults(), "players": players})
    bots = [HeuristicPlayer(seed, seat) for seat in range(players)]
    checked = 0
    while not s.is_terminal():
        seat = s.current_player()
        if s.step % 7 == 0:
            for viewer in range(players):
                seen = _reachable(s.observation(viewer))
                for other in range(players):
                    if other != viewer:
                        mine = s.private[other]
                        for secret in (mine.radar, mine.hand, mine.bid):
                            assert not secret or id(secret) not in seen, (viewer, other, secret)
                            checked += bool(secret)
        s = s.apply(bots[seat].choose(s.observation(seat)))
    assert checked > 50


# -- item 6: the influence markers are stacked at random, solo too (WC.H1, WC.F1) -------
def test_WC_H1_the_influence_markers_are_stacked_at_random_in_the_solo_game_too():
    """Set-up step 3d ("stack the markers at random") holds for the solo game (WC.H1: set
    up as for 2 players): Captain Chambers' marker is on top in some games, the player's
    in others (the player still holds turn-order card 1)."""
    tops = []
    for seed in range(40):
        s = fresh(seed, solo=True)
        stack = next(e for e in s.events if "influence markers stacked at random, top first:" in e)
        tops.append(stack.split("top first: ")[1].split()[0])
        assert s.board.order[0] == 0
    assert set(tops) == {"P1", "Chambers"} and 8 <= tops.count("Chambers") <= 32


# -- item 7: Chambers scores only for more influence (WC.H2) ----------------------------
@pytest.mark.parametrize("his, mine, vp", [(3, 3, 0), (4, 3, 1), (2, 3, 0)])
def test_WC_H2_chambers_scores_for_more_influence_than_the_player_a_tie_does_not(his, mine, vp):
    """WC.H2 read with the solo rules' scoring ("Chambers scores only for having more
    influence than you"): on the same space he scores nothing, even with his marker on top."""
    s = fresh(28, solo=True)
    s = side(side(s, 1, influence=his, arrived=90), 0, influence=mine, arrived=10)   # his marker on top
    w = work(s)
    chambers.phase_start(w, 1, Phase.PLAY)
    assert w.sides[1].vp == vp


# -- item 8: seven sighting cards, the Cessna among them (WC.F4, WC.F7) ----------------
def test_WC_F4_seven_sightings_the_cessna_among_them_rounds_1_to_3_draw_3_of_the_other_6():
    """Components: 7 Sighting cards; set-up step 14 draws 3 at random and puts the Cessna
    under them, so the other 6 are the ones drawn from."""
    comp = shipped_components()
    assert len(comp.sightings) + 1 == 7 and comp.cessna.name not in {c.name for c in comp.sightings}
    drawn = set()
    for seed in range(60):
        s = fresh(seed, 2)
        deck = (s.board.sighting,) + s.sightings
        assert len(deck) == 3 and len(set(deck)) == 3
        drawn.update(deck)
    assert drawn == set(range(6))


# -- item 9: a phase-1 slot's action is performed when able (WC.F2) ---------------------
def _take_slot(seed: int, slot: Icon):
    s = fresh(seed, 2)
    return s.apply(A.take(slot))


def test_WC_F2_taking_the_move_slot_in_phase_1_flies_a_helicopter_no_pass():
    """WC.F2 ("immediately perform the Action on the board"): the Move slot's flight is
    made at once; passing is for phase 2's "cannot or do not wish"."""
    s = _take_slot(5, Icon.MOVE)
    assert s.board.pending and s.board.pending[0].ask == "move"
    kinds = {a.kind for a in s.legal_actions()}
    assert kinds == {ActionKind.MOVE}


def test_WC_F2_the_special_order_slot_is_performed_when_something_is_possible():
    """WC.F2: with an order the carrier can pay, taking the Special Order slot completes one
    (or upgrades the carrier); no pass."""
    s, _, _ = _paying(5)
    s = s.apply(A.take(Icon.SPECIAL_ORDER))
    assert s.board.pending and s.board.pending[0].ask == "special_order"
    assert A.PASS not in s.legal_actions() and s.legal_actions()


def test_WC_F3_a_played_cards_move_may_still_be_declined():
    """WC.F3 ("if you cannot or do not wish to perform an Action"): in phase 2 the details
    of a played card's action still offer pass."""
    s = until(fresh(6, 2), lambda t: t.board.phase == Phase.PLAY and not t.board.pending
              and any(a.kind == ActionKind.PLAY and a.use == Icon.MOVE for a in t.legal_actions()))
    play_move = next(a for a in s.legal_actions() if a.kind == ActionKind.PLAY and a.use == Icon.MOVE)
    s = s.apply(play_move)
    assert A.PASS in s.legal_actions()


# -- item 10: influence effect cards, 4 positions each (WC.F5) -------------------------
def test_WC_F5_an_effect_card_has_4_positions_a_face_times_the_half_left_showing():
    """Set-up step 2 (Spanish: "un lado y cara de cada una ... tapando el otro lado"): a
    card has two faces of two halves each; a position is a face and the half the board
    leaves showing, so 4 per card and 4^4 = 256 set-ups, all different tracks."""
    influence = COMP.influence
    for card in influence.cards:
        assert len(card.faces) == 2 and all(len(face) == 2 for face in card.faces)
        halves = [card.position(k) for k in range(4)]
        assert halves == [card.faces[0][0], card.faces[0][1], card.faces[1][0], card.faces[1][1]]
        assert len(set(halves)) == 4 and len({len(h) for h in halves}) == 1
    tracks = {influence.track(p) for p in itertools.product(range(4), repeat=len(influence.cards))}
    assert len(tracks) == 256
    seen = {fresh(seed, 2).setup.positions for seed in range(40)}
    assert {k for p in seen for k in p} == {0, 1, 2, 3}


# -- item 11: staircase People with no room go back to the supply (WC.G2) ---------------
def _overflowing(s):
    """``s`` in phase 2 with rooftop 0 one space short of full and a Soldier then a
    Politician on its staircase, and the deciding seat's hand card to discard."""
    space = s.table.spaces[0]
    s = roofs(s, [[V] * (space - 1)] + [list(r) for r in s.board.roofs[1:]])
    return stairs_at(s, 0, [S, P])


def test_WC_G2_people_with_no_room_go_back_to_the_supply_by_default():
    """WC.G2: the Soldier climbs into the free space; the Politician, with no room, goes back
    to the supply (the rules return People to the supply everywhere else and name no discard
    pile for them), so no People token leaves the game."""
    s = until(fresh(4, 2), lambda t: t.board.phase == Phase.PLAY and t.board.turn == 9 and not t.board.pending)
    s = _overflowing(s)
    i = PEOPLE.index(P)
    supply, discarded = s.board.supply[i], s.board.discarded[i]
    s = s.apply(A.discard(s.private[s.current_player()].hand[0]))
    assert s.board.phase == Phase.SIGHTING and s.board.roofs[0][-1] == S
    assert s.board.supply[i] == supply + 1 and s.board.discarded[i] == discarded


def test_WC_G2_the_discard_reading_is_a_rule_option():
    """WC.G2, rule option ``overflow=discard``: the Politician with no room leaves the game."""
    s = until(WHITE_CHRISTMAS.new_game(4, players=2, overflow="discard"),
              lambda t: t.board.phase == Phase.PLAY and t.board.turn == 9 and not t.board.pending)
    s = _overflowing(s)
    i = PEOPLE.index(P)
    supply, discarded = s.board.supply[i], s.board.discarded[i]
    s = s.apply(A.discard(s.private[s.current_player()].hand[0]))
    assert s.board.supply[i] == supply and s.board.discarded[i] == discarded + 1
    assert WHITE_CHRISTMAS.option("overflow").choices == ("supply", "discard")


def _paying(seed: int, **options):
    """A 2-player position whose first seat's carrier pays the first order of the row,
    that seat about to take the Special Order slot."""
    s = WHITE_CHRISTMAS.new_game(seed, **{**WHITE_CHRISTMAS.defaults(), "players": 2, **options})
    order = s.board.orders_row[0]
    need = [p for p, n in zip(PEOPLE, COMP.orders[order].people) for _ in range(n)] + [V] * COMP.orders[order].any
    supply = list(s.board.supply)
    for p in need:
        supply[PEOPLE.index(p)] -= 1
    return board(side(s, 0, carrier=tuple(sorted(need, key=PEOPLE.index))), supply=tuple(supply)), order, need


@pytest.mark.parametrize("payment", ["supply", "discard"])
def test_WC_F5_people_paid_for_an_order_go_back_to_the_supply_by_default(payment):
    """WC.F5 ("discard rescued People from your carrier to fulfil an order"), read like
    WC.G2: the rules name no discard pile for People, so those paid go back to the supply;
    rule option ``payment=discard``: they leave the game."""
    s, order, need = _paying(5) if payment == "supply" else _paying(5, payment="discard")
    supply, discarded = sum(s.board.supply), sum(s.board.discarded)
    s = s.apply(A.take(Icon.SPECIAL_ORDER))
    paying = next(a for a in s.legal_actions() if a.kind == ActionKind.ORDER and a.order == order)
    s = s.apply(paying)
    back = len(need) if payment == "supply" else 0
    assert sum(s.board.supply) == supply + back and sum(s.board.discarded) == discarded + len(need) - back


@pytest.mark.slow
def test_WC_G2_with_discarded_people_out_of_the_game_staircases_run_short():
    """WC.G2, WC.F5: with discarded People out of the game, later staircases find the supply
    short (spaces left empty: most of them for want of the People paid for orders and
    carrier cards, as staircase People rarely find no room); back in the supply, seldom
    (20 four-player games)."""
    empty = {}
    for pile in ("supply", "discard"):
        opts = {"players": 4, "overflow": pile, "payment": pile}
        empty[pile] = sum(play_game(WHITE_CHRISTMAS, seed, "heuristic", opts, keep_log=False).result["empty_stairs"]
                          for seed in range(20))
    assert empty["discard"] > 3 * empty["supply"] + 40


# -- item 12: the sighting's winner chooses which passenger boards (WC.F4) ---------------
def test_WC_F4_with_one_free_space_the_winner_chooses_which_passenger_boards():
    """WC.F4 (passengers "immediately join your carrier ... if you have no available space
    the opportunity is lost"): two passengers of different types, one free space: the
    winner chooses who boards; the other is lost and stays in the supply."""
    s = until(fresh(17, 2), lambda t: t.board.phase == Phase.SIGHTING)
    first = s.board.order[0]
    s = radar(s, first, [4])
    card = next(i for i, c in enumerate(COMP.sightings) if len(set(c.passengers)) == 2)
    a, b = COMP.sightings[card].passengers
    spaces = s.sides[first].spaces
    filler = [B] * (spaces - 1) if B not in (a, b) else [V] * (spaces - 1)
    supply = list(s.board.supply)
    for p in filler:
        supply[PEOPLE.index(p)] -= 1
    s = board(side(s, first, carrier=tuple(filler)), sighting=card, supply=tuple(supply))
    s = play(s, A.bid(4), A.SEAL, A.SEAL)
    assert s.current_player() == first and s.board.pending[0].ask == "passenger"
    assert set(s.legal_actions()) == {A.board(a), A.board(b)}
    before = s.board.supply
    s = s.apply(A.board(b))
    assert b in s.sides[first].carrier and a not in s.sides[first].carrier
    assert s.board.supply[PEOPLE.index(b)] == before[PEOPLE.index(b)] - 1
    assert s.board.supply[PEOPLE.index(a)] == before[PEOPLE.index(a)]
    assert any(f"the {a} passenger is lost" in e for e in s.events)


def test_WC_F4_with_room_for_both_passengers_no_question_is_asked():
    s = until(fresh(17, 2), lambda t: t.board.phase == Phase.SIGHTING)
    first = s.board.order[0]
    s = radar(s, first, [4])
    card = next(i for i, c in enumerate(COMP.sightings) if len(set(c.passengers)) == 2)
    s = play(board(s, sighting=card), A.bid(4), A.SEAL, A.SEAL)
    assert sorted(s.sides[first].carrier) == sorted(COMP.sightings[card].passengers)
    assert not s.board.pending or s.board.pending[0].ask != "passenger"


def test_WC_H5_chambers_never_takes_passengers_so_never_chooses():
    s = until(fresh(20, solo=True), lambda t: t.board.phase == Phase.SIGHTING)
    card = next(i for i, c in enumerate(COMP.sightings) if len(set(c.passengers)) == 2)
    s = board(radar(s, 1, [5, 6]), sighting=card)
    s = replace(s, private=s.private)
    s = play(s, A.SEAL)
    assert not any(p.ask == "passenger" for p in s.board.pending)
    assert s.sides[1].carrier == ()
