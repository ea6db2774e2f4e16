"""The chaser looks and chooses (issue 34 item 2; DF.T2, DF.T4): with ``reorder="chaser"``
each reveal is a decision of the chaser's seat, which alone sees the target's card; the
move follows the order it chose; an absent choice keeps the order; the default game
(``reorder="policy"``) never waits for a chaser."""
import dataclasses

import pytest

from furball.errors import IllegalAction, InputError
from furball.maneuvers.tailing import tail_check
from furball.scenarios.dogfight.state import PlanAction, ReorderAction, new_game

DUEL = {"scenario": "duel", "swap_start": True}  # the Albatros starts on the Camel's tail


def _lock_all(state, pick=0):
    """Every seat locks a plan (the ``pick``-th legal one of each plane)."""
    while state.pending is None and not state.is_terminal() and state.awaited_players():
        seat = state.awaited_players()[0]
        legal = state.legal_actions_for(seat)
        state = state.apply(legal[min(pick, len(legal) - 1)])
        if state.pending is None and state.locked == ():
            break  # the turn has flown
    return state


def _first_reveal(seed=3, **options):
    state = new_game(seed, **{**DUEL, "reorder": "chaser", **options})
    for pick in range(0, 40, 3):
        found = _lock_all(state, pick)
        if found.pending is not None and len(found.choice.legal) > 1:
            return found
    raise AssertionError("no reveal with a choice")


def test_DF_T2_the_chaser_alone_sees_the_targets_first_card_and_decides():
    state = _first_reveal()
    s = state.pending
    assert (s.chaser.name, s.target.name, s.maneuver) == ("Albatros", "Camel", 1)
    target_plan = dict(state.locked)["Camel"]
    assert s.shown == target_plan[0]
    chaser_seat, target_seat = state.seat_of(PlanAction("Albatros", ())), state.seat_of(PlanAction("Camel", ()))
    assert state.current_players() == (chaser_seat,) == state.awaited_players()
    assert state.current_player() == chaser_seat and state.legal_actions_for(target_seat) == ()
    mine, theirs = state.observation(chaser_seat), state.observation(target_seat)
    assert mine.reorder is not None and mine.reorder.situation.shown == s.shown
    assert theirs.reorder is None and theirs.waiting == mine.waiting == ("Albatros", "Camel")
    assert mine.as_json()["reorder"]["shown"] == s.shown and theirs.as_json()["reorder"] is None
    assert f"Camel shows you its next card, {s.shown} (maneuver 1)" in state.observation_string(chaser_seat)
    assert "waiting for Albatros, who tails Camel" in state.observation_string(target_seat)
    # the first legal action keeps the order; all are orders of the three planned cards (DF.T2)
    plan = dict(state.locked)["Albatros"]
    legal = state.legal_actions()
    assert legal[0] == ReorderAction("Albatros", plan)
    assert all(sorted(a.cards) == sorted(plan) for a in legal) and len(set(legal)) == len(legal)


def test_DF_T2_the_move_follows_the_chosen_order_and_keep_plays_as_the_policy_game():
    state = _first_reveal()
    other = state.legal_actions()[-1]
    flown = state.apply(other)
    while flown.pending is not None:  # the second reveal, if the tail holds: keep
        flown = flown.apply(flown.legal_actions()[0])
    moves = {mv.plane: mv.card for mv in flown.last.maneuvers[0].moves}
    assert moves["Albatros"] == other.cards[0]
    assert flown.last.maneuvers[0].reveals[0].after == other.cards
    # keeping every order is the game of the keep policy, turn for turn
    kept = state
    while kept.pending is not None:
        kept = kept.apply(kept.legal_actions()[0])
    plain = _lock_all(new_game(3, **DUEL, policy="keep"), _pick_of(state))
    assert kept.table == plain.table and kept.last.maneuvers == plain.last.maneuvers


def _pick_of(state):
    """The ``pick`` of :func:`_lock_all` that made ``state``'s locked plans."""
    for pick in range(0, 40, 3):
        if _lock_all(new_game(3, **DUEL, reorder="chaser"), pick).locked == state.locked:
            return pick
    raise AssertionError


def test_DF_T2_a_bot_orders_as_the_best_policy_would():
    state = _first_reveal(policy="best")
    chosen = state.observation(state.current_player()).reorder.by_policy()
    from furball.scenarios.dogfight.players import RandomPlayer

    assert RandomPlayer(1, state.current_player()).choose(state.observation(state.current_player())) == chosen
    while state.pending is not None:
        state = state.apply(state.observation(state.current_player()).reorder.by_policy())
    plain = _lock_all(new_game(3, **DUEL, policy="best"), _pick_of(_first_reveal()))
    assert state.table == plain.table


def test_DF_T2_an_order_out_of_turn_or_of_other_cards_raises_with_its_rule_and_changes_nothing():
    state = _first_reveal()
    before = dataclasses.replace(state)
    plan = dict(state.locked)["Albatros"]
    for bad in (ReorderAction("Camel", dict(state.locked)["Camel"]), ReorderAction("Albatros", ("A1", "A1", "A1"))
                if sorted(plan) != ["A1"] * 3 else ReorderAction("Albatros", ("A2",) * 3), PlanAction("Camel", plan)):
        assert state.explain(bad).rule == "DF.T2"
        with pytest.raises(IllegalAction, match="DF.T2") as err:
            state.apply(bad)
        assert err.value.rule == "DF.T2"
    assert state == before and state.explain(state.legal_actions()[0]) is None


def test_DF_T4_the_second_card_is_shown_only_while_the_tail_holds():
    seen = 0
    for seed in range(2):
        for pick in range(0, 30, 10):
            state = _lock_all(new_game(seed, **DUEL, reorder="chaser"), pick)
            while state.pending is not None:
                s = state.pending
                if s.maneuver == 2:
                    assert tail_check(s.chaser, s.target, list(s.planes), s.rules).ok
                    assert len(s.remaining) == 2 and len(s.flown) == 1
                    seen += 1
                state = state.apply(state.legal_actions()[-1])
    assert seen


def test_DF_T2_the_default_game_never_waits_for_a_chaser_and_the_option_is_checked():
    state = _lock_all(new_game(3, **DUEL), 0)
    assert state.pending is None and state.last is not None and state.last.maneuvers[0].reveals
    with pytest.raises(InputError, match="option reorder"):
        new_game(3, reorder="table")


# ------------------------------------------------------------------------------ in a room
def _room_at_reveal(limit=None, seed=3):
    """A duel room (two people) whose first turn waits for the Albatros (P2) to order."""
    from furball.scenarios.web.rooms import Room, make_spec

    options = {"scenario": "duel", "swap_start": True}
    if limit is not None:
        options["chaser_limit_s"] = limit
    room = Room.new(make_spec({"game": "dogfight", "options": options, "seed": seed}, now=1000.0))
    for pick in range(0, 40, 3):
        r = room
        for seat in (0, 1):
            r, _ = r.act(seat, min(pick, r.view(seat)["legal_count"] - 1), r.view_version(seat), now=1010.0 + seat)
        if r.state.pending is not None and len(r.state.choice.legal) > 1:
            return r
    raise AssertionError("no reveal with a choice")


def test_DF_T2_a_room_asks_the_chaser_shows_others_a_waiting_chaser_without_the_card():
    from furball.scenarios.web.rooms import games_json

    offered = [o for g in games_json() if g["name"] == "dogfight" for o in g["options"] if o["name"] == "reorder"]
    assert [o["default"] for o in offered] == ["chaser"]  # the room's own reading, offered once
    room = _room_at_reveal()
    assert room.state.reorder == "chaser" and room.acting == (1,) == room.awaited
    shown = room.state.pending.shown
    chaser, target = room.view(1), room.view(0)
    assert chaser["choices"]["reorder"]["shown"] == shown and chaser["view"]["private"]["reorder"]["shown"] == shown
    assert chaser["choices"]["reorder"]["orders"][0] == list(dict(room.state.locked)["Albatros"])
    assert chaser["legal_count"] == len(chaser["choices"]["reorder"]["orders"])
    assert "choices" not in target and target["view"]["private"]["reorder"] is None
    assert target["view"]["public"]["waiting"] == {"chaser": "Albatros", "target": "Camel"}
    assert chaser["choice_limit"] == target["choice_limit"] == {"seat": 1, "deadline": 1011.0 + 120, "limit_s": 120}
    assert room.why(0, []) == "it is P2's turn, not yours"  # nothing of the card in the refusal
    # whatever the chaser orders, the target's version moves by one (the next reveal's line or the turn)
    for i in range(len(chaser["choices"]["reorder"]["orders"])):
        r, _ = room.act(1, i, room.view_version(1), now=1020.0)
        assert r.view_version(0) == room.view_version(0) + 1
        if r.state.pending is not None:
            assert r.log_for(0)[-1].lines == ("  maneuver 2: Camel shows its next card to Albatros, who may reorder "
                                              "its cards (DF.T2)",)
    # the order the chaser picks flies; its text is in its own log only
    last = len(chaser["choices"]["reorder"]["orders"]) - 1
    flown, _ = room.act(1, last, room.view_version(1), now=1020.0)
    while flown.state.pending is not None:
        flown, _ = flown.act(1, 0, flown.view_version(1), now=1030.0)
    assert flown.state.last.maneuvers[0].reveals[0].after == tuple(chaser["choices"]["reorder"]["orders"][last])
    assert all(line.action is None for line in flown.log_for(0) if line.seat == 1)


def test_DF_T2_the_chasers_time_runs_out_the_room_keeps_its_order_and_a_restart_agrees():
    from furball.scenarios.web.rooms import EventKind, Room

    room = _room_at_reveal(limit=30)
    deadline = room.choice_deadline()
    assert deadline == room.events[-1].at + 30
    with pytest.raises(IllegalAction, match="no choice"):
        room.timeout_event(now=deadline - 1)
    plan = dict(room.state.locked)["Albatros"]
    after, event = room.timeout_event(now=deadline + 0.5)
    assert event.kind == EventKind.TIMEOUT and event.seat == 1 and event.action == 0
    kept = room.state.apply(room.state.legal_actions()[0])
    assert after.state.reorders == kept.reorders and after.state.reorders[0] == ("Albatros", plan)
    assert after.log_for(1)[-1].as_json()["action"].startswith("time ran out: Albatros keeps its order")
    assert after.log_for(1)[-1].as_json("es")["action"].startswith("se acabó el tiempo: Albatros mantiene su orden")
    again = Room.replay(room.spec, after.events)
    assert [again.view(s) for s in (0, 1, None)] == [after.view(s) for s in (0, 1, None)]
    # no limit for a bot, nor with the option at 0
    assert _room_at_reveal(limit=0).choice_deadline() is None
    assert room.control(1, "random")[0].choice_deadline() is None


def test_DF_T2_a_search_bot_in_a_chasers_seat_orders_as_the_policy_and_searches_the_policy_game():
    pytest.importorskip("pyspiel")
    from furball.scenarios.dogfight.game import DOGFIGHT

    state = _first_reveal()
    bot = DOGFIGHT.player("mcts:4", 1, state.current_player())
    assert bot.choose_in(state, state.current_player()) == state.choice.by_policy()
    planning = new_game(3, **DUEL, reorder="chaser")
    assert planning.as_searched().reorder == "policy" and planning.as_searched().table == planning.table
    assert isinstance(bot.choose_in(planning, planning.current_player()), PlanAction)


@pytest.mark.slow
def test_DF_T2_the_server_rings_the_chasers_limit_and_stores_the_kept_order():
    import time

    from starlette.testclient import TestClient

    from furball.scenarios.web import LOOPBACK_HOSTS, create_app
    from furball.scenarios.web.app import ServerOptions
    from furball.scenarios.web.rooms import EventKind

    app = create_app(allowed_hosts=LOOPBACK_HOSTS + ("testserver",), options=ServerOptions(bot_delay_s=0.0))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        made = client.post("/api/rooms", json={"game": "dogfight", "seed": 3, "seats": [None, None], "options": {
            "scenario": "duel", "swap_start": True, "chaser_limit_s": 1}}).json()
        room = made["room"]
        for seat in (0, 1):
            r = client.post(f"/api/rooms/{room}/act", json={"version": 0, "action": 0},
                            headers={"Authorization": f"Bearer {made['seats'][seat]['token']}"})
            assert r.status_code == 200
        for _ in range(200):  # one second for each reveal, then the turn flies
            if client.portal.call(app.state.hub.live, room).room.state.table.turn == 2:
                break
            time.sleep(0.05)
        stored = app.state.store.load(room)
    timeouts = [e for e in stored.events if e.kind == EventKind.TIMEOUT]
    assert timeouts and all(e.seat == 1 and e.action == 0 for e in timeouts)
    assert stored.events[-1].kind == EventKind.TIMEOUT


def _second_reveal():
    for seed in range(3):
        for pick in range(0, 30, 10):
            state = _lock_all(new_game(seed, **DUEL, reorder="chaser"), pick)
            while state.pending is not None:
                if state.pending.maneuver == 2:
                    return state
                assert state.observation(0).flown is None  # the first reveal: nothing flown yet
                state = state.apply(state.legal_actions()[-1])
    raise AssertionError("no second reveal")


def test_DF_T2_the_second_reveal_shows_every_seat_the_planes_after_the_first_maneuver():
    state = _second_reveal()
    chaser = state.current_player()
    target = 1 - chaser
    mine, theirs = state.observation(chaser), state.observation(target)
    assert mine.public_flown.so_far() == theirs.public_flown.so_far()
    assert [m["index"] for m in mine.public_flown.so_far()["maneuvers"]] == [1]  # the second maneuver is not flown yet
    flown = state.apply(state.legal_actions()[-1])
    while flown.pending is not None:
        flown = flown.apply(flown.legal_actions()[0])
    first = flown.observation(target).public_replay["maneuvers"][0]
    assert mine.public_flown.so_far()["maneuvers"][0]["planes"] == first["planes"]  # where the planes are, for everyone
    assert mine.public_flown.so_far()["maneuvers"][0]["lines"] == first["lines"]    # and the first maneuver's firing
    # each side reads the first maneuver as it may: the chaser's side its reveal, the other side no card
    assert theirs.flown.so_far()["maneuvers"][0]["reveals"][0]["shown"] is None
    assert mine.flown.so_far()["maneuvers"][0]["reveals"][0]["shown"] == dict(state.locked)[state.pending.target.name][0]
    # the second card shown stays the chaser's: another card shown changes nothing the target reads
    other = state.replace(pending=dataclasses.replace(state.pending, shown="A13" if state.pending.shown != "A13"
                                                      else "A12"))
    assert other.observation(target) == theirs and other.observation(target).as_json() == theirs.as_json()
