#!/usr/bin/env python3
"""The message catalogs (docs/i18n.md), with Babel: run from the repository's root.

    python tools/catalog.py extract   # furball/locale/furball.pot from the sources (babel.cfg)
    python tools/catalog.py update    # extract, then merge into every <lang>/LC_MESSAGES/furball.po
                                      # (new ids untranslated, gone ids dropped)
    python tools/catalog.py check     # exit 1 naming what is stale or untranslated

A translator then fills the empty ``msgstr`` of the ``.po`` (``update`` prints how many);
``pip install`` compiles the ``.mo`` (setup.py). tests/test_i18n.py runs the same checks.
"""
from __future__ import annotations

import io
import pathlib
import sys

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

ROOT = pathlib.Path(__file__).resolve().parent.parent
LOCALE = ROOT / "furball" / "locale"
POT = LOCALE / "furball.pot"
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "msg": None, "msg_plural": (1, 2), "log": None, "t": None}
"""The calls whose first string is a message: gettext's names (``_``, ``ngettext`` ...),
``N_`` (marked, translated later), :func:`furball.i18n.msg` and ``msg_plural``, and an
engine's log line (``w.log(template, *args)``, :mod:`furball.scenarios.engine.frozen`), and
the pages' ``t(id, values)`` (``static/js/i18n.js``); the pages' ``data-i18n`` elements
through :func:`furball.i18n.extract_html` (babel.cfg)."""


def extracted() -> Catalog:
    """Every message the sources mark (babel.cfg says which files, :data:`KEYWORDS`
    which calls), as a template catalog, locations left out."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    catalog = Catalog(project="furball", copyright_holder="the furball authors", fuzzy=False)
    for _file, _line, message, comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=KEYWORDS, strip_comment_tags=True):
        catalog.add(message, None, auto_comments=comments, context=context)
    return catalog


def ids(catalog: Catalog) -> set:
    return {m.id for m in catalog if m.id}


def languages() -> list[str]:
    return sorted(p.parent.parent.name for p in LOCALE.glob("*/LC_MESSAGES/furball.po"))


def read(path: pathlib.Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f)


def _write(path: pathlib.Path, catalog: Catalog) -> None:
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=True, no_location=True, omit_header=False)
    path.write_bytes(out.getvalue())


def untranslated(catalog: Catalog) -> list[str]:
    """The ids of ``catalog`` with no translation, or only a fuzzy (unchecked) one."""
    out = []
    for m in catalog:
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if m.fuzzy or not all(strings):
            out.append(m.id if isinstance(m.id, str) else m.id[0])
    return out


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    template = extracted()
    if command in ("extract", "update"):
        _write(POT, template)
        print(f"{POT.relative_to(ROOT)}: {len(ids(template))} messages")
    if command == "update":
        for lang in languages():
            path = LOCALE / lang / "LC_MESSAGES" / "furball.po"
            catalog = read(path)
            catalog.update(template, no_fuzzy_matching=True)
            catalog.obsolete.clear()
            _write(path, catalog)
            print(f"{path.relative_to(ROOT)}: {len(untranslated(catalog))} to translate")
        return 0
    if command == "check":
        problems = []
        if ids(template) != ids(read(POT)):
            problems.append(f"{POT.relative_to(ROOT)} is stale: run python tools/catalog.py update")
        for lang in languages():
            path = LOCALE / lang / "LC_MESSAGES" / "furball.po"
            missing = ids(template) - ids(read(path))
            empty = untranslated(read(path))
            if missing or empty:
                problems.append(f"{path.relative_to(ROOT)}: {len(missing)} missing, {len(empty)} untranslated")
        print("\n".join(problems) or "catalogs complete")
        return 1 if problems else 0
    return 0 if command in ("extract", "update") else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
