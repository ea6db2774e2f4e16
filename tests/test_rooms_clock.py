"""Issue #23 item 3: Yorktown in real time. In a room the timer runs in real time while
people think (YT.S4: the clock never stops; the simulated time model stays for bots and
Monte Carlo); the owner may pause it where the room allows; every event stores the
clock's reading, so a restarted server rebuilds the game exactly; time running out loses
the game (YT.E2) whether or not anyone acts."""
import dataclasses
import sqlite3
import time

import pytest
from starlette.testclient import TestClient

from furball.errors import IllegalAction
from furball.scenarios.web import LOOPBACK_HOSTS, create_app
from furball.scenarios.web.app import ServerOptions
from furball.scenarios.web.rooms import EventKind, Room, games_json, make_spec
from furball.scenarios.web.store import SCHEMA_VERSION, SQLiteStore
from furball.scenarios.yorktown.actions import EndReason
from furball.scenarios.yorktown.tables import default_time

T0 = 1_800_000_000.0


def _room(clock="real", pausing=False, players=2, seed=3):
    spec = make_spec({"game": "yorktown", "options": {"players": players, "clock": clock, "pausing": pausing},
                      "seed": seed, "seats": [None] * players}, now=T0)
    return Room.new(spec)


def _first(room, now):
    """The seat to act takes its first legal action at Unix time ``now``."""
    return room.act(room.to_act, 0, room.view_version(room.to_act), now=now)


def test_YT_S4_the_clock_runs_in_real_time_from_the_first_action_and_every_event_keeps_its_reading():
    room = _room()
    assert room.real_time and room.state.setup.time == default_time().real_time()
    assert room.state.setup.limit == default_time().limit("normal", 2, 0)  # the same timer: 32 minutes
    assert room.clock_at(T0 + 500) == 0 and room.deadline() is None  # nobody has acted: not started
    room, e1 = _first(room, T0 + 100)
    assert e1.clock == 0 and room.clock_since == T0 + 100
    assert room.clock_at(T0 + 100 + 75.9) == 75  # whole seconds people took
    room, e2 = _first(room, T0 + 100 + 75)
    room, e3 = _first(room, T0 + 100 + 75 + 12)
    assert (e2.clock, e3.clock) == (75, 87) and room.state.clock == 87
    assert room.view(0)["clock"] == {"mode": "real", "reading_s": 87, "limit_s": room.state.setup.limit,
                                     "since": T0 + 187, "running": True, "paused": False, "pausing": False}
    again = Room.replay(room.spec, room.events)  # a restarted server: the readings, not the wall clock
    assert again.state == room.state and again.view(1) == room.view(1)


def test_YT_E2_time_running_out_loses_the_game_even_while_people_think():
    room, _ = _first(_room(), T0)
    limit = room.state.setup.limit
    assert room.deadline() == T0 + limit
    with pytest.raises(IllegalAction, match="time has not run out"):
        room.clock_event("time", now=T0 + limit - 1)
    with pytest.raises(IllegalAction, match="time is up"):  # an action after the timer rang
        _first(room, T0 + limit + 3)
    over, event = room.clock_event("time", now=T0 + limit + 3)
    assert event.kind == EventKind.CLOCK and event.clock == limit
    assert over.terminal and over.state.over == EndReason.TIME and over.state.clock == limit
    assert any("time is up (YT.E2)" in line for entry in over.log_for(0) for line in entry.lines)
    assert Room.replay(over.spec, over.events).state == over.state


def test_the_owner_pauses_the_clock_only_where_the_room_allows_it():
    room, _ = _first(_room(), T0)
    with pytest.raises(IllegalAction, match="pausing is off"):
        room.clock_event("pause", now=T0 + 10)
    room, _ = _first(_room(pausing=True), T0)
    room, pause = room.clock_event("pause", now=T0 + 40)
    assert pause.clock == 40 and room.paused and room.clock_at(T0 + 4000) == 40 and room.deadline() is None
    with pytest.raises(IllegalAction, match="paused"):
        _first(room, T0 + 50)
    room, resume = room.clock_event("resume", now=T0 + 1000)
    assert resume.clock == 40 and room.clock_at(T0 + 1010) == 50  # the pause did not count
    room, _ = _first(room, T0 + 1020)
    assert room.state.clock == 60
    assert Room.replay(room.spec, room.events).state == room.state


def test_the_simulated_clock_stays_for_rooms_that_ask_for_it_and_for_games_without_a_timer():
    room, event = _first(_room(clock="simulated"), T0)
    assert not room.real_time and event.clock is None and "clock" not in room.view(0)
    assert room.state.setup.time == default_time()
    yorktown = next(g for g in games_json() if g["name"] == "yorktown")
    assert {"clock", "pausing"} <= {o["name"] for o in yorktown["options"]}
    wc = Room.new(make_spec({"game": "white-christmas", "seed": 1}))
    assert not wc.real_time and "clock" not in wc.view(0)


def test_clock_readings_are_stored_and_a_schema_1_database_is_upgraded(tmp_path):
    path = tmp_path / "rooms.sqlite3"
    db = sqlite3.connect(path)  # a database written by the furball before this one
    db.executescript("""
        CREATE TABLE furball_schema (version INTEGER NOT NULL);
        INSERT INTO furball_schema VALUES (1);
        CREATE TABLE furball_rooms (id TEXT PRIMARY KEY, game TEXT NOT NULL, title TEXT NOT NULL,
            options TEXT NOT NULL, seed BIGINT NOT NULL, controllers TEXT NOT NULL, owner_hash TEXT NOT NULL,
            seat_hashes TEXT NOT NULL, created DOUBLE PRECISION NOT NULL);
        CREATE TABLE furball_events (room TEXT NOT NULL REFERENCES furball_rooms (id), n INTEGER NOT NULL,
            kind TEXT NOT NULL, seat INTEGER NOT NULL, action INTEGER, text TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL, PRIMARY KEY (room, n));
    """)
    db.close()
    store = SQLiteStore(path)
    assert sqlite3.connect(path).execute("SELECT version FROM furball_schema").fetchall() == [(SCHEMA_VERSION,)]
    room = _room()
    store.create(room.spec, "o", ("a", "b"))
    for k in range(3):
        room, event = _first(room, T0 + 10 * k)
        assert store.append(room.spec.id, event)
    stored = store.load(room.spec.id)
    assert [e.clock for e in stored.events] == [0, 10, 20]
    assert Room.replay(stored.spec, stored.events).state == room.state


def test_the_server_rings_the_timer_and_the_owner_pauses_over_http():
    app = create_app(allowed_hosts=LOOPBACK_HOSTS + ("testserver",), options=ServerOptions(bot_delay_s=0.0))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        made = client.post("/api/rooms", json={"game": "yorktown", "options": {"players": 1, "pausing": True},
                                               "seats": [None]}).json()
        room, p1, owner = made["room"], made["seats"][0]["token"], made["owner"]
        ok = client.post(f"/api/rooms/{room}/act", json={"version": 0, "action": 0},
                         headers={"Authorization": f"Bearer {p1}"})
        assert ok.status_code == 200
        assert client.post(f"/api/rooms/{room}/clock", json={"paused": True},
                           headers={"Authorization": f"Bearer {p1}"}).status_code == 403  # the owner only
        r = client.post(f"/api/rooms/{room}/clock", json={"paused": True}, headers={"Authorization": f"Bearer {owner}"})
        assert r.status_code == 200
        r = client.post(f"/api/rooms/{room}/act", json={"version": 2, "action": 0},
                        headers={"Authorization": f"Bearer {p1}"})
        assert r.status_code == 409 and "paused" in r.json()["error"]
        client.post(f"/api/rooms/{room}/clock", json={"paused": False}, headers={"Authorization": f"Bearer {owner}"})
        hub = app.state.hub
        live = client.portal.call(hub.live, room)
        # thirty minutes of thinking, in an instant: the reading was taken long ago
        late = dataclasses.replace(live.room, clock_since=time.time() - live.room.state.setup.limit - 5)
        live.room = late
        client.portal.call(lambda: _ring(hub, live))
        for _ in range(100):
            if client.get(f"/api/rooms/{room}").json()["terminal"]:
                break
            time.sleep(0.05)
        stored = app.state.store.load(room)
        assert stored.events[-1].kind == EventKind.CLOCK and stored.events[-1].text == "time"
        assert client.get(f"/api/rooms/{room}").json()["terminal"]


async def _ring(hub, live):
    hub._schedule_timer(live)
