"""Issue #23: the card games' pages played in real browsers (Playwright, Debian's
Chromium), each person in their own browser context, choosing every action by clicking
the pieces it concerns (or its button when it concerns none): a whole Operation Canuck
game (a solitaire), a whole 2-crew 1942 USS Yorktown game with one person and one bot,
and a 3-player 1975 White Christmas game with two people and a bot — each reaching the
same final result as the engine given the same actions. Skipped, with the reason, where
no Chromium is installed."""
import json

import pytest
from browser import chromium, chromium_missing, running_server, wait_until
from card_pages import bot_choice, catch_up, click_action, view, wait_for_turn

from furball.scenarios.web import create_app
from furball.scenarios.web.app import ServerOptions
from furball.scenarios.web.rooms import Room

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(chromium_missing() is not None, reason=f"browser tests: {chromium_missing()}")]


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def server():
    app = create_app(options=ServerOptions(bot_delay_s=0.0))
    with running_server(app) as url:
        yield app, url


def _create(page, url, game, options, seats, seed):
    """The room made through the lobby; its links (owner, seats..., spectators)."""
    page.goto(f"{url}rooms")
    wait_until(page, "document.body.dataset.ready === 'yes'")
    page.select_option("#game", game)
    for name, value in options.items():
        page.select_option(f'[data-option="{name}"]', str(value))
    wait_until(page, "(n) => document.body.dataset.seats === String(n) && "
                     "document.querySelectorAll('[data-seat]').length === n", arg=len(seats))
    for i, who in enumerate(seats):
        page.select_option(f'[data-seat="{i}"]', who or "")
    page.click("details summary")
    page.fill("#seed", str(seed))
    page.click("#create-room")
    page.wait_for_selector("#made:not([hidden])")
    return page.eval_on_selector_all("#links input", "els => els.map((e) => e.value)")


def _play(app, pages, room_id, policy, most):
    """Every person's decision chosen on their page by clicking; a mirror of the room
    (built from the same spec, bots deciding as the room's bots) follows. Returns the
    mirror at the end and how the actions were chosen."""
    spec = app.state.store.load(room_id).spec
    mirror = catch_up(Room.new(spec))
    how = []
    while not mirror.terminal:
        assert len(how) < most
        seat = mirror.to_act
        page = pages[seat]
        wait_for_turn(page, mirror.view_version(seat))  # the seat's own version (issue #35)
        index = bot_choice(mirror, policy, seat)
        how.append(click_action(page, index))
        mirror, _ = mirror.act(seat, index, mirror.view_version(seat))
        mirror = catch_up(mirror)
    return mirror, how


def _same_end(app, pages, room_id, mirror):
    for seat, page in enumerate(pages):
        wait_until(page, "window.furball.view().terminal", timeout_s=20)
        got = view(page)
        want = json.loads(json.dumps(mirror.view(seat)))
        assert got["outcome"] == want["outcome"] and got["result"] == want["result"]
        assert got["view"] == want["view"]
    stored = app.state.store.load(room_id)
    again = Room.replay(stored.spec, stored.events)  # the engine given the same actions
    assert again.state.result() == mirror.state.result() and again.state.outcome() == mirror.state.outcome()


def test_CN_a_whole_canuck_game_played_by_clicking_the_pieces(browser, server):
    app, url = server
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    errors = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        links = _create(page, url, "canuck", {}, [None], 1)
        page.goto(links[1])
        wait_until(page, "window.furball.updates() > 0")
        room_id = view(page)["room"]
        mirror, how = _play(app, [page], room_id, "heuristic", 400)
        _same_end(app, [page], room_id, mirror)
        assert how.count("pieces") >= 10 and "button" in how  # areas, tokens, cards; Train, resolve ...
        assert errors == []
    finally:
        ctx.close()


def test_YT_a_whole_two_crew_yorktown_game_with_a_person_and_a_bot(browser, server):
    app, url = server
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    errors = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        links = _create(page, url, "yorktown", {"players": 2, "clock": "simulated"}, [None, "heuristic"], 3)
        page.goto(links[1])
        wait_until(page, "window.furball.updates() > 0")
        room_id = view(page)["room"]
        mirror, how = _play(app, [page, None], room_id, "heuristic", 300)
        _same_end(app, [page], room_id, mirror)
        assert how.count("pieces") >= 10  # action cards, Dauntless tokens, islands
        assert errors == []
    finally:
        ctx.close()


def test_WC_a_three_player_white_christmas_game_with_two_people_and_a_bot(browser, server):
    """WC.F1-WC.F7: P1 and P2 are people, each in their own browser context, P3 the
    heuristic bot; every decision of the people is chosen on their page by clicking the
    row slot, staircase, hand card, radar token, helicopter, landing slot, People token,
    order or upgrade it concerns (a button when it concerns none). Neither page ever
    holds the other's hand or radar values."""
    app, url = server
    owner = browser.new_context(viewport={"width": 1200, "height": 900})
    contexts, errors = [owner], []
    try:
        lobby = owner.new_page()
        links = _create(lobby, url, "white-christmas", {"players": 3}, [None, None, "heuristic"], 5)
        pages = []
        for link in links[1:3]:
            ctx = browser.new_context(viewport={"width": 1200, "height": 900})
            contexts.append(ctx)
            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(link)
            wait_until(page, "window.furball.updates() > 0")
            pages.append(page)
        room_id = view(pages[0])["room"]
        mirror, how = _play(app, pages + [None], room_id, "heuristic", 400)
        _same_end(app, pages, room_id, mirror)
        assert how.count("pieces") >= 40 and "button" in how
        for seat, page in enumerate(pages):  # the other person's hand is nowhere on this page
            other = mirror.state.private[1 - seat]
            names = {f"card:{c}" for c in other.hand}
            ids = set(page.eval_on_selector_all("[data-id]", "els => els.map((e) => e.dataset.id)"))
            assert not names & ids
        assert errors == []
    finally:
        for ctx in contexts:
            ctx.close()
