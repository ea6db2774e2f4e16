"""Issue 34 items 9 and 10 in a real browser (Playwright, Debian's Chromium): a finished
dogfight room stepped through from the first step to the last, a turn of it replayed on
its page, the record downloaded and reopened on the practice page (every turn, one
after another); and a rule ID in a room's log opened as the rule's text. Skipped, with
the reason, where no Chromium is installed."""
import json
import re
import time
import urllib.request

import pytest
from browser import chromium, chromium_missing, running_server, wait_until

from furball.scenarios.web import create_app
from furball.scenarios.web.app import ServerOptions
from furball.scenarios.web.record import read_record

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(chromium_missing() is not None, reason=f"browser tests: {chromium_missing()}")]


@pytest.fixture(scope="module")
def finished_room():
    """A server holding a dogfight played to its end by two random bots (3 turns)."""
    app = create_app(options=ServerOptions(bot_delay_s=0.0))
    with running_server(app) as url, chromium() as browser:
        body = json.dumps({"game": "dogfight", "seed": 3, "options": {"reorder": "policy"}, "seats": ["random", "random"]}).encode()
        request = urllib.request.Request(f"{url}api/rooms", data=body, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as r:
            made = json.loads(r.read())
        for _ in range(300):
            with urllib.request.urlopen(f"{url}api/rooms/{made['room']}") as r:
                if json.loads(r.read())["terminal"]:
                    break
            time.sleep(0.05)
        yield url, made, browser


def test_DF_M1_a_whole_game_stepped_through_downloaded_and_reopened_on_the_practice_page(finished_room, tmp_path):
    url, made, browser = finished_room
    ctx = browser.new_context(viewport={"width": 1200, "height": 850}, accept_downloads=True)
    page = ctx.new_page()
    page.goto(f"{url}rooms/{made['room']}#seat={made['seats'][0]['token']}")
    wait_until(page, "window.furball.view() && window.furball.view().terminal")
    page.evaluate("document.getElementById('record-box').open = true")
    page.click("[data-testid=record-open]")
    wait_until(page, "document.body.dataset.record === 'open'")
    assert "the whole game" in page.text_content("[data-testid=record-status]")
    last = int(page.evaluate("document.body.dataset.recordStep"))
    page.fill("#record-slider", "0")  # the set-up: the table before any turn
    wait_until(page, "document.body.dataset.recordStep === '0'")
    assert "Tailing duel" in page.text_content("[data-testid=record-lines]")
    turns = []
    for step in range(1, last + 1):  # every step, forwards: each turn flown shows its replay button
        page.click("[data-testid=record-next]")
        wait_until(page, "(n) => document.body.dataset.recordStep === n", arg=str(step))
        shown = page.evaluate("""() => {
            const open = document.querySelector('[data-replay=open]');
            const panel = document.querySelector('[data-testid=replay]');
            if (panel && !panel.hidden) return panel.querySelector('.df-replay-title').textContent;
            return open && !open.hidden ? open.textContent : '';
        }""")
        turn = re.search(r"[Tt]urn (\d+)", shown)
        if turn and int(turn[1]) not in turns:
            turns.append(int(turn[1]))
    assert turns == [1, 2, 3]
    page.click("[data-testid=record-back]")
    page.evaluate("(document.querySelector('[data-replay=close]') || {click() {}}).click()")
    page.evaluate("document.querySelector('[data-replay=open]').click()")
    wait_until(page, "document.querySelector('[data-testid=replay]') && "
                     "!document.querySelector('[data-testid=replay]').hidden")
    with page.expect_download() as download:
        page.click("[data-testid=record-download]")
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    assert path.name == f"furball-dogfight-{made['room']}-all.json"
    assert read_record(path.read_bytes()).whole
    page.click("[data-testid=record-close]")
    wait_until(page, "document.body.dataset.record === 'closed'")

    practice = ctx.new_page()
    practice.goto(url)
    wait_until(practice, "document.body.dataset.ready === 'yes'")
    practice.set_input_files("[data-testid=open-record]", str(path))
    wait_until(practice, "document.body.dataset.recordTurn === '1'")
    assert "3 turns" in practice.text_content("[data-testid=message]")
    assert practice.evaluate("document.querySelectorAll('#table .plane, #table [data-plane]').length") >= 1
    for turn in ("2", "3"):
        practice.click("#next-turn")
        wait_until(practice, "(n) => document.body.dataset.recordTurn === n", arg=turn)
    assert practice.is_disabled("#next-turn")
    practice.click("#step-last")
    assert "Turn 3" in practice.text_content("#replay-title")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "furball-game-record", "version": 9}')
    practice.set_input_files("[data-testid=open-record]", str(bad))
    wait_until(practice, "document.querySelector('[data-testid=message]').textContent.includes(\"'version'\")")
    ctx.close()


def test_DF_T1_a_rule_id_in_the_log_opens_the_rules_text(finished_room):
    url, made, browser = finished_room
    ctx = browser.new_context(viewport={"width": 1200, "height": 850})
    page = ctx.new_page()
    page.goto(f"{url}rooms/{made['room']}")
    wait_until(page, "document.body.dataset.rules === 'ready' && "
                     "document.querySelector('[data-testid=log] .rule-id[data-rule=\"DF.T1\"]')")
    link = page.locator("[data-testid=log] .rule-id[data-rule='DF.T1']").first
    assert "ruler" in link.get_attribute("title")  # the hover's tooltip: the rule's own words
    link.click()
    wait_until(page, "document.getElementById('rule-text').matches(':popover-open')")
    assert "DF.T1 · Tailing (T)" in page.text_content("[data-testid=rule-text]")
    assert "range ruler" in page.text_content("[data-testid=rule-text]")
    ctx.close()
