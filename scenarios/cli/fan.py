"""`furball fan DECK`: where every card of a deck puts the base, from one pose."""
from __future__ import annotations

import json
from typing import TYPE_CHECKING

from furball.i18n import N_

if TYPE_CHECKING:
    from furball.maneuvers.fan import Fan

from .output import Outputs, PictureRequest, add_picture_options, resolve_deck_and_base


def fan_text(f: Fan) -> str:
    lines = [f"deck {f.deck.name} ({f.deck.provenance}), base {f.base.name or 'custom'} "
             f"{f.base.length_mm:g} x {f.base.width_mm:g} mm: where each card puts the base centre",
             f"  {'card':<9}{'name':<26}{'forward mm':>11}{'left mm':>9}{'turn deg':>9}"]
    for e in f.entries:
        turn = e.motion.heading_deg if e.motion.heading_deg <= 180 else e.motion.heading_deg - 360
        lines.append(f"  {e.card.id:<9}{e.card.name[:25]:<26}{e.motion.x_mm:11.1f}{e.motion.y_mm:9.1f}{turn:9.1f}")
    return "\n".join(lines)


def register(subparsers, line: str, argv=()) -> None:
    """Add this command's parser (``line``: its help in the command list)."""
    p = subparsers.add_parser("fan", help=line,
                              description=N_("Fly every card of a deck from one pose and list (and draw) "
                                          "where each puts the base (DF.M2, DF.M3)."))
    p.add_argument("deck", help=N_("a shipped deck's name or a deck file"))
    p.add_argument("--base", help=N_("base (default: the deck's base)"))
    p.add_argument("--vs", metavar="DECK2", help=N_("a second deck, drawn side by side"))
    p.add_argument("--json", action="store_true", help=N_("print the table as JSON (with --vs: a list, one "
                                                       "document per deck)"))
    add_picture_options(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from furball.maneuvers.fan import fan

    outputs = Outputs()
    outputs.protect(*(x for x in (args.deck, args.vs, args.base) if x and ".toml" in x))
    request = PictureRequest.from_args(args, outputs)
    fans = [fan(*resolve_deck_and_base(args.deck, args.base))]
    if args.vs:
        fans.append(fan(*resolve_deck_and_base(args.vs, args.base)))
    request.render("fan", tuple(fans), outputs)
    written = outputs.publish()
    if args.json:
        print(json.dumps([f.to_json() for f in fans] if args.vs else fans[0].to_json(), indent=2))
    else:
        print("\n\n".join([fan_text(f) for f in fans] + (["\n".join(written)] if written else [])))
    return 0
