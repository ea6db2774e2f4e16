"""`furball analyze SCENARIO --plane NAME`: rank every legal plan of a plane against
every plan of its enemies (docs/analyze.md)."""
from __future__ import annotations

import functools
import io
import json
import sys
from typing import TYPE_CHECKING

from furball.errors import InputError
from furball.i18n import DEFAULT_LANG, ENGLISH, N_, Lang, msg, render, translator

if TYPE_CHECKING:
    from furball.scenarios.dogfight import PlanReport

from .output import PLOT_FORMATS, Outputs, scenario_inputs, viz

MAX_TOP = 10_000


def register(subparsers, line: str, argv=()) -> None:
    """Add this command's parser (``line``: its help in the command list)."""
    p = subparsers.add_parser(
        "analyze", help=line,
        description=N_("Fly every legal plan of a plane against every plan of each enemy: per maneuver who can "
                    "fire at whom (short/long), overlaps and the exact collision chance, leaving the table. "
                    "Prints the plans ranked by score (docs/analyze.md)."))
    p.add_argument("scenario", help=N_("scenario or saved-state file (TOML)"))
    p.add_argument("--plane", required=True, help=N_("the plane whose plans are ranked"))
    p.add_argument("--vs", action="append", metavar="NAME",
                   help=N_("an enemy to analyse against (repeat for several; default: every enemy within reach)"))
    p.add_argument("--enemy-weights", metavar="FILE", help=N_("how likely each enemy plan is (TOML; default: "
                                                           "every legal plan equally likely)"))
    p.add_argument("--reveal", action="store_true", help=N_("a chaser that tails at the start sees the target's "
                                                         "first card and flies its best order (DF.T2)"))
    p.add_argument("--equilibrium", action="store_true",
                   help=N_("solve the plan-pair table against one enemy (the first --vs, else the nearest) as a "
                        "zero-sum game by linear programming: both mixed strategies and the value"))
    p.add_argument("--top", type=int, default=10, help=msg("how many plans to list (default 10, at most {most})", most=MAX_TOP))
    p.add_argument("--json", action="store_true", help=N_("print the report as JSON"))
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None, metavar="N",
                       help=N_("spread the plan pairs over a local Dask cluster of N processes (default: this process, "
                            "whose compiled kernels already use every core)"))
    where.add_argument("--scheduler", metavar="ADDRESS", default=None,
                       help=N_("spread the plan pairs over the Dask cluster of this scheduler, e.g. tcp://head:8786"))
    p.add_argument("--plot", metavar="FILE", help=N_("draw the heat map and the best plans' paths to FILE.png, "
                                                  ".svg or .pdf"))
    p.set_defaults(func=run)


def _plan(plan, _=ENGLISH) -> str:
    return " ".join(plan) if plan else _("(stays)")


def analyze_text(r: PlanReport, top: int, lang: Lang | str = DEFAULT_LANG) -> str:
    """A readable report: the enemies, how plans were flown, the score, the ranked plans
    (in ``lang``)."""
    _ = translator(lang)
    t = r.table
    w = r.weights
    out = [_('furball analyze: "{table}", turn {turn}: {plane} ({count} legal plans)').format(
               table=t.name, turn=t.turn, plane=r.plane, count=len(r.plans)),
           _("{pairs} plan pairs in {seconds} s").format(pairs=f"{r.pairs:,}", seconds=format(r.seconds, ".2f"))]
    for e in r.enemies:
        if e.drawn:
            how = _("autonomous draws (DF.A1)")
        elif e.plans == ((),):
            how = _("stays put")
        else:
            how = _("legal plans")
        if len(set(e.weights.round(12))) <= 1:
            weights = _("equally likely")
        else:
            weights = _("weighted")
        out.append("  " + _("against {enemy}: {count} {how}, {weights}").format(enemy=e.name, count=len(e.plans),
                                                                                how=how, weights=weights))
        if e.tails:
            reveal = render(e.reveal, lang) if e.reveal else _("plans analysed as flown (no reveal; --reveal applies the chaser's best order)")
            out.append("    " + _("{tails} at the start (DF.T1): {reveal}").format(tails=render(e.tails, lang), reveal=reveal))
    if not r.enemies:
        out.append("  " + _("no enemy within reach: plans ranked by staying on the table"))
    rank, plan, score, given, taken, coll, leave = (_("rank"), _("plan"), _("score"), _("given s/l"), _("taken s/l"),
                                                    _("P(coll)"), _("P(leave)"))
    out += [_("score = {short} x short + {long} x long firing positions on the enemy - the same on {plane} - "
              "{collision} x expected collisions - {leave} x leaving the table").format(
                  short=format(w.short, "g"), long=format(w.long, "g"), plane=r.plane,
                  collision=format(w.collision, "g"), leave=format(w.leave, "g")), "",
            f"{rank:>4}  {plan:<16} {score:>7}  {given:>11}  {taken:>11}  {coll:>7}  {leave:>8}"]
    for row in r.rows(top):
        g, k = row["shots_given"], row["shots_taken"]
        out.append(f"{row['rank']:>4}  {_plan(row['plan'], _):<16} {row['score']:>7.3f}  "
                   f"{g['short']:>5.2f}/{g['long']:<5.2f}  {k['short']:>5.2f}/{k['long']:<5.2f}  "
                   f"{row['p_collision']:>7.3f}  {row['p_leave']:>8.2f}")
    return "\n".join(out)


def _progress(lang: Lang | str = DEFAULT_LANG, **kwargs):
    """A progress bar on stderr, in ``lang``, that shows itself only after a second."""
    from tqdm import tqdm

    _ = translator(lang)
    return tqdm(desc=_("plan pairs"), unit=_("chunk"), delay=1.0, leave=False, file=sys.stderr, **kwargs)


def run(args) -> int:
    from furball.geometry.kernels import keep_freed_memory
    from furball.scenarios.dogfight import analyze, load_enemy_weights, load_scenario
    from furball.scenarios.engine.cluster import dask_client, map_in_order, quiet_dask

    if not 1 <= args.top <= MAX_TOP:
        raise InputError(msg("--top {value}: expected 1 to {most} plans", value=args.top, most=MAX_TOP))
    outputs = Outputs()
    outputs.protect(args.scenario, args.enemy_weights)
    plot = outputs.claim(args.plot, PLOT_FORMATS, "--plot")
    scenario = load_scenario(args.scenario)
    outputs.protect(*scenario_inputs(scenario))
    table = scenario.table
    if args.equilibrium:
        return _equilibrium(args, scenario, plot, outputs)
    weights = load_enemy_weights(args.enemy_weights, table) if args.enemy_weights else None
    from furball.scenarios.engine.cluster import check_local_workers

    check_local_workers(args.workers)
    keep_freed_memory()  # chunk after chunk, the same grids: no fresh pages to fault in
    if args.scheduler is None and args.workers in (None, 1):
        report = analyze(table, args.plane, vs=args.vs, orders=scenario.orders, enemy_weights=weights,
                         reveal=args.reveal, progress=functools.partial(_progress, args.lang))
    else:
        with quiet_dask(), dask_client(args.workers if args.scheduler is None else None, args.scheduler) as client:
            report = analyze(table, args.plane, vs=args.vs, orders=scenario.orders, enemy_weights=weights,
                             reveal=args.reveal, progress=functools.partial(_progress, args.lang),
                             map_chunks=lambda fn, task, chunks: map_in_order(client, fn, task, chunks))
    if plot is not None:
        buffer = io.BytesIO()
        said = viz().save_plot("analyze", report, buffer, format=plot.suffix.lstrip(".").lower())
        outputs.stage(plot, buffer.getvalue(), said)
    written = outputs.publish(args.lang)
    print(json.dumps(report.as_json(args.top), indent=2) if args.json else analyze_text(report, args.top, args.lang))
    for line in [] if args.json else written:
        print(line)
    return 0


def _equilibrium(args, scenario, plot, outputs) -> int:
    """``--equilibrium``: the zero-sum plan-pair game (scenarios/dogfight/equilibrium.py)."""
    from furball.scenarios.dogfight.equilibrium import equilibrium, equilibrium_text

    if plot is not None or args.enemy_weights or args.reveal or args.workers or args.scheduler:
        raise InputError(msg("--equilibrium: cannot be combined with --plot, --enemy-weights, --reveal, --workers or "
                             "--scheduler"))
    found = equilibrium(scenario.table, args.plane, vs=(args.vs or [None])[0], orders=scenario.orders)
    outputs.publish(args.lang)
    print(json.dumps(found.as_json(), indent=2) if args.json else equilibrium_text(found, args.top, args.lang))
    return 0


__all__ = ["register", "run", "analyze_text"]
