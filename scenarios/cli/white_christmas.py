"""`furball play white-christmas`: the options of 1975 White Christmas (the rest is :mod:`.play`).

    furball play white-christmas --seed 7                          # 2 heuristic players, the log
    furball play white-christmas --players 4 --seed 7 --json       # 4 players, the log as JSON
    furball play white-christmas --players 3 --games 1000          # winner by seat, VP (95% CI)
    furball play white-christmas --solo --games 1000               # the heuristic against Chambers
    furball play white-christmas --players 3 --interactive         # hot seat: 3 people, one screen
    furball play white-christmas --solo --interactive              # you against Captain Chambers
    furball play white-christmas --players 4 --interactive --humans 1   # you and 3 heuristic bots
    furball play white-christmas --seed 7 --plot table.png         # the final table as a picture
    furball play white-christmas --data my_cards/ ...               # your own card files
    furball play white-christmas --overflow discard --payment discard --games 1000   # discarded People out
"""
from __future__ import annotations

from furball.errors import InputError
from furball.i18n import N_, msg
from furball.scenarios.cli.output import int_or_text
from furball.scenarios.white_christmas.components import FILES, load_components
from furball.scenarios.white_christmas.game import WHITE_CHRISTMAS, summary
from furball.scenarios.white_christmas.players import HeuristicPlayer

__all__ = ["GAME", "HIDDEN_INFORMATION", "PICTURE", "add_arguments", "options", "summarise", "bots"]

GAME = WHITE_CHRISTMAS
HIDDEN_INFORMATION = True
PICTURE = "white-christmas"


def add_arguments(p) -> None:
    p.add_argument("--players", type=int_or_text, default=None, metavar="N", help=N_("2, 3 or 4 players (default 2)"))
    p.add_argument("--solo", action="store_true", help=N_("one player against Captain Chambers (WC.H1-WC.H9)"))
    p.add_argument("--data", metavar="DIR", default=None,
                   help=msg("a directory whose data files ({files}) replace the shipped ones",
                            files=", ".join(f + ".toml" for f in FILES)))
    p.add_argument("--overflow", default=None, metavar="WHERE",
                   help=N_("staircase People with no room on the rooftop (WC.G2): supply (default: back to the "
                        "supply) or discard (out of the game)"))
    p.add_argument("--payment", default=None, metavar="WHERE",
                   help=N_("People paid from a carrier for a special order or carrier card (WC.F5): supply "
                        "(default) or discard (out of the game)"))
    p.add_argument("--humans", type=int_or_text, default=None, metavar="N",
                   help=N_("with --interactive: people play the first N seats, heuristic bots the others "
                        "(default: every seat)"))


def options(args) -> dict:
    """Game options from the parsed arguments, checked (data files are loaded now).
    Raises :class:`InputError` naming the option."""
    GAME.check_combination({"solo": bool(args.solo)} | ({} if args.players is None else {"players": args.players}),
                           lambda name: f"--{name}")
    players = 2 if args.players is None else args.players
    if players not in (2, 3, 4) or isinstance(players, bool):
        raise InputError(msg("--players {value}: expected 2, 3 or 4", value=str(players)[:40]))
    if args.humans is not None:
        seats = 1 if args.solo else players
        if not args.interactive:
            raise InputError(msg("--humans: only with --interactive"))
        if not isinstance(args.humans, int) or not 1 <= args.humans <= seats:
            raise InputError(msg("--humans {value}: expected a whole number from 1 to {most}", value=str(args.humans)[:40],
                                 most=seats))
    piles = {}
    for name in ("overflow", "payment"):
        option, given = GAME.option(name), getattr(args, name)
        piles[name] = option.default if given is None else given
        if piles[name] not in option.choices:
            raise InputError(msg("--{option} {value}: expected one of {choices}", option=name, value=str(piles[name])[:40],
                                 choices=", ".join(option.choices)))
    data = load_components(args.data) if args.data else None
    return {"players": players, "solo": bool(args.solo), "data": data} | piles


def summarise(rows, label: str):
    return summary(rows, label)


def bots(args, opts, seed) -> dict:
    """Seats played by heuristic bots in interactive play (those after ``--humans``)."""
    seats = GAME.seat_count(opts)
    humans = seats if args.humans is None else args.humans
    return {seat: HeuristicPlayer(seed, seat) for seat in range(humans, seats)}
