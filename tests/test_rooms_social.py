"""Issue 34 items 6, 8 and 11: a room's chat (stored with the room, seats write, everyone
reads, length- and rate-limited, never moving a view version), the rematch (one room
for every click, the same keys) and take-backs (declared per engine, asked and answered
by the seats, stored as events so that a rebuilt room agrees)."""
import json

import pytest
from starlette.testclient import TestClient

from furball.scenarios.engine.protocol import TakeBack, take_back
from furball.scenarios.web import LOOPBACK_HOSTS, create_app
from furball.scenarios.web.app import ServerOptions
from furball.scenarios.web.limits import RoomLimits
from furball.scenarios.web.rooms import ChatLine, Event, EventKind, Room, RoomBroken, make_spec
from furball.scenarios.web.store import SCHEMA_VERSION, SQLiteStore

LOCAL = "http://127.0.0.1"
HOSTS = LOOPBACK_HOSTS + ("testserver",)


@pytest.fixture
def client():
    limits = RoomLimits(chat_per_min=60.0, chat_burst=3.0, chat_chars=50)
    app = create_app(allowed_hosts=HOSTS, options=ServerOptions(bot_delay_s=0.0, ws_rate=1000, ws_burst=1000,
                                                                 limits=limits))
    with TestClient(app, base_url=LOCAL, raise_server_exceptions=False) as c:
        yield c


def _auth(token):
    return {"Authorization": f"Bearer {token}"}


def _create(client, **data):
    r = client.post("/api/rooms", json={"game": "dogfight", "seed": 5} | data)
    assert r.status_code == 201, r.text
    return r.json()


def _refused(r, status, contains=""):
    assert r.status_code == status, (r.status_code, r.text[:300])
    message = r.json()["error"]
    assert "\n" not in message and contains in message, message
    return message


def _next(ws, kind):
    """The next message of type ``kind`` on ``ws`` (others skipped)."""
    while True:
        m = ws.receive_json()
        if m["type"] == kind:
            return m


# ------------------------------------------------------------------------------ chat
def test_chat_seats_write_everyone_reads_and_no_view_version_moves(client):
    made = _create(client)
    rid, p1, p2 = made["room"], made["seats"][0]["token"], made["seats"][1]["token"]
    with client.websocket_connect(f"/api/rooms/{rid}/ws") as spectator, \
            client.websocket_connect(f"/api/rooms/{rid}/ws") as other:
        spectator.send_text(json.dumps({"type": "hello", "token": None}))
        other.send_text(json.dumps({"type": "hello", "token": p2}))
        before = _next(other, "update")["view"]["version"]
        _next(spectator, "update")
        r = client.post(f"/api/rooms/{rid}/chat", json={"text": "  <b>hello</b> P2  "}, headers=_auth(p1))
        assert r.status_code == 200 and r.json() == {"n": 1}
        for ws in (spectator, other):
            m = _next(ws, "chat")
            assert m == {"type": "chat", "chat_from": 0,
                         "chat": [{"n": 1, "seat": 0, "label": "P1", "text": "<b>hello</b> P2"}]}
    assert client.post(f"/api/rooms/{rid}/act", json={"version": before, "action": 0},
                       headers=_auth(p2)).status_code == 200  # P2's version did not move
    _refused(client.post(f"/api/rooms/{rid}/chat", json={"text": "hi"}), 403, "spectators read")
    _refused(client.post(f"/api/rooms/{rid}/chat", json={"text": "x" * 51}, headers=_auth(p1)), 422, "at most 50")
    _refused(client.post(f"/api/rooms/{rid}/chat", json={"text": "a\x07"}, headers=_auth(p1)), 422, "printable")
    _refused(client.post(f"/api/rooms/{rid}/chat", json={"text": " "}, headers=_auth(p1)), 422, "text")


def test_chat_is_rate_limited_per_seat(client):
    made = _create(client)
    rid, p1, p2 = made["room"], made["seats"][0]["token"], made["seats"][1]["token"]
    codes = [client.post(f"/api/rooms/{rid}/chat", json={"text": f"line {i}"}, headers=_auth(p1)).status_code
             for i in range(5)]
    assert codes[:2] == [200, 200] and 429 in codes  # a burst of 3 (one line may refill meanwhile)
    _refused(client.post(f"/api/rooms/{rid}/chat", json={"text": "x"}, headers=_auth(p1)), 429, "slow down")
    assert client.post(f"/api/rooms/{rid}/chat", json={"text": "mine"}, headers=_auth(p2)).status_code == 200


def test_chat_resumes_after_a_dropped_connection(client):
    made = _create(client)
    rid, p1 = made["room"], made["seats"][0]["token"]
    for text in ("one", "two"):
        client.post(f"/api/rooms/{rid}/chat", json={"text": text}, headers=_auth(p1))
    with client.websocket_connect(f"/api/rooms/{rid}/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": None, "chat_seen": 1}))
        m = _next(ws, "chat")
    assert m["chat_from"] == 1 and [c["text"] for c in m["chat"]] == ["two"]


def test_chat_store_round_trip_and_upgrade(tmp_path):
    store = SQLiteStore(tmp_path / "r.sqlite3")
    spec = make_spec({"game": "canuck", "seed": 1})
    store.create(spec, "o", ("s",))
    assert store.chat_append(spec.id, ChatLine(1, 0, "salut <i>", 12.5))
    assert not store.chat_append(spec.id, ChatLine(1, 0, "taken", 13.0))
    assert store.chat_append(spec.id, ChatLine(2, 0, "deux", 14.0))
    assert store.set_rematch(spec.id, "new-room-1") == "new-room-1"
    assert store.set_rematch(spec.id, "new-room-2") == "new-room-1"  # the first stays
    store.close()
    again = SQLiteStore(tmp_path / "r.sqlite3").load(spec.id)
    assert again.chat == (ChatLine(1, 0, "salut <i>", 12.5), ChatLine(2, 0, "deux", 14.0))
    assert again.rematch == "new-room-1"
    assert SCHEMA_VERSION == 4


# ------------------------------------------------------------------------------ rematch
def test_rematch_one_room_for_every_click_with_the_same_keys(client):
    made = _create(client, seats=[None, "random"])
    rid, p1, owner = made["room"], made["seats"][0]["token"], made["owner"]
    _refused(client.post(f"/api/rooms/{rid}/rematch", json={}, headers=_auth(p1)), 409, "once the game is over")
    with client.websocket_connect(f"/api/rooms/{rid}/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": p1}))
        while not (m := _next(ws, "update"))["view"]["terminal"]:
            if m["view"].get("version") is not None:
                client.post(f"/api/rooms/{rid}/act", json={"version": m["view"]["version"], "action": 0},
                            headers=_auth(p1))
        assert m["rematch"] is None
        _refused(client.post(f"/api/rooms/{rid}/rematch", json={}), 403, "seats and its owner")
        first = client.post(f"/api/rooms/{rid}/rematch", json={}, headers=_auth(p1)).json()["room"]
        assert _next(ws, "update")["rematch"] == first
    assert client.post(f"/api/rooms/{rid}/rematch", json={}, headers=_auth(owner)).json()["room"] == first
    new = client.get(f"/api/rooms/{first}").json()
    old = client.get(f"/api/rooms/{rid}").json()
    assert new["game"] == old["game"] and new["options"] == old["options"] and new["title"] == old["title"]
    assert [s["bot"] for s in new["seats"]] == [None, "random"] and not new["terminal"]
    with client.websocket_connect(f"/api/rooms/{first}/ws") as ws:  # P1's key opens its new seat
        ws.send_text(json.dumps({"type": "hello", "token": p1, "owner": owner}))
        m = _next(ws, "update")
    assert m["view"]["seat"] == 0 and m["owner"] is True


# ------------------------------------------------------------------------------ take-backs
def _dogfight_room(**options):
    return Room.new(make_spec({"game": "dogfight", "seed": 3, "options": options}))


def test_DF_M1_a_first_lock_may_be_taken_back_a_change_is_hidden_the_last_lock_never():
    room = _dogfight_room()
    s = room.state
    a0 = s.legal_actions_for(0)[0]
    assert take_back(s, a0) == TakeBack.OPEN
    s1 = s.apply(a0)
    assert take_back(s1, s1.legal_actions_for(0)[0]) == TakeBack.HIDDEN  # a change of the locked plan
    assert take_back(s1, s1.legal_actions_for(1)[0]) == TakeBack.NEVER  # the last lock flies the turn


def test_CN_P4_canuck_declaring_steps_are_taken_back_at_once_resolving_ones_never():
    room = Room.new(make_spec({"game": "canuck", "seed": 3}))
    assert not room.view(0)["can_take_back"]
    room, _ = room.act(0, 0, room.view_version(0))
    assert room.view(0)["can_take_back"]
    before = room.takeback[-1].before
    room, event = room.take_back_event(0, "ask")  # one seat: nobody to ask
    assert event.kind == EventKind.UNDO and room.state == before and not room.view(0)["can_take_back"]
    state = room.state
    while take_back(state, state.legal_actions()[0]) == TakeBack.OPEN:
        state = state.apply(state.legal_actions()[0])
    assert take_back(state, state.legal_actions()[0]) == TakeBack.NEVER


def test_an_accepted_take_back_returns_the_state_and_a_rebuilt_room_agrees():
    room = _dogfight_room()
    start = room.state
    room, _ = room.act(0, 0, room.view_version(0))
    with pytest.raises(Exception, match="nobody has asked"):
        room.take_back_event(1, "accept")
    room, _ = room.take_back_event(0, "ask")
    assert room.view(1)["take_back"] == {"asked_by": 0, "waiting": [1]}
    with pytest.raises(Exception, match="answers come first"):
        room.act(1, 0, room.view_version(1))
    with pytest.raises(Exception, match="already"):
        room.take_back_event(0, "ask")
    room, _ = room.take_back_event(1, "accept")
    assert room.state == start and room.awaited == (0, 1) and room.view(1)["take_back"] is None
    rebuilt = Room.replay(room.spec, room.events)
    assert rebuilt.state == room.state and rebuilt.view(0) == room.view(0) and rebuilt.view(1) == room.view(1)


def test_a_refused_take_back_changes_nothing_but_the_log():
    room = _dogfight_room()
    room, _ = room.act(0, 0, room.view_version(0))
    locked = room.state
    room, _ = room.take_back_event(0, "ask")
    room, _ = room.take_back_event(1, "refuse")
    assert room.state == locked and room.log_for(0)[-1].lines == ("P2 refuses P1's take-back",)
    assert room.view(0)["can_take_back"]  # it may ask again
    assert Room.replay(room.spec, room.events).view(1) == room.view(1)


def test_bots_accept_and_yorktown_and_white_christmas_never_take_back():
    room = Room.new(make_spec({"game": "dogfight", "seed": 3, "seats": [None, "random"]}))
    start = room.state
    room, _ = room.act(0, 0, room.view_version(0))
    assert room.bot_seat() == 1
    room, _ = room.take_back_event(0, "ask")  # the bot's seat accepts: taken back at once
    assert room.state == start and room.asked is None
    for game in ("yorktown", "white-christmas"):
        r = Room.new(make_spec({"game": game, "seed": 2}))
        seat = r.to_act
        r, _ = r.act(seat, 0, r.view_version(seat))
        assert not r.view(seat)["can_take_back"]
        with pytest.raises(Exception, match="nothing of yours|real time"):
            r.take_back_event(seat, "ask")


def test_a_stored_take_back_that_does_not_fit_stops_the_rebuild():
    room = _dogfight_room()
    room, _ = room.act(0, 0, room.view_version(0))
    forged = Event(room.version + 1, EventKind.UNDO, 1, None, "ask")  # P2 has nothing to take back
    with pytest.raises(RoomBroken, match="take-back"):
        Room.replay(room.spec, room.events + (forged,))


def test_take_backs_over_http(client):
    made = _create(client)
    rid, p1, p2 = made["room"], made["seats"][0]["token"], made["seats"][1]["token"]
    assert client.post(f"/api/rooms/{rid}/act", json={"version": 0, "action": 0}, headers=_auth(p1)).status_code == 200
    _refused(client.post(f"/api/rooms/{rid}/take-back", json={"what": "ask"}), 403, "no seat")
    _refused(client.post(f"/api/rooms/{rid}/take-back", json={"what": "maybe"}, headers=_auth(p1)), 422, "ask")
    assert client.post(f"/api/rooms/{rid}/take-back", json={"what": "ask"}, headers=_auth(p1)).status_code == 200
    assert client.post(f"/api/rooms/{rid}/take-back", json={"what": "accept"}, headers=_auth(p2)).status_code == 200
    assert client.get(f"/api/rooms/{rid}").json()["acting"] == [0, 1]


def test_a_schema_3_database_is_upgraded_with_its_rooms(tmp_path):
    import sqlite3

    path = tmp_path / "old.sqlite3"
    store = SQLiteStore(path)
    spec = make_spec({"game": "canuck", "seed": 1})
    store.create(spec, "o", ("s",))
    store.close()
    with sqlite3.connect(path) as db:  # as furball wrote it before chat, rematch and webhooks
        db.execute("DROP TABLE furball_chat")
        db.execute("ALTER TABLE furball_rooms DROP COLUMN rematch")
        db.execute("ALTER TABLE furball_rooms DROP COLUMN webhook")
        db.execute("UPDATE furball_schema SET version = 3")
    store = SQLiteStore(path)
    assert store.load(spec.id).rematch is None and store.load(spec.id).chat == ()
    assert store.chat_append(spec.id, ChatLine(1, 0, "again", 1.0)) and store.set_rematch(spec.id, "x" * 16)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version FROM furball_schema").fetchone()[0] == SCHEMA_VERSION
