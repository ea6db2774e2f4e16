"""`furball play yorktown`: the options of 1942 USS Yorktown (the rest is :mod:`.play`).

    furball play yorktown --seed 7                           # one game, readable log
    furball play yorktown --seed 7 --json                    # the same as JSON
    furball play yorktown --games 1000 --player random       # win rate, causes, minutes (95% CI)
    furball play yorktown --players 3 --difficulty hard --novices 1 --expansions expert,tank
    furball play yorktown --interactive                      # you fly all four crews
    furball play yorktown --seed 7 --plot board.png          # the archipelago at the end
    furball play yorktown --map my_map.toml --deck my_deck.toml --time my_clock.toml
"""
from __future__ import annotations

from furball.errors import InputError
from furball.i18n import N_, msg
from furball.scenarios.yorktown.actions import Difficulty, Expansion
from furball.scenarios.yorktown.board import load_map
from furball.scenarios.yorktown.deck import load_deck
from furball.scenarios.yorktown.game import YORKTOWN, summary
from furball.scenarios.yorktown.tables import check_expansions, load_time

__all__ = ["GAME", "PICTURE", "HIDDEN_INFORMATION", "add_arguments", "options", "summarise", "bots"]

GAME = YORKTOWN
PICTURE = "yorktown"
HIDDEN_INFORMATION = False
"""One person flies every crew in ``--interactive`` (a cooperative game)."""


def add_arguments(p) -> None:
    """The game's own options on the ``furball play yorktown`` parser."""
    p.add_argument("--players", default="1", metavar="N",
                   help=N_("players 1-4 (they share the four planes; +1 minute per player below 4)"))
    p.add_argument("--difficulty", default=Difficulty.NORMAL.value, metavar="LEVEL",
                   help=N_("easy (35 minutes), normal (30) or hard (25)"))
    p.add_argument("--novices", default="0", metavar="N", help=N_("novice players (+2 minutes each)"))
    p.add_argument("--expansions", default="", metavar="LIST",
                   help=msg("comma-separated expansions: {expansions} (or none)", expansions=", ".join(Expansion)))
    p.add_argument("--map", metavar="FILE", default=None,
                   help=N_("an archipelago file (TOML board graph); default: the shipped reconstruction"))
    p.add_argument("--deck", metavar="FILE", default=None,
                   help=N_("a Japanese deck file (TOML); default: the shipped reconstruction"))
    p.add_argument("--time", metavar="FILE", default=None,
                   help=N_("a time-model file (TOML: seconds per throw, action, ...); default: the shipped model"))


def _whole(text: str, option: str, low: int, high: int) -> int:
    try:
        value = int(str(text).strip())
    except ValueError:
        raise InputError(msg("{option} {value}: expected a whole number from {low} to {high}", option=option,
                             value=repr(str(text)[:20]), low=low, high=high)) from None
    if not low <= value <= high:
        raise InputError(msg("{option} {value}: expected a whole number from {low} to {high}", option=option, value=value,
                             low=low, high=high))
    return value


def options(args) -> dict:
    """Game options from the parsed arguments, checked; files are loaded now.
    Raises :class:`InputError` naming the option or the file and field."""
    players = _whole(args.players, "--players", 1, 4)
    novices = _whole(args.novices, "--novices", 0, players)
    if args.difficulty not in tuple(Difficulty):
        raise InputError(msg("--difficulty {value}: expected one of {choices}", value=repr(args.difficulty[:20]),
                             choices=", ".join(Difficulty)))
    return {"players": players, "difficulty": Difficulty(args.difficulty), "novices": novices,
            "expansions": check_expansions(args.expansions),
            "map": load_map(args.map) if args.map else None,
            "deck": load_deck(args.deck) if args.deck else None,
            "time": load_time(args.time) if args.time else None}


def summarise(rows, label: str):
    """Win rate, causes of the end, mean simulated minutes (95 % intervals)."""
    return summary(rows, label)


def bots(args, opts, seed) -> dict:
    """No bots in ``--interactive``: the person flies every crew, seat after seat."""
    return {}
