"""Issue #22 item 4: a dogfight room played in real browsers (Playwright, Debian's
Chromium), one browser context per person: the owner creates the room in the lobby, P1
(a desktop) asks for Best plans, watches the progress bar and picks the best plan, P2 (a
390 px phone) picks its cards one by one among the continuations offered; every screen
replays the turn. In the second turn the server is killed with SIGKILL after P1 locked
in (mid-turn), started again on the same database; the pages reconnect, P1's plan is
still locked (and still on P1's screen only), P2 locks in, and the game goes on exactly
as an uninterrupted run with the same actions. And issue #34 item 1 (DF.M1, everyone
plans at once): a 3-seat room where all three seats pick their cards at the same time,
lock in any order (one changes its locked plan), and the turn flies when the last locks;
item 2 (DF.T2): the chaser sees the target's first card, reorders, and the move follows.
Skipped, with the reason, where no Chromium is installed."""
import json
import re
import signal
import urllib.request

import pytest
from browser import chromium, chromium_missing, free_port, restart_after_sigkill, serve_process, wait_until

from furball.scenarios.web.rooms import Room
from furball.scenarios.web.store import SQLiteStore

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(chromium_missing() is not None, reason=f"browser tests: {chromium_missing()}")]

SEED = 4242


@pytest.fixture
def browser():
    with chromium() as b:
        yield b


def _view(page):
    return page.evaluate("window.furball.view()")


def _wait_to_plan(page, turn):
    wait_until(page, "(t) => { const v = window.furball.view(); return v && v.choices && v.version !== undefined && "
                     "v.view.public.turn === t && document.querySelectorAll('[data-testid=cards] button').length > 0; }",
               timeout_s=30, arg=turn)


def _pick_first_cards(page):
    """Three clicks: each time the first card the page offers (a legal continuation)."""
    picked = []
    for k in range(3):
        button = page.locator("[data-testid=cards] button").first
        picked.append(button.get_attribute("data-card"))
        button.click()
        wait_until(page, "(k) => document.querySelectorAll('.df-slots .slot:not(.empty)').length === k", arg=k + 1)
    return picked


def _best_plan(page):
    page.click("details.df-best summary")
    page.click("[data-testid=best-plans]")
    wait_until(page, "['running', 'done'].includes(document.querySelector('.df').dataset.best)")
    wait_until(page, "document.querySelector('.df').dataset.best === 'done'", timeout_s=60)
    assert page.evaluate("document.querySelector('.df progress').value") > 0
    first = page.locator(".df-best-list button").first
    plan = first.get_attribute("data-plan").split()
    first.click()
    wait_until(page, "document.querySelectorAll('.df-slots .slot:not(.empty)').length === 3")
    return plan


def _lock(page):
    version = _view(page)["version"]
    page.click("[data-testid=lock]")
    wait_until(page, "(v) => window.furball.view().version !== v", arg=version)


def _replayed(page, turn):
    """The page replays turn ``turn`` by itself; skip to its end."""
    wait_until(page, "(t) => { const d = document.querySelector('.df').dataset; return d.replay !== 'closed' && "
                     "window.furball.view().view.public.replay && window.furball.view().view.public.replay.turn === t; }",
               timeout_s=30, arg=turn)
    page.click('[data-replay="last"]')
    wait_until(page, "document.querySelector('.df').dataset.replayKind === 'end'")


def test_a_dogfight_room_survives_sigkill_mid_turn(browser, tmp_path):
    port = free_port()
    db = tmp_path / "rooms.sqlite3"
    server, url = serve_process(db, tmp_path / "data", port)
    contexts, errors = [], []
    try:
        owner = browser.new_context(viewport={"width": 1200, "height": 800})
        contexts.append(owner)
        lobby = owner.new_page()
        lobby.on("pageerror", lambda e: errors.append(str(e)))
        lobby.goto(f"{url}/rooms")
        wait_until(lobby, "document.body.dataset.ready === 'yes'")
        lobby.select_option("#game", "dogfight")
        wait_until(lobby, "document.querySelector('[data-option=scenario]') && document.body.dataset.seats === '2'")
        lobby.select_option('[data-option="scenario"]', "duel")
        lobby.select_option('[data-option="reorder"]', "policy")  # the Camel's reveals by the policy: two events a turn
        lobby.select_option('[data-seat="0"]', "")
        lobby.select_option('[data-seat="1"]', "")
        lobby.click("details summary")
        lobby.fill("#seed", str(SEED))
        lobby.click("#create-room")
        lobby.wait_for_selector("#made:not([hidden])")
        links = lobby.eval_on_selector_all("#links input", "els => els.map((e) => e.value)")
        pages = []
        for link, viewport, phone in ((links[1], {"width": 1200, "height": 900}, False),
                                      (links[2], {"width": 390, "height": 844}, True)):
            ctx = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone)
            contexts.append(ctx)
            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(link)
            wait_until(page, "window.furball.updates() > 0")
            pages.append(page)
        p1, p2 = pages
        assert "You fly for Allies" in p1.text_content("[data-testid=df-head]")
        wait_until(p1, "document.querySelector('#furball-silhouettes') && "
                       "document.querySelectorAll('[data-testid=table] use.silhouette').length === 2")

        # turn 1: P1 asks for Best plans and flies the best; P2, on a phone, picks card by card
        _wait_to_plan(p1, 1)
        plan1 = _best_plan(p1)
        _lock(p1)
        wait_until(p2, "document.querySelectorAll('[data-plane=\"Camel\"][data-locked=\"yes\"]').length === 1")
        # P2 sees that P1 locked in...
        assert " ".join(plan1) not in p2.content() and ", ".join(plan1) not in json.dumps(_view(p2))  # ...not what
        _wait_to_plan(p2, 1)
        assert p2.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
        for selector in ("[data-testid=cards] button", ".df-slots .slot", "[data-testid=lock]", ".df-zoom button"):
            sizes = p2.eval_on_selector_all(selector, "els => els.map((e) => { const r = e.getBoundingClientRect(); "
                                                      "return Math.min(r.width, r.height); })")
            assert sizes and min(sizes) >= 44, selector  # touch targets
        _pick_first_cards(p2)
        _lock(p2)
        for page in pages:  # every screen replays the turn: bases slide, shots, damage
            _replayed(page, 1)
        replay1 = _view(p1)["view"]["private"]["replay"]
        assert [mv["plane"] for mv in replay1["maneuvers"][0]["moves"]] == ["Camel", "Albatros"]

        # turn 2: P1 locks in, and the server dies before P2 does
        _wait_to_plan(p1, 2)
        _pick_first_cards(p1)
        _lock(p1)
        mine = _view(p1)["view"]["private"]["own_plans"]
        assert list(mine) == ["Camel"]
        server = restart_after_sigkill(server, db, tmp_path / "data", port, pages)  # mid-turn, no goodbye
        wait_until(p1, "(m) => JSON.stringify(window.furball.view().view.private.own_plans) === m",
                   arg=json.dumps(mine, separators=(",", ":")))
        wait_until(p2, "JSON.stringify(window.furball.view().view.public.locked) === '[\"Camel\"]'")
        assert _view(p2)["view"]["private"]["own_plans"] == {}
        _wait_to_plan(p2, 2)
        _pick_first_cards(p2)
        _lock(p2)
        for page in pages:
            _replayed(page, 2)
        final = [_view(p) for p in pages]
        assert all(v["view"]["public"]["turn"] == 3 for v in final)
        assert errors == []
    finally:
        for ctx in contexts:
            ctx.close()
        server.send_signal(signal.SIGTERM)
        server.wait(10)

    stored = SQLiteStore(db).load(final[0]["room"])
    assert stored.spec.seed == SEED and len(stored.events) == 4
    straight = Room.new(stored.spec)
    for e in stored.events:  # the same actions, never interrupted
        straight, _ = straight.act(e.seat, e.action, straight.view_version(e.seat))
    assert [e.text for e in stored.events] == [e.text for e in straight.events]
    for seat, v in enumerate(final):
        want = json.loads(json.dumps(straight.view(seat)))
        assert v["view"] == want["view"] and v["to_act"] == want["to_act"]


THREE = """
[scenario]
name = "Three planes"
[table]
width_mm = 700
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
base = "small"
pose = { x_mm = 450, y_mm = 300, heading_deg = 180 }
altitude = 2
[[plane]]
name = "Camel"
side = "Allies"
deck = "A"
base = "small"
pose = { x_mm = 200, y_mm = 150, heading_deg = 0 }
altitude = 2
"""


def test_DF_M1_three_seats_pick_cards_at_the_same_time_and_the_turn_flies_when_the_last_locks(browser, tmp_path):
    server, url = serve_process(tmp_path / "rooms.sqlite3", tmp_path / "data", free_port())
    contexts, errors = [], []
    try:
        body = json.dumps({"game": "dogfight", "seed": 31, "seats": [None, None, None],
                           "options": {"scenario": THREE, "seats": "planes"}}).encode()
        request = urllib.request.Request(f"{url}/api/rooms", data=body, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=20) as answer:
            made = json.load(answer)
        pages = []
        for seat in made["seats"]:  # one browser context per person
            ctx = browser.new_context(viewport={"width": 1100, "height": 850})
            contexts.append(ctx)
            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{url}/rooms/{made['room']}#seat={seat['token']}")
            wait_until(page, "window.furball.updates() > 0")
            pages.append(page)
        seats = pages[0].text_content("#seats")  # each seat named by its planes (issue #34 item 3)
        assert "P1: Spad" in seats and "P2: Pfalz" in seats and "P3: Camel" in seats
        for page in pages:  # every seat has its plan panel at once: nobody waits for "P1 to act"
            _wait_to_plan(page, 1)
            assert page.is_visible("[data-testid=plan]") and "to act…" not in page.text_content("#turn")
        picks = [_pick_first_cards(page) for page in pages]  # all three pick before anyone locks
        p1, p2, p3 = pages
        _lock(p3)
        for page in (p1, p2):
            wait_until(page, "document.querySelector('li[data-plane=Camel][data-locked=yes]') !== null")
        assert ", ".join(picks[2]) not in json.dumps(_view(p2)) + p2.content()  # the enemy sees that P3 locked, not what
        assert _view(p1)["view"]["private"]["own_plans"] == {"Camel": picks[2]}  # its side shares it (DF.M1)
        assert p1.locator(".df-slots .slot:not(.empty)").count() == 3  # P1's picked cards stay while others lock
        assert p3.get_attribute("[data-testid=plan]", "data-locked") == "yes"  # P3 may change its plan...
        assert "Change your plan for Camel" in p3.text_content("[data-testid=plan] summary")
        p3.locator("[data-testid=cards] button").nth(1).click()  # ...another first card this time
        wait_until(p3, "document.querySelectorAll('.df-slots .slot:not(.empty)').length === 1")
        for k in (2, 3):
            p3.locator("[data-testid=cards] button").first.click()
            wait_until(p3, "(k) => document.querySelectorAll('.df-slots .slot:not(.empty)').length === k", arg=k)
        changed = [p3.text_content(f".df-slots .slot >> nth={k}") for k in range(3)]
        assert changed != picks[2]
        _lock(p3)
        assert _view(p3)["view"]["private"]["own_plans"] == {"Camel": changed}
        _lock(p2)
        assert all(_view(page)["view"]["public"]["turn"] == 1 for page in pages)
        _lock(p1)  # the last lock flies the turn
        for page in pages:
            _replayed(page, 1)
            wait_until(page, "window.furball.view().view.public.turn === 2")
        assert sorted(_view(p1)["view"]["public"]["locked"]) == [] and errors == []
    finally:
        for ctx in contexts:
            ctx.close()
        server.send_signal(signal.SIGTERM)
        server.wait(10)


def test_DF_T2_the_chaser_sees_the_targets_card_reorders_and_the_move_follows(browser, tmp_path):
    """Issue #34 item 2: in a duel where the Albatros (P2) starts on the Camel's tail, P2's
    page alone shows the Camel's first card once both plans are locked; P2 clicks its
    cards into a new order, and the turn flies in that order. The Camel's page and frames
    (and a spectator's) never hold the reorder before the move, nor the card shown."""
    server, url = serve_process(tmp_path / "rooms.sqlite3", tmp_path / "data", free_port())
    contexts, errors = [], []
    try:
        body = json.dumps({"game": "dogfight", "seed": 31, "seats": [None, None],
                           "options": {"scenario": "duel", "swap_start": True}}).encode()
        request = urllib.request.Request(f"{url}/api/rooms", data=body, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=20) as answer:
            made = json.load(answer)
        pages, frames = [], {}
        for who, link in (("P1", f"#seat={made['seats'][0]['token']}"), ("P2", f"#seat={made['seats'][1]['token']}"),
                          ("spectator", "")):  # one browser context per person
            ctx = browser.new_context(viewport={"width": 1100, "height": 850})
            contexts.append(ctx)
            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            got = frames[who] = []
            page.on("websocket", lambda ws, got=got: ws.on("framereceived", lambda data, got=got: got.append(data)))
            page.goto(f"{url}/rooms/{made['room']}{link}")
            wait_until(page, "window.furball.updates() > 0")
            pages.append(page)
        target, chaser, spectator = pages
        _wait_to_plan(target, 1)
        assert _pick_first_cards(target) == ["A1", "A1", "A1"]
        _lock(target)
        _wait_to_plan(chaser, 1)
        for k, card in enumerate(("A2", "A3", "A4")):
            chaser.click(f"[data-testid=cards] button[data-card={card}]")
            wait_until(chaser, "(k) => document.querySelectorAll('.df-slots .slot:not(.empty)').length === k", arg=k + 1)
        _lock(chaser)
        # the chaser looks: the Camel's first card, on its page alone, with the time left
        wait_until(chaser, "!document.querySelector('[data-testid=reorder]').hidden", timeout_s=20)
        assert chaser.get_attribute("[data-testid=reorder-shown]", "data-card") == "A1"
        assert "Camel shows you its card for maneuver 1: A1" in chaser.text_content("[data-testid=reorder-shown]")
        assert "left" in chaser.text_content("[data-testid=reorder-left]")
        for page in (target, spectator):
            wait_until(page, "!document.querySelector('[data-testid=waiting]').hidden")
            assert "Waiting for a chaser: Albatros tails Camel" in page.text_content("[data-testid=waiting]")
            assert page.is_hidden("[data-testid=reorder]") and not (_view(page).get("choices") or {}).get("reorder")
        # ... and chooses: A4 one place earlier, then fly
        chaser.click("[data-testid=reorder-cards] button[data-card=A4]")
        order = chaser.eval_on_selector_all("[data-testid=reorder-cards] button", "els => els.map((e) => e.dataset.card)")
        assert order == ["A2", "A4", "A3"]
        version = _view(chaser)["version"]
        chaser.click("[data-testid=reorder-go]")
        wait_until(chaser, "(v) => window.furball.view().version !== v", arg=version)
        seconds = 0
        while (_view(chaser).get("choices") or {}).get("reorder"):  # the second card, if the tail holds: keep
            # every page shows the turn so far: the planes where the first maneuver left them
            for page in pages:
                wait_until(page, "(() => { const t = document.querySelector('.df-replay-title'); return t && "
                                 "t.textContent.includes('maneuver 1') && t.textContent.includes('/ 2)'); })()")
                assert _view(page)["view"]["public"]["flown"]["maneuvers"][0]["moves"]
            seconds += 1
            version = _view(chaser)["version"]
            chaser.click("[data-testid=reorder-keep]")
            wait_until(chaser, "(v) => window.furball.view().version !== v", arg=version)
        assert seconds == 1  # this duel's tail holds after the first maneuver: the second reveal was seen
        _replayed(chaser, 1)
        moves = [{mv["plane"]: mv["card"] for mv in m["moves"]} for m in _view(chaser)["view"]["private"]["replay"]["maneuvers"]]
        assert [m["Albatros"] for m in moves] == ["A2", "A4", "A3"]  # the move followed the new order
        # nothing the target or the spectator received before the move held the order or the card shown
        # (at a second reveal they hold the first maneuver as flown: its reveal with "shown": null)
        for who in ("P1", "spectator"):
            before = [f for f in frames[who] if '"replay": null' in f or '"replay":null' in f]
            assert before and all(not re.search(r'"(shown|before|after)": ?[^n ]', f) and "A2, A4, A3" not in f
                                  and '["A2","A4","A3"]' not in f and '["A2", "A4", "A3"]' not in f
                                  for f in before), who
        assert errors == []
    finally:
        for ctx in contexts:
            ctx.close()
        server.send_signal(signal.SIGTERM)
        server.wait(10)
