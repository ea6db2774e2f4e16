"""`furball fan DECK`: where every card of a deck puts the base, from one pose."""
from __future__ import annotations

import json
from typing import TYPE_CHECKING

from furball.i18n import DEFAULT_LANG, N_, Lang, translator

if TYPE_CHECKING:
    from furball.maneuvers.fan import Fan

from .output import Outputs, PictureRequest, add_picture_options, resolve_deck_and_base


def fan_text(f: Fan, lang: Lang | str = DEFAULT_LANG) -> str:
    """The report of ``furball fan`` in ``lang`` (the cards' names from the catalog)."""
    _ = translator(lang)
    card, name, forward, left, turn_h = _("card"), _("name"), _("forward mm"), _("left mm"), _("turn deg")
    lines = [_("deck {deck} ({provenance}), base {base} {length} x {width} mm: where each card puts the base "
               "centre").format(deck=f.deck.name, provenance=_(f.deck.provenance), base=_(f.base.name) if f.base.name else _("custom"),
                                length=format(f.base.length_mm, "g"), width=format(f.base.width_mm, "g")),
             f"  {card:<9}{name:<26}{forward:>11}{left:>9}{turn_h:>9}"]
    for e in f.entries:
        turn = e.motion.heading_deg if e.motion.heading_deg <= 180 else e.motion.heading_deg - 360
        lines.append(f"  {e.card.id:<9}{_(e.card.name)[:25]:<26}{e.motion.x_mm:11.1f}{e.motion.y_mm:9.1f}{turn:9.1f}")
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
    written = outputs.publish(args.lang)
    if args.json:
        print(json.dumps([f.to_json() for f in fans] if args.vs else fans[0].to_json(), indent=2))
    else:
        print("\n\n".join([fan_text(f, args.lang) for f in fans] + (["\n".join(written)] if written else [])))
    return 0
