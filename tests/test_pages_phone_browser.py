"""Issues #22 item 4 and #23: every game's room page on a 390 px phone (Playwright,
Debian's Chromium, a touch screen): no sideways scrolling, every control a finger can hit
(at least 44 px each way) inside the screen, the table inside the screen, panels that
fold away. A screenshot of each is saved with the test's files. Skipped, with the reason,
where no Chromium is installed."""
import pytest
from browser import chromium, chromium_missing, running_server, wait_until

from furball.scenarios.web import create_app
from furball.scenarios.web.app import ServerOptions

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(chromium_missing() is not None, reason=f"browser tests: {chromium_missing()}")]

PHONE = {"width": 390, "height": 844}

ROOMS = [("canuck", {}, [None]), ("yorktown", {"players": 2}, [None, "heuristic"]),
         ("white-christmas", {"players": 3}, [None, "heuristic", "heuristic"]),
         ("dogfight", {"scenario": "duel"}, [None, "planner"])]

CONTROLS = """() => {
  const out = [];
  const what = '#play button, #play summary, #play select, #play input, #play a, #play .hits [data-id], ' +
               '#side summary, header button, header a';
  for (const e of document.querySelectorAll(what)) {
    const r = e.getBoundingClientRect();
    if (!r.width && !r.height) continue;  // folded away
    out.push({what: (e.dataset.testid || e.dataset.id || e.textContent || e.tagName).trim().slice(0, 40),
              tag: e.tagName, w: r.width, h: r.height, left: r.left, right: r.right});
  }
  return out;
}"""


@pytest.fixture(scope="module")
def server():
    app = create_app(options=ServerOptions(bot_delay_s=0.0))
    with running_server(app) as url, chromium() as browser:
        yield app, url, browser


@pytest.mark.parametrize("game, options, seats", ROOMS, ids=[r[0] for r in ROOMS])
def test_a_rooms_page_is_usable_on_a_390_px_phone(server, game, options, seats, tmp_path):
    app, url, browser = server
    import json
    import urllib.request

    body = json.dumps({"game": game, "options": options, "seed": 11, "seats": seats}).encode()
    made = json.loads(urllib.request.urlopen(urllib.request.Request(
        f"{url}api/rooms", data=body, headers={"Content-Type": "application/json"})).read())
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    try:
        page = ctx.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}rooms/{made['room']}#seat={made['seats'][0]['token']}")
        wait_until(page, "(() => { const v = window.furball.view(); return v && v.version !== undefined; })()",
                   timeout_s=20)
        table = "[data-testid=table]" if game == "dogfight" else "[data-testid=board]"
        piece = "[data-plane]" if game == "dogfight" else "[data-id]"
        wait_until(page, f"document.querySelectorAll('{table} {piece}').length > 1")
        page.screenshot(path=str(tmp_path / f"{game}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scrolling
        box = page.eval_on_selector(table, "e => { const r = e.getBoundingClientRect(); "
                                           "return {left: r.left, right: r.right, h: r.height}; }")
        assert box["left"] >= 0 and box["right"] <= PHONE["width"] and box["h"] >= 250  # the table fits, big enough
        controls = page.evaluate(CONTROLS)
        assert len(controls) >= 5
        small = [c for c in controls if min(c["w"], c["h"]) < 44]
        outside = [c for c in controls if c["left"] < 0 or c["right"] > PHONE["width"] + 0.5]
        assert not small, small[:5]
        assert not outside, outside[:5]
        folds = page.locator("#play details").count()
        assert folds >= 2  # panels that fold away
        assert errors == []
    finally:
        ctx.close()
