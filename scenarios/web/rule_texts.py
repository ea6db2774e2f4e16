"""The rules' texts by rule ID (``DF.T2``, ``WC.F4``, ``CN.P6``, ``YT.R1`` ...), for a page
to show a rule where it cites it (issue 34 item 10; docs/rooms.md, "Rules at hand").

The texts are furball's own words in ``docs/rules/*.md``: each rule a bullet
``- **ID** text`` (or ``- **ID Name** text``) (the ID with its game's prefix, or bare under a title that names the
prefix: "Dogfight rules (DF.*)"), its indented lines following, under a ``## `` section
heading. :func:`parse_rules` reads one such file. The installed package holds them as
``static/rules.json`` (package data, so a wheel ships them; :func:`rule_texts` reads
it), written from docs/rules by ``python -m furball.scenarios.web.rule_texts`` and kept
equal to them by a test (tests/test_rule_texts.py). The same rules in another language
(``docs/rules/es``: the same IDs, in Spanish, issue 33) are shipped as
``static/rules.es.json``; a reader of a language without its own file reads English.

An ID with a letter after its number (``DF.T1c``, ``CN.F2d``: a part of a rule) has the
text of its rule (:func:`rule_text`).
"""
from __future__ import annotations

import functools
import json
import re
import sys
from importlib import resources
from pathlib import Path

from furball.errors import InputError

__all__ = ["RULE_ID", "parse_rules", "rule_texts", "rule_text", "build"]

RULE_ID = re.compile(r"\b([A-Z]{2})\.([A-Z]+[0-9]+)([a-z]?)\b")
"""A rule ID as code, logs and pages cite it: its game's prefix, the rule, and an
optional part letter."""
_PREFIX = re.compile(r"\(`?([A-Z]{2})\.\*`?\)")
"""How a docs/rules file names its game's prefix: "(DF.*)" or "(`WC.*`)"."""
_BULLET = re.compile(r"^- \*\*(?:([A-Z]{2})\.)?([A-Z]+[0-9]+)(?: ([^*]+))?\*\*\s*(?:—\s*)?(.*)$")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")


def _plain(text: str) -> str:
    """Markdown emphasis, code marks and links as plain text."""
    return " ".join(_LINK.sub(r"\1", text).replace("**", "").replace("`", "").split())


def parse_rules(text: str, prefix: str) -> dict[str, dict]:
    """The rules of one docs/rules file (``text``) whose IDs carry ``prefix`` (``DF``):
    ID -> ``{"id", "section", "text"}`` (plain text, one paragraph). Raises
    :class:`InputError` for an ID given twice."""
    out: dict[str, dict] = {}
    section = ""
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("## "):
            section, current = _plain(line[3:]), None
            continue
        bullet = _BULLET.match(line)
        if bullet:
            given, number, name, rest = bullet.groups()
            rule = f"{given or prefix}.{number}"
            if rule in out:
                raise InputError(f"docs/rules: rule {rule} is given twice")
            current = [f"{name} {rest}" if name else rest]
            out[rule] = {"id": rule, "section": section, "parts": current}
        elif current is not None and line.startswith((" ", "\t")) and line.strip():
            current.append(line.strip())
        else:
            current = None
    return {k: {"id": v["id"], "section": v["section"], "text": _plain(" ".join(v["parts"]))} for k, v in out.items()}


def build(rules_dir: Path) -> dict[str, dict]:
    """Every rule of ``rules_dir`` (docs/rules), by ID, file by file in name order, each
    file's prefix the one its opening names ("(DF.*)"); a folder's ``README.md`` is not a
    rules file. Raises :class:`InputError` for a file that names none."""
    out: dict[str, dict] = {}
    for path in sorted(p for p in rules_dir.glob("*.md") if p.name != "README.md"):
        text = path.read_text(encoding="utf-8")
        prefix = _PREFIX.search(text)
        if prefix is None:
            raise InputError(f"{path.name}: expected its rules' prefix near the top, as (DF.*)")
        out.update(parse_rules(text, prefix[1]))
    return out


def _file_name(lang: str) -> str:
    return "rules.json" if lang == "en" else f"rules.{lang}.json"


@functools.lru_cache(maxsize=4)
def rule_texts(lang: str = "en") -> dict[str, dict]:
    """The shipped rules (``static/rules.json``; ``static/rules.<lang>.json`` in another
    language where there is one, else English), by ID. Read once per language."""
    static = resources.files("furball.scenarios.web").joinpath("static")
    shipped = static.joinpath(_file_name(str(lang)))
    if not shipped.is_file():
        shipped = static.joinpath("rules.json")
    return json.loads(shipped.read_text(encoding="utf-8"))["rules"]


def rule_text(rule_id: str, lang: str = "en") -> dict | None:
    """The rule ``rule_id`` (``DF.T2``; a part, ``DF.T1c``, gives its rule's text) in
    ``lang`` (:func:`rule_texts`), or ``None`` when there is none."""
    found = RULE_ID.fullmatch(rule_id) if isinstance(rule_id, str) and len(rule_id) <= 12 else None
    if found is None:
        return None
    return rule_texts(lang).get(f"{found[1]}.{found[2]}")


def _document(rules: dict[str, dict], source: str = "docs/rules/*.md") -> str:
    return json.dumps({"source": f"{source} (written by python -m furball.scenarios.web.rule_texts)",
                       "rules": rules}, ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str]) -> int:
    """``python -m furball.scenarios.web.rule_texts [DOCS_RULES]``: write
    ``static/rules.json`` from docs/rules (default: the repository's), and
    ``static/rules.<lang>.json`` from each of its language folders (``docs/rules/es``)."""
    here = Path(__file__).resolve().parent
    rules_dir = Path(argv[0]) if argv else here.parent.parent / "docs" / "rules"
    (here / "static" / "rules.json").write_text(_document(build(rules_dir)), encoding="utf-8")
    for folder in sorted(p for p in rules_dir.iterdir() if p.is_dir() and any(p.glob("*.md"))):
        (here / "static" / _file_name(folder.name)).write_text(
            _document(build(folder), f"docs/rules/{folder.name}/*.md"), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
