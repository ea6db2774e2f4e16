"""The Operation Canuck map: areas (Alba a town) with their GAR / BASE boxes, the roads,
the Axis garrison dice and the Partisan Leaders, Groups and Bases — drawn by
:mod:`viz.board`."""
from __future__ import annotations

from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from furball.geometry.board_graph import Node

from . import style
from .board import EdgeStyle, NodeStyle, Token, board_extent, draw_board
from .picture import Picture

__all__ = ["canuck_picture"]

AREA, TOWN = "#e8dcc4", "#d4ac6e"
GARRISON, LEADER, GROUP, BASE = "#5d6d7e", "#c0392b", "#e74c3c", "#1e8449"


def _node_style(node: Node) -> NodeStyle:
    boxes = "+".join(node.boxes)
    face = TOWN if node.kind == "town" else AREA
    return NodeStyle("box", 18, face=face, label=f"{node.name} ({boxes})" if boxes else node.name, width=62,
                     height=34, edge="#7a6a53")


def canuck_picture(s) -> Picture:
    """The picture of a Canuck state (:class:`scenarios.canuck.State`)."""
    board = s.board
    graph = board.graph
    tokens = []
    for i, name in enumerate(board.areas):
        if s.garrison[i]:
            tokens.append(Token(name, str(s.garrison[i]), GARRISON, "s"))
        tokens += [Token(name, "L", LEADER, "o") for _ in range(s.leaders[i])]
        tokens += [Token(name, "G", GROUP, "o") for _ in range(s.groups[i])]
        tokens += [Token(name, "B", BASE, "p") for _ in range(s.bases[i])]
    score = s.score()
    state = f"{s.over}" if s.over else "in play"
    title = style.title("canuck", graph.name, extra=f"{state}; VP {score.total}, {score.band}")

    def legend(ax):
        ax.legend(handles=[
            Patch(facecolor=TOWN, edgecolor="#7a6a53", label="Alba (town)"),
            Patch(facecolor=AREA, edgecolor="#7a6a53", label="area (boxes in brackets)"),
            Line2D([], [], marker="s", linestyle="", color=GARRISON, markeredgecolor="black",
                   label="garrison die (strength)"),
            Line2D([], [], marker="o", linestyle="", color=LEADER, markeredgecolor="black", label="Leader (L)"),
            Line2D([], [], marker="o", linestyle="", color=GROUP, markeredgecolor="black", label="Group (G)"),
            Line2D([], [], marker="p", linestyle="", color=BASE, markeredgecolor="black", label="Base (B)"),
        ], loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=style.FONT_SIZE, borderaxespad=0.0)

    return Picture(title, lambda ax: draw_board(ax, graph, _node_style, {"": EdgeStyle("#7a6a53", 2.0)}, tokens,
                                                background="#f4efe6"),
                   board_extent(graph, 50.0), legend)
