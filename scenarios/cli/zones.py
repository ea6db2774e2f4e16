"""`furball zones SCENARIO --plane NAME`: where one plane could tail and shoot."""
from __future__ import annotations

import math

from furball.errors import InputError
from furball.i18n import N_, msg

from .output import Outputs, PictureRequest, add_picture_options, scenario_inputs


def register(subparsers, line: str, argv=()) -> None:
    """Add this command's parser (``line``: its help in the command list)."""
    p = subparsers.add_parser(
        "zones", help=line,
        description=N_("For one plane of a scenario: the region where an enemy's stand would be "
                    "tailable (DF.T1 geometry, DF.T5) and its firing arcs with short/long range bands."))
    p.add_argument("scenario", help=N_("scenario file (TOML)"))
    p.add_argument("--plane", required=True, help=N_("the plane's name"))
    p.add_argument("--enemy-heading", type=float, metavar="DEG",
                   help=N_("heading of the hypothetical enemy (default: the plane's own heading)"))
    p.add_argument("--close-calls", action="store_true",
                   help=N_("also find the bands of enemy stands where the tail ruling and the firing ruling "
                        "(no shot, long, short) are close calls: they flip under placement error with a chance "
                        "above --close-call (docs/margins.md)"))
    p.add_argument("--placement-error", metavar="XYmm,Hdeg", default="1mm,1deg",
                   help=N_("with --close-calls: a hand's placement error per base (default 1mm,1deg)"))
    p.add_argument("--close-call", metavar="SHARE", default="5%",
                   help=N_("with --close-calls: the flip chance above which a ruling is a close call (default 5%%)"))
    add_picture_options(p)
    p.set_defaults(func=run)


def run(args) -> int:
    import dataclasses

    from furball.maneuvers.margins import PlacementError
    from furball.maneuvers.zones import shot_close_band, tail_close_band, zones
    from furball.scenarios.dogfight.margins import parse_close_call
    from furball.scenarios.dogfight.scenario import load_scenario

    error, share = PlacementError.parse(args.placement_error), parse_close_call(args.close_call)

    outputs = Outputs()
    outputs.protect(args.scenario)
    request = PictureRequest.from_args(args, outputs)
    scenario = load_scenario(args.scenario)
    outputs.protect(*scenario_inputs(scenario))
    table = scenario.table
    if args.plane not in table.names:
        raise InputError(msg("--plane {value}: no such plane in {scenario} (planes: {planes})", value=repr(args.plane[:40]),
                             scenario=args.scenario, planes=", ".join(table.names)))
    plane = table.plane(args.plane)
    if args.enemy_heading is not None and not math.isfinite(args.enemy_heading):
        raise InputError(msg("--enemy-heading {value}: expected a finite number of degrees", value=args.enemy_heading))
    z = zones(plane, table.planes, table.rules, args.enemy_heading, table_mm=(table.width_mm, table.height_mm),
              scenario=table.name, turn=table.turn)
    print(f"{plane.name} ({plane.side}), altitude {plane.altitude}: tail zone for an enemy flying "
          f"{z.enemy_heading_deg:g} deg covers {z.tail_zone.area:.0f} mm² (DF.T1, DF.T5)")
    if not z.can_tail:
        print("  this plane cannot tail (DF.T7 multi-engine, or autonomous/balloon)")
    if args.close_calls:
        band = tail_close_band(z, table.planes, error, share)
        shots = shot_close_band(z, error, share)
        z = dataclasses.replace(z, close_band=band, close_call=share, shot_band=shots)
        print(f"  close calls (flip chance above {share:.0%} with {error.xy_mm:g} mm, {error.heading_deg:g} deg "
              f"placement error): a band of {band.area:.0f} mm² along the zone's edge (docs/margins.md)")
        print(f"  shot close calls (no shot, long or short; DF.O2, DF.D3, DF.O3 line of fire): "
              f"a band of {shots.area:.0f} mm² of target stands")
    for enemy, check, shot in z.enemies:
        tail = "can be tailed" if check.ok else "cannot be tailed: " + "; ".join(map(str, check.reasons))
        fire = f"in the firing arc at {shot.range} range ({shot.distance_mm:.1f} mm)" if shot else "no shot"
        print(f"  {enemy.name}: {tail}; {fire}")
    request.render("zones", z, outputs)
    for line in outputs.publish():
        print(line)
    return 0
