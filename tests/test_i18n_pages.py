"""Issue 33: every word a page shows goes through the catalog. A scan of the pages' own
files for user-visible English that is not marked (docs/i18n.md, "A check for unmarked
text"): it can be fooled (text built far from where it is shown), so it checks the
usual ways a page shows text, which is where a new string is most often forgotten.

The heuristic, per file:

* HTML: every text node with a word (3 letters or more) inside an element marked
  ``data-i18n`` (the element or an ancestor); every ``title``, ``placeholder`` and
  ``aria-label`` attribute with a word on an element marked ``data-i18n-<attribute>``.
* JavaScript: on each line that shows text (``textContent``, ``innerText``, ``title``,
  ``placeholder``, ``ariaLabel`` set or given as a property, ``setAttribute`` of those,
  the helpers that show or throw a message: ``say``, ``status``, ``title``, ``fail``,
  ``alert``, ``confirm``, ``new Error``), every string literal with a word must be the
  first argument of ``t(`` (template literals: their ``${...}`` parts left out first).
* Allowed: :data:`ALLOWED` (units, the brand, rule IDs' prefixes) and comments.

Another helper writes the same check for the room pages; both are a function
parametrized over the files it owns (:data:`FILES`), so they merge as one list.
"""
from __future__ import annotations

import html.parser
import pathlib
import re

import pytest

STATIC = pathlib.Path(__file__).resolve().parent.parent / "scenarios" / "web" / "static"

FILES = ("index.html", "capture.html", "capture_card.html", "js/main.js", "js/practice/page.js",
         "js/practice/panel.js", "js/practice/record.js", "js/practice/scene.js", "js/practice/turn.js",
         "js/table.js", "js/record.js", "js/rules.js", "js/replay.js", "js/history.js", "js/sketch.js",
         "js/panzoom.js", "js/plans.js", "js/look.js", "js/api.js", "js/capture.js", "js/capture_card.js",
         "js/dom.js", "js/geometry.js")
"""The practice table's and the capture pages' files (issue 33, this check's scope)."""

ALLOWED = frozenset({"furball", "mm", "deg", "mm²", "KiB", "MiB", "TOML", "JSON", "RMS", "toml"})
"""Words that read the same in every language furball speaks (the brand, units, formats)."""

WORD = re.compile(r"[A-Za-zÀ-ÿ]{3,}")
ATTRIBUTES = ("title", "placeholder", "aria-label")
SINK = re.compile(r"(?:\.(?:textContent|innerText|title|placeholder|ariaLabel)\s*=(?!=)"
                  r"|\b(?:textContent|innerText|title|placeholder|ariaLabel)\s*:"
                  r"|setAttribute\(\s*[\"'](?:title|placeholder|aria-label)[\"']\s*,"
                  r"|\b(?:say|status|title|alert|confirm|fail)\(|new Error\()")
LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`(?:[^`\\]|\\.)*`')


def _english(text: str) -> list[str]:
    text = re.sub(r"\$\{[^}]*\}", " ", text)
    return [w for w in WORD.findall(text) if w not in ALLOWED]


def js_unmarked(source: str) -> list[str]:
    """The lines of JavaScript ``source`` that show a literal with a word not passed to
    ``t()`` (the module's heuristic), as ``"line N: literal"``."""
    out = []
    for number, line in enumerate(source.splitlines(), 1):
        code = line.split("//", 1)[0] if not re.search(r"[\"'`][^\"'`]*//", line) else line
        if code.lstrip().startswith(("*", "/*")):
            continue
        sink = SINK.search(code)
        if not sink:
            continue
        rest = code[sink.start():]
        for literal in LITERAL.finditer(rest):
            before = rest[:literal.start()].rstrip()
            if before.endswith("t(") and not before.endswith(("alert(", "Light(")):
                continue  # t("...") marks it (its first argument)
            if re.search(r"\b(?:querySelector(?:All)?|getElementById|\$|classList\.\w+|dataset|closest)\($", before):
                continue  # a selector or an id, not text
            if _english(literal.group(0)[1:-1]):
                out.append(f"line {number}: {literal.group(0)[:60]}")
    return out


class _Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        for attr in ATTRIBUTES:
            if names.get(attr) and _english(names[attr]) and f"data-i18n-{attr}" not in names:
                self.problems.append(f"line {self.getpos()[0]}: <{tag} {attr}={names[attr][:40]!r}>")
        if tag not in ("input", "meta", "link", "br", "img"):
            marked = "data-i18n" in names or any(m for _, m in self.stack)
            self.stack.append((tag, marked))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        inside = [t for t, _ in self.stack]
        if not data.strip() or set(inside) & {"script", "style", "code"}:
            return
        if _english(data) and not any(m for _, m in self.stack):
            self.problems.append(f"line {self.getpos()[0]}: {' '.join(data.split())[:60]!r}")


def html_unmarked(source: str) -> list[str]:
    """The text and attributes of page ``source`` with a word and no ``data-i18n`` mark."""
    page = _Page()
    page.feed(source)
    return page.problems


def unmarked(name: str, source: str) -> list[str]:
    return html_unmarked(source) if name.endswith(".html") else js_unmarked(source)


@pytest.mark.parametrize("name", FILES)
def test_every_visible_string_of_the_practice_and_capture_pages_is_marked(name):
    assert unmarked(name, (STATIC / name).read_text(encoding="utf-8")) == []


def test_the_scan_finds_unmarked_text_of_every_kind():
    js = "\n".join([
        'say("the table was saved");',
        'node.textContent = `${n} planes found`;',
        'b.title = ok ? t("fine") : "not marked";',
        'el("button", { textContent: "Close" });',
        'throw new Error("no turn yet");',
        'say(t("the table was saved"));  // marked',
        'node.textContent = `${n} mm`;  // a unit',
        '$("status").textContent = "";',
    ])
    assert [line.split(":")[0] for line in js_unmarked(js)] == ["line 1", "line 2", "line 3", "line 4", "line 5"]
    page = ('<p>Hello there</p><p data-i18n>Marked text</p><label><span data-i18n>name</span> <input></label>'
            '<button title="Save the table">x</button><button title="Undo it" data-i18n-title>u</button>'
            '<strong>furball</strong>')
    assert len(html_unmarked(page)) == 2


SHADOW = re.compile(r"\b(?:const|let|var)\s+t\b|\(\s*t\s*(?:,[^)]*)?\)\s*=>|\bt\s*=>|function\s*\w*\s*\(\s*t\b")


@pytest.mark.parametrize("name", [f for f in FILES if f.endswith(".js")])
def test_a_module_that_writes_through_t_never_hides_it_with_a_local_t(name):
    source = (STATIC / name).read_text(encoding="utf-8")
    if re.search(r"import\s*\{[^}]*\bt\b[^}]*\}\s*from", source):
        assert [n for n, line in enumerate(source.splitlines(), 1) if SHADOW.search(line)] == []
