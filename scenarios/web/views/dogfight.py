"""Dogfight observations as JSON (the rooms' seat views; docs/rooms.md, docs/dogfight_game.md).

Made from :class:`~scenarios.dogfight.state.Observation` only:

* ``public`` (the same for every seat and for spectators): the table (``name``,
  ``width_mm``, ``height_mm``), every plane as every side sees it (pose, altitude,
  counters, status, how many damage cards but not which, the specials everyone sees),
  with the drawing it needs (``deck``, ``base`` by name or size, the base's geometry,
  its ``silhouette`` and its side's ``colour``), the seats' sides, which planes have
  locked their plans (names only), the DF.V2 points, the damage piles as counts, and
  the last turn as every side sees it (``replay``: DF.T2 reveals as "shows its next
  card", other sides' damage cards as their deck letter).
* ``private``: the seat's side, its own planes' damage cards and specials, its side's
  locked plans, the plane it plans now, and the last turn as its side saw it
  (``replay``, ``last_turn``: the chaser's side sees the card shown and its reorder).

**The chaser looks and chooses** (DF.T2; docs/dogfight_game.md): a room plays with
``reorder="chaser"`` unless its owner sets the room option ``reorder`` to ``policy``
(:data:`REORDER`, :func:`prepare`). While the game waits for a chaser, ``public.waiting``
names the chaser and its target (no card) for everyone, and the chaser's
``private.reorder`` holds the target's card and its remaining cards; :func:`choices`
then gives the legal orders (keep first). The room option ``chaser_limit_s``
(:data:`CHASER_LIMIT`, default 120 s, 0: none) bounds the choice of a chaser played by
a person: :func:`limited_seat` tells the room whose choice it times, and when the time
runs out the room keeps the order (an event, docs/rooms.md).

The seat to act does not receive thousands of ``describe()`` texts: :func:`choices`
gives its legal plans as a tree to pick card by card
(:func:`~maneuvers.plan.card_tree`), each leaf the index of the plan in the
seat's ``legal_actions_for(seat)``. The planning is simultaneous (DF.M1): every seat
with a plane to plan gets its choices at once, and may change a locked plan until the
last plan locks. The room option ``scenario`` is a shipped scenario's name
or an uploaded scenario file's text (:func:`room_scenario`): never a path on the server.
"""
from __future__ import annotations

import functools
import math
from typing import Any

from cachetools import LRUCache

from furball.errors import InputError
from furball.geometry.datafile import parse_toml
from furball.geometry.pose import Pose
from furball.i18n import DEFAULT_LANG, N_, Lang, translator
from furball.maneuvers.plane import Engines, PlaneKind
from furball.scenarios.dogfight.report import VISIBLE_SPECIALS
from furball.scenarios.dogfight.scenario import Scenario, load_scenario, shipped_scenarios
from furball.scenarios.dogfight.state import DRAW, EndReason, Reorder
from furball.scenarios.engine import Option
from furball.viz import style

from ..api import Catalogue, _base_json, _base_ref, read_document
from ..rooms import RoomOption

__all__ = ["view", "choices", "prepare", "limited_seat", "REORDER", "CHASER_LIMIT", "ROOM_OWN", "ending", "analysis", "best_plans", "room_scenario", "scenario_choices", "silhouette", "LEGAL_TEXTS",
           "MAX_SCENARIO_CHARS", "ROOM_OPTIONS", "ROOM_READINGS", "PAGE"]

LEGAL_TEXTS = False
"""The room sends no ``legal`` texts for a dogfight seat (2,615 plans for a plane of deck
A): :func:`choices` holds them as a tree."""
MAX_SCENARIO_CHARS = 64 * 1024
"""The longest uploaded scenario file a room accepts, in characters."""
ROOM_OPTIONS = ("scenario", "seats", "policy", "turn_limit", "altitude", "decks", "swap_start", "reorder",
                "chaser_limit_s")
"""The options a room may set."""
REORDER = Option(N_("reorder"), str, Reorder.CHASER.value, N_("who orders a chaser's cards after the target shows "
                 "its next card: the chaser's seat (as at a table) or the reorder policy (DF.T2)"),
                 tuple(r.value for r in Reorder))
"""A room's own reading of the engine's ``reorder`` option: the chaser decides unless
the owner says otherwise (the engine's default, for ``furball play`` and sweeps, is the
policy)."""
MAX_CHASER_LIMIT_S = 3600
CHASER_LIMIT = Option(N_("chaser_limit_s"), int, 120, N_("seconds a chaser played by a person has to order its "
                      "cards after a reveal (0: no limit, at most an hour); then the room keeps its order"))
"""A room's own option: the limit on a chaser's choice (:func:`limited_seat`)."""
ROOM_OWN = (REORDER, CHASER_LIMIT)
"""The room's own options (:attr:`~scenarios.web.rooms.RoomGame.own`)."""
ROOM_READINGS = (("scenario", RoomOption(f"{__name__}:room_scenario", "scenario", f"{__name__}:scenario_choices",
                                         MAX_SCENARIO_CHARS)),)
"""The ``scenario`` option read the room's way (:func:`room_scenario`): a shipped name or
an uploaded file's text, offered from :func:`scenario_choices`."""
PAGE = "dogfight"
"""The module of ``static/js/rooms/games/`` that draws this game's page."""


@functools.lru_cache(maxsize=1)
def _catalogue() -> Catalogue:
    return Catalogue.shipped()


def scenario_choices() -> list[str]:
    """The shipped scenarios a room may name."""
    return list(shipped_scenarios())


def room_scenario(text: str) -> Scenario:
    """A room's ``scenario`` option: a shipped scenario's name (:func:`scenario_choices`),
    or the text of an uploaded scenario file (TOML, docs/scenario.md) whose decks and
    bases are shipped ones named, or bases given as ``LENGTHxWIDTH``. Nothing here opens
    a file a request names. Raises :class:`InputError` (one line)."""
    if not isinstance(text, str):
        raise InputError("option scenario: expected a shipped scenario's name or a scenario file's text")
    if text in shipped_scenarios():
        return load_scenario(text)
    if len(text) > MAX_SCENARIO_CHARS:
        raise InputError(f"option scenario: expected a file of at most {MAX_SCENARIO_CHARS // 1024} KiB, "
                         f"got {len(text) // 1024} KiB")
    if "\n" not in text and "=" not in text:
        raise InputError(f"option scenario: expected one of {', '.join(shipped_scenarios())} or an uploaded "
                         f"scenario file, got {text[:40]!r}")
    return read_document(parse_toml(text, "uploaded scenario"), _catalogue(), "uploaded scenario")


def prepare(options: dict[str, Any], room: dict[str, Any]) -> dict[str, Any]:
    """The engine's options for a room: ``reorder`` from the room's own option
    (:data:`REORDER`). Raises :class:`InputError` for a ``chaser_limit_s`` out of range."""
    limit = room.get("chaser_limit_s")
    if limit is not None and not 0 <= limit <= MAX_CHASER_LIMIT_S:
        raise InputError(f"option chaser_limit_s: expected 0 to {MAX_CHASER_LIMIT_S} seconds, got {limit}")
    return dict(options, reorder=room.get("reorder", REORDER.default))


def limited_seat(state) -> int | None:
    """The seat whose choice the room's ``chaser_limit_s`` times now: the chaser's
    while the game waits for its order (DF.T2), else ``None``."""
    return state.current_players()[0] if getattr(state, "pending", None) is not None else None


def silhouette(p) -> str:
    """Which of furball's own top-down drawings stands for plane ``p``
    (``static/img/planes.svg``): ``balloon``, ``bomber`` (more than one engine, DF.T7),
    ``two-seater`` (a firing arc facing backwards: a rear gunner) or ``fighter``."""
    if p.kind == PlaneKind.BALLOON:
        return "balloon"
    if p.engines == Engines.MULTI:
        return "bomber"
    arcs = p.base.firing_arcs or ()
    if any(abs((centre + 180.0) % 360.0 - 180.0) > 90.0 for centre, _ in arcs):
        return "two-seater"
    return "fighter"


def _plane(p, row: dict, colours: dict[str, str]) -> dict:
    catalogue = _catalogue()
    row = dict(row)
    row.update(deck=None if p.deck is None else p.deck.name, base=_base_ref(p.base, catalogue),
               geometry=_base_json(p.base), silhouette=silhouette(p), colour=colours[p.side],
               autonomous=bool(p.autonomous))
    return row


VIEW_LANG = True
""":func:`view` takes the reader's language: its texts (the last turn's report, the
replay's lines, the ending) are written in it (docs/i18n.md)."""


def view(o, seat: int, lang: Lang | str = DEFAULT_LANG) -> dict[str, Any]:
    """The JSON of dogfight observation ``o`` of ``seat`` (see the module docstring), its
    texts in ``lang``."""
    lang = Lang(lang)
    doc = o.as_json()
    replay, public_replay, last_turn = o.replay, o.public_replay, doc["last_turn"]
    if lang != DEFAULT_LANG and o.seen is not None:
        replay, public_replay, last_turn = o.seen.replay(lang), o.public_seen.replay(lang), list(o.seen.lines(lang))
    colours = style.side_colours(o.seat_sides)
    planes = [_plane(p, row, colours) for p, row in zip(o.table.planes, doc["table"]["planes"])]
    public_rows = []
    for p, row in zip(o.table.planes, planes):
        if p.side == o.side:  # what every side sees of our own planes, too
            row = dict(row, damage=["?"] * len(p.damage), damage_taken=None,
                       effects=[e for e, raw in zip(row["effects"], p.effects)
                                if raw.special in VISIBLE_SPECIALS])
        public_rows.append(row)
    public = {"name": doc["table"]["name"], "width_mm": doc["table"]["width_mm"],
              "height_mm": doc["table"]["height_mm"], "turn": doc["turn"], "turn_limit": doc["turn_limit"],
              "seat_sides": doc["seat_sides"], "colours": colours, "planes": public_rows,
              "locked": doc["locked"], "scores": doc["scores"], "piles": doc["piles"], "over": doc["over"],
              "winner": doc["winner"], "replay": public_replay, "first_turn": o.first_turn, "end": o.end,
              "ending": ending(o, lang), "waiting": doc["waiting"],
              "flown": None if o.public_flown is None else o.public_flown.so_far(lang)}
    own = {row["name"]: {"damage": row["damage"], "damage_taken": row["damage_taken"], "effects": row["effects"]}
           for p, row in zip(o.table.planes, planes) if p.side == o.side}
    private = {"side": o.side, "planes": own, "own_plans": doc["own_plans"], "to_plan": doc["to_plan"],
               "last_turn": last_turn, "replay": replay, "reorder": doc["reorder"], "tails": doc["tails"],
               "own_tails": doc["own_tails"], "flown": None if o.flown is None else o.flown.so_far(lang)}
    return {"public": public, "private": private}


def ending(o, lang: Lang | str = DEFAULT_LANG) -> str | None:
    """How a finished game ended, in words every seat may read (``None`` while it goes
    on), in ``lang``: which turns were played, why it ended (DF.V1, DF.V2) and who won,
    in words that agree with the points: under DF.V1 the last side flying wins whatever
    the points, and the sentence says so when another side scored more; a DF.V1 draw (no
    side flying) says the points do not decide. Sides are names (not translated)."""
    if not o.over:
        return None
    _ = translator(lang)
    last = o.turn - 1
    if last < o.first_turn:
        played = _("no turn was played")
    elif last == o.first_turn:
        played = _("turn {turn} was played").format(turn=last)
    else:
        played = _("turns {first} to {last} were played").format(first=o.first_turn, last=last)
    scores = dict(o.scores)
    points = ", ".join(f"{side} {v}" for side, v in scores.items())
    best = max(scores.values(), default=0)
    leaders = [side for side, v in scores.items() if v == best]
    tied = _(" and ").join(leaders)
    if o.end == EndReason.LAST_SIDE:
        why = _("at most one side has planes flying (DF.V1)")
        if o.winner == DRAW:
            who = _("A draw: no side has a plane left flying, so the points do not decide")
        elif o.winner in leaders:
            who = _("{side} win: the last side flying, and the most points too").format(side=o.winner)
        else:
            who = _("{side} win as the last side flying (DF.V1 comes before the points), although "
                    "{leaders} scored more").format(side=o.winner, leaders=tied)
    else:
        why = _("the turn limit ({turn_limit}) was reached (DF.V2)").format(turn_limit=o.turn_limit)
        if o.winner != DRAW:
            who = _("{side} win on points").format(side=o.winner)
        else:
            who = _("A draw: {leaders} have the same points").format(leaders=tied)
    return _("Game over: {played}; {why}. {who}. Points (DF.V2): {points}.").format(
        played=played, why=why, who=who, points=points)


def choices(o, seat: int) -> dict[str, Any]:
    """What a seat that plans chooses among (the planning is simultaneous, DF.M1: every
    seat with a plane to plan gets this at once): ``plane``, the plane to show first
    (its next plane to lock, else its first plane, whose locked plan it may change until
    the last plan locks), ``plans`` and ``tree`` for that plane, and ``planes``: for each
    of its planes that plan this turn (``o.planning``), ``plans`` (how many), ``locked``
    (whether its plan is locked) and ``tree``, its legal plans card by card
    (:func:`~maneuvers.plan.card_tree`'s shape), each leaf the index of that plan in
    the seat's legal actions (``legal_actions_for(seat)``, what the room's ``act``
    takes), with no tail choice (the nearest enemy); a plane that may tail two or more
    enemies (DF.T3) also has ``tails``: ``[enemy, shift]`` per enemy, nearest first, the
    action of a plan with that choice being its leaf plus ``shift``. While the game
    waits for this seat's chaser (DF.T2): ``reorder``, the chaser's choice
    (:meth:`~scenarios.dogfight.state.ChaserChoice.as_json`: its ``orders`` in the
    seat's legal actions' order, keep first), and no planes."""
    if o.reorder is not None:
        return {"plane": None, "plans": 0, "tree": {}, "planes": {}, "reorder": o.reorder.as_json()}
    planes: dict[str, dict] = {}
    first: dict[str, int] = {}
    for index, a in enumerate(o.actions()):
        if a.tail is not None:  # the same plans again, with a tail choice (DF.T3): one shift per enemy
            tails = planes[a.plane].setdefault("tails", [])
            if not tails or tails[-1][0] != a.tail:
                tails.append([a.tail, index - first[a.plane]])
            continue
        entry = planes.setdefault(a.plane, {"plans": 0, "locked": a.plane in o.locked, "tree": {}})
        first.setdefault(a.plane, index)
        entry["plans"] += 1
        node = entry["tree"]
        for card in a.cards[:-1]:
            node = node.setdefault(card, {})
        node[a.cards[-1]] = index
    first = o.to_plan or (o.planning[0] if o.planning else None)
    head = planes.get(first, {"plans": 0, "tree": {}})
    return {"plane": first, "plans": head["plans"], "tree": head["tree"], "planes": planes}


MAX_MOVED = 16
"""The most planes one Best plans request may move (``poses``)."""
SEATS_CACHED = 32
"""How many seats' plan-tree caches one worker process keeps (the least recently used
forgotten first), each at most :data:`TREES_PER_SEAT` entries."""
TREES_PER_SEAT = 8


def analysis(o, data: Any, key: tuple | None = None) -> tuple[Any, tuple]:
    """A seat's Best plans request (``{"plane": NAME?, "vs": ENEMY?, "poses"?: {NAME:
    [x_mm, y_mm, heading_deg]}}``: one of its side's planes that plans, default the plane
    it plans now; an enemy on the table, default every enemy within reach; planes on the
    table moved where the seat's page dragged them, a what-if of that page alone) as
    ``(function, arguments)`` for the server's pool: :func:`best_plans` over the table as
    this seat sees it. ``key``: the asking seat, ``(room id, seat)``, whose own plan-tree
    cache the worker uses (never another seat's). Raises :class:`InputError`."""
    if not isinstance(data, dict) or set(data) - {"plane", "vs", "poses"}:
        raise InputError("request: expected {\"plane\": a plane of yours, \"vs\": an enemy plane, \"poses\": "
                         "{plane: [x_mm, y_mm, heading_deg]}}")
    if o.over:
        raise InputError("the game is over")
    planes = {p.name: p for p in o.table.planes}
    plane = data.get("plane") or o.to_plan
    mine = [n for n, p in planes.items() if p.side == o.side]
    if plane not in mine:
        raise InputError(f"request: field 'plane': expected one of your planes ({', '.join(mine)}), "
                         f"got {str(plane)[:40]!r}")
    vs = data.get("vs")
    if vs is not None and (vs not in planes or planes[vs].side == o.side or not planes[vs].on_table):
        raise InputError(f"request: field 'vs': expected an enemy plane on the table, got {str(vs)[:40]!r}")
    table = o.table if data.get("poses") is None else moved(o.table, data["poses"])
    return best_plans, (table, plane, vs, key)


def moved(table, poses: Any):
    """``table`` with planes moved to ``poses`` (``{name: [x_mm, y_mm, heading_deg]}``,
    planes on the table, at most :data:`MAX_MOVED`). Raises :class:`InputError` (one
    line: the field and what was expected; a stand off the table, DF.E1)."""
    on = {p.name for p in table.planes if p.on_table}
    if not isinstance(poses, dict) or len(poses) > MAX_MOVED:
        raise InputError(f"request: field 'poses': expected at most {MAX_MOVED} planes, each name: "
                         f"[x_mm, y_mm, heading_deg]")
    for name, pose in poses.items():
        if name not in on:
            raise InputError(f"request: field 'poses': expected planes on the table, got {str(name)[:40]!r}")
        if (not isinstance(pose, list) or len(pose) != 3
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                           and abs(v) <= 1e6 for v in pose)):
            raise InputError(f"request: field 'poses.{name}': expected [x_mm, y_mm, heading_deg], finite numbers")
    return table.replace(planes=tuple(p.replace(pose=Pose(*map(float, poses[p.name]))) if p.name in poses else p
                                      for p in table.planes))


_SEAT_TREES: LRUCache = LRUCache(maxsize=SEATS_CACHED)
"""In a worker process: each seat's plan-tree cache (an ``LRUCache`` of
:data:`TREES_PER_SEAT` entries) by ``(room id, seat)``, at most :data:`SEATS_CACHED` seats."""


def best_plans(table, plane: str, vs: str | None, key: tuple | None = None, progress=None, top: int = 5) -> dict:
    """The plan analysis of ``plane`` on ``table`` (a seat's view of it) against ``vs``
    (or every enemy within reach): :func:`scenarios.dogfight.analyze`, its ``top`` plans
    (``furball analyze --json``). ``key``: the asking seat ``(room id, seat)``: its plan
    trees and legal plans are kept for its next request in this process (keyed by the
    planes' states on the seat's table, :func:`~scenarios.dogfight.analysis.cached_plan_tree`;
    a seat's cache is its own, so no seat's answer comes faster because another seat
    asked); the answer does not depend on it. ``progress``: a tqdm-like factory. Raises
    :class:`InputError` (a plane that plans no cards, no enemy in reach)."""
    from furball.scenarios.dogfight.analysis import analyze, default_enemies

    enemies = [vs] if vs is not None else default_enemies(table, plane)
    if not enemies:
        raise InputError(f"{plane}: no enemy within reach this turn: Best plans needs an enemy to play against")
    cache = None
    if key is not None:
        cache = _SEAT_TREES.get(key)
        if cache is None:
            cache = _SEAT_TREES[key] = LRUCache(maxsize=TREES_PER_SEAT)
    return analyze(table, plane, vs=enemies, progress=progress, heat_rows=0,  # no heat map: not sent
                   tree_cache=cache).as_json(top)
