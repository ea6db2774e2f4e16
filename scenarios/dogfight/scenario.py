"""Scenario files: a table, its planes, and their plans for the coming turn.

A saved state is a scenario (``furball turn --out``), so the format is written as well
as read, losslessly (floats are written with all their digits). Format, with every
field, in docs/scenario.md. Every mistake is one line naming the file, the plane and
the field.
"""
from __future__ import annotations

import os
import pathlib
from dataclasses import dataclass, field, replace

import tomli_w

from geometry.datafile import Table, load_toml
from geometry.errors import InputError
from geometry.pose import Pose
from maneuvers.bases import find_base
from maneuvers.deck import find_deck
from maneuvers.plan import CARDS_PER_TURN
from maneuvers.plane import BALLOON, FLYING, MULTI, PLANE, SINGLE, STATUSES, Plane, Rules, default_rules

__all__ = ["Orders", "Scenario", "load_scenario", "parse_scenario", "scenario_toml", "POLICIES"]

POLICIES = ("keep", "best")
PLANE_FIELDS = ("name", "side", "kind", "deck", "base", "pose", "altitude", "climb_rate",
                "climb_counters", "engines", "bombs", "bombs_at_start", "autonomous", "damage",
                "status", "last_card", "plan", "drops", "tail")


@dataclass(frozen=True)
class Orders:
    """A plane's orders for the coming turn: ``plan`` (three card ids, DF.M1) or
    ``None``; ``drops``: bombs dropped after each maneuver, or ``None`` (none);
    ``tail``: the enemy its player chose to tail when several can be (DF.T3), or
    ``None`` to let the engine pick the nearest."""

    plan: tuple[str, ...] | None = None
    drops: tuple[int, ...] | None = None
    tail: str | None = None


@dataclass(frozen=True)
class Scenario:
    """A table ready for a turn. ``planes`` and ``orders`` are aligned; ``refs`` keeps
    each plane's deck and base as written (a shipped name or a resolved file path)."""

    name: str
    turn: int
    table_width_mm: float
    table_height_mm: float
    rules: Rules
    planes: tuple[Plane, ...]
    orders: tuple[Orders, ...]
    refs: tuple[tuple[str | None, str], ...]
    policy: str = "keep"
    seed: int | None = None
    notes: str = ""
    source: str = field(default="", compare=False)

    def plane(self, name: str) -> Plane:
        for p in self.planes:
            if p.name == name:
                return p
        raise KeyError(name)


def _resolve(ref: str, folder: pathlib.Path) -> str:
    """A file reference relative to the scenario's folder becomes absolute; names stay."""
    looks_like_file = ref.endswith(".toml") or "/" in ref or ".toml:" in ref
    if not looks_like_file:
        return ref
    path, sep, name = ref.partition(".toml:")
    path = path + ".toml" if sep else ref
    resolved = (folder / path).resolve() if not pathlib.Path(path).is_absolute() else pathlib.Path(path)
    return f"{resolved}:{name}" if sep else str(resolved)


def _plane(raw, index: int, source: str, folder: pathlib.Path, rules: Rules, names: set, turn: int):
    t = Table(raw, f"{source}: plane #{index + 1}")
    name = t.string("name")
    if name in names:
        raise t.error("name", "a name no other plane has", name)
    names.add(name)
    t = Table(raw, f"{source}: plane '{name}'").only(PLANE_FIELDS)
    kind = t.string("kind", PLANE, choices=(PLANE, BALLOON))
    deck = deck_ref = None
    if kind == PLANE:
        deck_ref = _resolve(t.string("deck"), folder)
        try:
            deck = find_deck(deck_ref)
        except InputError as exc:
            raise InputError(f"{t.where}: field 'deck': {exc}") from None
    elif "deck" in t:
        raise t.error("deck", "no deck for a balloon (it does not maneuver)", t.data["deck"])
    base_ref = t.string("base", deck.base if deck is not None and deck.base else ...)
    base_ref = _resolve(base_ref, folder)
    try:
        base = find_base(base_ref)
    except InputError as exc:
        raise InputError(f"{t.where}: field 'base': {exc}") from None
    pose_t = t.table("pose").only(("x_mm", "y_mm", "heading_deg"))
    pose = Pose(pose_t.length("x_mm"), pose_t.length("y_mm"), pose_t.number("heading_deg"))
    # DF.H2: the game starts at an agreed altitude from 1; later states may be at 0
    altitude = t.integer("altitude", minimum=1 if turn == 1 and kind == PLANE else 0,
                         maximum=rules.max_altitude)
    climb_counters = t.integer("climb_counters", 0, minimum=0)
    status = t.string("status", FLYING, choices=STATUSES)
    if status == FLYING and altitude == 0 and climb_counters == 0 and kind == PLANE:
        raise t.error("climb_counters", "at least 1 for a plane flying at altitude 0 (DF.H3), "
                                        "or status = \"landed\"", 0)
    bombs_at_start = t.integer("bombs_at_start", 0, minimum=0)
    bombs = t.integer("bombs", bombs_at_start, minimum=0, maximum=bombs_at_start)
    autonomous = t.boolean("autonomous", False)
    if autonomous and (deck is None or deck.autonomous is None):
        raise t.error("autonomous", f"a deck with an 8-card autonomous list (DF.A1); deck "
                                    f"'{getattr(deck, 'name', None)}' has none", True)
    last_card = t.string("last_card", None)
    if last_card is not None and (deck is None or last_card not in deck):
        raise t.error("last_card", f"a card of deck '{getattr(deck, 'name', None)}'", last_card)
    damage = t.strings("damage", ())
    plane = Plane(
        name=name, side=t.string("side"), deck=deck, base=base, pose=pose, altitude=altitude,
        climb_rate=t.integer("climb_rate", 3, minimum=1), climb_counters=climb_counters,
        engines=t.string("engines", SINGLE, choices=(SINGLE, MULTI)), kind=kind,
        bombs_at_start=bombs_at_start, bombs=bombs, autonomous=autonomous, damage=damage,
        status=status, last_card=last_card,
    )
    plan = t.strings("plan", None)
    if plan is not None:
        if kind == BALLOON or autonomous:
            raise t.error("plan", "no plan: " + ("balloons do not maneuver" if kind == BALLOON
                                                 else "autonomous planes draw their cards (DF.A1)"), list(plan))
        if len(plan) != CARDS_PER_TURN:
            raise t.error("plan", f"{CARDS_PER_TURN} card ids, one per maneuver (DF.M1)", list(plan))
        for cid in plan:
            if cid not in deck:
                raise t.error("plan", f"ids of cards of deck '{deck.name}' (known: {', '.join(deck.ids)})", cid)
    drops = None
    if "drops" in t:
        raw_drops = t.list("drops")
        if len(raw_drops) != CARDS_PER_TURN or not all(
                isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in raw_drops):
            raise t.error("drops", f"{CARDS_PER_TURN} whole numbers >= 0 (bombs dropped after each maneuver)",
                          raw_drops)
        if sum(raw_drops) > bombs:
            raise t.error("drops", f"at most {bombs} bombs in all (the bombs aboard)", raw_drops)
        drops = tuple(raw_drops)
    orders = Orders(plan=plan, drops=drops, tail=t.string("tail", None))
    return plane, orders, (deck_ref, base_ref)


def parse_scenario(data: dict, source: str, folder: pathlib.Path | None = None) -> Scenario:
    """Build a :class:`Scenario` from parsed TOML. Raises :class:`InputError`."""
    folder = folder or pathlib.Path(".")
    top = Table(data, source).only(("scenario", "table", "ruler", "rules", "plane"))
    head = top.table("scenario", Table({}, f"{source}: scenario")).only(("name", "notes", "turn", "seed"))
    table = top.table("table").only(("width_mm", "height_mm"))
    rules = default_rules()
    if "ruler" in top:
        ruler = top.table("ruler").only(("length_mm", "provenance"))
        rules = replace(rules, ruler_length_mm=ruler.length("length_mm", positive=True),
                        provenance=ruler.provenance() if "provenance" in ruler else "measured")
    policy = "keep"
    if "rules" in top:
        r = top.table("rules").only(("max_altitude", "fire_altitude_difference", "reorder_policy"))
        rules = replace(rules, max_altitude=r.integer("max_altitude", rules.max_altitude, minimum=0),
                        fire_altitude_difference=r.integer("fire_altitude_difference",
                                                           rules.fire_altitude_difference, minimum=0))
        policy = r.string("reorder_policy", "keep", choices=POLICIES)
    raw_planes = top.list("plane")
    if not raw_planes:
        raise top.error("plane", "at least one [[plane]]", raw_planes)
    names: set = set()
    planes, orders, refs = [], [], []
    turn = head.integer("turn", 1, minimum=1)
    for i, raw in enumerate(raw_planes):
        p, o, r = _plane(raw, i, source, folder, rules, names, turn)
        planes.append(p)
        orders.append(o)
        refs.append(r)
    for p, o in zip(planes, orders):
        if o.tail is not None and (o.tail not in names or o.tail == p.name):
            raise InputError(f"{source}: plane '{p.name}': field 'tail': expected the name of "
                             f"another plane, got {o.tail!r}")
    return Scenario(
        name=head.string("name", pathlib.Path(source).stem),
        notes=head.string("notes", "", nonempty=False),
        turn=turn,
        seed=head.integer("seed", None, minimum=0),
        table_width_mm=table.length("width_mm", positive=True),
        table_height_mm=table.length("height_mm", positive=True),
        rules=rules, planes=tuple(planes), orders=tuple(orders), refs=tuple(refs),
        policy=policy, source=source,
    )


def load_scenario(path: str | pathlib.Path) -> Scenario:
    """Load a scenario (or saved state) file. Raises :class:`InputError`."""
    p = pathlib.Path(path)
    return parse_scenario(load_toml(p), str(p), p.parent)


def _ref_for(ref: str, folder: pathlib.Path) -> str:
    path, sep, name = ref.partition(".toml:")
    file = path + ".toml" if sep else ref
    if not pathlib.Path(file).is_absolute():
        return ref
    rel = os.path.relpath(file, folder)
    return f"{rel}:{name}" if sep else rel


def scenario_toml(s: Scenario, folder: pathlib.Path | None = None) -> str:
    """The scenario as TOML text; file references are written relative to ``folder``
    (where the file will live), so loading the text there gives back ``s`` exactly."""
    folder = (folder or pathlib.Path(".")).resolve()
    defaults = default_rules()
    doc: dict = {"scenario": {"name": s.name, "turn": s.turn}}
    if s.notes:
        doc["scenario"]["notes"] = s.notes
    if s.seed is not None:
        doc["scenario"]["seed"] = s.seed
    doc["table"] = {"width_mm": s.table_width_mm, "height_mm": s.table_height_mm}
    if (s.rules.ruler_length_mm, s.rules.provenance) != (defaults.ruler_length_mm, defaults.provenance):
        doc["ruler"] = {"length_mm": s.rules.ruler_length_mm, "provenance": s.rules.provenance}
    doc["rules"] = {"max_altitude": s.rules.max_altitude,
                    "fire_altitude_difference": s.rules.fire_altitude_difference,
                    "reorder_policy": s.policy}
    planes = []
    for p, o, (deck_ref, base_ref) in zip(s.planes, s.orders, s.refs):
        entry: dict = {"name": p.name, "side": p.side, "kind": p.kind}
        if deck_ref is not None:
            entry["deck"] = _ref_for(deck_ref, folder)
        entry["base"] = _ref_for(base_ref, folder)
        entry["pose"] = {"x_mm": p.pose.x_mm, "y_mm": p.pose.y_mm, "heading_deg": p.pose.heading_deg}
        entry.update(altitude=p.altitude, climb_rate=p.climb_rate, climb_counters=p.climb_counters,
                     engines=p.engines, bombs_at_start=p.bombs_at_start, bombs=p.bombs,
                     autonomous=p.autonomous, damage=list(p.damage), status=p.status)
        if p.last_card is not None:
            entry["last_card"] = p.last_card
        if o.plan is not None:
            entry["plan"] = list(o.plan)
        if o.drops is not None:
            entry["drops"] = list(o.drops)
        if o.tail is not None:
            entry["tail"] = o.tail
        planes.append(entry)
    doc["plane"] = planes
    header = (f"# furball scenario / saved state: {s.name}, turn {s.turn}.\n"
              "# Lengths in mm, headings in degrees (CCW from +x). Format: docs/scenario.md\n")
    return header + tomli_w.dumps(doc)
