"""DF.T3 in the game and the room (issue 34): a plane able to tail several enemies at the
start of the turn picks exactly one; its seat's observation lists them; the choice rides
on its plan (``PlanAction.tail``), is refused with DF.T3 when it names an enemy it may not
tail, and stays hidden with the plan until the turn flies (then "A tails B" is public)."""
import json

import pytest

from furball.errors import IllegalAction
from furball.geometry.datafile import parse_toml
from furball.scenarios.dogfight.scenario import parse_scenario
from furball.scenarios.dogfight.state import PlanAction, new_game

TRIO = """
[scenario]
name = "Two to choose from"
turn = 1

[table]
width_mm = 900.0
height_mm = 900.0

[[plane]]
name = "Camel"
side = "Allies"
deck = "A"
pose = { x_mm = 250.0, y_mm = 420.0, heading_deg = 0.0 }
altitude = 2

[[plane]]
name = "Albatros"
side = "Central Powers"
deck = "A"
pose = { x_mm = 400.0, y_mm = 440.0, heading_deg = 10.0 }
altitude = 2

[[plane]]
name = "Fokker"
side = "Central Powers"
deck = "A"
pose = { x_mm = 390.0, y_mm = 320.0, heading_deg = 0.0 }
altitude = 2
"""
"""The Camel may tail the Albatros (151 mm, the nearest) or the Fokker (172 mm)."""


def _trio(seed=5, **options):
    return new_game(seed, parse_scenario(parse_toml(TRIO, "trio"), "trio"), **options)


def _fly(state, camel):
    """Lock the Camel's ``camel`` action, then the first legal plan of each other plane."""
    turn, state = state.table.turn, state.apply(camel)
    while state.table.turn == turn:
        state = state.apply(state.legal_actions_for(state.awaited_players()[0])[0])
    return state


def test_DF_T3_the_seat_sees_which_enemies_it_may_tail_and_the_legal_actions_offer_each_choice():
    state = _trio()
    assert state.observation(0).tails == (("Camel", ("Albatros", "Fokker")),)
    assert state.observation(1).tails == ()  # neither German plane can tail the Camel
    base = state.observation(0).legal
    legal = state.legal_actions_for(0)
    assert legal[:len(base)] == base and all(a.tail is None for a in base)  # the nearest, as before
    assert [a.tail for a in legal[len(base)::len(base)]] == ["Albatros", "Fokker"]
    assert legal[len(base) + 7] == PlanAction("Camel", base[7].cards, "Albatros")
    assert state.observation(0).actions() == legal
    assert state.legal_actions() == base  # bots, play, sweeps and the adapters choose as before


def test_DF_T3_the_choice_is_honoured_and_without_one_the_nearest_is_tailed():
    state = _trio()
    plan = state.legal_actions_for(0)[0].cards
    chosen = _fly(state, PlanAction("Camel", plan, "Fokker"))
    nearest = _fly(state, PlanAction("Camel", plan))
    assert chosen.table.turn == nearest.table.turn == 2
    assert [(t.chaser, t.target) for t in chosen.last.tails] == [("Camel", "Fokker")]
    assert [(t.chaser, t.target) for t in nearest.last.tails] == [("Camel", "Albatros")]
    assert chosen.chosen_tails == ()  # the choice belongs to its turn
    assert any("Camel tails Fokker" in line for line in chosen.events_for(1))  # public once flown
    assert "tailing Fokker (DF.T3)" in state.describe(PlanAction("Camel", plan, "Fokker"))


@pytest.mark.parametrize("plane, tail", [("Camel", "Camel"), ("Camel", "Zeppelin"), ("Albatros", "Camel")])
def test_DF_T3_a_tail_it_may_not_choose_is_refused_with_its_rule_and_changes_nothing(plane, tail):
    state = _trio()
    seat = 0 if plane == "Camel" else 1
    action = PlanAction(plane, state.observation(seat).legal[0].cards, tail)
    reason = state.explain(action)
    assert reason is not None and reason.rule == "DF.T3"
    before = state.observation(seat)
    with pytest.raises(IllegalAction) as refused:
        state.apply(action)
    assert refused.value.rule == "DF.T3" and str(reason) == str(refused.value)
    assert state.locked == () and state.chosen_tails == () and state.observation(seat) == before


def test_DF_T3_the_choice_is_hidden_with_the_plan_until_the_turn_flies():
    state = _trio(reorder="chaser")
    plan = state.legal_actions_for(0)[3].cards
    views = []
    for tail in (None, "Albatros", "Fokker"):
        locked = state.apply(PlanAction("Camel", plan, tail))
        views.append((locked.observation(1), locked.events_for(1), json.dumps(locked.observation(1).as_json())))
        assert locked.observation(0).own_tails == (() if tail is None else (("Camel", tail),))
    assert views[0] == views[1] == views[2]  # the other seat reads the same whatever the choice
    # changing only the tail of a locked plan is a change nobody else hears of
    changed = state.apply(PlanAction("Camel", plan, "Fokker")).apply(PlanAction("Camel", plan, "Albatros"))
    assert changed.chosen_tails == (("Camel", "Albatros"),) and changed.events_for(1) == ()


def test_DF_T3_a_room_offers_the_choice_as_a_shift_of_the_plan_tree():
    from furball.scenarios.web.views.dogfight import choices, view

    state = _trio()
    o = state.observation(0)
    c = choices(o, 0)
    camel = c["planes"]["Camel"]
    assert [name for name, _ in camel["tails"]] == ["Albatros", "Fokker"]
    node = camel["tree"]
    for card in o.legal[5].cards:
        node = node[card]
    legal = state.legal_actions_for(0)
    assert legal[node] == o.legal[5] and legal[node + dict(camel["tails"])["Fokker"]].tail == "Fokker"
    assert "tails" not in choices(state.observation(1), 1)["planes"]["Albatros"]
    assert view(o, 0)["private"]["tails"] == {"Camel": ["Albatros", "Fokker"]}


@pytest.mark.browser
@pytest.mark.slow
def test_DF_T3_the_room_page_offers_the_choice_and_the_turn_tails_the_enemy_picked():
    """The plan panel shows a select only for a plane with two or more enemies to tail;
    the Fokker picked there is the enemy the Camel tails when the turn flies."""
    from browser import chromium, chromium_missing, running_server, wait_until

    from furball.scenarios.web import LOOPBACK_HOSTS, create_app
    from furball.scenarios.web.app import ServerOptions

    if chromium_missing() is not None:
        pytest.skip(f"browser tests: {chromium_missing()}")
    import urllib.request

    app = create_app(allowed_hosts=LOOPBACK_HOSTS, options=ServerOptions(bot_delay_s=0.0))
    body = {"game": "dogfight", "seed": 5, "seats": [None, "random"], "options": {"scenario": TRIO, "reorder": "policy"}}
    with running_server(app) as base, chromium() as browser:
        request = urllib.request.Request(f"{base}api/rooms", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=20) as answer:
            made = json.load(answer)
        page = browser.new_context(viewport={"width": 1100, "height": 850}).new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}rooms/{made['room']}#seat={made['seats'][0]['token']}")
        wait_until(page, "document.querySelectorAll('[data-testid=cards] button').length > 0 && "
                         "document.querySelector('[data-testid=tail-select]')", timeout_s=30)
        options = page.eval_on_selector_all("[data-testid=tail-select] option", "els => els.map((e) => e.value)")
        assert options == ["Albatros", "Fokker"] and "nearest" in page.text_content("[data-testid=tail-select]")
        page.select_option("[data-testid=tail-select]", "Fokker")
        for k in range(3):
            page.locator("[data-testid=cards] button").first.click()
            wait_until(page, "(k) => document.querySelectorAll('.df-slots .slot:not(.empty)').length === k", arg=k + 1)
        page.click("[data-testid=lock]")
        wait_until(page, "window.furball.view().view.public.replay && window.furball.view().view.public.replay.turn === 1",
                   timeout_s=30)
        tails = page.evaluate("window.furball.view().view.public.replay.start.tails")
        assert [(t["chaser"], t["target"]) for t in tails] == [("Camel", "Fokker")]
        assert any("tailing Fokker" in (line["action"] or "") for line in page.evaluate("window.furball.log()"))
        assert errors == []
        page.context.close()
