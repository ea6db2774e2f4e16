"""Best plans follow a dragged plane in a dogfight room (issue 36.1; docs/rooms.md, "Best
plans while dragging"), in Chromium: with the Best plans panel open, the seat drags the
enemy across its table; the plans are asked again on the room's socket as it moves, the
answers pushed back, and an answer to a request the drag has already replaced is dropped
(the page shows the last one asked). Skipped, with the reason, where no Chromium is
installed."""
import json
import time
import urllib.request

import pytest
from browser import chromium, chromium_missing, open_best_plans, press_on_plane, running_server, wait_until

from furball.scenarios.web import create_app
from furball.scenarios.web.app import ServerOptions

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(chromium_missing() is not None, reason=f"browser tests: {chromium_missing()}")]


def test_best_plans_follow_a_dragged_plane_and_stale_answers_are_dropped(monkeypatch):
    """The server's answers are slowed to at least 0.3 s, so that the drag (a request at
    most every 0.1 s) outruns them on any machine: the analysis itself may answer within
    0.1 s, and then no answer would ever be stale."""
    from furball.scenarios.web.views import dogfight as view

    answer = view.best_plans

    def slowly(*args, **kwargs):
        time.sleep(0.3)
        return answer(*args, **kwargs)

    monkeypatch.setattr(view, "best_plans", slowly)  # the server runs here, its pool in threads (workers=0)
    app = create_app(options=ServerOptions(bot_delay_s=0.0))
    with running_server(app) as url, chromium() as browser:
        body = json.dumps({"game": "dogfight", "seed": 5, "seats": [None, None]}).encode()
        request = urllib.request.Request(f"{url}api/rooms", body, {"Content-Type": "application/json"})
        made = json.load(urllib.request.urlopen(request))
        errors = []
        page = open_best_plans(browser, url, made["room"], made["seats"][0]["token"], "Albatros", errors, timeout_s=30)
        assert page.evaluate("document.querySelector('.df').dataset.bestShown") == "1"
        plane = page.locator('g.plane[data-plane="Albatros"]')
        before = float(plane.get_attribute("data-x"))
        x, y = press_on_plane(page, "Albatros")
        for k in range(1, 16):  # about 0.75 s of dragging: several requests, each replacing the last
            page.mouse.move(x - 4 * k, y + 2 * k)
            page.wait_for_timeout(50)
        page.mouse.up()
        wait_until(page, "(() => { const d = document.querySelector('.df').dataset; return d.moved === 'Albatros' && "
                         "Number(d.bestAsked) > 2 && d.bestShown === d.bestAsked; })()", timeout_s=60)
        d = page.evaluate("({...document.querySelector('.df').dataset})")
        assert int(d["bestDropped"]) >= 1, d  # an answer arrived after a newer request was out: not shown
        wait_until(page, "document.querySelector('.df').dataset.bestDrawnMs !== undefined", timeout_s=10)
        d = page.evaluate("({...document.querySelector('.df').dataset})")
        assert float(d["bestRoundMs"]) > 0 and float(d["bestDrawnMs"]) >= 0, d  # the page's clocks, for bench_web
        assert page.locator(".df-best-list button").count() == 5
        assert float(plane.get_attribute("data-x")) < before - 10  # drawn where it was dragged (to the left)
        page.click("[data-testid=put-back]")
        wait_until(page, "document.querySelector('.df').dataset.moved === '' && "
                         "document.querySelector('.df').dataset.bestShown === document.querySelector('.df').dataset.bestAsked",
                   timeout_s=60)
        assert not errors
