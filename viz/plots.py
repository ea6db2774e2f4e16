"""Whole pictures for the CLI, registered as ``furball.plot`` entry points."""
from __future__ import annotations

from . import style
from .draw import draw_arrow, draw_base, draw_swept, new_axes


def render_move(result):
    """Picture of a `furball move` result: every base outline (start and after each
    card), heading marks, the laid card arrows and the swept path. Returns the Figure."""
    colour = style.colour_for(0)
    title = (f"furball move: deck {result.deck.name}, base {result.base.name or 'custom'} "
             f"({result.base.length_mm:g} x {result.base.width_mm:g} mm)")
    figure, ax = new_axes(title)
    draw_base(ax, result.base, result.start, colour, label="start", alpha=style.GHOST_ALPHA + 0.3)
    for i, (card, pose, path, arrow) in enumerate(
            zip(result.cards, result.poses, result.paths, result.arrows), 1):
        draw_swept(ax, result.base, path.poses, colour)
        draw_arrow(ax, arrow, label=card.id)
        draw_base(ax, result.base, pose, colour, label=f"{i}: {card.id}")
    ax.autoscale_view()
    ax.margins(0.08)
    return figure
