"""Drawing any board graph (:class:`geometry.board_graph.BoardGraph`): nodes where their
data put them, styled by kind and colour, edges styled by kind, and tokens on nodes.

Positions come from each node's ``attrs`` ``x`` and ``y`` (millimetres); nodes without
them are laid on a circle around the others. A game's picture chooses the styles (a
:class:`NodeStyle` per node, an :class:`EdgeStyle` per edge kind) and the tokens
(:class:`Token`: a label and a colour on a node), and calls :func:`draw_board`. Every
artist carries a ``gid`` (``node:NAME``, ``edge:A|B``, ``token:NODE:LABEL``) so tests
and tools can find it.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from matplotlib.patches import Circle, FancyBboxPatch, RegularPolygon

from furball.geometry.board_graph import BoardGraph, Node

from . import style

__all__ = ["NodeStyle", "EdgeStyle", "Token", "positions", "draw_board", "board_extent", "COLOURS"]

COLOURS = {"orange": "#f39c12", "red": "#c0392b", "green": "#27ae60", "blue": "#2e86c1", "white": "#ffffff",
           "grey": "#7f8c8d", "black": "#222222", "yellow": "#f1c40f"}
"""Named colours a node's ``colour`` field may use; any other value is passed to
matplotlib as is (``"#1f5fbf"``), and an empty one falls back to the style's face."""


@dataclass(frozen=True)
class NodeStyle:
    """How a node looks: ``shape`` (``"circle"``, ``"square"``, ``"box"`` (a rounded
    rectangle ``width`` × ``height``), ``"diamond"``), ``size`` (radius or half side in
    mm), ``face``/``edge`` colours (``None``: the node's own colour), ``label``: the text
    drawn under it (``None``: the node's name; ``""``: none) in ``font`` size and
    ``text`` colour; ``width``/``height`` of a box; ``alpha``."""

    shape: str = "circle"
    size: float = 12.0
    face: str | None = None
    edge: str = style.NEUTRAL
    label: str | None = None
    font: float = style.FONT_SIZE - 1
    width: float = 0.0
    height: float = 0.0
    alpha: float = 1.0
    text: str = style.NEUTRAL


@dataclass(frozen=True)
class EdgeStyle:
    """How edges of one kind look (matplotlib ``colour``, ``width`` in points,
    ``line`` style); ``None`` in a style map hides that kind."""

    colour: str = style.NEUTRAL
    width: float = 1.2
    line: str = "-"
    alpha: float = 1.0


@dataclass(frozen=True)
class Token:
    """A piece on a node: ``label`` (short text), ``colour``, ``marker`` (matplotlib
    marker), ``text`` colour. Several tokens on one node are spread around it."""

    node: str
    label: str
    colour: str
    marker: str = "o"
    text: str = "white"


def positions(graph: BoardGraph) -> dict[str, tuple[float, float]]:
    """Node name -> (x, y) in mm, from ``attrs`` ``x``/``y``; nodes without both are
    put evenly on a circle around the placed ones (or around the origin)."""
    placed = {}
    for node in graph.nodes:
        x, y = node.attr("x"), node.attr("y")
        if isinstance(x, (int, float)) and isinstance(y, (int, float)) and not isinstance(x, bool) \
                and not isinstance(y, bool):
            placed[node.name] = (float(x), float(y))
    missing = [n.name for n in graph.nodes if n.name not in placed]
    if missing:
        if placed:
            xs, ys = zip(*placed.values())
            cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
            radius = max(max(xs) - min(xs), max(ys) - min(ys)) / 2 + 60
        else:
            cx = cy = 0.0
            radius = 30.0 * max(2, len(missing)) / math.pi
        for i, name in enumerate(missing):
            a = 2 * math.pi * i / len(missing)
            placed[name] = (cx + radius * math.cos(a), cy + radius * math.sin(a))
    return placed


def board_extent(graph: BoardGraph, margin_mm: float = 35.0) -> tuple[float, float, float, float]:
    """``(xmin, xmax, ymin, ymax)`` around every node, with a margin."""
    xs, ys = zip(*positions(graph).values())
    return min(xs) - margin_mm, max(xs) + margin_mm, min(ys) - margin_mm, max(ys) + margin_mm


def _colour(name: str | None, fallback: str) -> str:
    if not name:
        return fallback
    return COLOURS.get(name, name)


def _node_patch(shape: str, xy, st: NodeStyle, face: str):
    x, y = xy
    if shape == "square":
        return RegularPolygon(xy, 4, radius=st.size * math.sqrt(2), orientation=math.pi / 4, facecolor=face,
                              edgecolor=st.edge, linewidth=1.0, alpha=st.alpha)
    if shape == "diamond":
        return RegularPolygon(xy, 4, radius=st.size, facecolor=face, edgecolor=st.edge, linewidth=1.0, alpha=st.alpha)
    if shape == "box":
        w, h = st.width or 2 * st.size, st.height or 2 * st.size
        return FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0,rounding_size=3", facecolor=face,
                              edgecolor=st.edge, linewidth=1.0, alpha=st.alpha)
    return Circle(xy, st.size, facecolor=face, edgecolor=st.edge, linewidth=1.0, alpha=st.alpha)


def draw_board(ax, graph: BoardGraph, node_style: Callable[[Node], NodeStyle | None],
               edge_styles: Mapping[str, EdgeStyle | None], tokens: Iterable[Token] = (),
               background: str | None = None) -> list:
    """Draw ``graph`` on ``ax``: the ``background`` (a filled rectangle behind the
    board, or none), every edge with its kind's style (kinds missing from
    ``edge_styles`` use the default :class:`EdgeStyle`; ``None`` hides them), every node
    with ``node_style(node)`` (``None`` hides it), then the tokens. Returns the artists."""
    pos = positions(graph)
    artists = []
    if background is not None:
        xmin, xmax, ymin, ymax = board_extent(graph, 30.0)
        back = FancyBboxPatch((xmin, ymin), xmax - xmin, ymax - ymin, boxstyle="round,pad=0,rounding_size=8",
                              facecolor=background, edgecolor="none", zorder=-5)
        back.set_gid("board:background")
        ax.add_patch(back)
        artists.append(back)
    for e in graph.edges:
        st = edge_styles[e.kind] if e.kind in edge_styles else EdgeStyle()
        if st is None:
            continue
        (a_x, a_y), (b_x, b_y) = pos[e.a], pos[e.b]
        (line,) = ax.plot([a_x, b_x], [a_y, b_y], color=st.colour, linewidth=st.width, linestyle=st.line,
                          alpha=st.alpha, zorder=1, solid_capstyle="round")
        line.set_gid(f"edge:{e.a}|{e.b}")
        artists.append(line)
    sizes: dict[str, NodeStyle] = {}
    for node in graph.nodes:
        st = node_style(node)
        if st is None:
            continue
        sizes[node.name] = st
        face = _colour(st.face if st.face is not None else node.colour, "#dddddd")
        patch = _node_patch(st.shape, pos[node.name], st, face)
        patch.set_zorder(2)
        patch.set_gid(f"node:{node.name}")
        ax.add_patch(patch)
        artists.append(patch)
        label = node.name if st.label is None else st.label
        if label:
            below = (st.height / 2 if st.shape == "box" and st.height else st.size) + 2
            artists.append(ax.text(pos[node.name][0], pos[node.name][1] - below, label, ha="center", va="top",
                                   fontsize=st.font, color=st.text, zorder=5))
    artists += _draw_tokens(ax, pos, sizes, list(tokens))
    return artists


def _draw_tokens(ax, pos, sizes: Mapping[str, NodeStyle], tokens: Sequence[Token]) -> list:
    by_node: dict[str, list[Token]] = {}
    for t in tokens:
        by_node.setdefault(t.node, []).append(t)
    artists = []
    for name, group in by_node.items():
        x, y = pos[name]
        st = sizes.get(name, NodeStyle())
        ring = 0.0 if len(group) == 1 else max(4.0, st.size * 0.55)
        for i, t in enumerate(group):
            a = math.pi / 2 + 2 * math.pi * i / len(group)
            tx, ty = x + ring * math.cos(a), y + ring * math.sin(a)
            (mark,) = ax.plot([tx], [ty], marker=t.marker, markersize=13, color=t.colour, markeredgecolor="black",
                              markeredgewidth=0.6, linestyle="", zorder=6)
            mark.set_gid(f"token:{name}:{t.label}")
            label = ax.text(tx, ty, t.label, ha="center", va="center", fontsize=style.FONT_SIZE - 1.5, color=t.text,
                            fontweight="bold", zorder=7)
            artists += [mark, label]
    return artists
