"""`furball turn SCENARIO.toml`: adjudicate one turn and report it."""
from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from furball.errors import InputError

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
        raise InputError(f"--policy {text[:40]!r}: expected one of {', '.join(p.value for p in policies)}") from None


def register(subparsers, line: str, argv=()) -> None:
    """Add this command's parser (``line``: its help in the command list)."""
    p = subparsers.add_parser(
        "turn", help=line,
        description="Run one turn of a scenario (three maneuvers): tailing, movement, leaving "
                    "the table, overlaps, collisions, altitude, firing positions. Prints a report.")
    p.add_argument("scenario", help="scenario or saved-state file (TOML)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--out", metavar="STATE.toml", help="write the table after the turn (a scenario: add plans "
                                                       "and play the next turn)")
    add_picture_options(p)
    p.add_argument("--animate", metavar="FILE", help="animate the turn to FILE.gif (or .mp4 with ffmpeg)")
    p.add_argument("--fps", type=int, default=12, help="frames per second of --animate (default 12)")
    p.add_argument("--seed", type=_seed, help="seed for every random draw (default: the scenario's, "
                                              "else a fresh one, printed in the report)")
    p.add_argument("--policy", metavar="POLICY",
                   help="how a chaser reorders after a reveal: keep or best (default: the scenario's, else keep)")
    p.add_argument("--auto", metavar="NAME[,NAME...]", action="append",
                   help="let the engine plan these planes: the best-ranked plan of `furball analyze` "
                        "(docs/analyze.md) replaces any plan the scenario gives them (repeatable)")
    p.set_defaults(func=run)


def _auto_names(texts: list[str] | None, scenario) -> list[str]:
    """The planes named by every ``--auto`` (each a comma-separated list), in order, each
    once: each must plan its own cards. Raises InputError."""
    names = []
    for text in texts or ():
        names += [n.strip() for n in text.split(",")]
        if not all(names):
            raise InputError(f"--auto {text[:60]!r}: expected plane names separated by commas")
    for name in names:
        plane = scenario.table.plane(name)
        if not (plane.flying and not plane.is_balloon and not plane.autonomous):
            raise InputError(f"--auto {name[:60]!r}: expected a plane that plans its cards (flying, not a "
                             f"balloon, not autonomous)")
    return list(dict.fromkeys(names))


def _fmt_pose(p) -> str:
    return f"({p.x_mm:7.1f}, {p.y_mm:7.1f}, {p.heading_deg:5.1f}°)"


def turn_text(r: TurnResult) -> str:
    """A readable report of the turn."""
    t = r.before
    ru = t.rules
    out = [f'furball turn: "{t.name}", turn {t.turn} (seed {r.seed}, reorder policy {r.policy})',
           f"table {t.width_mm:g} x {t.height_mm:g} mm; ruler {ru.ruler_length_mm:g} mm, "
           f"short range {ru.short_range_mm:g} mm ({ru.provenance})", "",
           "Start of turn: tailing (DF.T1, DF.T3)"]
    out += [f"  {c.chaser} tails {c.target} (ruler {c.distance_mm:.1f} mm)" for c in r.tails] or ["  no tails"]
    out += [f"  {c.chaser} asked to tail {c.target} but cannot, so tails nobody: "
            f"{'; '.join(map(str, c.reasons))}" for c in r.unmet_wishes]
    for m in r.maneuvers:
        out += ["", f"Maneuver {m.index}"]
        for v in m.reveals:
            change = "keeps its order" if v.before == v.after else \
                f"reorders {','.join(v.before)} -> {','.join(v.after)}"
            fixed = " (its own next card is fixed: it showed it in a cycle of tails)" if v.fixed else ""
            out.append(f"  reveal: {v.target} shows {v.shown} to {v.chaser}, who {change}{fixed} (DF.T2)")
        for mv in m.moves:
            out.append(f"  {mv.plane:<12} {mv.card:<5} {mv.card_name[:22]:<22} {_fmt_pose(mv.start)} -> "
                       f"{_fmt_pose(mv.end)}  alt {mv.altitude}")
            out += [f"      {e}" for e in mv.events]
        out += [f"  {n} leaves the table (DF.E1)" for n in m.left_table]
        for a, b in m.overlaps:
            out.append(f"  overlap: {a} and {b} (DF.O1; they cannot fire at each other, DF.O2)")
        for c in m.collisions:
            if c.balloon:
                out.append(f"  collision: {c.a} and {c.b}: a balloon, unavoidable; each takes a C card (DF.C5)")
                continue
            combos = ", ".join(f"{sa}/{sb} {'hit' if hit else 'miss'}" for (sa, sb), hit in c.combinations.items())
            verdict = f"drawn {c.drawn[0]}/{c.drawn[1]}: " + (
                "they collide, each takes an A card (DF.C4)" if c.collided else "no collision")
            out.append(f"  collision test {c.a} / {c.b}: P = {c.probability} ({combos}); {verdict} (DF.C3)")
        if m.shots:
            out += [f"  can fire: {x.shooter} -> {x.target} at {x.range} range ({x.distance_mm:.1f} mm)"
                    for x in m.shots]
        else:
            out.append("  no firing positions")
        out += [f"  autonomous fire: {x.shooter} fires gun {x.arc + 1} at {x.target} ({x.range} range, DF.A2)"
                for x in m.autonomous_fire]
        for name, events in m.drops:
            out += [f"  {name} {e}" for e in events]
        for c in m.tail_checks:
            out.append(f"  {c.chaser} still tails {c.target}" if c.ok else
                       f"  {c.chaser} loses the tail on {c.target}: {'; '.join(map(str, c.reasons))} (DF.T4)")
    out += ["", f"End of turn (state for turn {r.after.turn})"]
    for p in r.after.planes:
        extra = f", bombs {p.bombs}/{p.bombs_at_start}" if p.bombs_at_start else ""
        dmg = f", damage {' '.join(p.damage)}" if p.damage else ""
        out.append(f"  {p.name:<12} {p.side:<10} {_fmt_pose(p.pose)} alt {p.altitude} "
                   f"counters {p.climb_counters}{extra}{dmg} [{p.status}]")
    return "\n".join(out)


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
        raise InputError(f"--fps {args.fps}: expected 1 to 60 frames per second")
    if animate is not None:
        viz().check_animation(animate)
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
        raise InputError(f"{scenario.source}: {exc}") from None
    request.render("turn", result, outputs)
    render_animation(result, animate, args.fps, outputs)
    if out is not None:
        # the saved state keeps the settings given for this game (the seed draws anew each turn)
        saved = Scenario(result.after, {}, ReorderPolicy(policy), seed)
        outputs.stage(out, scenario_toml(saved, out.parent).encode("utf-8"), f"state for turn {result.after.turn}")
    written = outputs.publish()
    auto = _auto_names(args.auto, scenario)
    if args.json:
        doc = turn_json(result)
        if auto:  # which planes the analysis planned (docs/analyze.md)
            doc["auto"] = {n: list(orders[n].plan) for n in auto}
        print(json.dumps(doc, indent=2))
    else:
        print(turn_text(result))
        for name in auto:
            print(f"{name} was planned by the analysis (furball analyze): {', '.join(orders[name].plan)}")
    for line in [] if args.json else written:
        print(line)
    return 0
