"""A picture: what to draw (in table millimetres), where, and its title.

Every furball picture is a :class:`Picture`, so one drawing serves the screen plot
(:func:`render`), the true-scale PDF (``viz.true_scale``) and animation frames.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import style
from .draw import new_axes
from .labels import repel_labels

__all__ = ["Picture", "render", "extent_of"]


@dataclass(frozen=True)
class Picture:
    """``draw(ax)`` draws in table mm and returns its artists; ``extent_mm`` is the
    region to show ``(xmin, xmax, ymin, ymax)``; ``legend(ax)`` adds a legend (or None).
    A ``chart`` (statistics, not a table) draws in its own units: no equal aspect, the
    axes fit what was drawn, and ``extent_mm`` is not used."""

    title: str
    draw: Callable
    extent_mm: tuple[float, float, float, float]
    legend: Callable | None = None
    chart: bool = False


def extent_of(points, margin_mm: float = 40.0) -> tuple[float, float, float, float]:
    """Bounding box of table points ``(K, 2)`` with a margin, in mm."""
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    lo, hi = pts.min(axis=0) - margin_mm, pts.max(axis=0) + margin_mm
    return float(lo[0]), float(hi[0]), float(lo[1]), float(hi[1])


def render(picture: Picture, width_in: float = style.FIGURE_SIZE_IN[0]):
    """The picture as a matplotlib Figure: axes in mm, equal aspect, title, legend
    (outside, to the right, when the picture has one). The figure takes the extent's
    shape (between 1:2 and 5:2)."""
    if picture.chart:
        figure, ax = new_axes(picture.title, size_in=(width_in, width_in * 0.6))
        ax.set_aspect("auto")
        picture.draw(ax)
        if picture.legend is not None:
            picture.legend(ax)
        figure.tight_layout()
        return figure
    xmin, xmax, ymin, ymax = picture.extent_mm
    aspect = min(2.5, max(0.5, (xmax - xmin) / max(ymax - ymin, 1e-9)))
    xmin, xmax, ymin, ymax = _fit(picture.extent_mm, aspect)
    legend_in = 2.2 if picture.legend is not None else 0.0
    plot_w = width_in
    figure, ax = new_axes(picture.title, size_in=(plot_w + legend_in, plot_w / aspect + 0.9))
    ax.set_aspect("equal", adjustable="box")
    picture.draw(ax)
    ax.set_xlim(xmin, xmax)
    ax.set_ylim(ymin, ymax)
    if picture.legend is not None:
        picture.legend(ax)
    figure.tight_layout()
    repel_labels(ax)
    return figure


def _fit(extent, aspect: float):
    """Grow ``extent`` around its centre to the width/height ratio ``aspect``."""
    xmin, xmax, ymin, ymax = extent
    w, h = xmax - xmin, ymax - ymin
    if w / max(h, 1e-9) < aspect:
        w = h * aspect
    else:
        h = w / aspect
    cx, cy = (xmin + xmax) / 2, (ymin + ymax) / 2
    return cx - w / 2, cx + w / 2, cy - h / 2, cy + h / 2
