"""Drawing any board graph (:class:`geometry.board_graph.BoardGraph`): nodes where their
data put them, styled by kind and colour, edges styled by kind, and tokens on nodes.

Positions come from each node's ``attrs`` ``x`` and ``y`` (millimetres); nodes without
them are laid on a circle around the others. A game's picture chooses the styles (a
:class:`NodeStyle` per node, an :class:`EdgeStyle` per edge kind) and the tokens
(:class:`Token`: a label and a colour on a node), and calls :func:`board_shapes` (the
shapes of a :class:`~viz.sketch.Sketch`, which the plot and a room's page both draw) or
:func:`draw_board` (matplotlib). Every shape carries an id (``node:NAME``,
``edge:A|B``, ``token:NODE:LABEL``, ``board:background``) so tests, tools and pages
can find it. Nothing here imports matplotlib until :func:`draw_board` draws.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from furball.geometry.board_graph import BoardGraph, Node

from . import style
from .sketch import Shape, circle, line, mark, polygon, rect, regular_polygon, text

__all__ = ["NodeStyle", "EdgeStyle", "Token", "positions", "draw_board", "board_shapes", "board_extent", "COLOURS",
           "colour"]

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
    ``line`` style: ``"-"`` or dashed ``"--"``/``":"``); ``None`` in a style map hides that
    kind."""

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


def colour(name: str | None, fallback: str) -> str:
    """A node's colour word (:data:`COLOURS`) as a colour, any other value as it is,
    ``fallback`` for none."""
    if not name:
        return fallback
    return COLOURS.get(name, name)


def _node_shape(node_id: str, shape: str, xy, st: NodeStyle, face: str, tip: str) -> Shape:
    x, y = xy
    look = dict(fill=face, stroke=st.edge, width=1.0, alpha=st.alpha, z=2, tip=tip)
    if shape == "square":
        return polygon(node_id, regular_polygon(x, y, 4, st.size * math.sqrt(2), math.pi / 4), **look)
    if shape == "diamond":
        return polygon(node_id, regular_polygon(x, y, 4, st.size), **look)
    if shape == "box":
        w, h = st.width or 2 * st.size, st.height or 2 * st.size
        return rect(node_id, x - w / 2, y - h / 2, w, h, round=3.0, **look)
    return circle(node_id, x, y, st.size, **look)


def board_shapes(graph: BoardGraph, node_style: Callable[[Node], NodeStyle | None],
                 edge_styles: Mapping[str, EdgeStyle | None], tokens: Iterable[Token] = (),
                 background: str | None = None, tips: Mapping[str, str] | None = None) -> list[Shape]:
    """The shapes of ``graph``: the ``background`` (a rounded rectangle behind the
    board, or none), every edge with its kind's style (kinds missing from
    ``edge_styles`` use the default :class:`EdgeStyle`; ``None`` hides them), every node
    with ``node_style(node)`` (``None`` hides it) and its label, then the tokens, spread
    around their node. ``tips``: node name -> a description shown on hover."""
    pos = positions(graph)
    tips = tips or {}
    out: list[Shape] = []
    if background is not None:
        xmin, xmax, ymin, ymax = board_extent(graph, 30.0)
        out.append(rect("board:background", xmin, ymin, xmax - xmin, ymax - ymin, round=8.0, fill=background,
                        z=-5))
    for e in graph.edges:
        st = edge_styles[e.kind] if e.kind in edge_styles else EdgeStyle()
        if st is None:
            continue
        out.append(line(f"edge:{e.a}|{e.b}", [pos[e.a], pos[e.b]], stroke=st.colour, width=st.width,
                        dash=st.line != "-", alpha=st.alpha, z=1))
    sizes: dict[str, NodeStyle] = {}
    for node in graph.nodes:
        st = node_style(node)
        if st is None:
            continue
        sizes[node.name] = st
        face = colour(st.face if st.face is not None else node.colour, "#dddddd")
        out.append(_node_shape(f"node:{node.name}", st.shape, pos[node.name], st, face, tips.get(node.name, "")))
        label = node.name if st.label is None else st.label
        if label:
            below = (st.height / 2 if st.shape == "box" and st.height else st.size) + 2
            out.append(text(pos[node.name][0], pos[node.name][1] - below, label, font=st.font, colour=st.text,
                            valign="top", z=5))
    out += _token_shapes(pos, sizes, list(tokens))
    return out


def draw_board(ax, graph: BoardGraph, node_style: Callable[[Node], NodeStyle | None],
               edge_styles: Mapping[str, EdgeStyle | None], tokens: Iterable[Token] = (),
               background: str | None = None) -> list:
    """Draw ``graph`` on ``ax`` with matplotlib: :func:`board_shapes`, drawn by
    :func:`viz.sketch_draw.draw_shapes`. Returns the artists."""
    from .sketch_draw import draw_shapes

    return draw_shapes(ax, board_shapes(graph, node_style, edge_styles, tokens, background))


def _token_shapes(pos, sizes: Mapping[str, NodeStyle], tokens: Sequence[Token]) -> list[Shape]:
    by_node: dict[str, list[Token]] = {}
    for t in tokens:
        by_node.setdefault(t.node, []).append(t)
    out = []
    for name, group in by_node.items():
        x, y = pos[name]
        st = sizes.get(name, NodeStyle())
        ring = 0.0 if len(group) == 1 else max(4.0, st.size * 0.55)
        for i, t in enumerate(group):
            a = math.pi / 2 + 2 * math.pi * i / len(group)
            out.append(mark(f"token:{name}:{t.label}", x + ring * math.cos(a), y + ring * math.sin(a), t.marker,
                            t.label, fill=t.colour, stroke="#000000", width=0.6, size=13.0, colour=t.text,
                            font=style.FONT_SIZE - 1.5, bold=True, z=6))
    return out
