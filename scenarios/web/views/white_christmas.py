"""1975 White Christmas observations as JSON (the rooms' seat views; docs/rooms.md).

``public``: the set-up (labels, colours, rooftops), the board (round, phase, turn order,
rooftops with their People and staircases, the action row, decks as counts, special
orders on offer, supply, the open question) and every side's public values (VP,
influence, helicopters, carrier, and hand, radar tokens, special orders and sealed bid as
**counts**). ``private``: the seat's own hand, radar token values, special orders,
inspected staircases and bid values (WC.F2, WC.F4). Made from
:class:`~scenarios.white_christmas.Observation` only, so nothing of another seat's hand,
radar values or bid is in it.

The page: ``public.board`` is the table as ``furball play white-christmas --plot`` draws
it (:func:`viz.white_christmas.white_christmas_sketch`); ``public.panels`` the round and
the question asked, the sighting (passengers, actions, the bids as counts), the action
row, the special orders on offer, the influence track with every space's effect and the
upgrade-1 threshold, the carrier upgrades with their costs and VP, the helicopters'
capacities and VP (and which People each side of a helicopter cannot carry), every
side's public counts, the supply; ``private.panels`` the seat's own hand, radar tokens
(and those in its sealed bid), special orders and inspected staircases.
:func:`choices` puts the actions on the pieces they concern: a row slot (take it), a
staircase (Inspect), a hand card (play, discard, put face up), the face-up card, a radar
token (into the bid), a helicopter then a landing slot or its carrier (move), a
helicopter then a People token (rescue), a token aboard (unload), a special order, a
carrier upgrade, a sighting passenger (board); the rest are buttons.
"""
from __future__ import annotations

import json
from typing import Any

from furball.i18n import DEFAULT_LANG, ENGLISH, N_, Lang, translator
from furball.scenarios.white_christmas.actions import PHASE_NUMBER, Action, ActionKind, Phase, take
from furball.scenarios.white_christmas.components import MODELS, PEOPLE, ROW, Icon, words
from furball.viz.white_christmas import bonus_words, card_text, white_christmas_sketch, white_christmas_sketch_text

from . import item, panel, plain

__all__ = ["view", "public", "public_json", "private", "choices", "refusal", "ROOM_OPTIONS", "PAGE", "VIEW_LANG"]

ROOM_OPTIONS = ("players", "solo")
"""The options a room may set (the data directory is left out: nothing a request says opens a file)."""
PAGE = "board"
"""The module of ``static/js/rooms/games/`` that draws this game's page (the card games' one)."""
VIEW_LANG = True
"""``view``, ``public`` and ``private`` take the reader's language ``lang`` and write their words in it
(docs/i18n.md)."""


def _card(comp, card: int | None) -> dict | None:
    return None if card is None else {"id": int(card), "name": comp.cards[card].name}


def _heli_id(o, side: int, model) -> str:
    return f"heli:{o.setup.labels[side]}:{model}"


ASKED = (N_("replace"), N_("unload"), N_("passenger"))
"""The open questions' words the status panel prints that the catalog has from nowhere else
(:class:`~scenarios.white_christmas.actions.Ask`'s values; ``move``, ``rescue``... it has)."""


def _bonus(bonus, _=ENGLISH) -> str:
    return "-" if bonus.value == "none" else bonus_words(bonus, _)


def _list(values, _=ENGLISH) -> str:
    """Words of a vocabulary, each read through ``_``, joined by commas."""
    return ", ".join(_(words(v)) for v in values)


def _people(counts, _=ENGLISH) -> str:
    return ", ".join(f"{_(p)} {n}" for p, n in zip(PEOPLE, counts))


def _panels(o, _=ENGLISH) -> list[dict]:
    """The public panels, their words read through ``_`` (a reader's translator)."""
    setup, b, comp = o.setup, o.board, o.setup.comp
    labels = setup.labels
    out = []
    lines = [_("round {round} of 4, phase {number}: {phase}").format(round=b.round, number=PHASE_NUMBER[b.phase],
                                                                     phase=_(str(b.phase))),
             _("turn order: {order}").format(order=", ".join(labels[i] for i in b.order))]
    if setup.solo:
        lines.append(_("solo against Captain Chambers (WC.H1)"))
    if b.over:
        if b.winner is not None:
            lines.append(_("game over: {side} wins").format(side=labels[b.winner]))
        else:
            lines.append(_("game over"))
    elif b.pending:
        front = b.pending[0]
        asked = _("{side} is asked: {question}").format(side=labels[front.side], question=_(words(front.ask)))
        lines.append(asked + (f" ({_(front.why)})" if front.why else ""))
    elif b.phase == Phase.SIGHTING:
        lines.append(_("sealed bids: radar tokens put in one by one, then sealed; revealed together (WC.F4)"))
    out.append(panel("status", _("Round (WC.F1)"), lines, rule="WC.F1"))
    # the sighting (WC.F4)
    if b.sighting is None:
        c = comp.cessna
        lines = [_("{cessna}: the highest radar totals score {vp} VP (WC.F7)").format(
            cessna=_(c.name), vp=", ".join(map(str, c.vp_two if setup.sides == 2 else c.vp)))]
        items = []
    else:
        card = comp.sightings[b.sighting]
        lines = [_(card.name), _("actions for the winner: {actions}").format(actions=_list(card.actions, _) or _("none"))]
        items = [item(f"passenger:{p}", _(p), _("a passenger who joins the winner's carrier"), kind="person")
                 for p in card.passengers]
    bids = []
    for i, side in enumerate(o.sides):
        if side.bid is None:
            bids.append(f"{labels[i]} -")
        else:
            bids.append(_("{side} sealed, {n} token(s)").format(side=labels[i], n=side.bid))
    lines.append(_("bids: {bids}").format(bids=", ".join(bids)))
    out.append(panel("sighting", _("Sighting (WC.F4)"), lines, items, rule="WC.F4"))
    # the action row (WC.F2)
    items = [item(f"row:{Icon.INSPECT}", _("Inspect: deck ({n} face down)").format(n=b.deck), _("take the deck's top card"),
                  kind="card back", back=True)]
    items += [item(f"row:{icon}", f"{_(words(icon))}: {_(card_text(comp, c))}", kind="card") for icon, c in zip(ROW, b.row)]
    out.append(panel("row", _("Action row (WC.F2)"),
                     [_("deck {deck}, discard {discard}").format(deck=b.deck, discard=len(b.discard))], items,
                     rule="WC.F2"))
    # special orders on offer (WC.F5)
    items = [item(f"order:{i}", comp.orders[i].label(_), kind="card") for i in b.orders_row]
    out.append(panel("orders", _("Special orders on offer (WC.F5)"),
                     [_("deck: {n} face down").format(n=b.orders_left)], items, rule="WC.F5"))
    # the influence track (WC.F1, WC.F5)
    inf = comp.influence
    rows = []
    for pos in range(inf.spaces + 1):
        here = [labels[i] for i, s in enumerate(o.sides) if s.influence == pos]
        rows.append([pos, _bonus(setup.track[pos], _), _("threshold") if pos == inf.threshold else "", ", ".join(here)])
    out.append(panel("influence", _("Influence track (WC.F5)"), [
        _("a marker reaching a space takes its effect; upgrade 1 needs influence {threshold} or more; "
          "ties on the track: the marker that arrived last is on top (WC.F1)").format(threshold=inf.threshold)],
        table={"head": [_("space"), _("effect"), "", _("markers")], "rows": rows}, open=False, rule="WC.F5"))
    # carrier upgrades (WC.F5)
    rows = []
    for up in comp.upgrades:
        if up.number == 1:
            cost = _("influence at {threshold} or more").format(threshold=inf.threshold)
        elif up.number == 2:
            cost = _("own a special order")
        elif up.radar:
            cost = _("radar tokens worth {radar} or more").format(radar=up.radar)
        elif up.same:
            cost = _("{same} of the colour's type + {any} any").format(same=up.same, any=up.any)
        else:
            cost = _("{any} People of any type").format(any=up.any)
        owners = [labels[i] for i, s in enumerate(o.sides) if s.upgrades[up.number - 1]]
        name = _(up.name) + (" " + _("(+{n} spaces)").format(n=up.spaces) if up.spaces else "")
        rows.append([up.number, name, cost, up.vp, ", ".join(owners) or "-"])
    types = "; ".join(f"{labels[i]} ({_(setup.colours[i].name)}): {_(setup.colours[i].rescue_device)}"
                      for i in range(setup.sides))
    items = [item(f"upgrade:{up.number}", f"{up.number}. {_(up.name)}", _("{vp} VP").format(vp=up.vp), kind="card")
             for up in comp.upgrades]
    out.append(panel("upgrades", _("Carrier upgrades (WC.F5)"), [_("the colour's type for card 3: {types}").format(types=types)],
                     items, rule="WC.F5"))
    out.append(panel("upgrade-costs", _("Carrier upgrades: costs and VP (WC.F5)"), [],
                     table={"head": [_("card"), _("upgrade"), _("cost"), _("VP"), _("done by")], "rows": rows},
                     open=False, rule="WC.F5"))
    # helicopters (WC.G3, WC.G5)
    rows = []
    for h in comp.helicopters:
        for night in (False, True):
            side = h.side(night)
            cannot = [_(p.value) for p in PEOPLE if not side.carries(p)]
            if night:
                face = _("night")
            else:
                face = _("day")
            rows.append([f"{h.model} {face}", side.capacity,
                         ", ".join(f"{_(p)} {v}" for p, v in side.vp), ", ".join(cannot) or "-"])
    out.append(panel("helicopters", _("Helicopters (WC.G3)"), [
        _("each side of a helicopter card: People aboard at most, VP per type unloaded, the types it cannot carry")],
        table={"head": [_("helicopter"), _("capacity"), _("VP"), _("cannot carry")], "rows": rows}, open=False,
        rule="WC.G3"))
    # every side's public values
    rows = []
    lines = [_("hand, radar tokens, special orders and bids: counts only (their faces are secret, WC.F2, WC.F4)")]
    for i, s in enumerate(o.sides):
        ups = ",".join(str(k + 1) for k, u in enumerate(s.upgrades) if u) or "-"
        rows.append([f"{labels[i]} ({_(setup.colours[i].name)})", s.vp, s.influence, s.hand, s.radar, s.orders,
                     "-" if s.bid is None else s.bid, ups, f"{len(s.carrier)}/{s.spaces}", s.rescued])
        if s.extras:
            lines.append(_("{side} keeps the sighting actions: {actions}").format(side=labels[i],
                                                                                 actions=_list(s.extras, _)))
    items = [item(f"faceup:{labels[i]}", _("{side} face up: {card}").format(side=labels[i], card=_(card_text(comp, s.faceup))),
                  kind="card")
             for i, s in enumerate(o.sides) if s.faceup is not None]
    out.append(panel("sides", _("Players"), lines, items,
                     table={"head": [_("side"), _("VP"), _("influence"), _("hand"), _("radar"), _("orders"), _("bid"),
                                     _("upgrades"), _("carrier"), _("rescued")], "rows": rows}))
    out.append(panel("supply", _("Supply"), [
        _("People in the supply: {people}").format(people=_people(b.supply, _)),
        _("People discarded: {people}").format(people=_people(b.discarded, _)),
        _("radar tokens in the supply: {n}").format(n=b.radar_left)], open=False))
    return out


def _private_panels(o, _=ENGLISH) -> list[dict]:
    """The seat's own panels, their words read through ``_``."""
    comp, own = o.setup.comp, o.own
    bid = [_("in your sealed bid: {tokens} = {total}").format(tokens=" + ".join(map(str, own.bid)), total=sum(own.bid))]
    out = [panel("hand", _("Your hand (WC.F2)"), [] if own.hand else [_("no cards")],
                 [item(f"card:{c}", _(comp.cards[c].name), kind="card") for c in own.hand]),
           panel("radar", _("Your radar tokens (WC.F4)"), bid if own.bid else [],
                 [item(f"radar:{v}", str(v), _("a radar token (its value is yours alone)"), kind="token")
                  for v in own.radar])]
    if own.orders:
        out.append(panel("my-orders", _("Your special orders"), [comp.orders[i].label(_) for i in own.orders]))
    if own.inspected:
        out.append(panel("inspected", _("Staircases you inspected (WC.F2)"),
                         [f"{o.table.roofs[k]}: " + (", ".join(map(_, comp.staircases[c].people)) or _("empty"))
                          for k, c in own.inspected]))
    for p in out:
        p["private"] = True
    return out


def public(o, lang: Lang = DEFAULT_LANG) -> dict[str, Any]:
    """The public half of observation ``o``'s JSON (the same for every seat's
    observation of one state; see the module docstring), its words in ``lang`` (the
    values stay the engine's)."""
    _ = translator(lang)
    return _public(o, _, white_christmas_sketch(o, _).as_json())


BOARD_MARK = "\u2063furball:board\u2063"
"""Stands for the board in :func:`public_json`'s text until its JSON text is put in."""


def public_json(o, lang: Lang = DEFAULT_LANG) -> str:
    """``public(o, lang)`` as compact JSON text (``separators=(",", ":")``: what the
    room's server sends), the same text, the board's put in from its parts kept encoded
    (:func:`viz.white_christmas.white_christmas_sketch_text`)."""
    _ = translator(lang)
    text = json.dumps(_public(o, _, BOARD_MARK), allow_nan=False, separators=(",", ":"))
    return text.replace(json.dumps(BOARD_MARK), white_christmas_sketch_text(o, _), 1)


def _public(o, _, board: Any) -> dict[str, Any]:
    """:func:`public` with ``board`` for the board's sketch, its words read through ``_``."""
    setup, b, comp = o.setup, o.board, o.setup.comp
    labels = list(setup.labels)
    stairs_open = b.stairs_state.value == "revealed"
    rooftops = []
    for k, name in enumerate(o.table.roofs):
        rooftops.append({"name": name, "spaces": int(o.table.spaces[k]), "people": plain(b.roofs[k]),
                         "staircase": plain(b.stairs[k]) if stairs_open and k < len(b.stairs) else None})
    sighting = comp.cessna.name if b.sighting is None else comp.sightings[b.sighting].label()
    asked = None
    if b.pending:
        front = b.pending[0]
        asked = {"ask": plain(front.ask), "side": labels[front.side], "why": front.why}
    sides = []
    for i, s in enumerate(o.sides):
        sides.append({
            "label": labels[i], "colour": setup.colours[i].name, "vp": int(s.vp), "influence": int(s.influence),
            "hand": int(s.hand), "radar": int(s.radar), "orders": int(s.orders),
            "bid": None if s.bid is None else int(s.bid), "rescued": int(s.rescued),
            "carrier": plain(s.carrier), "spaces": int(s.spaces), "upgrades": plain(s.upgrades),
            "faceup": _card(comp, s.faceup), "extras": plain(s.extras),
            "helicopters": [{"model": plain(m), "at": s.at[j], "aboard": plain(s.aboard[j]),
                             "night": bool(s.night[j])} for j, m in enumerate(MODELS)]})
    return {
        "labels": labels, "solo": bool(setup.solo),
        "chambers": None if setup.chambers is None else labels[setup.chambers],
        "round": int(b.round), "phase": plain(b.phase), "order": [labels[i] for i in b.order], "turn": int(b.turn),
        "sighting": sighting, "stairs": plain(b.stairs_state), "rooftops": rooftops,
        "row": [{"slot": plain(slot), "card": _card(comp, c)} for slot, c in zip(ROW, b.row)],
        "deck": int(b.deck), "discard": len(b.discard),
        "orders_row": [comp.orders[i].label() for i in b.orders_row], "orders_left": int(b.orders_left),
        "supply": {p.value: int(n) for p, n in zip(PEOPLE, b.supply)},
        "discarded": {p.value: int(n) for p, n in zip(PEOPLE, b.discarded)},
        "radar_left": int(b.radar_left), "asked": asked, "over": bool(b.over),
        "winner": None if b.winner is None else labels[b.winner], "sides": sides,
        "board": board, "panels": _panels(o, _)}


def private(o, seat: int, lang: Lang = DEFAULT_LANG) -> dict[str, Any]:
    """The private half of observation ``o`` of ``seat`` (module docstring), its words
    in ``lang``."""
    _ = translator(lang)
    comp, own = o.setup.comp, o.own
    return {
        "hand": [_card(comp, c) for c in own.hand], "radar": [int(v) for v in own.radar],
        "orders": [comp.orders[i].label() for i in own.orders],
        "inspected": [{"rooftop": o.table.roofs[k], "people": plain(comp.staircases[c].people)}
                      for k, c in own.inspected],
        "bid": [int(v) for v in own.bid], "panels": _private_panels(o, _)}


def view(o, seat: int, lang: Lang = DEFAULT_LANG) -> dict[str, Any]:
    """The JSON of observation ``o`` of ``seat`` (see the module docstring):
    ``{"public": public(o, lang), "private": private(o, seat, lang)}``."""
    return {"public": public(o, lang), "private": private(o, seat, lang)}


def _targets(o, a: Action) -> list[str]:
    """The pieces a click chooses ``a`` by (module docstring); ``[]``: a button."""
    k = a.kind
    me = o.seat
    label = o.setup.labels[me]
    if k == ActionKind.TAKE:
        if a.slot == Icon.INSPECT:
            return [f"row:{Icon.INSPECT}", f"stairs:{a.roof}"] if a.roof is not None else [f"row:{Icon.INSPECT}"]
        return [f"row:{a.slot}"]
    if k in (ActionKind.PLAY, ActionKind.DISCARD, ActionKind.REPLACE):
        return [f"card:{a.card}"]
    if k == ActionKind.FACEUP:
        return [f"faceup:{label}"]
    if k == ActionKind.BID:
        return [f"radar:{a.value}"]
    if k == ActionKind.MOVE:
        carrier = o.table.carriers[me]
        return [_heli_id(o, me, a.heli), f"carrier:{label}" if a.to == carrier else f"slot:{a.to}"]
    if k == ActionKind.RESCUE:
        return [_heli_id(o, me, a.heli), f"person:{a.at}:{a.person}"]
    if k == ActionKind.UNLOAD:
        return [f"person:{label}:{a.heli}:{a.person}"]
    if k == ActionKind.ORDER:
        return [f"order:{a.order}"]
    if k == ActionKind.UPGRADE:
        return [f"upgrade:{a.upgrade}"]
    if k == ActionKind.BOARD:
        return [f"passenger:{a.person}"]
    return []


def choices(o, seat: int) -> dict[str, Any]:
    """Per legal action (the engine's order) the pieces a click chooses it by."""
    return {"actions": [{"targets": _targets(o, a)} for a in o.legal_actions()]}


def refusal(o, targets: list[str]) -> Action | None:
    """The action a click on an action-row slot would mean (taking its card, WC.F2), for
    the engine's own reason why it is not legal now; ``None`` otherwise."""
    if not targets or not targets[0].startswith("row:"):
        return None
    name = targets[0][len("row:"):]
    icons = {str(i): i for i in ROW}
    if name not in icons:
        return None
    return take(icons[name])
