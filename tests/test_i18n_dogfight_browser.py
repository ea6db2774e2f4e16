"""Issue 33 for the dogfight in a real browser: one duel room, P1's page in Spanish (the
browser's Accept-Language) and P2's in English; both plan and lock a turn through the
panel; P1's Camel tails the Albatros, so its page is asked to order its cards (DF.T2) and
keeps them while P2's page waits; the turn flies and replays; each time the Spanish
page's whole visible text has no English left (names of planes, sides and the scenario
aside) and its log reads in Spanish, and the English page has no Spanish. Skipped, with the reason, where no Chromium
is installed."""
import json
import re
import urllib.request

import pytest
from browser import chromium, chromium_missing, running_server, wait_until

from furball.scenarios.web import create_app
from furball.scenarios.web.app import ServerOptions

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(chromium_missing() is not None, reason=f"browser tests: {chromium_missing()}")]

LOG = "Array.from(document.querySelectorAll('[data-testid=log] div')).map((d) => d.textContent)"
ENGLISH = re.compile(r"\b(the|of|and|from|to|with|your|you|turn|plans|locked|lock|fl(y|ies)|cards?|damage|points|"
                     r"table|replay|maneuver|start|end|best|clear|close|fit|zoom|report|altitude|counters?|tails|"
                     r"fires?|range|short|long|reveal|wins?|game|over|waiting|flying|shows|takes|piles|can|no)\b", re.I)
SPANISH = re.compile(r"\b(el|la|los|las|del|turno|maniobra|cartas?|mesa|aviones|daño|puntos|fijado|vuela|volará|"
                     r"alcance|dispara|inicio|fin|registro|tus?)\b", re.I)
NAMES = re.compile(r"Camel|Albatros|Allies|Central Powers|Tailing duel")
ROOM_FRAME = ("you are P1", "Your turn: choose an action (everyone acts at once).", "Your turn: choose an action.",
              "The whole game")
"""The room page's own frame (room.js, room.html: not the dogfight's panel), which its own
change translates; read here as it stands on this branch."""


def _pick_and_lock(page):
    wait_until(page, "(() => { const v = window.furball.view(); return v && v.choices && v.version !== undefined && "
                     "document.querySelectorAll('[data-testid=cards] button').length > 0; })()", timeout_s=20)
    for k in range(3):
        page.locator("[data-testid=cards] button").first.click()
        wait_until(page, "(k) => document.querySelectorAll('.df-slots .slot:not(.empty)').length === k", arg=k + 1)
    version = page.evaluate("window.furball.view().version")
    page.click("[data-testid=lock]")
    wait_until(page, "(v) => window.furball.view().version !== v", arg=version)


def _left(pattern, text):
    return sorted({m.group(0) for m in pattern.finditer(NAMES.sub(" ", text))})


def _english_lines(text):
    return [line for line in text.splitlines() if _left(ENGLISH, line) and line not in ROOM_FRAME]


def _spanish_lines(text):
    return [line for line in text.splitlines() if _left(SPANISH, line)]


def test_a_dogfight_room_in_spanish_for_one_seat_and_english_for_the_other():
    app = create_app(options=ServerOptions(bot_delay_s=0.0))
    with running_server(app) as url, chromium() as browser:
        body = json.dumps({"game": "dogfight", "options": {}, "seed": 7,
                           "seats": [None, None]}).encode()
        made = json.loads(urllib.request.urlopen(urllib.request.Request(
            f"{url}api/rooms", data=body, headers={"Content-Type": "application/json"})).read())
        pages, errors = {}, []
        for seat, locale in ((0, "es-ES"), (1, "en-US")):
            page = browser.new_context(locale=locale, viewport={"width": 1100, "height": 850}).new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{url}rooms/{made['room']}#seat={made['seats'][seat]['token']}")
            wait_until(page, "document.body.dataset.ready === 'yes'")
            pages[locale] = page
        spanish, english = pages["es-ES"], pages["en-US"]
        _pick_and_lock(spanish)
        _pick_and_lock(english)
        asked = 0
        while True:  # the chaser's question (DF.T2), on the Spanish page: read, then keep the order
            wait_until(spanish, "(() => { const v = window.furball.view(); return (v.choices && v.choices.reorder && "
                                "!document.querySelector('[data-testid=reorder]').hidden) || "
                                "(v.view.public.replay && v.view.public.replay.turn === 1); })()", timeout_s=20)
            if spanish.is_hidden("[data-testid=reorder]"):
                break
            asked += 1
            assert "Solo tú la ves" in spanish.text_content("[data-testid=reorder-shown]")
            assert _english_lines(spanish.evaluate("document.body.innerText")) == []
            wait_until(english, "!document.querySelector('[data-testid=waiting]').hidden")
            assert "Waiting for a chaser: Camel tails Albatros" in english.text_content("[data-testid=waiting]")
            version = spanish.evaluate("window.furball.view().version")
            spanish.click("[data-testid=reorder-keep]")
            wait_until(spanish, "(v) => window.furball.view().version !== v", arg=version)
        assert asked >= 1
        for page in (spanish, english):  # the turn flies and replays on both pages: open every part of the panel
            wait_until(page, "(() => { const r = window.furball.view().view.public.replay; return r && r.turn === 1 "
                             "&& document.querySelector('.df').dataset.replay !== 'closed'; })()", timeout_s=20)
            page.click('[data-replay="last"]')
            wait_until(page, "document.querySelector('.df').dataset.replayKind === 'end'")
            page.evaluate("document.querySelectorAll('.df details').forEach((d) => { d.open = true; })")
            wait_until(page, f"{LOG}.length > 5")
        es_text, en_text = spanish.evaluate("document.body.innerText"), english.evaluate("document.body.innerText")
        assert "Fijar este plan" in es_text and "Informe del último turno" in es_text
        assert "Lock this plan" in en_text and "Last turn's report" in en_text
        assert _english_lines(es_text) == []
        assert _spanish_lines(en_text) == []
        es_log, en_log = spanish.evaluate(LOG), english.evaluate(LOG)
        assert any("Maniobra 1" in line for line in es_log) and any("Maneuver 1" in line for line in en_log)
        assert errors == []
