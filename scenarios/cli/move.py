"""`furball move`: one plane through a sequence of maneuver cards (DF.M1-DF.M4)."""
from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING

from furball.errors import InputError
from furball.i18n import DEFAULT_LANG, N_, Lang, msg, translator

if TYPE_CHECKING:
    from furball.geometry.pose import Pose
    from furball.maneuvers.move import MoveResult

from .output import Outputs, PictureRequest, add_picture_options, resolve_deck_and_base


def parse_pose(text: str, option: str = "--start") -> Pose:
    """``X,Y,HEADING`` (mm, mm, degrees) -> :class:`Pose`. Raises :class:`InputError`."""
    from furball.geometry.datafile import MAX_LENGTH_MM
    from furball.geometry.pose import Pose

    parts = [p.strip() for p in text.split(",")]
    try:
        values = [float(p) for p in parts]
    except ValueError:
        values = []
    if len(values) != 3 or not all(math.isfinite(v) for v in values):
        raise InputError(msg("{option} {value}: expected X,Y,HEADING as three numbers (mm, mm, degrees)", option=option,
                             value=repr(text[:40])))
    if max(abs(values[0]), abs(values[1])) > MAX_LENGTH_MM:
        raise InputError(msg("{option} {value}: expected coordinates of at most {most} mm in size", option=option,
                             value=repr(text[:40]), most=format(MAX_LENGTH_MM, "g")))
    return Pose(*values)


MAX_CARDS = 100
"""The most cards one ``furball move`` flies."""


def parse_card_ids(text: str) -> list[str]:
    ids = [p.strip() for p in text.split(",")]
    if not text.strip() or any(not p for p in ids):
        raise InputError(msg("--cards {value}: expected card ids separated by commas, e.g. A1,A4,A1", value=repr(text[:40])))
    if len(ids) > MAX_CARDS:
        raise InputError(msg("--cards: expected at most {most} card ids, got {count}", most=MAX_CARDS, count=len(ids)))
    return ids


def result_text(result: MoveResult, lang: Lang | str = DEFAULT_LANG) -> str:
    """The report of ``furball move`` in ``lang`` (the cards' names from the catalog)."""
    _ = translator(lang)
    deck, base = result.deck, result.base
    card, name, x, y, heading, start = _("card"), _("name"), _("x mm"), _("y mm"), _("heading"), _("start")
    lines = [
        _("deck {deck} ({provenance}), base {base} {length} x {width} mm ({base_provenance})").format(
            deck=deck.name, provenance=_(deck.provenance), base=_(base.name) if base.name else _("custom"),
            length=format(base.length_mm, "g"), width=format(base.width_mm, "g"), base_provenance=_(base.provenance)),
        f"{'':>3} {card:<8} {name:<24} {x:>9} {y:>9} {heading:>8}",
        f"{'':>3} {start:<8} {'':<24} {result.start.x_mm:9.2f} {result.start.y_mm:9.2f} "
        f"{result.start.heading_deg:8.2f}",
    ]
    for i, (flown, pose) in enumerate(zip(result.cards, result.poses), 1):
        lines.append(f"{i:>3} {flown.id:<8} {_(flown.name)[:24]:<24} {pose.x_mm:9.2f} "
                     f"{pose.y_mm:9.2f} {pose.heading_deg:8.2f}")
    return "\n".join(lines)


def register(subparsers, line: str, argv=()) -> None:
    """Add this command's parser (``line``: its help in the command list)."""
    p = subparsers.add_parser(
        "move", help=line,
        description=N_("Move one plane from a start pose through maneuver cards (DF.M1-DF.M4) "
                    "and print the pose after each card (mm, degrees)."))
    p.add_argument("--deck", required=True, help=N_("a shipped deck's name (A, M, template) or a deck file"))
    p.add_argument("--base", help=N_("a shipped base (small, large), LENGTHxWIDTH in mm, or a base "
                                  "file (FILE.toml or FILE.toml:NAME); default: the deck's base"))
    p.add_argument("--start", default="0,0,0", help=N_("start pose X,Y,HEADING in mm, mm, degrees "
                                                    "(default 0,0,0: the origin, heading along +x)"))
    p.add_argument("--cards", required=True, help=N_("card ids, comma separated: A1,A4,A2"))
    p.add_argument("--json", action="store_true", help=N_("print the result as JSON"))
    add_picture_options(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from furball.maneuvers.move import move

    outputs = Outputs()
    outputs.protect(args.deck if args.deck.endswith(".toml") else None,
                    args.base if args.base and ".toml" in args.base else None)
    request = PictureRequest.from_args(args, outputs)
    start, card_ids = parse_pose(args.start), parse_card_ids(args.cards)
    deck, base = resolve_deck_and_base(args.deck, args.base)
    result = move(deck, base, start, card_ids, sample=request.wanted)
    request.render("move", result, outputs)
    written = outputs.publish(args.lang)
    print(json.dumps(result.to_json(), indent=2) if args.json else result_text(result, args.lang))
    for line in [] if args.json else written:
        print(line)
    return 0
