"""The table of a 1975 White Christmas game: the rooftop row with its staircases, the
helicopters in their landing slots and the People aboard, each player's carrier, and the
score and influence tracks.

Drawn in table millimetres with card-sized shapes (rooftop and staircase cards are mini
cards, 44 x 63 mm; carriers five standard cards wide, shrunk). Every artist that stands
for a game object carries a ``gid`` (``roof:K``, ``stairs:K``, ``person:PLACE:I``,
``heli:SIDE:MODEL``, ``carrier:SIDE``, ``influence:SIDE``, ``score:SIDE``) so tests and
tools can find it.
"""
from __future__ import annotations

from matplotlib.colors import is_color_like
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Patch, Polygon, Rectangle

from furball.scenarios.white_christmas.actions import PHASE_NUMBER, Stairs
from furball.scenarios.white_christmas.components import MODELS, PEOPLE

from . import style
from .picture import Picture

__all__ = ["white_christmas_picture", "PERSON_COLOURS", "side_colour"]

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


def side_colour(setup, side: int) -> str:
    """A side's colour: its game colour when matplotlib knows it, else the house palette."""
    name = setup.colours[side].name
    colour = GAME_COLOURS.get(name, name)
    return colour if is_color_like(colour) else style.colour_for(side)


def _token(ax, x: float, y: float, person: str, gid: str, r: float = TOKEN_R):
    circle = Circle((x, y), r, facecolor=PERSON_COLOURS.get(person, style.NEUTRAL), edgecolor="white",
                    linewidth=0.6, zorder=4)
    circle.set_gid(gid)
    ax.add_patch(circle)
    ax.text(x, y, person[:1].upper(), ha="center", va="center", fontsize=style.FONT_SIZE - 2, color="white",
            zorder=5)
    return circle


def _tokens(ax, people, x0: float, y0: float, cols: int, gid: str, r: float = TOKEN_R):
    for j, p in enumerate(people):
        _token(ax, x0 + (j % cols) * (2.2 * r), y0 - (j // cols) * (2.2 * r), p, f"person:{gid}:{j}", r)


def _heli(ax, x: float, y: float, colour: str, label: str, aboard, gid: str, night: bool):
    """A helicopter: a triangle in its side's colour (filled dark at night), its label
    and the People aboard as small tokens."""
    tri = Polygon([(x - 9, y - 6), (x + 9, y - 6), (x, y + 8)], closed=True, facecolor=colour if not night else
                  "#222222", edgecolor=colour, linewidth=1.6, zorder=6)
    tri.set_gid(gid)
    ax.add_patch(tri)
    ax.text(x + 12, y + 2, label, fontsize=style.FONT_SIZE - 2, color=colour, va="center", zorder=6)
    _tokens(ax, aboard, x - 8, y - 12, 4, gid, r=3.5)


def _draw(ax, state) -> None:
    setup, b, table, comp = state.setup, state.board, state.table, state.setup.comp
    colours = [side_colour(setup, i) for i in range(setup.sides)]
    where = {}
    for side, s in enumerate(state.sides):
        for i, node in enumerate(s.at):
            where.setdefault(node, []).append((side, i))
    # the rooftop row, left to right (WC.G1), staircases on the left (WC.G2)
    for k, roof in enumerate(table.roofs):
        x0 = 80.0 + k * ROOF_PITCH
        card = Rectangle((x0, ROW_Y), CARD_W, CARD_H, facecolor=style.TABLE_FILL, edgecolor=style.TABLE_EDGE,
                         linewidth=1.2)
        card.set_gid(f"roof:{k}")
        ax.add_patch(card)
        ax.text(x0 + CARD_W / 2, ROW_Y - 6, f"{k + 1}. {roof}", ha="center", va="top", fontsize=style.FONT_SIZE - 1)
        ax.text(x0 + CARD_W - 2, ROW_Y + 3, f"{len(b.roofs[k])}/{table.spaces[k]}", ha="right",
                fontsize=style.FONT_SIZE - 2, color=style.NEUTRAL)
        _tokens(ax, b.roofs[k], x0 + 9, ROW_Y + CARD_H - 10, 3, f"roof:{k}")
        if b.stairs_state != Stairs.NONE:
            sx = x0 - CARD_W * 0.8 - 6
            stairs = Rectangle((sx, ROW_Y + 8), CARD_W * 0.8, CARD_H * 0.75,
                               facecolor="#d9d2c5" if b.stairs_state == Stairs.FACE_DOWN else "#f7f3ea",
                               edgecolor=style.TABLE_EDGE, linewidth=0.8, linestyle="--")
            stairs.set_gid(f"stairs:{k}")
            ax.add_patch(stairs)
            if b.stairs_state == Stairs.FACE_DOWN:
                ax.text(sx + CARD_W * 0.4, ROW_Y + 30, "?", ha="center", fontsize=style.FONT_SIZE + 2,
                        color=style.NEUTRAL)
            else:
                _tokens(ax, b.stairs[k], sx + 9, ROW_Y + CARD_H - 17, 2, f"stairs:{k}", r=5.0)
        for i, model in enumerate(MODELS):   # WC.G3: CH-46 on the top slot, CH-53 on the bottom
            slot = table.slots[k][i]
            y = ROW_Y + CARD_H + 16 if model == MODELS[1] else ROW_Y - 26
            ax.plot([x0 + CARD_W / 2], [y], marker="s", markersize=9, markerfacecolor="none",
                    markeredgecolor=style.TABLE_EDGE, linestyle="")
            for side, h in where.get(slot, []):
                s = state.sides[side]
                _heli(ax, x0 + CARD_W / 2, y, colours[side], f"{setup.labels[side]} {model}", s.aboard[h],
                      f"heli:{setup.labels[side]}:{model}", s.night[h])
    # the carriers
    for side, s in enumerate(state.sides):
        x0 = 40.0 + side * CARRIER_PITCH
        box = Rectangle((x0, CARRIER_Y), CARRIER_W, CARRIER_H, facecolor="#eef2f6", edgecolor=colours[side],
                        linewidth=1.6)
        box.set_gid(f"carrier:{setup.labels[side]}")
        ax.add_patch(box)
        ups = ",".join(str(i + 1) for i, u in enumerate(s.upgrades) if u) or "-"
        ax.text(x0 + 4, CARRIER_Y + CARRIER_H - 4, f"{setup.labels[side]} ({setup.colours[side].name}) VP {s.vp}",
                va="top", fontsize=style.FONT_SIZE - 1, color=colours[side], fontweight="bold")
        ax.text(x0 + 4, CARRIER_Y + CARRIER_H - 15, f"influence {s.influence}, upgrades {ups}\n"
                f"People on the carrier {len(s.carrier)}/{s.spaces}", va="top", fontsize=style.FONT_SIZE - 2)
        _tokens(ax, s.carrier, x0 + 10, CARRIER_Y + 26, 12, f"carrier:{setup.labels[side]}", r=5.0)
        own = table.carriers[side]
        for i, model in enumerate(MODELS):
            if s.at[i] == own:
                _heli(ax, x0 + 20 + 60 * i, CARRIER_Y + 10, colours[side], model, s.aboard[i],
                      f"heli:{setup.labels[side]}:{model}", s.night[i])
    # the influence track (WC.F1, WC.F5) and the score track
    inf = comp.influence
    for pos in range(inf.spaces + 1):
        x = 40.0 + pos * TRACK_STEP
        ax.add_patch(Rectangle((x, TRACK_Y), TRACK_STEP - 2, 14, facecolor="#f2e8d5" if pos < inf.threshold
                               else "#e3d3b0", edgecolor=style.TABLE_EDGE, linewidth=0.5))
        bonus = setup.track[pos]
        if bonus.value != "none":
            ax.text(x + TRACK_STEP / 2 - 1, TRACK_Y + 7, bonus.value[:3], ha="center", va="center",
                    fontsize=style.FONT_SIZE - 3)
    tx = 40.0 + inf.threshold * TRACK_STEP - 1
    ax.plot([tx, tx], [TRACK_Y - 3, TRACK_Y + 17], color=style.COLLISION, linewidth=1.5)
    ax.text(40.0, TRACK_Y + 20, "influence (red bar: upgrade-1 threshold)", fontsize=style.FONT_SIZE - 1)
    top = max(60, max(s.vp for s in state.sides) + 5)
    scale = (inf.spaces + 1) * TRACK_STEP / top
    score_y = TRACK_Y + 50
    ax.plot([40.0, 40.0 + top * scale], [score_y, score_y], color=style.TABLE_EDGE, linewidth=1.0)
    ax.text(40.0, score_y + 10, f"score (0-{top} VP)", fontsize=style.FONT_SIZE - 1)
    for side, s in enumerate(state.sides):
        (m,) = ax.plot([40.0 + s.influence * TRACK_STEP + TRACK_STEP / 2 - 1], [TRACK_Y - 5 - 4 * side], marker="v",
                       color=colours[side], markersize=6, linestyle="")
        m.set_gid(f"influence:{setup.labels[side]}")
        (m,) = ax.plot([40.0 + s.vp * scale], [score_y - 4 - 4 * side], marker="^", color=colours[side],
                       markersize=6, linestyle="")
        m.set_gid(f"score:{setup.labels[side]}")


def white_christmas_picture(state) -> Picture:
    """The :class:`~viz.picture.Picture` of a White Christmas state (a finished game's
    final state, or any position)."""
    setup, b = state.setup, state.board
    when = "final position" if b.over else f"round {b.round}, phase {PHASE_NUMBER[b.phase]}"
    who = "solo against Captain Chambers" if setup.solo else f"{setup.sides} players"
    title = style.title("white-christmas", f"seed {state.seed}", extra=f"{who}, {when}")
    width = max(80.0 + len(state.table.roofs) * ROOF_PITCH, 40.0 + setup.sides * CARRIER_PITCH,
                40.0 + (setup.comp.influence.spaces + 1) * TRACK_STEP)
    extent = (-10.0, width + 20.0, CARRIER_Y - 30.0, TRACK_Y + 75.0)
    colours = [side_colour(setup, i) for i in range(setup.sides)]

    def legend(ax):
        handles = [Patch(facecolor=PERSON_COLOURS[p], label=p) for p in PEOPLE]
        handles += [Line2D([], [], marker="^", linestyle="", color=c, label=setup.labels[i])
                    for i, c in enumerate(colours)]
        handles.append(Patch(facecolor="#222222", label="night side"))
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=style.FONT_SIZE,
                  borderaxespad=0.0)

    return Picture(title, lambda ax: _draw(ax, state), extent, legend)
