"""`furball play GAME`: the card and board games built on the board-graph module.

Every game shares these options (its own come from its CLI module, e.g.
:mod:`.canuck`): one game with its log (``--seed``), many games with a result table
(``--games N --player heuristic|random``; one bot per seat as ``--player A,B``), the log
or table as JSON (``--json``), a person at the keyboard (``--interactive``), and a
picture of the final position (``--plot FILE``).

The games are the registry's (:mod:`furball.scenarios.engine.registry`), each with its
CLI module there. A game's CLI module offers ``GAME`` (the :class:`scenarios.engine.Game`),
``add_arguments(parser)``, ``options(args) -> dict`` (game options, checked),
``summarise(rows, label)``, ``interactive(args, stdin, out)``-style play through
:func:`.interactive.play_interactive`, and optionally ``seats(args)``.
"""
from __future__ import annotations

import argparse
import json
import sys
from types import ModuleType
from typing import TextIO

from furball.errors import InputError
from furball.i18n import DEFAULT_LANG, N_, msg
from furball.scenarios.engine import registry

from .output import Outputs, PictureRequest, add_picture_options


def game_module(name: str) -> ModuleType:
    """The CLI module of game ``name`` (its name in the registry), imported now."""
    return registry.entry(name).cli_module()


def chosen_game(argv) -> str | None:
    """The game named in ``argv`` after the command (``furball play GAME ...``)."""
    words = [a for a in argv if not a.startswith("-")]
    return words[1] if len(words) > 1 and words[1] in registry.names() else None

MAX_GAMES = 10**9
"""More games than this is refused at once (it would run for days)."""


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text[:40]!r}") from None
    return value


def register(subparsers, line: str, argv=()) -> None:
    """Add this command's parser (``line``: its help in the command list). Only the game
    named in ``argv`` gets its options (its module is imported); the others are listed
    by title."""
    p = subparsers.add_parser(
        "play", help=line,
        description=N_("Play a game: one game with its log (--seed), many games with a result table "
                       "(--games N --player heuristic|random), or yourself (--interactive)."))
    games = p.add_subparsers(dest="game", metavar="GAME", required=True)
    wanted = chosen_game(argv)
    for entry in registry.GAMES:
        name, title = entry.name, entry.title
        if name != wanted:
            games.add_parser(name, help=title, add_help=False)
            continue
        module = game_module(name)
        g = games.add_parser(name, help=title, description=msg(
            "{game}: one game with its log, many games with a result table, or play it yourself.", game=title))
        g.add_argument("--seed", type=_count, default=None,
                       help=N_("random seed (default 0); with --games, the seed of the series"))
        g.add_argument("--games", type=_count, default=None, metavar="N",
                       help=N_("play N games and print the result table"))
        g.add_argument("--player", default=None,
                       help=msg("which bot plays: {bots} (default {default}); one per seat joined by commas, e.g. A,B",
                                bots=" or ".join(module.GAME.players), default=next(iter(module.GAME.players))))
        g.add_argument("--json", action="store_true", help=N_("print JSON instead of text"))
        g.add_argument("--interactive", action="store_true", help=N_("play it yourself in the terminal"))
        module.add_arguments(g)
        if getattr(module, "PICTURE", None):
            add_picture_options(g)
        g.set_defaults(func=run, module=module)


def _check(args):
    module = args.module
    game = module.GAME
    seed = 0 if args.seed is None else args.seed
    if seed < 0:
        raise InputError(msg("--seed {value}: expected an integer >= 0", value=seed))
    if args.games is not None and not 1 <= args.games <= MAX_GAMES:
        raise InputError(msg("--games {value}: expected an integer from 1 to {most}", value=args.games, most=format(MAX_GAMES, "g")))
    player = next(iter(game.players)) if args.player is None else args.player
    for name in player.split(","):
        if name not in game.players:
            raise InputError(msg("--player {value}: expected one of {choices} (one per seat joined by commas)",
                                 value=repr(name[:40]), choices=", ".join(game.players)))
    if args.interactive and (args.games is not None or args.json or args.player is not None):
        raise InputError(msg("--interactive: cannot be combined with --games, --json or --player"))
    return module, game, seed, player


def run(args, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run ``furball play GAME`` from parsed ``args``. Raises :class:`InputError`."""
    from furball.scenarios.engine import play_game, play_many

    from .interactive import play_interactive

    module, game, seed, player = _check(args)
    outputs = Outputs()
    outputs.protect(*(getattr(args, name, None) for name in ("map", "deck", "time", "scenario")))
    request = PictureRequest.from_args(args, outputs) if getattr(module, "PICTURE", None) else None
    saving = outputs.claim(getattr(args, "save", None), (".toml",), "--save")
    opts = module.options(args)
    players = tuple(player.split(",")) if "," in player else player
    if not isinstance(players, str) and len(players) != game.seat_count(opts):
        raise InputError(msg("--player {value}: expected one bot or {seats} (one per seat)", value=repr(player[:60]),
                             seats=game.seat_count(opts)))
    out = stdout or sys.stdout
    if args.interactive:
        stdin = stdin or sys.stdin
        if stdin is None or stdin.closed:
            raise InputError("--interactive: standard input is closed; there is nobody to ask")
        state = game.new_game(seed, **opts)
        seats = game.seat_count(opts)
        bots = module.bots(args, opts, seed) if hasattr(module, "bots") else None
        people = seats - len(bots or {})
        return play_interactive(state, stdin, out, seats=seats,
                                hot_seat=getattr(module, "HIDDEN_INFORMATION", False) and people > 1, bots=bots,
                                lang=getattr(args, "lang", DEFAULT_LANG))
    if args.games is None:
        record = play_game(game, seed, players, opts)
        if saving is not None:
            module.save(record, saving, outputs)
        if args.json:
            print(json.dumps(record.to_json(), indent=1, ensure_ascii=False), file=out)
        else:
            print("\n".join(record.log_lines(getattr(args, "lang", DEFAULT_LANG))), file=out)
        if request is not None and request.wanted:
            request.render(module.PICTURE, record.final, outputs)
        for line in outputs.publish(getattr(args, "lang", DEFAULT_LANG)):
            print(line, file=sys.stderr if args.json else out)
        return 0
    from tqdm import tqdm

    def progress(seeds):
        return tqdm(seeds, desc=f"{game.name} {player}", unit="game", file=sys.stderr, mininterval=0.5,
                    leave=False)

    if request is not None and request.wanted:
        if request.scale is not None:
            raise InputError("--scale: a true-scale print shows one table; with --games the picture is the "
                             "outcome of the series (no scale)")
        return _series_with_picture(module, game, args, seed, players, opts, outputs, request.plot, out)
    rows = play_many(game, args.games, seed, players, opts, progress)
    summary = module.summarise(rows, f"player {player}")
    print(json.dumps(summary.to_json(), indent=1) if args.json else summary.table(), file=out)
    return 0


def _series_with_picture(module, game, args, seed, players, opts, outputs, plot, out) -> int:
    """``--games N --plot FILE``: the series played as a one-point sweep in this process
    (the same seeds and rows as :func:`~furball.scenarios.engine.play_many`), its table
    printed and the outcome drawn as ``furball sweep`` draws one grid point."""
    import io

    from furball.scenarios.engine.sweep import run_sweep

    from .output import viz

    defaults = game.defaults()
    settings = {k: v for k, v in opts.items() if v is not None and v != defaults.get(k)}
    result = run_sweep(game, args.games, seed, players, settings=settings, workers=1)
    rows = [{"seed": row["seed"], **{c: row[c] for c in result.result_columns()}} for row in result.point_rows(0)]
    summary = module.summarise(rows, f"player {players if isinstance(players, str) else ','.join(players)}")
    print(json.dumps(summary.to_json(), indent=1) if args.json else summary.table(), file=out)
    buffer = io.BytesIO()
    said = viz().save_plot("sweep", result, buffer, format=plot.suffix.lstrip(".").lower())
    outputs.stage(plot, buffer.getvalue(), said)
    for line in outputs.publish(getattr(args, "lang", DEFAULT_LANG)):
        print(line, file=sys.stderr if args.json else out)
    return 0
