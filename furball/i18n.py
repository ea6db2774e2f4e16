"""Players in their own language: gettext catalogs (managed with Babel), the language a
reader wants, and messages kept as an id plus values until someone reads them.

* One catalog domain, :data:`DOMAIN` (``furball``), in :data:`LOCALE_DIR`
  (``furball/locale/<lang>/LC_MESSAGES/furball.po``, and the ``.mo`` that ``pip install``
  compiles from it: ``setup.py``'s build step, docs/i18n.md). A message id is its English
  text, with ``{name}`` fields for the values (``str.format`` syntax): English needs no
  catalog, and an id with no entry yet (a new string not translated) reads in English in
  every language.
* :func:`choose_lang` picks the reader's language: ``--lang es|en``, else ``LC_ALL``,
  ``LC_MESSAGES``, ``LANG`` (the first one set, POSIX order), else English.
* :class:`Message` is an immutable id plus values: what the engines and rooms store and
  send instead of English text; :func:`render` writes it in a language, so each reader
  reads the same event in their own. A value may itself be a :class:`Message` (a card's
  name, a term of the glossary): it is rendered in the same language.
* :func:`translator` returns the ``gettext`` of a language, the function every module
  binds to ``_`` where it writes text for a reader (``_ = translator(lang)``) so that
  ``pybabel extract`` finds the strings.

The glossary of the games' terms (``furball/locale/glossary.toml``, from the Spanish
rulebooks) is data the Spanish catalog follows; a test checks it does.

This module is at the bottom of the layers (like :mod:`furball.errors`): every layer
may import it. Source: issue 33.
"""
from __future__ import annotations

import enum
import functools
import gettext
import io
import os
import pathlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["DOMAIN", "LOCALE_DIR", "Lang", "Message", "MessageText", "Entry", "Phrase", "ENGLISH", "choose_lang", "msg", "msg_plural", "render", "render_entry", "translator",
           "plural_translator", "parse_lang", "DEFAULT_LANG", "N_"]

DOMAIN = "furball"
"""The one gettext domain of every catalog."""

LOCALE_DIR = pathlib.Path(__file__).resolve().parent / "locale"
"""Where the catalogs are: ``<lang>/LC_MESSAGES/furball.po`` (and ``.mo``), the template
``furball.pot`` and ``glossary.toml``."""


def N_(text: str) -> str:
    """Marks ``text`` for extraction without translating it (it is translated later,
    where a reader's language is known: module-level tables, ``--help`` lines)."""
    return text


class Lang(enum.StrEnum):
    """The languages a reader may choose (ISO 639-1 codes)."""

    EN = "en"
    ES = "es"


DEFAULT_LANG = Lang.EN

PROVENANCES = (N_("official"), N_("measured"), N_("reconstruction"))
"""The provenance of a data file's facts, as reports write them, for the catalog."""


def parse_lang(text: str) -> Lang | None:
    """``"es"``, ``"es_ES.UTF-8"``, ``"es-AR"``, ``"ES"`` -> :attr:`Lang.ES`; ``None`` for a
    language furball has no catalog for (``"C"``, ``"POSIX"``, ``"fr_FR"``, empty)."""
    code = str(text).strip().replace("-", "_").partition(".")[0].partition("@")[0].partition("_")[0].lower()
    try:
        return Lang(code)
    except ValueError:
        return None


def choose_lang(option: str | None = None, environ: Mapping[str, str] | None = None) -> Lang:
    """The reader's language: ``option`` (``--lang``) when given, else the first of
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set and not empty (``environ``, default
    ``os.environ``), else English. A locale with no catalog (``C``, ``fr_FR.UTF-8``) reads
    English. Raises :class:`~furball.errors.InputError` for an ``option`` that is not a
    language furball speaks."""
    if option is not None:
        lang = parse_lang(option)
        if lang is None or option.strip().lower() != lang.value:
            from furball.errors import InputError

            raise InputError(f"--lang {option[:20]!r}: expected one of {', '.join(lang.value for lang in Lang)}")
        return lang
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "").strip()
        if value and value.partition(".")[0] not in _NO_PREFERENCE:
            return parse_lang(value) or DEFAULT_LANG
    return DEFAULT_LANG


_NO_PREFERENCE = ("C", "POSIX")
"""Locales that say nothing about a language (``LC_ALL=C.UTF-8`` is set on many servers and
containers to fix the encoding): :func:`choose_lang` reads the next variable instead, so
``LANG=es_ES.UTF-8`` still chooses Spanish there."""


def _compiled(po: pathlib.Path) -> bytes:
    """The ``.mo`` bytes of a ``.po`` file, compiled in memory with Babel."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


@functools.lru_cache(maxsize=len(Lang))
def _translations(lang: Lang) -> gettext.NullTranslations:
    """The catalog of ``lang``: its ``.mo`` (compiled at install); where the ``.mo`` is
    missing or older than its ``.po`` (a source checkout whose ``.po`` was edited since
    ``pip install -e``), the ``.po`` compiled in memory, so a reader never sees a stale
    catalog and nothing is written outside the install. English has no entries."""
    if lang == Lang.EN:
        return gettext.NullTranslations()
    folder = LOCALE_DIR / lang.value / "LC_MESSAGES"
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        data = mo.read_bytes()
    elif po.is_file():
        data = _compiled(po)
    else:
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(data))


def translator(lang: Lang | str) -> Callable[[str], str]:
    """The ``gettext`` of ``lang``: English text -> the same text in ``lang`` (itself
    where the catalog has no translation yet; the empty string is itself, never the
    catalog's header)."""
    return _gettext(Lang(lang))


@functools.lru_cache(maxsize=len(Lang))
def _gettext(lang: Lang) -> Callable[[str], str]:
    get = _translations(lang).gettext

    def gettext(text: str) -> str:
        return get(text) if text else text

    return gettext


def plural_translator(lang: Lang | str) -> Callable[[str, str, int], str]:
    """The ``ngettext`` of ``lang``: ``(singular, plural, n)`` -> the form for ``n``."""
    return _translations(Lang(lang)).ngettext


@dataclass(frozen=True)
class Message:
    """A text for a reader, kept as its id (the English text, ``{name}`` fields) and its
    values until it is read: stored, sent and recorded like this, rendered per reader by
    :func:`render`. ``plural``: the plural id, chosen by the value ``count``.
    ``args``: ``(name, value)`` pairs, values JSON-ready or :class:`Message`."""

    id: str
    args: tuple[tuple[str, Any], ...] = ()
    plural: str | None = None

    def values(self) -> dict[str, Any]:
        return dict(self.args)

    def as_json(self) -> dict:
        """``{"id": ..., "args": {...}}`` (``"plural"`` too where there is one): what a
        room stores and sends; :meth:`from_json` reads it back."""
        out: dict[str, Any] = {"id": self.id, "args": {k: v.as_json() if isinstance(v, Message) else v
                                                       for k, v in self.args}}
        if self.plural is not None:
            out["plural"] = self.plural
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        args = tuple((k, cls.from_json(v) if isinstance(v, Mapping) and "id" in v else v)
                     for k, v in data.get("args", {}).items())
        return cls(data["id"], args, data.get("plural"))

    def __str__(self) -> str:
        return render(self, Lang.EN)


def ENGLISH(text: str) -> str:
    """English's translator: each text is itself (the ids are English)."""
    return text


class Phrase:
    """A text written only when read, by ``make(_, *args)`` with the reader's translator
    ``_`` (:func:`translator`): for text whose words and values are mixed by code (a list
    with its own words, a choice among several ids) where a single :class:`Message`
    would not do. ``args`` are immutable values, so the text is the one of the moment it
    was made. An engine's log entry or action text may take it as an argument
    (:func:`render_entry` asks its :meth:`in_language`); formatted as it is, English."""

    __slots__ = ("make", "args")

    def __init__(self, make: Callable[..., str], *args: Any):
        self.make, self.args = make, args

    def in_language(self, lang: Lang | str) -> str:
        return self.make(translator(lang), *self.args)

    def __format__(self, spec: str) -> str:
        return format(self.make(ENGLISH, *self.args), spec)

    def __str__(self) -> str:
        return self.make(ENGLISH, *self.args)


class MessageText(str):
    """A :class:`Message`'s English text that keeps the message: a ``str`` everywhere
    (compared, joined, written to JSON or a golden log: the English text, byte for
    byte), read in another language by :func:`render` (and as a log entry's argument).
    For values that have always been text (a move's rule events, ``takes a climb
    counter (1/3, DF.H6)``) and now have readers in other languages."""

    message: Message

    def __new__(cls, message: Message) -> MessageText:
        text = super().__new__(cls, render(message, Lang.EN))
        text.message = message
        return text

    def __reduce__(self):
        return (MessageText, (self.message,))


def msg(id: str, **args: Any) -> Message:
    """A :class:`Message` ``id`` with values ``args`` (``pybabel extract`` finds ``id``)."""
    return Message(id, tuple(args.items()))


def msg_plural(singular: str, plural: str, count: int, **args: Any) -> Message:
    """A :class:`Message` whose text depends on ``count`` (also a value: ``{count}``)."""
    return Message(singular, (("count", count), *args.items()), plural)


def render_entry(template: str, args: tuple, lang: Lang | str = DEFAULT_LANG) -> str:
    """A log entry of an engine (:data:`furball.scenarios.engine.frozen.LogEntry`: a
    ``template`` with ``{}`` fields, the English text, and its ``args``) in ``lang``: the
    template from the catalog (a translation may number its fields, ``{1} ... {0}``,
    to put them in another order), each argument that is a :class:`Message` rendered in
    ``lang`` too, and each that is a string (an enum's word: ``soldier``, ``draw cards``)
    read through the catalog (itself where it has no entry: a name, a card label)."""
    _ = translator(lang)
    text = _(template)
    if not args:
        return text
    return text.format(*(_argument(a, lang, _) for a in args))


def _argument(value: Any, lang: Lang | str, _: Callable[[str], str]) -> Any:
    """A log entry's argument in ``lang``: a :class:`Message` rendered, a word read
    through the catalog, a value that knows its words (``in_language(lang)``, e.g. White
    Christmas's lazy ``Text``) asked; anything else (a number, a name) as it is."""
    if isinstance(value, (Message, MessageText)):
        return render(value, lang)
    in_language = getattr(value, "in_language", None)
    if callable(in_language):  # before str: a line that is a str and knows its words (the dogfight's report)
        return in_language(Lang(lang))
    if isinstance(value, str):
        return _(value)
    return value


def render(message: Message | str, lang: Lang | str = DEFAULT_LANG) -> str:
    """``message`` written in ``lang``: its text from the catalog, its fields filled (a
    value that is a :class:`Message` rendered in ``lang`` too). A :class:`MessageText`
    is its message rendered; a plain ``str`` is returned as it is: text written before
    its module used messages still reads (in English) wherever a message is expected."""
    if isinstance(message, MessageText):
        return render(message.message, lang)
    if isinstance(message, str):
        return message
    lang = Lang(lang)
    values = {k: _value(v, lang) for k, v in message.args}
    if message.plural is None:
        text = translator(lang)(message.id)
    else:
        text = plural_translator(lang)(message.id, message.plural, int(values["count"]))
    return text.format(**values)


def _value(value: Any, lang: Lang) -> Any:
    """A message's value in ``lang``: a :class:`Message` (or :class:`MessageText`) rendered, a value that knows its
    words (``in_language(lang)``: a :class:`Phrase`, an :class:`Entry`) asked, anything
    else (a number, a name) as it is."""
    if isinstance(value, (Message, MessageText)):
        return render(value, lang)
    in_language = getattr(value, "in_language", None)
    return in_language(lang) if callable(in_language) else value


@dataclass(frozen=True)
class Entry:
    """An engine's log entry (``template``, ``args``: :func:`render_entry`) kept as a
    value of a :class:`Message` (a room's ``time ran out: {action}``, the action being
    the engine's ``describe_entry``): rendered in the message's language; formatted as
    it is, English."""

    template: str
    args: tuple = ()

    def in_language(self, lang: Lang | str) -> str:
        return render_entry(self.template, self.args, lang)

    def __format__(self, spec: str) -> str:
        return format(render_entry(self.template, self.args), spec)

    def __str__(self) -> str:
        return render_entry(self.template, self.args)


def accept_language(header: str | None) -> Lang:
    """The language of an HTTP ``Accept-Language`` header (``es-ES,es;q=0.9,en;q=0.8``):
    the one with a catalog and the highest weight (ties: the order given), else English."""
    best: tuple[float, int, Lang] | None = None
    for k, part in enumerate((header or "")[:500].split(",")):
        tag, _, params = part.strip().partition(";")
        lang = parse_lang(tag)
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                weight = 0.0
        if lang is not None and weight > 0 and (best is None or weight > best[0]):
            best = (weight, k, lang)
    return DEFAULT_LANG if best is None else best[2]


@functools.lru_cache(maxsize=len(Lang))
def catalog_json(lang: Lang) -> dict[str, str]:
    """Every translated message of ``lang`` as ``{id: text}`` (a plural entry under its
    singular id, its plural form): what a page's JavaScript reads (``t(id, values)``,
    ``static/js/i18n.js``). Empty for English (the ids are English)."""
    translations = _translations(Lang(lang))
    catalog = getattr(translations, "_catalog", {})
    out: dict[str, str] = {}
    for key, text in catalog.items():
        if isinstance(key, tuple):  # (singular, form index): a page writes counts with the plural form
            if key[1] == 1:
                out[key[0]] = text
        elif key:
            out[key] = text
    return out


def extract_html(fileobj, keywords, comment_tags, options):
    """A Babel extractor for the pages (``static/*.html``): the text of every element
    marked ``data-i18n`` (``<summary data-i18n>Log</summary>``), which the page's
    ``i18n.js`` replaces with its translation, and the ``title``, ``placeholder`` or
    ``aria-label`` of every element marked ``data-i18n-title`` (``-placeholder``,
    ``-aria-label``): the marker's value where it has one (``data-i18n-title="Close"``),
    else the attribute's own text (``title="Close" data-i18n-title``). Yields Babel's ``(line, funcname,
    message, comments)``."""
    import re

    text = fileobj.read().decode("utf-8")
    for match in re.finditer(r"<(\w+)[^>]*\sdata-i18n(?=[\s>=])[^>]*>([^<]+)</\1>", text):
        line = text.count("\n", 0, match.start()) + 1
        yield line, None, " ".join(match.group(2).split()), []
    for match in re.finditer(r"<\w+[^>]*>", text):  # data-i18n-title="..." or title="..." data-i18n-title
        tag = match.group(0)
        for attr in HTML_ATTRIBUTES:
            marker = re.search(rf'\sdata-i18n-{attr}(?:="([^"]*)")?(?=[\s>/])', tag)
            if not marker:
                continue
            value = marker.group(1) or next(iter(re.findall(rf'\s{attr}="([^"]+)"', tag)), None)
            if value:
                line = text.count("\n", 0, match.start()) + 1
                yield line, None, " ".join(value.split()), []


HTML_ATTRIBUTES = ("title", "placeholder", "aria-label")
"""The attributes a page translates where the element is marked ``data-i18n-<name>``
(``static/js/i18n.js``)."""


def extract_card_names(fileobj, keywords, comment_tags, options):
    """A Babel extractor for the data files whose names a reader reads through the catalog
    (babel.cfg: the maneuver decks, ``maneuvers/data/decks/*.toml``, and White Christmas's
    cards): the ``name`` of each table of every top-level array of tables (``[[card]]``:
    ``straight, fast``, ``climb (red stall)``; ``[[order]]``, ``[[sighting]]``,
    ``[[staircase]]``, ``[[upgrade]]``). Yields Babel's ``(line, funcname, message,
    comments)``."""
    import tomllib

    text = fileobj.read().decode("utf-8")
    tables = [t for value in tomllib.loads(text).values() if isinstance(value, list)
              for t in value if isinstance(t, dict)]
    for card in tables:
        if isinstance(card.get("name"), str):
            line = next((k + 1 for k, row in enumerate(text.splitlines()) if f'"{card["name"]}"' in row), 0)
            yield line, None, card["name"], []
