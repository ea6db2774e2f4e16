"""Issue #15: the web table in a real browser (Playwright driving Debian's headless Chromium).

Set up a table from nothing (two planes), drag one into a tailing position and see the
ruler appear while dragging, turn a plane with its handle, undo and redo, pick cards and
see an illegal plan's rule, adjudicate and step through the replay, save the file and
open it again; and the shipped furball scenario adjudicated in the page equals
``furball turn --json``. Skipped, with the reason, where no Chromium is installed.
"""
import json
import pathlib

import pytest
from browser import chromium, chromium_missing, running_server, wait_until

from furball.scenarios.dogfight import adjudicate, load_scenario, parse_scenario, turn_json
from furball.scenarios.web import create_app

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(chromium_missing() is not None, reason=f"browser tests: {chromium_missing()}")]

ROOT = pathlib.Path(__file__).resolve().parent.parent
FURBALL = ROOT / "scenarios" / "examples" / "furball.toml"


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1300, "height": 860}, has_touch=True, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(8000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert errors == []  # no JavaScript error on the way


def _open(page, url):
    page.goto(url)
    wait_until(page, "document.body.dataset.ready === 'yes'")
    _idle(page)


def _idle(page):
    wait_until(page, "window.furball.idle()")


def _screen(page, x, y):
    """The page coordinates of table point (x, y) mm."""
    return page.evaluate("""([x, y]) => {
        const svg = document.getElementById('table');
        const p = svg.createSVGPoint(); p.x = x; p.y = y;
        const q = p.matrixTransform(document.getElementById('world').getScreenCTM());
        return [q.x, q.y];
    }""", [x, y])


def _plane(page, name):
    return page.evaluate("(n) => window.furball.doc().plane.find((p) => p.name === n)", name)


def _add(page, name, side, altitude=2):
    page.fill("#a-name", name)
    page.fill("#a-side", side)
    page.fill("#a-alt", str(altitude))
    page.click("#add")
    page.wait_for_selector(f'[data-plane="{name}"]')


def _drag(page, start, end, steps=8, before_release=None):
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=steps)
    if before_release:
        before_release()
    page.mouse.up()


def test_set_up_drag_tail_plan_adjudicate_replay_save_and_open(page, tmp_path):
    with running_server(create_app()) as url:
        _open(page, url)
        assert page.evaluate("window.furball.doc().plane.length") == 0
        _add(page, "Camel", "Allies")
        _add(page, "Albatros", "Central Powers")
        albatros = _plane(page, "Albatros")["pose"]
        camel = _plane(page, "Camel")["pose"]
        _idle(page)
        assert page.locator('[data-ruler="Camel>Albatros"][data-kind="tail"]').count() == 0

        # drag the Camel 110 mm behind the Albatros: the ruler appears while dragging (DF.T1)
        target = (albatros["x_mm"] - 110, albatros["y_mm"] + 5)
        seen_while_dragging = []

        def look():
            page.wait_for_selector('[data-ruler="Camel>Albatros"][data-kind="tail"]', timeout=5000)
            seen_while_dragging.append(True)

        _drag(page, _screen(page, camel["x_mm"], camel["y_mm"]), _screen(page, *target), before_release=look)
        assert seen_while_dragging == [True]
        _idle(page)
        moved = _plane(page, "Camel")["pose"]
        assert moved["x_mm"] == pytest.approx(target[0], abs=2.0) and moved["y_mm"] == pytest.approx(target[1], abs=2.0)
        tails = page.evaluate("window.furball.analysis().tails")
        assert [(c["chaser"], c["target"]) for c in tails] == [("Camel", "Albatros")]

        # turn the Albatros by its handle to face the Camel: the tail is gone; undo brings it back
        page.click('[data-plane="Albatros"] .base')
        handle = page.locator('[data-role="handle"]').bounding_box()
        stand = _screen(page, albatros["x_mm"], albatros["y_mm"])
        start = (handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
        _drag(page, start, (stand[0] - 60, stand[1]))
        _idle(page)
        assert _plane(page, "Albatros")["pose"]["heading_deg"] == pytest.approx(180.0, abs=3.0)
        assert page.locator('[data-ruler="Camel>Albatros"][data-kind="tail"]').count() == 0
        page.click("#undo")
        _idle(page)
        assert _plane(page, "Albatros")["pose"]["heading_deg"] == 0
        assert page.locator('[data-ruler="Camel>Albatros"][data-kind="tail"]').count() == 1
        page.click("#redo")
        _idle(page)
        assert _plane(page, "Albatros")["pose"]["heading_deg"] == pytest.approx(180.0, abs=3.0)
        page.click("#undo")
        _idle(page)

        # pick cards; an illegal plan shows the engine's words and rule next to the plane (DF.M5)
        page.click('[data-plane="Albatros"] .base')
        for card in ("A8", "A9", "A1"):
            page.click(f'#cards [data-card="{card}"]')
        _idle(page)
        error = page.locator('[data-plan-error="Albatros"]')
        assert error.get_attribute("data-rule") == "DF.M5" and "two steep maneuvers in a row" in error.text_content()
        assert "(DF.M5)" in page.text_content("#plan-error")
        page.click('#slots [data-slot="1"]')  # take A9 back
        page.click('#cards [data-card="A2"]')
        _idle(page)
        assert page.locator('[data-plan-error="Albatros"]').count() == 0
        page.click('[data-plane="Camel"] .base')
        page.hover('#cards [data-card="A4"]')  # the card's path is previewed on the table
        page.wait_for_selector('.preview.hover [data-card="A4"]')
        for card in ("A1", "A4", "A2"):
            page.click(f'#cards [data-card="{card}"]')
        assert _plane(page, "Camel")["plan"] == ["A1", "A4", "A2"]
        page.fill("#seed", "5")
        page.press("#seed", "Enter")
        _idle(page)

        # adjudicate: the page's turn is the engine's, for the same document and seed
        sent = page.evaluate("window.furball.doc()")
        page.click("#adjudicate")
        page.wait_for_selector("#replay:not([hidden])")
        turn = page.evaluate("window.furball.turn()")
        s = parse_scenario(sent, "page")
        assert turn == json.loads(json.dumps(turn_json(adjudicate(s.table, s.orders, seed=5, policy=s.policy))))
        kinds = []
        while True:
            kinds.append(page.get_attribute("#replay-step", "data-kind"))
            if page.is_disabled("#step-next"):
                break
            page.click("#step-next")
        assert kinds == ["start", "maneuver", "maneuver", "maneuver", "end"]
        for p in turn["end"]["planes"]:  # the last step shows the engine's end positions
            g = page.locator(f'[data-plane="{p["name"]}"]')
            assert float(g.get_attribute("data-x")) == pytest.approx(p["x"], abs=1e-3)
            assert float(g.get_attribute("data-heading")) == pytest.approx(p["heading"], abs=1e-3)
        page.click("#step-back")
        assert page.get_attribute("#replay-step", "data-index") == str(len(kinds) - 2)
        page.keyboard.press("ArrowLeft")
        assert page.get_attribute("#replay-step", "data-index") == str(len(kinds) - 3)
        page.click("#replay-close")

        # save, then open the saved file: the same table
        with page.expect_download() as download:
            page.click("#save")
        saved = tmp_path / "saved.toml"
        download.value.save_as(saved)
        assert load_scenario(saved).table == s.table
        page.click("#p-delete") if page.is_visible("#p-delete") else None
        _idle(page)
        page.set_input_files("#open-file", str(saved))
        wait_until(page, "window.furball.doc().plane.length === 2")
        _idle(page)
        assert parse_scenario(page.evaluate("window.furball.doc()"), "reopened").table == s.table
        # an upload the engine refuses: one line, naming the file and field
        bad = tmp_path / "bad.toml"
        bad.write_text(saved.read_text().replace('deck = "A"', 'deck = "/etc/passwd"', 1), encoding="utf-8")
        page.set_input_files("#open-file", str(bad))
        wait_until(page, "document.getElementById('message').textContent.includes('bad.toml')")
        assert "field 'deck'" in page.text_content("#message")


def test_the_furball_example_adjudicated_in_the_page_equals_furball_turn_json(page, cli):
    code, out, _ = cli(["turn", FURBALL, "--json"])
    assert code == 0
    with running_server(create_app(load_scenario(FURBALL))) as url:
        _open(page, url)
        assert page.locator("[data-plane]").count() == 4
        assert page.locator('[data-ruler="Nieuport>Pfalz"][data-kind="tail"]').count() == 1
        page.click("#adjudicate")
        page.wait_for_selector("#replay:not([hidden])")
        assert page.evaluate("window.furball.turn()") == json.loads(out)
        # the collision test is shown with its probability and draw (DF.C3); the replay's
        # lines are the server's report lines of each step, as `furball turn` prints them
        replay = page.evaluate("window.furball.replay()")
        while page.get_attribute("#replay-step", "data-kind") != "maneuver":
            page.click("#step-next")
        label = page.locator('[data-collision="Fokker/SPAD"], [data-collision="SPAD/Fokker"]').first
        assert "P " in label.text_content() and "drawn" in label.text_content()
        assert "collision test" in page.text_content("#replay-text")
        shown = [li.text_content() for li in page.locator("#replay-text li").all()]
        assert shown == replay["maneuvers"][0]["lines"]
        assert any(line.strip().startswith("collision test") for line in shown)
        # issue 34 item 5: each plane its silhouette, each maneuver's card laid under its base (DF.M2)
        assert page.locator("#table use.silhouette").count() == 4
        assert page.locator("#furball-silhouettes #sil-fighter").count() == 1
        laid = page.eval_on_selector_all("#table [data-laid-card]", "els => els.map((e) => [e.dataset.laidCard, "
                                                                     "e.dataset.card])")
        flown = [[mv["plane"], mv["card"]] for mv in page.evaluate("window.furball.turn()")["maneuvers"][0]["moves"]]
        assert laid and sorted(laid) == sorted(flown)
        # the zones of a plane: tail zone and firing bands from the engine
        page.click("#replay-close")
        page.click('[data-plane="Nieuport"] .base')
        page.check("#p-zones")
        page.wait_for_selector('[data-zones="Nieuport"] .tail-zone')
        assert page.locator('[data-zones="Nieuport"] .band').count() == 2
        # the plan analysis: the Nieuport's best plans against the Pfalz, ranked
        page.select_option("#p-vs", "Pfalz")
        page.click("#p-best")
        wait_until(page, "document.getElementById('best').textContent.includes('Best plans against Pfalz')")
        assert "1. " in page.text_content("#best") and "score" in page.text_content("#best")
        # issue 36.1: moving the plane asks for its Best plans again (the answer kept on screen meanwhile)
        asked = []
        page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/api/best-plans") else None)
        with page.expect_response(lambda r: r.url.endswith("/api/best-plans")):
            page.fill("#p-x", str(_plane(page, "Nieuport")["pose"]["x_mm"] + 30))
            page.dispatch_event("#p-x", "change")
        assert len(asked) == 1 and "Best plans against Pfalz" in page.text_content("#best")


def test_a_plane_moves_by_touch(page):
    with running_server(create_app(load_scenario(FURBALL))) as url:
        _open(page, url)
        before = _plane(page, "Pfalz")["pose"]
        x0, y0 = _screen(page, before["x_mm"], before["y_mm"])
        x1, y1 = _screen(page, before["x_mm"] + 50, before["y_mm"] - 40)
        cdp = page.context.new_cdp_session(page)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
        for k in range(1, 7):
            f = k / 6
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
                {"x": x0 + (x1 - x0) * f, "y": y0 + (y1 - y0) * f}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        _idle(page)
        after = _plane(page, "Pfalz")["pose"]
        assert after["x_mm"] == pytest.approx(before["x_mm"] + 50, abs=2) and \
            after["y_mm"] == pytest.approx(before["y_mm"] - 40, abs=2)
        assert not page.is_disabled("#undo")


# ------------------------------------------------------------------ issue #22 item 4: what a new user hit
def _plane_doc(name, x, y, altitude=2, side="Allies"):
    return {"name": name, "side": side, "kind": "plane", "deck": "A", "base": "small", "altitude": altitude,
            "pose": {"x_mm": x, "y_mm": y, "heading_deg": 0.0}}


def test_a_plane_cannot_take_another_planes_name_and_messages_stay(page):
    with running_server(create_app(load_scenario(FURBALL))) as url:
        _open(page, url)
        page.click('[data-plane="Nieuport"] .base')
        page.fill("#p-name", "Pfalz")
        page.press("#p-name", "Enter")
        wait_until(page, "document.getElementById('message').textContent.includes('already called')")
        page.wait_for_timeout(400)  # the engine answers meanwhile; the message stays
        _idle(page)
        assert "already called" in page.text_content("#message")
        names = sorted(p["name"] for p in page.evaluate("window.furball.doc()").get("plane"))
        assert names == ["Fokker", "Nieuport", "Pfalz", "SPAD"] and page.input_value("#p-name") == "Nieuport"
        _add(page, "Lone", "Allies")
        page.fill("#a-name", "SPAD")
        page.click("#add")
        wait_until(page, "document.getElementById('message').textContent.includes('“SPAD”')")
        assert len(page.evaluate("window.furball.doc()")["plane"]) == 5


def test_a_reload_keeps_the_table(page):
    with running_server(create_app()) as url:
        _open(page, url)
        _add(page, "Camel", "Allies")
        _add(page, "Albatros", "Central Powers")
        _idle(page)
        page.reload()
        wait_until(page, "document.body.dataset.ready === 'yes'")
        assert [p["name"] for p in page.evaluate("window.furball.doc()")["plane"]] == ["Camel", "Albatros"]
        page.click("#reset")
        wait_until(page, "window.furball.doc().plane.length === 0")


def test_sixty_planes_at_altitude_1000_keep_the_page_responsive(page, tmp_path):
    planes = [_plane_doc(f"P{i}", 40 + 14 * (i % 60), 100 + 12 * (i % 7), altitude=1000,
                         side="Allies" if i % 2 else "Central Powers") for i in range(60)]
    doc = {"scenario": {"name": "high", "turn": 1}, "table": {"width_mm": 900.0, "height_mm": 900.0},
           "rules": {"max_altitude": 1000, "reorder_policy": "keep"}, "plane": planes}
    s = parse_scenario(doc, "high")
    from furball.scenarios.dogfight import scenario_toml

    path = tmp_path / "high.toml"
    path.write_text(scenario_toml(s, tmp_path), encoding="utf-8")
    with running_server(create_app()) as url:
        _open(page, url)
        page.set_input_files("#open-file", str(path))
        wait_until(page, "window.furball.doc().plane.length === 60", timeout_s=20)
        _idle(page)
        rings = page.locator(".plane .stand").count()
        assert 60 <= rings <= 60 * 6  # at most six rings a plane: the label says ▲1000
        assert "▲1000" in page.text_content('[data-label="P7"]')


def test_issue_27_DF_T1_a_close_call_is_marked_on_the_table_with_its_flip_chance(page):
    """A tail at the ruler's very end (stands 200 mm apart) flips on half of a hand's
    placements: its ruler is marked as a close call and its tooltip says how often it
    flips (docs/margins.md); a clear ruling carries no mark."""
    def plane(name, x, side):
        return _plane_doc(name, x, 400.0, side=side)
    doc = {"scenario": {"name": "edge", "turn": 1, "seed": 3}, "table": {"width_mm": 900.0, "height_mm": 900.0},
           "plane": [plane("Camel", 300.0, "Allies"), plane("Albatros", 500.0, "Central Powers"),
                     plane("Spad", 300.0, "Allies") | {"pose": {"x_mm": 300.0, "y_mm": 700.0, "heading_deg": 0.0}},
                     plane("Pfalz", 400.0, "Central Powers") | {"pose": {"x_mm": 400.0, "y_mm": 700.0,
                                                                          "heading_deg": 0.0}}]}
    with running_server(create_app(parse_scenario(doc, "edge"))) as url:
        _open(page, url)
        close = page.locator('[data-ruler="Camel>Albatros"][data-kind="tail"]')
        assert close.get_attribute("data-close") == "1" and "close" in close.get_attribute("class").split()
        assert "flips in 50 % of placements (1 mm, 1°): a close call" in close.locator("title").text_content()
        clear = page.locator('[data-ruler="Spad>Pfalz"][data-kind="tail"]')
        assert clear.get_attribute("data-close") is None and "close" not in clear.get_attribute("class").split()
        assert "flips in" not in clear.locator("title").text_content()
