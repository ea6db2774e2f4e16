"""`furball turn SCENARIO.toml`: adjudicate one turn and report it."""
from __future__ import annotations

import argparse
import json

from geometry.errors import InputError

from scenarios.dogfight.report import turn_json, turn_text
from scenarios.dogfight.scenario import POLICIES, load_scenario, scenario_toml
from scenarios.dogfight.turn import run_turn

from .output import (ANIMATION_FORMATS, PictureRequest, add_picture_options, check_output_path, viz, write_atomic,
                     write_text_atomic)


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {text!r}")
    return value


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "turn", help="adjudicate one dogfight turn of a scenario",
        description="Run one turn of a scenario (three maneuvers): tailing, movement, leaving "
                    "the table, overlaps, collisions, altitude, firing positions. Prints a report.")
    p.add_argument("scenario", help="scenario or saved-state file (TOML)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--out", metavar="STATE.toml", help="write the table after the turn (a scenario)")
    add_picture_options(p)
    p.add_argument("--animate", metavar="FILE", help="animate the turn to FILE.gif (or .mp4 with ffmpeg)")
    p.add_argument("--fps", type=int, default=12, help="frames per second of --animate (default 12)")
    p.add_argument("--seed", type=_seed, help="seed for every random draw (default: the scenario's, "
                                              "else a fresh one, printed in the report)")
    p.add_argument("--policy", choices=POLICIES, help="how a chaser reorders after a reveal "
                                                      "(default: the scenario's, else keep)")
    p.set_defaults(func=run)


def run(args) -> int:
    request = PictureRequest.from_args(args)
    out = check_output_path(args.out, (".toml",), "--out") if args.out else None
    animate = check_output_path(args.animate, ANIMATION_FORMATS, "--animate") if args.animate else None
    if not 1 <= args.fps <= 60:
        raise InputError(f"--fps {args.fps}: expected 1 to 60 frames per second")
    if animate is not None:
        viz().check_animation(animate)
    scenario = load_scenario(args.scenario)
    result = run_turn(scenario, policy=args.policy, seed=args.seed)
    state_text = scenario_toml(result.after, out.parent) if out else None
    notes = [request.save("turn", result)]
    if animate is not None:
        said = []
        write_atomic(animate, lambda tmp: said.append(viz().save_animation(result, tmp, fps=args.fps)))
        notes.append(f"{said[0]} written to {animate}")
    if out is not None:
        write_text_atomic(out, state_text)
        notes.append(f"state for turn {result.after.turn} written to {out}")
    print(json.dumps(turn_json(result), indent=2) if args.json else turn_text(result))
    if not args.json:
        for note in notes:
            if note:
                print(note)
    return 0
