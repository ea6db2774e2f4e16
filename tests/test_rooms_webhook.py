"""Issue 34 item 7: a room's optional webhook ("your turn" for play over days).

The owner gives a URL (checked: http/https, length-limited, no credentials); the server
POSTs ``{room, game, title, to_act, terminal, link}`` when the people to act change,
from a worker thread, to a local receiver here (a tiny HTTP server in the test). What it
sends is made from the spectator's view: over whole games it does not change when every
value some seat may not see is dealt again (the non-interference proof of
tests/test_rooms_secrecy.py), and it never carries a token or the seed. Failures are
logged, never fatal; by default non-public addresses are refused (SSRF).
"""
import asyncio
import dataclasses
import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import numpy as np
import pytest
from test_rooms_secrecy import HIDE, _pick

from furball.errors import InputError
from furball.scenarios.web.hub import Forbidden, Hub
from furball.scenarios.web.rooms import Room, make_spec
from furball.scenarios.web.store import SQLiteStore
from furball.scenarios.web.webhook import MAX_URL_CHARS, Reach, WebhookRefused, check_url, payload, send


class Receiver:
    """A local HTTP server keeping every JSON body POSTed to it (``status``: its answer)."""

    def __init__(self, status=204):
        bodies, self.bodies, self.arrived = [], None, threading.Event()
        self.bodies = bodies
        arrived = self.arrived

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's name
                bodies.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
                self.send_response(status)
                self.end_headers()
                arrived.set()

            def log_message(self, *args):
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook?secret=abc"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize("url", ["ftp://example.com/x", "javascript:alert(1)", "file:///etc/passwd", "http://",
                                 "https://user:pw@example.com/x", "http://example.com/" + "a" * MAX_URL_CHARS,
                                 "http://exa mple.com/", 42, "http://example.com:99999/"])
def test_a_webhook_url_is_http_or_https_length_limited_without_credentials(url):
    with pytest.raises(InputError, match="field 'url'"):
        check_url(url)


def test_good_webhook_urls_pass_and_empty_means_none():
    assert check_url("https://chat.example.com/hooks/T0/B1?x=1") == "https://chat.example.com/hooks/T0/B1?x=1"
    assert check_url("http://192.0.2.1:8080/") == "http://192.0.2.1:8080/"
    assert check_url("") is None and check_url(None) is None


@pytest.mark.parametrize("url", ["http://127.0.0.1:9/", "http://10.1.2.3/", "http://169.254.169.254/latest/",
                                 "http://[::1]:9/", "http://localhost:9/", "http://192.168.0.1/", "http://0.0.0.0/"])
def test_by_default_a_webhook_to_a_non_public_address_is_refused_before_connecting(url):
    with pytest.raises(WebhookRefused, match="non-public address"):
        send(url, {}, Reach.PUBLIC)
    with pytest.raises(WebhookRefused, match="off"):
        send(url, {}, Reach.OFF)


def _positions(spec, rng):
    """Every position of a whole game whose seats are people choosing as the heuristic bot would."""
    room = Room.new(dataclasses.replace(spec, controllers=(None,) * len(spec.controllers)))
    rooms = [room]
    while not room.terminal:
        room, _ = room.act(room.to_act, _pick(room, rng, lambda r: False), room.view_version(room.to_act))
        rooms.append(room)
    return rooms


@pytest.mark.parametrize("game, options, seed", [("white-christmas", {"players": 3}, 21),
                                                 ("yorktown", {"players": 2, "expansions": "expert",
                                                               "clock": "simulated"}, 22)])
def test_the_webhook_payload_does_not_depend_on_what_any_seat_may_not_see(game, options, seed):
    """At every position of a whole game the payload is the same when everything some
    seat may not see is dealt again (for every seat in turn), it names only seats the
    game waits for, and it never holds the seed."""
    spec = make_spec({"game": game, "options": options, "seed": seed})
    rng = np.random.default_rng(seed)
    link = f"http://host/rooms/{spec.id}"
    told = 0
    for room in _positions(spec, rng):
        body = payload(room, link)
        for seat in range(room.seats):
            other = dataclasses.replace(room, state=HIDE[game](room.state, seat, rng))
            assert payload(other, link) == body, (room.version, seat)
        assert set(body) == {"room", "game", "title", "to_act", "terminal", "link"}
        assert body["to_act"] == [room.labels[i] for i in room.awaited]
        assert str(spec.seed) not in json.dumps(body)
        told += bool(body["to_act"])
    assert body["terminal"] and told > 10


async def _wait(condition, timeout_s=10.0):
    for _ in range(int(timeout_s / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


def test_the_server_posts_who_is_to_act_to_a_local_receiver_never_a_token(tmp_path):
    """A duel between two people: the owner sets the webhook (seats may not); the
    receiver hears at once who is to act, then again each time that changes (the
    dogfight's simultaneous planning: both, then the one still planning), never a
    token nor the seed; the URL survives a restart of the server (the store keeps it)."""
    db = tmp_path / "rooms.sqlite3"

    async def main(receiver):
        hub = Hub(SQLiteStore(db), bot_delay_s=0.0, webhooks="any")
        made = await hub.create({"game": "dogfight", "options": {"scenario": "duel", "reorder": "policy"}, "seed": 5})
        room, owner, seats = made["room"], made["owner"], [s["token"] for s in made["seats"]]
        link = f"http://furball.example/rooms/{room}"
        with pytest.raises(Forbidden):
            await hub.set_webhook(room, seats[0], receiver.url, link)
        with pytest.raises(InputError, match="field 'url'"):
            await hub.set_webhook(room, owner, "gopher://x", link)
        assert await hub.set_webhook(room, owner, receiver.url, link) == receiver.url
        await _wait(lambda: len(receiver.bodies) == 1)
        live = await hub.live(room)
        assert receiver.bodies[0] == {"room": room, "game": "dogfight", "title": live.room.spec.title,
                                      "to_act": ["P1", "P2"], "terminal": False, "link": link}
        view = live.room.view(0)
        await hub.act(room, seats[0], view["version"], 0)  # P1 locks a plan: P2 still plans
        await _wait(lambda: len(receiver.bodies) == 2)
        assert receiver.bodies[1]["to_act"] == ["P2"]
        await hub.control(room, owner, 1, "random")  # a bot plays P2: nobody is left to tell until the turn flies
        await _wait(lambda: (live.room.view(None)["view"]["public"]["turn"] == 2 and len(receiver.bodies) == 3))
        assert receiver.bodies[2]["to_act"] == ["P1"]
        assert await hub.webhook(room, owner) == receiver.url
        with pytest.raises(Forbidden):
            await hub.webhook(room, seats[1])
        await hub.close()
        text = json.dumps(receiver.bodies)
        assert not any(t in text for t in [owner, *seats]) and "secret=abc" not in text and '"seed"' not in text
        again = Hub(SQLiteStore(db), bot_delay_s=0.0, webhooks="any")  # restarted: the webhook is kept
        assert await again.webhook(room, owner) == receiver.url
        assert await again.set_webhook(room, owner, None, link) is None
        assert await again.webhook(room, owner) is None
        await again.close()

    with Receiver() as receiver:
        asyncio.run(main(receiver))


def test_a_failing_webhook_is_logged_and_the_game_goes_on(caplog):
    """A receiver that answers 500, and then none at all: each failure is one log line
    (with the host, never the URL's secret part), and the room plays on."""
    async def main(receiver):
        hub = Hub(SQLiteStore(":memory:"), bot_delay_s=0.0, webhooks="any")
        made = await hub.create({"game": "dogfight", "options": {"scenario": "duel"}, "seed": 6})
        room, owner, seats = made["room"], made["owner"], [s["token"] for s in made["seats"]]
        await hub.set_webhook(room, owner, receiver.url, "http://h/rooms/x")
        await _wait(lambda: "HTTP 500" in caplog.text)
        receiver.server.shutdown()
        receiver.server.server_close()
        live = await hub.live(room)
        version = await hub.act(room, seats[0], live.room.view(0)["version"], 0)
        await _wait(lambda: caplog.text.count("webhook to 127.0.0.1") >= 2)
        assert version == live.room.view_version(0) and "secret" not in caplog.text
        await hub.close()

    receiver = Receiver(status=500)
    receiver.thread.start()
    with caplog.at_level(logging.WARNING, logger="furball.rooms"):
        asyncio.run(main(receiver))


def test_the_webhook_over_http_owner_only_one_line_refusals():
    """``POST/GET /api/rooms/ROOM/webhook``: the owner's key sets and reads it, and the
    receiver is sent the spectator link; a seat's key is 403, a bad URL 422, an unknown
    field 400, each one line; the room's public summary never shows it."""
    from starlette.testclient import TestClient

    from furball.scenarios.web import LOOPBACK_HOSTS, create_app
    from furball.scenarios.web.app import ServerOptions

    app = create_app(allowed_hosts=LOOPBACK_HOSTS + ("testserver",),
                     options=ServerOptions(bot_delay_s=0.0, webhooks=Reach.ANY))
    with Receiver() as receiver, TestClient(app) as client:
        made = client.post("/api/rooms", json={"game": "canuck", "seed": 3}).json()
        path = f"/api/rooms/{made['room']}/webhook"
        owner = {"Authorization": f"Bearer {made['owner']}"}
        seat = {"Authorization": f"Bearer {made['seats'][0]['token']}"}
        assert client.get(path, headers=owner).json() == {"url": None}
        refused = client.post(path, json={"url": receiver.url}, headers=seat)
        assert refused.status_code == 403 and "owner" in refused.json()["error"]
        assert client.get(path, headers=seat).status_code == 403
        bad = client.post(path, json={"url": "ftp://x"}, headers=owner)
        assert bad.status_code == 422 and "\n" not in bad.json()["error"]
        assert client.post(path, json={"url": None, "x": 1}, headers=owner).status_code == 400
        assert client.post(path, json={"url": receiver.url}, headers=owner).json() == {"url": receiver.url}
        assert receiver.arrived.wait(10)
        assert receiver.bodies[0]["link"] == f"http://testserver/rooms/{made['room']}"
        assert receiver.bodies[0]["to_act"] == ["P1"]
        assert "webhook" not in json.dumps(client.get(f"/api/rooms/{made['room']}").json())
        assert client.post(path, json={"url": None}, headers=owner).json() == {"url": None}


def test_webhook_calls_waiting_are_bounded_the_rest_dropped_and_logged(monkeypatch, caplog):
    """While receivers are slow, at most ``MAX_WAITING`` rooms have a call waiting or on
    its way; a further room's call is dropped with one log line (no queue grows)."""
    import furball.scenarios.web.hub as hub_module

    release, calls = threading.Event(), []

    def slow(url, body, reach, timeout_s):
        calls.append(body["room"])
        release.wait(5)
        return 204

    monkeypatch.setattr(hub_module, "send", slow)
    monkeypatch.setattr(hub_module, "MAX_WAITING", 2)

    async def main():
        hub = Hub(SQLiteStore(":memory:"), bot_delay_s=0.0, webhooks="any")
        made = [await hub.create({"game": "canuck", "seed": i}) for i in range(4)]
        for m in made:
            await hub.set_webhook(m["room"], m["owner"], "http://192.0.2.1/hook", "http://h/rooms/x")
        await _wait(lambda: len(calls) == 2)
        assert caplog.text.count("webhook call dropped") == 2
        release.set()
        await hub.close()

    with caplog.at_level(logging.WARNING, logger="furball.rooms"):
        asyncio.run(main())
    assert len(calls) == 2


def test_webhooks_off_refuses_a_url():
    async def main():
        hub = Hub(SQLiteStore(":memory:"), bot_delay_s=0.0, webhooks="off")
        made = await hub.create({"game": "canuck", "seed": 1})
        with pytest.raises(InputError, match="off on this server"):
            await hub.set_webhook(made["room"], made["owner"], "https://example.com/x", "l")
        await hub.close()

    asyncio.run(main())
