"""The table of a 1975 White Christmas game: the rooftop row with its People and
staircases (face down or revealed), the helicopters in their landing slots with the
People aboard, each player's carrier (its People, helicopters at home, the face-up card),
the influence and score tracks, and the board's action row with the deck under Inspect
— one drawing description (:func:`white_christmas_sketch`, a :class:`~viz.sketch.Sketch`)
that ``furball play white-christmas --plot`` draws with matplotlib and a room's page
draws as SVG.

Drawn in table millimetres with card-sized shapes (rooftop and staircase cards are mini
cards, 44 x 63 mm; carriers five standard cards wide, shrunk). Every shape that stands
for a game object carries an id (``roof:K``, ``stairs:K``, ``slot:NODE``,
``person:PLACE:TYPE``, ``heli:SIDE:MODEL``, ``carrier:SIDE``, ``faceup:SIDE``,
``row:ICON``, ``influence:SIDE``, ``score:SIDE``): tests and tools find it, and a room's
page puts the legal actions on it. Only public values are drawn (an observation draws
the same as the state: staircases face down show ``?``).
"""
from __future__ import annotations

from furball.i18n import ENGLISH, N_
from furball.scenarios.white_christmas.actions import PHASE_NUMBER, Stairs
from furball.scenarios.white_christmas.components import MODELS, PEOPLE, ROW, Icon, words
from furball.scenarios.white_christmas.table import place

from . import style
from .picture import Picture
from .sketch import LegendEntry, Shape, Sketch, circle, line, mark, polygon, rect, text

__all__ = ["white_christmas_sketch", "white_christmas_picture", "PERSON_COLOURS", "side_colour", "card_text", "bonus_words"]

PERSON_COLOURS = {"vietnamese": "#e67e22", "soldier": "#556b2f", "businesswoman": "#8e44ad",
                  "politician": "#2c3e50"}
"""One colour per People type."""
GAME_COLOURS = {"blue": "#1f5fbf", "red": "#c0392b", "green": "#2e8b57", "yellow": "#d4a017"}
CARD_W, CARD_H = 44.0, 63.0          # mini cards: rooftops, staircases
ROOF_PITCH = 150.0
ROW_Y = 150.0
TOKEN_R = 6.0
CARRIER_W, CARRIER_H, CARRIER_PITCH = 150.0, 70.0, 165.0
CARRIER_Y = -40.0
TRACK_Y = 320.0
TRACK_STEP = 18.0
ACTION_Y, ACTION_W, ACTION_H, ACTION_PITCH = -135.0, 112.0, 40.0, 125.0
FONT = style.FONT_SIZE


def side_colour(setup, side: int) -> str:
    """A side's colour: its game colour (blue, red, green, yellow), else the house palette."""
    return GAME_COLOURS.get(setup.colours[side].name, style.colour_for(side))


def card_text(comp, card: int | None) -> str:
    """An action card's name (``-`` for none)."""
    return "-" if card is None else comp.cards[card].name


def bonus_words(bonus, _=ENGLISH) -> str:
    """An influence space's effect (WC.F5) in words, read with ``_`` (``vp``, ``special order``)."""
    if bonus.value == "vp":
        return _("vp")
    return _(words(bonus))


def _token(x: float, y: float, person: str, id: str, r: float = TOKEN_R, where: str = "",
           _=ENGLISH) -> list[Shape]:
    tip = f"{_(person)}{' ' + where if where else ''}"
    return [circle(id, x, y, r, fill=PERSON_COLOURS.get(person, style.NEUTRAL), stroke="#ffffff", width=0.6, z=4,
                   tip=tip),
            text(x, y, _(person)[:1].upper(), font=FONT - 2, colour="white", z=5)]


def _tokens(people, x0: float, y0: float, cols: int, place: str, r: float = TOKEN_R, where: str = "",
            _=ENGLISH) -> list[Shape]:
    out = []
    for j, p in enumerate(people):
        out += _token(x0 + (j % cols) * (2.2 * r), y0 - (j // cols) * (2.2 * r), p, f"person:{place}:{p}", r, where, _)
    return out


def _heli(x: float, y: float, colour: str, label: str, aboard, id: str, night: bool, tip: str,
          _=ENGLISH) -> list[Shape]:
    """A helicopter: a triangle in its side's colour (filled dark at night), its label
    and the People aboard as small tokens (``person:SIDE:MODEL:TYPE``)."""
    out = [polygon(id, [(x - 9, y - 6), (x + 9, y - 6), (x, y + 8)], fill=colour if not night else "#222222",
                   stroke=colour, width=1.6, z=6, tip=tip),
           text(x + 12, y + 2, label, font=FONT - 2, colour=colour, anchor="start", z=6)]
    out += _tokens(aboard, x - 8, y - 12, 4, id[len("heli:"):], r=3.5,
                   where=_("aboard {heli}").format(heli=id[len("heli:"):]), _=_)
    return out


def _people(people, _=ENGLISH, none: str = N_("empty")) -> str:
    """People types, each read through ``_``, joined by commas (``none``'s word if none)."""
    return ", ".join(map(_, people)) or _(none)


def _heli_tip(_, label: str, model, where: str, night: bool, aboard) -> str:
    if night:
        return _("{side}'s {model} {where} (night side), aboard: {people}").format(
            side=label, model=model, where=where, people=_people(aboard, _, N_("nobody")))
    return _("{side}'s {model} {where} (day side), aboard: {people}").format(
        side=label, model=model, where=where, people=_people(aboard, _, N_("nobody")))


def _roofs(o, colours, _=ENGLISH) -> list[Shape]:
    setup, b, table = o.setup, o.board, o.table
    where: dict[str, list[tuple[int, int]]] = {}
    for side, s in enumerate(o.sides):
        for i, node in enumerate(s.at):
            where.setdefault(node, []).append((side, i))
    out = []
    for k, roof in enumerate(table.roofs):   # the row, left to right (WC.G1), staircases on the left (WC.G2)
        x0 = 80.0 + k * ROOF_PITCH
        out.append(rect(f"roof:{k}", x0, ROW_Y, CARD_W, CARD_H, fill=style.TABLE_FILL, stroke=style.TABLE_EDGE,
                        width=1.2, tip=_("{roof}: {n} of {spaces} spaces taken ({people})").format(
                            roof=roof, n=len(b.roofs[k]), spaces=table.spaces[k], people=_people(b.roofs[k], _))))
        out.append(text(x0 + CARD_W / 2, ROW_Y - 6, f"{k + 1}. {roof}", font=FONT - 1, valign="top"))
        out.append(text(x0 + CARD_W - 2, ROW_Y + 3, f"{len(b.roofs[k])}/{table.spaces[k]}", font=FONT - 2,
                        colour=style.NEUTRAL, anchor="end", valign="bottom"))
        out += _tokens(b.roofs[k], x0 + 9, ROW_Y + CARD_H - 10, 3, roof, where=_("on {place}").format(place=roof), _=_)
        if b.stairs_state != Stairs.NONE:
            sx = x0 - CARD_W * 0.8 - 6
            down = b.stairs_state == Stairs.FACE_DOWN
            node = table.stairs[k] if k < len(table.stairs) else f"{roof}: staircase"
            shown = _("face down") if down else _people(b.stairs[k], _)
            out.append(rect(f"stairs:{k}", sx, ROW_Y + 8, CARD_W * 0.8, CARD_H * 0.75,
                            fill="#d9d2c5" if down else "#f7f3ea", stroke=style.TABLE_EDGE, width=0.8, dash=True,
                            tip=_("the staircase of {roof}: {people}").format(roof=roof, people=shown)))
            if down:
                out.append(text(sx + CARD_W * 0.4, ROW_Y + 30, "?", font=FONT + 2, colour=style.NEUTRAL))
            else:
                out += _tokens(b.stairs[k], sx + 9, ROW_Y + CARD_H - 17, 2, node, r=5.0,
                               where=_("on {place}").format(place=place(node, _)), _=_)
        for i, model in enumerate(MODELS):   # WC.G3: CH-46 on the top slot, CH-53 on the bottom
            slot = table.slots[k][i]
            y = ROW_Y + CARD_H + 16 if model == MODELS[1] else ROW_Y - 26
            out.append(mark(f"slot:{slot}", x0 + CARD_W / 2, y, "s", fill="#ffffff", stroke=style.TABLE_EDGE,
                            width=0.8, size=9.0, z=3,
                            tip=_("{slot} ({model} landing slot)").format(slot=place(slot, _), model=model)))
            for side, h in where.get(slot, []):
                s = o.sides[side]
                label = setup.labels[side]
                tip = _heli_tip(_, label, model, _("at {place}").format(place=place(slot, _)), s.night[h], s.aboard[h])
                out += _heli(x0 + CARD_W / 2, y, colours[side], f"{label} {model}", s.aboard[h], f"heli:{label}:{model}",
                             s.night[h], tip, _)
    return out


def _carriers(o, colours, _=ENGLISH) -> list[Shape]:
    setup, table, comp = o.setup, o.table, o.setup.comp
    out = []
    for side, s in enumerate(o.sides):
        label = setup.labels[side]
        x0 = 40.0 + side * CARRIER_PITCH
        ups = ",".join(str(i + 1) for i, u in enumerate(s.upgrades) if u) or "-"
        out.append(rect(f"carrier:{label}", x0, CARRIER_Y, CARRIER_W, CARRIER_H, fill="#eef2f6", stroke=colours[side],
                        width=1.6, tip=_("{side}'s carrier: {n} of {spaces} People spaces; upgrades {upgrades}").format(
                            side=label, n=len(s.carrier), spaces=s.spaces, upgrades=ups)))
        out.append(text(x0 + 4, CARRIER_Y + CARRIER_H - 4,
                        _("{side} ({colour}) VP {vp}").format(side=label, colour=_(setup.colours[side].name), vp=s.vp),
                        font=FONT - 1, colour=colours[side], bold=True, anchor="start", valign="top"))
        out.append(text(x0 + 4, CARRIER_Y + CARRIER_H - 15,
                        _("influence {influence}, upgrades {upgrades}").format(influence=s.influence, upgrades=ups),
                        font=FONT - 2, anchor="start", valign="top"))
        out.append(text(x0 + 4, CARRIER_Y + CARRIER_H - 24,
                        _("People on the carrier {n}/{spaces}").format(n=len(s.carrier), spaces=s.spaces),
                        font=FONT - 2, anchor="start", valign="top"))
        out += _tokens(s.carrier, x0 + 10, CARRIER_Y + 30, 12, f"carrier:{label}", r=5.0,
                       where=_("on {side}'s carrier").format(side=label), _=_)
        if s.faceup is not None:
            out.append(rect(f"faceup:{label}", x0 + CARRIER_W - 40, CARRIER_Y + 3, 37, 18, fill="#fdf2d0",
                            stroke=style.TABLE_EDGE, width=0.6, z=3,
                            tip=_("face up next to {side}'s carrier: {card}").format(
                                side=label, card=_(card_text(comp, s.faceup)))))
            out.append(text(x0 + CARRIER_W - 21.5, CARRIER_Y + 12, _("face up"), font=FONT - 3, z=4))
        own = table.carriers[side]
        for i, model in enumerate(MODELS):
            if s.at[i] == own:
                tip = _heli_tip(_, label, model, _("on its carrier"), s.night[i], s.aboard[i])
                out += _heli(x0 + 20 + 50 * i, CARRIER_Y + 10, colours[side], model, s.aboard[i],
                             f"heli:{label}:{model}", s.night[i], tip, _)
    return out


def _tracks(o, colours, _=ENGLISH) -> list[Shape]:
    setup, comp = o.setup, o.setup.comp
    inf = comp.influence
    out = []
    for pos in range(inf.spaces + 1):   # the influence track (WC.F1, WC.F5)
        x = 40.0 + pos * TRACK_STEP
        bonus = setup.track[pos]
        effect = _("no effect") if bonus.value == "none" else bonus_words(bonus, _)
        out.append(rect("", x, TRACK_Y, TRACK_STEP - 2, 14, fill="#f2e8d5" if pos < inf.threshold else "#e3d3b0",
                        stroke=style.TABLE_EDGE, width=0.5,
                        tip=_("influence space {n}: {effect}").format(n=pos, effect=effect)))
        if bonus.value != "none":
            out.append(text(x + TRACK_STEP / 2 - 1, TRACK_Y + 7, bonus_words(bonus, _)[:3], font=FONT - 3))
    tx = 40.0 + inf.threshold * TRACK_STEP - 1
    out.append(line("", [(tx, TRACK_Y - 3), (tx, TRACK_Y + 17)], stroke=style.COLLISION, width=1.5))
    out.append(text(40.0, TRACK_Y + 20, _("influence (red bar: upgrade-1 threshold)"), font=FONT - 1, anchor="start",
                    valign="bottom"))
    top = max(60, max(s.vp for s in o.sides) + 5)
    scale = (inf.spaces + 1) * TRACK_STEP / top
    score_y = TRACK_Y + 50
    out.append(line("", [(40.0, score_y), (40.0 + top * scale, score_y)], stroke=style.TABLE_EDGE, width=1.0))
    out.append(text(40.0, score_y + 10, _("score (0-{top} VP)").format(top=top), font=FONT - 1, anchor="start",
                    valign="bottom"))
    for side, s in enumerate(o.sides):
        label = setup.labels[side]
        out.append(mark(f"influence:{label}", 40.0 + s.influence * TRACK_STEP + TRACK_STEP / 2 - 1,
                        TRACK_Y - 5 - 4 * side, "v", fill=colours[side], size=6.0, z=5,
                        tip=_("{side}: influence {n}").format(side=label, n=s.influence)))
        out.append(mark(f"score:{label}", 40.0 + s.vp * scale, score_y - 4 - 4 * side, "^", fill=colours[side],
                        size=6.0, z=5, tip=_("{side}: {vp} VP").format(side=label, vp=s.vp)))
    return out


def _action_row(o, _=ENGLISH) -> list[Shape]:
    """The board's action slots (WC.F2): the deck face down under Inspect, then the four
    face-up slots with their cards."""
    b, comp = o.board, o.setup.comp
    out = [text(40.0, ACTION_Y + ACTION_H + 6,
                _("action row (WC.F2): deck {deck}, discard {discard}").format(deck=b.deck, discard=len(b.discard)),
                font=FONT - 1, anchor="start", valign="bottom")]
    slots = [(Icon.INSPECT, None)] + list(zip(ROW, b.row))
    for j, (icon, card) in enumerate(slots):
        x = 40.0 + j * ACTION_PITCH
        if icon == Icon.INSPECT:
            name, fill = _("deck ({n} face down)").format(n=b.deck), "#c9c2b4"
            tip = _("Inspect: the deck's top card face down ({n} cards)").format(n=b.deck)
        else:
            name, fill = _(card_text(comp, card)), "#fdf2d0" if card is not None else "#eeeeee"
            tip = _("{action} slot: {card}").format(action=_(words(icon)), card=name if card is not None else _("empty"))
        out.append(rect(f"row:{icon}", x, ACTION_Y, ACTION_W, ACTION_H, fill=fill, stroke=style.TABLE_EDGE, width=0.8,
                        round=3.0, tip=tip))
        out.append(text(x + ACTION_W / 2, ACTION_Y + ACTION_H - 8, _(words(icon)).upper(), font=FONT - 2, bold=True))
        first, _slash, rest = name.partition(" / ")
        out.append(text(x + ACTION_W / 2, ACTION_Y + 18, first, font=FONT - 3))
        if rest:
            out.append(text(x + ACTION_W / 2, ACTION_Y + 8, rest, font=FONT - 3))
    sighting = _(comp.cessna.name) if b.sighting is None else comp.sightings[b.sighting].label(_)
    out.append(text(40.0, ACTION_Y - 4, _("sighting: {card}").format(card=sighting), font=FONT - 1, anchor="start",
                    valign="top"))
    return out


def white_christmas_sketch(o, _=ENGLISH) -> Sketch:
    """The drawing of a White Christmas position: a :class:`~scenarios.white_christmas.State`
    or any seat's :class:`~scenarios.white_christmas.Observation` (the same drawing: only
    public values are drawn). Ids: see the module docstring. Its words read through
    ``_`` (a reader's :func:`~furball.i18n.translator`; English by default)."""
    setup, b = o.setup, o.board
    if b.over:
        when = _("final position")
    else:
        when = _("round {round}, phase {number} ({phase})").format(round=b.round, number=PHASE_NUMBER[b.phase],
                                                                   phase=_(str(b.phase)))
    if setup.solo:
        who = _("solo against Captain Chambers")
    else:
        who = _("{n} players").format(n=setup.sides)
    title = style.title("white-christmas", "1975 White Christmas", extra=f"{who}, {when}")
    colours = [side_colour(setup, i) for i in range(setup.sides)]
    width = max(80.0 + len(o.table.roofs) * ROOF_PITCH, 40.0 + setup.sides * CARRIER_PITCH,
                40.0 + (setup.comp.influence.spaces + 1) * TRACK_STEP, 40.0 + 5 * ACTION_PITCH)
    extent = (-10.0, width + 20.0, ACTION_Y - 20.0, TRACK_Y + 75.0)
    shapes = _roofs(o, colours, _) + _carriers(o, colours, _) + _tracks(o, colours, _) + _action_row(o, _)
    legend = [LegendEntry(_(p.value), PERSON_COLOURS[p.value], "#ffffff", marker="o") for p in PEOPLE]
    legend += [LegendEntry(_("{side}'s helicopter").format(side=setup.labels[i]), c, marker="^")
               for i, c in enumerate(colours)]
    legend.append(LegendEntry(_("night side"), "#222222", marker="^"))
    legend.append(LegendEntry(_("landing slot"), "#ffffff", style.TABLE_EDGE, marker="s"))
    return Sketch(title, extent, tuple(shapes), tuple(legend), background="#fbf8f2")


def white_christmas_picture(state) -> Picture:
    """The :class:`~viz.picture.Picture` of a White Christmas state (a finished game's
    final state, or any position): :func:`white_christmas_sketch`."""
    from .sketch_draw import sketch_picture

    return sketch_picture(white_christmas_sketch(state))
