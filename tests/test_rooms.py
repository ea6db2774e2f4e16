"""Issue #22: game rooms as Python values (scenarios/web/rooms.py) and their store
(scenarios/web/store.py): a room is a game, options, a seed, who plays each seat and the
accepted events; its state is rebuilt from the seed and the actions; illegal actions
change nothing; credentials are hashed and compared in constant time."""
import json
import sqlite3

import pytest

import furball.scenarios.web.rooms as rooms_module
from furball.errors import IllegalAction, InputError
from furball.scenarios.web.rooms import (
    Event,
    EventKind,
    Room,
    RoomBroken,
    StaleAction,
    available_games,
    bot_seed,
    games_json,
    make_spec,
    new_token,
    token_hash,
    token_matches,
)
from furball.scenarios.web.store import SCHEMA_VERSION, SQLiteStore, open_store


def _spec(game="white-christmas", seats=None, seed=11, **options):
    return make_spec({"game": game, "options": options, "seed": seed, "seats": seats})


def _play(room, steps=None):
    """Every seat's first legal action (bots decide their own), ``steps`` events or to the end."""
    n = 0
    while not room.terminal and (steps is None or n < steps):
        if room.bot_to_act():
            room, _ = room.bot_event(now=0.0)
        else:
            room, _ = room.act(room.to_act, 0, room.view_version(room.to_act), now=0.0)
        n += 1
    return room


def test_games_listed_with_room_options_only():
    names = [g["name"] for g in games_json()]
    assert names == [g.name for g in available_games()]
    assert {"white-christmas", "yorktown", "canuck"} <= set(names)
    wc = next(g for g in games_json() if g["name"] == "white-christmas")
    assert [o["name"] for o in wc["options"]] == ["players", "solo"]  # 'data' names a folder: not in rooms
    assert wc["bots"] == ["heuristic", "random", "mcts", "ismcts"]  # the search bots of issue #24 too


@pytest.mark.parametrize("data, message", [
    ({"game": "chess"}, "field 'game'"),
    ({"game": "white-christmas", "options": {"data": "/etc"}}, "no room option 'data'"),
    ({"game": "white-christmas", "options": {"players": 7}}, "option players"),
    ({"game": "white-christmas", "options": {"players": 3, "solo": True}}, "solo"),
    ({"game": "white-christmas", "seats": [None]}, "expected a list of 2"),
    ({"game": "white-christmas", "seats": [None, "genius"]}, "seat 2"),
    ({"game": "white-christmas", "seed": -1}, "field 'seed'"),
    ({"game": "white-christmas", "seed": 2**60}, "field 'seed'"),
    ({"game": "white-christmas", "title": "x" * 81}, "field 'title'"),
    ({"game": "white-christmas", "colour": "red"}, "unknown field 'colour'"),
    ([], "JSON object"),
])
def test_bad_room_requests_are_one_line(data, message):
    with pytest.raises(InputError) as err:
        make_spec(data)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_seed_is_random_by_default_and_within_javascript_integers():
    seeds = {make_spec({"game": "canuck"}).seed for _ in range(5)}
    assert len(seeds) > 1 and all(0 <= s <= 2**53 - 1 for s in seeds)


def test_state_is_rebuilt_from_seed_and_actions():
    spec = _spec(players=3, seats=[None, "heuristic", "random"])
    room = _play(Room.new(spec))
    again = Room.replay(spec, room.events)
    assert again.state.result() == room.state.result() and again.version == room.version
    assert again.view(0) == room.view(0)


def test_bots_decide_the_same_after_a_restart():
    """A fresh bot per decision, seeded from the room's seed and the event number."""
    spec = _spec(seats=["heuristic", "heuristic"])
    straight = _play(Room.new(spec))
    half = _play(Room.new(spec), steps=40)
    resumed = _play(Room.replay(spec, half.events))
    assert [e.text for e in resumed.events] == [e.text for e in straight.events]
    assert bot_seed(1, 2, 0) != bot_seed(1, 3, 0)


def test_illegal_actions_change_nothing():
    room = Room.new(_spec())
    seat = room.to_act
    other = 1 - seat
    before = room.view(seat)
    for action, version, who, message in [
            (0, room.version, other, "turn"), (-1, room.version, seat, "field 'action'"),
            (10**6, room.version, seat, "field 'action'"), ("0", room.version, seat, "field 'action'"),
            (0, "0", seat, "field 'version'")]:
        with pytest.raises(IllegalAction, match=message):
            room.act(who, action, version)
    with pytest.raises(StaleAction, match="moved on"):
        room.act(seat, 0, room.version + 1)
    assert room.view(seat) == before and room.version == 0


def test_the_owner_hands_a_seat_to_a_bot_and_takes_it_back():
    room = Room.new(_spec())
    seat = room.to_act
    room, event = room.control(seat, "heuristic")
    assert event.kind == EventKind.CONTROL and room.bot_to_act() == "heuristic"
    with pytest.raises(IllegalAction, match="played by the heuristic bot"):
        room.act(seat, 0, room.version)
    assert "legal" not in room.view(seat)
    room, _ = room.bot_event()
    with pytest.raises(IllegalAction, match="already played by the heuristic bot"):
        room.control(seat, "heuristic")
    room, _ = room.control(seat, None)
    assert room.controllers[seat] is None
    assert any("played by its person again" in line for entry in room.log_for(None) for line in entry.lines)
    with pytest.raises(InputError, match="field 'bot'"):
        room.control(seat, "genius")
    again = Room.replay(room.spec, room.events)
    assert again.controllers == room.controllers and again.version == room.version


def test_a_stored_action_the_engine_no_longer_makes_is_refused():
    spec = _spec()
    room = _play(Room.new(spec), steps=3)
    events = list(room.events)
    events[1] = Event(events[1].n, EventKind.ACTION, events[1].seat, events[1].action, "something else", 0.0)
    with pytest.raises(RoomBroken, match="another furball"):
        Room.replay(spec, events)
    with pytest.raises(RoomBroken, match="expected event 1"):
        Room.replay(spec, events[1:])


@pytest.mark.parametrize("game, options", [("white-christmas", {"players": 2}), ("canuck", {}),
                                           ("yorktown", {"players": 2}), ("dogfight", {"scenario": "duel"})])
def test_the_seed_stays_hidden_until_the_end(game, options):
    """The seed decides every hidden card: no seat and no spectator reads it before the
    end. The engines never write it in their event lines (issue #37: the room no longer
    hides it with a regular expression), and every view carries it once the game is over."""
    spec = make_spec({"game": game, "options": options, "seed": 987654321012345})
    room = Room.new(spec)
    assert "987654321012345" not in json.dumps([room.view(s) for s in (None, 0)])
    for viewer in (0, None):
        assert "987654321012345" not in json.dumps([e.as_json() for e in room.log_for(viewer)])
    assert not any("seed" in line for line in room.state.events if "from the seed" not in line)
    if game != "dogfight":
        room = _play(room)
        assert room.view(None)["seed"] == 987654321012345


def test_views_are_json_and_spectators_get_the_public_half():
    room = _play(Room.new(_spec(players=3)), steps=30)
    for seat in (0, 1, 2, None):
        v = room.view(seat)
        json.dumps(v, allow_nan=False)
        assert v["view"]["public"] == room.view(0)["view"]["public"]
    assert room.view(None)["view"]["private"] is None and "text" not in room.view(None)
    assert room.view(room.to_act)["legal"] and "legal" not in room.view((room.to_act + 1) % 3)


def test_another_seats_action_text_stays_with_that_seat():
    room = _play(Room.new(_spec()), steps=20)
    for seat in (0, 1):
        for line in room.log_for(seat):
            assert line.action is None or line.seat == seat
    assert all(line.action is None for line in room.log_for(None))


def test_tokens_are_hashed_and_compared_in_constant_time():
    token = new_token()
    assert len(token) >= 32 and token_hash(token) != token
    assert token_matches(token, token_hash(token))
    assert not token_matches(token + "x", token_hash(token))
    assert not token_matches(None, token_hash(token)) and not token_matches(token, "")


# ------------------------------------------------------------------------------ the store
def test_sqlite_store_appends_and_rebuilds(tmp_path):
    store = SQLiteStore(tmp_path / "rooms.sqlite3")
    spec = _spec(seats=["random", "random"])
    store.create(spec, "o" * 64, ("a" * 64, "b" * 64))
    room = Room.new(spec)
    for _ in range(10):
        room, event = room.bot_event()
        assert store.append(spec.id, event)
    assert not store.append(spec.id, event)  # the event number is taken: another writer came first
    store.close()
    stored = SQLiteStore(tmp_path / "rooms.sqlite3").load(spec.id)
    assert stored.spec == spec and stored.seat_hashes == ("a" * 64, "b" * 64)
    assert Room.replay(stored.spec, stored.events).view(0) == room.view(0)


def test_a_newer_schema_is_refused_in_one_line(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    SQLiteStore(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE furball_schema SET version = ?", (SCHEMA_VERSION + 1,))
    db.commit()
    db.close()
    with pytest.raises(InputError, match="newer furball") as err:
        SQLiteStore(path)
    assert "\n" not in str(err.value)


def test_bad_db_arguments(tmp_path):
    with pytest.raises(InputError, match="postgresql"):
        open_store("mysql://x")
    (tmp_path / "file").write_text("not a database")
    with pytest.raises(InputError, match="cannot"):
        open_store(str(tmp_path / "file"))
    assert open_store(str(tmp_path / "sub" / "rooms.sqlite3")).name == "sqlite"


def test_room_model_is_usable_without_starlette():
    """Issue #37 item 6: ``furball.scenarios.web`` imports lazily; the room model (rooms,
    store, hub) plays a room with Starlette unimportable."""
    import subprocess
    import sys

    code = """
import asyncio, sys
sys.modules["starlette"] = None  # any import of Starlette now fails
import furball.scenarios.web as web
from furball.scenarios.web.hub import Hub
from furball.scenarios.web.store import SQLiteStore

async def main():
    hub = Hub(SQLiteStore(":memory:"), bot_delay_s=0.0)
    made = await hub.create({"game": "white-christmas", "seed": 3})
    live = await hub.live(made["room"])
    version = await hub.act(made["room"], made["seats"][0]["token"], live.room.version, 0)
    await hub.close()
    return version

print(asyncio.run(main()), "create_app" in vars(web), sorted(m for m, mod in sys.modules.items() if m.startswith("starlette") and mod))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["1", "False", "[]"]


def test_CN_P1_canuck_game_over_in_a_room_counts_turns_not_options():
    from furball.scenarios.engine import decide
    from furball.scenarios.web.views.canuck import ending

    room = Room.new(make_spec({"game": "canuck", "seed": 0, "seats": ["random"]}))
    assert room.view(0)["view"]["public"]["ending"] is None
    state, bot = room.state, room.game.player("random", 0, 0)
    while not state.is_terminal():
        state = state.apply(decide(bot, state, state.current_player()))
    words = ending(state)
    assert words.startswith(f"Game over after {state.options} turns") and " options:" not in words
    assert "CN.E" in words and f"= {state.score().total}:" in words


def test_WC_F4_the_event_cap_counts_each_seat_apart(monkeypatch):
    """A refusal at the room's cap depends only on what the refused seat sees: another
    seat's secret actions (here a dogfight plan locked and changed again, DF.M1) never
    bring a seat nearer to it."""
    monkeypatch.setattr(rooms_module, "MAX_EVENTS", 2)
    room = Room.new(_spec("dogfight", seed=3))
    assert set(room.acting) == {0, 1}
    for _ in range(2):                                       # seat 1 locks, then changes its plan
        room, _ = room.act(1, 0, room.view_version(1), now=0.0)
    with pytest.raises(IllegalAction, match="most a seat may"):
        room.act(1, 0, room.view_version(1), now=0.0)
    room, _ = room.act(0, 0, room.view_version(0), now=0.0)  # seat 0 is not refused
    assert room.version == 3
