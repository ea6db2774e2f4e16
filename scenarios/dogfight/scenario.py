"""Scenario files: a :class:`~scenarios.dogfight.table.Table`, its orders, and the
settings of the coming turn, to and from TOML.

This layer only converts: a :class:`Scenario` is the Python values (``table``,
``orders``, ``policy``, ``seed``) that :func:`~scenarios.dogfight.turn.adjudicate`
takes. A saved state (``furball turn --out``) is a scenario, so the format is written
as well as read, losslessly (floats keep all their digits; decks and bases are written
as shipped names or paths relative to the file). Format, with every field, in
docs/scenario.md. Every mistake is one line naming the file, the plane and the field.
"""
from __future__ import annotations

import os
import pathlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import TYPE_CHECKING

import numpy as np
import tomli_w

from furball.errors import InputError
from furball.geometry.base import Base
from furball.geometry.datafile import Table as FileTable
from furball.geometry.datafile import load_toml
from furball.geometry.pose import Pose
from furball.i18n import N_, MessageText, msg
from furball.maneuvers.bases import find_base, sized_base
from furball.maneuvers.damage import ActiveEffect, DamageDeck, Special, find_damage_deck, shipped_damage_decks
from furball.maneuvers.deck import Deck, find_deck
from furball.maneuvers.plan import CARDS_PER_TURN
from furball.maneuvers.plane import Engines, PlaneKind, PlaneState, PlaneStatus, Rules, default_rules

from .policy import ReorderPolicy
from .table import Orders, Table, normalise_orders
from .victory import Victory, default_victory

if TYPE_CHECKING:
    from furball.maneuvers.margins import PlacementError

__all__ = ["Scenario", "load_scenario", "parse_scenario", "scenario_toml"]

PLANE_FIELDS = ("name", "side", "kind", "deck", "base", "pose", "altitude", "climb_rate",
                "climb_counters", "engines", "bombs", "bombs_at_start", "autonomous", "damage",
                "damage_points", "damage_taken", "guns", "effects", "status", "last_card", "plan", "drops", "tail",
                "placement_error")
RULES_FIELDS = ("max_altitude", "fire_altitude_difference", "reorder_policy", "steep_sequencing",
                "immelmann_sequencing", "short_range_cards", "long_range_cards")
EFFECT_FIELDS = ("special", "maneuvers_left", "burn_points", "silences_guns", "forbids")
TOP_FIELDS = ("scenario", "table", "ruler", "rules", "victory", "damage_decks", "piles", "plane", "capture")
CAPTURE_FIELDS = ("provenance", "photo", "taken", "notes")


@dataclass(frozen=True)
class Scenario:
    """A table, the orders for its coming turn (plane name -> :class:`Orders`), the
    chasers' reorder ``policy``, the turn's ``seed`` (``None``: a fresh one) and the
    game's :class:`~.victory.Victory` conditions, as read from ``source``. A table
    measured from a photo (``furball capture table``, docs/capture.md) also carries
    ``placement_errors`` (plane name -> :class:`PlacementError`, standard deviations
    of each base's measured pose) and ``capture`` (``provenance``, ``photo``, ``taken``,
    ``notes``: where the poses came from)."""

    table: Table
    orders: Mapping[str, Orders] = field(default_factory=dict)
    policy: ReorderPolicy = ReorderPolicy.KEEP
    seed: int | None = None
    source: str = field(default="", compare=False)
    victory: Victory = field(default_factory=default_victory)
    placement_errors: Mapping[str, PlacementError] = field(default_factory=dict)
    capture: Mapping[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.table.name

    @property
    def planes(self) -> tuple[PlaneState, ...]:
        return self.table.planes


def _resolve(ref: str, folder: pathlib.Path) -> str:
    """A file reference relative to the scenario's folder becomes absolute; names stay."""
    looks_like_file = ref.endswith(".toml") or "/" in ref or ".toml:" in ref
    if not looks_like_file:
        return ref
    path, sep, name = ref.partition(".toml:")
    path = path + ".toml" if sep else ref
    resolved = (folder / path).resolve() if not pathlib.Path(path).is_absolute() else pathlib.Path(path)
    return f"{resolved}:{name}" if sep else str(resolved)


def _loaded(t: FileTable, key: str, ref: str, finder):
    try:
        return finder(ref)
    except InputError as exc:
        raise InputError(msg("{where}: field '{key}': {problem}", where=t.where, key=key,
                             problem=exc.message)) from None


def _named(known: Mapping[str, object], what: str, sizes: bool = False):
    """A finder that looks ``ref`` up in ``known`` only (no file is ever opened); with
    ``sizes``, ``LENGTHxWIDTH`` is accepted too (a base given by its size)."""
    def find(ref: str):
        if ref in known:
            return known[ref]
        sized = sized_base(ref) if sizes else None
        if sized is not None:
            return sized
        if sizes:
            raise InputError(msg("{what} {ref}: expected one of {known} or LENGTHxWIDTH in mm (files are not "
                                 "accepted here)", what=what, ref=repr(ref[:40]), known=", ".join(sorted(known))))
        raise InputError(msg("{what} {ref}: expected one of {known} (files are not accepted here)", what=what,
                             ref=repr(ref[:40]), known=", ".join(sorted(known))))
    return find


def _plane(raw, index: int, source: str, folder: pathlib.Path, names: set,
           decks: Mapping[str, Deck] | None = None,
           bases: Mapping[str, Base] | None = None) -> tuple[PlaneState, Orders]:
    t = FileTable(raw, MessageText(msg("{file}: plane #{number}", file=source, number=index + 1)))
    name = t.string("name")
    if name in names:
        raise t.error("name", N_("a name no other plane has"), name)
    names.add(name)
    t = FileTable(raw, MessageText(msg("{file}: plane {name}", file=source, name=format(repr(name), ".60"))))
    t = t.only(PLANE_FIELDS)
    kind = t.string("kind", "plane", choices=[k.value for k in PlaneKind])
    deck = None
    if kind == PlaneKind.PLANE:
        ref = t.string("deck")
        deck = (_loaded(t, "deck", ref, _named(decks, "deck")) if decks is not None
                else _loaded(t, "deck", _resolve(ref, folder), find_deck))
    elif "deck" in t:
        raise t.error("deck", N_("no deck for a balloon (it does not maneuver)"), t.data["deck"])
    base_ref = t.string("base", deck.base if deck is not None and deck.base else ...)
    base = (_loaded(t, "base", base_ref, _named(bases, "base", sizes=True)) if bases is not None
            else _loaded(t, "base", _resolve(base_ref, folder), find_base))
    pose_t = t.table("pose").only(("x_mm", "y_mm", "heading_deg"))
    pose = Pose(pose_t.length("x_mm"), pose_t.length("y_mm"), pose_t.number("heading_deg"))
    bombs_at_start = t.integer("bombs_at_start", 0, minimum=0, maximum=10_000)
    try:
        plane = PlaneState(
            name=name, side=t.string("side"), deck=deck, base=base, pose=pose,
            altitude=t.integer("altitude", minimum=0, maximum=1000),
            climb_rate=t.integer("climb_rate", 3, minimum=1, maximum=1000),
            climb_counters=t.integer("climb_counters", 0, minimum=0, maximum=1000),
            engines=t.string("engines", "single", choices=[e.value for e in Engines]), kind=kind,
            bombs_at_start=bombs_at_start, bombs=t.integer("bombs", bombs_at_start, minimum=0, maximum=bombs_at_start),
            autonomous=t.boolean("autonomous", False), damage=t.strings("damage", ()),
            status=t.string("status", "flying", choices=[s.value for s in PlaneStatus]),
            last_card=t.string("last_card", None),
            damage_points=t.integer("damage_points", None, minimum=1, maximum=10**6),
            damage_taken=t.integer("damage_taken", 0, minimum=0, maximum=10**6),
            guns=_guns(t) if "guns" in t else None, effects=_effects(t),
        )
    except InputError as exc:  # name the file: "plane 'X': field 'y': ..." -> "FILE: plane 'X': ..."
        if str(exc).startswith(f"{source}: "):  # (a field read from the file already names it)
            raise InputError(exc.message) from None
        raise InputError(msg("{file}: {error}", file=source, error=exc.message)) from None
    plan = t.strings("plan", None)
    if plan is not None:
        if len(plan) != CARDS_PER_TURN:
            raise t.error("plan", msg("{count} card ids, one per maneuver (DF.M1)", count=CARDS_PER_TURN), list(plan))
        for cid in plan:
            if cid not in deck:
                raise t.error("plan", msg("ids of cards of deck '{deck}' (known: {known})", deck=deck.name,
                                          known=deck.ids_text()), cid)
    drops = None
    if "drops" in t:
        raw_drops = t.list("drops")
        if len(raw_drops) != CARDS_PER_TURN or not all(
                isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in raw_drops):
            raise t.error("drops", msg("{count} whole numbers >= 0 (bombs dropped after each maneuver)",
                                       count=CARDS_PER_TURN), raw_drops)
        if sum(raw_drops) > plane.bombs:
            raise t.error("drops", msg("at most {bombs} bombs in all (the bombs aboard)", bombs=plane.bombs),
                          raw_drops)
        drops = tuple(raw_drops)
    return plane, Orders(plan=plan, drops=drops, tail=t.string("tail", None))


def _guns(t: FileTable) -> dict[str, str]:
    """A plane's ``guns = { nose = "B", rear = "A" }`` (DF.D2)."""
    g = t.table("guns").only(("nose", "rear"))
    return {key: g.string(key) for key in ("nose", "rear") if key in g}


def _effects(t: FileTable) -> tuple[ActiveEffect, ...]:
    """A plane's ``effects = [{ special = "fire", maneuvers_left = 2, ... }]`` (DF.D6)."""
    out = []
    for i, raw in enumerate(t.list("effects", [])):
        e = FileTable(raw, f"{t.where}: effects[{i}]").only(EFFECT_FIELDS)
        out.append(ActiveEffect(Special(e.string("special", choices=[x.value for x in Special])),
                                e.integer("maneuvers_left", minimum=1, maximum=1000),
                                e.integer("burn_points", 0, minimum=0, maximum=1000),
                                e.boolean("silences_guns", False), tuple(e.strings("forbids", ()))))
    return tuple(out)


def _damage_decks(top: FileTable, folder: pathlib.Path, named: bool) -> tuple[DamageDeck, ...]:
    """The shipped damage decks, with those the file's ``[damage_decks]`` replaces or
    adds (letter = a shipped letter or a deck file; DF.D1)."""
    decks = dict(shipped_damage_decks())
    if "damage_decks" not in top:
        return tuple(decks.values())
    given = top.table("damage_decks")
    for letter in given.keys():
        ref = given.string(letter)
        if named:
            deck = _loaded(given, letter, ref, _named(shipped_damage_decks(), "damage deck"))
        else:
            deck = _loaded(given, letter, _resolve(ref, folder), find_damage_deck)
        if deck.letter != letter:
            raise given.error(letter, msg("a damage deck of letter '{letter}'", letter=letter),
                              f"deck '{deck.letter}' from {ref}")
        decks[letter] = deck
    return tuple(decks.values())


def _piles(top: FileTable) -> dict[str, tuple[int, ...]]:
    """``[piles] B = [card numbers, top first]`` (DF.D7), checked by the table."""
    if "piles" not in top:
        return {}
    t = top.table("piles")
    out = {}
    for letter in t.keys():
        pile = t.list(letter)
        if len(pile) > 10_000 or not all(isinstance(n, int) and not isinstance(n, bool) for n in pile):
            raise t.error(letter, N_("a list of card numbers (top first)"), pile)
        out[letter] = tuple(pile)
    return out


def _placement_error(raw, source: str) -> PlacementError | None:
    """A plane's ``placement_error = { xy_mm = 0.2, heading_deg = 0.3 }``: the standard
    deviations of its measured pose (docs/capture.md), or None."""
    if not isinstance(raw, dict) or "placement_error" not in raw:
        return None
    from furball.maneuvers.margins import PlacementError  # only measured tables need it

    t = FileTable(raw, MessageText(msg("{file}: plane {name}", file=source,
                                       name=format(repr(str(raw.get("name"))), ".60")))).table("placement_error")
    t = t.only(("xy_mm", "heading_deg"))
    try:
        return PlacementError(t.number("xy_mm", minimum=0), t.number("heading_deg", minimum=0))
    except InputError as exc:
        raise InputError(msg("{file}: {error}", file=t.where, error=exc.message)) from None


def _capture(top: FileTable) -> dict[str, str]:
    """``[capture]``: where a measured table came from (docs/capture.md)."""
    if "capture" not in top:
        return {}
    c = top.table("capture").only(CAPTURE_FIELDS)
    out = {"provenance": c.provenance()}
    for key in ("photo", "taken", "notes"):
        if key in c:
            out[key] = c.string(key, nonempty=False)
    return out


def _victory(top: FileTable) -> Victory:
    default = default_victory()
    if "victory" not in top:
        return default
    v = top.table("victory").only(("turn_limit", "plane_points"))
    return Victory(v.integer("turn_limit", default.turn_limit, minimum=1, maximum=1000),
                   v.integer("plane_points", default.plane_points, minimum=0, maximum=10**6))


def _rules(top: FileTable) -> tuple[Rules, ReorderPolicy]:
    rules = default_rules()
    if "ruler" in top:
        ruler = top.table("ruler").only(("length_mm", "provenance"))
        rules = replace(rules, ruler_length_mm=ruler.length("length_mm", positive=True),
                        provenance=ruler.provenance() if "provenance" in ruler else "measured")
    policy = ReorderPolicy.KEEP
    if "rules" in top:
        r = top.table("rules").only(RULES_FIELDS)
        rules = replace(rules, max_altitude=r.integer("max_altitude", rules.max_altitude, minimum=0, maximum=1000),
                        fire_altitude_difference=r.integer("fire_altitude_difference",
                                                           rules.fire_altitude_difference, minimum=0, maximum=1000),
                        steep_sequencing=r.boolean("steep_sequencing", True),
                        immelmann_sequencing=r.boolean("immelmann_sequencing", True),
                        short_range_cards=r.integer("short_range_cards", rules.short_range_cards, minimum=0,
                                                    maximum=100),
                        long_range_cards=r.integer("long_range_cards", rules.long_range_cards, minimum=0,
                                                   maximum=100))
        policy = ReorderPolicy(r.string("reorder_policy", "keep", choices=[p.value for p in ReorderPolicy]))
    return rules, policy


def parse_scenario(data: dict, source: str, folder: pathlib.Path | None = None, *,
                   decks: Mapping[str, Deck] | None = None, bases: Mapping[str, Base] | None = None) -> Scenario:
    """Build a :class:`Scenario` from parsed TOML. Raises :class:`InputError`.

    ``folder``: where file references (decks, bases) are resolved from. ``decks`` /
    ``bases``: when given, a plane's ``deck`` / ``base`` must be a name found there (or
    ``LENGTHxWIDTH`` for a base) and no file is ever opened: what the web table uses
    for data that arrives over the network."""
    folder = folder or pathlib.Path(".")
    top = FileTable(data, source).only(TOP_FIELDS)
    head = top.table("scenario", FileTable({}, f"{source}: scenario")).only(("name", "notes", "turn", "seed"))
    size = top.table("table").only(("width_mm", "height_mm"))
    rules, policy = _rules(top)
    raw_planes = top.list("plane")
    if not raw_planes:
        raise top.error("plane", N_("at least one [[plane]]"), raw_planes)
    names: set = set()
    planes, orders, errors = [], {}, {}
    for i, raw in enumerate(raw_planes):
        plane, o = _plane(raw, i, source, folder, names, decks, bases)
        planes.append(plane)
        orders[plane.name] = o
        error = _placement_error(raw, source)
        if error is not None:
            errors[plane.name] = error
    width, height = size.length("width_mm", positive=True), size.length("height_mm", positive=True)
    name, notes = head.string("name", pathlib.Path(source).stem), head.string("notes", "", nonempty=False)
    turn = head.integer("turn", 1, minimum=1, maximum=10**9)
    damage_decks = _damage_decks(top, folder, decks is not None)
    piles = _piles(top)
    victory = _victory(top)
    try:
        table = Table(width_mm=width, height_mm=height, planes=tuple(planes), rules=rules, name=name, turn=turn,
                      notes=notes, damage_decks=damage_decks, piles=piles)
        orders = normalise_orders(table, orders, require_plans=False)
    except InputError as exc:
        raise InputError(msg("{file}: {error}", file=source, error=exc.message)) from None
    return Scenario(table, orders, policy, head.integer("seed", None, minimum=0, maximum=2**63 - 1), source,
                    victory, errors, _capture(top))


EXAMPLES = resources.files("furball.scenarios") / "examples"
"""The shipped example scenarios (``scenarios/examples/*.toml``)."""


def shipped_scenarios() -> tuple[str, ...]:
    """The names of the shipped example scenarios (``duel``, ``furball`` ...), sorted."""
    return tuple(sorted(e.name[:-5] for e in EXAMPLES.iterdir() if e.name.endswith(".toml")))


def load_scenario(path: str | pathlib.Path) -> Scenario:
    """Load a scenario (or saved state) file, or a shipped example by name (``"duel"``:
    a word that is no file here, see :func:`shipped_scenarios`). Raises
    :class:`InputError`."""
    p = pathlib.Path(path)
    text = str(path)
    if not p.is_file() and text in shipped_scenarios():  # a folder of that name (the package's) is no file
        with resources.as_file(EXAMPLES / f"{text}.toml") as shipped:
            return parse_scenario(load_toml(shipped), f"{text} (shipped example)", shipped.parent)
    if not p.exists() and p.suffix == "" and "/" not in text:
        raise InputError(msg("{file}: no such file, and no shipped example of that name (examples: {examples})",
                             file=text[:60], examples=", ".join(shipped_scenarios())))
    return parse_scenario(load_toml(p), str(p), p.parent)


def _relative(path: str, folder: pathlib.Path) -> str:
    return os.path.relpath(path, folder) if pathlib.Path(path).is_absolute() else path


def deck_ref(deck: Deck, folder: pathlib.Path) -> str:
    """How a scenario file names ``deck``: a shipped deck by name, else its file."""
    if not deck.source or deck.source.startswith("maneuvers/data/"):
        return deck.name
    return _relative(deck.source, folder)


def damage_deck_ref(deck: DamageDeck, folder: pathlib.Path) -> str:
    """How a scenario file names a damage deck: its file (a shipped one by its letter)."""
    if not deck.source or deck.source.startswith("maneuvers/data/"):
        return deck.letter
    return _relative(deck.source, folder)


def base_ref(base: Base, folder: pathlib.Path) -> str:
    """How a scenario file names ``base``: a shipped base by name, ``FILE.toml:NAME``,
    or ``LENGTHxWIDTH`` for a base given by its size."""
    if base.source.startswith("maneuvers/data/"):
        return base.name
    if base.source:
        return f"{_relative(base.source, folder)}:{base.name}"
    size = lambda v: np.format_float_positional(v, trim="-")  # noqa: E731  (no exponent: LENGTHxWIDTH)
    return f"{size(base.length_mm)}x{size(base.width_mm)}"


def scenario_toml(s: Scenario, folder: pathlib.Path | None = None) -> str:
    """The scenario as TOML text; file references are written relative to ``folder``
    (where the file will live), so loading the text there gives back ``s`` exactly."""
    folder = (folder or pathlib.Path(".")).resolve()
    t = s.table
    defaults = default_rules()
    doc: dict = {"scenario": {"name": t.name, "turn": t.turn}}
    if t.notes:
        doc["scenario"]["notes"] = t.notes
    if s.seed is not None:
        doc["scenario"]["seed"] = s.seed
    doc["table"] = {"width_mm": t.width_mm, "height_mm": t.height_mm}
    if (t.rules.ruler_length_mm, t.rules.provenance) != (defaults.ruler_length_mm, defaults.provenance):
        doc["ruler"] = {"length_mm": t.rules.ruler_length_mm, "provenance": t.rules.provenance}
    doc["rules"] = {"max_altitude": t.rules.max_altitude,
                    "fire_altitude_difference": t.rules.fire_altitude_difference,
                    "steep_sequencing": t.rules.steep_sequencing,
                    "immelmann_sequencing": t.rules.immelmann_sequencing,
                    "reorder_policy": str(s.policy),
                    "short_range_cards": t.rules.short_range_cards,
                    "long_range_cards": t.rules.long_range_cards}
    if s.victory != default_victory():
        doc["victory"] = s.victory.as_json()
    shipped = shipped_damage_decks()
    own = {d.letter: d for d in t.damage_decks if shipped.get(d.letter) != d}
    if own or len(t.damage_decks) != len(shipped):
        missing = sorted(shipped.keys() - {d.letter for d in t.damage_decks})
        if missing:  # a table may only replace or add decks; a file cannot remove a shipped one
            raise InputError(msg("table '{table}': damage decks {letters} missing: a scenario file can replace or "
                                 "add damage decks, not remove shipped ones", table=t.name, letters=", ".join(missing)))
        doc["damage_decks"] = {letter: damage_deck_ref(d, folder) for letter, d in sorted(own.items())}
    if t.piles:
        doc["piles"] = {letter: list(pile) for letter, pile in t.piles}
    if s.capture:
        doc["capture"] = dict(s.capture)
    planes = []
    for p in t.planes:
        o = s.orders.get(p.name, Orders())
        entry: dict = {"name": p.name, "side": p.side, "kind": str(p.kind)}
        if p.deck is not None:
            entry["deck"] = deck_ref(p.deck, folder)
        entry["base"] = base_ref(p.base, folder)
        entry["pose"] = {"x_mm": p.pose.x_mm, "y_mm": p.pose.y_mm, "heading_deg": p.pose.heading_deg}
        entry.update(altitude=p.altitude, climb_rate=p.climb_rate, climb_counters=p.climb_counters,
                     engines=str(p.engines), bombs_at_start=p.bombs_at_start, bombs=p.bombs,
                     autonomous=p.autonomous, damage=list(p.damage), damage_points=p.damage_points,
                     damage_taken=p.damage_taken, status=str(p.status))
        entry["guns"] = {str(g): letter for g, letter in p.guns}
        if p.effects:
            entry["effects"] = [{"special": str(e.special), "maneuvers_left": e.maneuvers_left,
                                 "burn_points": e.burn_points, "silences_guns": e.silences_guns,
                                 "forbids": list(e.forbids)} for e in p.effects]
        if p.last_card is not None:
            entry["last_card"] = p.last_card
        if o.plan is not None:
            entry["plan"] = list(o.plan)
        if o.drops is not None:
            entry["drops"] = list(o.drops)
        if o.tail is not None:
            entry["tail"] = o.tail
        if p.name in s.placement_errors:
            e = s.placement_errors[p.name]
            entry["placement_error"] = {"xy_mm": e.xy_mm, "heading_deg": e.heading_deg}
        planes.append(entry)
    doc["plane"] = planes
    header = (f"# furball scenario / saved state, turn {t.turn}. To play the next turn, add a\n"
              "# plan = [three card ids] to every plane in the air (not autonomous ones).\n"
              "# Lengths in mm, headings in degrees (CCW from +x). Format: docs/scenario.md\n")
    return header + tomli_w.dumps(doc)
