"""The archipelago of 1942 USS Yorktown: islands in their colours on the sea, the white
lines, Japanese and Allied planes, the approach zone and runway, the Shōhō with its CAP,
and the search and damage tracks with their markers — drawn by :mod:`viz.board`."""
from __future__ import annotations

from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from furball.geometry.board_graph import Node
from furball.scenarios.yorktown.actions import PLANES, PlaneType
from furball.scenarios.yorktown.board import SHOHO_TRACK, YORKTOWN_TRACK

from . import style
from .board import COLOURS, EdgeStyle, NodeStyle, Token, board_extent, draw_board
from .picture import Picture

__all__ = ["yorktown_picture", "SEA", "JAPANESE", "ALLIED"]

SEA = "#1f4e79"
JAPANESE = {PlaneType.JAKE: "#e74c3c", PlaneType.KATE: "#922b21", PlaneType.ZEKE: "#f5b7b1"}
ALLIED = "#5dade2"
MARKER = "#f1c40f"
TEXT = "white"
EDGES = {"white line": EdgeStyle("white", 2.2), "approach": EdgeStyle("#aed6f1", 1.4, "--"),
         "deck": EdgeStyle("#d5d8dc", 2.0), "track": EdgeStyle("#d5d8dc", 0.8, ":")}


def _node_style(node: Node) -> NodeStyle | None:
    if node.kind == "island":
        return NodeStyle("circle", 15, label=f"{node.number} {node.name}", edge="white", text=TEXT)
    if node.kind == "approach":
        return NodeStyle("box", 10, face="#aed6f1", label="approach zone (USS Yorktown)", width=70, height=16,
                         text=TEXT)
    if node.kind == "runway":
        return NodeStyle("box", 8, face="#abb2b9", label=f"runway ({node.capacity} places)", width=46, height=12,
                         text=TEXT)
    if node.kind == "carrier":
        return NodeStyle("box", 10, face="#566573", label=f"IJN Shōhō ({len(node.boxes)} CAP boxes)", width=48,
                         height=16, text=TEXT)
    if node.kind == "search":
        return NodeStyle("square", 6, face="#fdfefe", label=str(node.number), font=style.FONT_SIZE - 2, text=TEXT)
    if node.kind == "damage":
        return NodeStyle("square", 6, face="#fadbd8", label=str(node.number), font=style.FONT_SIZE - 2, text=TEXT)
    return NodeStyle(text=TEXT)


def _tokens(s) -> list[Token]:
    board = s.setup.board
    g = board.graph
    out = []
    for k, planes in enumerate(s.japanese):
        for t in planes:
            out.append(Token(board.names[k], t.value[0], JAPANESE[t], "^", "black" if t == PlaneType.ZEKE else "white"))
    for p in range(PLANES):
        if s.loc[p] is not None:
            out.append(Token(g.nodes[s.loc[p]].name, f"D{p + 1}", ALLIED, "o", "black"))
    carrier = g.nodes[board.carrier].name
    out += [Token(carrier, "Z", JAPANESE[PlaneType.ZEKE], "^", "black") for _ in range(s.cap)]
    out.append(Token(g.nodes[board.search_nodes[s.search]].name, "S", MARKER, "s", "black"))
    out.append(Token(g.nodes[board.yorktown_nodes[s.yorktown]].name, "Y", MARKER, "s", "black"))
    out.append(Token(g.nodes[board.shoho_nodes[s.shoho]].name, "H", MARKER, "s", "black"))
    return out


def yorktown_picture(s) -> Picture:
    """The picture of a Yorktown state (:class:`scenarios.yorktown.State`)."""
    board = s.setup.board
    graph = board.graph
    outcome = s.outcome()[0] if s.over is not None else f"turn {s.turn}"
    title = style.title("yorktown", board.name, extra=f"{outcome}; clock {s.clock // 60}:{s.clock % 60:02d}")

    def draw(ax):
        artists = draw_board(ax, graph, _node_style, EDGES, _tokens(s), background=SEA)
        pos_search = graph.nodes[board.search_nodes[0]]
        pos_york = graph.nodes[board.yorktown_nodes[0]]
        pos_shoho = graph.nodes[board.shoho_nodes[0]]
        for node, text in ((pos_search, "search track"), (pos_york, f"{YORKTOWN_TRACK} damage"),
                           (pos_shoho, f"{SHOHO_TRACK} damage")):
            artists.append(ax.text(node.attr("x") - 12, node.attr("y") + 9, text, fontsize=style.FONT_SIZE - 1,
                                   color="white", ha="left", va="bottom"))
        return artists

    def legend(ax):
        handles = [Patch(facecolor=COLOURS[c], label=f"{c} island") for c in ("orange", "green", "red")]
        handles += [Line2D([], [], color="white", linewidth=2.2, label="white line"),
                    Line2D([], [], marker="o", linestyle="", color=ALLIED, markeredgecolor="black",
                           label="Dauntless (D1-D4)")]
        handles += [Line2D([], [], marker="^", linestyle="", color=JAPANESE[t], markeredgecolor="black",
                           label=f"{t} ({t.value[0]})") for t in PlaneType]
        handles.append(Line2D([], [], marker="s", linestyle="", color=MARKER, markeredgecolor="black",
                              label="markers: search S, damage Y / H"))
        leg = ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=style.FONT_SIZE,
                        borderaxespad=0.0)
        leg.get_frame().set_facecolor("#fdfefe")

    return Picture(title, draw, board_extent(graph, 55.0), legend)
