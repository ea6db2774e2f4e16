"""Issue 33 in a real browser: the practice table and the capture page in Spanish (the
browser's Accept-Language). After a plane's Best plans are shown, the practice page's
whole visible text (``document.body.innerText``) has no English word left, the proper
names (the scenario's title, the planes, the sides) aside; the capture page's first
state neither. Skipped, with the reason, where no Chromium is installed."""
import pathlib
import re

import pytest
from browser import chromium, chromium_missing, running_server, wait_until

from furball.scenarios.dogfight import load_scenario
from furball.scenarios.web import create_app

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(chromium_missing() is not None, reason=f"browser tests: {chromium_missing()}")]

FURBALL = pathlib.Path(__file__).resolve().parent.parent / "scenarios" / "examples" / "furball.toml"
PROPER_NAMES = ("Furball over the lines", "Central Powers", "Allies", "SPAD", "Fokker", "Nieuport", "Pfalz", "English")
# words that are English only ("base", "planes", "plan" read the same in Spanish)
ENGLISH = re.compile(r"\b(the|of|and|to|with|from|tail|tails|plane|turn|best|plans|against|score|gives|takes|"
                     r"leaves|collision|short|long|range|altitude|heading|side|name|deck|seed|reorder|table|add|"
                     r"save|undo|redo|reset|open|rooms|adjudicate|remove|fire|firing|record|step|next|back|drag|select|"
                     r"photo|print|markers|card|sticker|uncertainty|small|large|cards|random|keep|found|reading)\b",
                     re.IGNORECASE)


def _english_left(text: str) -> list[str]:
    for name in PROPER_NAMES:
        text = text.replace(name, " ")
    text = text.replace("furball print markers", " ").replace("docs/capture.md", " ")
    return [line for line in text.splitlines() if ENGLISH.search(line)]


def test_the_practice_table_and_the_capture_page_in_spanish_have_no_english_left():
    with running_server(create_app(load_scenario(FURBALL))) as url, chromium() as browser:
        page = browser.new_context(locale="es-ES", viewport={"width": 1300, "height": 860}).new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        wait_until(page, "document.body.dataset.ready === 'yes' && window.furball.idle()")
        assert page.evaluate("document.documentElement.lang") == "es"
        assert page.locator("[data-testid=language]").input_value() == "es"
        page.click('[data-plane="Nieuport"] .base')
        page.select_option("#p-vs", "Pfalz")
        page.click("#p-best")
        wait_until(page, "document.getElementById('best').textContent.includes('Mejores planes contra Pfalz')")
        wait_until(page, "window.furball.idle()")
        text = page.evaluate("document.body.innerText")
        assert "puntuación" in text and ("cola" in text or "posiciones de disparo" in text)
        assert _english_left(text) == []
        page.goto(f"{url}capture/")
        wait_until(page, "document.body.dataset.ready === 'yes'")
        assert page.evaluate("document.documentElement.lang") == "es"
        text = page.evaluate("document.body.innerText")
        assert "Capturar una mesa desde una foto" in text and _english_left(text) == []
        assert errors == []
