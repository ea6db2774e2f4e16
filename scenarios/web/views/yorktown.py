"""1942 USS Yorktown observations as JSON (the rooms' seat views; docs/rooms.md).

A cooperative game whose observation is the state: the board, the tracks and the planes
are public; the Japanese deck's order and face-down weather tiles are not sent, and each
unused expert maneuver tile is ``private`` to the seat flying its plane (YT expansions).

The page: ``public.board`` is the archipelago as ``furball play yorktown --plot`` draws it
(:func:`viz.yorktown.yorktown_sketch`); ``public.panels`` the time track (YT.S4, YT.E2),
the search and damage tracks, the four Dauntless, the action cards (YT.R5), the roll
under way with the dice kept and the dice thrown again (YT.D1-D3) and the Japanese deck;
``private.panels`` the seat's own expert tiles. :func:`choices` puts the actions on the
pieces they concern: an action card (choosing it), a Dauntless (which acts next), an
island or the approach zone (flying there: a move or a take-off).
"""
from __future__ import annotations

from typing import Any

from furball.i18n import DEFAULT_LANG, ENGLISH, N_, Lang, translator
from furball.scenarios.yorktown.actions import PLANES, Action, Card, Kind, MoveKind, Phase, plane_name
from furball.viz.yorktown import yorktown_sketch

from ..rooms import CLOCK, PAUSING
from . import item, panel, plain

__all__ = ["view", "choices", "refusal", "prepare", "ROOM_OPTIONS", "ROOM_OWN", "PAGE", "VIEW_LANG"]

ROOM_OPTIONS = ("players", "difficulty", "novices", "expansions", "clock", "pausing")
"""The options a room may set (the map, deck and time files are left out: nothing a
request says opens a file), the room's own ``clock`` and ``pausing`` among them."""
ROOM_OWN = (CLOCK, PAUSING)
"""The room's own options: a real-time clock (YT.S4) its owner may be allowed to pause;
:func:`prepare` turns them into the engine's time model."""
PAGE = "board"
"""The module of ``static/js/rooms/games/`` that draws this game's page (the card games' one)."""

VIEW_LANG = True
"""``view`` takes the reader's language ``lang`` and writes its words in it (docs/i18n.md)."""

CARD_TEXT = {Card.SEARCH: N_("Search (YT.A1)"), Card.LAND_TAKE_OFF: N_("Land / take off (YT.A3, YT.A5)"),
             Card.ATTACK: N_("Attack (YT.A7)"), Card.MOVE: N_("Move (YT.A8)")}
"""The action cards' names (read through the reader's translator)."""


def _mmss(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def _where(s, p: int, _=ENGLISH) -> str:
    at = s.loc[p]
    return _("out of the game") if at is None else _(s.setup.board.labels[at])


def _word(value, _=ENGLISH) -> str:
    """A vocabulary value (a card, a load, a tile) in words, ``-`` for none."""
    return "-" if value is None else _(str(value))


def _token(s, p: int) -> str:
    return f"token:{s.setup.board.graph.nodes[s.loc[p]].name}:D{p + 1}"


def _roll_panel(s, _=ENGLISH) -> dict | None:
    r = s.roll
    if r is None:
        return None
    kept = list(r.faces)
    for f in r.last:
        if f != 1 and f in kept:
            kept.remove(f)
    dice = [item("", str(f), _("kept from an earlier throw"), kind="die kept") for f in kept]
    dice += [item("", str(f), _("thrown just now (a 1: locked, YT.D2)") if f == 1 else _("thrown just now"),
                  kind="die thrown" + (" one" if f == 1 else "")) for f in r.last]
    head = _("{plane}: {purpose}, {dice} dice").format(plane=plane_name(r.plane), purpose=_(str(r.purpose)), dice=r.dice)
    if r.maneuver:
        head += " " + _("(expert maneuver: {tile})").format(tile=_(str(r.maneuver)))
    throws = _("throws so far: {throws}; showing: {faces}; 1s locked: {ones}").format(
        throws=r.throws, faces=" ".join(map(str, r.faces)) or "-", ones=r.ones)
    if r.fuel_costs and r.ones:
        throws += " " + _("(each cost 1 fuel)")
    lines = [head, throws, _("dice: the kept ones first, then the last throw (a 1 stays locked for the rest of the roll)")]
    if r.targets:
        lines.append(_("targets: {targets}").format(targets=", ".join(_(str(t)) for t in r.targets)))
    return panel("roll", _("The roll (YT.D1-D3)"), lines, dice, rule="YT.D2")


def _panels(s, _=ENGLISH) -> list[dict]:
    setup = s.setup
    board = setup.board
    out = []
    left = max(0, setup.limit - s.clock)
    out.append(panel("time", _("Time (YT.S4, YT.E2)"), [
        _("turn {turn}; clock {clock} of {limit} ({left} left)").format(turn=s.turn, clock=_mmss(s.clock),
                                                                        limit=_mmss(setup.limit), left=_mmss(left)),
        _("{difficulty}, {players} player(s), {novices} novice(s)").format(
            difficulty=_(str(setup.difficulty)), players=setup.players, novices=setup.novices)],
        table={"head": [_("minutes"), *[str(m) for m in range(0, setup.limit // 60 + 1, 5)]],
               "rows": [["", *["●" if m * 60 <= s.clock else "○" for m in range(0, setup.limit // 60 + 1, 5)]]]},
        rule="YT.S4"))
    roll = _roll_panel(s, _)
    if roll is not None:
        out.append(roll)
    if s.phase == Phase.CHOOSE and s.chooser() is not None:
        p = s.chooser()
        out.append(panel("cards", _("Action cards: {plane} chooses (YT.R5)").format(plane=plane_name(p)),
                         [_("{plane} is at {place} with {fuel} fuel").format(plane=plane_name(p), place=_where(s, p, _),
                                                                             fuel=s.fuel[p])],
                         [item(f"card:{c.value}", _(CARD_TEXT[c]), kind="card") for c in Card], rule="YT.R5"))
    rows = []
    for p in range(PLANES):
        rows.append([plane_name(p), f"P{setup.seat_of[p] + 1}", _where(s, p, _), s.fuel[p], s.skill[p],
                     "B" if s.side_b[p] else "A", _word(s.load[p], _), _word(s.choice[p], _),
                     _("yes") if s.done[p] else "", _("yes") if s.tile[p] is not None else ""])
    planes = [item(_token(s, p), f"D{p + 1}", _("{plane} at {place}").format(plane=plane_name(p), place=_where(s, p, _)),
                   kind="plane")
              for p in range(PLANES) if s.loc[p] is not None]
    out.append(panel("planes", _("Dauntless (YT.K2)"), [], planes,
                     table={"head": [_("plane"), _("seat"), _("at"), _("fuel"), _("skill"), _("cockpit"), _("load"),
                                     _("card"), _("acted"), _("expert tile")], "rows": rows}))
    out.append(panel("tracks", _("Tracks (YT.K1)"), [
        _("search: {n} of {last}").format(n=s.search, last=len(board.search_nodes) - 1),
        _("USS Yorktown damage: {n} of 3").format(n=s.yorktown),
        _("IJN Shōhō damage: {n} of 3 (sunk at 3: victory, YT.E1)").format(n=s.shoho),
        _("Zekes on CAP: {n}").format(n=s.cap),
        _("Japanese deck: {n} cards face down, {played} played").format(n=len(s.deck), played=len(s.discard)),
        _("Japanese planes shot down {n}; Dauntless crashed {crashes}").format(n=s.shot_down, crashes=s.crashes)],
        rule="YT.E1"))
    return out


def view(s, seat: int, lang: Lang = DEFAULT_LANG) -> dict[str, Any]:
    """The JSON of Yorktown observation ``s`` for ``seat`` (see the module docstring),
    its words in ``lang``."""
    _ = translator(lang)
    board = s.setup.board
    islands = [{"name": name, "colour": board.colours[k], "japanese": plain(s.japanese[k]),
                "weather": plain(s.weather[k]) if s.weather[k] is not None and s.revealed[k] else None,
                "weather_face_down": s.weather[k] is not None and not s.revealed[k]}
               for k, name in enumerate(board.names)]
    planes = []
    for p in range(PLANES):
        at = s.loc[p]
        planes.append({"name": plane_name(p), "seat": f"P{s.setup.seat_of[p] + 1}",
                       "at": None if at is None else board.labels[at], "fuel": int(s.fuel[p]),
                       "skill": int(s.skill[p]), "cockpit": "B" if s.side_b[p] else "A", "load": plain(s.load[p]),
                       "card": plain(s.choice[p]), "done": bool(s.done[p]), "expert_tile": s.tile[p] is not None})
    public = {"turn": int(s.turn), "clock_s": int(s.clock), "limit_s": int(s.setup.limit), "search": int(s.search),
              "yorktown_damage": int(s.yorktown), "shoho_damage": int(s.shoho), "cap": int(s.cap),
              "deck": len(s.deck), "islands": islands, "planes": planes, "over": plain(s.over),
              "phase": plain(s.phase), "board": yorktown_sketch(s, _).as_json(), "panels": _panels(s, _)}
    tiles = {plane_name(p): plain(s.tile[p]) for p in range(PLANES)
             if s.setup.seat_of[p] == seat and s.tile[p] is not None}
    mine = [panel("tiles", _("Your expert maneuver tiles"), [_("Each may be played once, with an action of its plane.")],
                  [item("", f"{name}: {_(tile)}", kind="tile") for name, tile in tiles.items()])] if tiles else []
    for p in mine:
        p["private"] = True
    private = {"expert_tiles": tiles, "panels": mine}
    return {"public": public, "private": private}


def _targets(s, a: Action) -> list[str]:
    k = a.kind
    names = s.setup.board.graph.nodes
    if k == Kind.CHOOSE:
        return [f"card:{a.card.value}"]
    if k == Kind.NEXT and s.loc[a.plane] is not None:
        return [_token(s, a.plane)]
    if k in (Kind.MOVE, Kind.TAKE_OFF) and a.to is not None:
        return [f"node:{names[a.to].name}"]
    return []


def choices(s, seat: int) -> dict[str, Any]:
    """Per legal action (the engine's order) the pieces a click chooses it by."""
    return {"actions": [{"targets": _targets(s, a)} for a in s.legal_actions()]}


def refusal(s, targets: list[str]) -> Action | None:
    """The action a click on an island would mean while a plane flies its Move card
    (a move there, YT.A8), for the engine's own reason why it is not legal; ``None``
    otherwise."""
    if s.phase != Phase.PLANE or s.acting is None or not targets[0].startswith("node:"):
        return None
    name = targets[0][len("node:"):]
    nodes = [n.name for n in s.setup.board.graph.nodes]
    if name not in nodes:
        return None
    return Action(Kind.MOVE, plane=s.acting, to=nodes.index(name), via=MoveKind.ADJACENT)


def prepare(options: dict[str, Any], room: dict[str, Any]) -> dict[str, Any]:
    """The engine's options for a room: with the room's clock in real time (its ``clock``
    option), the shipped time model without its simulated seconds
    (:meth:`~scenarios.yorktown.tables.TimeModel.real_time`): the time people take is
    the time that passes (YT.S4); the room reads the clock with every action."""
    from furball.scenarios.web.rooms import ClockMode

    if room.get("clock") == ClockMode.REAL:
        from furball.scenarios.yorktown.tables import default_time

        options = dict(options, time=(options.get("time") or default_time()).real_time())
    return options
