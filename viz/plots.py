"""The picture of `furball move`."""
from __future__ import annotations

import numpy as np

from . import style
from .draw import draw_arrow, draw_base, draw_swept
from .picture import Picture, extent_of


def draw_move(ax, result):
    """Every base outline (start, and after each card), heading marks, the laid card
    arrows and the swept path of a :class:`~maneuvers.move.MoveResult`."""
    colour = style.colour_for(0)
    draw_base(ax, result.base, result.start, colour, label="start", alpha=style.GHOST_ALPHA + 0.3,
              gid="base:start")
    for i, (card, pose, path, arrow) in enumerate(
            zip(result.cards, result.poses, result.paths, result.arrows), 1):
        draw_swept(ax, result.base, path.poses, colour)
        draw_arrow(ax, arrow, label=card.id)
        draw_base(ax, result.base, pose, colour, label=f"{i}: {card.id}", gid=f"base:{i}")
    return ax


def move_picture(result) -> Picture:
    base = result.base
    title = style.title("move", f"deck {result.deck.name}",
                        extra=f"base {base.name or 'custom'} {base.length_mm:g} x {base.width_mm:g} mm")
    pts = [result.base.corners(result.start)] + [p.poses[:, :2] for p in result.paths]
    pts += [result.base.corners(p) for p in result.poses]
    return Picture(title, lambda ax: draw_move(ax, result), extent_of(np.vstack(pts)))
