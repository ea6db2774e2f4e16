"""Players in their own language (issue 33): the catalogs, the glossary, messages as ids
with values, the language a reader gets, and the CLI in Spanish and English."""
import importlib.util
import json
import pathlib
import re
import string
import tomllib

import pytest

from furball.errors import InputError
from furball.i18n import LOCALE_DIR, Lang, Message, _compiled, choose_lang, msg, msg_plural, parse_lang, render

ROOT = pathlib.Path(__file__).resolve().parent.parent
PO = LOCALE_DIR / "es" / "LC_MESSAGES" / "furball.po"
GLOSSARY = tomllib.loads((LOCALE_DIR / "glossary.toml").read_text(encoding="utf-8"))["term"]


def _tool():
    spec = importlib.util.spec_from_file_location("catalog_tool", ROOT / "tools" / "catalog.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


catalog = _tool()


def _spanish():
    return catalog.read(PO)


def _entries():
    """``(id, translation)`` of every Spanish entry (each plural form separately)."""
    for m in _spanish():
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for k, text in enumerate(strings):
            yield ids[min(k, len(ids) - 1)], text


# -------------------------------------------------------------------------- the catalogs
def test_extraction_every_marked_string_is_in_the_template():
    """Re-extract the sources (babel.cfg, tools/catalog.py's keywords) and compare with the
    committed template: a string marked in the CLI, the reports or the engines' logs that
    is not in furball.pot fails here (fix: python tools/catalog.py update)."""
    fresh, committed = catalog.ids(catalog.extracted()), catalog.ids(catalog.read(catalog.POT))
    assert sorted(fresh - committed) == [], "not in furball.pot: run python tools/catalog.py update"
    assert sorted(committed - fresh) == [], "furball.pot has ids no source uses: run python tools/catalog.py update"


def test_completeness_spanish_has_every_template_entry_translated_and_not_fuzzy():
    spanish = _spanish()
    assert sorted(catalog.ids(catalog.read(catalog.POT)) - catalog.ids(spanish)) == []
    assert catalog.untranslated(spanish) == []


def _fields(text: str) -> list[str]:
    """The ``str.format`` fields of ``text``, by name (positional ones as ``{}``), sorted."""
    return sorted((name or "{}") + (f":{spec}" if spec else "")
                  for _, name, spec, _ in string.Formatter().parse(text) if name is not None)


def test_completeness_each_translation_keeps_the_fields_and_the_leading_indent():
    """A translation that drops or renames a ``{field}`` would raise or lose a value when
    rendered; the leading spaces are the log's indentation."""
    bad = [(i, s) for i, s in _entries()
           if _fields(re.sub(r"\{\d+", "{", i)) != _fields(re.sub(r"\{\d+", "{", s))
           or len(i) - len(i.lstrip(" ")) != len(s) - len(s.lstrip(" "))]
    assert bad == []


def test_the_po_compiles_in_memory_where_no_mo_was_built():
    """A source checkout whose .po is newer than its .mo reads the .po (compiled in memory)."""
    import gettext
    import io

    translations = gettext.GNUTranslations(io.BytesIO(_compiled(PO)))
    assert translations.gettext("Start of turn: tailing (DF.T1, DF.T3)").startswith("Inicio del turno")


# -------------------------------------------------------------------------- the glossary
def test_glossary_terms_have_a_source_and_a_provenance():
    assert len(GLOSSARY) >= 20
    for term in GLOSSARY:
        assert term["provenance"] in ("official", "reconstruction"), term
        assert term["source"] and term["en"] and term["es"] and term["game"], term


@pytest.mark.parametrize("term", GLOSSARY, ids=lambda t: t["en"][0].strip())
def test_glossary_the_spanish_catalog_uses_the_rulebooks_term(term):
    """Every Spanish entry whose English uses a glossary term (at the start of a word)
    uses the term the Spanish rulebook uses (ponerse a cola, trepada, azotea ...); a
    ``{field}``'s name is not text, nor is a capitalised word the Spanish keeps as it
    is (a name: the ``Sea Stallion`` helicopter is no stall)."""
    starts = [re.compile(r"(?<![A-Za-z])" + re.escape(e) + r"[A-Za-z]*", re.I) for e in term["en"]]

    def uses(english: str, spanish: str) -> bool:
        words = (m.group(0) for p in starts for m in p.finditer(re.sub(r"\{[^}]*\}", "", english)))
        return any(not (word[0].isupper() and word in spanish) for word in words)

    wrong = [(i, s) for i, s in _entries() if uses(i, s) and not any(es.lower() in s.lower() for es in term["es"])]
    assert wrong == []


def test_glossary_names_the_seed_terms_the_issue_asks_for():
    spanish = " | ".join(es for term in GLOSSARY for es in term["es"])
    for word in ("a cola", "trepada", "picado", "azotea", "escalera", "portaaviones"):
        assert word in spanish


# -------------------------------------------------------------------------- messages
def test_message_renders_per_language_and_keeps_values():
    m = msg("{plane} leaves the table (DF.E1)", plane="Camel")
    assert render(m, Lang.EN) == "Camel leaves the table (DF.E1)" == str(m)
    assert render(m, Lang.ES) == "Camel sale de la mesa (DF.E1)"
    assert Message.from_json(json.loads(json.dumps(m.as_json()))) == m


def test_message_values_that_are_messages_render_in_the_same_language():
    m = msg("{file}: {error}", file="a.toml", error=msg("--fps {fps}: expected 1 to 60 frames per second", fps=0))
    assert render(m, "es") == "a.toml: --fps 0: se esperaban de 1 a 60 fotogramas por segundo"
    assert Message.from_json(m.as_json()) == m


def test_message_plural_follows_the_count():
    one, many = (msg_plural(", {count} damage card", ", {count} damage cards", n) for n in (1, 3))
    assert (render(one, "es"), render(many, "es")) == (", 1 carta de daño", ", 3 cartas de daño")


def test_a_plain_string_or_an_id_not_yet_in_the_catalog_reads_in_english():
    """Strings written before their module used messages still read (the coordinator
    converts them later): a plain ``str`` is itself; an unknown id is its English."""
    assert render("the owner pauses the clock", "es") == "the owner pauses the clock"
    assert render(msg("a new line {n}", n=2), "es") == "a new line 2"


# -------------------------------------------------------------------------- the language chosen
@pytest.mark.parametrize(("env", "expected"), [
    ({}, Lang.EN),
    ({"LANG": "es_ES.UTF-8"}, Lang.ES),
    ({"LANG": "es_AR"}, Lang.ES),
    ({"LANG": "fr_FR.UTF-8"}, Lang.EN),
    ({"LC_ALL": "en_GB.UTF-8", "LANG": "es_ES.UTF-8"}, Lang.EN),
    ({"LC_MESSAGES": "es_ES.UTF-8", "LANG": "en_US.UTF-8"}, Lang.ES),
    ({"LC_ALL": "C.UTF-8", "LANG": "es_ES.UTF-8"}, Lang.ES),
    ({"LC_ALL": "", "LC_MESSAGES": "POSIX", "LANG": "es"}, Lang.ES),
])
def test_language_from_the_environment_in_posix_order(env, expected):
    assert choose_lang(None, env) == expected


def test_language_option_wins_over_the_environment_and_a_bad_one_is_one_line():
    assert choose_lang("es", {"LC_ALL": "en_US.UTF-8"}) == Lang.ES
    assert parse_lang("ES-es") == Lang.ES and parse_lang("C") is None
    with pytest.raises(InputError, match=r"^--lang 'fr': expected one of en, es$"):
        choose_lang("fr", {})


# -------------------------------------------------------------------------- the CLI
def test_cli_turn_duel_lang_es_prints_a_spanish_report(cli):
    code, out, err = cli(["turn", "duel", "--lang", "es"])
    assert code == 0, err
    assert "Inicio del turno: ponerse a cola (DF.T1, DF.T3)" in out and "Maniobra 3" in out
    assert "Fin del turno" in out and "Start of turn" not in out and "End of turn" not in out


def test_cli_play_canuck_with_lang_es_in_the_environment_prints_spanish(cli, monkeypatch):
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    code, out, err = cli(["play", "canuck", "--seed", "7"])
    assert code == 0, err
    assert out.startswith("preparación (mapa 'canuck', reconstrucción)")
    assert "Partisanos" in out and "fin de la partida tras" in out
    english = re.compile(r"\b(declared|draws|success|failure|garrison|moves from|game over)\b")
    assert [line for line in out.splitlines() if english.search(line)] == []


@pytest.mark.parametrize("argv", [["turn", "duel", "--json"], ["play", "canuck", "--seed", "3", "--json"]],
                         ids=["turn", "canuck"])
def test_cli_json_is_byte_identical_across_languages(cli, argv, monkeypatch):
    monkeypatch.setenv("LC_ALL", "")
    outputs = set()
    for lang in ("en", "es"):
        code, out, err = cli([*argv, "--lang", lang])
        assert code == 0, err
        outputs.add(out)
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    outputs.add(cli(argv)[1])
    assert len(outputs) == 1


def test_cli_english_is_the_default_and_the_same_as_lang_en(cli, monkeypatch):
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert cli(["turn", "duel"]) == cli(["turn", "duel", "--lang", "en"])


def test_cli_help_spanish_lines(capsys):
    from furball.scenarios.cli import main

    for argv, english, spanish in ((["--help"], "show this help message and exit", "muestra esta ayuda y sale"),
                                   (["turn", "--help"], "print the report as JSON", "imprime el informe como JSON")):
        for lang, line in (("en", english), ("es", spanish)):
            with pytest.raises(SystemExit):
                main([*argv, "--lang", lang])
            assert line in " ".join(capsys.readouterr().out.split())
    with pytest.raises(SystemExit):
        main(["--help", "--lang", "es"])
    out = capsys.readouterr().out
    assert out.startswith("uso: furball") and "arbitra un turno de combate aéreo" in out


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "furball: error: --fps 0: expected 1 to 60 frames per second\n"),
    ("es", "furball: error: --fps 0: se esperaban de 1 a 60 fotogramas por segundo\n"),
])
def test_cli_errors_keep_the_one_line_contract_in_both_languages(cli, lang, expected):
    code, out, err = cli(["turn", "duel", "--fps", "0", "--lang", lang])
    assert (code, out, err) == (2, "", expected)


def test_cli_an_unknown_language_is_one_line_and_status_2(cli):
    assert cli(["turn", "duel", "--lang", "fr"]) == (2, "", "furball: error: --lang 'fr': expected one of en, es\n")


# -------------------------------------------------------------------------- rooms: the log per viewer
def _wc_room(steps=12):
    from furball.scenarios.web.rooms import Room, make_spec

    room = Room.new(make_spec({"game": "white-christmas", "options": {}, "seed": 11, "seats": None}))
    for _ in range(steps):
        if room.terminal:
            break
        room, _ = room.act(room.to_act, 0, room.view_version(room.to_act), now=0.0)
    return room


def test_room_log_is_kept_as_ids_and_values_and_rendered_per_viewer():
    """White Christmas: one room, seat 1 reads Spanish and seat 2 English; the same
    entries, each reader's words (WC log lines are engine entries, never English text)."""
    room = _wc_room()
    log = room.log_for(0)
    assert any(isinstance(e, tuple) for line in log for e in line.entries)  # (template, args), not text
    spanish = [line.as_json("es") for line in log]
    english = [line.as_json("en") for line in room.log_for(1)]
    assert english[0]["lines"] == list(room.log_for(1)[0].lines)  # English is the engine's own text
    assert any("azoteas, de izquierda a derecha" in t for t in spanish[0]["lines"])
    assert any("rooftops, left to right" in t for t in english[0]["lines"])
    assert not any("rooftops" in t for entry in spanish for t in entry["lines"])
    mine = [x["action"] for x in spanish if x["action"]]  # the seat's own action lines, in its language too
    assert mine and all(a.startswith(("tomar", "volar", "jugar", "rescatar", "pasar")) for a in mine)


def test_room_replayed_from_its_events_reads_in_either_language():
    from furball.scenarios.web.rooms import Room

    room = _wc_room()
    again = Room.replay(room.spec, room.events)
    for lang in ("en", "es"):
        assert [x.as_json(lang) for x in again.log_for(None)] == [x.as_json(lang) for x in room.log_for(None)]


def test_room_owner_lines_are_messages_too():
    from furball.scenarios.web.rooms import LogLine, render_line

    line = msg("the owner pauses the clock at {time}", time="1:05")
    assert LogLine(3, None, None, (line,)).as_json("es")["lines"] == ["el propietario detiene el reloj a las 1:05"]
    assert render_line("a line no catalog knows", "es") == "a line no catalog knows"


# -------------------------------------------------------------------------- the pages
@pytest.mark.parametrize(("header", "expected"), [
    (None, Lang.EN), ("", Lang.EN), ("es-ES,es;q=0.9,en;q=0.8", Lang.ES), ("en-US,en;q=0.9,es;q=0.8", Lang.EN),
    ("fr-FR,fr;q=0.9,es;q=0.5", Lang.ES), ("es;q=0, en;q=0.1", Lang.EN), ("es;q=oops", Lang.EN),
])
def test_pages_language_from_accept_language(header, expected):
    from furball.i18n import accept_language

    assert accept_language(header) == expected


def test_pages_get_their_catalog_by_accept_language_or_by_choice():
    from starlette.testclient import TestClient

    from furball.scenarios.web import create_app

    client = TestClient(create_app(), base_url="http://127.0.0.1:8000")
    spanish = client.get("/api/i18n", headers={"Accept-Language": "es-ES,es;q=0.9"}).json()
    assert spanish["lang"] == "es" and spanish["messages"]["Log"] == "Registro"
    assert spanish["messages"]["connected"] == "conectado"
    chosen = client.get("/api/i18n?lang=en", headers={"Accept-Language": "es"}).json()
    assert (chosen["lang"], chosen["messages"]) == ("en", {})
    assert client.get("/api/i18n?lang=xx").json()["lang"] == "en"


def test_pages_marked_text_is_extracted_from_the_html():
    import io

    from furball.i18n import extract_html

    page = b'<p>\n<summary data-i18n>Log</summary><a class="b" href="/rooms" data-i18n>Lobby</a><b>x</b>'
    assert [(line, m) for line, _, m, _ in extract_html(io.BytesIO(page), (), (), {})] == [(2, "Log"), (2, "Lobby")]


@pytest.mark.parametrize("argv", [[], ["turn"], ["play"], ["play", "canuck"], ["play", "white-christmas"],
                                  ["play", "yorktown"], ["play", "dogfight"], ["move"], ["fan"], ["zones"],
                                  ["analyze"], ["sweep"], ["serve"], ["warm"], ["print"], ["print", "markers"],
                                  ["capture"], ["capture", "table"], ["capture", "calibrate"], ["capture", "card"]],
                         ids=lambda a: " ".join(a) or "furball")
def test_extraction_every_help_line_of_the_translated_commands_is_in_the_catalog(argv):
    """Re-extract ``--help`` from the parsers themselves (descriptions, option lines, the
    command list): a line of a command's ``--help`` that is not in the catalog fails here
    (mark it with ``N_`` or ``msg``)."""
    import argparse

    from furball.scenarios.cli import build_parser

    ids = catalog.ids(catalog.read(catalog.POT))
    parser = build_parser(argv, lang=None)
    for word in argv:
        parser = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[word]
    lines = [parser.description] + [a.help for a in parser._actions if a.help != argparse.SUPPRESS]
    lines += [c.help for a in parser._actions if isinstance(a, argparse._SubParsersAction)
              for c in a._choices_actions if argv != ["play"]]  # play's list is the games' titles (names)
    missing = [line for line in lines if line and (line.id if isinstance(line, Message) else line) not in ids]
    assert missing == []


@pytest.mark.parametrize("game, options", [
    ("white-christmas", {"players": 3}), ("white-christmas", {"solo": True}),
    ("yorktown", {"players": 2, "novices": 1, "expansions": frozenset({"expert", "tank", "weather"})})])
def test_a_whole_game_log_in_spanish_has_no_line_left_in_english(game, options):
    """Issue 33: every line of a White Christmas or a Yorktown log (set-up, events, actions,
    outcome) reads in Spanish: none is the English line itself, as a line no id matched
    would be; and the English log is the engine's own text."""
    from furball.scenarios.engine.registry import load_game
    from furball.scenarios.engine.runner import play_game

    record = play_game(load_game(game), 3, options=options)
    english, spanish = record.log_lines(Lang.EN), record.log_lines(Lang.ES)
    assert len(spanish) == len(english) > 50
    assert [es for en, es in zip(english, spanish) if en == es] == []
    assert english[-1] == record.final.outcome()[-1]


def test_a_finished_rooms_outcome_reaches_each_reader_in_its_language():
    """WC.F7: the update of a finished White Christmas room carries the game's end in the
    subscriber's language (the view's own outcome stays English)."""
    import asyncio
    import json as json_module

    from furball.scenarios.web.hub import Hub
    from furball.scenarios.web.store import SQLiteStore

    async def main():
        hub = Hub(SQLiteStore(":memory:"), bot_delay_s=0.0)
        made = await hub.create({"game": "white-christmas", "options": {"players": 2}, "seed": 5,
                                 "seats": ["random", "random"]})
        live = await hub.live(made["room"])
        for _ in range(2000):
            if live.room.terminal:
                break
            await asyncio.sleep(0.01)
        said = {}
        for lang in ("es", "en"):
            sub = await hub.subscribe(made["room"], None, lang=lang)
            said[lang] = json_module.loads(hub.message(live, sub))["outcome"]
        await hub.close()
        return live.room, said

    room, said = asyncio.run(main())
    assert room.terminal and said["en"] == list(room.state.outcome())
    assert said["es"] != said["en"] and said["es"][0].startswith("puntuación final")


# -------------------------------------------------------------------------- argparse's own lines, the web API's refusals
@pytest.mark.parametrize(("argv", "en", "es"), [
    (["bogus"], "argument COMMAND: invalid choice: 'bogus' (choose from ",
     "argumento COMMAND: opción no válida: 'bogus' (elige entre "),
    (["turn"], "turn: the following arguments are required: scenario",
     "turn: se requieren los argumentos siguientes: scenario"),
    (["turn", "duel", "--nope"], "unrecognized arguments: --nope", "argumentos no reconocidos: --nope"),
    (["turn", "duel", "--fps", "x"], "turn: argument --fps: invalid int value: 'x'",
     "turn: argumento --fps: valor int no válido: 'x'"),
])
def test_cli_argparse_errors_read_in_the_readers_language_one_line_status_2(cli, argv, en, es):
    for lang, expected in (("en", en), ("es", es)):
        code, out, err = cli([*argv, "--lang", lang])
        assert (code, out) == (2, "") and err.startswith(f"furball: error: {expected}") and err.count("\n") == 1


def test_cli_argparse_error_templates_match_what_argparse_writes():
    import argparse

    from furball.scenarios.cli import argparse_error

    parser = argparse.ArgumentParser(exit_on_error=False)
    parser.add_argument("--n", type=int, choices=[1, 2])
    for bad, english in ((["--n", "x"], "argument --n: invalid int value: 'x'"),
                         (["--n", "3"], "argument --n: invalid choice: 3 (choose from 1, 2)")):
        with pytest.raises(argparse.ArgumentError) as caught:
            parser.parse_args(bad)
        assert str(caught.value) == english
        assert argparse_error(str(caught.value), "en") == english
        assert argparse_error(str(caught.value), "es") != english  # a template matched and was translated
    assert argparse_error("a line argparse never writes", "es") == "a line argparse never writes"


def test_web_refusals_read_in_the_requests_language_one_line_4xx():
    from starlette.testclient import TestClient

    from furball.scenarios.web import create_app

    client = TestClient(create_app(), base_url="http://127.0.0.1:8000")
    bad = {"scenario": {"plane": []}, "extra": 1}
    english = client.post("/api/analyse", json=bad)
    spanish = client.post("/api/analyse", json=bad, headers={"Accept-Language": "es-ES,es;q=0.9"})
    chosen = client.post("/api/analyse?lang=es", json=bad)
    assert english.status_code == spanish.status_code == chosen.status_code == 400
    assert english.json() == {"error": "request: unknown field 'extra' (expected: scenario)"}
    assert spanish.json() == chosen.json() == {"error": "petición: campo desconocido 'extra' (se esperaba: scenario)"}
    deck = client.get("/api/cards?base=nope", headers={"Accept-Language": "es"})
    assert deck.status_code == 422 and deck.json()["error"].startswith("base 'nope': se esperaba una de ")


def test_web_analysis_writes_the_tail_reasons_in_the_requests_language():
    from starlette.testclient import TestClient

    from furball.scenarios.web import create_app

    client = TestClient(create_app(), base_url="http://127.0.0.1:8000")
    plane = {"side": "A", "deck": "A", "base": "small", "altitude": 1}
    doc = {"scenario": {"name": "t", "turn": 1}, "table": {"width_mm": 900, "height_mm": 900},
           "plane": [{**plane, "name": "P1", "pose": {"x_mm": 300, "y_mm": 300, "heading_deg": 0}},
                     {**plane, "name": "P2", "side": "B", "pose": {"x_mm": 320, "y_mm": 400, "heading_deg": 180}}]}
    said = {}
    for lang in ("en", "es"):
        a = client.post(f"/api/analyse?lang={lang}", json={"scenario": doc}).json()
        said[lang] = [r["text"] for c in a["near_misses"] for r in c["reasons"]]
    assert said["en"] and len(said["en"]) == len(said["es"]) and not set(said["en"]) & set(said["es"])


def test_capture_card_description_in_both_languages_with_the_decimal_comma():
    from furball.capture.card import CardFit

    fit = CardFit("arc", 0.0, 125.5, -45.25, (80.0, -30.5, -45.25),
                  {"radius_mm": 0.5, "angle_deg": 0.25}, 0.125, 0.0625)
    assert fit.describe() == fit.describe("en") == (
        "arc of radius 125.50 mm +-0.50, -45.25 deg +-0.25 (95 %); tip at x 80.00, y -30.50 mm, heading -45.25 deg; "
        "points fit to 0.12 mm RMS at 0.062 mm per pixel")
    assert fit.describe("es").startswith("arco de radio 125,50 mm +-0,50, -45,25 grados +-0,25 (95 %); punta en x 80,00")


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "field 'table': expected a value (the field is missing)"),
    ("es", "campo 'table': se esperaba un valor (falta el campo)"),
])
def test_cli_a_data_files_error_from_below_the_cli_reads_in_the_readers_language(cli, tmp_path, lang, expected):
    bad = tmp_path / "bad.toml"
    bad.write_text('[scenario]\nname = "x"\n', encoding="utf-8")
    code, out, err = cli(["turn", str(bad), "--lang", lang])
    assert (code, out) == (2, "") and err == f"furball: error: {bad}: {expected}\n"
    code, out, err = cli(["turn", str(tmp_path / "none.toml"), "--lang", lang])
    assert code == 2 and err.endswith({"en": ": no such file\n", "es": ": no existe ese archivo\n"}[lang])


@pytest.mark.parametrize(("lang", "scenario", "people"), [
    (None, "plane 'Camel': field 'pose': expected the stand on the 900 x 900 mm table, got (2000.0, 420.0) mm "
           "(a plane off the table is out of the game, DF.E1: say status = \"out\")",
     "field 'type': expected 32 People tokens in all (the rules' count), got 28"),
    ("es", "avión 'Camel': campo 'pose': se esperaba el soporte sobre la mesa de 900 x 900 mm, llegó (2000.0, "
           "420.0) mm (un avión fuera de la mesa queda fuera de la partida, DF.E1: indica status = \"out\")",
     "campo 'type': se esperaba 32 fichas de persona en total (el número de las reglas), llegó 28"),
])
def test_cli_a_bad_scenario_or_card_game_file_is_one_line_in_the_readers_language_DF_E1_WC_G6(
        cli, tmp_path, monkeypatch, lang, scenario, people):
    """The loaders' errors below the CLI are messages (scenarios/dogfight/table.py, White
    Christmas's components): Spanish with ``--lang es``, the same English line without."""
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.delenv("LANG", raising=False)
    duel = (ROOT / "scenarios" / "examples" / "duel.toml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(duel.replace("x_mm = 250.0", "x_mm = 2000.0", 1), encoding="utf-8")
    data = tmp_path / "wc"
    data.mkdir()
    shipped = (ROOT / "scenarios" / "white_christmas" / "data" / "people.toml").read_text(encoding="utf-8")
    (data / "people.toml").write_text(shipped.replace("tokens = 8", "tokens = 7"), encoding="utf-8")
    tail = ["--lang", lang] if lang else []
    code, out, err = cli(["turn", bad, *tail])
    assert (code, out, err) == (2, "", f"furball: error: {bad}: {scenario}\n")
    code, out, err = cli(["play", "white-christmas", "--data", data, *tail])
    assert (code, out, err) == (2, "", f"furball: error: {data / 'people.toml'}: {people}\n")


@pytest.mark.parametrize("command", [["move", "--deck", "A", "--cards", "A1,A5"], ["fan", "A"]])
def test_cli_move_and_fan_reports_in_spanish_and_json_language_free(cli, command):
    code, es, _ = cli([*command, "--lang", "es"])
    assert code == 0 and "mazo A (reconstrucción), base pequeña 44 x 60 mm" in es and "recta, rápida" in es
    assert not re.search(r"\b(deck|card|name|heading|straight|where)\b", es)
    assert cli([*command, "--json", "--lang", "es"])[1] == cli([*command, "--json", "--lang", "en"])[1]


def test_cli_zones_report_in_spanish_with_the_reasons_in_the_glossarys_words(cli):
    furball = str(ROOT / "scenarios" / "examples" / "furball.toml")
    code, es, _ = cli(["zones", furball, "--plane", "Nieuport", "--lang", "es"])
    code_en, en, _ = cli(["zones", furball, "--plane", "Nieuport", "--lang", "en"])
    assert code == code_en == 0 and "la zona de cola para un enemigo" in es and "tail zone for an enemy" in en
    assert "no se le puede poner a cola: el perseguidor" in es and not re.search(r"\b(tail|tailed|chaser|range)\b", es)


# ------------------------------------------- the CLI's last English lines (issue 33)
def test_cli_written_to_lines_read_in_the_readers_language_and_json_is_unchanged(cli, tmp_path):
    plot = tmp_path / "fan.svg"
    code, es, err = cli(["fan", "A", "--plot", plot, "--lang", "es"])
    assert code == 0, err
    assert es.rstrip().endswith(f"gráfico escrito en {plot}") and "written to" not in es
    code, en, err = cli(["fan", "A", "--plot", plot, "--lang", "en"])
    assert code == 0 and en.rstrip().endswith(f"plot written to {plot}")
    assert cli(["fan", "A", "--json", "--lang", "es"])[1] == cli(["fan", "A", "--json", "--lang", "en"])[1]


def test_cli_a_true_scale_pdfs_description_reads_in_spanish():
    from furball.i18n import render
    from furball.viz.true_scale import plan_true_scale

    layout = plan_true_scale((0, 400, 0, 300), paper="A4")
    assert layout.describe() == "4 pages (2 rows x 2 columns), A4 landscape, scale 1:1"
    assert render(layout.describe(), "es") == "4 páginas (2 filas x 2 columnas), A4 apaisado, escala 1:1"


def test_cli_analyze_tail_lines_df_t1_read_in_spanish_and_json_is_unchanged(cli):
    code, es, err = cli(["analyze", "duel", "--plane", "Camel", "--top", "1", "--lang", "es"])
    assert code == 0, err
    assert "Camel se pone a cola de Albatros al inicio (DF.T1)" in es and " tails " not in es
    argv = ["analyze", "duel", "--plane", "Camel", "--top", "1", "--json"]
    es, en = (json.loads(cli([*argv, "--lang", lang])[1]) for lang in ("es", "en"))
    es.pop("seconds"), en.pop("seconds")  # the one value that is a timing
    assert es == en and es["enemies"][0]["tails"] == "Camel tails Albatros"


def test_analyze_equilibrium_report_reads_in_spanish():
    import dataclasses

    from planes import DECKS, HARMLESS, plane, table

    from furball.scenarios.dogfight.equilibrium import equilibrium, equilibrium_text

    four = dataclasses.replace(DECKS["A"], name="four", autonomous=None, cards=tuple(
        c for c in DECKS["A"].cards if c.id in ("A1", "A3", "A6", "A7")))
    duel = table(plane("Camel", 250, 420, 0, side="Allies").replace(deck=four),
                 plane("Albatros", 400, 440, 10, side="Central").replace(deck=four), damage_decks=HARMLESS)
    found = equilibrium(duel, "Camel")
    es, en = equilibrium_text(found, 1, "es"), equilibrium_text(found, 1)
    assert "valor del juego para Camel" in es and "estrategia mixta de Albatros" in es and "(--top)" in es
    assert not re.search(r"\b(value|mixed strategy|plan pairs|payoff|more plans)\b", es)
    assert "value of the game for Camel" in en and en == equilibrium_text(found, 1, "en")


@pytest.mark.parametrize("game", ["canuck", "yorktown"])
def test_cli_interactive_prompts_read_in_spanish(cli, monkeypatch, game):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO("x\n1\nq\n"))
    code, out, err = cli(["play", game, "--interactive", "--seed", "9", "--lang", "es"])
    assert code == 0 and err == "", err
    assert "elige 1-" in out and "(q para salir)" in out and "escribe un número del 1 al" in out
    assert "partida sin terminar" in out
    assert not re.search(r"choose 1-|please type|game left unfinished|end of input", out)  # the prompts


def test_the_lobby_offers_every_games_options_in_the_readers_language():
    """Issue 33: every option a lobby shows (the dogfight's and the room's own included)
    has its label and help in Spanish for a Spanish reader; the names sent back stay the
    engine's."""
    from furball.scenarios.web.rooms import games_json

    english, spanish = games_json(Lang.EN), games_json(Lang.ES)
    for en_game, es_game in zip(english, spanish):
        for en, es in zip(en_game["options"], es_game["options"]):
            assert es["name"] == en["name"]
            assert es["help"] != en["help"], (es_game["name"], en["name"], es["help"])
    dogfight = {o["name"]: o for g in spanish if g["name"] == "dogfight" for o in g["options"]}
    assert dogfight["chaser_limit_s"]["help"].startswith("segundos que tiene un perseguidor")
