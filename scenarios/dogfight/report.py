"""A turn as JSON data (schema: docs/turn-report.schema.json) and as text: what
``furball turn --json`` and ``furball turn`` print, what the web table receives, and the
turns of a logged game (``furball play dogfight``)."""
from __future__ import annotations

from furball.i18n import DEFAULT_LANG, N_, Lang, MessageText, plural_translator, render, translator
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


def _special(special, lang: Lang) -> str:
    """A damage special's name (``jammed_gun`` -> ``jammed gun``) in ``lang``."""
    return translator(lang)(str(special).replace("_", " "))


def draw_text(d: DamageDraw, lang: Lang = DEFAULT_LANG) -> str:
    """The draw in words (:meth:`DamageDraw.text`) in ``lang``."""
    _, ngettext = translator(lang), plural_translator(lang)
    if d.card is None:
        return ngettext("burns: {points} damage point (fire, DF.D6)", "burns: {points} damage points (fire, DF.D6)",
                        d.points).format(points=d.points)
    special = ""
    if d.special is not None:
        special = ", " + _special(d.special, lang) + ("" if d.applied else _(" (no effect, DF.C4)"))
    source = {DamageCause.SHOT: _("from {by}'s shot (DF.D3)"),
              DamageCause.COLLISION: _("in the collision with {by} (DF.C4, DF.C5)")}[d.cause].format(by=d.by)
    shuffled = _(" [pile reshuffled, DF.D7]") if d.reshuffled else ""
    return ngettext("takes {card} ({points} point{special}) {source}{shuffled}",
                    "takes {card} ({points} points{special}) {source}{shuffled}", d.points).format(
        card=d.card.id, points=d.points, special=special, source=source, shuffled=shuffled)


def draw_line(d: DamageDraw, hidden: bool = False, lang: Lang = DEFAULT_LANG) -> str:
    """One damage draw as a report line; ``hidden``: as another side sees it (the deck
    letter, and the special only if every side sees it, :data:`VISIBLE_SPECIALS`);
    ``lang``: the reader's language."""
    _ = translator(lang)
    if not hidden:
        return f"  {d.plane} {draw_text(d, lang)}"
    if d.card is None:
        return "  " + _("{plane} burns (fire, DF.D6)").format(plane=d.plane)
    seen = ", " + _special(d.special, lang) if d.applied and d.special in VISIBLE_SPECIALS else ""
    source = {DamageCause.SHOT: _("from {by}'s shot (DF.D3)"),
              DamageCause.COLLISION: _("in the collision with {by} (DF.C4, DF.C5)")}[d.cause].format(by=d.by)
    return "  " + _("{plane} takes a {letter} card{seen} {source}").format(plane=d.plane, letter=d.letter,
                                                                          seen=seen, source=source)


def plane_line(p: PlaneState, hidden: bool = False, lang: Lang = DEFAULT_LANG) -> str:
    """A plane's state at the end of a turn, on one line; ``hidden``: as another side
    sees it (how many damage cards, not their values; visible specials only); ``lang``:
    the reader's language."""
    _, ngettext = translator(lang), plural_translator(lang)
    extra = _(", bombs {bombs}/{bombs_at_start}").format(bombs=p.bombs, bombs_at_start=p.bombs_at_start) \
        if p.bombs_at_start else ""
    if hidden:
        dmg = ngettext(", {count} damage card", ", {count} damage cards", len(p.damage)).format(
            count=len(p.damage)) if p.damage else ""
    else:
        dmg = _(", damage {taken}/{points}").format(taken=p.damage_taken, points=p.damage_points) + (
            f" ({' '.join(p.damage)})" if p.damage else "")
    effects = "".join(_(", {special} ({left} more)").format(special=_special(e.special, lang), left=e.maneuvers_left)
                      for e in p.effects if not hidden or e.special in VISIBLE_SPECIALS)
    return f"  {p.name:<12} {p.side:<10} {_fmt_pose(p.pose)} " + _(
        "alt {altitude} counters {counters}{extra}{damage}{effects} [{status}]").format(
        altitude=p.altitude, counters=p.climb_counters, extra=extra, damage=dmg, effects=effects,
        status=_(str(p.status)))


WORDS = (N_("flying"), N_("landed"), N_("out"), N_("destroyed"), N_("explosion"), N_("fire"), N_("smoke"),
         N_("jammed gun"), N_("engine"), N_("rudder"), N_("pilot wounded"), N_("short"), N_("long"), N_("keep"),
         N_("best"))
"""The values the report writes as words (a plane's status, a damage special, a range, a
reorder policy), for the catalog: they are read through it where they are written."""


def turn_lines(r: TurnResult, header: bool = True, viewer: str | None = None, lang: Lang = DEFAULT_LANG) -> list[str]:
    """A readable report of the turn, as lines (``header``: the scenario, seed and
    table lines first). ``viewer``: a side: the report as that side may see it — other
    sides' damage values and hidden specials, and other sides' chasers' planned orders
    before a reveal (DF.T2), are left out. ``lang``: the reader's language (English: the
    golden logs' text)."""
    _ = translator(lang)
    t = r.before
    ru = t.rules
    side = {p.name: p.side for p in t.planes}

    def hidden(name: str) -> bool:
        return viewer is not None and side[name] != viewer

    def reasons(items) -> str:
        return "; ".join(x.words(lang) + f" ({x.rule})" for x in items)

    out = []
    if header:
        out = [_('furball turn: "{scenario}", turn {turn} (seed {seed}, reorder policy {policy})').format(
                   scenario=t.name, turn=t.turn, seed=r.seed, policy=_(str(r.policy))),
               _("table {width:g} x {height:g} mm; ruler {ruler:g} mm, short range {short:g} mm ({provenance}); "
                 "damage decks {decks} ({deck_provenance})").format(
                   width=t.width_mm, height=t.height_mm, ruler=ru.ruler_length_mm, short=ru.short_range_mm,
                   provenance=_(ru.provenance), decks=", ".join(d.letter for d in t.damage_decks),
                   deck_provenance=", ".join(_(x) for x in sorted({d.provenance for d in t.damage_decks}))),
               ""]
    out.append(_("Start of turn: tailing (DF.T1, DF.T3)"))
    out += ["  " + _("{chaser} tails {target} (ruler {distance_mm:.1f} mm)").format(
        chaser=c.chaser, target=c.target, distance_mm=c.distance_mm) for c in r.tails] or ["  " + _("no tails")]
    out += ["  " + _("{chaser} asked to tail {target} but cannot, so tails nobody: {reasons}").format(
        chaser=c.chaser, target=c.target, reasons=reasons(c.reasons)) for c in r.unmet_wishes]
    for m in r.maneuvers:
        out += ["", _("Maneuver {index}").format(index=m.index)]
        for v in m.reveals:
            if hidden(v.chaser):
                out.append("  " + _("reveal: {target} shows its next card to {chaser} (DF.T2)").format(
                    target=v.target, chaser=v.chaser))
                continue
            change = _("keeps its order") if v.before == v.after else \
                _("reorders {before} -> {after}").format(before=",".join(v.before), after=",".join(v.after))
            fixed = _(" (its own next card is fixed: it showed it in a cycle of tails)") if v.fixed else ""
            out.append("  " + _("reveal: {target} shows {card} to {chaser}, who {change}{fixed} (DF.T2)").format(
                target=v.target, card=v.shown, chaser=v.chaser, change=change, fixed=fixed))
        for mv in m.moves:
            out.append(f"  {mv.plane:<12} {mv.card:<5} {_(mv.card_name)[:22]:<22} {_fmt_pose(mv.start)} -> "
                       f"{_fmt_pose(mv.end)}  " + _("alt {altitude}").format(altitude=mv.altitude))
            out += [f"      {_event(e, lang)}" for e in mv.events]
        out += ["  " + _("{plane} leaves the table (DF.E1)").format(plane=n) for n in m.left_table]
        for a, b in m.overlaps:
            out.append("  " + _("overlap: {a} and {b} (DF.O1; they cannot fire at each other, DF.O2)").format(a=a, b=b))
        exploded = {x.plane for x in m.lost if x.reason == LossReason.EXPLOSION}
        for c in m.collisions:
            if c.balloon:
                out.append("  " + _("collision: {a} and {b}: a balloon, unavoidable; each takes a C card (DF.C5)")
                           .format(a=c.a, b=c.b))
            else:
                combos = ", ".join(f"{sa}/{sb} {_('hit') if hit else _('miss')}"
                                   for (sa, sb), hit in c.combinations.items())
                verdict = _("drawn {a}/{b}: ").format(a=c.drawn[0], b=c.drawn[1]) + (
                    _("they collide, each takes an A card (DF.C4)") if c.collided else _("no collision"))
                out.append("  " + _("collision test {a} / {b}: P = {p} ({combos}); {verdict} (DF.C3)").format(
                    a=c.a, b=c.b, p=c.probability, combos=combos, verdict=verdict))
        out += _draws(m.damage, DamageCause.COLLISION, exploded, hidden, lang)
        if m.shots:
            out += ["  " + _("can fire: {shooter} -> {target} at {range} range ({distance_mm:.1f} mm)").format(
                shooter=x.shooter, target=x.target, range=_(str(x.range)), distance_mm=x.distance_mm)
                for x in m.shots]
        else:
            out.append("  " + _("no firing positions"))
        out += ["  " + _("autonomous fire: {shooter} fires gun {gun} at {target} ({range} range, DF.A2)").format(
            shooter=x.shooter, gun=x.arc + 1, target=x.target, range=_(str(x.range))) for x in m.autonomous_fire]
        out += ["  " + _("fires: {shooter} gun {gun} at {target} ({range} range, DF.D3)").format(
            shooter=x.shooter, gun=x.arc + 1, target=x.target, range=_(str(x.range))) for x in m.fire]
        out += _draws(m.damage, DamageCause.SHOT, exploded, hidden, lang)
        for name, events in m.drops:
            out += [f"  {name} {_event(e, lang)}" for e in events]
        out += _draws(m.damage, DamageCause.FIRE, exploded, hidden, lang)
        end = {p.name: p for p in m.planes}
        for x in m.lost:
            if x.reason == LossReason.DAMAGE and hidden(x.plane):
                out.append("  " + _("{plane} is destroyed (DF.D5)").format(plane=x.plane))
            elif x.reason == LossReason.DAMAGE:
                p = end[x.plane]
                out.append("  " + _("{plane} is destroyed: damage {taken} reached its {points} damage points "
                                    "(DF.D5)").format(plane=x.plane, taken=p.damage_taken, points=p.damage_points))
        for c in m.tail_checks:
            out.append("  " + (_("{chaser} still tails {target}") if c.ok else
                               _("{chaser} loses the tail on {target}: {reasons} (DF.T4)")).format(
                chaser=c.chaser, target=c.target, reasons=reasons(c.reasons)))
    out += ["", _("End of turn (state for turn {turn})").format(turn=r.after.turn)]
    out += [plane_line(p, hidden(p.name), lang) for p in r.after.planes]
    if r.after.piles:
        out.append("  " + _("damage piles: ") + ", ".join(
            _("{letter} {count} cards").format(letter=letter, count=len(pile)) for letter, pile in r.after.piles))
    return out


def _event(text: str, lang: Lang) -> str:
    """A move's or a bomb drop's rule event in ``lang`` (its message where it keeps one,
    :class:`~furball.i18n.MessageText`; else the text through the catalog)."""
    return render(text, lang) if isinstance(text, MessageText) else translator(lang)(text)


def _draws(draws, cause: DamageCause, exploded: set, hidden, lang: Lang) -> list[str]:
    out = []
    for d in draws:
        if d.cause != cause:
            continue
        out.append(draw_line(d, hidden(d.plane), lang))
        if d.applied and d.plane in exploded and d.special == Special.EXPLOSION:
            out.append("  " + translator(lang)("{plane} explodes: destroyed at once (DF.D5)").format(plane=d.plane))
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


def replay_json(r: TurnResult, viewer: str | None = None, lang: Lang = DEFAULT_LANG) -> dict:
    """The turn as a page replays it, as side ``viewer`` may see it (``None``: all of it;
    :data:`NOBODY`: what every side sees), its texts (``lines``, a draw's ``text``) in
    ``lang``. Millimetres and degrees.

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
        row["text"] = draw_line(d, hidden(d.plane), lang).strip()
        return row

    sections = _sections(turn_lines(r, header=False, viewer=viewer, lang=lang))
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


def turn_text(r: TurnResult, lang: Lang = DEFAULT_LANG) -> str:
    """A readable report of the turn (what ``furball turn`` prints), in ``lang``."""
    return "\n".join(turn_lines(r, lang=lang))
