"""The dogfight as a whole game (issue #21 items 3-4): the engine protocol, hidden plans,
victory (DF.V1, DF.V2), saved games, bots, `furball play dogfight` and `furball sweep
dogfight`."""
import dataclasses
import json
import tomllib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from furball.errors import IllegalAction, InputError
from furball.scenarios.dogfight import load_scenario, parse_scenario, scenario_toml
from furball.scenarios.dogfight.game import DOGFIGHT
from furball.scenarios.dogfight.players import RandomPlayer
from furball.scenarios.dogfight.report import turn_lines
from furball.scenarios.dogfight.state import DRAW, EndReason, PlanAction, new_game
from furball.scenarios.engine import GameState, play_game, play_many


def walk(state, bots, until_turn=None):
    """Play ``state`` on with ``bots`` (seat -> bot); every state passed, in order."""
    states = [state]
    while (seat := state.current_player()) is not None:
        if until_turn is not None and state.table.turn > until_turn:
            break
        state = state.apply(bots[seat].choose(state.observation(seat)))
        states.append(state)
    return states


def randoms(seed, seats=2):
    return {s: RandomPlayer(seed, s) for s in range(seats)}


def test_a_game_follows_the_engine_protocol_and_an_illegal_plan_changes_nothing():
    state = new_game(5, "duel")
    assert isinstance(state, GameState) and state.current_player() == 0 and not state.is_terminal()
    assert state.seat_sides == ("Allies", "Central Powers") and state.seats == (("Camel",), ("Albatros",))
    legal = state.legal_actions()
    assert len(legal) > 1000 and all(a.plane == "Camel" for a in legal)
    before = dataclasses.asdict(state.table.planes[0])
    for bad in (PlanAction("Nobody", legal[0].cards), PlanAction("Camel", ("A13", "A13", "A13")), "A1 A2 A3"):
        with pytest.raises(IllegalAction):
            state.apply(bad)
    assert dataclasses.asdict(state.table.planes[0]) == before and state.locked == ()
    after = state.apply(legal[0])
    assert after.current_player() == 1 and after.locked == (("Camel", legal[0].cards),)
    flown = after.apply(after.legal_actions()[0])
    assert flown.table.turn == 2 and flown.last is not None and flown.locked == ()
    assert any(line.startswith("Turn 1") for line in flown.events)


def test_df_m1_every_seat_plans_at_once_and_any_order_of_locks_flies_the_same_turn():
    state = new_game(2, "furball", seats="planes")
    seats = state.current_players()
    assert len(seats) >= 3 and state.awaited_players() == seats and state.current_player() == seats[0]
    plans = {seat: state.observation(seat).legal[len(state.observation(seat).legal) // 2] for seat in seats}
    assert all(state.legal_actions_for(seat)[:len(state.observation(seat).legal)] == state.observation(seat).legal
               for seat in seats)
    once = state.apply(plans[seats[0]])
    assert all(once.observation(seat).actions() == once.legal_actions_for(seat) for seat in seats)
    flown = []
    for order in (seats, seats[::-1], seats[1:] + seats[:1]):
        s = state
        for seat in order:
            assert seat in s.current_players() and seat in s.awaited_players()
            s = s.apply(plans[seat])
        flown.append(s)
    assert all(f.table.turn == state.table.turn + 1 and f.locked == () for f in flown)
    assert flown[0].table == flown[1].table == flown[2].table
    assert [turn_lines(f.last) for f in flown[1:]] == [turn_lines(flown[0].last)] * 2


def test_df_m1_a_locked_plan_changes_until_the_last_lock_flies_the_turn():
    state = new_game(5, "duel")
    first, other = state.legal_actions_for(0)[0], state.legal_actions_for(0)[7]
    once = state.apply(state.legal_actions_for(1)[0])  # seat 2 locks first
    assert once.current_player() == 0 and once.awaited_players() == (0,) and once.current_players() == (0, 1)
    assert once.observation(1).to_plan is None and once.legal_actions_for(1)  # may still change its plan
    changed = once.apply(once.legal_actions_for(1)[3])
    assert changed.locked == (("Albatros", once.legal_actions_for(1)[3].cards),)
    assert not any("Albatros" in line for line in changed.events_for(0))  # a change tells the other seat nothing
    direct = state.apply(state.legal_actions_for(1)[3]).apply(other)
    via = changed.apply(other)
    assert via.table.turn == 2 and via.table == direct.table and via.locked == ()
    assert state.apply(first).apply(state.legal_actions_for(1)[3]).table.turn == 2


def test_df_m1_an_illegal_lock_at_the_simultaneous_node_raises_with_its_rule_and_changes_nothing():
    state = new_game(5, "duel").apply(new_game(5, "duel").legal_actions_for(1)[0])
    for bad in (PlanAction("Nobody", ("A1", "A1", "A1")), PlanAction("Albatros", ("A13", "A13", "A13")), None):
        with pytest.raises(IllegalAction) as err:
            state.apply(bad)
        assert "DF." in str(err.value)
    assert state.locked[0][0] == "Albatros" and state.table.turn == 1
    with pytest.raises(IndexError):
        state.legal_actions_for(2)


@pytest.mark.slow
def test_same_seed_same_log_byte_for_byte_and_another_seed_another_game():
    first = play_game(DOGFIGHT, 11, ("planner", "random"))
    again = play_game(DOGFIGHT, 11, ("planner", "random"))
    assert "\n".join(first.log_lines()) == "\n".join(again.log_lines())
    assert json.dumps(first.to_json()) == json.dumps(again.to_json())
    other = play_game(DOGFIGHT, 12, ("planner", "random"))
    assert other.log_lines() != first.log_lines()
    quiet = play_game(DOGFIGHT, 11, ("planner", "random"), keep_log=False)
    assert quiet.result == first.result  # no log, same game


def test_DF_V1_the_last_side_flying_wins_and_DF_V2_the_turn_limit_scores_points():
    record = play_game(DOGFIGHT, 3, "random", {"turn_limit": 40})
    final = record.final
    assert final.is_terminal() and final.over == EndReason.LAST_SIDE
    flying = {p.side for p in final.table.planes if p.flying}
    assert len(flying) <= 1 and final.winner == (flying.pop() if flying else DRAW)
    assert final.returns() in ((1.0, -1.0), (-1.0, 1.0), (0.0, 0.0))
    # DF.V2: a one-turn game far apart ends on points, here equal: a draw
    s = load_scenario("duel")
    far = s.table.replace(planes=(s.table.planes[0].replace(pose=(100.0, 100.0, 0.0)),
                              s.table.planes[1].replace(pose=(800.0, 800.0, 180.0))))
    state = new_game(1, dataclasses.replace(s, table=far), turn_limit=1)
    end = walk(state, {0: _Fixed(("A13", "A14", "A13")), 1: _Fixed(("A13", "A14", "A13"))})[-1]
    assert end.over == EndReason.TURN_LIMIT and end.winner == DRAW and end.scores == {"Allies": 0, "Central Powers": 0}
    assert end.result()["winner"] == DRAW and end.result()["turns"] == 1


class _Fixed:
    def __init__(self, cards):
        self.cards = cards

    def choose(self, observation):
        return PlanAction(observation.to_plan, self.cards)


@pytest.mark.slow
def test_hidden_plans_no_observation_of_a_seat_shows_an_opponent_plan_before_it_is_flown():
    """Walk whole games and check every observation of every seat (at every state, its
    decisions or not): it is the same whatever plan another side locked, whatever order
    the damage piles are in, and whatever other sides' damage cards are worth; and its
    JSON form lists no other side's plan among its own."""
    checked = 0
    games = [(new_game(seed, "duel"), 2) for seed in range(3)] + [(new_game(seed, "furball", seats="planes"), 4)
                                                                    for seed in range(1)]
    for start, seats in games:
        for state in walk(start, randoms(start.seed, seats)):
            sides = {p.name: p.side for p in state.table.planes}
            for seat in range(seats):
                obs = state.observation(seat)
                side = state.seat_sides[seat]
                for name, cards in state.locked:
                    if sides[name] == side:
                        continue
                    other = next(a.cards for a in _legal_for(state, name) if a.cards != cards)
                    swapped = state.replace(locked=tuple((n, other if n == name else c) for n, c in state.locked))
                    assert swapped.observation(seat) == obs
                    assert name not in obs.as_json()["own_plans"] and name in obs.as_json()["locked"]
                    checked += 1
                shuffled = state.replace(table=state.table.replace(piles=tuple(
                    (letter, tuple(reversed(pile))) for letter, pile in state.table.piles)))
                assert shuffled.observation(seat) == obs
                worth = state.replace(table=state.table.replace(planes=tuple(
                    p if p.side == side or not p.damage or not p.on_table
                    else p.replace(damage=("B#1",) * len(p.damage), damage_taken=0) for p in state.table.planes)))
                assert worth.observation(seat).table == obs.table
    assert checked > 20


def _legal_for(state, name):
    """The legal plans of ``name`` at the start of this turn."""
    from furball.maneuvers.plan import legal_plans

    p = state.table.plane(name)
    return [PlanAction(name, c) for c in legal_plans(p, state.table.rules)]


def test_DF_T2_reveals_and_reorders_are_reported_to_the_chasers_side_only():
    for seed in range(30):
        state = walk(new_game(seed, "duel", policy="best"), randoms(seed), until_turn=1)[-1]
        reveals = [v for m in state.last.maneuvers for v in m.reveals] if state.last else []
        if reveals:
            break
    mine, theirs = state.observation(0).last_turn, state.observation(1).last_turn
    assert any("who keeps its order" in line or "who reorders" in line for line in mine)
    assert not any("who keeps its order" in line or "who reorders" in line for line in theirs)
    assert any("shows its next card to Camel" in line for line in theirs)


def test_observation_is_a_plain_value_with_a_json_form():
    state = new_game(2, "duel")
    obs = state.observation(0)
    doc = json.loads(json.dumps(obs.as_json()))
    assert doc["seat"] == 0 and doc["side"] == "Allies" and doc["to_plan"] == "Camel"
    assert len(doc["legal"]) == len(obs.legal) and doc["legal"][0] == list(obs.legal[0].cards)
    assert {p["name"] for p in doc["table"]["planes"]} == {"Camel", "Albatros"}
    assert doc["piles"] == {"A": 40, "B": 41, "C": 43, "D": 41, "E": 43} and doc["winner"] is None
    # DF.M1: the planning is simultaneous: the second seat plans at the same time
    assert state.observation(1).to_plan == "Albatros" and state.observation(1).as_json()["planning"] == ["Albatros"]
    locked = state.apply(obs.legal[0])
    assert locked.observation(0).to_plan is None and locked.observation(0).planning == ("Camel",)
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.turn = 3


def _actions(states):
    return [(s.current_player(), a) for s, a in zip(states, _applied(states))]


def _applied(states):
    """The action that led from each state to the next."""
    out = []
    for before, after in zip(states, states[1:]):
        out.append(PlanAction(*after.locked[-1]) if after.locked else _last_locked(before, after))
    return out


def _last_locked(before, after):
    name = before.legal_actions()[0].plane
    flown = [mv.card for m in after.last.maneuvers for mv in m.moves if mv.plane == name]
    first = after.last.orders[name].plan
    return PlanAction(name, tuple(first if first is not None else flown))


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**40), stop=st.integers(1, 3))
def test_a_saved_game_reloads_with_the_same_piles_and_plays_on_identically(tmp_path_factory, seed, stop):
    whole = walk(new_game(seed, "duel", turn_limit=12), randoms(seed))
    cut = next((s for s in whole if s.table.turn > stop and not s.locked), None)
    if cut is None or cut.is_terminal():
        return
    folder = tmp_path_factory.mktemp("saved")
    path = folder / "saved.toml"
    path.write_text(scenario_toml(cut.scenario(), folder))
    loaded = parse_scenario(tomllib.loads(path.read_text()), str(path), folder)
    assert loaded.table == cut.table and loaded.table.piles == cut.table.piles and loaded.seed == seed
    state = new_game(loaded.seed, loaded)
    rest = whole[whole.index(cut):]
    for before, action in zip(rest, _applied(rest)):
        assert state.table == before.table and state.locked == before.locked
        state = state.apply(action)
    assert state.table == whole[-1].table and state.winner == whole[-1].winner


def test_options_seats_per_plane_decks_altitude_and_who_starts_tailing():
    state = new_game(1, "furball", seats="planes")
    assert len(state.seats) == 4 and state.seat_sides.count("Allies") == 2
    assert walk(state, randoms(1, 4))[-1].is_terminal()
    decks = new_game(1, "duel", decks="A:M")
    assert decks.table.plane("Albatros").deck.name == "M" and decks.table.plane("Camel").deck.name == "A"
    assert {p.altitude for p in new_game(1, "duel", altitude=3).table.planes} == {3}
    plain = new_game(1, "duel", policy="best")
    swapped = new_game(1, "duel", policy="best", swap_start=True)
    assert plain.table.plane("Camel").pose == swapped.table.plane("Albatros").pose
    first = walk(swapped, randoms(1), until_turn=1)[-1].last
    assert first.tails and first.tails[0].chaser == "Albatros"  # the Albatros now sits on the Camel's tail
    for bad in ({"altitude": 7}, {"decks": "A:B:C"}, {"decks": "Z"}, {"seats": "crowd"}):
        with pytest.raises((InputError, ValueError)):
            new_game(1, "duel", **bad)


def test_bots_choose_legal_plans_from_their_observation_only():
    from furball.scenarios.dogfight.players import PLAYERS

    state = new_game(9, "duel")
    for name in PLAYERS:
        bot = DOGFIGHT.player(name, 9, 0)
        action = bot.choose(state.observation(0))
        assert action in state.legal_actions(), name


@pytest.mark.slow
def test_the_planner_wins_clearly_more_than_half_against_random():
    """Issue #21: planner vs random on the duel, in both seats (30 games each)."""
    first = [r["winner"] for r in play_many(DOGFIGHT, 30, 1, ("planner", "random"))]
    second = [r["winner"] for r in play_many(DOGFIGHT, 30, 2, ("random", "planner"))]
    assert first.count("P1") / 30 > 0.75 and second.count("P2") / 30 > 0.75


def test_cli_play_dogfight_one_game_a_series_and_a_saved_game(cli, tmp_path):
    code, out, err = cli(["play", "dogfight", "duel", "--seed", "4", "--player", "planner,random"])
    assert code == 0, err and "winner:" in out and "Turn 1" in out
    again = cli(["play", "dogfight", "duel", "--seed", "4", "--player", "planner,random"])[1]
    assert again == out
    code, out, err = cli(["play", "dogfight", "duel", "--games", "3", "--player", "random,planner", "--seed", "2"])
    assert code == 0 and "winner:" in out and "95% CI" in out and "P2" in out
    saved = tmp_path / "t1.toml"
    code, out, err = cli(["play", "dogfight", "duel", "--seed", "5", "--player", "random", "--turn-limit", "1",
                          "--save", saved])
    assert code == 0, err
    loaded = load_scenario(saved)
    assert loaded.seed == 5 and loaded.table.turn >= 2 and loaded.table.piles
    code, out, err = cli(["play", "dogfight", saved, "--seed", "5", "--player", "random", "--turn-limit", "3"])
    assert code == 0, err and f"turn {loaded.table.turn}" in out
    for bad, needle in ((["--player", "planner,random,random"], "--player"), (["--altitude", "9"], "altitude"),
                        (["--interactive"], "--interactive"), (["--games", "2", "--save", tmp_path / "x.toml"],
                                                               "--save"), (["nowhere.toml"], "nowhere")):
        code, out, err = cli(["play", "dogfight", "duel", *bad] if bad[0] != "nowhere.toml"
                             else ["play", "dogfight", *bad])
        assert code == 2 and needle in err and err.count("\n") == 1, (bad, err)


def test_cli_sweep_dogfight_over_scenario_options_writes_parquet_and_a_picture(cli, tmp_path):
    pytest.importorskip("pyarrow")
    rows, plot = tmp_path / "runs.parquet", tmp_path / "runs.png"
    code, out, err = cli(["sweep", "dogfight", "--games", "3", "--player", "random", "--workers", "1",
                          "--grid", "swap_start=false,true", "--set", "turn_limit=4", "--out", rows, "--plot", plot])
    assert code == 0, err
    import pyarrow.parquet as pq

    table = pq.read_table(rows)
    assert table.num_rows == 6 and {"winner", "swap_start", "points_P1", "turns"} <= set(table.column_names)
    assert plot.read_bytes()[:4] == b"\x89PNG" and "[1]" in out


def test_results_have_the_same_columns_game_after_game():
    rows = play_many(DOGFIGHT, 4, 3, "random")
    assert len({tuple(r) for r in rows}) == 1 and set(np.unique([r["winner"] for r in rows])) <= {"P1", "P2", DRAW}


@settings(max_examples=8, deadline=None)
@given(st.permutations([0, 1, 2, 3]), st.integers(0, 2000), st.lists(st.sampled_from([0, 1, 2, 3]), max_size=3))
def test_df_m1_any_order_of_locks_and_changes_flies_the_same_turn(order, pick, changes):
    state = new_game(2, "furball", seats="planes")
    final = {seat: state.legal_actions_for(seat)[(pick + 97 * seat) % len(state.legal_actions_for(seat))]
             for seat in order}
    flown = {}
    s = state
    for seat in changes:  # plans locked early, changed (or not) later
        s = s.apply(state.legal_actions_for(seat)[-1 - seat])
        flown[seat] = state.legal_actions_for(seat)[-1 - seat]
    for seat in order:  # the turn flies at the lock that completes it, whoever makes it
        assert s.table.turn == state.table.turn
        s = s.apply(final[seat])
        flown[seat] = final[seat]
        if s.table.turn != state.table.turn:
            break
        assert set(s.awaited_players()) == set(range(4)) - set(flown)
    straight = state
    for seat in range(4):  # the same plans, locked in seat order
        straight = straight.apply(flown[seat])
    assert s.table.turn == state.table.turn + 1 and s.table == straight.table
    assert turn_lines(s.last) == turn_lines(straight.last)
