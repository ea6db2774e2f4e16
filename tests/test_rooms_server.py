"""Issue #22: game rooms through the server (HTTP + WebSocket, Starlette's test client):
create a room, per-seat links, actions checked by the engine (an illegal one is one line,
4xx, nothing changes), each seat's own view pushed over the WebSocket, resume after a
dropped connection, the owner's seat controls, and the LAN guards (Host, Origin, rate,
headers)."""
import json
import time

import pytest
from starlette.testclient import TestClient

from furball.scenarios.web import LOOPBACK_HOSTS, create_app
from furball.scenarios.web.app import ServerOptions
from furball.scenarios.web.security import CSP, Bucket, host_allowed

LOCAL = "http://127.0.0.1"
HOSTS = LOOPBACK_HOSTS + ("testserver",)  # the test client's WebSocket Host


@pytest.fixture
def client():
    app = create_app(allowed_hosts=HOSTS, options=ServerOptions(bot_delay_s=0.0, ws_rate=1000, ws_burst=1000))
    with TestClient(app, base_url=LOCAL, raise_server_exceptions=False) as c:
        yield c


def _create(client, **data):
    body = {"game": "white-christmas", "seed": 5} | data
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def _auth(token):
    return {"Authorization": f"Bearer {token}"}


def _refused(r, status, contains=""):
    assert r.status_code == status, (r.status_code, r.text[:300])
    message = r.json()["error"]
    assert "\n" not in message and "Traceback" not in message and contains in message, message
    return message


def _update(ws):
    """The next update on ``ws`` (skipping acknowledgements)."""
    while True:
        m = ws.receive_json()
        if m["type"] == "update":
            return m
        assert m["type"] == "ack", m


def _until(ws, done):
    """Updates on ``ws`` until one satisfies ``done`` (presence changes come in between)."""
    while True:
        m = _update(ws)
        if done(m):
            return m


def _wait_for_turn(client, rid, seat):
    """Until ``seat`` is to act (a bot's move is made a moment after the event before it)."""
    deadline = time.monotonic() + 10
    while client.get(f"/api/rooms/{rid}").json()["to_act"] != seat:
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_pages_and_games(client):
    for path in ("/rooms", "/rooms/abcdefghijkl"):
        r = client.get(path)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    games = client.get("/api/games").json()["games"]
    assert {"white-christmas", "canuck", "yorktown"} <= {g["name"] for g in games}
    for asset in ("js/rooms/lobby.js", "js/rooms/room.js", "js/rooms/games.js", "rooms.css"):
        assert client.get(f"/static/{asset}").status_code == 200, asset


def test_create_gives_one_token_per_seat_and_an_owner_token(client):
    made = _create(client, options={"players": 3}, seats=[None, "heuristic", None])
    tokens = [made["owner"]] + [s["token"] for s in made["seats"]]
    assert len(set(tokens)) == 4 and all(len(t) >= 32 for t in tokens)
    summary = client.get(f"/api/rooms/{made['room']}").json()
    assert summary["labels"] == ["P1", "P2", "P3"] and summary["seats"][1]["bot"] == "heuristic"
    assert not any(t in json.dumps(summary) for t in tokens)
    assert "seed" not in summary


@pytest.mark.parametrize("body, contains", [({"game": "chess"}, "field 'game'"),
                                            ({"game": "white-christmas", "seats": [None]}, "field 'seats'"),
                                            ({"game": "canuck", "options": {"map": "/etc/passwd"}}, "map")])
def test_bad_rooms_are_refused_in_one_line(client, body, contains):
    _refused(client.post("/api/rooms", json=body), 422, contains)


def test_a_seat_plays_over_http_and_every_seat_sees_its_own_view(client):
    made = _create(client)
    rid, (p1, p2) = made["room"], [s["token"] for s in made["seats"]]
    with client.websocket_connect(f"/api/rooms/{rid}/ws") as w1, \
            client.websocket_connect(f"/api/rooms/{rid}/ws") as w2:
        w1.send_json({"type": "hello", "token": p1})
        w2.send_json({"type": "hello", "token": p2})
        v1, v2 = _update(w1)["view"], _update(w2)["view"]
        assert v1["seat"] == 0 and v2["seat"] == 1 and v1["to_act"] == 0
        assert "legal" in v1 and "legal" not in v2
        assert v1["view"]["private"]["hand"] == [] and v1["view"]["public"] == v2["view"]["public"]
        # the engine checks the action: wrong seat, stale position, bad index, wrong token
        _refused(client.post(f"/api/rooms/{rid}/act", json={"version": 0, "action": 0}, headers=_auth(p2)), 409,
                 "P1's turn")
        _refused(client.post(f"/api/rooms/{rid}/act", json={"version": 3, "action": 0}, headers=_auth(p1)), 409,
                 "moved on")
        _refused(client.post(f"/api/rooms/{rid}/act", json={"version": 0, "action": 99}, headers=_auth(p1)), 409,
                 "field 'action'")
        _refused(client.post(f"/api/rooms/{rid}/act", json={"version": 0, "action": 0}, headers=_auth("nope")), 403,
                 "no seat")
        _refused(client.post(f"/api/rooms/{rid}/act", json={"version": 0, "action": 0}), 403)
        _refused(client.post(f"/api/rooms/{rid}/act", json={"version": 0, "action": 0, "x": 1}, headers=_auth(p1)),
                 400, "unknown field")
        _refused(client.post("/api/rooms/nosuchroom00/act", json={"version": 0, "action": 0}, headers=_auth(p1)),
                 404)
        assert client.get(f"/api/rooms/{rid}").json()["to_act"] == 0  # nothing changed
        chosen = v1["legal"][0]
        r = client.post(f"/api/rooms/{rid}/act", json={"version": 0, "action": 0}, headers=_auth(p1))
        assert r.status_code == 200 and r.json() == {"version": 1}
        m1, m2 = _until(w1, lambda m: m["log"]), _until(w2, lambda m: m["log"])
        assert m1["log"][-1]["action"] == chosen and m1["log"][-1]["seat"] == 0
        assert all(line["action"] is None for line in m2["log"])  # P1's own words stay with P1
        assert m2["log"][-1]["lines"] == m1["log"][-1]["lines"]  # the public event lines reach everyone


def test_actions_over_the_websocket_are_acknowledged(client):
    made = _create(client)
    rid, p1 = made["room"], made["seats"][0]["token"]
    with client.websocket_connect(f"/api/rooms/{rid}/ws") as ws:
        ws.send_json({"type": "hello", "token": p1})
        v = _update(ws)["view"]
        ws.send_json({"type": "act", "id": 7, "version": v["version"], "action": 0})
        assert ws.receive_json() == {"type": "ack", "id": 7, "version": 1}
        ws.send_json({"type": "act", "id": 8, "version": 0, "action": 0})
        m = ws.receive_json()
        while m["type"] == "update":
            m = ws.receive_json()
        assert m["type"] == "error" and m["id"] == 8 and m["status"] == 409
        ws.send_text("not json")
        assert ws.receive_json()["status"] == 400


def test_resume_after_a_dropped_connection_sends_only_what_was_missed(client):
    made = _create(client, seats=[None, "random"])
    rid, p1 = made["room"], made["seats"][0]["token"]
    with client.websocket_connect(f"/api/rooms/{rid}/ws") as ws:
        ws.send_json({"type": "hello", "token": p1})
        first = _update(ws)
    seen = first["log_from"] + len(first["log"])
    for _ in range(3):  # play on while disconnected (the random bot answers at once)
        _wait_for_turn(client, rid, 0)
        with client.websocket_connect(f"/api/rooms/{rid}/ws") as ws:
            ws.send_json({"type": "hello", "token": p1})
            view = _update(ws)["view"]
        client.post(f"/api/rooms/{rid}/act", json={"version": view["version"], "action": 0}, headers=_auth(p1))
    _wait_for_turn(client, rid, 0)  # the bot has answered: nothing moves between the two reads below
    with client.websocket_connect(f"/api/rooms/{rid}/ws") as ws:
        ws.send_json({"type": "hello", "token": p1, "seen": seen})
        resumed = _update(ws)
    with client.websocket_connect(f"/api/rooms/{rid}/ws") as ws:
        ws.send_json({"type": "hello", "token": p1})
        whole = _update(ws)
    assert resumed["log_from"] == seen and whole["log_from"] == 0
    assert first["log"] + resumed["log"] == whole["log"]


def test_spectators_see_the_public_half_only(client):
    made = _create(client, seats=["random", "random"])
    with client.websocket_connect(f"/api/rooms/{made['room']}/ws") as ws:
        ws.send_json({"type": "hello"})
        m = _update(ws)
    assert m["view"]["seat"] is None and m["view"]["view"]["private"] is None and "text" not in m["view"]
    assert all(line["action"] is None for line in m["log"])


def test_the_owner_hands_a_seat_to_a_bot_and_takes_it_back(client):
    made = _create(client)
    rid, owner, p1 = made["room"], made["owner"], made["seats"][0]["token"]
    _refused(client.post(f"/api/rooms/{rid}/seats/0", json={"bot": "heuristic"}, headers=_auth(p1)), 403, "owner")
    _refused(client.post(f"/api/rooms/{rid}/seats/5", json={"bot": "heuristic"}, headers=_auth(owner)), 422, "seat")
    _refused(client.post(f"/api/rooms/{rid}/seats/0", json={"bot": "genius"}, headers=_auth(owner)), 422, "bot")
    with client.websocket_connect(f"/api/rooms/{rid}/ws") as ws:
        ws.send_json({"type": "hello", "token": p1})
        assert _update(ws)["view"]["to_act"] == 0
        assert client.post(f"/api/rooms/{rid}/seats/0", json={"bot": "heuristic"}, headers=_auth(owner)).status_code \
            == 200
        # the bot plays P1 (at once in this test); P1's page hears of it, with the bot's words
        lines = []
        while not any(line["seat"] == 0 and line["action"] for line in lines):
            lines += _update(ws)["log"]
        assert any("played by the heuristic bot" in x for line in lines for x in line["lines"])
        assert client.post(f"/api/rooms/{rid}/seats/0", json={"bot": None}, headers=_auth(owner)).status_code == 200
        summary = client.get(f"/api/rooms/{rid}").json()
        assert summary["seats"][0]["bot"] is None
    _refused(client.post(f"/api/rooms/{rid}/seats/0", json={"bot": None}, headers=_auth(owner)), 409, "already")


def test_websocket_needs_a_hello_and_an_existing_room(client):
    with client.websocket_connect("/api/rooms/nosuchroom00/ws") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["status"] == 404
    made = _create(client)
    with client.websocket_connect(f"/api/rooms/{made['room']}/ws") as ws:
        ws.send_json({"type": "act"})
        assert ws.receive_json()["status"] == 400


# ------------------------------------------------------------------------------ the guards
def test_another_sites_page_can_change_nothing(client):
    r = client.post("/api/rooms", json={"game": "canuck"}, headers={"Origin": "http://evil.example"})
    _refused(r, 403, "Origin")
    _refused(client.post("/api/analyse", json={}, headers={"Origin": "null"}), 403)
    assert client.post("/api/rooms", json={"game": "canuck"}, headers={"Origin": LOCAL}).status_code == 201
    _refused(client.post("/api/rooms", json={"game": "canuck"}, headers={"Origin": "http://127.0.0.1:9999"}), 403)
    assert client.post("/api/rooms", json={"game": "canuck"}, headers={"Origin": "https://127.0.0.1"}).status_code \
        == 201  # through an HTTPS proxy: same host and port
    assert client.get("/api/games", headers={"Origin": "http://evil.example"}).status_code == 200  # reading is fine
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect), \
            client.websocket_connect("/api/rooms/x/ws", headers={"Origin": "http://evil.example"}) as ws:
        ws.receive_json()


def test_unknown_host_names_are_refused(client):
    _refused(client.get("/api/games", headers={"Host": "evil.example"}), 400, "Host")
    assert host_allowed("127.0.0.1:8765", ("127.0.0.1",)) and host_allowed("[::1]:80", ("::1",))
    assert not host_allowed("evil.example:80", ("127.0.0.1",)) and host_allowed("x", ("*",))


def test_security_headers_on_every_answer(client):
    for path in ("/", "/rooms", "/api/games", "/static/rooms.css", "/api/nowhere"):
        h = client.get(path).headers
        assert h["content-security-policy"] == CSP and "frame-ancestors 'none'" in CSP
        assert h["referrer-policy"] == "no-referrer" and h["x-frame-options"] == "DENY", path


def test_a_connection_past_its_rate_gets_429():
    app = create_app(options=ServerOptions(rate=1.0, burst=5.0))
    with TestClient(app, base_url=LOCAL) as c:
        codes = [c.get("/api/games").status_code for _ in range(8)]
    assert codes[:5] == [200] * 5 and 429 in codes[5:]
    b = Bucket(rate=0.0, burst=2)
    assert b.take() and b.take() and not b.take()
