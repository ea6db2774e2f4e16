"""Drawing primitives. Each takes an ``ax`` and returns the artists it drew.

Lengths are table millimetres; headings degrees. Nothing outside :mod:`viz` imports
matplotlib.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import shapely
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, Rectangle
from matplotlib.patches import Polygon as PolygonPatch

from furball.geometry.base import Base, rectangle_corners
from furball.geometry.pose import Pose, to_table_batch

from . import style
from .labels import label as place_label


def new_axes(title: str = "", size_in: tuple[float, float] = (7.0, 7.0)):
    """A fresh figure and axes set up for table drawing (mm axes, equal aspect)."""
    figure = Figure(figsize=size_in, dpi=style.FIGURE_DPI)
    ax = figure.add_subplot()
    table_axes(ax, title)
    return figure, ax


def table_axes(ax, title: str = "", adjustable: str = "datalim"):
    """Set up ``ax`` for table drawing: mm axes, equal aspect, light grid, title."""
    ax.set_aspect("equal", adjustable=adjustable)
    ax.set_xlabel("x (mm)", fontsize=style.FONT_SIZE)
    ax.set_ylabel("y (mm)", fontsize=style.FONT_SIZE)
    ax.tick_params(labelsize=style.FONT_SIZE)
    ax.grid(True, linewidth=0.3, alpha=0.5)
    if title:
        ax.set_title(title, fontsize=style.TITLE_SIZE)
    return ax


def draw_base(ax, base: Base, pose: Pose, colour: str, label: str | None = None,
              alpha: float = 1.0, fill: bool = False, linewidth: float = style.OUTLINE_WIDTH,
              gid: str | None = None):
    """Base outline at ``pose`` with its heading mark (a line from the stand to the
    front mark) and optional label. ``gid`` tags the outline (e.g. ``"base:Camel:2"``)
    so tests and tools can find it. Returns the list of artists."""
    corners = base.corners(pose)
    patch = PolygonPatch(corners, closed=True, fill=fill, facecolor=colour if fill else "none",
                         edgecolor=colour, linewidth=linewidth, alpha=alpha)
    if gid:
        patch.set_gid(gid)
    ax.add_patch(patch)
    stand = base.stand_point(pose)
    front = pose.apply([base.front_mark_mm, 0.0])
    (heading,) = ax.plot([stand[0], front[0]], [stand[1], front[1]], color=colour,
                         linewidth=linewidth, alpha=alpha, solid_capstyle="round")
    (peg,) = ax.plot([stand[0]], [stand[1]], marker="o", markersize=2.5, color=colour, alpha=alpha)
    artists = [patch, heading, peg]
    if label:
        artists.append(place_label(ax, label, stand, colour, style.FONT_SIZE, alpha=max(alpha, 0.8),
                                   gid=f"label:{label}"))
    return artists


def draw_arrow(ax, points, colour: str = style.ARROW, label: str | None = None, linewidth: float = 1.0):
    """A card's arrow through table points ``(K, 2)``; a star for a zero-length arrow."""
    pts = np.asarray(points, dtype=float)
    artists = []
    if len(pts) < 2 or np.allclose(pts[0], pts[-1]) and len(pts) <= 2:
        (star,) = ax.plot([pts[0, 0]], [pts[0, 1]], marker="*", markersize=7, color=colour)
        artists.append(star)
    else:
        (line,) = ax.plot(pts[:-1, 0], pts[:-1, 1], color=colour, linewidth=linewidth, linestyle="--")
        head = FancyArrowPatch(pts[-2], pts[-1], arrowstyle="-|>", mutation_scale=9,
                               color=colour, linewidth=linewidth)
        ax.add_patch(head)
        artists += [line, head]
    if label:
        mid = pts[len(pts) // 2]
        artists.append(ax.annotate(label, mid, xytext=(4, -8), textcoords="offset points",
                                   fontsize=style.FONT_SIZE - 1, color=colour))
    return artists


@lru_cache(maxsize=512)
def _swept_area(length_mm: float, width_mm: float, stand: tuple, pose_bytes: bytes):
    poses = np.frombuffer(pose_bytes).reshape(-1, 3)
    outlines = shapely.polygons(rectangle_corners(poses, length_mm, width_mm))
    stands = to_table_batch(poses, np.array([stand]))[:, 0, :]
    return shapely.union_all(outlines), stands


def draw_swept(ax, base: Base, poses, colour: str, alpha: float = style.SWEPT_ALPHA):
    """The area swept by the base over the sample ``poses`` ``(K, 3)``: a light fill of
    the union of the outlines (shapely), and the trace of the stand."""
    poses = np.ascontiguousarray(poses, dtype=float)
    area, stands = _swept_area(base.length_mm, base.width_mm, (base.stand_x_mm, base.stand_y_mm),
                               poses.tobytes())
    artists = draw_polygon(ax, area, colour, alpha=alpha)
    (trace,) = ax.plot(stands[:, 0], stands[:, 1], color=colour, linewidth=0.8, alpha=0.6)
    artists.append(trace)
    return artists


def draw_polygon(ax, geometry, colour: str, alpha: float = 0.25, edge: str | None = None, gid=None):
    """A shapely (multi)polygon, holes included, filled; returns the artists."""
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    artists = []
    for geom in getattr(geometry, "geoms", [geometry]):
        if geom.is_empty or geom.geom_type != "Polygon":
            continue
        rings = [np.asarray(geom.exterior.coords)] + [np.asarray(r.coords) for r in geom.interiors]
        verts = np.vstack(rings)
        codes = np.concatenate([[Path.MOVETO] + [Path.LINETO] * (len(r) - 2) + [Path.CLOSEPOLY] for r in rings])
        patch = PathPatch(Path(verts, codes), facecolor=colour, edgecolor=edge or "none", alpha=alpha,
                          linewidth=0.8)
        if gid:
            patch.set_gid(gid)
        ax.add_patch(patch)
        artists.append(patch)
    return artists


def draw_table(ax, width_mm: float, height_mm: float):
    """The play area ``[0, width] x [0, height]`` as a filled rectangle."""
    rect = Rectangle((0, 0), width_mm, height_mm, facecolor=style.TABLE_FILL,
                     edgecolor=style.TABLE_EDGE, linewidth=1.5, zorder=-10)
    ax.add_patch(rect)
    return [rect]
