"""The picture of `furball sweep`: the outcome of every grid point, with 95 % intervals.

With a numeric result column (Canuck's ``vp``) each grid point gets the distribution of
that column — the share of its games at each value, drawn as a step histogram — and,
above the histograms, its mean with the 95 % t interval. A game whose results are all
categories (a winner, a band) gets the share of each value per grid point with its
95 % Wilson interval instead.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from matplotlib.lines import Line2D

from . import style
from .picture import Picture

if TYPE_CHECKING:
    from furball.scenarios.engine.sweep import SweepResult

__all__ = ["sweep_picture", "outcome_column"]


def outcome_column(result: SweepResult) -> tuple[str, bool] | None:
    """The column the picture shows and whether it is numeric: the game's ``outcome``
    column when it names one, else the first numeric result column, else the first one
    (``None`` without rows)."""
    columns = result.result_columns()
    if not columns:
        return None
    chosen = getattr(result.plan.game, "outcome", None) if result.plan is not None else None
    if chosen in columns:
        values = result.column(chosen)
        return chosen, all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    for name in columns:
        values = result.column(name)
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
            return name, True
    return columns[0], False


def _colour(i: int) -> str:
    return style.CARD_COLOURS[i % len(style.CARD_COLOURS)]


def draw_distributions(ax, result: SweepResult, column: str):
    """Step histograms (share of games per value) and mean ± 95 % CI bars per point."""
    values = np.array(result.column(column), dtype=float)
    integers = bool(np.all(values == np.round(values)))
    lo, hi = float(values.min()), float(values.max())
    if integers and hi - lo <= 200:
        edges = np.arange(lo - 0.5, hi + 1.5)
    else:
        edges = np.histogram_bin_edges(values, bins=min(60, max(10, int(np.sqrt(len(values))))))
    top = 0.0
    stats = []
    for point in result.plan.points:
        v = np.array(result.column(column, point.index), dtype=float)
        if not len(v):
            continue
        counts, _ = np.histogram(v, bins=edges)
        share = counts / len(v)
        top = max(top, float(share.max()))
        ax.stairs(share, edges, color=_colour(point.index), linewidth=1.4, gid=f"hist:{point.index}")
        stats.append((point, result.mean(point.index, column)))
    for k, (point, (mean, low, high)) in enumerate(stats):
        y = top * (1.08 + 0.07 * k)
        ax.errorbar([mean], [y], xerr=[[mean - low], [high - mean]], fmt="o", color=_colour(point.index),
                    markersize=4, capsize=3, gid=f"mean:{point.index}")
    ax.set_xlabel(column, fontsize=style.FONT_SIZE)
    ax.set_ylabel("share of games", fontsize=style.FONT_SIZE)
    ax.set_ylim(0, top * (1.15 + 0.07 * len(stats)))
    return stats


def draw_shares(ax, result: SweepResult, column: str):
    """Grouped bars: the share of each value per point, with 95 % Wilson intervals."""
    levels = list(dict.fromkeys(result.column(column)))
    points = result.plan.points
    width = 0.8 / max(1, len(points))
    for j, point in enumerate(points):
        shares = result.shares(point.index, column, levels)
        x = np.arange(len(levels)) + (j - (len(points) - 1) / 2) * width
        p = np.array([s[0] for s in shares])
        err = np.array([[s[0] - s[1] for s in shares], [s[2] - s[0] for s in shares]])
        ax.bar(x, p, width=width * 0.9, color=_colour(point.index), alpha=0.8, gid=f"shares:{point.index}")
        ax.errorbar(x, p, yerr=err, fmt="none", ecolor=style.NEUTRAL, capsize=2, linewidth=0.8)
    ax.set_xticks(np.arange(len(levels)), [str(v) for v in levels], fontsize=style.FONT_SIZE)
    ax.set_xlabel(column, fontsize=style.FONT_SIZE)
    ax.set_ylabel("share of games (95% Wilson CI)", fontsize=style.FONT_SIZE)
    ax.set_ylim(0, 1.05)


def sweep_picture(result: SweepResult) -> Picture:
    """The :class:`Picture` (a chart) of a finished sweep."""
    plan = result.plan
    picked = outcome_column(result)
    title = style.title("sweep", plan.game.title, extra=f"{plan.games} games per point, seed {plan.seed}")
    stats_box = []

    def draw(ax):
        ax.grid(True, linewidth=0.3, alpha=0.5)
        if picked is None:
            ax.text(0.5, 0.5, "no games", ha="center", transform=ax.transAxes)
        elif picked[1]:
            stats_box.extend(draw_distributions(ax, result, picked[0]))
        else:
            draw_shares(ax, result, picked[0])
        return ax

    def legend(ax):
        handles = []
        for point in plan.points:
            text = point.label
            found = [s for p, s in stats_box if p.index == point.index]
            if found:
                mean, low, high = found[0]
                text += f": mean {mean:.2f} ({low:.2f} to {high:.2f})"
            handles.append(Line2D([], [], color=_colour(point.index), linewidth=2, label=text))
        ax.legend(handles=handles, fontsize=style.FONT_SIZE, loc="upper left", framealpha=0.9,
                  title="grid point: mean (95% CI)" if stats_box else "grid point", title_fontsize=style.FONT_SIZE)

    return Picture(title, draw, (0.0, 1.0, 0.0, 1.0), legend, chart=True)
