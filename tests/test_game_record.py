"""Issue 34 item 9: a room's whole game as one game record (docs/formats.md): the record
read back as written, the route that downloads it (a seat's, a spectator's, a finished
game's), ``furball replay FILE`` (text, ``--json``, bad files: one line, exit 2), and
the views' changes format. Secrecy of records: tests/test_rooms_secrecy.py."""
import dataclasses
import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from furball.errors import InputError
from furball.scenarios.cli import main
from furball.scenarios.web import LOOPBACK_HOSTS, create_app
from furball.scenarios.web.app import ServerOptions
from furball.scenarios.web.record import (
    FORMAT,
    MAX_RECORD_BYTES,
    apply_changes,
    game_record,
    read_record,
    view_changes,
)
from furball.scenarios.web.rooms import Room, make_spec

LOCAL = "http://127.0.0.1"


@pytest.fixture(scope="module")
def finished_duel():
    """A dogfight played to its end by random bots (DF.V1)."""
    spec = make_spec({"game": "dogfight", "seed": 3})
    room = Room.new(dataclasses.replace(spec, controllers=("random",) * len(spec.controllers)))
    while not room.terminal:
        room, _ = room.bot_event()
    return room


def test_DF_V1_a_finished_games_record_reads_back_as_written_with_every_turn(finished_duel, tmp_path):
    record = game_record(finished_duel, 0)
    text = json.dumps(record.as_json())
    assert json.loads(text)["format"] == FORMAT and json.loads(text)["version"] == 1
    back = read_record(text.encode())
    assert back == record
    for a, b in zip(record.viewers, back.viewers):
        assert [s.view for s in a.steps] == [s.view for s in b.steps]
    # every turn flown is in the record, each with its replay (the dogfight's whole game)
    turns = {s.view["view"]["private"]["replay"]["turn"] for s in back.viewers[0].steps
             if s.view["view"]["private"]["replay"]}
    assert turns == set(range(1, finished_duel.state.table.turn))


def test_furball_replay_prints_the_game_turn_by_turn_and_as_json(finished_duel, tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_record(finished_duel, None).as_json()))
    assert main(["replay", str(path), "--seat", "P2"]) == 0
    out = capsys.readouterr().out
    assert "== as P2 saw it" in out and "== as P1 saw it" not in out
    assert "Turn 1" in out and "Turn 2" in out and f"seed {finished_duel.spec.seed}" in out
    assert main(["replay", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [v["label"] for v in doc["viewers"]] == ["P1", "P2"]
    assert all("view" not in s for v in doc["viewers"] for s in v["steps"])


@pytest.mark.parametrize("content, says", [
    (b"not json", "not JSON"),
    (b"[1, 2]", "field 'format'"),
    (json.dumps({"format": FORMAT, "version": 2}).encode(), "field 'version': expected 1 to 1"),
    (json.dumps({"format": FORMAT, "version": 1, "labels": ["P1"], "viewers": []}).encode(), "field 'viewers'"),
    (json.dumps({"format": FORMAT, "version": 1, "labels": ["P1"], "terminal": False, "whole": False,
                 "game": "dogfight", "viewers": [{"seat": 3, "label": "P4", "steps": []}]}).encode(), "seat"),
    (json.dumps({"format": FORMAT, "version": 1, "labels": ["P1"], "terminal": False, "whole": False,
                 "game": "dogfight", "viewers": [{"seat": 0, "label": "P1", "steps": [
                     {"step": 0, "log": [], "view": {}}, {"step": 1, "log": [], "changes": [[["a", "b"], 1]]}]}]}
                ).encode(), "not in the view before"),
    (b"[" * 100_000, "not JSON"),
])
def test_furball_replay_refuses_a_bad_record_in_one_line(tmp_path, capsys, content, says):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and says in err and str(path) in err


def test_an_absurdly_large_record_is_refused_before_it_is_read(tmp_path, capsys):
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:  # a sparse file: nothing written
        f.truncate(MAX_RECORD_BYTES + 1)
    t0 = time.perf_counter()
    assert main(["replay", str(path)]) == 2
    assert "at most 32 MiB" in capsys.readouterr().err
    with pytest.raises(InputError, match="at most 32 MiB"):
        read_record(b" " * (MAX_RECORD_BYTES + 1))
    assert time.perf_counter() - t0 < 5  # not parsed


JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 5) | st.text("ab", max_size=2),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text("abc", max_size=2), inner,
                                                                                max_size=4), max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(JSON, JSON)
def test_a_views_changes_turn_it_into_the_next_view(before, after):
    changes = view_changes(before, after)
    assert apply_changes(before, changes, "test") == after
    assert changes == [] or before != after


def test_the_record_route_gives_a_seat_its_own_record_and_a_finished_game_to_all():
    app = create_app(allowed_hosts=LOOPBACK_HOSTS + ("testserver",), options=ServerOptions(bot_delay_s=0.0))
    with TestClient(app, base_url=LOCAL) as client:
        made = client.post("/api/rooms", json={"game": "white-christmas", "seed": 9,
                                               "options": {"players": 2}}).json()
        token = made["seats"][1]["token"]
        r = client.get(f"/api/rooms/{made['room']}/record", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200
        assert r.headers["content-disposition"] == f'attachment; filename="furball-white-christmas-{made["room"]}-P2.json"'
        record = read_record(r.content)
        assert [v.seat for v in record.viewers] == [1] and record.seed is None
        r = client.get(f"/api/rooms/{made['room']}/record")
        assert [v.seat for v in read_record(r.content).viewers] == [None]
        assert client.get("/api/rooms/nosuchroom123/record").status_code == 404
        done = client.post("/api/rooms", json={"game": "dogfight", "seed": 3, "seats": ["random", "random"]}).json()
        for _ in range(200):
            if client.get(f"/api/rooms/{done['room']}").json()["terminal"]:
                break
            time.sleep(0.05)
        whole = read_record(client.get(f"/api/rooms/{done['room']}/record").content)
        assert whole.whole and whole.seed == 3 and [v.seat for v in whole.viewers] == [0, 1]


def test_a_record_whose_views_would_take_too_much_rebuilding_is_refused():
    big = {str(i): i for i in range(2000)}
    steps = [{"step": 0, "log": [], "view": {"big": big}}]
    steps += [{"step": i, "log": [], "changes": [[["big", "0"], i]] * 1000} for i in range(1, 120)]
    doc = {"format": FORMAT, "version": 1, "game": "dogfight", "labels": ["P1"], "terminal": False, "whole": False,
           "viewers": [{"seat": 0, "label": "P1", "steps": steps}]}
    with pytest.raises(InputError, match="too much rebuilding"):
        read_record(json.dumps(doc))
