"""`furball play canuck`: the options of Operation Canuck (the rest is :mod:`.play`).

    furball play canuck --seed 7                       # one game, readable log
    furball play canuck --seed 7 --json                # the same as JSON
    furball play canuck --games 1000 --player random   # bands, mean VP (95% CI), length
    furball play canuck --interactive [--seed 7]       # you are the Partisan
    furball play canuck --map my_map.toml ...          # your own map (same format)
    furball play canuck --setup free ...               # the free set-up (CN.S3)
"""
from __future__ import annotations

from typing import TextIO

from furball.i18n import N_
from furball.scenarios.canuck.board import CanuckMap, load_map
from furball.scenarios.canuck.game import CANUCK, summary
from furball.scenarios.canuck.state import new_game

from .interactive import play_interactive

__all__ = ["GAME", "add_arguments", "options", "summarise", "interactive", "render"]

GAME = CANUCK
HIDDEN_INFORMATION = False
PICTURE = "canuck"


def add_arguments(p) -> None:
    p.add_argument("--map", metavar="FILE", default=None, help=N_("a Canuck map file (TOML); default: the "
                                                                    "shipped reconstruction"))
    p.add_argument("--setup", choices=GAME.option("setup").choices, default=GAME.option("setup").default,
                   help=GAME.option("setup").help)


def options(args) -> dict:
    """Game options from the parsed arguments (the map is loaded and checked now)."""
    return {"map": load_map(args.map) if args.map else None, "setup": args.setup}


def summarise(rows, label: str):
    return summary(rows, label)


def interactive(seed: int, board: CanuckMap | None, stdin: TextIO, out: TextIO) -> int:
    """Play as the Partisan in the terminal (numbered options; q quits)."""
    return play_interactive(new_game(seed, board), stdin, out)


def render(state) -> str:
    """The state as text (the Partisan's observation)."""
    return state.observation_string(0)
