"""Operation Canuck observations as JSON (the rooms' seat views; docs/rooms.md).

A solitaire game whose observation is the position with the draw deck face down (its
cards sorted, their order gone: ``State.observation``): everything the Partisan sees is
public (spectators see it too), except the draw deck's order, which nobody sees, and the
Axis deck, which only shows how many cards it holds (CN.K4). ``private`` is ``None``.

The page: ``public.board`` is the map as ``furball play canuck --plot`` draws it
(:func:`viz.canuck.canuck_sketch`); ``public.panels`` the Reserve (its cards are what
"add a card" concerns), the piles, the counters off the map, the score with the bands
of CN.E5 and the operation under way. :func:`choices` puts each legal action on the
pieces it concerns: an area (Ambush, Sabotage, placing a Group or a Base), a Group or
Leader token then the area it goes to (Move), a Group token (Operational Pause), a
Reserve card (adding it), a counter in the swept area (a loss).
"""
from __future__ import annotations

from typing import Any

from furball.scenarios.canuck.actions import (
    END_REASONS,
    GROUPS,
    LEADERS,
    OP_NAMES,
    RED_FACES_TO_END,
    Action,
    ActionKind,
    PendingKind,
    Piece,
)
from furball.scenarios.canuck.cards import is_face, is_red, label
from furball.viz.canuck import canuck_sketch

from . import item, panel, plain

__all__ = ["view", "choices", "refusal", "ROOM_OPTIONS", "PAGE"]

ROOM_OPTIONS = ("setup",)
"""The options a room may set (the map file is left out: nothing a request says opens a file)."""
PAGE = "board"
"""The module of ``static/js/rooms/games/`` that draws this game's page (the card games' one)."""

K = ActionKind
TOKEN = {Piece.GROUP: "G", Piece.LEADER: "L", Piece.BASE: "B"}


def _cards(cards) -> list[str]:
    return [label(c) for c in cards]


def _card_item(c: int, chosen=()) -> dict:
    kind = "face" if is_face(c) else "number"
    return item(f"card:{c}", label(c), f"{label(c)}: {'red' if is_red(c) else 'black'} {kind} card"
                + (" (chosen)" if c in chosen else ""), kind="card", red=is_red(c), chosen=c in chosen)


def _panels(s) -> list[dict]:
    score = s.score()
    p = s.pending
    chosen = p.cards if p is not None else ()
    names = s.board.areas
    out = [panel("reserve", "Reserve (CN.K2)", ["The Partisan's hand: red number cards for operations."],
                 [_card_item(c, chosen) for c in s.reserve], rule="CN.K2")]
    if p is not None:
        lines = [f"{str(p.kind).replace('_', ' ')}"
                 + (f": {OP_NAMES.get(p.op, '')}" if p.op is not None else "")
                 + (f" in {names[p.area]}" if p.area is not None else "")]
        if p.kind == PendingKind.SWEEP:
            lines = [f"Axis Sweep by the garrison of {names[p.garrison]} against {names[p.area]} (CN.F2d): choose "
                     f"Reserve cards to defend"]
        if p.groups or p.leaders:
            lines.append(f"taking part: {p.groups} Group(s), {p.leaders} Leader(s) (CN.P4)")
        if p.cards:
            lines.append(f"cards chosen: {' '.join(_cards(p.cards))}")
        if p.left:
            lines.append(f"{p.left} more to place or lose")
        out.append(panel("pending", "Under way", lines))
    out.append(panel("piles", "Piles (CN.K4)", [
        f"draw deck: {len(s.deck)} cards (face down)", f"Axis deck: {len(s.axis_deck)} cards (face down)",
        f"Partisan discard: {' '.join(_cards(s.partisan_discard)) or '-'}",
        f"Axis discard: {' '.join(_cards(s.axis_discard)) or '-'}",
        f"out of play: {' '.join(_cards(s.removed)) or '-'}"], open=False))
    out.append(panel("counters", "Counters off the map (CN.K1)", [
        f"unused Groups {s.unused_groups} of {GROUPS}", f"unused Bases {s.unused_bases}",
        f"Leaders lost {s.lost_leaders} of {LEADERS}"], open=False))
    why = f"; {END_REASONS[s.over]}" if s.over else ""
    out.append(panel("score", "Score (CN.E4, CN.E5)", [
        f"VP from operations {score.operations} + Alba {score.alba} = {score.total}: {str(score.band).upper()}{why}",
        f"red face cards drawn: {s.red_faces} of {RED_FACES_TO_END} (the 6th ends the game, CN.E1)",
        f"Alba liberated once: {'yes' if s.alba_liberated_once else 'no'}"],
        table={"head": ["VP", "result"], "rows": [["25 or more", "major victory"], ["11 to 24", "medium victory"],
                                                   ["5 to 10", "minor victory"],
                                                   ["less than 5, or the last Base lost", "defeat"]]},
        rule="CN.E5"))
    return out


def view(s, seat: int) -> dict[str, Any]:
    """The JSON of Canuck observation ``s`` (see the module docstring)."""
    score = s.score()
    areas = [{"name": name, "garrison": int(s.garrison[i]), "groups": int(s.groups[i]),
              "leaders": int(s.leaders[i]), "bases": int(s.bases[i])} for i, name in enumerate(s.board.areas)]
    public = {
        "areas": areas, "reserve": _cards(s.reserve), "deck": len(s.deck),
        "partisan_discard": _cards(s.partisan_discard), "axis_deck": len(s.axis_deck),
        "axis_discard": _cards(s.axis_discard), "removed": _cards(s.removed),
        "unused_groups": int(s.unused_groups), "unused_bases": int(s.unused_bases),
        "lost_leaders": int(s.lost_leaders), "vp": int(s.vp), "red_faces": int(s.red_faces),
        "score": {"total": int(score.total), "band": plain(score.band)},
        "pending": None if s.pending is None else plain(s.pending.kind), "over": plain(s.over),
        "board": canuck_sketch(s).as_json(), "panels": _panels(s), "ending": ending(s)}
    return {"public": public, "private": None}


def ending(s) -> str | None:
    """The game over in a player's words (``None`` while it goes on): how many turns
    were played (a turn is one Partisan option, CN.P1: what the engine's log counts as
    options), why it ended and the score (CN.E1, CN.E2, CN.E4, CN.E5)."""
    if not s.is_terminal():
        return None
    score = s.score()
    why = END_REASONS.get(score.reason, "") if score.reason else ""
    turns = f"{s.options} turn{'' if s.options == 1 else 's'}"
    return (f"Game over after {turns} (one Partisan option each, CN.P1): {why}. "
            f"VP: operations {score.operations} + Alba {score.alba} = {score.total}: {str(score.band).upper()}.")


def _targets(s, a: Action) -> list[str]:
    names = s.board.areas
    k = a.kind
    if k in (K.AMBUSH, K.SABOTAGE, K.PLACE_GROUP, K.PLACE_BASE):
        return [f"node:{names[a.area]}"]
    if k == K.PAUSE:
        return [f"token:{names[a.area]}:G"]
    if k == K.MOVE_COUNTER:
        return [f"token:{names[a.area]}:{TOKEN[a.piece]}", f"node:{names[a.to]}"]
    if k == K.ADD_CARD:
        return [f"card:{a.card}"]
    if k == K.LOSE:
        return [f"token:{names[s.pending.area]}:{TOKEN[a.piece]}"]
    return []


def choices(s, seat: int) -> dict[str, Any]:
    """Per legal action (the engine's order) the pieces a click chooses it by."""
    return {"actions": [{"targets": _targets(s, a)} for a in s.legal_actions()]}


def refusal(s, targets: list[str]) -> Action | None:
    """The action a click on ``targets`` would mean in the main menu (an Ambush of an
    area), for the engine's own reason why it is not legal now; ``None`` otherwise."""
    if s.pending is not None or not targets or not targets[0].startswith("node:"):
        return None
    name = targets[0][len("node:"):]
    if name not in s.board.areas:
        return None
    return Action(K.AMBUSH, area=s.board.areas.index(name))
