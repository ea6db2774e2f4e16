"""The Capture page in a real Chromium (docs/capture.md): upload a rendered table photo,
rename one base, download the measured scenario and load it, open it as a new room."""
from __future__ import annotations

import numpy as np
import pytest
from browser import chromium, chromium_missing, running_server, wait_until

pytest.importorskip("cv2", reason="the capture extra (opencv-python-headless) is not installed")

from furball.capture.synthetic import Shot, render_table_photo  # noqa: E402
from furball.geometry.datafile import parse_toml  # noqa: E402
from furball.scenarios.dogfight import parse_scenario  # noqa: E402
from furball.scenarios.web import create_app  # noqa: E402
from furball.scenarios.web.app import ServerOptions  # noqa: E402

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(chromium_missing() is not None, reason=f"browser tests: {chromium_missing()}")]


def test_capture_page_uploads_a_photo_renames_a_base_and_downloads_the_scenario(tmp_path):
    photo = render_table_photo((1, 2), np.array([[200.0, 200.0, 30.0], [140.0, 110.0, 200.0]]),
                               Shot(size=(1000, 750), miniatures=False), width_mm=400, height_mm=300, seed=1)
    path = tmp_path / "table.png"
    path.write_bytes(photo.data)
    app = create_app(options=ServerOptions(rate=1e6, burst=1e6))
    with running_server(app) as url, chromium() as browser:
        page = browser.new_page(accept_downloads=True)
        page.goto(url + "capture/")
        page.fill("#table", "400x300")
        page.set_input_files("#photo", str(path))
        wait_until(page, "!document.getElementById('result').hidden", timeout_s=60)
        assert "2 bases found" in page.inner_text("#status")
        name = page.locator("#bases tbody tr").first.locator("input").first
        name.fill("Camel")
        name.dispatch_event("change")
        assert "Camel" in page.inner_html("#view")
        # drag the second base 20 mm right (the svg shows 400 mm across its width)
        box = page.locator("#view").bounding_box()
        per_mm = box["width"] / 400
        sx, sy = box["x"] + 140 * per_mm, box["y"] + (300 - 110) * per_mm
        page.mouse.move(sx, sy)
        page.mouse.down()
        page.mouse.move(sx + 10 * per_mm, sy, steps=3)
        page.mouse.move(sx + 20 * per_mm, sy, steps=3)
        page.mouse.up()
        with page.expect_download() as info:
            page.click("#download")
        text = (tmp_path / "captured.toml")
        info.value.save_as(str(text))
        with page.expect_navigation():
            page.click("#room")  # a new dogfight room on the measured table, opened with its owner link
        wait_until(page, "document.body.dataset.ready === 'yes'", timeout_s=60)
        assert "/rooms/" in page.url and "#owner=" in page.url
        wait_until(page, "document.body.innerText.includes('Camel')", timeout_s=30)  # the measured plane's seat
        page.goto(url + "capture/")  # again, for the practice table
        page.fill("#table", "400x300")
        page.set_input_files("#photo", str(path))
        wait_until(page, "!document.getElementById('result').hidden", timeout_s=60)
        name = page.locator("#bases tbody tr").first.locator("input").first
        name.fill("Camel")
        name.dispatch_event("change")
        page.click("#practice")  # the practice table opens the measured table
        wait_until(page, "document.body.dataset.ready === 'yes'", timeout_s=60)
        wait_until(page, "JSON.stringify(window.furball.doc()).includes('Camel')", timeout_s=30)
    s = parse_scenario(parse_toml(text.read_text(), "captured.toml"), "captured.toml")
    assert [p.name for p in s.planes] == ["Camel", "P2"]
    assert s.capture["provenance"] == "measured" and s.capture["photo"] == "table.png"
    assert s.placement_errors["Camel"].xy_mm < 0.5
    assert abs(s.table.plane("Camel").pose.x_mm - 200.0) < 1.0
    assert abs(s.table.plane("P2").pose.x_mm - 160.0) < 1.0 and abs(s.table.plane("P2").pose.y_mm - 110.0) < 1.0


def test_card_page_marks_an_arrow_fits_it_and_downloads_the_deck_and_finds_the_arrow(tmp_path):
    from furball.capture.synthetic import render_card_photo
    from furball.maneuvers.card import Arc
    from furball.maneuvers.deck import DATA_DIR, find_deck

    data, start, points, end_line = render_card_photo([Arc(110.0, 35.0)], size=(900, 1125), tilt_deg=8, seed=2)
    path = tmp_path / "card.png"
    path.write_bytes(data)
    app = create_app(options=ServerOptions(rate=1e6, burst=1e6))
    with running_server(app) as url, chromium() as browser:
        page = browser.new_page(accept_downloads=True, viewport={"width": 1000, "height": 1400})
        page.goto(url + "capture/card")
        page.fill("#card", "A4")
        page.set_input_files("#photo", str(path))
        wait_until(page, "document.querySelector('#view image') !== null")
        box = page.locator("#view").bounding_box()
        for x, y in np.concatenate([start, points]):  # image pixels -> the page (the svg shows the whole image)
            page.mouse.click(box["x"] + x * box["width"] / 900, box["y"] + y * box["height"] / 1125)
        assert page.locator(".marked-point").count() == 2 + len(points)
        page.click("#fit")
        wait_until(page, "document.querySelector('.fitted-path') !== null || document.getElementById('status').textContent.includes(':')", timeout_s=60)
        assert "arc of radius" in page.inner_text("#status")
        page.click("#end")  # the end line marked: two more clicks, drawn apart from the arrow's points
        for x, y in end_line:
            page.mouse.click(box["x"] + x * box["width"] / 900, box["y"] + y * box["height"] / 1125)
        assert page.locator(".end-line").count() == 1 and page.locator(".marked-point").count() == 2 + len(points)
        with page.expect_download() as info:
            page.click("#download")
        deck = tmp_path / "A.toml"
        info.value.save_as(str(deck))
        mine = tmp_path / "mine.toml"  # a deck of one's own, uploaded: the card measured into it
        mine.write_text((DATA_DIR / "decks" / "A.toml").read_text().replace('name = "A"', 'name = "Mine"', 1))
        page.set_input_files("#deck-file", str(mine))
        page.click("#find")  # the arrow found automatically, its points drawn
        wait_until(page, "document.getElementById('status').textContent.includes('found automatically')", timeout_s=60)
        assert page.locator(".marked-point").count() == 11 and page.locator(".fitted-path").count() == 1
        with page.expect_download() as info:
            page.click("#download")
        info.value.save_as(str(tmp_path / "mine-measured.toml"))
    assert find_deck(str(tmp_path / "mine-measured.toml")).name == "Mine"
    measured = find_deck(str(deck))
    card = next(c for c in measured.cards if c.id == "A4")
    assert measured.provenance == "measured"
    assert abs(card.path[0].radius_mm - 110) < 10 and abs(card.path[0].angle_deg - 35) < 3
