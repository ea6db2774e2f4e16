"""`furball turn SCENARIO.toml`: adjudicate one turn and report it."""
from __future__ import annotations

import json
import pathlib

from ..output import PLOT_FORMATS, check_output_path, renderer, save_figure, write_text_atomic
from .report import turn_json, turn_text
from .scenario import POLICIES, load_scenario, scenario_toml
from .turn import run_turn


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "turn", help="adjudicate one dogfight turn of a scenario",
        description="Run one turn of a scenario (three maneuvers): tailing, movement, leaving "
                    "the table, overlaps, collisions, altitude, firing positions. Prints a report.")
    p.add_argument("scenario", help="scenario or saved-state file (TOML)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--out", metavar="STATE.toml", help="write the table after the turn (a scenario)")
    p.add_argument("--plot", metavar="FILE", help="draw the turn to FILE.png, .svg or .pdf")
    p.add_argument("--seed", type=int, help="seed for every random draw (default: the scenario's, "
                                            "else a fresh one, printed in the report)")
    p.add_argument("--policy", choices=POLICIES, help="how a chaser reorders after a reveal "
                                                      "(default: the scenario's, else keep)")
    p.set_defaults(func=run)


def run(args) -> int:
    plot = check_output_path(args.plot, PLOT_FORMATS, "--plot") if args.plot else None
    out = check_output_path(args.out, (".toml",), "--out") if args.out else None
    scenario = load_scenario(args.scenario)
    result = run_turn(scenario, policy=args.policy, seed=args.seed)
    state_text = scenario_toml(result.after, out.parent) if out else None
    figure = renderer("turn")(result) if plot else None
    if figure is not None:
        save_figure(figure, plot)
    if out is not None:
        write_text_atomic(out, state_text)
    print(json.dumps(turn_json(result), indent=2) if args.json else turn_text(result))
    return 0
