"""Reports of a turn: readable text and JSON (schema: docs/turn-report.schema.json)."""
from __future__ import annotations

from maneuvers.plane import Plane
from maneuvers.tailing import TailCheck

from .turn import TurnResult


def _pose(p) -> dict:
    return {"x": p.x_mm, "y": p.y_mm, "heading": p.heading_deg}


def _plane(p: Plane) -> dict:
    return {"name": p.name, "side": p.side, "kind": p.kind, **_pose(p.pose), "altitude": p.altitude,
            "climb_counters": p.climb_counters, "bombs": p.bombs, "damage": list(p.damage),
            "status": p.status}


def _tail(c: TailCheck) -> dict:
    return {"chaser": c.chaser, "target": c.target, "ok": c.ok, "distance_mm": c.distance_mm,
            "reasons": list(c.reasons), "ruler": [list(c.stands[0]), list(c.stands[1])]}


def _shot(s) -> dict:
    return {"shooter": s.shooter, "target": s.target, "range": s.range, "distance_mm": s.distance_mm,
            "gun": list(s.gun), "aim": list(s.aim), "arc": s.arc}


def _collision(t) -> dict:
    return {
        "a": t.a, "b": t.b, "balloon": t.balloon,
        "probability": f"{t.probability.numerator}/{t.probability.denominator}",
        "probability_value": float(t.probability),
        "combinations": [{"a": sa, "b": sb, "overlap": hit} for (sa, sb), hit in t.combinations.items()],
        "drawn": None if t.drawn is None else {"a": t.drawn[0], "b": t.drawn[1]},
        "collided": t.collided, "damage": dict(t.damage),
    }


def turn_json(r: TurnResult) -> dict:
    """The turn as JSON-ready data (mm, degrees)."""
    s = r.before
    return {
        "scenario": s.name, "turn": s.turn, "seed": r.seed, "policy": r.policy,
        "table": {"width_mm": s.table_width_mm, "height_mm": s.table_height_mm},
        "ruler": {"length_mm": s.rules.ruler_length_mm, "short_mm": s.rules.short_range_mm,
                  "provenance": s.rules.provenance},
        "start": {"planes": [_plane(p) for p in s.planes], "tails": [_tail(c) for c in r.tails]},
        "maneuvers": [{
            "index": m.index,
            "reveals": [{"chaser": v.chaser, "target": v.target, "shown": v.shown,
                         "before": list(v.before), "after": list(v.after)} for v in m.reveals],
            "moves": [{"plane": mv.plane, "card": mv.card, "card_name": mv.card_name,
                       "start": _pose(mv.start), "end": _pose(mv.end), "altitude": mv.altitude,
                       "climb_counters": mv.climb_counters, "events": list(mv.events)} for mv in m.moves],
            "left_table": list(m.left_table),
            "overlaps": [list(pair) for pair in m.overlaps],
            "collisions": [_collision(t) for t in m.collisions],
            "shots": [_shot(x) for x in m.shots],
            "autonomous_fire": [_shot(x) for x in m.autonomous_fire],
            "bombs": [{"plane": n, "events": list(ev)} for n, ev in m.drops],
            "tails": [_tail(c) for c in m.tail_checks],
        } for m in r.maneuvers],
        "end": {"turn": r.after.turn, "planes": [_plane(p) for p in r.after.planes]},
    }


def _fmt_pose(p) -> str:
    return f"({p.x_mm:7.1f}, {p.y_mm:7.1f}, {p.heading_deg:5.1f}°)"


def turn_text(r: TurnResult) -> str:
    """A readable report of the turn."""
    s = r.before
    ru = s.rules
    out = [f'furball turn: "{s.name}", turn {s.turn} (seed {r.seed}, reorder policy {r.policy})',
           f"table {s.table_width_mm:g} x {s.table_height_mm:g} mm; ruler {ru.ruler_length_mm:g} mm, "
           f"short range {ru.short_range_mm:g} mm ({ru.provenance})", "",
           "Start of turn: tailing (DF.T1, DF.T3)"]
    out += [f"  {c.chaser} tails {c.target} (ruler {c.distance_mm:.1f} mm)" for c in r.tails] or ["  no tails"]
    for m in r.maneuvers:
        out += ["", f"Maneuver {m.index}"]
        for v in m.reveals:
            change = "keeps its order" if v.before == v.after else \
                f"reorders {','.join(v.before)} -> {','.join(v.after)}"
            out.append(f"  reveal: {v.target} shows {v.shown} to {v.chaser}, who {change} (DF.T2)")
        for mv in m.moves:
            out.append(f"  {mv.plane:<12} {mv.card:<5} {mv.card_name[:22]:<22} {_fmt_pose(mv.start)} -> "
                       f"{_fmt_pose(mv.end)}  alt {mv.altitude}")
            out += [f"      {e}" for e in mv.events]
        out += [f"  {n} leaves the table (DF.E1)" for n in m.left_table]
        for a, b in m.overlaps:
            out.append(f"  overlap: {a} and {b} (DF.O1; they cannot fire at each other, DF.O2)")
        for t in m.collisions:
            if t.balloon:
                out.append(f"  collision: {t.a} and {t.b}: a balloon, unavoidable; each takes a C card (DF.C5)")
                continue
            combos = ", ".join(f"{sa[0].upper()}{sb[0].upper()} {'hit' if hit else 'miss'}"
                               for (sa, sb), hit in t.combinations.items())
            verdict = f"drawn {t.drawn[0]}/{t.drawn[1]}: " + (
                "they collide, each takes an A card (DF.C4)" if t.collided else "no collision")
            out.append(f"  collision test {t.a} / {t.b}: P = {t.probability} ({combos}); {verdict} (DF.C3)")
        if m.shots:
            out += [f"  can fire: {x.shooter} -> {x.target} at {x.range} range ({x.distance_mm:.1f} mm)"
                    for x in m.shots]
        else:
            out.append("  no firing positions")
        out += [f"  autonomous fire: {x.shooter} fires at {x.target} ({x.range} range, DF.A2)"
                for x in m.autonomous_fire]
        for name, events in m.drops:
            out += [f"  {name} {e}" for e in events]
        for c in m.tail_checks:
            out.append(f"  {c.chaser} still tails {c.target}" if c.ok else
                       f"  {c.chaser} loses the tail on {c.target}: {'; '.join(c.reasons)} (DF.T4)")
    out += ["", f"End of turn (state for turn {r.after.turn})"]
    for p in r.after.planes:
        extra = f", bombs {p.bombs}/{p.bombs_at_start}" if p.bombs_at_start else ""
        dmg = f", damage {' '.join(p.damage)}" if p.damage else ""
        out.append(f"  {p.name:<12} {p.side:<10} {_fmt_pose(p.pose)} alt {p.altitude} "
                   f"counters {p.climb_counters}{extra}{dmg} [{p.status}]")
    return "\n".join(out)
