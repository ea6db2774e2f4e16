"""Issue #35 items 5-7: the room server's limits, so that one client cannot starve the
others: a seat's long calculations (one job per seat; finished jobs do not fill the job
table), room creation (a rate and a cap on open rooms per client, expiry, the owner's
delete) and bots (their own pool, fair between rooms, people first, a timed-out decision
retried). Bounded counts on loopback, no timed assertion beyond generous bounds (the
figures: benchmarks/bench_rooms.py, docs/performance.md)."""
import asyncio
import time

import pytest

from furball.scenarios.web.hub import Busy
from furball.scenarios.web.jobs import Jobs


def _status(exc):
    return 503


async def _answer(progress):
    return "plans"


def test_jobs_finished_ones_do_not_fill_the_table():
    """One seat asking again and again (each answered at once) leaves room for others."""
    async def main():
        jobs = Jobs(most=4)
        for _ in range(50):
            job = jobs.start("room-a", 0, _answer, _status)
            await job.task
        other = jobs.start("room-b", 1, _answer, _status)
        await other.task
        return other.result, len(jobs._jobs)
    assert asyncio.run(main()) == ("plans", 2)  # one kept job per seat


def test_jobs_one_per_seat_and_the_cap_counts_running_jobs():
    async def main():
        gate = asyncio.Event()

        async def slow(progress):
            await gate.wait()
            return "plans"
        jobs = Jobs(most=2)
        first = jobs.start("room-a", 0, slow, _status)
        again = jobs.start("room-a", 0, slow, _status)
        second = jobs.start("room-a", 1, slow, _status)
        with pytest.raises(Busy):
            jobs.start("room-b", 0, slow, _status)
        gate.set()
        await asyncio.gather(first.task, second.task)
        third = jobs.start("room-b", 0, _answer, _status)  # the finished ones free their places
        await third.task
        replaced = jobs.start("room-a", 0, _answer, _status)  # a finished job is replaced
        await replaced.task
        return again is first, replaced is not first, third.result, jobs.running
    assert asyncio.run(main()) == (True, True, "plans", 0)


def test_jobs_finished_ones_are_bounded():
    async def main():
        jobs = Jobs(most=4, most_kept=10)
        for seat in range(30):
            await jobs.start("room-a", seat, _answer, _status).task
        jobs.start("room-b", 0, _answer, _status)
        return len(jobs._jobs)
    assert asyncio.run(main()) <= 11


# ------------------------------------------------------------------------------ creation, expiry
def check_store_ends_rooms(store):
    """The store's side of item 5 (run on SQLite here, on PostgreSQL in test_rooms_postgres):
    open rooms counted per creator, finished games marked, expiry of finished and idle
    rooms, the owner's delete, and an append to a deleted room refused."""
    import dataclasses

    from furball.scenarios.web.rooms import Room, make_spec
    from furball.scenarios.web.store import RoomGone

    def made(creator, event_at=None, finished=None):
        spec = dataclasses.replace(make_spec({"game": "white-christmas", "seats": ["random", "random"], "seed": 4}),
                                   created=1000.0)
        store.create(spec, "o" * 64, ("a" * 64, "b" * 64), creator)
        room = Room.new(spec)
        if event_at is not None:
            room, event = room.bot_event(now=event_at)
            assert store.append(spec.id, event)
        if finished is not None:
            store.finish(spec.id, finished)
            store.finish(spec.id, finished + 99.0)  # the first time is kept
        return spec.id, room

    (idle, _), (busy, busy_room), (old, _), (recent, _) = (
        made("10.0.0.1"), made("10.0.0.1", event_at=5000.0), made("10.0.0.2", 2000.0, 2000.0),
        made(None, 2000.0, 9000.0))
    assert (store.open_rooms("10.0.0.1"), store.open_rooms("10.0.0.2"), store.open_rooms()) == (2, 0, 2)
    assert sorted(store.expire(finished_before=5000.0, idle_before=3000.0)) == sorted([idle, old])
    assert store.load(idle) is None and store.load(old) is None
    assert store.load(busy) is not None and store.load(recent) is not None
    assert store.expire(finished_before=5000.0, idle_before=3000.0) == []
    assert store.delete(busy) and not store.delete(busy) and store.load(busy) is None
    _, event = busy_room.bot_event(now=6000.0)
    with pytest.raises(RoomGone):
        store.append(busy, event)
    made(None)
    assert len(store.expire(finished_before=9999.0, idle_before=9999.0, most=1)) == 1  # a batch at a time
    assert len(store.expire(finished_before=9999.0, idle_before=9999.0)) == 1
    assert store.open_rooms() == 0 and store.load(recent) is None


def test_store_ends_rooms_sqlite(tmp_path):
    from furball.scenarios.web.store import SQLiteStore

    check_store_ends_rooms(SQLiteStore(tmp_path / "rooms.sqlite3"))


def test_store_upgrades_version_2_in_place(tmp_path):
    """A schema-2 database gains ``creator`` and ``finished``; its rooms stay."""
    import sqlite3

    from furball.scenarios.web.rooms import make_spec
    from furball.scenarios.web.store import SCHEMA_VERSION, SQLiteStore

    path = tmp_path / "rooms.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE furball_schema (version INTEGER NOT NULL); INSERT INTO furball_schema VALUES (2);
        CREATE TABLE furball_rooms (id TEXT PRIMARY KEY, game TEXT NOT NULL, title TEXT NOT NULL,
            options TEXT NOT NULL, seed BIGINT NOT NULL, controllers TEXT NOT NULL, owner_hash TEXT NOT NULL,
            seat_hashes TEXT NOT NULL, created DOUBLE PRECISION NOT NULL);
        CREATE TABLE furball_events (room TEXT NOT NULL REFERENCES furball_rooms (id), n INTEGER NOT NULL,
            kind TEXT NOT NULL, seat INTEGER NOT NULL, action INTEGER, text TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL, clock INTEGER, PRIMARY KEY (room, n));
        INSERT INTO furball_rooms VALUES ('oldroom123', 'white-christmas', 't', '{}', 5, '[null, null]', 'o', '[]', 1.0);
    """)
    db.commit()
    db.close()
    store = SQLiteStore(path)
    assert store.load("oldroom123").spec.seed == 5 and store.open_rooms() == 1
    spec = make_spec({"game": "white-christmas", "seed": 1})
    store.create(spec, "o" * 64, ("a" * 64, "b" * 64), "10.0.0.1")
    assert store.open_rooms("10.0.0.1") == 1
    assert sqlite3.connect(path).execute("SELECT version FROM furball_schema").fetchone() == (SCHEMA_VERSION,)


def _client(**limits):
    from starlette.testclient import TestClient

    from furball.scenarios.web import LOOPBACK_HOSTS, create_app
    from furball.scenarios.web.app import ServerOptions
    from furball.scenarios.web.limits import RoomLimits

    options = ServerOptions(bot_delay_s=0.0, limits=RoomLimits(**({"create_burst": 1000.0} | limits)))
    app = create_app(allowed_hosts=LOOPBACK_HOSTS + ("testserver",), options=options)
    return TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False)


def _one_line(r, status):
    assert r.status_code == status, (r.status_code, r.text[:300])
    assert "\n" not in r.json()["error"]
    return r.json()["error"]


WC = {"game": "white-christmas", "seed": 5}


def test_room_creation_is_rate_limited_per_client():
    with _client(create_per_min=1.0, create_burst=3.0) as c:
        made = [c.post("/api/rooms", json=WC).status_code for _ in range(3)]
        assert made == [201] * 3
        assert "a minute" in _one_line(c.post("/api/rooms", json=WC), 429)
        assert c.get("/api/games").status_code == 200  # the rest of the server answers


def test_open_rooms_per_client_are_capped_and_the_owner_frees_one_by_deleting_it():
    with _client(open_per_client=2) as c:
        first, second = (c.post("/api/rooms", json=WC).json() for _ in range(2))
        assert "unfinished rooms" in _one_line(c.post("/api/rooms", json=WC), 429)
        room = first["room"]
        seat = {"Authorization": f"Bearer {first['seats'][0]['token']}"}
        owner = {"Authorization": f"Bearer {first['owner']}"}
        _one_line(c.delete(f"/api/rooms/{room}", headers=seat), 403)
        _one_line(c.delete(f"/api/rooms/{room}"), 403)
        with c.websocket_connect(f"/api/rooms/{room}/ws") as ws:
            ws.send_json({"type": "hello", "token": first["seats"][1]["token"]})
            assert ws.receive_json()["type"] == "update"
            assert c.delete(f"/api/rooms/{room}", headers=owner).json() == {"deleted": room}
            told = ws.receive_json()
            assert (told["type"], told["status"]) == ("error", 404)
        _one_line(c.get(f"/api/rooms/{room}"), 404)
        _one_line(c.delete(f"/api/rooms/{room}", headers=owner), 404)
        assert c.post("/api/rooms", json=WC).status_code == 201
        assert c.get(f"/api/rooms/{second['room']}").status_code == 200


def test_a_finished_game_frees_its_place_and_its_record_is_kept():
    with _client(open_per_client=1) as c:
        done = c.post("/api/rooms", json=WC | {"options": {"players": 2}, "seats": ["random", "random"]}).json()
        for _ in range(200):  # the bots play it to the end (a bounded wait)
            if c.get(f"/api/rooms/{done['room']}").json()["terminal"]:
                break
            time.sleep(0.05)
        for _ in range(100):  # the store hears of it
            if c.app.state.store.open_rooms() == 0:
                break
            time.sleep(0.02)
        assert c.post("/api/rooms", json=WC).status_code == 201
        assert c.get(f"/api/rooms/{done['room']}").json()["terminal"] is True


def test_the_hub_expires_idle_rooms_and_forgets_them():
    with _client() as c:
        made = c.post("/api/rooms", json=WC).json()
        hub = c.app.state.hub
        expired = c.portal.call(hub.expire, time.time() + hub.limits.idle_kept_s + 60)
        assert expired == [made["room"]]
        _one_line(c.get(f"/api/rooms/{made['room']}"), 404)


def test_client_key_counts_an_ipv6_network_as_one_client():
    from furball.scenarios.web.limits import client_key

    assert client_key("127.0.0.1") == "127.0.0.1"
    assert client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert client_key("::ffff:10.0.0.7") == "10.0.0.7"
    assert client_key(None) == "?" and client_key("testclient") == "testclient"


# ------------------------------------------------------------------------------ bots
def _hub(**kw):
    from furball.scenarios.web.hub import Hub
    from furball.scenarios.web.store import SQLiteStore

    return Hub(SQLiteStore(":memory:"), **({"bot_delay_s": 0.0} | kw))


async def _until(check, timeout_s=20.0):
    """Wait (bounded) until ``check()`` is true; its last value."""
    deadline = time.monotonic() + timeout_s
    while not check() and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    return check()


def test_a_timed_out_bot_decision_is_made_by_the_quick_bot_not_forgotten(monkeypatch, caplog):
    """The first decision takes longer than the limit: the seat's quick bot decides it
    and the game goes on (before: logged, then never scheduled again)."""
    import furball.scenarios.web.rooms as rooms

    real, calls = rooms.decide, []

    def slow_once(bot, state, seat):
        calls.append(seat)
        if len(calls) == 1:
            time.sleep(1.5)
        return real(bot, state, seat)
    monkeypatch.setattr(rooms, "decide", slow_once)

    async def main():
        hub = _hub(time_limit_s=0.5)
        made = await hub.create({"game": "white-christmas", "seed": 2, "seats": ["mcts", "random"]})
        live = await hub.live(made["room"])
        moved = await _until(lambda: live.room.version >= 3)
        await hub.close()
        return moved
    assert asyncio.run(main())
    assert "the heuristic bot decides instead" in caplog.text


def test_a_failed_bot_decision_is_tried_again(monkeypatch):
    import furball.scenarios.web.rooms as rooms

    real, calls = rooms.decide, []

    def failing_twice(bot, state, seat):
        calls.append(seat)
        if len(calls) <= 2:
            raise RuntimeError("a worker died")
        return real(bot, state, seat)
    monkeypatch.setattr(rooms, "decide", failing_twice)

    async def main():
        hub = _hub(bot_retry_s=0.05)
        made = await hub.create({"game": "white-christmas", "seed": 2, "seats": ["random", "random"]})
        live = await hub.live(made["room"])
        moved = await _until(lambda: live.room.version >= 2)
        await hub.close()
        return moved
    assert asyncio.run(main()) and len(calls) >= 4


def test_bots_take_turns_between_rooms(monkeypatch):
    """One bot lane, three rooms of bots: their decisions come round robin, so no room
    waits for another's run of decisions."""
    import furball.scenarios.web.hub as hub_module

    real, order = hub_module.bot_choice, []

    def recorded(call):
        order.append(call.game)
        time.sleep(0.01)
        return real(call)
    monkeypatch.setattr(hub_module, "bot_choice", recorded)

    async def main():
        hub = _hub(bot_lanes=1, bot_delay_s=0.05)
        for game, seats in (("white-christmas", ["random"] * 2), ("canuck", ["random"]),
                            ("yorktown", ["random"])):
            await hub.create({"game": game, "seed": 3, "seats": seats})
        await _until(lambda: len(order) >= 30)
        await hub.close()
    asyncio.run(main())
    window = order[3:30]
    counts = sorted(window.count(g) for g in ("white-christmas", "canuck", "yorktown"))
    assert counts[-1] - counts[0] <= 2, order


def test_people_before_bots_in_the_engine_lane():
    from furball.scenarios.web.hub import _Lane

    async def main():
        lane, order = _Lane(1), []

        async def call(name, person):
            async with lane.slot(person):
                order.append(name)
                await asyncio.sleep(0.01)
        first = asyncio.ensure_future(call("bot-1", False))
        await asyncio.sleep(0)
        waiting = [asyncio.ensure_future(call("bot-2", False)), asyncio.ensure_future(call("person", True))]
        await asyncio.gather(first, *waiting)
        return order, lane.free
    assert asyncio.run(main()) == (["bot-1", "person", "bot-2"], 1)


@pytest.mark.slow
def test_a_bot_flood_from_one_client_leaves_another_rooms_person_acting():
    """Issue #35 item 7: three rooms of `mcts` bots (seconds a decision) from one client;
    a person in another room still creates a room and acts at once (bots decide in their
    own worker processes), and the bots play on. Bounded: 6 actions; generous bound
    2.5 s each (measured: about 10 ms, docs/performance.md). Before: a new room took 12 s
    and every bot stopped for good after its first decision passed 10 s."""
    from starlette.testclient import TestClient

    from furball.scenarios.web import LOOPBACK_HOSTS, create_app
    from furball.scenarios.web.app import ServerOptions

    app = create_app(allowed_hosts=LOOPBACK_HOSTS + ("testserver",),
                     options=ServerOptions(bot_delay_s=0.0, workers=0, bot_workers=2))
    with TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False) as c:
        hub = app.state.hub
        flood = [c.post("/api/rooms", json={"game": "white-christmas", "seed": k, "options": {"players": 4},
                                            "seats": ["mcts"] * 4}).json()["room"] for k in range(3)]
        start = time.perf_counter()
        mine = c.post("/api/rooms", json={"game": "white-christmas", "seed": 8, "options": {"players": 2}}).json()
        waits = [time.perf_counter() - start]  # creating a room is not held up either
        tokens = [s["token"] for s in mine["seats"]]
        deciding = lambda: any(hub._loaded[r].deciding for r in flood)  # noqa: E731
        for _ in range(6):
            deadline = time.monotonic() + 30
            while not deciding() and time.monotonic() < deadline:
                time.sleep(0.05)
            assert deciding()  # the flood is on
            live = c.portal.call(hub.live, mine["room"])
            seat, version = live.room.to_act, live.room.version
            start = time.perf_counter()
            r = c.post(f"/api/rooms/{mine['room']}/act", json={"version": version, "action": 0},
                       headers={"Authorization": f"Bearer {tokens[seat]}"})
            waits.append(time.perf_counter() - start)
            assert r.status_code == 200, r.text
        assert max(waits) < 2.5, waits
        deadline = time.monotonic() + 60  # and the bots do play on (before: stopped after a 10 s decision)
        while sum(hub._loaded[r].room.version for r in flood) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert sum(hub._loaded[r].room.version for r in flood) >= 3


def test_creation_limits_count_each_client_apart_and_the_server_caps_open_rooms():
    from furball.scenarios.web.hub import TooMany
    from furball.scenarios.web.limits import RoomLimits

    async def main():
        hub = _hub(limits=RoomLimits(create_burst=2.0, open_total=4))
        for _ in range(2):
            await hub.create(WC, "10.0.0.1")
        with pytest.raises(TooMany, match="a minute"):
            await hub.create(WC, "10.0.0.1")
        await hub.create(WC, "10.0.0.2")  # another client has its own share
        await hub.create(WC)  # not counted for anyone (a script of the server's own)
        with pytest.raises(Busy, match="open rooms"):
            await hub.create(WC, "10.0.0.3")
        await hub.close()
    asyncio.run(main())
