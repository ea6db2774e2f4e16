"""Issue 34 item 10: every rule ID a page shows opens the rule's text. The texts come
from docs/rules (shipped as static/rules.json, kept equal to them here) and every rule
ID the engines cite has one."""
import json
import pathlib
import re

import pytest
from starlette.testclient import TestClient

from furball.scenarios.web import create_app
from furball.scenarios.web.rule_texts import RULE_ID, build, parse_rules, rule_text, rule_texts

ROOT = pathlib.Path(__file__).resolve().parent.parent
ENGINE_CODE = ("scenarios/dogfight", "scenarios/canuck", "scenarios/white_christmas", "scenarios/yorktown",
               "scenarios/engine", "scenarios/web/views", "maneuvers", "geometry")


def test_the_shipped_rule_texts_are_docs_rules_as_they_are_now():
    shipped = json.loads((ROOT / "scenarios/web/static/rules.json").read_text(encoding="utf-8"))["rules"]
    assert shipped == build(ROOT / "docs" / "rules"), \
        "docs/rules changed: run python -m furball.scenarios.web.rule_texts"
    assert rule_texts() == shipped
    assert "static/*.json" in (ROOT / "pyproject.toml").read_text()  # in the wheel


def test_every_rule_id_the_engines_cite_has_a_text():
    cited = set()
    for folder in ENGINE_CODE:
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".toml", ".js"):
                cited |= {m.group(0) for m in RULE_ID.finditer(path.read_text(encoding="utf-8"))}
    assert len(cited) > 100
    missing = sorted(c for c in cited if rule_text(c) is None)
    assert not missing, f"rule IDs cited by the engines with no text in docs/rules: {missing}"


@pytest.mark.parametrize("rule, says", [("DF.T2", "shows its first card"), ("DF.T1c", "rear edge"),
                                        ("WC.F4", "sealed bid"), ("CN.P6", "Ambush"), ("YT.A1", "Search")])
def test_a_rule_id_and_its_parts_give_the_rules_text(rule, says):
    assert says in rule_text(rule)["text"]


def test_unknown_ids_have_no_text_and_a_rule_given_twice_is_refused():
    assert rule_text("DF.Z9") is None and rule_text("nonsense") is None and rule_text("DF.T2" * 10) is None
    with pytest.raises(ValueError, match="DF.M1 is given twice"):
        parse_rules("## A\n\n- **M1** one\n- **M1** two\n", "DF")
    rules = parse_rules("## Moves (M)\n\n- **M1** one `card`\n  goes [here](x.md).\n\nnot a rule\n", "DF")
    assert rules == {"DF.M1": {"id": "DF.M1", "section": "Moves (M)", "text": "one card goes here."}}


def test_the_server_gives_every_rule_and_one_rule():
    with TestClient(create_app(), base_url="http://127.0.0.1") as client:
        every = client.get("/api/rules").json()["rules"]
        assert every["DF.T2"]["section"] == "Tailing (T)"
        assert client.get("/api/rules/DF.T1c").json()["id"] == "DF.T1"
        r = client.get("/api/rules/XX.Q1")
        assert r.status_code == 404 and re.search("no such rule", r.json()["error"])


def test_issue33_the_rules_in_spanish_are_docs_rules_es_with_the_same_ids():
    """docs/rules/es ships as static/rules.es.json: the same rule IDs as the English, in
    Spanish; a Spanish reader's page gets them (``?lang=es`` or Accept-Language)."""
    shipped = json.loads((ROOT / "scenarios/web/static/rules.es.json").read_text(encoding="utf-8"))["rules"]
    assert shipped == build(ROOT / "docs" / "rules" / "es"), \
        "docs/rules/es changed: run python -m furball.scenarios.web.rule_texts"
    assert set(shipped) == set(rule_texts()) and rule_texts("es") == shipped
    assert rule_text("DF.T1c", "es")["id"] == "DF.T1" and rule_text("DF.T2", "es") != rule_text("DF.T2")
    assert rule_texts("fr") == rule_texts()  # a language without its own rules reads English
    with TestClient(create_app(), base_url="http://127.0.0.1") as client:
        es = client.get("/api/rules", headers={"Accept-Language": "es-ES"}).json()["rules"]
        assert es == shipped and client.get("/api/rules?lang=es").json()["rules"] == shipped
        assert client.get("/api/rules/DF.T2?lang=es").json() == shipped["DF.T2"]
