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

from furball.i18n import DEFAULT_LANG, ENGLISH, N_, Lang, translator
from furball.scenarios.canuck.actions import (
    END_REASONS,
    GROUPS,
    LEADERS,
    OP_NAMES,
    RED_FACES_TO_END,
    Action,
    ActionKind,
    Band,
    PendingKind,
    Piece,
)
from furball.scenarios.canuck.cards import is_face, is_red, label
from furball.viz.canuck import canuck_sketch

from . import item, panel, plain

__all__ = ["view", "choices", "refusal", "ROOM_OPTIONS", "PAGE", "VIEW_LANG"]

ROOM_OPTIONS = ("setup",)
"""The options a room may set (the map file is left out: nothing a request says opens a file)."""
PAGE = "board"
"""The module of ``static/js/rooms/games/`` that draws this game's page (the card games' one)."""

VIEW_LANG = True
"""``view`` takes the reader's language ``lang`` and writes its words in it (docs/i18n.md)."""

K = ActionKind
TOKEN = {Piece.GROUP: "G", Piece.LEADER: "L", Piece.BASE: "B"}
WORDS = {PendingKind.PARTICIPANTS: N_("participants"), PendingKind.CARDS: N_("cards"), PendingKind.SWEEP: N_("sweep"),
         PendingKind.LOSSES: N_("losses"), PendingKind.TRAIN: N_("train"), PendingKind.MOVE: N_("move"),
         PendingKind.BASE: N_("base"), Band.MAJOR: N_("major"), Band.MEDIUM: N_("medium"), Band.MINOR: N_("minor"),
         Band.DEFEAT: N_("defeat")}
"""The words of the decisions under way and of the result bands (CN.E5), as the panels print them."""


def _cards(cards) -> list[str]:
    return [label(c) for c in cards]


def _card_item(c: int, chosen=(), _=ENGLISH) -> dict:
    if is_face(c):
        tip = _("{card}: red face card") if is_red(c) else _("{card}: black face card")
    else:
        tip = _("{card}: red number card") if is_red(c) else _("{card}: black number card")
    tip = tip.format(card=label(c)) + (" " + _("(chosen)") if c in chosen else "")
    return item(f"card:{c}", label(c), tip, kind="card", red=is_red(c), chosen=c in chosen)


def _band(band, _=ENGLISH) -> str:
    return _(WORDS[band]).upper()


def _panels(s, _=ENGLISH) -> list[dict]:
    score = s.score()
    p = s.pending
    chosen = p.cards if p is not None else ()
    names = s.board.areas
    out = [panel("reserve", _("Reserve (CN.K2)"), [_("The Partisan's hand: red number cards for operations.")],
                 [_card_item(c, chosen, _) for c in s.reserve], rule="CN.K2")]
    if p is not None:
        head = _(WORDS[p.kind])
        if p.op is not None:
            head += f": {_(OP_NAMES.get(p.op, ''))}"
        if p.area is not None:
            head += " " + _("in {area}").format(area=names[p.area])
        lines = [head]
        if p.kind == PendingKind.SWEEP:
            lines = [_("Axis Sweep by the garrison of {garrison} against {area} (CN.F2d): choose Reserve cards to "
                       "defend").format(garrison=names[p.garrison], area=names[p.area])]
        if p.groups or p.leaders:
            lines.append(_("taking part: {groups} Group(s), {leaders} Leader(s) (CN.P4)").format(groups=p.groups,
                                                                                                   leaders=p.leaders))
        if p.cards:
            lines.append(_("cards chosen: {cards}").format(cards=" ".join(_cards(p.cards))))
        if p.left:
            lines.append(_("{n} more to place or lose").format(n=p.left))
        out.append(panel("pending", _("Under way"), lines))
    out.append(panel("piles", _("Piles (CN.K4)"), [
        _("draw deck: {n} cards (face down)").format(n=len(s.deck)),
        _("Axis deck: {n} cards (face down)").format(n=len(s.axis_deck)),
        _("Partisan discard: {cards}").format(cards=" ".join(_cards(s.partisan_discard)) or "-"),
        _("Axis discard: {cards}").format(cards=" ".join(_cards(s.axis_discard)) or "-"),
        _("out of play: {cards}").format(cards=" ".join(_cards(s.removed)) or "-")], open=False))
    out.append(panel("counters", _("Counters off the map (CN.K1)"), [
        _("unused Groups {n} of {groups}").format(n=s.unused_groups, groups=GROUPS),
        _("unused Bases {n}").format(n=s.unused_bases),
        _("Leaders lost {n} of {leaders}").format(n=s.lost_leaders, leaders=LEADERS)], open=False))
    why = f"; {_(END_REASONS[s.over])}" if s.over else ""
    out.append(panel("score", _("Score (CN.E4, CN.E5)"), [
        _("VP from operations {operations} + Alba {alba} = {total}: {band}").format(
            operations=score.operations, alba=score.alba, total=score.total, band=_band(score.band, _)) + why,
        _("red face cards drawn: {n} of {most} (the 6th ends the game, CN.E1)").format(n=s.red_faces,
                                                                                        most=RED_FACES_TO_END),
        _("Alba liberated once: {answer}").format(answer=_("yes") if s.alba_liberated_once else _("no"))],
        table={"head": [_("VP"), _("result")],
               "rows": [[_("25 or more"), _("major victory")], [_("11 to 24"), _("medium victory")],
                        [_("5 to 10"), _("minor victory")], [_("less than 5, or the last Base lost"), _("defeat")]]},
        rule="CN.E5"))
    return out


def view(s, seat: int, lang: Lang = DEFAULT_LANG) -> dict[str, Any]:
    """The JSON of Canuck observation ``s`` (see the module docstring), its words in
    ``lang``."""
    _ = translator(lang)
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
        "board": canuck_sketch(s, _).as_json(), "panels": _panels(s, _), "ending": ending(s, _)}
    return {"public": public, "private": None}


def ending(s, _=ENGLISH) -> str | None:
    """The game over in a player's words (``None`` while it goes on): how many turns
    were played (a turn is one Partisan option, CN.P1: what the engine's log counts as
    options), why it ended and the score (CN.E1, CN.E2, CN.E4, CN.E5); read with ``_``."""
    if not s.is_terminal():
        return None
    score = s.score()
    why = _(END_REASONS.get(score.reason, "")) if score.reason else ""
    if s.options == 1:
        turns = _("Game over after 1 turn (one Partisan option each, CN.P1): {why}.").format(why=why)
    else:
        turns = _("Game over after {n} turns (one Partisan option each, CN.P1): {why}.").format(n=s.options, why=why)
    return turns + " " + _("VP: operations {operations} + Alba {alba} = {total}: {band}.").format(
        operations=score.operations, alba=score.alba, total=score.total, band=_band(score.band, _))


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
