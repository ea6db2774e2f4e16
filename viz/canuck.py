"""The Operation Canuck map: areas (Alba a town) with their GAR / BASE boxes, the roads,
the Axis garrison dice and the Partisan Leaders, Groups and Bases — one drawing
description (:func:`canuck_sketch`, a :class:`~viz.sketch.Sketch`) that ``furball play
canuck --plot`` draws with matplotlib and a room's page draws as SVG."""
from __future__ import annotations

from furball.geometry.board_graph import Node
from furball.i18n import ENGLISH, N_

from . import style
from .board import EdgeStyle, NodeStyle, Token, board_extent, board_shapes
from .picture import Picture
from .sketch import LegendEntry, Sketch

__all__ = ["canuck_sketch", "canuck_picture", "AREA", "TOWN", "GARRISON", "LEADER", "GROUP", "BASE"]

AREA, TOWN = "#e8dcc4", "#d4ac6e"
GARRISON, LEADER, GROUP, BASE = "#5d6d7e", "#c0392b", "#e74c3c", "#1e8449"
ROAD = "#7a6a53"
ENDS = (N_("sixth_advance"), N_("last_base"), N_("deadlock"))
"""The game's ends as the title names them (:class:`~scenarios.canuck.actions.EndReason`'s values)."""


def _node_style(node: Node) -> NodeStyle:
    boxes = "+".join(node.boxes)
    face = TOWN if node.kind == "town" else AREA
    return NodeStyle("box", 18, face=face, label=f"{node.name} ({boxes})" if boxes else node.name, width=62,
                     height=34, edge=ROAD)


def canuck_sketch(s, _=ENGLISH) -> Sketch:
    """The drawing of a Canuck position (its observation: the state, a solitaire with
    nothing hidden on the map): every area with its garrison die (strength) and the
    Partisans' Leaders (``L``), Groups (``G``) and Base (``B``), token ids
    ``token:AREA:LABEL``, area ids ``node:AREA``. Its words read through ``_`` (a
    reader's :func:`~furball.i18n.translator`; English by default)."""
    board = s.board
    graph = board.graph
    tokens, tips = [], {}
    for i, name in enumerate(board.areas):
        if s.garrison[i]:
            tokens.append(Token(name, str(s.garrison[i]), GARRISON, "s"))
        tokens += [Token(name, "L", LEADER, "o") for _k in range(s.leaders[i])]
        tokens += [Token(name, "G", GROUP, "o") for _k in range(s.groups[i])]
        tokens += [Token(name, "B", BASE, "p") for _k in range(s.bases[i])]
        garrison = _("garrison {n}").format(n=s.garrison[i]) if s.garrison[i] else _("no garrison")
        near = ", ".join(board.areas[j] for j in board.near[i])
        boxes = board.boxes(i) or _("no boxes")
        tips[name] = _("{area} ({boxes}): {garrison}; {leaders} Leader(s), {groups} Group(s), {bases} Base(s); roads "
                       "to {near}").format(area=name, boxes=boxes, garrison=garrison, leaders=s.leaders[i],
                                           groups=s.groups[i], bases=s.bases[i], near=near)
    score = s.score()
    state = _(str(s.over)) if s.over else _("in play")
    title = style.title("canuck", graph.name, extra=_("{state}; VP {total}, {band}").format(
        state=state, total=score.total, band=_(str(score.band))))
    legend = (LegendEntry(_("Alba (town)"), TOWN, ROAD), LegendEntry(_("area (boxes in brackets)"), AREA, ROAD),
              LegendEntry(_("garrison die (strength)"), GARRISON, marker="s"),
              LegendEntry(_("Leader (L)"), LEADER, marker="o"),
              LegendEntry(_("Group (G)"), GROUP, marker="o"), LegendEntry(_("Base (B)"), BASE, marker="p"))
    shapes = board_shapes(graph, _node_style, {"": EdgeStyle(ROAD, 2.0)}, tokens,
                          background="#f4efe6", tips=tips)
    return Sketch(title, board_extent(graph, 50.0), tuple(shapes), legend)


def canuck_picture(s) -> Picture:
    """The picture of a Canuck state (:class:`scenarios.canuck.State`): :func:`canuck_sketch`."""
    from .sketch_draw import sketch_picture

    return sketch_picture(canuck_sketch(s))
