"""The web table's JSON API as plain functions: documents in, documents out (no HTTP).

The page's **document** is a scenario file's data as JSON: the same tables and fields as
the TOML of docs/scenario.md (``scenario``, ``table``, ``ruler``, ``rules``, ``plane``),
so it is read by the CLI's own loader (:func:`~scenarios.dogfight.parse_scenario`) and
written by its own writer (:func:`~scenarios.dogfight.scenario_toml`). Decks and bases
are named only (shipped ones, those of the scenario given to ``furball serve``, or a
base's ``LENGTHxWIDTH``): nothing a request says ever opens a file. Every mistake raises
:class:`~geometry.errors.InputError` with one line; the HTTP layer (:mod:`.app`) turns it
into a 4xx answer. Endpoints and shapes: docs/serve.md.
"""
from __future__ import annotations

import json
import math
import pathlib
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from cachetools import LRUCache

from furball.errors import InputError
from furball.geometry import kernels as gk
from furball.geometry.base import Base
from furball.geometry.datafile import parse_toml
from furball.geometry.pose import Pose
from furball.i18n import DEFAULT_LANG, Lang, msg, render
from furball.maneuvers.bases import shipped_bases, sized_base
from furball.maneuvers.batch import Planes, overlaps
from furball.maneuvers.deck import Deck, shipped_decks
from furball.maneuvers.firing import shots
from furball.maneuvers.margins import PlacementError, firing_rulings, flip_chances, overlap_rulings, tail_rulings
from furball.maneuvers.path import arrow_points, card_outline, path_poses
from furball.maneuvers.placement import card_motion
from furball.maneuvers.plan import plan_problem
from furball.maneuvers.plane import default_rules
from furball.maneuvers.tailing import choose_tails, tail_check, tail_checks
from furball.maneuvers.zones import zones
from furball.scenarios.dogfight import (
    ReorderPolicy,
    Scenario,
    adjudicate,
    analyze,
    parse_scenario,
    plane_json,
    scenario_toml,
    turn_json,
)
from furball.scenarios.dogfight.analysis import warm as analysis_warm
from furball.scenarios.dogfight.margins import CLOSE_CALL
from furball.scenarios.dogfight.report import replay_json
from furball.scenarios.dogfight.table import needs_plan
from furball.viz import style

__all__ = ["Catalogue", "MAX_BODY_BYTES", "MAX_WEB_PLANES", "MAX_JS_INT", "read_json", "document",
           "read_document", "analysis", "cards", "adjudication", "zones_json", "open_toml", "save_toml",
           "best_plans", "meta", "practice", "warm", "PLAN_TREES"]

MAX_BODY_BYTES = 256 * 1024
"""The largest request body accepted (a scenario of 60 planes is about 30 KiB)."""
MAX_WEB_PLANES = 60
"""The most planes on a table served to the page (every request recomputes the whole
table, so more would make dragging sluggish)."""
MAX_JS_INT = 2**53 - 1
"""The largest whole number a page's JavaScript keeps exactly; larger seeds are refused
rather than silently changed."""
PLAN_TREES = 16
"""Plan trees (and legal plans) a process keeps for Best plans requests: a few tables'
planes, each tree a few MB for a deck of 15 cards."""
PATH_SAMPLES = 24
"""Poses kept per card path for drawing (the engine samples every 2 mm)."""


class _OutOfRange:
    """A JSON number past :data:`MAX_JS_INT` in size, NaN or infinite, as written."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text if len(text) <= 40 else text[:37] + "..."


def _whole(text: str) -> int | _OutOfRange:
    try:
        value = int(text)
    except ValueError:  # more digits than Python converts
        return _OutOfRange(text)
    return value if abs(value) <= MAX_JS_INT else _OutOfRange(text)


def _real(text: str) -> float | _OutOfRange:
    value = float(text)
    return value if math.isfinite(value) and abs(value) <= MAX_JS_INT else _OutOfRange(text)


def _out_of_range(value: Any) -> _OutOfRange | None:
    if isinstance(value, _OutOfRange):
        return value
    if isinstance(value, list):
        return next((found for v in value if (found := _out_of_range(v)) is not None), None)
    return None


def _fields(pairs: list[tuple[str, Any]]) -> dict:
    for key, value in pairs:
        bad = _out_of_range(value)
        if bad is not None:
            raise InputError(msg("request: field {field}: expected a finite number of at most 2**53-1 in size, "
                                 "got {value}", field=repr(key[:40]), value=bad.text))
    return dict(pairs)


def read_json(text: str | bytes) -> Any:
    """A request's JSON (a body or a socket message), every number in it checked once,
    here: finite and at most :data:`MAX_JS_INT` in size (what a page's JavaScript keeps
    exactly), so no handler meets a number it cannot compute with. Raises
    :class:`InputError` naming the field (``request: field 'players': expected a finite
    number ...``) for ``2**64``, ``1e999``, ``NaN`` or ``Infinity``; ``ValueError`` for text
    that is not JSON, ``RecursionError`` for absurd nesting."""
    data = json.loads(text, parse_int=_whole, parse_float=_real, parse_constant=_OutOfRange,
                      object_pairs_hook=_fields)
    bad = _out_of_range(data)
    if bad is not None:
        raise InputError(msg("request: expected finite numbers of at most 2**53-1 in size, got {value}", value=bad.text))
    return data


@dataclass(frozen=True)
class Catalogue:
    """The decks and bases a request may name: ``decks`` (name -> Deck) and ``bases``
    (name -> Base); a base may also be ``LENGTHxWIDTH`` mm. ``folder``: where a saved
    file would find the deck files of the scenario given on the command line."""

    decks: Mapping[str, Deck]
    bases: Mapping[str, Base]
    folder: pathlib.Path = field(default_factory=pathlib.Path)

    @classmethod
    def shipped(cls) -> Catalogue:
        """The shipped decks (``maneuvers/data/decks``) and bases (``bases.toml``)."""
        return cls(shipped_decks(), shipped_bases())

    def with_scenario(self, s: Scenario, folder: pathlib.Path) -> Catalogue:
        """This catalogue plus the decks and bases of ``s`` (a file the user named on
        the command line), by name. Raises :class:`InputError` when one of them has a
        shipped deck's or base's name but other contents."""
        decks, bases = dict(self.decks), dict(self.bases)
        for p in s.table.planes:
            for kind, known, item in (("deck", decks, p.deck), ("base", bases, p.base)):
                if item is None or sized_base(item.name or "") is not None:
                    continue
                if item.name in known and known[item.name] != item:
                    raise InputError(f"{s.source}: plane '{p.name}': {kind} '{item.name}' (from "
                                     f"{getattr(item, 'source', '') or 'a file'}) has the name of another {kind}; "
                                     f"rename it to serve this scenario")
                known[item.name] = item
        return Catalogue(decks, bases, folder.resolve())

    def deck(self, name: Any) -> Deck:
        """The deck called ``name``. Raises :class:`InputError` listing the known decks."""
        if isinstance(name, str) and name in self.decks:
            return self.decks[name]
        raise InputError(msg("deck {deck}: expected one of {decks}", deck=_short(name), decks=", ".join(sorted(self.decks))))

    def base(self, spec: Any) -> Base:
        """The base named ``spec`` or of size ``LENGTHxWIDTH`` mm. Raises :class:`InputError`."""
        if isinstance(spec, str):
            if spec in self.bases:
                return self.bases[spec]
            sized = sized_base(spec)
            if sized is not None:
                return sized
        raise InputError(msg("base {base}: expected one of {bases} or LENGTHxWIDTH in mm", base=_short(spec),
                             bases=", ".join(sorted(self.bases))))


def _short(value: Any, most: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= most else text[:most - 3] + "..."


def _points(a) -> list:
    return np.round(np.asarray(a, float), 4).tolist()


def _base_json(base: Base, rules=None) -> dict:
    arcs = base.firing_arcs if base.firing_arcs is not None else (rules or default_rules()).default_arcs
    return {"name": base.name, "length_mm": base.length_mm, "width_mm": base.width_mm,
            "front_mark_mm": base.front_mark_mm, "rear_mark_mm": base.rear_mark_mm,
            "stand": [base.stand_x_mm, base.stand_y_mm], "firing_arcs": [list(a) for a in arcs]}


def _base_ref(base: Base, catalogue: Catalogue) -> str:
    if catalogue.bases.get(base.name) == base:
        return base.name
    return f"{np.format_float_positional(base.length_mm, trim='-')}x" \
           f"{np.format_float_positional(base.width_mm, trim='-')}"


def document(s: Scenario, catalogue: Catalogue) -> dict:
    """The page's document for ``s``: the scenario file's data (docs/scenario.md) with
    every field written out, decks and bases by name."""
    doc = tomllib.loads(scenario_toml(s, catalogue.folder))
    for entry, p in zip(doc["plane"], s.table.planes):
        if p.deck is not None:
            entry["deck"] = p.deck.name
        entry["base"] = _base_ref(p.base, catalogue)
    return doc


def read_document(doc: Any, catalogue: Catalogue, source: str = "table") -> Scenario:
    """A :class:`Scenario` from the page's document, read by the scenario loader with
    decks and bases looked up by name only. Raises :class:`InputError` (one line)."""
    if not isinstance(doc, dict):
        raise InputError(msg("{source}: expected the table as a JSON object, got {value}", source=source,
                             value=_short(doc)))
    planes = doc.get("plane")
    if isinstance(planes, list) and len(planes) > MAX_WEB_PLANES:
        raise InputError(msg("{source}: field 'plane': expected at most {most} planes on the web table, got {count}",
                             source=source, most=MAX_WEB_PLANES, count=len(planes)))
    s = parse_scenario(doc, source, decks=catalogue.decks, bases=catalogue.bases)
    if s.seed is not None and s.seed > MAX_JS_INT:
        raise InputError(f"{source}: scenario: field 'seed': expected at most 2**53-1 on the web table "
                         f"(JavaScript numbers), got {s.seed}")
    return s


def analysis(s: Scenario, lang: Lang | str = DEFAULT_LANG) -> dict:
    """What the table shows now, computed by the engine: each plane's outline, stand and
    plan error (DF.M1, DF.M5, DF.B1, DF.H3 with ``PlanError.rule``); the tails that
    would be taken at the start of the turn (DF.T1, DF.T3) and every other tail that
    passes; the near misses (enemies within the ruler that fail, with every reason);
    the firing positions (DF.O2, DF.O3); the overlapping pairs (DF.O1). Each tail check
    and firing position carries its deciding ``margin``, its ``flip`` chance under a
    hand's placement error (1 mm, 1 degree; drawn from the scenario's seed, so the same
    table shows the same chances; estimated within :data:`FLIP_WITHIN` errors of the
    threshold, else null) and whether it is a ``close_call`` (a flip chance above 5 %),
    and ``overlap_margins`` lists the
    overlap margin of every pair of bases overlapping or less than 20 mm apart
    (:mod:`maneuvers.margins`, docs/margins.md). ``lang``: the reader's language, the
    reasons' ``text`` written in it (docs/i18n.md)."""
    t = s.table
    rules = t.rules
    planes = []
    for p in t.planes:
        o = s.orders.get(p.name)
        error = None
        if needs_plan(p) and o is not None and o.plan is not None:
            problem = plan_problem(p, o.plan, o.drops, rules)
            if problem is not None:
                error = {"rule": problem.rule, "card": problem.card, "message": render(problem.message, lang)}
        planes.append({"name": p.name, "side": p.side, "stand": _points(p.stand),
                       "corners": _points(p.base.corners(p.pose)), "needs_plan": needs_plan(p),
                       "plan_error": error})
    everyone = list(t.planes)
    wishes = {n: o.tail for n, o in s.orders.items() if o.tail is not None}
    chosen = choose_tails(everyone, rules, wishes)
    options, near = [], []
    enemies = [(a.name, b.name) for a in everyone for b in everyone if a is not b and a.side != b.side]
    for c in tail_checks(enemies, everyone, rules):  # every pair in one pass of the batch kernels
        if c.ok:
            options.append(c)
        elif c.distance_mm <= rules.ruler_length_mm and not (set(c.rules) & {"DF.H3", "DF.E1", "DF.T7", "DF.A1"}):
            near.append(c)
    on_table = [p for p in everyone if p.on_table]
    touching = np.triu(overlaps(Planes.of(on_table)), 1)  # DF.O1, near pairs only, by the batch kernels
    board_overlaps = [[on_table[i].name, on_table[j].name] for i, j in zip(*np.nonzero(touching))]
    unmet = [tail_check(t.plane(c), t.plane(w), everyone, rules) for c, w in sorted(wishes.items())
             if c not in chosen]
    # each ruling's deciding margin and flip chance (docs/margins.md), shown on the ruling
    # under the cursor: the chance under a hand's placement error (1 mm, 1 degree), drawn
    # from the scenario's seed, so the same table always shows the same chances
    # one check per (chaser, target): a tail taken is also among the options
    checks = list({(c.chaser, c.target): c for c in list(chosen.values()) + options + near + unmet}.values())
    tail_ruling = _with_flips(tail_rulings(checks, everyone, rules), t, s.seed or 0)
    fire_ruling = _with_flips([r for r in firing_rulings(everyone, rules) if r.holds], t, s.seed or 0)

    def with_margin(out: dict, r) -> dict:
        m = None if r is None else r.deciding()
        flip = None if r is None else r.flip
        return {**out, "margin": None if m is None else m.as_json(),
                "flip": None if flip is None else flip.as_json(),
                "close_call": flip is not None and flip.chance > CLOSE_CALL}

    def tail(c) -> dict:
        out = c.as_json()
        out["reasons"] = [{**r.as_json(), "text": r.words(lang)} for r in c.reasons]
        return with_margin(out, tail_ruling.get((c.chaser, c.target)))

    def shot(x) -> dict:
        return with_margin(x.as_json(), fire_ruling.get((x.shooter, x.target)))

    return {"planes": planes,
            "tails": [tail(c) for c in chosen.values()],
            "options": [tail(c) for c in options],
            "near_misses": [tail(c) for c in near],
            "unmet_wishes": [tail(c) for c in unmet],
            "shots": [shot(x) for x in shots(everyone, rules)],
            "overlaps": board_overlaps,
            "overlap_margins": [{"planes": list(r.planes), "margin": r.margins[0].as_json()}
                                for r in overlap_rulings(everyone)]}


FLIP_WITHIN = 8.0
"""The web table estimates a ruling's flip chance when its deciding margin is within this
many placement errors (1 mm, 1 degree) of its threshold; a ruling farther from it flips
in far fewer than 1 % of placements and carries no estimate (``flip`` null)."""


def _with_flips(rulings, table, seed: int) -> dict:
    """``rulings`` by their planes, each near its threshold (:data:`FLIP_WITHIN`) with its
    flip chance under :class:`~maneuvers.margins.PlacementError` (1 mm, 1 degree)."""
    error = PlacementError()
    near = []
    for r in rulings:
        m = r.deciding(error)
        if m is not None and abs(m.value) / error.scale(m.unit) <= FLIP_WITHIN:
            near.append(r)
    out = {r.planes: r for r in rulings}
    out.update((r.planes, r) for r in flip_chances(near, table.planes, table.rules, table.width_mm, table.height_mm,
                                                    error, seed))
    return out


def cards(deck_name: Any, base_spec: Any, catalogue: Catalogue) -> dict:
    """A deck's cards flown on a base, in the base's own frame (centre at the origin,
    heading +x): each card's ``motion`` (where it puts the base centre, DF.M2, DF.M3),
    its laid ``arrow``, sampled ``path`` poses and the ``outline`` of the card laid in
    front of the base (four corners, :func:`~furball.maneuvers.path.card_outline`: drawn
    under the base as it moves in a replay). The page turns these by a plane's pose to
    preview a plan (the same product the engine uses: pose · motion). With no deck (a
    balloon), only the base."""
    base = catalogue.base(base_spec)
    out = {"base": _base_json(base), "deck": None, "cards": []}
    if deck_name is None:
        return out
    deck = catalogue.deck(deck_name)
    out["deck"] = {"name": deck.name, "provenance": deck.provenance, "notes": deck.notes, "base": deck.base,
                   "autonomous": list(deck.autonomous or ())}
    origin = Pose()
    for c in deck.cards:
        samples = path_poses(origin, c, base).poses
        keep = np.unique(np.linspace(0, len(samples) - 1, min(PATH_SAMPLES, len(samples))).round().astype(int))
        out["cards"].append({"id": c.id, "name": c.name, "flags": sorted(c.flags),
                             "motion": _points(card_motion(c, base).as_array()),
                             "arrow": _points(arrow_points(origin, c, base)),
                             "path": _points(samples[keep]),
                             "outline": _points(card_outline(origin, c, base))})
    return out


def _frames(result) -> list:
    out = []
    for m in result.maneuvers:
        paths = {}
        for mv in m.moves:
            if mv.path is None:
                continue
            poses = mv.path.poses
            keep = np.unique(np.linspace(0, len(poses) - 1, min(PATH_SAMPLES, len(poses))).round().astype(int))
            paths[mv.plane] = {"card": mv.card, "poses": _points(poses[keep]), "arrow": _points(mv.arrow)}
        out.append({"index": m.index, "planes": [plane_json(p) for p in m.planes], "paths": paths})
    return out


def _seed(value: Any, where: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_JS_INT:
        raise InputError(msg("{where}: field 'seed': expected a whole number from 0 to 2**53-1, got {value}",
                             where=where, value=_short(value)))
    return value


def adjudication(s: Scenario, catalogue: Catalogue, seed: Any = None, policy: Any = None,
                 lang: str = "en") -> dict:
    """Adjudicate the turn (rules DF.*, as ``furball turn``): ``turn`` is exactly
    :func:`~scenarios.dogfight.turn_json` (the ``furball turn --json`` document);
    ``frames``: per maneuver, every plane after it and each mover's sampled path and
    arrow (for the replay); ``replay``: the turn as the page replays it, with the
    report's lines of each step (:func:`~scenarios.dogfight.report.replay_json` with no
    viewer: the practice table hides nothing), the same a room's page replays; ``after``: the
    document of the next turn (orders cleared, as ``furball turn --out``). ``seed`` /
    ``policy`` override the document's; ``lang``: the replay's lines in the reader's
    language (``turn`` stays the language-free document)."""
    seed = _seed(seed, "request")
    seed = seed if seed is not None else s.seed
    if policy is not None and policy not in [p.value for p in ReorderPolicy]:
        raise InputError(f"request: field 'policy': expected one of "
                         f"{', '.join(p.value for p in ReorderPolicy)}, got {_short(policy)}")
    policy = ReorderPolicy(policy or s.policy)
    if seed is None:
        seed = int(np.random.default_rng().integers(2**31))
    result = adjudicate(s.table, s.orders, seed=seed, policy=policy, samples=True)
    after = Scenario(result.after, {}, policy, s.seed)
    return {"turn": turn_json(result), "frames": _frames(result), "replay": replay_json(result, lang=Lang(lang)),
            "after": document(after, catalogue)}


def _rings(geometry) -> list:
    """A shapely (multi)polygon as ``[[exterior, hole, ...], ...]`` of ``[x, y]`` points."""
    out = []
    for g in getattr(geometry, "geoms", [geometry]):
        if g.is_empty or g.geom_type != "Polygon":
            continue
        out.append([_points(g.exterior.coords)] + [_points(r.coords) for r in g.interiors])
    return out


def zones_json(s: Scenario, plane: Any, enemy_heading_deg: Any = None) -> dict:
    """A plane's tail zone (where an enemy stand flying ``enemy_heading_deg``, default
    the plane's own heading, could be tailed: DF.T1, DF.T5) and its firing bands (per
    arc, short and long range), as polygons in table mm (``maneuvers.zones``)."""
    t = s.table
    if not isinstance(plane, str) or plane not in t.names:
        raise InputError(msg("request: field {field}: expected the name of a plane on the table, got {value}",
                             field="'plane'", value=_short(plane)))
    if enemy_heading_deg is not None and (isinstance(enemy_heading_deg, bool) or not isinstance(
            enemy_heading_deg, (int, float)) or not np.isfinite(enemy_heading_deg)):
        raise InputError(f"request: field 'enemy_heading_deg': expected a finite number of degrees, "
                         f"got {_short(enemy_heading_deg)}")
    z = zones(t.plane(plane), t.planes, t.rules, enemy_heading_deg, table_mm=(t.width_mm, t.height_mm),
              scenario=t.name, turn=t.turn)
    return {"plane": plane, "enemy_heading_deg": z.enemy_heading_deg, "can_tail": z.can_tail,
            "tail_zone": _rings(shapely.make_valid(z.tail_zone)), "area_mm2": float(z.tail_zone.area),
            "bands": [{"arc": k, "short": _rings(short), "long": _rings(long)} for k, (short, long) in
                      enumerate(z.bands)],
            "enemies": [{"name": e.name, "in_zone": bool(inside), "tail": check.as_json(),
                         "shot": None if shot is None else shot.as_json()}
                        for (e, check, shot), inside in zip(z.enemies, z.in_zone)]}


def open_toml(data: bytes, filename: str, catalogue: Catalogue) -> dict:
    """An uploaded scenario file (UTF-8 TOML, at most :data:`MAX_BODY_BYTES`) read by the
    CLI's loaders (:func:`~geometry.datafile.parse_toml`, ``parse_scenario``): its
    document, or :class:`InputError` naming ``filename``, plane and field."""
    name = pathlib.PurePath(filename.replace("\\", "/")).name[:80] or "upload.toml"
    name = "".join(ch for ch in name if ch.isprintable()) or "upload.toml"
    if len(data) > MAX_BODY_BYTES:
        raise InputError(msg("{file}: expected at most {most} KiB, got {size} KiB", file=name,
                             most=MAX_BODY_BYTES // 1024, size=len(data) // 1024))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(msg("{file}: not UTF-8 text, expected a TOML file", file=name)) from None
    return document(read_document(parse_toml(text, name), catalogue, name), catalogue)


def save_toml(s: Scenario, catalogue: Catalogue) -> str:
    """The table as a scenario file (``scenario_toml``; deck files of the served
    scenario are written relative to its folder)."""
    return scenario_toml(s, catalogue.folder)


def best_plans(s: Scenario, plane: Any, vs: Any, top: int = 5) -> dict:
    """A plane's ``top`` best plans against an enemy: the plan analysis
    (:func:`scenarios.dogfight.analyze`, the same as ``furball analyze --json``) with the
    scenario's orders (bombs to drop, tail wishes). Raises :class:`InputError` for an
    unknown plane or enemy, a plane that plans no cards, or an enemy that is a friend."""
    t = s.table
    for key, value in (("plane", plane), ("vs", vs)):
        if not isinstance(value, str) or value not in t.names:
            raise InputError(msg("request: field {field}: expected the name of a plane on the table, got {value}",
                                 field=repr(key), value=_short(value)))
    return analyze(t, plane, vs=[vs], orders=s.orders, heat_rows=0, tree_cache=_PLAN_TREES).as_json(top)


_PLAN_TREES: LRUCache = LRUCache(maxsize=PLAN_TREES)
"""The plan trees and legal plans of recent Best plans requests, in this process
(:func:`~scenarios.dogfight.analysis.cached_plan_tree`: keyed by a plane's public
state on the table, the table's size and rules and the drops of the orders sent, never a
plan): while a plane is dragged, the enemy's plans and their poses, and the dragged
plane's legal plans, are not computed again."""


def warm() -> None:
    """Load the compiled kernels of the plan analysis (and the geometry's) into this
    process, so that a worker's first Best plans does not wait for them."""
    gk.warm()
    analysis_warm()


def meta(catalogue: Catalogue) -> dict:
    """What the page needs before anything else: the decks and bases it may name, the
    default rules, the limits, the colours of :mod:`viz.style`, and whether the plan
    analysis is available."""
    rules = default_rules()
    return {
        "decks": [{"name": d.name, "base": d.base, "provenance": d.provenance, "cards": len(d),
                   "autonomous": d.autonomous is not None} for d in catalogue.decks.values()],
        "bases": [_base_json(b, rules) | {"provenance": b.provenance} for b in catalogue.bases.values()],
        "rules": {"ruler_length_mm": rules.ruler_length_mm, "max_altitude": rules.max_altitude,
                  "fire_altitude_difference": rules.fire_altitude_difference,
                  "default_arcs": [list(a) for a in rules.default_arcs], "provenance": rules.provenance},
        "policies": [p.value for p in ReorderPolicy],
        "limits": {"max_body_bytes": MAX_BODY_BYTES, "max_planes": MAX_WEB_PLANES, "max_seed": MAX_JS_INT},
        "colours": {"sides": list(style.SIDE_COLOURS), "tail_kept": style.TAIL_KEPT, "tail_lost": style.TAIL_LOST,
                    "overlap": style.OVERLAP, "collision": style.COLLISION, "tail_zone": style.TAIL_ZONE,
                    "short_range": style.SHORT_RANGE, "long_range": style.LONG_RANGE,
                    "table_edge": style.TABLE_EDGE, "table_fill": style.TABLE_FILL, "arrow": style.ARROW},
        "analysis": True,
    }


def practice(kind: str, catalogue: Catalogue, data: dict, lang: str = "en") -> Any:
    """One practice-table request answered from its (already parsed) JSON body, for the
    server's worker pools (a module-level function of plain values, so it can run in
    another process): ``kind`` is ``analyse``, ``adjudicate``, ``zones``, ``save``
    (``{"name": table name, "toml": file text}``) or ``best-plans``; ``lang``: the
    reader's language (the words in the answer). Raises :class:`InputError`."""
    s = read_document(data["scenario"], catalogue)
    if kind == "analyse":
        return analysis(s, lang)
    if kind == "adjudicate":
        return adjudication(s, catalogue, data.get("seed"), data.get("policy"), lang)
    if kind == "zones":
        return zones_json(s, data.get("plane"), data.get("enemy_heading_deg"))
    if kind == "save":
        return {"name": s.table.name, "toml": save_toml(s, catalogue)}
    if kind == "best-plans":
        return best_plans(s, data.get("plane"), data.get("vs"))
    raise ValueError(f"practice: unknown request {kind!r}")
