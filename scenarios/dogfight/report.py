"""A turn as JSON data (schema: docs/turn-report.schema.json) and as text: what
``furball turn --json`` and ``furball turn`` print, what the web table receives, and the
turns of a logged game (``furball play dogfight``)."""
from __future__ import annotations

from furball.maneuvers.damage import Special
from furball.maneuvers.plane import PlaneState

from .damage import DamageCause, DamageDraw, LossReason
from .turn import TurnResult

__all__ = ["turn_json", "plane_json", "turn_text", "turn_lines", "plane_line", "draw_line", "VISIBLE_SPECIALS",
           "seen_plane_json", "replay_json", "NOBODY"]

VISIBLE_SPECIALS = frozenset({Special.EXPLOSION, Special.FIRE, Special.SMOKE})
"""Specials every side sees when they strike (an explosion, flames, a smoke trail); the
others (a jammed gun, engine, rudder, a wounded pilot), like every card's value, only
the side of the plane hit (docs/dogfight.md)."""


def plane_json(p: PlaneState) -> dict:
    """A plane's state in a report (mm, degrees; damage DF.D2, DF.D5, DF.D6)."""
    return {"name": p.name, "side": p.side, "kind": str(p.kind), **p.pose.as_json(), "altitude": p.altitude,
            "climb_counters": p.climb_counters, "bombs": p.bombs, "damage": list(p.damage),
            "damage_taken": p.damage_taken, "damage_points": p.damage_points,
            "guns": {str(g): letter for g, letter in p.guns},
            "effects": [e.as_json() for e in p.effects], "status": str(p.status)}


def turn_json(r: TurnResult) -> dict:
    """The turn as JSON-ready data (mm, degrees)."""
    t = r.before
    return {
        "scenario": t.name, "turn": t.turn, "seed": r.seed, "policy": str(r.policy),
        "table": {"width_mm": t.width_mm, "height_mm": t.height_mm},
        "ruler": {"length_mm": t.rules.ruler_length_mm, "short_mm": t.rules.short_range_mm,
                  "provenance": t.rules.provenance},
        "damage_decks": [d.as_json() for d in t.damage_decks],
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
            "fire": [x.as_json() for x in m.fire],
            "damage": [d.as_json() for d in m.damage],
            "lost": [x.as_json() for x in m.lost],
            "bombs": [{"plane": n, "events": list(ev)} for n, ev in m.drops],
            "tails": [c.as_json() for c in m.tail_checks],
        } for m in r.maneuvers],
        "end": {"turn": r.after.turn, "planes": [plane_json(p) for p in r.after.planes],
                "piles": {letter: len(pile) for letter, pile in r.after.piles}},
    }


def _fmt_pose(p) -> str:
    return f"({p.x_mm:7.1f}, {p.y_mm:7.1f}, {p.heading_deg:5.1f}°)"


def draw_line(d: DamageDraw, hidden: bool = False) -> str:
    """One damage draw as a report line; ``hidden``: as another side sees it (the deck
    letter, and the special only if every side sees it, :data:`VISIBLE_SPECIALS`)."""
    if not hidden:
        return f"  {d.plane} {d.text()}"
    if d.card is None:
        return f"  {d.plane} burns (fire, DF.D6)"
    seen = f", {str(d.special).replace('_', ' ')}" if d.applied and d.special in VISIBLE_SPECIALS else ""
    source = {DamageCause.SHOT: f"from {d.by}'s shot (DF.D3)",
              DamageCause.COLLISION: f"in the collision with {d.by} (DF.C4, DF.C5)"}[d.cause]
    return f"  {d.plane} takes a {d.letter} card{seen} {source}"


def plane_line(p: PlaneState, hidden: bool = False) -> str:
    """A plane's state at the end of a turn, on one line; ``hidden``: as another side
    sees it (how many damage cards, not their values; visible specials only)."""
    extra = f", bombs {p.bombs}/{p.bombs_at_start}" if p.bombs_at_start else ""
    if hidden:
        dmg = f", {len(p.damage)} damage card{'s' * (len(p.damage) != 1)}" if p.damage else ""
    else:
        dmg = f", damage {p.damage_taken}/{p.damage_points}" + (f" ({' '.join(p.damage)})" if p.damage else "")
    effects = "".join(f", {str(e.special).replace('_', ' ')} ({e.maneuvers_left} more)" for e in p.effects
                      if not hidden or e.special in VISIBLE_SPECIALS)
    return (f"  {p.name:<12} {p.side:<10} {_fmt_pose(p.pose)} alt {p.altitude} "
            f"counters {p.climb_counters}{extra}{dmg}{effects} [{p.status}]")


def turn_lines(r: TurnResult, header: bool = True, viewer: str | None = None) -> list[str]:
    """A readable report of the turn, as lines (``header``: the scenario, seed and
    table lines first). ``viewer``: a side: the report as that side may see it — other
    sides' damage values and hidden specials, and other sides' chasers' planned orders
    before a reveal (DF.T2), are left out."""
    t = r.before
    ru = t.rules
    side = {p.name: p.side for p in t.planes}

    def hidden(name: str) -> bool:
        return viewer is not None and side[name] != viewer

    out = []
    if header:
        out = [f'furball turn: "{t.name}", turn {t.turn} (seed {r.seed}, reorder policy {r.policy})',
               f"table {t.width_mm:g} x {t.height_mm:g} mm; ruler {ru.ruler_length_mm:g} mm, "
               f"short range {ru.short_range_mm:g} mm ({ru.provenance}); damage decks "
               f"{', '.join(d.letter for d in t.damage_decks)} ({', '.join(sorted({d.provenance for d in t.damage_decks}))})",
               ""]
    out.append("Start of turn: tailing (DF.T1, DF.T3)")
    out += [f"  {c.chaser} tails {c.target} (ruler {c.distance_mm:.1f} mm)" for c in r.tails] or ["  no tails"]
    out += [f"  {c.chaser} asked to tail {c.target} but cannot, so tails nobody: "
            f"{'; '.join(map(str, c.reasons))}" for c in r.unmet_wishes]
    for m in r.maneuvers:
        out += ["", f"Maneuver {m.index}"]
        for v in m.reveals:
            if hidden(v.chaser):
                out.append(f"  reveal: {v.target} shows its next card to {v.chaser} (DF.T2)")
                continue
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
        exploded = {x.plane for x in m.lost if x.reason == LossReason.EXPLOSION}
        for c in m.collisions:
            if c.balloon:
                out.append(f"  collision: {c.a} and {c.b}: a balloon, unavoidable; each takes a C card (DF.C5)")
            else:
                combos = ", ".join(f"{sa}/{sb} {'hit' if hit else 'miss'}"
                                   for (sa, sb), hit in c.combinations.items())
                verdict = f"drawn {c.drawn[0]}/{c.drawn[1]}: " + (
                    "they collide, each takes an A card (DF.C4)" if c.collided else "no collision")
                out.append(f"  collision test {c.a} / {c.b}: P = {c.probability} ({combos}); {verdict} (DF.C3)")
        out += _draws(m.damage, DamageCause.COLLISION, exploded, hidden)
        if m.shots:
            out += [f"  can fire: {x.shooter} -> {x.target} at {x.range} range ({x.distance_mm:.1f} mm)"
                    for x in m.shots]
        else:
            out.append("  no firing positions")
        out += [f"  autonomous fire: {x.shooter} fires gun {x.arc + 1} at {x.target} ({x.range} range, DF.A2)"
                for x in m.autonomous_fire]
        out += [f"  fires: {x.shooter} gun {x.arc + 1} at {x.target} ({x.range} range, DF.D3)" for x in m.fire]
        out += _draws(m.damage, DamageCause.SHOT, exploded, hidden)
        for name, events in m.drops:
            out += [f"  {name} {e}" for e in events]
        out += _draws(m.damage, DamageCause.FIRE, exploded, hidden)
        end = {p.name: p for p in m.planes}
        for x in m.lost:
            if x.reason == LossReason.DAMAGE and hidden(x.plane):
                out.append(f"  {x.plane} is destroyed (DF.D5)")
            elif x.reason == LossReason.DAMAGE:
                p = end[x.plane]
                out.append(f"  {x.plane} is destroyed: damage {p.damage_taken} reached its {p.damage_points} "
                           f"damage points (DF.D5)")
        for c in m.tail_checks:
            out.append(f"  {c.chaser} still tails {c.target}" if c.ok else
                       f"  {c.chaser} loses the tail on {c.target}: {'; '.join(map(str, c.reasons))} (DF.T4)")
    out += ["", f"End of turn (state for turn {r.after.turn})"]
    out += [plane_line(p, hidden(p.name)) for p in r.after.planes]
    if r.after.piles:
        out.append("  damage piles: " + ", ".join(f"{letter} {len(pile)} cards" for letter, pile in r.after.piles))
    return out


def _draws(draws, cause: DamageCause, exploded: set, hidden) -> list[str]:
    out = []
    for d in draws:
        if d.cause != cause:
            continue
        out.append(draw_line(d, hidden(d.plane)))
        if d.applied and d.plane in exploded and d.special == Special.EXPLOSION:
            out.append(f"  {d.plane} explodes: destroyed at once (DF.D5)")
    return out


NOBODY = ""
"""The ``viewer`` of :func:`replay_json` that belongs to no side: everything any side
keeps to itself is hidden (what a spectator sees)."""


def seen_plane_json(p: PlaneState, hidden: bool) -> dict:
    """:func:`plane_json` of ``p``; ``hidden``: as another side sees it — its damage
    cards as ``"?"`` (how many, not which), ``damage_taken`` ``None`` and only the
    specials every side sees (:data:`VISIBLE_SPECIALS`)."""
    row = plane_json(p)
    if hidden:
        row.update(damage=["?"] * len(p.damage), damage_taken=None,
                   effects=[e.as_json() for e in p.effects if e.special in VISIBLE_SPECIALS])
    return row


def _sections(lines: list[str]) -> list[list[str]]:
    """:func:`turn_lines` cut at its blank lines: the start, each maneuver, the end."""
    out: list[list[str]] = [[]]
    for line in lines:
        if line == "":
            out.append([])
        else:
            out[-1].append(line)
    return out


def replay_json(r: TurnResult, viewer: str | None = None) -> dict:
    """The turn as a page replays it, as side ``viewer`` may see it (``None``: all of it;
    :data:`NOBODY`: what every side sees). Millimetres and degrees.

    ``turn``; ``start``: ``planes`` (:func:`seen_plane_json`), ``tails``, ``lines``;
    ``maneuvers``: per maneuver its ``index``, ``reveals`` (DF.T2: ``chaser``,
    ``target``, and ``shown``, ``before``, ``after`` only for the chaser's side, else
    ``None``), ``moves`` (``plane``, ``card``, ``card_name``, ``start``, ``end``,
    ``altitude``: the flown cards are public once the turn is flown), ``left_table``,
    ``overlaps``, ``collisions``, ``shots`` (firing positions), ``fire`` (shots fired,
    DF.D3), ``damage`` (each card drawn: ``plane``, ``cause``, ``by``, ``letter``, and
    ``card``, ``points``, ``special`` as that side may see them), ``lost``, ``tails``,
    ``planes`` after it, and its report ``lines`` (:func:`turn_lines` for ``viewer``);
    ``end``: ``turn``, ``planes``, ``lines``. The game's seed is not in it."""
    side = {p.name: p.side for p in r.before.planes}

    def hidden(name: str) -> bool:
        return viewer is not None and side.get(name) != viewer

    def planes(ps) -> list[dict]:
        return [seen_plane_json(p, hidden(p.name)) for p in ps]

    def draw(d) -> dict:
        row = d.as_json()
        if hidden(d.plane):
            seen = d.applied and d.special in VISIBLE_SPECIALS
            row.update(card=None, points=None, special=str(d.special) if seen else None, applied=seen,
                       reshuffled=None)
        row["text"] = draw_line(d, hidden(d.plane)).strip()
        return row

    sections = _sections(turn_lines(r, header=False, viewer=viewer))
    maneuvers = []
    for k, m in enumerate(r.maneuvers):
        reveals = [{"chaser": v.chaser, "target": v.target, "shown": None if hidden(v.chaser) else v.shown,
                    "before": None if hidden(v.chaser) else list(v.before),
                    "after": None if hidden(v.chaser) else list(v.after),
                    "fixed": None if hidden(v.chaser) else v.fixed} for v in m.reveals]
        maneuvers.append({
            "index": m.index, "reveals": reveals,
            "moves": [{"plane": mv.plane, "card": mv.card, "card_name": mv.card_name, "start": mv.start.as_json(),
                       "end": mv.end.as_json(), "altitude": mv.altitude} for mv in m.moves],
            "left_table": list(m.left_table), "overlaps": [list(pair) for pair in m.overlaps],
            "collisions": [c.as_json() for c in m.collisions], "shots": [x.as_json() for x in m.shots],
            "fire": [x.as_json() for x in m.fire], "damage": [draw(d) for d in m.damage],
            "lost": [x.as_json() for x in m.lost], "tails": [c.as_json() for c in m.tail_checks],
            "planes": planes(m.planes), "lines": sections[k + 1][1:] if k + 1 < len(sections) else []})
    return {"turn": r.before.turn,
            "start": {"planes": planes(r.before.planes), "tails": [c.as_json() for c in r.tails],
                      "lines": sections[0][1:]},
            "maneuvers": maneuvers,
            "end": {"turn": r.after.turn, "planes": planes(r.after.planes), "lines": sections[-1][1:]}}


def turn_text(r: TurnResult) -> str:
    """A readable report of the turn (what ``furball turn`` prints)."""
    return "\n".join(turn_lines(r))
