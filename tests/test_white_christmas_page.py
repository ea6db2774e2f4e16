"""Issue #23: 1975 White Christmas's page in a room, without a browser: the table the page
draws is the table ``--plot`` draws (one sketch function, public values only), and a click
on a piece no legal action concerns is answered with the engine's own one-line reason."""
import dataclasses

from starlette.testclient import TestClient
from white_christmas_helpers import heuristic_game

from furball.scenarios.web import LOOPBACK_HOSTS, create_app
from furball.scenarios.web.app import ServerOptions
from furball.scenarios.web.rooms import Room, make_spec
from furball.scenarios.web.views import white_christmas as view
from furball.scenarios.white_christmas.actions import Phase
from furball.viz.white_christmas import white_christmas_sketch


def test_WC_G1_G5_the_page_draws_the_table_plot_draws_from_public_values_only():
    states = heuristic_game(3, 3)
    seen = 0
    for s in states[:-1]:
        if s.step % 5 == 0:
            drawn = white_christmas_sketch(s)
            for seat in range(3):
                o = s.observation(seat)
                assert white_christmas_sketch(o) == drawn
                assert view.view(o, seat)["public"]["board"] == drawn.as_json()
            ids = drawn.ids()
            assert {f"roof:{k}" for k in range(len(s.table.roofs))} <= ids
            assert {f"heli:P{i + 1}:{m}" for i in range(3) for m in ("CH-53", "CH-46")} <= ids
            assert {"row:inspect", "row:radar", "row:influence", "row:move", "row:special_order"} <= ids
            seen += 1
    assert seen > 20 and "final position" in white_christmas_sketch(states[-1]).title


def test_WC_F2_a_click_on_a_row_slot_in_phase_2_gets_the_engines_reason():
    app = create_app(allowed_hosts=LOOPBACK_HOSTS + ("testserver",), options=ServerOptions(bot_delay_s=0.0))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        made = client.post("/api/rooms", json={"game": "white-christmas", "options": {"players": 3}, "seed": 9,
                                               "seats": [None, None, None]}).json()
        rid, tokens = made["room"], [s["token"] for s in made["seats"]]

        def why(seat, targets):
            r = client.post(f"/api/rooms/{rid}/why", json={"targets": targets},
                            headers={"Authorization": f"Bearer {tokens[seat]}"})
            assert r.status_code == 200, r.text
            return r.json()["reason"]

        room = Room.new(dataclasses.replace(make_spec({"game": "white-christmas", "options": {"players": 3},
                                                       "seed": 9}), controllers=(None,) * 3))
        first = room.to_act
        assert "legal now" in why(first, ["row:radar"])  # phase 1: taking a slot's card is legal
        assert "no legal action concerns" in why(first, ["roof:0"])
        assert "not yours" in why((first + 1) % 3, ["row:radar"])
        while room.state.board.phase != Phase.PLAY or room.state.board.pending:
            seat = room.to_act
            r = client.post(f"/api/rooms/{rid}/act", json={"version": room.view_version(seat), "action": 0},
                            headers={"Authorization": f"Bearer {tokens[seat]}"})
            assert r.status_code == 200, r.text
            room, _ = room.act(seat, 0, room.view_version(seat))
        reason = why(room.to_act, ["row:radar"])  # phase 2: cards are played, not taken
        assert reason and "\n" not in reason and "legal now" not in reason and "no legal action" not in reason
        assert reason.endswith("(WC.F3)"), reason  # the engine names its rule (issue #37)
