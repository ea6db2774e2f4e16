"""1975 White Christmas observations as JSON (the rooms' seat views; docs/rooms.md).

``public``: the set-up (labels, colours, rooftops), the board (round, phase, turn order,
rooftops with their People and staircases, the action row, decks as counts, special
orders on offer, supply, the open question) and every side's public values (VP,
influence, helicopters, carrier, and hand, radar tokens, special orders and sealed bid as
**counts**). ``private``: the seat's own hand, radar token values, special orders,
inspected staircases and bid values (WC.F2, WC.F4). Made from
:class:`~scenarios.white_christmas.Observation` only.
"""
from __future__ import annotations

from typing import Any

from furball.scenarios.white_christmas.components import MODELS, PEOPLE, ROW

from . import plain

__all__ = ["view"]


def _card(comp, card: int | None) -> dict | None:
    return None if card is None else {"id": int(card), "name": comp.cards[card].name}


def view(o, seat: int) -> dict[str, Any]:
    """The JSON of observation ``o`` of ``seat`` (see the module docstring)."""
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
    public = {
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
        "winner": None if b.winner is None else labels[b.winner], "sides": sides}
    own = o.own
    private = {
        "hand": [_card(comp, c) for c in own.hand], "radar": [int(v) for v in own.radar],
        "orders": [comp.orders[i].label() for i in own.orders],
        "inspected": [{"rooftop": o.table.roofs[k], "people": plain(comp.staircases[c].people)}
                      for k, c in own.inspected],
        "bid": [int(v) for v in own.bid]}
    return {"public": public, "private": private}
