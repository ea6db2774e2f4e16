"""`furball play GAME`: the card games built on the board-graph module."""
from __future__ import annotations

from geometry.errors import InputError


def register(subparsers) -> None:
    p = subparsers.add_parser("play", help="play a card game (canuck)")
    p.add_argument("game", choices=["canuck"])
    p.set_defaults(func=run)


def run(args) -> int:
    raise InputError(f"play {args.game}: not available yet")
