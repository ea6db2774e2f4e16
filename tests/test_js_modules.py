"""The web pages' pure JavaScript modules agree with the Python engine (DF.M2, DF.M3).

``js/geometry.js`` (poses, corners, stands) and ``js/plans.js`` (a plan's cards flown
from a pose with the kit of ``/api/cards``) draw the previews of the practice table and
the dogfight rooms. Their tests (``tests/js/*.test.mjs``) run on node's own test runner
(``node --test``, no npm packages), on values this file computes with the Python
package: random poses and points, both shipped bases, every card of the shipped decks.
Skipped, with the reason, where node is not installed.
"""
from __future__ import annotations

import dataclasses
import json
import math
import os
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

from furball.geometry.base import rectangle_corners
from furball.geometry.pose import Pose, normalize_heading_deg
from furball.maneuvers.move import move
from furball.maneuvers.path import card_outline
from furball.maneuvers.plane import Engines, PlaneKind
from furball.scenarios.web.api import Catalogue, _base_json, cards
from furball.scenarios.web.record import game_record
from furball.scenarios.web.rooms import Room, make_spec
from furball.scenarios.web.views.dogfight import silhouette

ROOT = pathlib.Path(__file__).resolve().parent.parent
STATIC_JS = ROOT / "scenarios" / "web" / "static" / "js"
TESTS_JS = ROOT / "tests" / "js"
NODE = shutil.which("node")


def _pose(rng) -> list[float]:
    return [float(rng.uniform(-500, 1500)), float(rng.uniform(-500, 1500)), float(rng.uniform(-720, 720))]


def geometry_cases(rng) -> dict:
    catalogue = Catalogue.shipped()
    bases = [cards(None, name, catalogue)["base"] for name in sorted(catalogue.bases)] + \
        [cards(None, "44x60", catalogue)["base"]]
    out: dict[str, list] = {"compose": [], "apply": [], "norm": [], "corners": [], "stand": [], "direction": []}
    quarter = [[0.0, 0.0, 90.0], [10.0, -4.0, 180.0], [3.0, 7.0, 270.0], [1.0, 2.0, -90.0]]
    for k in range(40):
        a, b = (quarter[k], quarter[(k + 1) % 4]) if k < 4 else (_pose(rng), _pose(rng))
        out["compose"].append({"a": a, "b": b, "expected": (Pose(*a) @ Pose(*b)).as_array().tolist()})
        point = [float(rng.uniform(-100, 100)), float(rng.uniform(-100, 100))]
        out["apply"].append({"pose": a, "point": point, "expected": Pose(*a).apply([point])[0].tolist()})
        out["norm"].append({"heading": a[2], "expected": float(normalize_heading_deg(a[2]))})
        out["direction"].append({"a": a[:2], "b": b[:2], "expected": float(normalize_heading_deg(
            math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))))})
        base = bases[k % len(bases)]
        pose = Pose(*a)
        out["corners"].append({"pose": a, "base": base, "expected": rectangle_corners(
            pose.as_array(), base["length_mm"], base["width_mm"]).reshape(4, 2).tolist()})
        out["stand"].append({"pose": pose.as_array().tolist(), "base": base,
                             "stand": pose.apply([base["stand"]])[0].tolist()})
    for h in (0.0, 360.0, -0.0, 359.9999999, -360.0, 1e-12, -1e-12, 725.5):
        out["norm"].append({"heading": h, "expected": float(normalize_heading_deg(h))})
    return out


def plan_cases(rng) -> list[dict]:
    catalogue = Catalogue.shipped()
    out = []
    for deck_name in sorted(catalogue.decks):
        deck = catalogue.deck(deck_name)
        for base_name in sorted({deck.base or "small", "large"}):
            base = catalogue.base(base_name)
            kit = cards(deck_name, base_name, catalogue)
            ids = [c.id for c in deck.cards]
            for _ in range(3):
                plan = [ids[int(i)] for i in rng.integers(0, len(ids), 3)]
                start = _pose(rng)
                moved = move(deck, base, Pose(*start), plan)
                out.append({"deck": deck_name, "kit": kit, "start": start, "cards": plan,
                            "poses": [p.as_array().tolist() for p in moved.poses],
                            "corners": [rectangle_corners(p.as_array(), base.length_mm, base.width_mm).reshape(4, 2).tolist()
                                        for p in moved.poses],
                            "arrows": [np.asarray(a).tolist() for a in moved.arrows]})
    return out


def look_cases(rng) -> dict:
    """The silhouette of planes of every kind, engines and arcs (the rooms' choice), and
    cards laid in front of bases at random poses (maneuvers.path.card_outline)."""
    import types
    from dataclasses import replace

    catalogue = Catalogue.shipped()
    silhouettes = []
    for base_name in sorted(catalogue.bases):
        for arcs in (((0.0, 45.0),), ((0.0, 45.0), (180.0, 60.0)), ((-120.0, 30.0),), ((90.0, 20.0),)):
            base = replace(catalogue.base(base_name), firing_arcs=arcs)
            for kind in PlaneKind:
                for engines in Engines:
                    p = types.SimpleNamespace(kind=kind, engines=engines, base=base)
                    silhouettes.append({"plane": {"kind": str(kind), "engines": str(engines)},
                                        "base": _base_json(base), "expected": silhouette(p)})
    laid = []
    for deck_name in sorted(catalogue.decks):
        deck = catalogue.deck(deck_name)
        for base_name in sorted({deck.base or "small", "large"}):
            base = catalogue.base(base_name)
            kit = cards(deck_name, base_name, catalogue)
            for card, kit_card in zip(deck.cards, kit["cards"]):
                pose = _pose(rng)
                laid.append({"pose": pose, "card": kit_card, "front_mark_mm": base.front_mark_mm,
                             "expected": card_outline(Pose(*pose), card, base).tolist()})
    return {"silhouettes": silhouettes, "cards": laid}


def record_cases() -> dict:
    """A finished dogfight's game record (issue 34 item 9): the file's text, every
    viewer's views step by step, and the turns it replays."""
    spec = make_spec({"game": "dogfight", "seed": 3})
    room = Room.new(dataclasses.replace(spec, controllers=("random",) * len(spec.controllers)))
    while not room.terminal:
        room = room.bot_event()[0]
    record = game_record(room, 0)
    return {"text": json.dumps(record.as_json()), "views": [[s.view for s in v.steps] for v in record.viewers],
            "turns": list(range(1, room.state.table.turn))}


@pytest.mark.skipif(NODE is None, reason="node is not installed (the pages' JavaScript tests run on node --test)")
def test_the_pages_pure_modules_agree_with_the_engine(tmp_path):
    rng = np.random.default_rng(20261127)
    (tmp_path / "cases.json").write_text(json.dumps({"geometry": geometry_cases(rng), "plans": plan_cases(rng),
                                                     "look": look_cases(rng), "record": record_cases()}))
    # the page's modules next to their tests, as ES modules whatever node's default
    for name in ("geometry.js", "plans.js", "look.js", "record.js", "i18n.js"):  # record.js writes through i18n.js
        shutil.copy(STATIC_JS / name, tmp_path / name)
    for test in TESTS_JS.glob("*.mjs"):
        shutil.copy(test, tmp_path / test.name)
    (tmp_path / "package.json").write_text('{"type": "module"}\n')
    tests = sorted(p.name for p in tmp_path.glob("*.test.mjs"))
    assert tests == ["geometry.test.mjs", "look.test.mjs", "plans.test.mjs", "record.test.mjs"]
    done = subprocess.run([NODE, "--test", *tests], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "FURBALL_JS_CASES": str(tmp_path / "cases.json")})
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout and "# pass 0" not in done.stdout


@pytest.mark.skipif(NODE is None, reason="node is not installed (the pages' JavaScript tests run on node --test)")
def test_the_js_tests_can_fail(tmp_path):
    # a wrong engine value fails node's run: the comparison is real
    rng = np.random.default_rng(1)
    geometry = geometry_cases(rng)
    geometry["compose"][5]["expected"][0] += 0.01
    (tmp_path / "cases.json").write_text(json.dumps({"geometry": geometry, "plans": []}))
    for name in ("geometry.js",):
        shutil.copy(STATIC_JS / name, tmp_path / name)
    for name in ("geometry.test.mjs", "close.mjs"):
        shutil.copy(TESTS_JS / name, tmp_path / name)
    (tmp_path / "package.json").write_text('{"type": "module"}\n')
    done = subprocess.run([NODE, "--test", "geometry.test.mjs"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "FURBALL_JS_CASES": str(tmp_path / "cases.json")})
    assert done.returncode != 0 and "compose" in done.stdout


def test_issue37_no_page_module_is_over_about_500_lines():
    """Issue 37 item 7: the pages' JavaScript in small modules (a module split by concern
    before it grows past ~500 lines)."""
    static = pathlib.Path(__file__).resolve().parent.parent / "scenarios" / "web" / "static" / "js"
    sizes = {p.relative_to(static).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
             for p in static.rglob("*.js")}
    assert sizes and {name: n for name, n in sizes.items() if n > 500} == {}
