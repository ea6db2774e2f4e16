"""Issue 33: the room and lobby pages mark every string a reader reads (docs/i18n.md, "The
pages"). A scan of their JavaScript and HTML fails on an English literal that reaches the
page without passing through ``t()`` (JS) or ``data-i18n`` / ``data-i18n-placeholder`` /
``data-i18n-aria-label`` / ``data-i18n-title`` (HTML).

The heuristic, kept simple on purpose (it reads source text, it does not run it):

* JavaScript: the expression given to a place a reader reads — ``textContent``,
  ``title``, ``placeholder``, ``label`` (as ``key: ...`` or ``.key = ...``),
  ``setAttribute("aria-label"|"title"|"placeholder", ...)``, and the calls ``say(...)``,
  ``connection(...)``, ``alert(...)``, ``confirm(...)``, ``new Error(...)``,
  ``new Notification(...)`` — up to the end of that argument or property; every string or
  template literal in it that holds a word (two letters or more, ``${...}`` parts left
  out) must be the first argument of a ``t(`` call;
* HTML: every element's own text and every ``placeholder``, ``aria-label`` and ``title``
  attribute must be marked (``<title>`` and ``<script>`` aside);
* allowed: the words in :data:`ALLOWED` (the name furball; symbols carry no words), and a
  literal compared with ``===`` (``typeof c === "number"``: never shown), and a literal
  joined with ``+`` to ``t()``'s first argument (a long id split over lines).
"""
import html.parser
import pathlib
import re

import pytest

STATIC = pathlib.Path(__file__).resolve().parent.parent / "scenarios" / "web" / "static"
JS = ["js/rooms/room.js", "js/rooms/lobby.js", "js/rooms/games.js", "js/rooms/alerts.js", "js/rooms/record.js",
      "js/rooms/saved.js", "js/rooms/games/board.js", "js/rooms/games/dogfight.js",
      *sorted(f"js/rooms/games/dogfight/{p.name}" for p in (STATIC / "js/rooms/games/dogfight").glob("*.js"))]
HTML = ["room.html", "lobby.html"]
ALLOWED = {"furball"}
"""Words a page may show as they are, in every language (the program's name)."""

_PLACE = re.compile(r"(?:\b(?:textContent|title|placeholder|label)\s*:(?!:)|\.(?:textContent|title|placeholder)\s*=(?!=)"
                    r"|\bsetAttribute\(\s*\"(?:aria-label|title|placeholder)\"\s*,"
                    r"|\b(?:say|connection|alert|confirm)\(|\bnew\s+(?:Error|Notification)\()")
_WORD = re.compile(r"[A-Za-z]{2,}")


def _extent(text: str, start: int) -> int:
    """Where the expression starting at ``start`` ends: a ``,``, ``;`` or closing
    bracket at depth 0 (strings, templates and their ``${...}`` skipped whole)."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c in "\"'`":
            i = _literal_end(text, i)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return i
            depth -= 1
        elif c in ",;" and depth == 0:
            return i
        i += 1
    return i


def _literal_end(text: str, start: int) -> int:
    """The index just past the string or template literal opening at ``start``."""
    quote, i = text[start], start + 1
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if quote == "`" and text.startswith("${", i):
            i = _extent(text, i + 2) + 1  # the ${...} part, to its closing brace
            continue
        if c == quote:
            return i + 1
        i += 1
    return i


def _words(literal: str) -> set[str]:
    """The words of a literal (its ``${...}`` parts left out), less :data:`ALLOWED`."""
    body = literal[1:-1]
    if literal[0] == "`":
        out, i = [], 0
        while i < len(body):
            if body.startswith("${", i):
                i = _extent(body, i + 2) + 1
                continue
            out.append(body[i])
            i += 1
        body = "".join(out)
    return {w for w in _WORD.findall(body) if w not in ALLOWED}


def unmarked_js(source: str) -> list[str]:
    """The English literals of ``source`` that reach a reader without ``t()`` (module
    docstring), each as ``line N: literal``."""
    found = []
    joined = {}  # literal start -> whether the literal it is joined to with + is t()'s first argument
    for m in re.finditer(r"(\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*')\s*\+\s*(?=[\"'])", source):
        first = re.search(r"\bt\(\s*$", source[max(0, m.start() - 10):m.start()]) is not None
        joined[m.end()] = first or joined.get(m.start(), False)
    for place in _PLACE.finditer(source):
        start = place.end()
        end = _extent(source, start)
        i = start
        while i < end:
            c = source[i]
            if c in "\"'`":
                stop = _literal_end(source, i)
                literal = source[i:stop]
                # the first argument of t(: right after "t(", or a literal joined with + to it
                marked = (re.search(r"\bt\(\s*$", source[max(0, i - 10):i]) is not None
                          or (i in joined and joined[i]))
                compared = re.search(r"[!=]==?\s*$", source[max(0, i - 10):i]) is not None  # typeof x === "number"
                if not (marked or compared) and _words(literal):
                    found.append(f"line {source.count(chr(10), 0, i) + 1}: {literal}")
                i = stop
                continue
            i += 1
    return found


class _Page(html.parser.HTMLParser):
    MARKS = {"placeholder": "data-i18n-placeholder", "aria-label": "data-i18n-aria-label", "title": "data-i18n-title"}

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        for name, mark in self.MARKS.items():
            value = attributes.get(name)
            if value and _WORD.search(value) and mark not in attributes:
                self.found.append(f"line {self.getpos()[0]}: <{tag} {name}={value!r}>")
        if tag not in ("meta", "link", "input", "br", "img"):
            self.stack.append((tag, "data-i18n" in attributes))

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def handle_data(self, data):
        if not self.stack or self.stack[-1][0] in ("title", "script", "style") or self.stack[-1][1]:
            return
        if {w for w in _WORD.findall(data) if w not in ALLOWED}:
            self.found.append(f"line {self.getpos()[0]}: {' '.join(data.split())!r}")


def unmarked_html(source: str) -> list[str]:
    """The English texts and attributes of a page that no ``data-i18n*`` marks."""
    page = _Page()
    page.feed(source)
    return page.found


@pytest.mark.parametrize("name", JS)
def test_issue33_every_string_of_the_room_pages_scripts_goes_through_t(name):
    assert unmarked_js((STATIC / name).read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("name", HTML)
def test_issue33_every_text_of_the_room_pages_html_is_marked(name):
    assert unmarked_html((STATIC / name).read_text(encoding="utf-8")) == []


def test_issue33_the_scan_finds_unmarked_strings():
    """The check can fail: each unmarked form is found, its marked twin is not."""
    unmarked = """
        el("button", { textContent: "Accept", onclick: go });
        b.title = `zoom ${x} in`;
        say(ok ? t("Done") : "nothing to do");
        node.setAttribute("aria-label", "chat line");
        if (!window.confirm(`Delete ${title}?`)) return;
        say("a long line " +
          "split in two");
    """
    assert [line.split(": ", 1)[1] for line in unmarked_js(unmarked)] == [
        '"Accept"', "`zoom ${x} in`", '"nothing to do"', '"chat line"', "`Delete ${title}?`",
        '"a long line "', '"split in two"']
    marked = """
        el("button", { textContent: t("Accept"), className: "action", onclick: go });
        b.title = t("zoom {x} in", { x });
        say(ok ? t("Done") : t("nothing to do"));
        document.title = `${title} · furball`;
        el("td", { textContent: String(c) });
        say(t("a long line " +
          "split in two"));
    """
    assert unmarked_js(marked) == []
    assert unmarked_html('<p>Seats <input placeholder="a name"></p><summary data-i18n>Log</summary>') == [
        "line 1: 'Seats'", "line 1: <input placeholder='a name'>"]
    assert unmarked_html('<p data-i18n>Seats</p><input placeholder="a name" data-i18n-placeholder="a name">') == []


@pytest.mark.parametrize("game, options, seed", [("white-christmas", {"players": 2}, 12),
                                                 ("yorktown", {"players": 2, "expansions": "expert"}, 13)])
def test_WC_F2_F4_a_seats_view_in_spanish_tells_no_more_than_in_english(game, options, seed):
    """The views made per language keep the secrecy rules (tests/test_rooms_secrecy.py):
    a seat's Spanish view does not change when what it may not see does, and the public
    half is the same for every seat and the spectators, in Spanish too."""
    import dataclasses
    import json

    import numpy as np
    from test_rooms_secrecy import HIDE

    from furball.i18n import Lang
    from furball.scenarios.web.rooms import Room, make_spec

    spec = make_spec({"game": game, "options": options, "seed": seed})
    room = Room.new(dataclasses.replace(spec, controllers=("random",) * len(spec.controllers)))
    rng = np.random.default_rng(seed)
    rooms = [room]
    while not room.terminal and len(rooms) < 40:  # the first rounds: hands, bids and tiles to hide
        room, _ = room.bot_event()
        rooms.append(room)
    for room in rooms[1::8]:
        for seat in range(room.seats):
            other = dataclasses.replace(room, state=HIDE[game](room.state, seat, rng))
            mine = json.dumps(room.view(seat, lang=Lang.ES), sort_keys=True)
            assert json.dumps(other.view(seat, lang=Lang.ES), sort_keys=True) == mine, (room.version, seat)
        public = [room.view(s, lang=Lang.ES)["view"]["public"] for s in range(room.seats)]
        assert all(p == room.view(None, lang=Lang.ES)["view"]["public"] for p in public)
        assert public[0] != room.view(0)["view"]["public"]  # and it is another language's text


def _shown(view) -> list[str]:
    """The texts a card game's page shows of a seat's view (board.js): the table's drawing
    (title, legend, labels, tips), the panels, the game-over line and the legal actions."""
    out: list[str] = []

    def walk(value):
        if isinstance(value, dict):
            for key, v in value.items():
                if key not in ("id", "kind", "colour", "fill", "stroke", "marker", "shape", "rule", "anchor", "valign"):
                    walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str):
            out.append(value)

    public, private = view["view"]["public"], view["view"]["private"] or {}
    walk([public.get("board"), public.get("panels"), public.get("ending"), private.get("panels"), view.get("legal")])
    return out


@pytest.mark.parametrize("game, options", [("white-christmas", {"players": 2}), ("yorktown", {"players": 1}),
                                           ("canuck", {})])
def test_issue33_a_card_games_page_in_spanish_has_no_english_word_from_start_to_end(game, options):
    """What the server sends a card game's page to show, read in Spanish through a whole
    game (random bots, every tenth position and the end): no English word (the Chromium
    test checks one White Christmas page as a reader sees it)."""
    import dataclasses

    from test_i18n_browser import ENGLISH_WORD, PROPER_NAMES

    from furball.i18n import Lang
    from furball.scenarios.web.rooms import Room, make_spec

    spec = make_spec({"game": game, "options": options, "seed": 5})
    room = Room.new(dataclasses.replace(spec, controllers=("random",) * len(spec.controllers)))
    english = set()
    for n in range(400):
        if n % 10 == 0 or room.terminal:
            for seat in range(room.seats):
                english |= {t for t in _shown(room.view(seat, lang=Lang.ES)) if ENGLISH_WORD.search(PROPER_NAMES.sub("", t))}
        if room.terminal:
            break
        room, _ = room.bot_event()
    assert room.terminal and english == set()


def test_issue33_a_rooms_refusals_read_in_the_readers_language_one_line_each():
    """The room's refusals over HTTP come in the language the call names (``?lang=``,
    else ``Accept-Language``), one line with the same values as the English line; the
    why-not answer and the lobby's option help too."""
    from starlette.testclient import TestClient

    from furball.scenarios.web import LOOPBACK_HOSTS, create_app
    from furball.scenarios.web.app import ServerOptions

    app = create_app(allowed_hosts=LOOPBACK_HOSTS + ("testserver",), options=ServerOptions(bot_delay_s=0.0))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        made = client.post("/api/rooms", json={"game": "white-christmas", "seed": 11, "seats": [None, None]}).json()
        room, p2 = made["room"], made["seats"][1]["token"]
        assert client.get(f"/api/rooms/{room}").json()["to_act"] == 0  # P1 acts first
        es = client.post(f"/api/rooms/{room}/take-back?lang=es", json={"what": "ask"},
                         headers={"Authorization": f"Bearer {p2}"})
        en = client.post(f"/api/rooms/{room}/take-back", json={"what": "ask"}, headers={"Authorization": f"Bearer {p2}"})
        assert es.status_code == en.status_code == 409
        assert en.json()["error"].startswith("nothing of yours to take back")
        assert es.json()["error"].startswith("no tienes nada que deshacer") and "\n" not in es.json()["error"]
        chat = client.post(f"/api/rooms/{room}/chat", json={"text": "hola"}, headers={"Accept-Language": "es-ES,es"})
        assert chat.status_code == 403 and chat.json()["error"].startswith("solo los puestos de la sala")
        why = client.post(f"/api/rooms/{room}/why?lang=es", json={"targets": ["row:radar"]},
                          headers={"Authorization": f"Bearer {p2}"}).json()["reason"]
        assert why == "es el turno de P1, no el tuyo"
        wc = next(g for g in client.get("/api/games?lang=es").json()["games"] if g["name"] == "white-christmas")
        assert [(o["label"], o["help"]) for o in wc["options"]][0] == ("jugadores", "número de jugadores (2-4)")


def test_issue33_every_page_file_is_scanned_by_one_of_the_two_checks():
    """A new page file cannot escape the scans: every HTML page and JavaScript module of
    ``static/`` is in this module's lists or in tests/test_i18n_pages.py's (the practice
    table's and capture's), except the catalog's own module."""
    from test_i18n_pages import FILES

    scanned = set(JS) | set(HTML) | set(FILES) | {"js/i18n.js"}
    shipped = {p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*") if p.suffix in (".js", ".html")}
    assert sorted(shipped - scanned) == []
