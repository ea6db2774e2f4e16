"""One look for every furball picture: colours, line widths, fonts, titles.

Sides get fixed colours (sides sorted by name), so a side keeps its colour from
picture to picture; tails are green (kept) or red (lost); overlaps orange; collision
tests crimson; damage cards dark red, planes lost a black cross; left/right twin
cards share a colour in a deck fan.
"""
from __future__ import annotations

SIDE_COLOURS = ("#1f5fbf", "#c0392b", "#2e8b57", "#8e44ad", "#d68910", "#17a2b8")
"""Colours given to sides, in the order of their sorted names."""

CARD_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939",
                "#8c6d31", "#843c39", "#7b4173", "#3182bd")
"""Colours of a deck fan's cards; twins share one."""

NEUTRAL = "#333333"
ARROW = "#555555"
START = "#000000"
SWEPT_ALPHA = 0.12
OUTLINE_WIDTH = 1.4
GHOST_ALPHA = 0.35
TAIL_KEPT = "#1e9e3c"
TAIL_LOST = "#d62728"
OVERLAP = "#ff8c00"
COLLISION = "#b0003a"
DAMAGE = "#7b241c"
LOST = "#000000"
TAIL_ZONE = "#1e9e3c"
SHORT_RANGE = "#d62728"
LONG_RANGE = "#f5b7b1"
TABLE_EDGE = "#7a6a53"
CLOSE_CALL = "#e6007e"
"""A ruling that may flip under placement error (docs/margins.md)."""
SHOT_CLOSE_CALL = "#7b2fbe"
"""A firing ruling that may flip under placement error (zones, docs/margins.md)."""
TABLE_FILL = "#f4efe6"
FONT_SIZE = 8
TITLE_SIZE = 10
FIGURE_DPI = 150
FIGURE_SIZE_IN = (8.0, 8.0)


def colour_for(index: int) -> str:
    """The colour of side number ``index`` (in sorted order)."""
    return SIDE_COLOURS[index % len(SIDE_COLOURS)]


def side_colours(sides) -> dict[str, str]:
    """Side name -> colour, sides sorted by name."""
    return {side: colour_for(i) for i, side in enumerate(sorted(set(sides)))}


def title(kind: str, name: str, turn: int | None = None, maneuver: int | None = None,
          extra: str = "") -> str:
    """Picture titles say what, which scenario, turn and maneuver."""
    parts = [f"furball {kind}: {name}"]
    if turn is not None:
        parts.append(f"turn {turn}")
    if maneuver is not None:
        parts.append(f"maneuver {maneuver}")
    text = ", ".join(parts)
    return f"{text} ({extra})" if extra else text
