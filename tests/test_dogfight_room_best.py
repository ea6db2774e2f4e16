"""Best plans pushed on a dogfight room's socket (issue 36.1; docs/rooms.md, "Best plans
while dragging"): the answer equals the plan analysis of the seat's own table (with the
planes the page moved) and reaches only the asking connection."""
from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from furball.geometry.pose import Pose
from furball.scenarios.dogfight import analyze
from furball.scenarios.web import LOOPBACK_HOSTS, create_app
from furball.scenarios.web.app import ServerOptions
from furball.scenarios.web.rooms import Room, make_spec

SEED = 5


@pytest.fixture
def client():
    app = create_app(allowed_hosts=LOOPBACK_HOSTS + ("testserver",), options=ServerOptions(bot_delay_s=0.0))
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c


def _hello(ws, token):
    ws.send_json({"type": "hello", "token": token})
    while ws.receive_json()["type"] != "update":
        pass


def _best(ws, n):
    """The messages up to the answer numbered ``n`` (all ``best`` messages seen)."""
    seen = []
    while True:
        m = ws.receive_json()
        if m["type"] == "best":
            seen.append(m)
            if m["n"] == n:
                return seen


def test_best_plans_pushed_on_the_socket_equal_the_analysis_of_the_seats_moved_table_and_reach_it_alone(client):
    spec = {"game": "dogfight", "seed": SEED, "seats": [None, None]}
    made = client.post("/api/rooms", json=spec).json()
    rid, p1, p2 = made["room"], made["seats"][0]["token"], made["seats"][1]["token"]
    table = Room.new(make_spec(spec)).state.observation(0).table  # the Camel's side's view, in this process
    enemy = table.plane("Albatros")
    moved = [enemy.pose.x_mm - 30.0, enemy.pose.y_mm + 12.5, (enemy.pose.heading_deg + 20.0) % 360.0]
    there = table.replace(planes=tuple(p.replace(pose=Pose(*moved)) if p.name == "Albatros" else p
                                       for p in table.planes))
    expected = analyze(there, "Camel", vs=["Albatros"], heat_rows=0).as_json(5)
    with client.websocket_connect(f"/api/rooms/{rid}/ws") as mine, client.websocket_connect(f"/api/rooms/{rid}/ws") as theirs:
        _hello(mine, p1)
        _hello(theirs, p2)
        mine.send_json({"type": "best", "n": 7, "vs": "Albatros", "poses": {"Albatros": moved}})
        answer = _best(mine, 7)[-1]
        assert "error" not in answer, answer
        assert {k: v for k, v in answer["result"].items() if k != "seconds"} == \
            {k: v for k, v in expected.items() if k != "seconds"}
        # the same seat asks again where the Albatros stands: its own cache, the same answer as without one
        mine.send_json({"type": "best", "n": 8, "vs": "Albatros"})
        again = _best(mine, 8)[-1]["result"]
        alone = analyze(table, "Camel", vs=["Albatros"], heat_rows=0).as_json(5)
        assert {k: v for k, v in again.items() if k != "seconds"} == {k: v for k, v in alone.items() if k != "seconds"}
        # the other seat hears no answer but its own (asked after the Camel's arrived)
        theirs.send_json({"type": "best", "n": 1, "vs": "Camel"})
        heard = _best(theirs, 1)
        assert [m["n"] for m in heard] == [1] and heard[0]["result"]["plane"] == "Albatros"
        # a bad request: one line, numbered, nothing else moves
        mine.send_json({"type": "best", "n": 9, "poses": {"Albatros": [1e9, 0, 0]}})
        bad = _best(mine, 9)[-1]
        assert bad["status"] == 422 and "poses" in bad["error"] and "\n" not in bad["error"]
        mine.send_json({"type": "best", "n": 10, "poses": {"Albatros": [-500, 0, 0]}})  # its stand off the table
        assert _best(mine, 10)[-1]["status"] == 422
        mine.send_json({"type": "best", "n": "x"})
        assert mine.receive_json()["status"] == 400


def test_a_spectator_gets_no_best_plans_on_the_socket(client):
    made = client.post("/api/rooms", json={"game": "dogfight", "seed": SEED, "seats": [None, None]}).json()
    with client.websocket_connect(f"/api/rooms/{made['room']}/ws") as ws:
        ws.send_json({"type": "hello"})
        while ws.receive_json()["type"] != "update":
            pass
        ws.send_json({"type": "best", "n": 1})
        answer = _best(ws, 1)[-1]
        assert answer["status"] == 403 and "result" not in answer


def test_a_request_waiting_behind_a_running_one_is_replaced_by_a_newer_one(client):
    """One calculation at a time per connection; of the requests that arrive meanwhile
    only the newest is answered (the page asks at drag speed: no queue builds up)."""
    made = client.post("/api/rooms", json={"game": "dogfight", "seed": SEED, "seats": [None, None]}).json()
    with client.websocket_connect(f"/api/rooms/{made['room']}/ws") as ws:
        _hello(ws, made["seats"][0]["token"])
        for n in (1, 2, 3):  # sent within a millisecond: the first still runs (a deck-A duel) as the others come
            ws.send_json({"type": "best", "n": n, "vs": "Albatros"})
        answered = [m["n"] for m in _best(ws, 3)]
        assert 2 not in answered and answered[-1] == 3 and set(answered) <= {1, 3}
