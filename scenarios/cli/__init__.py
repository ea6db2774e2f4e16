"""The `furball` command line.

Every user mistake becomes one line on stderr (``furball: error: ...``) and exit
status 2; no traceback, no partial output file. Subcommands live in their own modules
and register themselves here.
"""
from __future__ import annotations

import argparse
import sys

from geometry.errors import InputError

from . import fan, move, play, sweep, turn, zones

# options whose value may start with '-' (a negative coordinate)
_NUMERIC_TUPLE_OPTIONS = ("--start",)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 via main()
        raise InputError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="furball", description="Miniatures movement geometry engine.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    move.register(sub)
    turn.register(sub)
    fan.register(sub)
    zones.register(sub)
    play.register(sub)
    sweep.register(sub)
    return parser


def _join_negative_values(argv: list[str]) -> list[str]:
    out, i = [], 0
    while i < len(argv):
        arg = argv[i]
        if arg in _NUMERIC_TUPLE_OPTIONS and i + 1 < len(argv) and argv[i + 1].startswith("-") \
                and argv[i + 1][1:2].isdigit() | (argv[i + 1][1:2] == "."):
            out.append(f"{arg}={argv[i + 1]}")
            i += 2
            continue
        out.append(arg)
        i += 1
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 2 bad input)."""
    argv = _join_negative_values(list(sys.argv[1:] if argv is None else argv))
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except InputError as exc:
        print(f"furball: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("furball: interrupted", file=sys.stderr)
        return 130

