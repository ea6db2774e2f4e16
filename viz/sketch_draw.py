"""Drawing a :class:`~viz.sketch.Sketch` with matplotlib: the PNG side of the drawing
description a room's page draws as SVG (``static/js/sketch.js``). Every artist that stands
for a game object carries its shape's id as ``gid``."""
from __future__ import annotations

from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyBboxPatch, Patch, Polygon, Rectangle

from . import style
from .picture import Picture
from .sketch import Kind, Shape, Sketch

__all__ = ["draw_shapes", "sketch_picture"]

_HA = {"start": "left", "middle": "center", "end": "right"}
_VA = {"top": "top", "middle": "center", "bottom": "bottom"}


def _patch(s: Shape):
    look = dict(facecolor=s.fill or "none", edgecolor=s.stroke or "none", linewidth=s.width if s.stroke else 0.0,
                alpha=s.alpha, linestyle="--" if s.dash else "-")
    if s.kind == Kind.RECT:
        if s.round > 0:
            return FancyBboxPatch((s.x, s.y), s.w, s.h, boxstyle=f"round,pad=0,rounding_size={s.round}", **look)
        return Rectangle((s.x, s.y), s.w, s.h, **look)
    if s.kind == Kind.CIRCLE:
        return Circle((s.x, s.y), s.r, **look)
    return Polygon(s.points, closed=True, **look)


def draw_shapes(ax, shapes) -> list:
    """Draw ``shapes`` on ``ax`` (in ``z`` order, then in order). Returns the artists."""
    artists = []
    for s in sorted(shapes, key=lambda s: s.z):
        if s.kind in (Kind.RECT, Kind.CIRCLE, Kind.POLYGON):
            a = _patch(s)
            a.set_zorder(s.z)
            ax.add_patch(a)
        elif s.kind == Kind.LINE:
            xs, ys = zip(*s.points)
            (a,) = ax.plot(xs, ys, color=s.stroke or style.NEUTRAL, linewidth=s.width, alpha=s.alpha,
                           linestyle="--" if s.dash else "-", zorder=s.z, solid_capstyle="round")
        elif s.kind == Kind.MARK:
            (a,) = ax.plot([s.x], [s.y], marker=s.marker, markersize=s.size, color=s.fill or style.NEUTRAL,
                           markeredgecolor=s.stroke or "none", markeredgewidth=s.width, linestyle="",
                           alpha=s.alpha, zorder=s.z)
            if s.text:
                artists.append(ax.text(s.x, s.y, s.text, ha="center", va="center", fontsize=s.font, color=s.colour,
                                       fontweight="bold" if s.bold else "normal", zorder=s.z + 1))
        else:
            a = ax.text(s.x, s.y, s.text, ha=_HA[s.anchor], va=_VA[s.valign], fontsize=s.font, color=s.colour,
                        fontweight="bold" if s.bold else "normal", alpha=s.alpha, zorder=s.z)
        if s.id:
            a.set_gid(s.id)
        artists.append(a)
    return artists


def _legend_handles(sketch: Sketch) -> list:
    handles = []
    for e in sketch.legend:
        if e.marker:
            handles.append(Line2D([], [], marker=e.marker, linestyle="", color=e.fill or style.NEUTRAL,
                                  markeredgecolor=e.stroke or "black", label=e.label))
        elif e.line:
            handles.append(Line2D([], [], color=e.stroke or e.fill or style.NEUTRAL, linewidth=2.0, label=e.label))
        else:
            handles.append(Patch(facecolor=e.fill or "none", edgecolor=e.stroke or "none", label=e.label))
    return handles


def sketch_picture(sketch: Sketch) -> Picture:
    """The :class:`~viz.picture.Picture` that draws ``sketch`` (its background, shapes
    and legend)."""
    def draw(ax):
        if sketch.background is not None:
            ax.set_facecolor(sketch.background)
        return draw_shapes(ax, sketch.shapes)

    def legend(ax):
        leg = ax.legend(handles=_legend_handles(sketch), loc="upper left", bbox_to_anchor=(1.01, 1.0),
                        fontsize=style.FONT_SIZE, borderaxespad=0.0)
        leg.get_frame().set_facecolor("#fdfefe")

    return Picture(sketch.title, draw, sketch.extent, legend if sketch.legend else None)
