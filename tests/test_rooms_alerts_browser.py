"""Issue 34 items 3 and 7 in Chromium (one browser context per person, a dogfight duel):
the tab's title and favicon badge say "your turn" while the seat must act and stop once
it has locked in; cards picked but not locked survive a reload (kept in the seat's
browser); the "locked in" notice and the Best-plans results of a turn are gone once the
next turn starts; and the last turn's replay plays again after a reload. Skipped, with
the reason, where no Chromium is installed."""
import json
import re
import urllib.request

import pytest
from browser import chromium, chromium_missing, running_server, wait_until
from test_dogfight_room_browser import _lock, _replayed, _wait_to_plan

from furball.scenarios.web import create_app
from furball.scenarios.web.app import ServerOptions

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(chromium_missing() is not None, reason=f"browser tests: {chromium_missing()}")]

YOUR_TURN = "document.title.startsWith('▶ Your turn') && document.body.dataset.yourTurn === 'yes' && " \
            "document.querySelector('link[rel=icon]').dataset.badge === 'yes'"
NOT_YOUR_TURN = "!document.title.includes('Your turn') && document.body.dataset.yourTurn === 'no' && " \
                "document.querySelector('link[rel=icon]').dataset.badge === 'no'"


NOTIFICATIONS = """
window.notes = [];
window.Notification = class {
  constructor(title, options) { window.notes.push([title, options.body]); }
  static get permission() { return window.notePermission || "default"; }
  static requestPermission() { window.notePermission = "granted"; return Promise.resolve("granted"); }
};
document.hasFocus = () => false;
"""
"""The Notification API recorded (a headless browser shows none), the page never focused."""


def _slots(page):
    return page.eval_on_selector_all(".df-slots .slot:not(.empty)", "els => els.map((e) => e.textContent)")


BEST = {"job": "j", "state": "done", "done": 2, "total": 2, "seconds": 0.1, "result": {"plane": "Camel", "top": [
    {"plan": ["A1", "A2", "A3"], "score": 1.0, "shots_given": {"short": 0.5, "long": 0.5},
     "shots_taken": {"short": 0.1, "long": 0.1}, "p_collision": 0.0, "p_leave": 0.0}]}}
"""A finished Best-plans job as the server answers it (the pool's search itself, tens of
seconds on a loaded machine, is tested elsewhere: this is about where its results go)."""


def _best_plans(page):
    # the room's calls carry the page's language (?lang=..., docs/i18n.md)
    page.route(re.compile(r"/analysis(\?|$)"), lambda route: route.fulfill(status=202, content_type="application/json",
                                                          body=json.dumps(BEST)))
    page.click("details.df-best summary")
    page.click("[data-testid=best-plans]")
    # asked on the room's socket (issue 36): the pool's real answer, the HTTP stub only where the socket is down
    wait_until(page, "document.querySelector('.df').dataset.best === 'done'", timeout_s=90)


def _pick(page, n):
    for k in range(len(_slots(page)), n):
        page.locator("[data-testid=cards] button").first.click()
        wait_until(page, "(k) => document.querySelectorAll('.df-slots .slot:not(.empty)').length === k", arg=k + 1)
    return _slots(page)


def test_your_turn_title_and_badge_picks_kept_over_a_reload_notices_of_their_turn_only():
    app = create_app(options=ServerOptions(bot_delay_s=0.0))
    with running_server(app) as url, chromium() as browser:
        body = json.dumps({"game": "dogfight", "seed": 77, "options": {"scenario": "duel", "reorder": "policy"}}).encode()
        request = urllib.request.Request(f"{url}api/rooms", data=body, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=20) as answer:
            made = json.load(answer)
        pages, errors = [], []
        for seat in made["seats"]:
            page = browser.new_context(viewport={"width": 1100, "height": 850}).new_page()
            page.add_init_script(NOTIFICATIONS)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{url}rooms/{made['room']}#seat={seat['token']}")
            wait_until(page, "window.furball.updates() > 0")
            pages.append(page)
        p1, p2 = pages
        for page in pages:  # both plan at once (DF.M1): both are told
            _wait_to_plan(page, 1)
            wait_until(page, YOUR_TURN)
        p1.click("details#alerts-box summary")
        p1.click("[data-alert=notify]")  # opt in: the permission is asked on this click
        p1.click("[data-alert=sound]")
        wait_until(p1, "document.querySelector('[data-alert=notify]').textContent.endsWith(': on') && "
                       "document.querySelector('[data-alert=sound]').textContent.endsWith(': on')")
        assert p1.evaluate("JSON.parse(localStorage.getItem('furball.alerts'))") == {"notify": True, "sound": True}

        picked = _pick(p2, 2)  # P2 picks two cards, then reloads: they are still picked
        p2.reload()
        wait_until(p2, "window.furball.updates() > 0")
        _wait_to_plan(p2, 1)
        assert _slots(p2) == picked
        kept = p2.evaluate("Object.entries(localStorage).filter(([k]) => k.startsWith('furball.picks|'))")
        assert [(k, list(json.loads(v).values())) for k, v in kept] == [(f"furball.picks|{made['room']}|1|1", [picked])]

        _best_plans(p1)  # P1's Best plans and its "locked in" notice belong to turn 1
        _pick(p1, 3)
        _lock(p1)
        wait_until(p1, NOT_YOUR_TURN)  # locked in: no longer P1's turn...
        assert p2.evaluate(YOUR_TURN)  # ...still P2's
        assert "locked in" in p1.text_content("#message")
        assert p1.locator(".df-best-list li").count() > 0

        _pick(p2, 3)
        _lock(p2)  # the last lock flies the turn
        for page in pages:
            _replayed(page, 1)
            _wait_to_plan(page, 2)
            wait_until(page, YOUR_TURN)
        assert p1.text_content("#message") == "" and p1.locator(".df-best-list li").count() == 0
        assert p1.evaluate("window.notes") == [["furball: your turn", "Dogfight"]]  # P1 opted in, P2 did not
        assert p2.evaluate("window.notes") == []
        assert p2.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('furball.picks|'))") == []

        p1.reload()  # the last turn's replay plays again after a reload
        wait_until(p1, "window.furball.updates() > 0")
        _replayed(p1, 1)
        assert errors == []
