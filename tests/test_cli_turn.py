"""`furball turn` on the shipped scenarios, its JSON schema, and bad scenario files."""
import contextlib
import io
import json
import pathlib

import jsonschema
import pytest
from hypothesis import given, settings
from strategies import mangled

from furball.scenarios.cli import main
from furball.scenarios.dogfight.scenario import load_scenario

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "scenarios" / "examples").glob("*.toml"))
SCHEMA = json.loads((ROOT / "docs" / "turn-report.schema.json").read_text())



def test_at_least_three_examples_ship():
    names = {p.stem for p in EXAMPLES}
    assert {"duel", "furball", "bomber"} <= names


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_each_shipped_scenario_reports_plots_and_saves(example, tmp_path, cli):
    plot, state = tmp_path / "turn.png", tmp_path / "state.toml"
    code, out, err = cli(["turn", example, "--plot", plot, "--out", state])
    assert code == 0, err
    assert "Maneuver 3" in out and "End of turn" in out
    assert plot.read_bytes()[:4] == b"\x89PNG"
    after = load_scenario(state)
    assert after.table.turn == load_scenario(example).table.turn + 1
    code, out, _ = cli(["turn", example, "--json"])
    assert code == 0
    jsonschema.validate(json.loads(out), SCHEMA)


def test_same_seed_same_report(cli):
    example = ROOT / "scenarios" / "examples" / "bomber.toml"
    first = cli(["turn", example, "--json", "--seed", "11"])[1]
    again = cli(["turn", example, "--json", "--seed", "11"])[1]
    assert first == again and json.loads(first)["seed"] == 11


def test_shipped_scenarios_show_what_they_promise(cli):
    """duel: a tail (DF.T1); furball: an overlap and a possible collision (DF.O1, DF.C1);
    bomber: a multi-engine plane dropping bombs (DF.B2) and autonomous fire (DF.A2)."""
    def report(name):
        return json.loads(cli(["turn", ROOT / "scenarios" / "examples" / f"{name}.toml", "--json"])[1])
    duel = report("duel")
    assert duel["start"]["tails"] and duel["start"]["tails"][0]["ok"]
    fur = report("furball")
    tests = [t for m in fur["maneuvers"] for t in m["collisions"]]
    assert any(m["overlaps"] for m in fur["maneuvers"]) and tests and 0 < tests[0]["probability_value"] < 1
    bomb = report("bomber")
    assert any(m["bombs"] for m in bomb["maneuvers"]) and any(m["autonomous_fire"] for m in bomb["maneuvers"])


GOOD = (ROOT / "scenarios" / "examples" / "duel.toml").read_text()


@pytest.mark.parametrize("change, words", [
    (('deck = "A"', 'deck = "Z"'), ["plane 'Camel'", "field 'deck'", "deck 'Z'"]),
    (("altitude = 2", "altitude = 5"), ["plane 'Camel'", "field 'altitude'", "at most the ceiling 3", "5"]),
    (('name = "Albatros"', 'name = "Camel"'), ["plane #2", "field 'name'", "'Camel'"]),
    (('plan = ["A1", "A3", "A4"]', 'plan = ["A1", "A3"]'), ["plane 'Camel'", "field 'plan'", "3 card ids"]),
    (('plan = ["A1", "A3", "A4"]', 'plan = ["A8", "A9", "A4"]'), ["plane 'Camel'", "card 'A9'", "DF.M5"]),
    (("width_mm = 900.0", "width_mm = -1"), ["table", "field 'width_mm'", "positive"]),
    (("[table]", "[tabel]"), ["unknown field 'tabel'"]),
])
def test_bad_scenarios_give_one_line_exit_2_and_no_output_file(change, words, tmp_path, cli):
    bad = tmp_path / "bad.toml"
    assert change[0] in GOOD
    bad.write_text(GOOD.replace(*change, 1), encoding="utf-8")
    plot, state = tmp_path / "p.png", tmp_path / "s.toml"
    code, out, err = cli(["turn", bad, "--plot", plot, "--out", state, "--json"])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert str(bad) in err
    for w in words:
        assert w in err
    assert not plot.exists() and not state.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.toml"]


def test_bad_output_names_are_refused_before_any_work(tmp_path, cli):
    example = ROOT / "scenarios" / "examples" / "duel.toml"
    code, _, err = cli(["turn", example, "--out", tmp_path / "state.json"])
    assert code == 2 and "--out" in err and ".toml" in err
    code, _, err = cli(["turn", example, "--plot", tmp_path / "nodir" / "x.png"])
    assert code == 2 and "does not exist" in err


@pytest.mark.slow
@settings(max_examples=100)
@given(mangled(GOOD))
def test_fuzz_malformed_scenarios_never_escape_as_a_traceback(tmp_path_factory, text):
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "s.toml"
    path.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["turn", str(path), "--json", "--seed", "1", "--out", str(folder / "next.toml")])
    assert code in (0, 2)
    if code == 2:
        assert err.getvalue().count("\n") == 1 and out.getvalue() == ""
        assert not (folder / "next.toml").exists()
    else:
        jsonschema.validate(json.loads(out.getvalue()), SCHEMA)


def test_negative_seed_is_a_user_error(capsys):
    assert main(["turn", str(ROOT / "scenarios" / "examples" / "duel.toml"), "--seed", "-1"]) == 2
    err = capsys.readouterr().err
    assert "--seed" in err and "from 0" in err and err.count("\n") == 1


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_the_python_api_gives_the_same_report_as_the_cli(example, cli):
    """Issue #9: adjudicating through Python values gives the CLI's JSON, byte for byte."""
    from furball.scenarios.dogfight import adjudicate, turn_json

    s = load_scenario(example)
    result = adjudicate(s.table, s.orders, seed=s.seed, policy=s.policy, samples=False)
    code, out, _ = cli(["turn", example, "--json"])
    assert code == 0 and json.loads(out) == json.loads(json.dumps(turn_json(result)))


def test_auto_given_twice_plans_both_planes(cli):
    """Issue #26 item 9: every --auto counts (it used to keep only the last)."""
    code, out, err = cli(["turn", "duel", "--auto", "Camel", "--auto", "Albatros"])
    assert code == 0
    assert "Camel was planned by the analysis" in out and "Albatros was planned by the analysis" in out


def test_issue_27_margins_in_the_report_and_its_json(cli):
    """`--margins`: every ruling with its deciding margin and rule ID, close calls with
    their flip chance; `--json` carries them (schema); margins are absent without it."""
    example = ROOT / "scenarios" / "examples" / "bomber.toml"
    code, out, err = cli(["turn", example, "--margins", "--close-call", "1%", "--seed", "5"])
    assert code == 0, err
    assert "Margins (docs/margins.md)" in out and "[DF.E1]" in out and "close call" in out
    code, out, _ = cli(["turn", example, "--json", "--margins", "--placement-error", "2mm,0.5deg", "--seed", "5"])
    doc = json.loads(out)
    jsonschema.validate(doc, SCHEMA)
    assert doc["margins"]["placement_error"] == {"xy_mm": 2.0, "heading_deg": 0.5}
    rulings = [r for s in doc["margins"]["steps"] for r in s["rulings"]]
    assert {r["kind"] for r in rulings} >= {"tail", "firing", "table"}
    assert all(r["flip"]["high"] - r["flip"]["low"] < 0.02 for r in rulings if r["flip"]["samples"])
    assert "margins" not in json.loads(cli(["turn", example, "--json", "--seed", "5"])[1])


@pytest.mark.parametrize("option", [["--placement-error", "1cm"], ["--close-call", "150%"]])
def test_issue_27_bad_margin_options_fail_in_one_line(cli, option):
    code, out, err = cli(["turn", ROOT / "scenarios" / "examples" / "duel.toml", "--margins", *option])
    assert code == 2 and err.count("\n") == 1 and err.startswith("furball: error: ") and not out
