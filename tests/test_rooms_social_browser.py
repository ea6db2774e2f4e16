"""Issue 34 items 6, 8 and 11 in real browsers (Playwright, Debian's Chromium), one browser
context per person, in a two-seat dogfight duel: a chat line written on P1's page appears
on P2's and a spectator's (as text, never as HTML); a take-back asked on P1's page and
accepted on P2's returns the room to the set-up; after the game, a rematch clicked on
P1's page is offered on P2's, and both pages reach their own seats in the new room.
Moves are made through the rooms' HTTP API (the dogfight page has its own tests).
Skipped, with the reason, where no Chromium is installed."""
import json
import urllib.request

import pytest
from browser import chromium, chromium_missing, running_server, wait_until

from furball.scenarios.web import LOOPBACK_HOSTS, create_app
from furball.scenarios.web.app import ServerOptions

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(chromium_missing() is not None, reason=f"browser tests: {chromium_missing()}")]


@pytest.fixture(scope="module")
def served():
    app = create_app(allowed_hosts=LOOPBACK_HOSTS, options=ServerOptions(bot_delay_s=0.0))
    with running_server(app) as base, chromium() as browser:
        yield base.rstrip("/"), browser


def _post(url, body, token=None):
    """POST ``body`` as JSON; the answer's status and JSON (a refusal raises)."""
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status, json.loads(answer.read())


def _room(base, **options):
    status, made = _post(f"{base}/api/rooms", {"game": "dogfight", "seed": 7, "options": {"scenario": "duel", "reorder": "policy"} | options})
    assert status == 201
    return made


def _pages(browser, base, made, spectator=False):
    """A page per seat (and a spectator's), each in its own browser context."""
    links = [f"{base}/rooms/{made['room']}#seat={s['token']}" for s in made["seats"]]
    if spectator:
        links.append(f"{base}/rooms/{made['room']}")
    pages = []
    for link in links:
        page = browser.new_context(viewport={"width": 1100, "height": 800}).new_page()
        page.goto(link)
        wait_until(page, "window.furball && window.furball.view()")
        pages.append(page)
    return pages


def _act(base, made, seat, action=0):
    """Seat ``seat`` locks a plan through HTTP (in a duel's first turn every seat's view
    version is 0: another seat's lock gives it no log line)."""
    assert _post(f"{base}/api/rooms/{made['room']}/act", {"version": 0, "action": action},
                 made["seats"][seat]["token"])[0] == 200


def _close(pages):
    for page in pages:
        page.context.close()


def test_a_chat_line_is_seen_by_the_other_seat_and_a_spectator_as_text(served):
    base, browser = served
    made = _room(base)
    p1, p2, watcher = _pages(browser, base, made, spectator=True)
    try:
        assert wait_until(watcher, "document.getElementById('chat-form').hidden")  # spectators read only
        p1.fill("[data-testid=chat-text]", "<img src=x onerror=alert(1)> à vous")
        p1.click("[data-testid=chat-send]")
        for page in (p2, watcher, p1):
            wait_until(page, "document.querySelectorAll('[data-testid=chat] li').length === 1")
            text = page.inner_text("[data-testid=chat] li")
            assert text.startswith("P1:") and "<img src=x onerror=alert(1)> à vous" in text
            assert page.evaluate("document.querySelector('[data-testid=chat] img')") is None
    finally:
        _close([p1, p2, watcher])


def test_a_take_back_asked_and_accepted_returns_the_room_to_the_set_up(served):
    base, browser = served
    made = _room(base)
    p1, p2 = _pages(browser, base, made)
    try:
        _act(base, made, 0)
        wait_until(p2, "JSON.stringify(window.furball.view().awaited) === '[1]'")
        p1.click("[data-take-back=ask]", timeout=10_000)
        p2.click("[data-take-back=accept]", timeout=10_000)
        for page in (p1, p2):
            wait_until(page, "JSON.stringify(window.furball.view().awaited) === '[0,1]'")
            wait_until(page, "window.furball.log().some((l) => l.lines.some((t) => t.includes('is taken back')))")
        assert p1.evaluate("window.furball.view().can_take_back") is False
    finally:
        _close([p1, p2])


def test_a_rematch_clicked_by_one_seat_is_reached_by_both(served):
    base, browser = served
    made = _room(base, turn_limit=1)
    p1, p2 = _pages(browser, base, made)
    try:
        _act(base, made, 0)
        _act(base, made, 1)
        wait_until(p1, "window.furball.view().terminal")
        p1.click("[data-testid=rematch] button", timeout=10_000)
        for page, seat in ((p2, 1), (p1, 0)):
            page.click("[data-testid=rematch] a", timeout=10_000)
            wait_until(page, f"!location.pathname.endsWith('{made['room']}') && window.furball && window.furball.view() && "
                             f"window.furball.view().seat === {seat} && !window.furball.view().terminal")
        assert p1.evaluate("location.pathname") == p2.evaluate("location.pathname")
    finally:
        _close([p1, p2])
