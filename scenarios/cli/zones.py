"""`furball zones SCENARIO --plane NAME`: where one plane could tail and shoot."""
from __future__ import annotations

import math

from furball.errors import InputError
from furball.i18n import N_, msg, translator

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
    _ = translator(args.lang)
    print(_("{plane} ({side}), altitude {altitude}: tail zone for an enemy flying {heading} deg covers {area} mm² "
            "(DF.T1, DF.T5)").format(plane=plane.name, side=plane.side, altitude=plane.altitude,
                                     heading=format(z.enemy_heading_deg, "g"), area=format(z.tail_zone.area, ".0f")))
    if not z.can_tail:
        print(_("  this plane cannot tail (DF.T7 multi-engine, or autonomous/balloon)"))
    if args.close_calls:
        band = tail_close_band(z, table.planes, error, share)
        shots = shot_close_band(z, error, share)
        z = dataclasses.replace(z, close_band=band, close_call=share, shot_band=shots)
        print(_("  close calls (flip chance above {share} with {xy} mm, {heading} deg placement error): a band of "
                "{area} mm² along the zone's edge (docs/margins.md)").format(
                    share=format(share, ".0%"), xy=format(error.xy_mm, "g"), heading=format(error.heading_deg, "g"),
                    area=format(band.area, ".0f")))
        print(_("  shot close calls (no shot, long or short; DF.O2, DF.D3, DF.O3 line of fire): a band of {area} mm² "
                "of target stands").format(area=format(shots.area, ".0f")))
    for enemy, check, shot in z.enemies:
        if check.ok:
            tail = _("can be tailed")
        else:
            tail = _("cannot be tailed: {reasons}").format(
                reasons="; ".join(f"{r.words(args.lang)} ({r.rule})" for r in check.reasons))
        if shot:
            fire = _("in the firing arc at {range} range ({distance} mm)").format(
                range=_(str(shot.range)), distance=format(shot.distance_mm, ".1f"))
        else:
            fire = _("no shot")
        print(f"  {enemy.name}: {tail}; {fire}")
    request.render("zones", z, outputs)
    for line in outputs.publish(args.lang):
        print(line)
    return 0
