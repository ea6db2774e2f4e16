"""Drawing primitives. Each takes an ``ax`` and returns the artists it drew.

Lengths are table millimetres; headings degrees. Nothing outside :mod:`viz` imports
matplotlib.
"""
from __future__ import annotations

import numpy as np
import shapely
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, Polygon as PolygonPatch, Rectangle

from geometry.base import Base
from geometry.pose import Pose

from . import style


def new_axes(title: str = "", size_in: tuple[float, float] = (7.0, 7.0)):
    """A fresh figure and axes set up for table drawing (mm axes, equal aspect)."""
    figure = Figure(figsize=size_in, dpi=style.FIGURE_DPI)
    ax = figure.add_subplot()
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_xlabel("x (mm)", fontsize=style.FONT_SIZE)
    ax.set_ylabel("y (mm)", fontsize=style.FONT_SIZE)
    ax.tick_params(labelsize=style.FONT_SIZE)
    ax.grid(True, linewidth=0.3, alpha=0.5)
    if title:
        ax.set_title(title, fontsize=style.TITLE_SIZE)
    return figure, ax


def draw_base(ax, base: Base, pose: Pose, colour: str, label: str | None = None,
              alpha: float = 1.0, fill: bool = False, linewidth: float = style.OUTLINE_WIDTH):
    """Base outline at ``pose`` with its heading mark (a line from the stand to the
    front mark) and optional label. Returns the list of artists."""
    corners = base.corners(pose)
    patch = PolygonPatch(corners, closed=True, fill=fill, facecolor=colour if fill else "none",
                         edgecolor=colour, linewidth=linewidth, alpha=alpha)
    ax.add_patch(patch)
    stand = base.stand_point(pose)
    front = pose.apply([base.front_mark_mm, 0.0])
    (heading,) = ax.plot([stand[0], front[0]], [stand[1], front[1]], color=colour,
                         linewidth=linewidth, alpha=alpha, solid_capstyle="round")
    (peg,) = ax.plot([stand[0]], [stand[1]], marker="o", markersize=2.5, color=colour, alpha=alpha)
    artists = [patch, heading, peg]
    if label:
        artists.append(ax.annotate(label, stand, xytext=(3, 3), textcoords="offset points",
                                   fontsize=style.FONT_SIZE, color=colour, alpha=max(alpha, 0.8)))
    return artists


def draw_arrow(ax, points, colour: str = style.ARROW, label: str | None = None):
    """A card's arrow through table points ``(K, 2)``; a star for a zero-length arrow."""
    pts = np.asarray(points, dtype=float)
    artists = []
    if len(pts) < 2 or np.allclose(pts[0], pts[-1]) and len(pts) <= 2:
        (star,) = ax.plot([pts[0, 0]], [pts[0, 1]], marker="*", markersize=7, color=colour)
        artists.append(star)
    else:
        (line,) = ax.plot(pts[:-1, 0], pts[:-1, 1], color=colour, linewidth=1.0, linestyle="--")
        head = FancyArrowPatch(pts[-2], pts[-1], arrowstyle="-|>", mutation_scale=9,
                               color=colour, linewidth=1.0)
        ax.add_patch(head)
        artists += [line, head]
    if label:
        mid = pts[len(pts) // 2]
        artists.append(ax.annotate(label, mid, xytext=(4, -8), textcoords="offset points",
                                   fontsize=style.FONT_SIZE - 1, color=colour))
    return artists


def draw_swept(ax, base: Base, poses, colour: str):
    """The area swept by the base over the sample ``poses`` ``(K, 3)``: a light fill of
    the union of the outlines (shapely), and the trace of the stand."""
    polys = [base.polygon(Pose.from_array(p)) for p in np.asarray(poses)]
    area = shapely.union_all(polys)
    artists = []
    for geom in getattr(area, "geoms", [area]):
        if geom.is_empty:
            continue
        patch = PolygonPatch(np.asarray(geom.exterior.coords), closed=True, facecolor=colour,
                             edgecolor="none", alpha=style.SWEPT_ALPHA)
        ax.add_patch(patch)
        artists.append(patch)
    stands = np.array([base.stand_point(Pose.from_array(p)) for p in np.asarray(poses)])
    (trace,) = ax.plot(stands[:, 0], stands[:, 1], color=colour, linewidth=0.8, alpha=0.6)
    artists.append(trace)
    return artists


def draw_table(ax, width_mm: float, height_mm: float):
    """The play area ``[0, width] x [0, height]`` as a filled rectangle."""
    rect = Rectangle((0, 0), width_mm, height_mm, facecolor=style.TABLE_FILL,
                     edgecolor=style.TABLE_EDGE, linewidth=1.5, zorder=-10)
    ax.add_patch(rect)
    return [rect]
