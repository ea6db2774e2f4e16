"""The Operation Canuck map: areas (Alba a town) with their GAR / BASE boxes, the roads,
the Axis garrison dice and the Partisan Leaders, Groups and Bases — one drawing
description (:func:`canuck_sketch`, a :class:`~viz.sketch.Sketch`) that ``furball play
canuck --plot`` draws with matplotlib and a room's page draws as SVG."""
from __future__ import annotations

from furball.geometry.board_graph import Node

from . import style
from .board import EdgeStyle, NodeStyle, Token, board_extent, board_shapes
from .picture import Picture
from .sketch import LegendEntry, Sketch

__all__ = ["canuck_sketch", "canuck_picture", "AREA", "TOWN", "GARRISON", "LEADER", "GROUP", "BASE"]

AREA, TOWN = "#e8dcc4", "#d4ac6e"
GARRISON, LEADER, GROUP, BASE = "#5d6d7e", "#c0392b", "#e74c3c", "#1e8449"
ROAD = "#7a6a53"


def _node_style(node: Node) -> NodeStyle:
    boxes = "+".join(node.boxes)
    face = TOWN if node.kind == "town" else AREA
    return NodeStyle("box", 18, face=face, label=f"{node.name} ({boxes})" if boxes else node.name, width=62,
                     height=34, edge=ROAD)


def canuck_sketch(s) -> Sketch:
    """The drawing of a Canuck position (its observation: the state, a solitaire with
    nothing hidden on the map): every area with its garrison die (strength) and the
    Partisans' Leaders (``L``), Groups (``G``) and Base (``B``), token ids
    ``token:AREA:LABEL``, area ids ``node:AREA``."""
    board = s.board
    graph = board.graph
    tokens, tips = [], {}
    for i, name in enumerate(board.areas):
        if s.garrison[i]:
            tokens.append(Token(name, str(s.garrison[i]), GARRISON, "s"))
        tokens += [Token(name, "L", LEADER, "o") for _ in range(s.leaders[i])]
        tokens += [Token(name, "G", GROUP, "o") for _ in range(s.groups[i])]
        tokens += [Token(name, "B", BASE, "p") for _ in range(s.bases[i])]
        garrison = f"garrison {s.garrison[i]}" if s.garrison[i] else "no garrison"
        near = ", ".join(board.areas[j] for j in board.near[i])
        tips[name] = (f"{name} ({board.boxes(i) or 'no boxes'}): {garrison}; {s.leaders[i]} Leader(s), "
                      f"{s.groups[i]} Group(s), {s.bases[i]} Base(s); roads to {near}")
    score = s.score()
    state = f"{s.over}" if s.over else "in play"
    title = style.title("canuck", graph.name, extra=f"{state}; VP {score.total}, {score.band}")
    legend = (LegendEntry("Alba (town)", TOWN, ROAD), LegendEntry("area (boxes in brackets)", AREA, ROAD),
              LegendEntry("garrison die (strength)", GARRISON, marker="s"), LegendEntry("Leader (L)", LEADER, marker="o"),
              LegendEntry("Group (G)", GROUP, marker="o"), LegendEntry("Base (B)", BASE, marker="p"))
    shapes = board_shapes(graph, _node_style, {"": EdgeStyle(ROAD, 2.0)}, tokens, background="#f4efe6", tips=tips)
    return Sketch(title, board_extent(graph, 50.0), tuple(shapes), legend)


def canuck_picture(s) -> Picture:
    """The picture of a Canuck state (:class:`scenarios.canuck.State`): :func:`canuck_sketch`."""
    from .sketch_draw import sketch_picture

    return sketch_picture(canuck_sketch(s))
