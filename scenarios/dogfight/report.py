"""A turn as JSON data (schema: docs/turn-report.schema.json): what ``furball turn
--json`` prints and what the web table receives."""
from __future__ import annotations

from furball.maneuvers.plane import PlaneState

from .turn import TurnResult

__all__ = ["turn_json", "plane_json"]


def plane_json(p: PlaneState) -> dict:
    """A plane's state in a report (mm, degrees)."""
    return {"name": p.name, "side": p.side, "kind": str(p.kind), **p.pose.as_json(), "altitude": p.altitude,
            "climb_counters": p.climb_counters, "bombs": p.bombs, "damage": list(p.damage),
            "status": str(p.status)}


def turn_json(r: TurnResult) -> dict:
    """The turn as JSON-ready data (mm, degrees)."""
    t = r.before
    return {
        "scenario": t.name, "turn": t.turn, "seed": r.seed, "policy": str(r.policy),
        "table": {"width_mm": t.width_mm, "height_mm": t.height_mm},
        "ruler": {"length_mm": t.rules.ruler_length_mm, "short_mm": t.rules.short_range_mm,
                  "provenance": t.rules.provenance},
        "start": {"planes": [plane_json(p) for p in t.planes], "tails": [c.as_json() for c in r.tails],
                  "unmet_wishes": [c.as_json() for c in r.unmet_wishes]},
        "maneuvers": [{
            "index": m.index,
            "reveals": [{"chaser": v.chaser, "target": v.target, "shown": v.shown, "before": list(v.before),
                         "after": list(v.after), "fixed": v.fixed} for v in m.reveals],
            "moves": [{"plane": mv.plane, "card": mv.card, "card_name": mv.card_name, "start": mv.start.as_json(),
                       "end": mv.end.as_json(), "altitude": mv.altitude, "climb_counters": mv.climb_counters,
                       "events": list(mv.events)} for mv in m.moves],
            "left_table": list(m.left_table),
            "overlaps": [list(pair) for pair in m.overlaps],
            "collisions": [t.as_json() for t in m.collisions],
            "shots": [x.as_json() for x in m.shots],
            "autonomous_fire": [x.as_json() for x in m.autonomous_fire],
            "bombs": [{"plane": n, "events": list(ev)} for n, ev in m.drops],
            "tails": [c.as_json() for c in m.tail_checks],
        } for m in r.maneuvers],
        "end": {"turn": r.after.turn, "planes": [plane_json(p) for p in r.after.planes]},
    }
