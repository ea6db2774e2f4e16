"""The `furball` command line.

Every user mistake becomes one line on stderr (``furball: error: ...``) and exit
status 2; no traceback, no partial output file. Subcommands live in their own modules
(:data:`COMMANDS`); only the module of the command being run is imported, so
``furball --help`` and a mistake in the command line answer at once.
"""
from __future__ import annotations

import argparse
import importlib
import re
import sys

from furball import __version__
from furball.errors import InputError

COMMANDS: dict[str, str] = {
    "move": "where a plane ends after each card (DF.M1-DF.M4)",
    "turn": "adjudicate one dogfight turn of a scenario file",
    "fan": "where every card of a deck puts the base",
    "zones": "where an enemy would be tailable and where it could be shot",
    "play": "play a game to the end (furball play --help lists the games)",
    "replay": "print a game record (a room's whole game) turn by turn",
    "analyze": "rank every legal plan of a plane against every plan of its enemies",
    "sweep": "play many games at every point of a grid of options",
    "serve": "the dogfight table in the browser",
    "warm": "compile the numba kernels once, into the user's cache directory",
    "print": "things to lay on a real table at true scale: the capture markers",
    "capture": "read a real table or maneuver card from a photo (markers, poses, uncertainty)",
}
"""Each command's name (also its module in this package, unless :data:`MODULES` says
otherwise) and its line in ``--help``."""

MODULES: dict[str, str] = {"print": "printout"}
"""Commands whose module has another name (a module ``print`` would shadow the builtin
in this package)."""

_NEGATIVE = re.compile(r"^-[0-9.]")
"""A value that starts like a negative number (``-5x5``, ``-1:1``, ``-10,5,90``)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 via main(), which says "furball: error:" once
        command = self.prog.removeprefix("furball").strip()  # "play white-christmas", or "" at the top
        raise InputError(f"{command}: {message}" if command else message)


def build_parser(argv: list[str] = ()) -> argparse.ArgumentParser:
    """The parser for ``argv``: the command it names has its options registered (its
    module imported); the others are listed by name only."""
    command = _command(list(argv))
    parser = _Parser(prog="furball", description="Miniatures movement geometry engine.")
    parser.add_argument("--version", action="version", version=f"furball {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, line in COMMANDS.items():
        if command == name:
            importlib.import_module(f"{__name__}.{MODULES.get(name, name)}").register(sub, line, argv)
        else:
            sub.add_parser(name, help=line, add_help=False)
    return parser


def _command(argv: list[str]) -> str | None:
    """The command named in ``argv``: its first word that is not an option."""
    return next((a for a in argv if not a.startswith("-")), None)


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


def _refuse_empty_values(argv: list[str]) -> None:
    """An empty (or blank) word is never a value: ``--base ""`` or ``serve ""`` would
    otherwise read as "not given" and quietly fall back to a default. Raises
    :class:`InputError` naming the option."""
    for i, arg in enumerate(argv):
        option, equals, value = arg.partition("=") if arg.startswith("--") else ("", "", arg)
        if equals and not value.strip():
            raise InputError(f"{option}: expected a value, got an empty one")
        if not option and not arg.strip():
            before = f" (after {argv[i - 1]})" if i else ""
            raise InputError(f"argument {i + 1}{before} is empty: expected a value")


def _shorten(message: str, most: int = 240) -> str:
    """One line, with any over-long word (an echoed input) cut short."""
    words = [w if len(w) <= most else w[:most - 3] + "..." for w in str(message).split()]
    return " ".join(words)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 2 bad input)."""
    argv = _join_negative_values(list(sys.argv[1:] if argv is None else argv))
    try:
        _refuse_empty_values(argv)
        args = build_parser(argv).parse_args(argv)
        return args.func(args)
    except InputError as exc:
        print(f"furball: error: {_shorten(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("furball: interrupted; no output was written", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (furball ... | head): stop quietly
        sys.stderr.close()
        return 141
    except OSError as exc:  # a file the user named cannot be used (too long a name, no access...)
        where = f"{_shorten(exc.filename)}: " if getattr(exc, "filename", None) else ""
        print(f"furball: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2

