"""`furball play GAME`: the card games built on the board-graph module.

Only ``canuck`` (Operation Canuck, CN.*) so far; its options live in
:mod:`scenarios.canuck.cli`.
"""
from __future__ import annotations

from . import canuck as canuck_cli


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "play", help="play a card game (canuck)",
        description="Play Operation Canuck: one game with its log (--seed), many games with a "
                    "result table (--games N --player heuristic|random), or yourself (--interactive).")
    p.add_argument("game", choices=["canuck"], help="the game: canuck")
    canuck_cli.add_arguments(p)
    p.set_defaults(func=run)


def run(args) -> int:
    return canuck_cli.run(args)
