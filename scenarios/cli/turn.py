"""`furball turn SCENARIO.toml`: adjudicate one turn and report it."""
from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from furball.errors import InputError
from furball.i18n import DEFAULT_LANG, N_, Lang, msg, translator

if TYPE_CHECKING:
    from furball.scenarios.dogfight import TurnResult

from .output import (
    ANIMATION_FORMATS,
    Outputs,
    PictureRequest,
    add_picture_options,
    render_animation,
    scenario_inputs,
    viz,
)

MAX_SEED = 2**63 - 1


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0 to 2**63-1, got {text[:40]!r}")
    return value


def _policy(text: str, policies):
    """``--policy`` as a :class:`ReorderPolicy`. Raises :class:`InputError`."""
    try:
        return policies(text)
    except ValueError:
        raise InputError(msg("--policy {value}: expected one of {choices}", value=repr(text[:40]),
                             choices=", ".join(p.value for p in policies))) from None


def register(subparsers, line: str, argv=()) -> None:
    """Add this command's parser (``line``: its help in the command list)."""
    p = subparsers.add_parser(
        "turn", help=line,
        description=N_("Run one turn of a scenario (three maneuvers): tailing, movement, leaving "
                    "the table, overlaps, collisions, altitude, firing, damage cards and planes lost. "
                    "Prints a report."))
    p.add_argument("scenario", help=N_("scenario or saved-state file (TOML)"))
    p.add_argument("--json", action="store_true", help=N_("print the report as JSON"))
    p.add_argument("--out", metavar="STATE.toml", help=N_("write the table after the turn (a scenario: add plans "
                                                       "and play the next turn)"))
    add_picture_options(p)
    p.add_argument("--animate", metavar="FILE", help=N_("animate the turn to FILE.gif (or .mp4 with ffmpeg)"))
    p.add_argument("--fps", type=int, default=12, help=N_("frames per second of --animate (default 12)"))
    p.add_argument("--seed", type=_seed, help=N_("seed for every random draw (default: the scenario's, "
                                              "else a fresh one, printed in the report)"))
    p.add_argument("--policy", metavar="POLICY",
                   help=N_("how a chaser reorders after a reveal: keep or best (default: the scenario's, else keep)"))
    p.add_argument("--auto", metavar="NAME[,NAME...]", action="append",
                   help=N_("let the engine plan these planes: the best-ranked plan of `furball analyze` "
                        "(docs/analyze.md) replaces any plan the scenario gives them (repeatable)"))
    p.add_argument("--margins", action="store_true",
                   help=N_("also report every ruling's margins (how close each call was) and, for close calls, "
                        "the chance it flips under placement error (docs/margins.md)"))
    p.add_argument("--placement-error", metavar="XYmm,Hdeg", default=None,
                   help=N_("with --margins: the standard deviation of a hand's placement error per base, in x and y "
                        "and in heading (default 1mm,1deg; a table measured from a photo, furball capture table: "
                        "each base's own error from the photo, unless this option is given)"))
    p.add_argument("--close-call", metavar="SHARE", default="5%",
                   help=N_("with --margins: a ruling is a close call when its flip chance exceeds this (default 5%%)"))
    p.set_defaults(func=run)


def _auto_names(texts: list[str] | None, scenario) -> list[str]:
    """The planes named by every ``--auto`` (each a comma-separated list), in order, each
    once: each must plan its own cards. Raises InputError."""
    names = []
    for text in texts or ():
        names += [n.strip() for n in text.split(",")]
        if not all(names):
            raise InputError(msg("--auto {value}: expected plane names separated by commas", value=repr(text[:60])))
    for name in names:
        plane = scenario.table.plane(name)
        if not (plane.flying and not plane.is_balloon and not plane.autonomous):
            raise InputError(msg("--auto {value}: expected a plane that plans its cards (flying, not a balloon, "
                                 "not autonomous)", value=repr(name[:60])))
    return list(dict.fromkeys(names))


def _margin_options(args):
    """``(PlacementError, close-call share)`` of ``--margins``, or None without it. Raises
    InputError (before any work) for a bad ``--placement-error`` or ``--close-call``."""
    from furball.maneuvers.margins import PlacementError
    from furball.scenarios.dogfight.margins import parse_close_call

    error, share = PlacementError.parse(args.placement_error or "1mm,1deg"), parse_close_call(args.close_call)
    return (error, share) if args.margins else None


def turn_text(r: TurnResult, lang: Lang = DEFAULT_LANG) -> str:
    """A readable report of the turn (:func:`furball.scenarios.dogfight.report.turn_text`)
    in ``lang``."""
    from furball.scenarios.dogfight.report import turn_text as text

    return text(r, lang)


def run(args) -> int:
    from furball.scenarios.dogfight import (
        ReorderPolicy,
        Scenario,
        adjudicate,
        best_plan,
        load_scenario,
        scenario_toml,
        turn_json,
    )

    outputs = Outputs()
    outputs.protect(args.scenario)
    request = PictureRequest.from_args(args, outputs)
    out = outputs.claim(args.out, (".toml",), "--out")
    animate = outputs.claim(args.animate, ANIMATION_FORMATS, "--animate")
    if not 1 <= args.fps <= 60:
        raise InputError(msg("--fps {fps}: expected 1 to 60 frames per second", fps=args.fps))
    if animate is not None:
        viz().check_animation(animate)
    margins = _margin_options(args)
    scenario = load_scenario(args.scenario)
    outputs.protect(*scenario_inputs(scenario))
    policy = scenario.policy if args.policy is None else _policy(args.policy, ReorderPolicy)
    seed = args.seed if args.seed is not None else scenario.seed
    orders = dict(scenario.orders)
    for name in _auto_names(args.auto, scenario):  # each plans against the scenario's table as it stands
        orders[name] = best_plan(scenario.table, name, scenario.orders)
    try:
        result = adjudicate(scenario.table, orders, seed=seed, policy=policy,
                            samples=request.wanted or animate is not None)
    except InputError as exc:  # an illegal plan or bad orders: say which file
        raise InputError(msg("{file}: {error}", file=scenario.source, error=exc.message)) from None
    ruled = None
    if margins is not None:
        from furball.scenarios.dogfight.margins import turn_margins

        # a table measured from a photo brings each base's own error, unless --placement-error is given
        own = scenario.placement_errors if args.placement_error is None else None
        ruled = turn_margins(result, *margins, seed=result.seed, errors=own)
    if ruled is not None:  # the picture marks the close calls (docs/margins.md)
        request.render("turn-margins", (result, ruled), outputs)
    else:
        request.render("turn", result, outputs)
    render_animation(result, animate, args.fps, outputs)
    if out is not None:
        # the saved state keeps the settings given for this game (the seed draws anew each turn)
        saved = Scenario(result.after, {}, ReorderPolicy(policy), seed, victory=scenario.victory)
        outputs.stage(out, scenario_toml(saved, out.parent).encode("utf-8"), msg("state for turn {turn}", turn=result.after.turn))
    written = outputs.publish(args.lang)
    auto = _auto_names(args.auto, scenario)
    if args.json:
        doc = turn_json(result)
        if auto:  # which planes the analysis planned (docs/analyze.md)
            doc["auto"] = {n: list(orders[n].plan) for n in auto}
        if ruled is not None:
            from furball.scenarios.dogfight.margins import margins_json

            doc["margins"] = margins_json(ruled)
        print(json.dumps(doc, indent=2))
    else:
        lang = getattr(args, "lang", DEFAULT_LANG)
        print(turn_text(result, lang))
        if ruled is not None:
            from furball.scenarios.dogfight.margins import margin_lines

            print("\n".join(margin_lines(ruled, lang)))
        for name in auto:
            print(translator(lang)("{plane} was planned by the analysis (furball analyze): {cards}").format(
                plane=name, cards=", ".join(orders[name].plan)))
    for line in [] if args.json else written:
        print(line)
    return 0
