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

The drawing is made of parts (each rooftop, each carrier, the tracks, the action row's
slots), each a function of the public values it draws; a room's server asks for the
sketch's JSON text (:func:`white_christmas_sketch_text`), each part's text kept in a
bounded cache keyed by those values, since a move changes a part or two (issue 36).
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

from furball.i18n import ENGLISH, N_
from furball.scenarios.white_christmas.actions import PHASE_NUMBER, Stairs
from furball.scenarios.white_christmas.components import MODELS, PEOPLE, ROW, Icon, words
from furball.scenarios.white_christmas.table import place

from . import style
from .picture import Picture
from .sketch import LegendEntry, Shape, Sketch, circle, json_kept, line, mark, polygon, rect, text

__all__ = ["white_christmas_sketch", "white_christmas_sketch_text", "white_christmas_picture", "PERSON_COLOURS", "side_colour", "card_text", "bonus_words"]

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


def _roof(k: int, roof: str, spaces: int, people: tuple, stairs_state: Stairs, stairs_node: str, stairs_people: tuple,
          slots: tuple[str, ...], helis: tuple, _=ENGLISH) -> list[Shape]:
    """Rooftop ``k`` of the row (WC.G1): its card with ``people`` of ``spaces``, its
    staircase on its left (WC.G2; ``stairs_people``: what a revealed one shows, ``()``
    face down) and its landing slots (WC.G3: CH-46 on the top slot, CH-53 on the
    bottom), each with the helicopters there (``helis``: per slot, each helicopter's
    ``(label, colour, night, aboard)``)."""
    x0 = 80.0 + k * ROOF_PITCH
    out = [rect(f"roof:{k}", x0, ROW_Y, CARD_W, CARD_H, fill=style.TABLE_FILL, stroke=style.TABLE_EDGE, width=1.2,
                tip=_("{roof}: {n} of {spaces} spaces taken ({people})").format(
                    roof=roof, n=len(people), spaces=spaces, people=_people(people, _))),
           text(x0 + CARD_W / 2, ROW_Y - 6, f"{k + 1}. {roof}", font=FONT - 1, valign="top"),
           text(x0 + CARD_W - 2, ROW_Y + 3, f"{len(people)}/{spaces}", font=FONT - 2, colour=style.NEUTRAL,
                anchor="end", valign="bottom")]
    out += _tokens(people, x0 + 9, ROW_Y + CARD_H - 10, 3, roof, where=_("on {place}").format(place=roof), _=_)
    if stairs_state != Stairs.NONE:
        sx = x0 - CARD_W * 0.8 - 6
        down = stairs_state == Stairs.FACE_DOWN
        shown = _("face down") if down else _people(stairs_people, _)
        out.append(rect(f"stairs:{k}", sx, ROW_Y + 8, CARD_W * 0.8, CARD_H * 0.75,
                        fill="#d9d2c5" if down else "#f7f3ea", stroke=style.TABLE_EDGE, width=0.8, dash=True,
                        tip=_("the staircase of {roof}: {people}").format(roof=roof, people=shown)))
        if down:
            out.append(text(sx + CARD_W * 0.4, ROW_Y + 30, "?", font=FONT + 2, colour=style.NEUTRAL))
        else:
            out += _tokens(stairs_people, sx + 9, ROW_Y + CARD_H - 17, 2, stairs_node, r=5.0,
                           where=_("on {place}").format(place=place(stairs_node, _)), _=_)
    for i, model in enumerate(MODELS):
        slot = slots[i]
        y = ROW_Y + CARD_H + 16 if model == MODELS[1] else ROW_Y - 26
        out.append(mark(f"slot:{slot}", x0 + CARD_W / 2, y, "s", fill="#ffffff", stroke=style.TABLE_EDGE,
                        width=0.8, size=9.0, z=3,
                        tip=_("{slot} ({model} landing slot)").format(slot=place(slot, _), model=model)))
        for label, colour, night, aboard in helis[i]:
            tip = _heli_tip(_, label, model, _("at {place}").format(place=place(slot, _)), night, aboard)
            out += _heli(x0 + CARD_W / 2, y, colour, f"{label} {model}", aboard, f"heli:{label}:{model}", night, tip, _)
    return out


def _roofs(o, colours, _=ENGLISH) -> list[tuple]:
    """:func:`_roof`'s arguments for each rooftop, left to right (WC.G1): the public
    values it draws, nothing else (a face-down staircase's People are left out)."""
    setup, b, table = o.setup, o.board, o.table
    where: dict[str, list[tuple]] = {}
    for side, s in enumerate(o.sides):
        for i, node in enumerate(s.at):
            where.setdefault(node, []).append((setup.labels[side], colours[side], s.night[i], s.aboard[i]))
    revealed = b.stairs_state not in (Stairs.NONE, Stairs.FACE_DOWN)
    return [(k, roof, table.spaces[k], b.roofs[k], b.stairs_state,
             table.stairs[k] if k < len(table.stairs) else f"{roof}: staircase", b.stairs[k] if revealed else (),
             tuple(table.slots[k][:len(MODELS)]), tuple(tuple(where.get(slot, ())) for slot in table.slots[k][:len(MODELS)]),
             _)
            for k, roof in enumerate(table.roofs)]


def _carrier(side: int, label: str, colour: str, colour_name: str, people: tuple, spaces: int, upgrades: tuple,
             vp: int, influence: int, faceup: str | None, home: tuple, _=ENGLISH) -> list[Shape]:
    """Side ``side``'s carrier: its ``people`` of ``spaces``, ``upgrades``, ``vp`` and
    ``influence``, the ``faceup`` card's name (``None``: none) and the helicopters at
    home (``home``: per model, ``(night, aboard)`` if it is on the carrier, else ``None``)."""
    x0 = 40.0 + side * CARRIER_PITCH
    ups = ",".join(str(i + 1) for i, u in enumerate(upgrades) if u) or "-"
    out = [rect(f"carrier:{label}", x0, CARRIER_Y, CARRIER_W, CARRIER_H, fill="#eef2f6", stroke=colour,
                width=1.6, tip=_("{side}'s carrier: {n} of {spaces} People spaces; upgrades {upgrades}").format(
                    side=label, n=len(people), spaces=spaces, upgrades=ups)),
           text(x0 + 4, CARRIER_Y + CARRIER_H - 4,
                _("{side} ({colour}) VP {vp}").format(side=label, colour=_(colour_name), vp=vp),
                font=FONT - 1, colour=colour, bold=True, anchor="start", valign="top"),
           text(x0 + 4, CARRIER_Y + CARRIER_H - 15,
                _("influence {influence}, upgrades {upgrades}").format(influence=influence, upgrades=ups),
                font=FONT - 2, anchor="start", valign="top"),
           text(x0 + 4, CARRIER_Y + CARRIER_H - 24,
                _("People on the carrier {n}/{spaces}").format(n=len(people), spaces=spaces),
                font=FONT - 2, anchor="start", valign="top")]
    out += _tokens(people, x0 + 10, CARRIER_Y + 30, 12, f"carrier:{label}", r=5.0,
                   where=_("on {side}'s carrier").format(side=label), _=_)
    if faceup is not None:
        out.append(rect(f"faceup:{label}", x0 + CARRIER_W - 40, CARRIER_Y + 3, 37, 18, fill="#fdf2d0",
                        stroke=style.TABLE_EDGE, width=0.6, z=3,
                        tip=_("face up next to {side}'s carrier: {card}").format(side=label, card=_(faceup))))
        out.append(text(x0 + CARRIER_W - 21.5, CARRIER_Y + 12, _("face up"), font=FONT - 3, z=4))
    for i, model in enumerate(MODELS):
        if home[i] is not None:
            night, aboard = home[i]
            tip = _heli_tip(_, label, model, _("on its carrier"), night, aboard)
            out += _heli(x0 + 20 + 50 * i, CARRIER_Y + 10, colour, model, aboard, f"heli:{label}:{model}", night, tip, _)
    return out


def _carriers(o, colours, _=ENGLISH) -> list[tuple]:
    """:func:`_carrier`'s arguments for each side."""
    setup, table, comp = o.setup, o.table, o.setup.comp
    return [(side, setup.labels[side], colours[side], setup.colours[side].name, s.carrier, s.spaces, s.upgrades, s.vp,
             s.influence, None if s.faceup is None else card_text(comp, s.faceup),
             tuple((s.night[i], s.aboard[i]) if s.at[i] == table.carriers[side] else None for i in range(len(MODELS))),
             _)
            for side, s in enumerate(o.sides)]


def _influence_track(track: tuple, spaces: int, threshold: int, _=ENGLISH) -> list[Shape]:
    """The influence track's spaces with their effects (WC.F1, WC.F5) and the upgrade-1
    ``threshold``: the same all game."""
    out = []
    for pos in range(spaces + 1):
        x = 40.0 + pos * TRACK_STEP
        bonus = track[pos]
        effect = _("no effect") if bonus.value == "none" else bonus_words(bonus, _)
        out.append(rect("", x, TRACK_Y, TRACK_STEP - 2, 14, fill="#f2e8d5" if pos < threshold else "#e3d3b0",
                        stroke=style.TABLE_EDGE, width=0.5,
                        tip=_("influence space {n}: {effect}").format(n=pos, effect=effect)))
        if bonus.value != "none":
            out.append(text(x + TRACK_STEP / 2 - 1, TRACK_Y + 7, bonus_words(bonus, _)[:3], font=FONT - 3))
    tx = 40.0 + threshold * TRACK_STEP - 1
    out.append(line("", [(tx, TRACK_Y - 3), (tx, TRACK_Y + 17)], stroke=style.COLLISION, width=1.5))
    out.append(text(40.0, TRACK_Y + 20, _("influence (red bar: upgrade-1 threshold)"), font=FONT - 1, anchor="start",
                    valign="bottom"))
    return out


def _scores(labels: tuple, colours: tuple, influence: tuple, vp: tuple, spaces: int, _=ENGLISH) -> list[Shape]:
    """The score track and every side's markers on both tracks (``influence``, ``vp``: per side)."""
    top = max(60, max(vp) + 5)
    scale = (spaces + 1) * TRACK_STEP / top
    score_y = TRACK_Y + 50
    out = [line("", [(40.0, score_y), (40.0 + top * scale, score_y)], stroke=style.TABLE_EDGE, width=1.0),
           text(40.0, score_y + 10, _("score (0-{top} VP)").format(top=top), font=FONT - 1, anchor="start",
                valign="bottom")]
    for side, label in enumerate(labels):
        out.append(mark(f"influence:{label}", 40.0 + influence[side] * TRACK_STEP + TRACK_STEP / 2 - 1,
                        TRACK_Y - 5 - 4 * side, "v", fill=colours[side], size=6.0, z=5,
                        tip=_("{side}: influence {n}").format(side=label, n=influence[side])))
        out.append(mark(f"score:{label}", 40.0 + vp[side] * scale, score_y - 4 - 4 * side, "^", fill=colours[side],
                        size=6.0, z=5, tip=_("{side}: {vp} VP").format(side=label, vp=vp[side])))
    return out


def _deck(deck: int, discard: int, _=ENGLISH) -> list[Shape]:
    """The action row's heading and its first slot (WC.F2): the deck face down under
    Inspect (``deck`` cards; ``discard``: the discard pile's)."""
    name = _("deck ({n} face down)").format(n=deck)
    return [text(40.0, ACTION_Y + ACTION_H + 6,
                 _("action row (WC.F2): deck {deck}, discard {discard}").format(deck=deck, discard=discard),
                 font=FONT - 1, anchor="start", valign="bottom"),
            *_action_slot(0, Icon.INSPECT, name, "#c9c2b4",
                          _("Inspect: the deck's top card face down ({n} cards)").format(n=deck), _)]


def _row_slot(j: int, icon: Icon, card: str, filled: bool, _=ENGLISH) -> list[Shape]:
    """Face-up slot ``j`` (1-4) of the action row (WC.F2) with its ``card`` (its name,
    :func:`card_text`; ``filled``: whether it holds one)."""
    name = _(card)
    tip = _("{action} slot: {card}").format(action=_(words(icon)), card=name if filled else _("empty"))
    return _action_slot(j, icon, name, "#fdf2d0" if filled else "#eeeeee", tip, _)


def _action_slot(j: int, icon: Icon, name: str, fill: str, tip: str, _=ENGLISH) -> list[Shape]:
    x = 40.0 + j * ACTION_PITCH
    out = [rect(f"row:{icon}", x, ACTION_Y, ACTION_W, ACTION_H, fill=fill, stroke=style.TABLE_EDGE, width=0.8,
                round=3.0, tip=tip),
           text(x + ACTION_W / 2, ACTION_Y + ACTION_H - 8, _(words(icon)).upper(), font=FONT - 2, bold=True)]
    first, _slash, rest = name.partition(" / ")
    out.append(text(x + ACTION_W / 2, ACTION_Y + 18, first, font=FONT - 3))
    if rest:
        out.append(text(x + ACTION_W / 2, ACTION_Y + 8, rest, font=FONT - 3))
    return out


def _sighting(card: str, _=ENGLISH) -> list[Shape]:
    """The sighting card under the action row (its words)."""
    return [text(40.0, ACTION_Y - 4, _("sighting: {card}").format(card=card), font=FONT - 1, anchor="start",
                 valign="top")]


def _parts(o, _=ENGLISH) -> list[tuple[Callable[..., list[Shape]], tuple]]:
    """The drawing's parts in drawing order, each a function and the public values it
    draws: the rooftops, the carriers, the influence track, the scores, the action row
    (the deck, the face-up slots, the sighting)."""
    setup, b, comp = o.setup, o.board, o.setup.comp
    colours = [side_colour(setup, i) for i in range(setup.sides)]
    inf = comp.influence
    sighting = _(comp.cessna.name) if b.sighting is None else comp.sightings[b.sighting].label(_)
    return ([(_roof, args) for args in _roofs(o, colours, _)] + [(_carrier, args) for args in _carriers(o, colours, _)]
            + [(_influence_track, (setup.track, inf.spaces, inf.threshold, _)),
               (_scores, (setup.labels, tuple(colours), tuple(s.influence for s in o.sides), tuple(s.vp for s in o.sides),
                          inf.spaces, _)),
               (_deck, (b.deck, len(b.discard), _))]
            + [(_row_slot, (j, icon, card_text(comp, c), c is not None, _))
               for j, (icon, c) in enumerate(zip(ROW, b.row), start=1)]
            + [(_sighting, (sighting, _))])


_KEPT = {draw: json_kept(draw, maxsize) for draw, maxsize in
         ((_roof, 2048), (_carrier, 2048), (_influence_track, 512), (_scores, 512), (_deck, 512), (_row_slot, 1024),
          (_sighting, 512))}
"""Each part's JSON text, kept by its arguments (public values only): at each version of a
room a part or two changes, the rest is drawn and encoded again only once it has left the
cache (sized for about 200 rooms playing at once in two languages; a few MB)."""


def _head(o, _=ENGLISH) -> Sketch:
    """The drawing without its shapes: title, extent, legend and background."""
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
    legend = [LegendEntry(_(p.value), PERSON_COLOURS[p.value], "#ffffff", marker="o") for p in PEOPLE]
    legend += [LegendEntry(_("{side}'s helicopter").format(side=setup.labels[i]), c, marker="^")
               for i, c in enumerate(colours)]
    legend.append(LegendEntry(_("night side"), "#222222", marker="^"))
    legend.append(LegendEntry(_("landing slot"), "#ffffff", style.TABLE_EDGE, marker="s"))
    return Sketch(title, extent, (), tuple(legend), background="#fbf8f2")


def white_christmas_sketch(o, _=ENGLISH) -> Sketch:
    """The drawing of a White Christmas position: a :class:`~scenarios.white_christmas.State`
    or any seat's :class:`~scenarios.white_christmas.Observation` (the same drawing: only
    public values are drawn). Ids: see the module docstring. Its words read through
    ``_`` (a reader's :func:`~furball.i18n.translator`; English by default)."""
    return replace(_head(o, _), shapes=tuple(shape for draw, args in _parts(o, _) for shape in draw(*args)))


def white_christmas_sketch_text(o, _=ENGLISH) -> str:
    """``white_christmas_sketch(o, _).as_json()`` as compact JSON text (``separators=(",",
    ":")``; what a room's page receives at every version), the same text, each part's
    shapes drawn and encoded once for as long as the cache keeps them (one move changes a
    part or two)."""
    head = json.dumps(_head(o, _).as_json(), allow_nan=False, separators=(",", ":"))
    shapes = ",".join(text for text in (_KEPT[draw](*args) for draw, args in _parts(o, _)) if text)
    return head.replace('"shapes":[]', f'"shapes":[{shapes}]', 1)  # a key: a string's quotes are escaped


def white_christmas_picture(state) -> Picture:
    """The :class:`~viz.picture.Picture` of a White Christmas state (a finished game's
    final state, or any position): :func:`white_christmas_sketch`."""
    from .sketch_draw import sketch_picture

    return sketch_picture(white_christmas_sketch(state))
