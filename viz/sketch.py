"""A drawing described as data: shapes, positions and labels in millimetres, that two
renderers draw the same way — matplotlib for ``furball play GAME --plot`` (:mod:`.sketch_draw`)
and the browser's SVG for a game room's page (``static/js/sketch.js``). One function per
card game makes the :class:`Sketch` of a position (:mod:`.canuck`, :mod:`.yorktown`,
:mod:`.white_christmas`), so what the page shows is what the PNG shows.

Coordinates are millimetres, x right and y up (the renderers flip y for the screen).
Line widths, font and marker sizes are points, as matplotlib reads them; the page scales
a point to ``extent width / 460`` mm (the plot's axes are about 460 points wide). A
shape's ``id`` names the game object it stands for (``node:Alba``, ``token:Alba:G``,
``roof:2``...): tests read it, and a room's page makes the shapes that legal actions
concern clickable by it. Nothing here imports matplotlib.
"""
from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from enum import StrEnum

__all__ = ["Kind", "Shape", "LegendEntry", "Sketch", "rect", "circle", "polygon", "line", "text", "mark",
           "regular_polygon", "json_kept", "POINTS_PER_WIDTH"]

POINTS_PER_WIDTH = 460.0
"""How many points the drawing's width spans (the plot's axes, about 6.4 inches)."""


class Kind(StrEnum):
    """What a :class:`Shape` is."""

    RECT = "rect"        # x, y: lower-left corner; w, h; round: corner radius (mm)
    CIRCLE = "circle"    # x, y: centre; r (mm)
    POLYGON = "poly"     # points (closed)
    LINE = "line"        # points (open)
    TEXT = "text"        # x, y: anchor; text, font, colour, anchor, valign
    MARK = "mark"        # x, y: centre; marker ('o', 's', '^', 'v', 'p', 'D'), size (points), text inside


@dataclass(frozen=True)
class Shape:
    """One shape of a :class:`Sketch` (see :class:`Kind` for which fields it reads).

    ``fill`` / ``stroke``: colours (``None``: none), ``width``: stroke width (points),
    ``alpha``, ``dash`` (a dashed stroke), ``z`` (drawing order), ``tip`` (a longer
    description, shown on hover), ``cls`` (a style class for the page), ``colour`` (of
    text), ``font`` (points), ``bold``."""

    kind: Kind
    id: str = ""
    x: float = 0.0
    y: float = 0.0
    w: float = 0.0
    h: float = 0.0
    r: float = 0.0
    round: float = 0.0
    points: tuple[tuple[float, float], ...] = ()
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    alpha: float = 1.0
    dash: bool = False
    text: str = ""
    font: float = 7.0
    colour: str = "#333333"
    anchor: str = "middle"   # start, middle, end
    valign: str = "middle"   # top, middle, bottom
    bold: bool = False
    marker: str = "o"
    size: float = 13.0
    z: int = 2
    tip: str = ""
    cls: str = ""

    def as_json(self) -> dict:
        """The fields that differ from their defaults (``kind`` always), numbers rounded
        to 0.01 mm."""
        out = {"kind": str(self.kind)}
        for name, default in _SHAPE_DEFAULTS:
            value = getattr(self, name)
            if value == default:
                continue
            if isinstance(value, float):
                value = round(value, 2)
            elif name == "points":
                value = [[round(x, 2), round(y, 2)] for x, y in value]
            out[name] = value
        return out


_SHAPE_DEFAULTS = tuple((f.name, f.default) for f in fields(Shape) if f.name != "kind")
"""Each :class:`Shape` field but ``kind`` and its default, in order (read once: a room
encodes thousands of shapes a second)."""


@dataclass(frozen=True)
class LegendEntry:
    """A line of the legend: ``label``, and the look of its sample (a ``marker`` or a
    patch of ``fill``; ``line``: a line sample)."""

    label: str
    fill: str | None = None
    stroke: str | None = None
    marker: str | None = None
    line: bool = False

    def as_json(self) -> dict:
        return {"label": self.label, "fill": self.fill, "stroke": self.stroke, "marker": self.marker,
                "line": self.line}


@dataclass(frozen=True)
class Sketch:
    """A drawing: ``title``, the region to show ``extent`` ``(xmin, xmax, ymin, ymax)``
    in mm, its ``shapes`` (drawn in ``z`` order, then in order), a ``legend``, and a
    ``background`` colour behind everything (``None``: none)."""

    title: str
    extent: tuple[float, float, float, float]
    shapes: tuple[Shape, ...]
    legend: tuple[LegendEntry, ...] = ()
    background: str | None = None

    def ids(self) -> set[str]:
        """The ids of its shapes (game objects), without the empty one."""
        return {s.id for s in self.shapes if s.id}

    def as_json(self) -> dict:
        """The sketch as JSON data (what a room's page receives)."""
        return {"title": self.title, "extent": [round(v, 2) for v in self.extent],
                "background": self.background, "shapes": [s.as_json() for s in self.shapes],
                "legend": [e.as_json() for e in self.legend]}


def json_kept(draw: Callable[..., Iterable[Shape]], maxsize: int) -> Callable[..., str]:
    """``draw``'s shapes as JSON text: each :meth:`Shape.as_json` encoded compactly
    (``separators=(",", ":")``), joined by commas, a slice of a sketch's ``"shapes"``
    list; kept for its last ``maxsize`` argument tuples (a bounded LRU cache; the
    arguments hashable). A part of a drawing that changes rarely from one position to the
    next (a board's rooftop, a track) is drawn and encoded once, not at every version of
    every room. Its arguments must be all that ``draw`` reads, and public values only
    (what every reader of the drawing sees): the cache is shared by every room."""

    @functools.lru_cache(maxsize=maxsize)
    def kept(*args) -> str:
        return ",".join(json.dumps(shape.as_json(), allow_nan=False, separators=(",", ":")) for shape in draw(*args))

    return kept


# ------------------------------------------------------------------------------ constructors
def rect(id: str, x: float, y: float, w: float, h: float, **kw) -> Shape:
    """A rectangle with lower-left corner ``(x, y)``."""
    return Shape(Kind.RECT, id, float(x), float(y), w=float(w), h=float(h), **kw)


def circle(id: str, x: float, y: float, r: float, **kw) -> Shape:
    return Shape(Kind.CIRCLE, id, float(x), float(y), r=float(r), **kw)


def polygon(id: str, points: Iterable, **kw) -> Shape:
    return Shape(Kind.POLYGON, id, points=tuple((float(x), float(y)) for x, y in points), **kw)


def line(id: str, points: Iterable, **kw) -> Shape:
    return Shape(Kind.LINE, id, points=tuple((float(x), float(y)) for x, y in points), **kw)


def text(x: float, y: float, words: str, **kw) -> Shape:
    return Shape(Kind.TEXT, kw.pop("id", ""), float(x), float(y), text=str(words), **kw)


def mark(id: str, x: float, y: float, marker: str, label: str = "", **kw) -> Shape:
    """A token: a ``marker`` of ``size`` points at ``(x, y)`` with ``label`` inside."""
    return Shape(Kind.MARK, id, float(x), float(y), marker=marker, text=label, **kw)


def regular_polygon(x: float, y: float, sides: int, radius: float, turn: float = 0.0) -> list[tuple[float, float]]:
    """The corners of a regular polygon around ``(x, y)``; ``turn``: radians."""
    return [(x + radius * math.cos(turn + 2 * math.pi * k / sides), y + radius * math.sin(turn + 2 * math.pi * k / sides))
            for k in range(sides)]
