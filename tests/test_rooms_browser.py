"""Issue #22: a White Christmas room played in real browsers (Playwright, Debian's
Chromium), one browser context per person: the owner creates the room in the lobby, two
people play through the first round from their own links (a bot plays the third seat),
the server is killed with SIGKILL mid-round and started again on the same database, the
pages reconnect by themselves, and the round ends exactly as an uninterrupted run of the
same room ends. Skipped, with the reason, where no Chromium is installed."""
import json
import signal
import time

import pytest
from browser import chromium, chromium_missing, free_port, restart_after_sigkill, serve_process, wait_until

from furball.scenarios.web.rooms import Room
from furball.scenarios.web.store import SQLiteStore

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(chromium_missing() is not None, reason=f"browser tests: {chromium_missing()}")]

SEED = 2024


@pytest.fixture
def browser():
    with chromium() as b:
        yield b


def _round(page):
    v = page.evaluate("window.furball.view()")
    return v["view"]["public"]["round"] if v else 0


def _play(pages, until, acted, clicks_at_most):
    """The person to act clicks the first action (the engine's first legal action), again
    and again, until ``until()``; returns the number of clicks. ``acted``: the (page,
    version) pairs already acted in (each seat's version is its own)."""
    clicks = 0
    while not until():
        assert clicks < clicks_at_most
        deadline = time.monotonic() + 15
        while True:
            views = [(p, p.evaluate("window.furball.view()")) for p in pages]
            ready = [(i, p, v) for i, (p, v) in enumerate(views)
                     if v and v.get("legal") and (i, v["version"]) not in acted]
            if ready or until():
                break
            assert time.monotonic() < deadline, "nobody can act"
            time.sleep(0.03)
        if not ready:
            break
        i, page, v = ready[0]
        acted.add((i, v["version"]))
        _click_first(page)
        clicks += 1
    return clicks


def _click_first(page):
    """Click the engine's first legal action on a card game's page: in its list of every
    legal action (the engine's words, folded under the table's own choices)."""
    page.evaluate("document.querySelector('[data-testid=card-game] .bd-all').open = true")
    page.click('[data-testid=card-game] .bd-all button[data-any="0"]')


def _settled(pages, acted):
    """Wait until every page shows the same table and a person may act in a position
    nobody has acted in yet (the last click is then stored and shown everywhere);
    returns every page's view."""
    deadline = time.monotonic() + 15
    while True:
        views = [p.evaluate("window.furball.view()") for p in pages]
        same = len({json.dumps(v["view"]["public"], sort_keys=True) for v in views}) == 1
        if same and any(v.get("legal") and (i, v["version"]) not in acted for i, v in enumerate(views)):
            return views
        assert time.monotonic() < deadline, "the room did not settle"
        time.sleep(0.03)


def _uninterrupted(spec, events_wanted):
    """The same room played without a break: people take the first legal action, the bot
    decides; ``events_wanted`` events."""
    room = Room.new(spec)
    while room.version < events_wanted:
        room = room.bot_event()[0] if room.bot_to_act() else room.act(room.to_act, 0, room.view_version(room.to_act))[0]
    return room


def test_a_white_christmas_room_survives_sigkill_mid_round(browser, tmp_path):
    port = free_port()
    db = tmp_path / "rooms.sqlite3"
    server, url = serve_process(db, tmp_path / "data", port)
    contexts = []
    try:
        # the owner creates the room in the lobby: P1 and P2 people, P3 the heuristic bot
        owner = browser.new_context(viewport={"width": 1200, "height": 800})
        contexts.append(owner)
        lobby = owner.new_page()
        errors = []
        lobby.on("pageerror", lambda e: errors.append(str(e)))
        lobby.goto(f"{url}/rooms")
        wait_until(lobby, "document.body.dataset.ready === 'yes'")
        lobby.select_option("#game", "white-christmas")
        lobby.select_option('[data-option="players"]', "3")
        lobby.select_option('[data-seat="0"]', "")
        lobby.select_option('[data-seat="1"]', "")
        lobby.select_option('[data-seat="2"]', "heuristic")
        lobby.click("details summary")
        lobby.fill("#seed", str(SEED))
        lobby.click("#create-room")
        lobby.wait_for_selector("#made:not([hidden])")
        links = lobby.eval_on_selector_all("#links input", "els => els.map((e) => e.value)")
        assert len(links) == 5 and "#owner=" in links[0] and "#seat=" in links[1] and "#" not in links[4]
        # each person in their own browser context (own storage, own connection)
        pages = []
        for link in links[1:3]:
            ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
            contexts.append(ctx)
            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(link)
            wait_until(page, "window.furball.updates() > 0")
            pages.append(page)
        assert pages[0].evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
        height = pages[0].evaluate("document.querySelector('[data-testid=card-game] .bd-all summary').getBoundingClientRect().height")
        assert height >= 44  # touch targets
        assert pages[0].text_content("#who") == "you are P1" and pages[1].text_content("#who") == "you are P2"
        assert "Your turn" in pages[0].text_content("#turn") and "P1 to act" in pages[1].text_content("#turn")

        acted = set()
        _play(pages, lambda: len(acted) >= 12, acted, 40)
        before = _settled(pages, acted)[0]["view"]["public"]
        assert before["round"] == 1

        server = restart_after_sigkill(server, db, tmp_path / "data", port, pages)  # mid-turn, no goodbye
        assert _settled(pages, acted)[0]["view"]["public"] == before  # nothing lost

        _play(pages, lambda: all(_round(p) >= 2 for p in pages), acted, 200)
        final = _settled(pages, acted)
        assert errors == []
    finally:
        for ctx in contexts:
            ctx.close()
        server.send_signal(signal.SIGTERM)
        server.wait(10)

    stored = SQLiteStore(db).load(final[0]["room"])
    assert stored.spec.seed == SEED and stored.spec.controllers == (None, None, "heuristic")
    straight = _uninterrupted(stored.spec, len(stored.events))
    assert [e.text for e in stored.events] == [e.text for e in straight.events]
    for seat, v in enumerate(final):
        want = json.loads(json.dumps(straight.view(seat)))
        assert v["view"] == want["view"] and v["to_act"] == want["to_act"]


def test_the_owner_hands_a_seat_to_a_bot_and_a_spectator_sees_the_public_table(browser):
    from browser import running_server

    from furball.scenarios.web import create_app
    from furball.scenarios.web.app import ServerOptions

    with running_server(create_app(options=ServerOptions(bot_delay_s=0.0))) as url:
        ctx = browser.new_context()
        try:
            lobby = ctx.new_page()
            lobby.goto(f"{url}rooms")
            wait_until(lobby, "document.body.dataset.ready === 'yes'")
            lobby.select_option('[data-seat="1"]', "")  # two people
            lobby.click("#create-room")
            lobby.wait_for_selector("#made:not([hidden])")
            owner_link, p1_link, _, watch_link = lobby.eval_on_selector_all("#links input",
                                                                           "els => els.map((e) => e.value)")
            owner, p1, watcher = ctx.new_page(), browser.new_page(), browser.new_page()
            for page, link in ((owner, owner_link), (p1, p1_link), (watcher, watch_link)):
                page.goto(link)
                wait_until(page, "window.furball.updates() > 0")
            assert owner.text_content("#who") == "owner (watching)" and watcher.text_content("#who") == "spectator"
            assert watcher.locator("#actions button").count() == 0 and watcher.locator('[data-control]').count() == 0
            assert "Your hand" not in watcher.text_content("#game-view")  # the public table only
            assert "Your hand" in p1.text_content("#game-view")
            wait_until(owner, "window.furball.view().seats.length === 2 && "
                              "document.querySelectorAll('[data-control]').length === 2")
            owner.click('[data-control="0"]')  # P1 stepped away: the heuristic bot plays it
            wait_until(p1, "window.furball.log().some((l) => l.seat === 0 && l.action)")
            assert "bot: heuristic" in p1.text_content("#seats")
            owner.click('[data-control="0"]')  # and back
            wait_until(p1, "!window.furball.view().seats[0].bot")
        finally:
            ctx.close()


def test_the_owner_deletes_a_room_from_the_lobby(browser):
    """Issue #35 item 5: "Your rooms" offers the owner a Delete button; after the
    confirmation the room is gone on the server and from the list."""
    import httpx2 as httpx
    from browser import running_server

    from furball.scenarios.web import create_app
    from furball.scenarios.web.app import ServerOptions

    with running_server(create_app(options=ServerOptions(bot_delay_s=0.0))) as url:
        page = browser.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(f"{url}rooms")
        wait_until(page, "document.body.dataset.ready === 'yes'")
        page.click("#create-room")
        page.wait_for_selector("#made:not([hidden])")
        room = page.evaluate("JSON.parse(localStorage.getItem('furball.rooms'))[0].room")
        assert httpx.get(f"{url}api/rooms/{room}").status_code == 200
        page.click("#my-rooms button:has-text('Delete')")
        wait_until(page, "document.querySelectorAll('#my-rooms li').length === 0")
        assert httpx.get(f"{url}api/rooms/{room}").status_code == 404
        assert "deleted" in page.text_content("#message")
        page.close()
