"""The `furball` command line.

Every user mistake becomes one line on stderr (``furball: error: ...``) and exit
status 2; no traceback, no partial output file. Subcommands live in their own modules
and register themselves here.
"""
from __future__ import annotations

import argparse
import re
import sys

from geometry.errors import InputError

from . import analyze, fan, move, play, serve, sweep, turn, zones

_NEGATIVE = re.compile(r"^-[0-9.]")
"""A value that starts like a negative number (``-5x5``, ``-1:1``, ``-10,5,90``)."""


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
    analyze.register(sub)
    sweep.register(sub)
    serve.register(sub)
    return parser


def _join_negative_values(argv: list[str]) -> list[str]:
    """``--base -5x5`` -> ``--base=-5x5``: argparse would take ``-5x5`` for an option and
    say "expected one argument"; joined, the value reaches its own check."""
    out, i = [], 0
    while i < len(argv):
        arg = argv[i]
        if arg.startswith("--") and "=" not in arg and i + 1 < len(argv) and _NEGATIVE.match(argv[i + 1]):
            out.append(f"{arg}={argv[i + 1]}")
            i += 2
            continue
        out.append(arg)
        i += 1
    return out


def _shorten(message: str, most: int = 240) -> str:
    """One line, with any over-long word (an echoed input) cut short."""
    words = [w if len(w) <= most else w[:most - 3] + "..." for w in str(message).split()]
    return " ".join(words)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 2 bad input)."""
    argv = _join_negative_values(list(sys.argv[1:] if argv is None else argv))
    try:
        args = build_parser().parse_args(argv)
        return args.func(args)
    except InputError as exc:
        print(f"furball: error: {_shorten(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("furball: interrupted; no output was written", file=sys.stderr)
        return 130
    except OSError as exc:  # a file the user named cannot be used (too long a name, no access...)
        where = f"{_shorten(exc.filename)}: " if getattr(exc, "filename", None) else ""
        print(f"furball: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2

