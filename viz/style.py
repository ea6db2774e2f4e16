"""One look for every furball picture: colours, line widths, fonts.

Sides get fixed colours so a plane keeps its colour from picture to picture; tails are
green (kept) or red (lost/failed); overlaps orange; collisions crimson.
"""
from __future__ import annotations

SIDE_COLOURS = ("#1f5fbf", "#c0392b", "#2e8b57", "#8e44ad", "#d68910", "#17a2b8")
"""Colours given to sides (or to planes, when there are no sides), in order."""

NEUTRAL = "#333333"
ARROW = "#555555"
SWEPT_ALPHA = 0.12
OUTLINE_WIDTH = 1.4
GHOST_ALPHA = 0.35
TAIL_KEPT = "#1e9e3c"
TAIL_LOST = "#d62728"
OVERLAP = "#ff8c00"
COLLISION = "#b0003a"
TABLE_EDGE = "#7a6a53"
TABLE_FILL = "#f4efe6"
FONT_SIZE = 8
TITLE_SIZE = 10
FIGURE_DPI = 150


def colour_for(index: int) -> str:
    """The colour of side (or plane) number ``index``."""
    return SIDE_COLOURS[index % len(SIDE_COLOURS)]
