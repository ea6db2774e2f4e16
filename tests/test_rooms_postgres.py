"""Issue #22: rooms in PostgreSQL shared by several `furball serve` processes: a seat
connected to one process sees at once an action taken through another (LISTEN/NOTIFY),
two processes racing for the same event never both win, and a newer schema is refused in
one line. Runs a private PostgreSQL server from Debian's package (tests/pg.py); skipped,
with the reason, where none can start."""
import contextlib
import json
import time

import httpx2 as httpx
import pytest
from browser import serve_process
from pg import postgres_missing, running_postgres
from websockets.sync.client import connect

from furball.errors import InputError
from furball.scenarios.web.rooms import Room, make_spec
from furball.scenarios.web.store import SCHEMA_VERSION, PostgresStore

pytestmark = [pytest.mark.db, pytest.mark.slow,
              pytest.mark.skipif(postgres_missing() is not None, reason=f"PostgreSQL tests: {postgres_missing()}")]


@pytest.fixture(scope="module")
def dsn():
    with running_postgres() as url:
        yield url


@pytest.fixture
def two_servers(dsn, tmp_path):
    procs = [serve_process(dsn, tmp_path / "data") for _ in range(2)]
    yield [url for _, url in procs]
    for proc, _ in procs:
        proc.terminate()
        proc.wait(10)


def _updates(ws, until, timeout_s=10.0):
    deadline = time.monotonic() + timeout_s
    while True:
        m = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if m["type"] == "update" and until(m):
            return m


def test_an_action_through_one_server_reaches_a_seat_on_another_at_once(two_servers):
    a, b = two_servers
    made = httpx.post(f"{a}/api/rooms", json={"game": "white-christmas", "seed": 3}).json()
    rid, (p1, p2) = made["room"], [s["token"] for s in made["seats"]]
    with connect(f"{a.replace('http', 'ws')}/api/rooms/{rid}/ws") as ws2:
        ws2.send(json.dumps({"type": "hello", "token": p2}))
        first = _updates(ws2, lambda m: True)
        assert first["view"]["to_act"] == 0
        # P1 plays through the other server
        with connect(f"{b.replace('http', 'ws')}/api/rooms/{rid}/ws") as ws1:
            ws1.send(json.dumps({"type": "hello", "token": p1}))
            v1 = _updates(ws1, lambda m: "legal" in m["view"])["view"]
            start = time.monotonic()
            r = httpx.post(f"{b}/api/rooms/{rid}/act", json={"version": v1["version"], "action": 0},
                           headers={"Authorization": f"Bearer {p1}"})
            assert r.status_code == 200, r.text
            seen = _updates(ws2, lambda m: m["log"], timeout_s=5)
            latency = time.monotonic() - start
        assert seen["log"][-1]["lines"] and latency < 2.0
        # the first server's copy is current: a stale action there is refused, a fresh one taken
        stale = httpx.post(f"{a}/api/rooms/{rid}/act", json={"version": v1["version"], "action": 0},
                           headers={"Authorization": f"Bearer {p1}"})
        assert stale.status_code == 409 and "\n" not in stale.json()["error"]


def test_bots_on_two_servers_play_one_game(two_servers, dsn):
    """Both servers have the room open and its bots racing: each event is taken once, and
    the game is the one a single server plays."""
    a, b = two_servers
    made = httpx.post(f"{a}/api/rooms", json={"game": "white-christmas", "seed": 9, "options": {"players": 3},
                                              "seats": ["heuristic", "random", "heuristic"]}).json()
    rid = made["room"]
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(connect(f"{url.replace('http', 'ws')}/api/rooms/{rid}/ws")) for url in (a, b)]
        for ws in sockets:
            ws.send(json.dumps({"type": "hello"}))
        ends = [_updates(ws, lambda m: m["view"]["terminal"], timeout_s=60) for ws in sockets]
    assert ends[0]["view"]["outcome"] == ends[1]["view"]["outcome"]
    store = PostgresStore(dsn)
    stored = store.load(rid)
    store.close()
    assert [e.n for e in stored.events] == list(range(1, len(stored.events) + 1))
    room = Room.new(stored.spec)
    while not room.terminal:
        room, _ = room.bot_event()
    assert [e.text for e in room.events] == [e.text for e in stored.events]


def test_postgres_store_appends_once_and_notifies(dsn):
    a, b = PostgresStore(dsn), PostgresStore(dsn)
    heard = []
    halt = b.listen(lambda room, n: heard.append((room, n)))
    try:
        time.sleep(0.3)
        spec = make_spec({"game": "canuck", "seats": ["random"]})
        a.create(spec, "o" * 64, ("s" * 64,))
        room, event = Room.new(spec).bot_event()
        assert a.append(spec.id, event) and not b.append(spec.id, event)
        deadline = time.monotonic() + 5
        while (spec.id, 1) not in heard and time.monotonic() < deadline:
            time.sleep(0.02)
        assert (spec.id, 1) in heard
        assert b.load(spec.id).events == (event,) and b.events_after(spec.id, 0) == [event]
        assert b.load(spec.id).webhook is None and a.set_webhook(spec.id, '{"url": "https://x/h"}')
        assert b.load(spec.id).webhook == '{"url": "https://x/h"}' and not a.set_webhook("nosuchroom", None)
    finally:
        halt()
        a.close()
        b.close()


def test_a_newer_schema_is_refused_in_one_line(dsn):
    import psycopg

    PostgresStore(dsn).close()
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("UPDATE furball_schema SET version = %s", (SCHEMA_VERSION + 1,))
    try:
        with pytest.raises(InputError, match="newer furball") as err:
            PostgresStore(dsn)
        assert "\n" not in str(err.value)
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("UPDATE furball_schema SET version = %s", (SCHEMA_VERSION,))


def test_an_unreachable_server_is_one_line():
    with pytest.raises(InputError, match="cannot use it") as err:
        PostgresStore("postgresql://nobody:secret@127.0.0.1:1/none")
    assert "secret" not in str(err.value) and "\n" not in str(err.value)


def test_postgres_store_ends_rooms(dsn):
    """Issue #35 item 5 on PostgreSQL: open rooms per creator, finished games, expiry, delete."""
    from test_rooms_limits import check_store_ends_rooms

    store = PostgresStore(dsn)
    with store._db.transaction():  # a clean slate: other tests' rooms
        store._db.execute("DELETE FROM furball_events")
        store._db.execute("DELETE FROM furball_rooms")
    try:
        check_store_ends_rooms(store)
    finally:
        store.close()


def test_chat_and_rematch_reach_a_page_on_another_server(two_servers, dsn):
    """Issue 34 items 6 and 8 on PostgreSQL: a chat line written through one server reaches
    a spectator on the other at once (its notification), in the chat's own numbering; the
    store keeps it with the room; a rematch is one room whichever server is asked."""
    a, b = two_servers
    made = httpx.post(f"{a}/api/rooms", json={"game": "canuck", "seed": 4}).json()
    rid, p1 = made["room"], made["seats"][0]["token"]
    with connect(f"{a.replace('http', 'ws')}/api/rooms/{rid}/ws") as ws:
        ws.send(json.dumps({"type": "hello"}))
        _updates(ws, lambda m: True)
        r = httpx.post(f"{b}/api/rooms/{rid}/chat", json={"text": "bonjour"}, headers={"Authorization": f"Bearer {p1}"})
        assert r.status_code == 200 and r.json() == {"n": 1}
        deadline = time.monotonic() + 5
        while (m := json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic()))))["type"] != "chat":
            pass
    assert m["chat"] == [{"n": 1, "seat": 0, "label": "P1", "text": "bonjour"}]
    store = PostgresStore(dsn)
    try:
        assert [(c.n, c.seat, c.text) for c in store.load(rid).chat] == [(1, 0, "bonjour")]
        assert store.set_rematch(rid, "first-id-00") == "first-id-00"
        assert store.set_rematch(rid, "second-id-0") == "first-id-00" and store.load(rid).rematch == "first-id-00"
    finally:
        store.close()
