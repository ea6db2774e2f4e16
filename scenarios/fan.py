"""`furball fan DECK`: where every card of a deck puts the base, from one pose."""
from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from geometry.base import Base
from geometry.errors import InputError
from geometry.pose import Pose
from maneuvers.bases import find_base
from maneuvers.card import ManeuverCard
from maneuvers.deck import Deck, find_deck
from maneuvers.path import PathSamples, arrow_points, path_poses
from maneuvers.placement import place

from .output import PictureRequest, add_picture_options

START = Pose(0.0, 0.0, 90.0)
"""Fans are drawn from the origin, heading up the page."""


@dataclass(frozen=True)
class FanEntry:
    card: ManeuverCard
    end: Pose
    motion: Pose
    path: PathSamples
    arrow: np.ndarray


@dataclass(frozen=True)
class Fan:
    """Every card of ``deck`` flown once from ``start`` by ``base``."""

    deck: Deck
    base: Base
    start: Pose
    entries: tuple[FanEntry, ...]

    def twin_groups(self) -> list[tuple[str, ...]]:
        """Cards grouped with their mirror twins, in deck order."""
        groups, seen = [], set()
        for e in self.entries:
            if e.card.id in seen:
                continue
            group = (e.card.id,) + ((e.card.twin,) if e.card.twin and e.card.twin in self.deck else ())
            seen.update(group)
            groups.append(group)
        return groups


def fan(deck: Deck, base: Base, start: Pose = START) -> Fan:
    entries = []
    for card in deck.cards:
        end = place(start, card, base)
        entries.append(FanEntry(card, end, start.inverse() @ end, path_poses(start, card, base),
                                arrow_points(start, card, base)))
    return Fan(deck, base, start, tuple(entries))


def fan_text(f: Fan) -> str:
    lines = [f"deck {f.deck.name} ({f.deck.provenance}), base {f.base.name or 'custom'} "
             f"{f.base.length_mm:g} x {f.base.width_mm:g} mm: where each card puts the base centre",
             f"  {'card':<9}{'name':<26}{'forward mm':>11}{'left mm':>9}{'turn deg':>9}"]
    for e in f.entries:
        turn = e.motion.heading_deg if e.motion.heading_deg <= 180 else e.motion.heading_deg - 360
        lines.append(f"  {e.card.id:<9}{e.card.name[:25]:<26}{e.motion.x_mm:11.1f}{e.motion.y_mm:9.1f}{turn:9.1f}")
    return "\n".join(lines)


def fan_json(f: Fan) -> dict:
    return {"deck": f.deck.name, "provenance": f.deck.provenance, "base": f.base.name,
            "cards": [{"card": e.card.id, "name": e.card.name, "forward_mm": e.motion.x_mm,
                       "left_mm": e.motion.y_mm, "heading_change_deg": e.motion.heading_deg,
                       "twin": e.card.twin} for e in f.entries]}


def register(subparsers) -> None:
    p = subparsers.add_parser("fan", help="where every card of a deck puts the base",
                              description="Fly every card of a deck from one pose and list (and draw) "
                                          "where each puts the base (DF.M2, DF.M3).")
    p.add_argument("deck", help="a shipped deck's name or a deck file")
    p.add_argument("--base", help="base (default: the deck's base)")
    p.add_argument("--vs", metavar="DECK2", help="a second deck, drawn side by side")
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    add_picture_options(p)
    p.set_defaults(func=run)


def _fan_for(spec: str, base_spec: str | None) -> Fan:
    deck = find_deck(spec)
    chosen = base_spec or deck.base
    if chosen is None:
        raise InputError(f"deck '{deck.name}' names no base: give --base")
    return fan(deck, find_base(chosen))


def run(args) -> int:
    request = PictureRequest.from_args(args)
    fans = [_fan_for(args.deck, args.base)]
    if args.vs:
        fans.append(_fan_for(args.vs, args.base))
    if args.json:
        print(json.dumps([fan_json(f) for f in fans] if args.vs else fan_json(fans[0]), indent=2))
    else:
        print("\n\n".join(fan_text(f) for f in fans))
    written = request.save("fan", tuple(fans))
    if written and not args.json:
        print(written)
    return 0
