"""The picture of a dogfight game (``furball play dogfight --plot``): its last turn
flown, with every shot, damage card and plane lost (:mod:`.turn`), titled with the
outcome; before any turn, the table as it stands."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from . import style
from .draw import draw_base, draw_table
from .picture import Picture, extent_of
from .turn import turn_picture

__all__ = ["dogfight_picture"]


def dogfight_picture(state) -> Picture:
    """The :class:`Picture` of a game state (:class:`scenarios.dogfight.state.State`)."""
    t = state.table
    verdict = f"winner {state.winner}" if state.winner else "game not over"
    if state.last is not None:
        pic = turn_picture(state.last)
        return replace(pic, title=style.title("dogfight", f'"{t.name}"', state.last.before.turn,
                                              extra=f"last turn flown; {verdict}; seed {state.seed}"))
    colours = style.side_colours(p.side for p in t.planes)

    def draw(ax):
        draw_table(ax, t.width_mm, t.height_mm)
        for p in t.planes:
            if p.on_table:
                draw_base(ax, p.base, p.pose, colours[p.side], label=f"{p.name} ▲{p.altitude}",
                          gid=f"base:{p.name}:0")
        return ax

    corners = [p.base.corners(p.pose) for p in t.planes]
    return Picture(style.title("dogfight", f'"{t.name}"', t.turn, extra=f"{verdict}; seed {state.seed}"), draw,
                   extent_of(np.vstack(corners), 60.0))
