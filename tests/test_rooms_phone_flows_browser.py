"""Issue 34 "Done when": the room flows on 390x844 phones with touch (Playwright, Debian's
Chromium; every person a phone context of its own, every control tapped): the chaser's
reorder in a duel (DF.T2: the chaser taps its cards into a new order and the move
follows it), a chat line sent and seen, a take-back asked and accepted, a rematch after
the game (the new link offered on each seat's phone, opening the new room), and the whole
game's record stepped through (its controls reachable on the phone; "Back to the game"
returns to the live position without replaying the last turn again). After each update
the table's top stays where it was on the screen (the page never jumps to the log or the
chat) and nothing scrolls sideways. The desktop versions of these flows are in
test_dogfight_room_browser.py and test_rooms_social_browser.py, whose helpers this module
reuses. Skipped, with the reason, where no Chromium is installed."""
import pytest
from browser import chromium, chromium_missing, running_server, wait_until
from test_dogfight_room_browser import _replayed, _view, _wait_to_plan
from test_pages_phone_browser import PHONE, _scroll_to, _top
from test_rooms_social_browser import _act, _post, _room

from furball.scenarios.web import LOOPBACK_HOSTS, create_app
from furball.scenarios.web.app import ServerOptions

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(chromium_missing() is not None, reason=f"browser tests: {chromium_missing()}")]

TABLE = "[data-testid=table]"
SLOTS_FILLED = "(k) => document.querySelectorAll('.df-slots .slot:not(.empty)').length === k"


@pytest.fixture(scope="module")
def served():
    app = create_app(allowed_hosts=LOOPBACK_HOSTS, options=ServerOptions(bot_delay_s=0.0))
    with running_server(app) as base, chromium() as browser:
        yield base.rstrip("/"), browser


def _phones(browser, base, made, errors):
    """A phone page per seat, each in its own touch context, at the table."""
    pages = []
    for seat in made["seats"]:
        ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/rooms/{made['room']}#seat={seat['token']}")
        wait_until(page, "window.furball && window.furball.updates() > 0", timeout_s=20)
        wait_until(page, "(s) => document.querySelector(s)", arg=TABLE)
        pages.append(page)
    return pages


def _close(pages):
    for page in pages:
        page.context.close()


def _stays_at_the_table(page, at):
    """The table's top is where it was on the screen (CSS px), and nothing scrolls sideways."""
    page.wait_for_timeout(150)  # let a late scroll (if any) happen before measuring
    assert abs(_top(page, TABLE) - at) <= 2, (page.url, _top(page, TABLE), at)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate("window.scrollX") == 0


def _tap(page, selector, then, arg=None):
    """Tap ``selector`` (brought on the screen first, as a finger would scroll to it) and wait
    for ``then`` (the update it causes). The tapping page must not jump either: the table
    stays where it was on the screen, or, where the tapped control sits above the table and
    changes height (a take-back button becoming a line of text), the page did not scroll at
    all and the table only moved by that reflow; and nothing scrolls sideways."""
    target = page.locator(selector).first
    target.scroll_into_view_if_needed()
    at, scrolled = _top(page, TABLE), page.evaluate("window.scrollY")
    target.tap()
    wait_until(page, then, arg=arg, timeout_s=20)
    page.wait_for_timeout(150)
    if abs(_top(page, TABLE) - at) > 2:
        assert abs(page.evaluate("window.scrollY") - scrolled) <= 2, (selector, at, _top(page, TABLE))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate("window.scrollX") == 0


def _tap_cards(page, cards):
    for k, card in enumerate(cards):
        _tap(page, f"[data-testid=cards] button[data-card={card}]", SLOTS_FILLED, arg=k + 1)


def _tap_lock(page):
    _tap(page, "[data-testid=lock]", "(v) => window.furball.view().version !== v", arg=_view(page)["version"])


def test_DF_T2_on_phones_the_chaser_taps_a_new_order_and_the_move_follows_it(served):
    base, browser = served
    status, made = _post(f"{base}/api/rooms", {"game": "dogfight", "seed": 31, "seats": [None, None],
                                               "options": {"scenario": "duel", "swap_start": True}})
    assert status == 201
    errors = []
    target, chaser = pages = _phones(browser, base, made, errors)
    try:
        _wait_to_plan(target, 1)
        _tap_cards(target, ["A1", "A1", "A1"])
        at_target = _scroll_to(target, TABLE)
        _tap_lock(target)
        _wait_to_plan(chaser, 1)
        _tap_cards(chaser, ["A2", "A3", "A4"])
        at_chaser = _scroll_to(chaser, TABLE)  # both phones at the table while the updates come
        _tap_lock(chaser)
        # the reorder offered on the chaser's phone alone; neither page moved
        wait_until(chaser, "!document.querySelector('[data-testid=reorder]').hidden", timeout_s=20)
        wait_until(target, "!document.querySelector('[data-testid=waiting]').hidden")
        assert chaser.get_attribute("[data-testid=reorder-shown]", "data-card") == "A1"
        _stays_at_the_table(chaser, at_chaser)
        _stays_at_the_table(target, at_target)
        at_target = _top(target, TABLE)
        # the chaser taps A4 one place earlier, then flies (and keeps the order if asked again)
        chaser.locator("[data-testid=reorder-cards] button[data-card=A4]").tap()
        wait_until(chaser, "(want) => JSON.stringify([...document.querySelectorAll("
                           "'[data-testid=reorder-cards] button')].map((e) => e.dataset.card)) === want",
                   arg='["A2","A4","A3"]')
        _tap(chaser, "[data-testid=reorder-go]", "(v) => window.furball.view().version !== v",
             arg=_view(chaser)["version"])
        while (_view(chaser).get("choices") or {}).get("reorder"):
            _tap(chaser, "[data-testid=reorder-keep]", "(v) => window.furball.view().version !== v",
                 arg=_view(chaser)["version"])
        for page in pages:  # the turn flies: every phone replays it, the target's without moving
            wait_until(page, "window.furball.view().view.public.replay && "
                             "window.furball.view().view.public.replay.turn === 1", timeout_s=30)
        _stays_at_the_table(target, at_target)
        _replayed(chaser, 1)
        moves = [{mv["plane"]: mv["card"] for mv in m["moves"]}
                 for m in _view(chaser)["view"]["private"]["replay"]["maneuvers"]]
        assert [m["Albatros"] for m in moves] == ["A2", "A4", "A3"]  # the move followed the new order
        assert errors == []
    finally:
        _close(pages)


def test_on_phones_a_chat_line_is_seen_and_a_take_back_is_accepted_with_the_tables_kept(served):
    base, browser = served
    made = _room(base)
    errors = []
    p1, p2 = pages = _phones(browser, base, made, errors)
    try:
        at_p2 = _scroll_to(p2, TABLE)
        # a chat line typed and tapped on P1's phone, seen on P2's, which stays at its table
        p1.locator("[data-testid=chat-text]").tap()
        p1.fill("[data-testid=chat-text]", "à vous")
        _tap(p1, "[data-testid=chat-send]", "document.querySelectorAll('[data-testid=chat] li').length === 1")
        wait_until(p2, "document.querySelectorAll('[data-testid=chat] li').length === 1")
        assert p2.inner_text("[data-testid=chat] li").startswith("P1:") and "à vous" in p2.inner_text("[data-testid=chat] li")
        _stays_at_the_table(p2, at_p2)
        # P1 locks (through HTTP), then asks on its phone to take it back; P2 taps accept
        _act(base, made, 0)
        wait_until(p2, "JSON.stringify(window.furball.view().awaited) === '[1]'")
        _stays_at_the_table(p2, at_p2)
        _tap(p1, "[data-take-back=ask]", "!!window.furball.view().take_back")
        at_p1 = _scroll_to(p1, TABLE)  # P1 watches P2's answer from its table
        wait_until(p2, "document.querySelector('[data-take-back=accept]') !== null")
        _stays_at_the_table(p2, at_p2)
        _tap(p2, "[data-take-back=accept]", "JSON.stringify(window.furball.view().awaited) === '[0,1]'")
        for page, at in ((p1, at_p1), (p2, None)):
            wait_until(page, "JSON.stringify(window.furball.view().awaited) === '[0,1]'")
            wait_until(page, "window.furball.log().some((l) => l.lines.some((t) => t.includes('is taken back')))")
            if at is not None:
                _stays_at_the_table(page, at)
        assert p1.evaluate("window.furball.view().can_take_back") is False
        assert errors == []
    finally:
        _close(pages)


def _inside_the_phone(page, selector):
    """``selector`` lies within the phone's width (reachable without scrolling sideways)."""
    box = page.locator(selector).first.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, (selector, box)


def test_on_phones_a_rematch_after_the_game_is_offered_on_each_seat_and_opens_the_new_room(served):
    base, browser = served
    made = _room(base, turn_limit=1)
    errors = []
    p1, p2 = pages = _phones(browser, base, made, errors)
    try:
        _act(base, made, 0)
        _act(base, made, 1)
        for page in pages:
            wait_until(page, "window.furball.view().terminal", timeout_s=30)
        _tap(p1, "[data-testid=rematch] button", "document.querySelector('[data-testid=rematch] a') !== null")
        for page, seat in ((p2, 1), (p1, 0)):  # the new link on each seat's phone, tapped there
            wait_until(page, "document.querySelector('[data-testid=rematch] a') !== null", timeout_s=20)
            link = page.locator("[data-testid=rematch] a").first
            link.scroll_into_view_if_needed()
            _inside_the_phone(page, "[data-testid=rematch] a")
            link.tap()
            wait_until(page, f"!location.pathname.endsWith('{made['room']}') && window.furball && window.furball.view() "
                             f"&& window.furball.view().seat === {seat} && !window.furball.view().terminal", timeout_s=20)
            wait_until(page, "(s) => document.querySelector(s)", arg=TABLE)
        assert p1.evaluate("location.pathname") == p2.evaluate("location.pathname")
        assert errors == []
    finally:
        _close(pages)


def test_on_phones_the_whole_game_record_steps_with_the_table_in_place_and_back_to_the_game_replays_nothing(served):
    base, browser = served
    status, made = _post(f"{base}/api/rooms", {"game": "dogfight", "seed": 3, "seats": ["random", "random"],
                                               "options": {"reorder": "policy", "turn_limit": 2}})
    assert status == 201
    errors = []
    (page,) = pages = _phones(browser, base, {**made, "seats": made["seats"][:1]}, errors)
    try:
        wait_until(page, "window.furball.view().terminal", timeout_s=60)
        _replayed(page, page.evaluate("window.furball.view().view.public.turn") - 1)
        _tap(page, "#record-box summary", "document.getElementById('record-box').open")
        _tap(page, "[data-testid=record-open]", "document.body.dataset.record === 'open'")
        for control in ("[data-testid=record-back]", "#record-slider", "[data-testid=record-next]",
                        "[data-testid=record-close]"):
            _inside_the_phone(page, control)
        last = int(page.evaluate("document.body.dataset.recordStep"))
        assert last >= 3
        at = _scroll_to(page, TABLE)  # the table at the top of the screen, the step controls at its foot
        step = "(n) => document.body.dataset.recordStep === String(n)"
        for n in range(last - 1, -1, -1):  # every step, backwards then forwards, each tapped
            _tap(page, "[data-testid=record-back]", step, arg=n)
            _stays_at_the_table(page, at)
        for n in range(1, last + 1):
            _tap(page, "[data-testid=record-next]", step, arg=n)
            _stays_at_the_table(page, at)
        page.fill("#record-slider", "0")  # the set-up, then back to the game as it is now
        wait_until(page, step, arg=0)
        _tap(page, "[data-testid=record-close]", "document.body.dataset.record === 'closed'")
        page.wait_for_timeout(400)
        assert page.evaluate("document.querySelector('.df').dataset.replay") == "closed"  # no replay again
        assert errors == []
    finally:
        _close(pages)
