"""Issue 33 in a real browser: one White Christmas room, one seat's page in Spanish (the
browser's Accept-Language) and the other's in English; each page says its language, has
a visible switch, and reads the room's log in its own language; the switch is
remembered by the browser. Skipped, with the reason, where no Chromium is installed."""
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


def _log(page):
    wait_until(page, f"{LOG}.length > 3")
    return page.evaluate(LOG)


def test_a_white_christmas_room_in_spanish_for_one_seat_and_english_for_the_other():
    app = create_app(options=ServerOptions(bot_delay_s=0.0))
    with running_server(app) as url, chromium() as browser:
        body = json.dumps({"game": "white-christmas", "options": {}, "seed": 11, "seats": [None, None]}).encode()
        made = json.loads(urllib.request.urlopen(urllib.request.Request(
            f"{url}api/rooms", data=body, headers={"Content-Type": "application/json"})).read())
        pages = {}
        for seat, locale in ((0, "es-ES"), (1, "en-US")):
            page = browser.new_context(locale=locale).new_page()
            page.goto(f"{url}rooms/{made['room']}#seat={made['seats'][seat]['token']}")
            wait_until(page, "document.body.dataset.ready === 'yes'")
            pages[locale] = page
        spanish, english = pages["es-ES"], pages["en-US"]
        assert spanish.evaluate("document.documentElement.lang") == "es"
        assert english.evaluate("document.documentElement.lang") == "en"
        assert spanish.locator("#log-box summary").text_content() == "Registro"
        assert english.locator("#log-box summary").text_content() == "Log"
        es_log, en_log = _log(spanish), _log(english)
        assert any("azoteas, de izquierda a derecha" in line for line in es_log)
        assert not any("rooftops" in line or "left to right" in line for line in es_log)
        # the whole Spanish log is Spanish: no English word left (names of places and planes aside)
        english_word = re.compile(r"\b(the|of|and|from|to|with|top|bottom|carrier|face|half|showing|soldier|vietnamese|"
                                  r"businesswoman|politician|any|VP|Staircase|Rescue|Influence|Move|special|sighting|round|"
                                  r"phase|marines|flight|staff)\b")
        assert [line for line in es_log if english_word.search(line)] == []
        assert set(es_log) & set(en_log) == set()
        assert any("rooftops, left to right" in line for line in en_log)
        assert not any("azoteas" in line for line in en_log)
        # the switch: the English reader chooses Spanish; the page reloads in it and remembers
        english.select_option("[data-testid=language]", "es")
        wait_until(english, "document.documentElement.lang === 'es' && document.body.dataset.ready === 'yes'")
        assert any("azoteas, de izquierda a derecha" in line for line in _log(english))
        english.reload()
        wait_until(english, "document.body.dataset.ready === 'yes'")
        assert english.evaluate("document.documentElement.lang") == "es"


def test_the_lobby_follows_accept_language_with_its_switch():
    app = create_app(options=ServerOptions(bot_delay_s=0.0))
    with running_server(app) as url, chromium() as browser:
        page = browser.new_context(locale="es-ES").new_page()
        page.goto(f"{url}rooms")
        wait_until(page, "document.body.dataset.ready === 'yes'")
        assert page.evaluate("document.documentElement.lang") == "es"
        assert page.locator("#create h1").text_content() == "Nueva sala"
        assert page.locator("#create-room").text_content() == "Crear la sala"
        assert page.locator("[data-testid=language]").input_value() == "es"
        assert page.locator("#game option").count() >= 3  # the page still works: the games are listed
