"""Deck fans: where every card of a deck puts the base, from one pose."""
from __future__ import annotations

import numpy as np
from matplotlib.lines import Line2D

from furball.geometry.pose import Pose

from . import style
from .draw import draw_arrow, draw_base, draw_swept
from .picture import Picture

GAP_MM = 80.0


def _bounds(f):
    pts = [f.base.corners(f.start)] + [e.path.poses[:, :2] for e in f.entries]
    pts += [f.base.corners(e.end) for e in f.entries]
    return np.vstack(pts)


def _offsets(fans):
    """x offsets that put the fans side by side, ``GAP_MM`` apart."""
    offsets, x = [], 0.0
    for i, f in enumerate(fans):
        b = _bounds(f)
        if i == 0:
            offsets.append(0.0)
            x = b[:, 0].max()
        else:
            off = x + GAP_MM - b[:, 0].min()
            offsets.append(off)
            x = b[:, 0].max() + off
    return offsets


def card_colours(f) -> dict[str, str]:
    """Card id -> colour; a card and its twin share one."""
    colours = {}
    for i, group in enumerate(f.twin_groups()):
        for cid in group:
            colours[cid] = style.CARD_COLOURS[i % len(style.CARD_COLOURS)]
    return colours


def draw_fan(ax, f, offset_mm: float = 0.0):
    """One fan: the start base (black), then for every card its swept path, its arrow
    and the base where it ends, labelled with the card id; twins share a colour."""
    shift = Pose(offset_mm, 0.0, 0.0)
    colours = card_colours(f)
    draw_base(ax, f.base, shift @ f.start, style.START, linewidth=2.0, gid=f"start:{f.deck.name}")
    for e in f.entries:
        c = colours[e.card.id]
        poses = e.path.poses.copy()
        poses[:, 0] += offset_mm
        draw_swept(ax, f.base, poses, c, alpha=0.035)
        draw_arrow(ax, e.arrow + [offset_mm, 0.0], colour=c, linewidth=0.8)
        draw_base(ax, f.base, shift @ e.end, c, label=e.card.id, alpha=0.9, linewidth=1.1,
                  gid=f"card:{f.deck.name}:{e.card.id}")
    b = _bounds(f)
    label = (f"deck {f.deck.name} ({f.deck.provenance}), base {f.base.name or 'custom'} "
             f"{f.base.length_mm:g}x{f.base.width_mm:g}")
    ax.annotate(label, ((b[:, 0].min() + b[:, 0].max()) / 2 + offset_mm, b[:, 1].max()),
                xytext=(0, 10), textcoords="offset points", ha="center", fontsize=style.TITLE_SIZE,
                fontweight="bold")
    return ax


def fan_picture(fans) -> Picture:
    fans = tuple(fans)
    offsets = _offsets(fans)
    names = " vs ".join(f.deck.name for f in fans)
    title = style.title("fan", f"deck {names}", extra="twins share a colour")

    def draw(ax):
        for f, off in zip(fans, offsets):
            draw_fan(ax, f, off)
        return ax

    def legend(ax):
        ax.legend(handles=[Line2D([], [], color=style.START, linewidth=2, label="start"),
                           Line2D([], [], color=style.ARROW, linestyle="--", label="card arrow")],
                  loc="lower right", fontsize=style.FONT_SIZE)

    pts = np.vstack([_bounds(f) + [off, 0.0] for f, off in zip(fans, offsets)])
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    return Picture(title, draw, (lo[0] - 10.0, hi[0] + 10.0, lo[1] - 10.0, hi[1] + 20.0), legend)
