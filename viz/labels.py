"""Labels a player can read: a small repel step that moves labels off bases and off
each other.

Every label drawn with :func:`label` is an annotation anchored at a table point and
offset in points, tagged ``gid="label:..."``. :func:`repel_labels` (called by
:func:`viz.picture.render` once the axes' limits are set) measures each label's box on
screen and puts it at the nearest of a few dozen candidate offsets around its anchor
where it covers no base outline (patches tagged ``gid="base:..."``) and no label placed
before it — the anchor stays where the label belongs, and a thin leader line joins a
label that moved far to it.
"""
from __future__ import annotations

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg

__all__ = ["label", "repel_labels"]


def label(ax, text: str, at, colour: str, size: float, offset=(3, 3), gid: str = "label", **kw):
    """An annotation at table point ``at``, offset in points, that the repel step may move."""
    a = ax.annotate(text, tuple(np.asarray(at, float)), xytext=offset, textcoords="offset points",
                    fontsize=size, color=colour,
                    arrowprops=dict(arrowstyle="-", color=colour, lw=0.5, alpha=0.6, shrinkA=0, shrinkB=2), **kw)
    a.arrow_patch.set_visible(False)  # shown only if the repel step moves the label away
    a.set_gid(gid if gid.startswith("label") else f"label:{gid}")
    return a


def _overlap(a, b) -> float:
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return w * h if w > 0 and h > 0 else 0.0


CANDIDATES = [(r * np.cos(t), r * np.sin(t)) for r in (4.0, 10.0, 18.0, 28.0, 40.0)
              for t in np.radians([45, 135, 315, 225, 90, 270, 0, 180])]
"""Offsets (points) tried for each label, nearest first."""


def repel_labels(ax) -> int:
    """Place each label at the nearest candidate offset where it covers no base and no
    label placed before it, inside the axes (else where it covers least). Returns how
    many labels moved from where they were drawn."""
    figure = ax.figure
    labels = [t for t in ax.texts if (t.get_gid() or "").startswith("label")]
    if not labels:
        return 0
    if not hasattr(figure.canvas, "get_renderer"):
        FigureCanvasAgg(figure)  # measure text with the Agg renderer
    renderer = figure.canvas.get_renderer()
    bases = [p.get_window_extent(renderer) for p in ax.patches if (p.get_gid() or "").startswith("base:")]
    frame = ax.get_window_extent(renderer)
    pt_to_px = figure.dpi / 72.0
    placed, moved = [], 0
    for t in labels:
        start = t.xyann
        box0 = t.get_window_extent(renderer)
        best = None
        for dx, dy in [start] + CANDIDATES:
            shift = ((dx - start[0]) * pt_to_px, (dy - start[1]) * pt_to_px)
            box = box0.translated(*shift)
            cost = sum(_overlap(box, b) for b in bases) + 4 * sum(_overlap(box, b) for b in placed)
            outside = box.x0 < frame.x0 or box.x1 > frame.x1 or box.y0 < frame.y0 or box.y1 > frame.y1
            cost += 1e6 if outside else 0.0
            if best is None or cost < best[0]:
                best = (cost, (dx, dy), box)
            if cost == 0:
                break
        _, offset, box = best
        if offset != start:
            t.xyann = offset
            moved += 1
            if np.hypot(*offset) > 12 and t.arrow_patch is not None:
                t.arrow_patch.set_visible(True)
        placed.append(box)
    return moved
