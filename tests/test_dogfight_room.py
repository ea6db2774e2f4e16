"""The dogfight in a game room (issue #22 item 4): the engine's helpers for a browser
(plans card by card, the turn as each side may replay it, the log as each seat may read
it), the room option that names a scenario without ever naming a server path, the seat's
view, Best plans in the server's pool, and hidden information over whole games (DF.T2
reveals reach only the chaser's side; other sides' damage cards stay hidden)."""
import dataclasses
import json
import re
import time

import numpy as np
import pytest
from starlette.testclient import TestClient

from furball.errors import InputError
from furball.maneuvers.damage import DamageCard
from furball.maneuvers.plan import card_tree, continuations
from furball.scenarios.dogfight.players import RandomPlayer
from furball.scenarios.dogfight.report import NOBODY, replay_json, turn_lines
from furball.scenarios.dogfight.state import PlanAction, ReportLine, new_game
from furball.scenarios.web import LOOPBACK_HOSTS, create_app
from furball.scenarios.web.app import ServerOptions
from furball.scenarios.web.rooms import Room, games_json, make_spec, seat_count

UPLOAD = """
[scenario]
name = "Uploaded duel"
[table]
width_mm = 600
height_mm = 600
[[plane]]
name = "Spad"
side = "Allies"
deck = "A"
base = "small"
pose = { x_mm = 200, y_mm = 300, heading_deg = 0 }
altitude = 2
[[plane]]
name = "Pfalz"
side = "Central Powers"
deck = "A"
base = "44x60"
pose = { x_mm = 400, y_mm = 300, heading_deg = 180 }
altitude = 2
"""


def _flown(seed=5, turns=1, scenario="duel", seats="sides"):
    """States of a game played by random bots until ``turns`` turns are flown."""
    state = new_game(seed, scenario, seats=seats)
    n = len(state.seats)
    bots = {s: RandomPlayer(seed, s) for s in range(n)}
    states = [state]
    while state.current_player() is not None and state.table.turn <= turns:
        seat = state.current_player()
        state = state.apply(bots[seat].choose(state.observation(seat)))
        states.append(state)
    return states


# ------------------------------------------------------------------------------ plans card by card
def test_DF_M1_the_plan_tree_offers_the_legal_continuations_card_by_card():
    state = new_game(3, "duel")
    plans = [a.cards for a in state.legal_actions()]
    tree = card_tree(plans)
    leaves = []

    def walk(node, prefix):
        assert list(node) == list(continuations(plans, prefix))  # the engine's continuations, in deck order
        for card, below in node.items():
            if isinstance(below, dict):
                walk(below, prefix + (card,))
            else:
                leaves.append((prefix + (card,), below))
    walk(tree, ())
    assert len(leaves) == len(plans) == 2615
    assert all(plans[index] == plan for plan, index in leaves)  # a leaf is the plan's index in legal_actions()
    assert continuations(plans, ("A13", "A13")) == ()  # DF.M5: no third card after two stalls
    assert "A13" not in tree["A13"] and continuations(plans, ("A1",))[0] == "A1"


# ------------------------------------------------------------------------------ what each side may see
def _other_card(deck_letter, k):
    return DamageCard(f"{deck_letter}#{90 + k}", 9, None)


def _blinded(result, side):
    """``result`` with everything a side other than ``side`` keeps to itself changed:
    its damage cards drawn (ids, points, hidden specials, reshuffles), the cards it holds,
    and the DF.T2 reveals to its chasers (the card shown, the orders before and after)."""
    sides = {p.name: p.side for p in result.before.planes}
    hidden = lambda name: sides[name] != side  # noqa: E731

    def planes(ps):
        return tuple(p.replace(damage=tuple(f"Z#{k}" for k, _ in enumerate(p.damage)), damage_taken=max(0, p.damage_taken - 1))
                     if hidden(p.name) and p.damage else p for p in ps)

    maneuvers = []
    for m in result.maneuvers:
        draws = tuple(dataclasses.replace(d, card=_other_card(d.letter, k), points=d.points + 5,
                                          reshuffled=not d.reshuffled)
                      if hidden(d.plane) and d.card is not None and not (d.applied and d.special in _VISIBLE)
                      else d for k, d in enumerate(m.damage))
        reveals = tuple(dataclasses.replace(v, shown="A7", before=tuple(reversed(v.before)) + ("A2",),
                                            after=("A2",) + v.after)
                        if hidden(v.chaser) else v for v in m.reveals)
        maneuvers.append(dataclasses.replace(m, damage=draws, reveals=reveals, planes=planes(m.planes)))
    after = result.after.replace(planes=planes(result.after.planes))
    return dataclasses.replace(result, maneuvers=tuple(maneuvers), after=after)


from furball.scenarios.dogfight.report import VISIBLE_SPECIALS as _VISIBLE  # noqa: E402


def _with_last(state, result):
    """``state`` as if the turn it flew had been ``result`` (its log and its last turn)."""
    entries = tuple((t, (ReportLine(str(a[0]), result),)) if len(a) == 1 and isinstance(a[0], ReportLine) else (t, a)
                    for t, a in state.log_entries)
    return state.replace(last=result, log_entries=entries)


@pytest.mark.parametrize("seed, scenario, seats", [(5, "duel", "sides"), (6, "duel", "sides"),
                                                   (7, "furball", "planes"), (8, "bomber", "sides")])
def test_DF_T2_reveals_and_damage_cards_reach_only_their_side_in_the_log_and_the_replay(seed, scenario, seats):
    checked = changed = 0
    for state in _flown(seed, 3, scenario, seats):
        if state.last is None or not any(isinstance(a[0], ReportLine) for _, a in state.log_entries if len(a) == 1):
            continue
        for seat, side in enumerate(state.seat_sides):
            other = _with_last(state, _blinded(state.last, side))
            assert other.events_for(seat) == state.events_for(seat)
            assert other.observation(seat) == state.observation(seat)  # its replay and last-turn lines too
            checked += 1
            changed += turn_lines(other.last) != turn_lines(state.last)  # the referee's report changes: it can fail
        spectators = _with_last(state, _blinded(_blinded(state.last, state.seat_sides[0]), state.seat_sides[-1]))
        assert spectators.events_for(None) == state.events_for(None)
    assert checked >= 3 and changed >= 1


def test_the_replay_is_the_turn_report_cut_into_steps_without_the_seed():
    states = _flown(987654321012, 1)
    state = states[-1]
    r = state.last
    for viewer in (None, "Allies", NOBODY):
        doc = replay_json(r, viewer)
        lines = [line for line in turn_lines(r, header=False, viewer=viewer) if line]
        flat = [line for part in ([doc["start"]["lines"]] + [m["lines"] for m in doc["maneuvers"]] +
                                  [doc["end"]["lines"]]) for line in part]
        assert set(flat) <= set(lines) and len(doc["maneuvers"]) == 3
        assert "seed" not in doc and str(r.seed) not in json.dumps(doc)  # the seed decides every hidden card
        moved = {mv["plane"] for m in doc["maneuvers"] for mv in m["moves"]}
        assert moved == {"Camel", "Albatros"}
    public = replay_json(r, NOBODY)
    assert all(p["damage_taken"] is None for p in public["end"]["planes"])
    assert all(d["card"] is None for m in public["maneuvers"] for d in m["damage"])


# ------------------------------------------------------------------------------ the room
def test_a_dogfight_room_is_made_from_a_shipped_name_or_an_uploaded_file_never_a_path(tmp_path):
    dogfight = next(g for g in games_json() if g["name"] == "dogfight")
    scenario = next(o for o in dogfight["options"] if o["name"] == "scenario")
    assert scenario["kind"] == "scenario" and {"duel", "furball", "bomber"} <= set(scenario["choices"])
    assert seat_count({"game": "dogfight", "options": {"scenario": "furball", "seats": "planes"}}) == 4
    assert seat_count({"game": "dogfight", "options": {"scenario": UPLOAD}}) == 2
    room = Room.new(make_spec({"game": "dogfight", "options": {"scenario": UPLOAD}, "seed": 1}))
    assert room.view(0)["view"]["public"]["name"] == "Uploaded duel"
    secret = tmp_path / "duel.toml"
    secret.write_text(UPLOAD)
    for bad, words in ((str(secret), "scenario"), ("../../etc/passwd", "scenario"), ("x" * 70000, "characters"),
                       (UPLOAD.replace('deck = "A"', f'deck = "{secret}"', 1), "deck")):
        with pytest.raises(InputError) as err:
            make_spec({"game": "dogfight", "options": {"scenario": bad}})
        assert words in str(err.value) and "\n" not in str(err.value)


def test_the_seat_to_plan_gets_a_tree_of_indices_not_thousands_of_texts():
    room = Room.new(make_spec({"game": "dogfight", "seed": 4, "seats": [None, None]}))
    v = room.view(0)
    assert "legal" not in v and v["legal_count"] == 2615 and v["choices"]["plane"] == "Camel"
    index = v["choices"]["tree"]["A10"]["A10"]["A3"]
    assert room.state.describe(room.state.legal_actions()[index]) == "Camel flies A10, A10, A3"
    room, event = room.act(0, index, v["version"])
    assert event.text == "Camel flies A10, A10, A3"
    mine, theirs = room.view(0)["view"], room.view(1)["view"]
    assert mine["private"]["own_plans"] == {"Camel": ["A10", "A10", "A3"]} and theirs["private"]["own_plans"] == {}
    assert mine["public"]["locked"] == ["Camel"] == theirs["public"]["locked"]  # who has locked in, not what
    assert "A10, A10, A3" not in json.dumps(theirs) and "A10, A10, A3" not in json.dumps([x.as_json() for x in room.log_for(1)])
    assert room.view(1)["choices"]["plane"] == "Albatros"
    plane = mine["public"]["planes"][0]
    assert plane["silhouette"] == "fighter" and plane["deck"] == "A" and plane["base"] == "small"
    again = Room.replay(room.spec, room.events)
    assert again.view(0) == room.view(0) and again.view(1) == room.view(1)


def _perturbed(room, seat, rng):
    """``room``'s position with what ``seat`` may not see changed: other sides' locked
    plans (another legal plan), the damage piles' order, other sides' damage cards (not
    their total: the DF.V2 points so far are public, docs/dogfight_game.md) and the last
    turn's hidden details."""
    state = room.state
    side = state.seat_sides[seat]
    sides = {p.name: p.side for p in state.table.planes}
    locked = []
    for name, cards in state.locked:
        if sides[name] != side:
            plans = [a.cards for a in _legal_for(state, name) if a.cards != cards]
            cards = plans[int(rng.integers(len(plans)))]
        locked.append((name, cards))
    table = state.table.replace(piles=tuple((letter, tuple(rng.permutation(pile).tolist()))
                                        for letter, pile in state.table.piles),
                            planes=tuple(p if p.side == side or not p.damage
                                         else p.replace(damage=("B#1",) * len(p.damage))
                                         for p in state.table.planes))
    state = state.replace(locked=tuple(locked), table=table)
    if state.last is not None:
        state = _with_last(state, _blinded(state.last, side))
    return dataclasses.replace(room, state=state)


def _legal_for(state, name):
    from furball.maneuvers.plan import legal_plans

    return [PlanAction(name, plan) for plan in legal_plans(state.table.plane(name), state.table.rules)]


@pytest.mark.parametrize("seed, scenario", [(11, "duel"), (12, "bomber")])
def test_a_seats_dogfight_view_does_not_depend_on_what_it_may_not_see(seed, scenario):
    spec = make_spec({"game": "dogfight", "options": {"scenario": scenario, "turn_limit": 3}, "seed": seed,
                      "seats": ["random", "random"]})
    room = Room.new(spec)
    rng = np.random.default_rng(seed)
    checked = 0
    while not room.terminal:
        room, _ = room.bot_event()
        for seat in range(room.seats):
            other = _perturbed(room, seat, rng)
            assert json.dumps(other.view(seat), sort_keys=True) == json.dumps(room.view(seat), sort_keys=True)
            checked += 1
        public = [room.view(s)["view"]["public"] for s in range(room.seats)] + [room.view(None)["view"]["public"]]
        assert all(p == public[0] for p in public)  # the public half is the same for everyone
    assert checked >= 6
    # and the logs: no other side's damage card, reveal or plan
    for seat, side in enumerate(room.state.seat_sides):
        text = json.dumps([line.as_json() for line in room.log_for(seat)])
        theirs = {d.card.id for e in _turns(room) for m in e.maneuvers for d in m.damage
                  if d.card is not None and e.before.plane(d.plane).side != side}
        assert not any(re.search(rf"\b{re.escape(card)}\b", text) for card in theirs)


def _turns(room):
    """Every turn flown in ``room`` (rebuilt from its events)."""
    out, r = [], Room.new(room.spec)
    for e in room.events:
        r = r.apply(e)
        if r.state.last is not None and (not out or out[-1] is not r.state.last):
            out.append(r.state.last)
    return out


# ------------------------------------------------------------------------------ Best plans in the pool
@pytest.fixture
def client():
    app = create_app(allowed_hosts=LOOPBACK_HOSTS + ("testserver",), options=ServerOptions(bot_delay_s=0.0))
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c


def _job(client, room, token, job):
    for _ in range(300):
        j = client.get(f"/api/rooms/{room}/analysis/{job}", headers={"Authorization": f"Bearer {token}"}).json()
        if j.get("state") != "running":
            return j
        time.sleep(0.05)
    raise AssertionError("Best plans did not finish")


def test_best_plans_run_in_the_pool_with_progress_for_their_seat_only(client):
    made = client.post("/api/rooms", json={"game": "dogfight", "seed": 5, "seats": [None, None]}).json()
    room, p1, p2 = made["room"], made["seats"][0]["token"], made["seats"][1]["token"]
    started = client.post(f"/api/rooms/{room}/analysis", json={"vs": "Albatros"},
                          headers={"Authorization": f"Bearer {p1}"})
    assert started.status_code == 202 and started.json()["state"] == "running"
    job = started.json()["job"]
    # another seat, a spectator, the owner: not theirs
    assert client.get(f"/api/rooms/{room}/analysis/{job}", headers={"Authorization": f"Bearer {p2}"}).status_code == 404
    assert client.get(f"/api/rooms/{room}/analysis/{job}").status_code == 404
    done = _job(client, room, p1, job)
    assert done["state"] == "done" and done["done"] == done["total"] > 0
    top = done["result"]["top"]
    assert done["result"]["plane"] == "Camel" and len(top) == 5 and all(len(r["plan"]) == 3 for r in top)
    for body, status in (({"plane": "Albatros"}, 422), ({"vs": "Camel"}, 422), ({"plane": "Camel", "x": 1}, 422)):
        r = client.post(f"/api/rooms/{room}/analysis", json=body, headers={"Authorization": f"Bearer {p1}"})
        assert r.status_code == status and "\n" not in r.json()["error"]
    assert client.post(f"/api/rooms/{room}/analysis", json={}).status_code == 403  # no seat
    wc = client.post("/api/rooms", json={"game": "white-christmas", "seed": 1}).json()
    r = client.post(f"/api/rooms/{wc['room']}/analysis", json={},
                    headers={"Authorization": f"Bearer {wc['seats'][0]['token']}"})
    assert r.status_code == 404 and "no analysis" in r.json()["error"]


def test_the_lobby_asks_the_server_how_many_seats_the_options_make(client):
    r = client.post("/api/games/seats", json={"game": "dogfight", "options": {"scenario": "furball", "seats": "planes"}})
    assert r.json() == {"seats": 4, "names": ["SPAD", "Fokker", "Nieuport", "Pfalz"]}
    assert client.post("/api/games/seats", json={"game": "white-christmas", "options": {"solo": True}}).json() == \
        {"seats": 1, "names": [""]}


def test_each_seat_is_named_by_its_planes_in_the_lobby_the_invitations_and_the_seat_list(client):
    r = client.post("/api/games/seats", json={"game": "dogfight", "options": {"scenario": "furball"}})
    assert r.json() == {"seats": 2, "names": ["SPAD, Nieuport", "Fokker, Pfalz"]}
    made = client.post("/api/rooms", json={"game": "dogfight", "seed": 3, "seats": [None, "random"],
                                           "options": {"scenario": "furball"}}).json()
    assert [(s["label"], s["name"], s["bot"]) for s in made["seats"]] == [("P1", "SPAD, Nieuport", None),
                                                                         ("P2", "Fokker, Pfalz", "random")]
    public = client.get(f"/api/rooms/{made['room']}").json()
    assert [s["name"] for s in public["seats"]] == ["SPAD, Nieuport", "Fokker, Pfalz"]
    bad = client.post("/api/games/seats", json={"game": "dogfight", "options": {"scenario": "/etc/passwd"}})
    assert bad.status_code == 422 and "scenario" in bad.json()["error"]


# ------------------------------------------------------------------------------ everyone plans at once (DF.M1)
UPLOAD3 = UPLOAD + """
[[plane]]
name = "Camel"
side = "Allies"
deck = "A"
base = "small"
pose = { x_mm = 200, y_mm = 150, heading_deg = 0 }
altitude = 2
"""


def _three_seats(seats=(None, None, None), seed=7):
    return Room.new(make_spec({"game": "dogfight", "seed": seed, "seats": list(seats),
                               "options": {"scenario": UPLOAD3, "seats": "planes"}}))


def test_DF_M1_every_seat_of_a_room_plans_at_once_and_a_lock_never_makes_another_stale():
    room = _three_seats()
    views = [room.view(s) for s in range(3)]
    assert [v["acting"] for v in views] == [[0, 1, 2]] * 3 and all(v["version"] == 0 for v in views)
    assert [v["choices"]["plane"] for v in views] == ["Spad", "Pfalz", "Camel"]
    pick = [v["choices"]["tree"]["A1"]["A1"]["A1"] for v in views]
    room, _ = room.act(2, pick[2], 0)  # the last seat first
    room, _ = room.act(1, pick[1], 0)  # with the version it looked at: another seat's lock is no news to it
    assert room.view(0)["version"] == 0 and room.view(0)["view"]["public"]["locked"] == ["Camel", "Pfalz"]
    change = room.view(2)["choices"]["tree"]["A2"]["A2"]["A2"]
    room, _ = room.act(2, change, room.view(2)["version"])  # a locked plan changes until the last lock
    assert room.state.table.turn == 1 and room.view(2)["view"]["private"]["own_plans"]["Camel"] == ["A2", "A2", "A2"]
    direct = _three_seats().act(2, change, 0)[0].act(1, pick[1], 0)[0]
    assert room.view(0)["view"] == direct.view(0)["view"]  # P1 sees nothing of P3's change
    room, _ = room.act(0, pick[0], 0)  # the last lock flies the turn
    assert room.state.table.turn == 2 and room.state.last.before.turn == 1
    assert room.state.table == direct.act(0, pick[0], 0)[0].state.table  # flown with P3's changed plan
    with pytest.raises(Exception, match="moved on"):
        room.act(1, pick[1], 1)  # the turn has flown since P2 looked
    again = Room.replay(room.spec, room.events)
    assert [again.view(s) for s in range(3)] == [room.view(s) for s in range(3)]


def test_DF_M1_bots_lock_at_once_beside_the_people_who_plan():
    room = _three_seats((None, "random", "random"))
    assert room.bot_seat() == 1
    room, _ = room.bot_event()
    assert room.bot_seat() == 2 and room.state.awaited_players() == (0, 2)
    room, _ = room.bot_event()
    assert room.bot_seat() is None and room.state.table.turn == 1 and room.view(0)["version"] == 0
    room, _ = room.act(0, 0, 0)
    assert room.state.table.turn == 2 and room.bot_seat() == 1


def test_DF_M1_three_seats_lock_over_http_without_waiting_for_each_other(client):
    made = client.post("/api/rooms", json={"game": "dogfight", "seed": 7, "seats": [None, None, None],
                                           "options": {"scenario": UPLOAD3, "seats": "planes"}}).json()
    rid, tokens = made["room"], [s["token"] for s in made["seats"]]
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]

    def view(ws):
        while True:
            m = ws.receive_json()
            if m["type"] == "update":
                return m["view"]

    with client.websocket_connect(f"/api/rooms/{rid}/ws") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        first = view(ws)
        assert first["acting"] == [0, 1, 2] and first["version"] == 0 and first["choices"]["plane"] == "Spad"
        # P3 and P2 lock from the positions they looked at (version 0), P3 changes its plan, then P1 locks last
        for seat in (2, 1):
            r = client.post(f"/api/rooms/{rid}/act", json={"version": 0, "action": 0}, headers=auth[seat])
            assert r.status_code == 200 and r.json() == {"version": 1}, r.text
        r = client.post(f"/api/rooms/{rid}/act", json={"version": 1, "action": 5}, headers=auth[2])
        assert r.status_code == 200 and r.json() == {"version": 2}
        seen = view(ws)
        while sorted(seen["view"]["public"]["locked"]) != ["Camel", "Pfalz"]:
            seen = view(ws)
        assert seen["version"] == 0 and "choices" in seen  # P1 still plans, its view version unmoved
        assert client.get(f"/api/rooms/{rid}").json()["terminal"] is False
        r = client.post(f"/api/rooms/{rid}/act", json={"version": 0, "action": 0}, headers=auth[0])
        assert r.status_code == 200
        while seen["view"]["public"]["turn"] != 2:
            seen = view(ws)
        assert seen["view"]["public"]["locked"] == [] and seen["version"] >= 1
    r = client.post(f"/api/rooms/{rid}/act", json={"version": 0, "action": 0}, headers=auth[1])
    assert r.status_code == 409 and "moved on" in r.json()["error"]


def _finished(seed, scenario, turn_limit):
    state = new_game(seed, scenario, turn_limit=turn_limit)
    while not state.is_terminal():
        seat = state.current_player()
        state = state.apply(RandomPlayer(seed, seat).choose(state.observation(seat)))
    return state


def test_DF_V1_V2_game_over_says_the_turns_why_and_who_won_in_words_that_agree_with_the_points():
    from furball.scenarios.web.views.dogfight import ending, view

    state = _finished(1, "duel", 3)  # both planes lost: a DF.V1 draw under unequal points
    words = ending(state.observation(0))
    assert state.winner == "draw" and len(set(state.scores.values())) == 2
    assert words.startswith("Game over: turns 1 to 3 were played; at most one side has planes flying (DF.V1)")
    assert "the points do not decide" in words and "Allies 12, Central Powers 0" in words
    late = _finished(2, "furball", 3)  # the furball starts at turn 3
    assert "turn 3 was played; the turn limit (3) was reached (DF.V2)" in ending(late.observation(1))
    assert view(late.observation(0), 0)["public"]["ending"] == view(late.observation(1), 1)["public"]["ending"]
    assert ending(new_game(1, "duel").observation(0)) is None


def test_every_silhouette_the_server_names_is_drawn_in_the_shipped_planes_svg():
    """Issue 34 item 5: the pages <use> ``#sil-NAME`` from ``static/img/planes.svg`` for the
    name :func:`silhouette` gives (a balloon, a bomber with more than one engine, DF.T7, a
    two-seater, a fighter); the file ships with the package and holds each drawing."""
    import pathlib
    import tomllib
    import types
    import xml.etree.ElementTree as ET

    from furball.geometry.base import Base
    from furball.maneuvers.plane import Engines, PlaneKind
    from furball.scenarios.web.views.dogfight import silhouette

    static = pathlib.Path(__file__).resolve().parent.parent / "scenarios" / "web" / "static"
    ids = {e.get("id") for e in ET.parse(static / "img" / "planes.svg").iter() if e.get("id")}
    names = {silhouette(types.SimpleNamespace(kind=kind, engines=engines, base=Base(44.0, 60.0, firing_arcs=arcs)))
             for kind in PlaneKind for engines in Engines for arcs in (((0.0, 45.0),), ((180.0, 45.0),))}
    assert names == {"balloon", "bomber", "two-seater", "fighter"}
    assert {f"sil-{n}" for n in names} <= ids
    data = tomllib.loads((static.parent.parent.parent / "pyproject.toml").read_text())
    assert "static/img/*.svg" in data["tool"]["setuptools"]["package-data"]["furball.scenarios.web"]
