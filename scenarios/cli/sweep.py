"""`furball sweep GAME`: many games at every point of a grid of options, on Dask.

    furball sweep canuck --games 2000 --seed 1                       # all cores of this machine
    furball sweep canuck --games 20000 --grid setup=default,free --out runs.parquet --plot runs.png
    furball sweep canuck --games 1000 --grid player=heuristic,random --workers 1   # in this process
    furball sweep canuck --games 100000 --scheduler tcp://head:8786  # an existing Dask cluster
    furball sweep canuck ... --out runs.parquet --resume             # finish an interrupted sweep

Every game of ``furball play`` (the registry's, :mod:`furball.scenarios.engine.registry`)
can be swept: ``--set KEY=VALUE``
and ``--grid KEY=V1,V2`` take the game's options (``furball sweep GAME --help`` lists
them) and ``player``. The table (one summary per grid point, 95 % intervals) goes to
stdout; ``--out`` writes one row per game (Parquet or CSV), ``--plot`` a picture of the
outcome per grid point. All input is checked before any game is played.
"""
from __future__ import annotations

import argparse
import io
import json
import pathlib
import sys
from typing import TextIO

from furball.errors import InputError
from furball.i18n import N_, msg
from furball.scenarios.engine import registry

from .output import PLOT_FORMATS, Outputs, viz
from .play import chosen_game, game_module

PLAYER, SEATS = "player", "/"  # the same spellings as scenarios.engine.sweep (checked by a test)

__all__ = ["register", "run", "parse_pairs", "CHECKPOINT_SUFFIX"]

CHECKPOINT_SUFFIX = ".partial"
"""``--out FILE`` keeps finished games in ``FILE.partial`` until the sweep completes."""


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text[:40]!r}") from None


def _options_help(game) -> str:
    lines = [f"{PLAYER}: the bots, one for every seat or one per seat joined by '{SEATS}' "
             f"({', '.join(game.players)}; default {next(iter(game.players))})"]
    for o in game.options:
        values = f"one of {', '.join(map(str, o.choices))}" if o.choices else getattr(o.kind, "__name__", "a value")
        lines.append(f"{o.name}: {o.help} ({values}; default {o.default})")
    return "options for --set and --grid:\n  " + "\n  ".join(lines)


def register(subparsers, line: str, argv=()) -> None:
    """Add this command's parser (``line``: its help in the command list). Its help lists
    the options of the game named in ``argv``, or of every game (importing them) when
    help is asked for without a game."""
    wanted = chosen_game(argv)
    asked = "-h" in argv or "--help" in argv
    shown = [wanted] if wanted else (list(registry.names()) if asked else [])
    epilog = "\n\n".join(f"{name}: {_options_help(game_module(name).GAME)}" for name in shown)
    p = subparsers.add_parser(
        "sweep", help=line,
        description=N_("Play N games at every point of a grid of game options, on this machine's cores or a "
                    "Dask cluster; print a summary per point with 95 % intervals, write one row per game."),
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", metavar="GAME", choices=registry.names(), help=msg("which game: {games}", games=", ".join(registry.names())))
    p.add_argument("--games", type=_whole, required=True, metavar="N", help=N_("games per grid point"))
    p.add_argument("--seed", type=_whole, default=0, help=N_("seed of the series (default 0); game i of every "
                   "point plays seed i of the series"))
    p.add_argument("--player", default=None, help=msg("the bots (default: the game's first); '{between}' between seats", between=SEATS))
    p.add_argument("--set", dest="settings", action="append", default=[], metavar="KEY=VALUE",
                   help=N_("an option, the same at every point (repeatable)"))
    p.add_argument("--grid", action="append", default=[], metavar="KEY=V1,V2",
                   help=N_("an option's values; every combination is a grid point (repeatable); separate the "
                        "values with ';' when they hold commas"))
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=_whole, default=None, metavar="N",
                       help=N_("worker processes of a local Dask cluster (default: one per core; 1: in this "
                            "process, no cluster)"))
    where.add_argument("--scheduler", metavar="ADDRESS", default=None,
                       help=N_("run on the Dask cluster of this scheduler, e.g. tcp://head:8786"))
    p.add_argument("--batch", type=_whole, default=None, metavar="N",
                   help=N_("games per task (default: about 8 tasks per worker, at most 1000 games; with "
                        "--scheduler, sized for 32 workers)"))
    p.add_argument("--out", metavar="FILE", default=None, help=N_("write one row per game to FILE.parquet or "
                   "FILE.csv (finished games are kept in FILE.partial until the sweep completes)"))
    p.add_argument("--resume", action="store_true", help=N_("continue the interrupted sweep kept in "
                   "--out FILE's .partial file"))
    p.add_argument("--plot", metavar="FILE", default=None, help=N_("draw the outcome per grid point to FILE.png, "
                   ".svg or .pdf"))
    p.add_argument("--json", action="store_true", help=N_("print the summaries as JSON"))
    p.set_defaults(func=run)


def parse_pairs(items: list[str], option: str, many: bool) -> dict[str, str | list[str]]:
    """``["k=v", ...]`` -> ``{k: v}`` (``many``: ``{k: [v1, v2]}`` split at commas, or
    at semicolons when there is one, for values that hold commas themselves:
    ``expansions=expert;expert,tank``). Raises :class:`InputError` for a malformed item
    or a key given twice."""
    out: dict[str, str | list[str]] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key or not value.strip():
            form = "KEY=V1,V2" if many else "KEY=VALUE"
            raise InputError(msg("{option} {value}: expected {form}", option=option, value=repr(item[:60]), form=form))
        if key in out:
            raise InputError(msg("{option} {key}: given twice", option=option, key=key))
        if many:
            values = [v.strip() for v in value.split(";" if ";" in value else ",")]
            if any(not v for v in values):
                raise InputError(msg("{option} {value}: expected values separated by commas (or semicolons)", option=option,
                                 value=repr(item[:60])))
            out[key] = values
        else:
            out[key] = value.strip()
    return out


def _named_files(settings: dict, grid: dict) -> list[str]:
    """Every option value of ``--set`` and ``--grid`` that names an existing file or
    folder (a map, a deck, a data folder ...): inputs no output may replace."""
    values = [*settings.values(), *(v for vs in grid.values() for v in vs)]
    return [v for v in values if pathlib.Path(v.partition(".toml:")[0] + (".toml" if ".toml:" in v else "")).exists()]


def _checkpoint(rows_path: pathlib.Path | None, resume: bool, outputs: Outputs | None = None) -> pathlib.Path | None:
    """The ``.partial`` file beside ``--out`` (checked against ``--resume`` and, when
    ``outputs`` is given, against the command's inputs)."""
    if rows_path is None:
        if resume:
            raise InputError(msg("--resume: give the --out FILE of the interrupted sweep"))
        return None
    partial = rows_path.with_name(rows_path.name + CHECKPOINT_SUFFIX)
    if outputs is not None:
        for source in outputs.inputs:
            if partial.exists() and source.exists() and partial.samefile(source):
                raise InputError(msg("--out {out}: its checkpoint {partial} is an input of this command", out=rows_path,
                                 partial=partial))
    if resume and not partial.exists():
        raise InputError(msg("--resume: no interrupted sweep to continue ({partial} does not exist)", partial=partial))
    if not resume and partial.exists():
        raise InputError(msg("--out {out}: {partial} holds an interrupted sweep: add --resume to continue it, or delete it",
                             out=rows_path, partial=partial))
    return partial


def run(args, stdout: TextIO | None = None) -> int:
    """Run ``furball sweep`` from parsed ``args``. Raises :class:`InputError` for bad
    input before any game is played; returns 130 after Ctrl-C (finished games kept)."""
    from furball.scenarios.engine.sweep import (
        MAX_GAMES,
        ROW_FORMATS,
        default_workers,
        encode_rows,
        plan_sweep,
        run_sweep,
    )

    module = game_module(args.game)
    game = module.GAME
    out = stdout or sys.stdout
    if not 1 <= args.games <= MAX_GAMES:
        raise InputError(msg("--games {value}: expected an integer from 1 to {most}", value=args.games, most=format(MAX_GAMES, "g")))
    if args.seed < 0:
        raise InputError(msg("--seed {value}: expected an integer >= 0", value=args.seed))
    from furball.extras import require
    from furball.scenarios.engine.cluster import check_local_workers

    check_local_workers(args.workers)
    settings = parse_pairs(args.settings, "--set", many=False)
    grid = parse_pairs(args.grid, "--grid", many=True)
    outputs = Outputs()
    outputs.protect(*_named_files(settings, grid))
    rows_path = outputs.claim(args.out, ROW_FORMATS, "--out")
    plot = outputs.claim(args.plot, PLOT_FORMATS, "--plot")
    partial = _checkpoint(rows_path, args.resume, outputs)
    workers = args.workers
    if workers is None and args.scheduler is None:
        workers = default_workers()

    if args.scheduler is not None or workers != 1:
        require("cluster", "a sweep on a Dask cluster (--workers N > 1, --scheduler)", "distributed")
    if rows_path is not None and rows_path.suffix.lower() == ".parquet":
        require("cluster", "--out FILE.parquet", "pyarrow")
    plan = plan_sweep(game, args.games, args.seed, args.player, settings, grid, args.batch, workers=workers)

    from tqdm import tqdm

    with tqdm(total=plan.total, desc=f"sweep {game.name}", unit="game", file=sys.stderr, mininterval=0.5,
              leave=False, disable=None) as bar:
        result = run_sweep(game, args.games, plan=plan, workers=workers if args.scheduler is None else None,
                           scheduler=args.scheduler, progress=bar.update, checkpoint=partial, resume=args.resume,
                           remove_checkpoint=False)
    if not result.complete:
        kept = (f"kept in {partial}: run the same command with --resume to finish" if partial is not None
                else "nothing kept (give --out FILE to keep finished games)")
        print(f"furball: interrupted: {result.games_done} of {plan.total} games finished; {kept}", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(result.to_json(module.summarise), indent=1), file=out)
    else:
        print(result.table(module.summarise), file=out)
    said = sys.stderr if args.json else out
    if rows_path is not None:
        outputs.stage(rows_path, encode_rows(result, rows_path.suffix), msg("{count} rows", count=result.games_done))
    if plot is not None:
        buffer = io.BytesIO()
        drawn = viz().save_plot("sweep", result, buffer, format=plot.suffix.lstrip(".").lower())
        outputs.stage(plot, buffer.getvalue(), drawn)
    for line in outputs.publish(args.lang):
        print(line, file=said)
    if partial is not None:
        partial.unlink(missing_ok=True)  # the rows are kept: the checkpoint has served
    return 0
