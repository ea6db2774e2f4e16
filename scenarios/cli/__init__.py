"""The `furball` command line.

Every user mistake becomes one line on stderr (``furball: error: ...``) and exit
status 2; no traceback, no partial output file. Subcommands live in their own modules
(:data:`COMMANDS`); only the module of the command being run is imported, so
``furball --help`` and a mistake in the command line answer at once.

Language (docs/i18n.md): ``--lang es|en`` anywhere on the line, else ``LC_ALL``,
``LC_MESSAGES``, ``LANG``, else English (:func:`furball.i18n.choose_lang`); the command
finds it as ``args.lang``. ``--help`` and the error lines are written in it; ``--json``
output never depends on it.
"""
from __future__ import annotations

import argparse
import importlib
import re
import sys

from furball import __version__
from furball.errors import InputError
from furball.i18n import N_, Lang, Message, choose_lang, msg, render, translator

COMMANDS: dict[str, str] = {
    "move": N_("where a plane ends after each card (DF.M1-DF.M4)"),
    "turn": N_("adjudicate one dogfight turn of a scenario file"),
    "fan": N_("where every card of a deck puts the base"),
    "zones": N_("where an enemy would be tailable and where it could be shot"),
    "play": N_("play a game to the end (furball play --help lists the games)"),
    "replay": N_("print a game record (a room's whole game) turn by turn"),
    "analyze": N_("rank every legal plan of a plane against every plan of its enemies"),
    "sweep": N_("play many games at every point of a grid of options"),
    "serve": N_("the dogfight table in the browser"),
    "warm": N_("compile the numba kernels once, into the user's cache directory"),
    "print": N_("things to lay on a real table at true scale: the capture markers"),
    "capture": N_("read a real table or maneuver card from a photo (markers, poses, uncertainty)"),
}
"""Each command's name (also its module in this package, unless :data:`MODULES` says
otherwise) and its line in ``--help``."""

MODULES: dict[str, str] = {"print": "printout"}
"""Commands whose module has another name (a module ``print`` would shadow the builtin
in this package)."""

_NEGATIVE = re.compile(r"^-[0-9.]")
"""A value that starts like a negative number (``-5x5``, ``-1:1``, ``-10,5,90``)."""


ARGPARSE_WORDS = (N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
                  N_("show program's version number and exit"), N_("Miniatures movement geometry engine."),
                  N_("the language of reports, messages and --help: en or es (default: LC_ALL, LC_MESSAGES, "
                     "LANG, else en)"))
"""argparse's own words in ``--help`` and the top-level description, for the catalog
(:func:`translate_parser` reads them through it)."""


ARGPARSE_ERRORS = (
    N_("the following arguments are required: {arguments}"),
    N_("unrecognized arguments: {arguments}"),
    N_("argument {argument}: invalid choice: {value} (choose from {choices})"),
    N_("argument {argument}: invalid {type} value: {value}"),
    N_("argument {argument}: expected one argument"),
    N_("argument {argument}: expected at most one argument"),
    N_("argument {argument}: expected at least one argument"),
    N_("argument {argument}: expected {count} argument"),
    N_("argument {argument}: expected {count} arguments"),
    N_("argument {argument}: not allowed with argument {other}"),
    N_("argument {argument}: ignored explicit argument {value}"),
    N_("one of the arguments {arguments} is required"),
    N_("ambiguous option: {option} could match {matches}"),
)
"""argparse's own error lines (Python's English, ``%`` fields written as ``{name}``), for
the catalog: :func:`argparse_error` reads a line argparse wrote against them and writes
it in the reader's language. Decision (docs/i18n.md): argparse writes its messages with
the module-level ``gettext`` of the process (``argparse._``), which furball does not
swap (that would be global state); the parser's one exit, :meth:`_Parser.error`,
translates the finished English line instead, field by field."""


def _template_pattern(template: str) -> re.Pattern:
    parts = re.split(r"\{(\w+)\}", template)
    return re.compile("".join(re.escape(part) if k % 2 == 0 else f"(?P<{part}>.+?)" for k, part in enumerate(parts))
                      + r"\Z", re.DOTALL)


_ARGPARSE_PATTERNS = tuple((template, _template_pattern(template)) for template in ARGPARSE_ERRORS)


def argparse_error(message: str, lang: Lang | str) -> str:
    """argparse's error line ``message`` (English, :data:`ARGPARSE_ERRORS`) in ``lang``:
    the matching template from the catalog, its fields (names, values, choices) as
    argparse wrote them; a line no template matches is returned as it is."""
    _ = translator(lang)
    for template, pattern in _ARGPARSE_PATTERNS:
        found = pattern.match(message)
        if found:
            return _(template).format(**found.groupdict())
    return message


class _Parser(argparse.ArgumentParser):
    """furball's parser: its errors are one line (:meth:`error`), in ``lang``."""

    lang: Lang = Lang.EN

    def error(self, message):  # one line, exit 2 via main(), which says "furball: error:" once
        command = self.prog.removeprefix("furball").strip()  # "play white-christmas", or "" at the top
        message = argparse_error(message, self.lang)
        raise InputError(f"{command}: {message}" if command else message)


def build_parser(argv: list[str] = (), lang: Lang | None = Lang.EN) -> argparse.ArgumentParser:
    """The parser for ``argv``: the command it names has its options registered (its
    module imported); the others are listed by name only. ``lang``: the language of its
    ``--help`` (:func:`translate_parser`); ``None``: its lines as the modules write them
    (ids and messages: the extraction check reads them; such a parser cannot print help)."""
    command = _command(list(argv))
    parser = _Parser(prog="furball", description="Miniatures movement geometry engine.")
    parser.add_argument("--version", action="version", version=f"furball {__version__}")
    parser.add_argument("--lang", metavar="LANG", help=ARGPARSE_WORDS[-1])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, line in COMMANDS.items():
        if command == name:
            importlib.import_module(f"{__name__}.{MODULES.get(name, name)}").register(sub, line, argv)
        else:
            sub.add_parser(name, help=line, add_help=False)
    return parser if lang is None else translate_parser(parser, lang)


def translate_parser(parser: argparse.ArgumentParser, lang: Lang) -> argparse.ArgumentParser:
    """``parser`` and its sub-parsers with every description, help line and group title
    read through the catalog of ``lang`` (the commands' modules write them in English,
    marked for extraction; a line not in the catalog yet stays English). Returns it."""
    _ = translator(lang)

    def _text(text) -> str:  # a help line: English marked with N_, or a message with values
        return render(text, lang) if isinstance(text, Message) else _(text)

    def walk(p: argparse.ArgumentParser) -> None:
        p.description = p.description and _text(p.description)
        if isinstance(p, _Parser):
            p.lang = lang  # its error lines (argparse_error)
        if lang != Lang.EN:
            p.formatter_class = _formatter(p.formatter_class, _("usage: "))
        for group in p._action_groups:
            group.title = group.title and _(group.title)
        for action in p._actions:
            if action.help and action.help != argparse.SUPPRESS:
                action.help = _text(action.help)
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    choice.help = choice.help and _(choice.help)
                for child in dict.fromkeys(action.choices.values()):
                    walk(child)

    walk(parser)
    return parser


def _formatter(base: type, prefix: str):
    """``base`` (the parser's formatter class) writing ``prefix`` before the usage line."""
    class Formatter(base):  # type: ignore[misc, valid-type]
        def add_usage(self, usage, actions, groups, prefix_=None):
            return super().add_usage(usage, actions, groups, prefix)
    return Formatter


def _take_lang(argv: list[str]) -> tuple[str | None, list[str]]:
    """``--lang X`` or ``--lang=X`` anywhere in ``argv`` (before or after the command):
    its value (``None`` without it) and ``argv`` without it."""
    out, value, i = [], None, 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--lang":
            if i + 1 >= len(argv):
                raise InputError(msg("--lang: expected one argument (en or es)"))
            value, i = argv[i + 1], i + 2
            continue
        if arg.startswith("--lang="):
            value = arg.partition("=")[2]
        else:
            out.append(arg)
        i += 1
    return value, out


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
            raise InputError(msg("{option}: expected a value, got an empty one", option=option))
        if not option and not arg.strip():
            if i:
                raise InputError(msg("argument {n} (after {previous}) is empty: expected a value", n=i + 1,
                                     previous=argv[i - 1]))
            raise InputError(msg("argument {n} is empty: expected a value", n=i + 1))


def _shorten(message: str, most: int = 240) -> str:
    """One line, with any over-long word (an echoed input) cut short."""
    words = [w if len(w) <= most else w[:most - 3] + "..." for w in str(message).split()]
    return " ".join(words)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 2 bad input)."""
    argv = _join_negative_values(list(sys.argv[1:] if argv is None else argv))
    lang = choose_lang(None)
    _ = translator(lang)
    try:
        option, argv = _take_lang(argv)
        lang = choose_lang(option)
        _ = translator(lang)
        _refuse_empty_values(argv)
        args = build_parser(argv, lang).parse_args(argv)
        args.lang = lang
        return args.func(args)
    except InputError as exc:
        print(_("furball: error: {message}").format(message=_shorten(render(exc.message, lang))), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(_("furball: interrupted; no output was written"), file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (furball ... | head): stop quietly
        sys.stderr.close()
        return 141
    except OSError as exc:  # a file the user named cannot be used (too long a name, no access...)
        where = f"{_shorten(exc.filename)}: " if getattr(exc, "filename", None) else ""
        print(f"furball: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2

