"""Picture of a dogfight turn (``furball turn --plot``)."""
from __future__ import annotations

from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from . import style
from .draw import draw_arrow, draw_base, draw_swept, draw_table, new_axes


def side_colours(planes) -> dict[str, str]:
    """Side name -> colour: sides sorted by name, so a side keeps its colour from
    picture to picture."""
    return {side: style.colour_for(i) for i, side in enumerate(sorted({p.side for p in planes}))}


def render_turn(result):
    """Draw a :class:`~scenarios.dogfight.turn.TurnResult`: the table, every plane's
    swept paths, card arrows and bases after each maneuver (labels give altitude), tail
    rulers (green kept, red lost), overlaps (orange) and collision tests (crimson)."""
    s = result.before
    colours = side_colours(s.planes)
    title = f'furball turn: "{s.name}", turn {s.turn} (seed {result.seed})'
    figure, ax = new_axes(title, size_in=(8.0, 8.0))
    ax.set_aspect("equal", adjustable="box")
    draw_table(ax, s.table_width_mm, s.table_height_mm)
    by_name = {p.name: p for p in s.planes}
    for p in s.planes:
        draw_base(ax, p.base, p.pose, colours[p.side], alpha=style.GHOST_ALPHA,
                  label=f"{p.name} ▲{p.altitude}" if not result.maneuvers or p.status != "flying" else None)
    for c in result.tails:
        (a, b) = c.stands
        ax.plot([a[0], b[0]], [a[1], b[1]], color=style.TAIL_KEPT, linewidth=1.6, alpha=0.8, zorder=5)
    for m in result.maneuvers:
        last = m.index == len(result.maneuvers)
        for mv in m.moves:
            p = next(q for q in m.planes if q.name == mv.plane)
            colour = colours[p.side]
            draw_swept(ax, p.base, mv.path.poses, colour)
            draw_arrow(ax, mv.arrow)
            label = f"{mv.plane} ▲{mv.altitude}" if last else f"{m.index}"
            draw_base(ax, p.base, mv.end, colour, label=label,
                      alpha=1.0 if last else 0.45 + 0.15 * m.index)
        for c in m.tail_checks:
            (a, b) = c.stands
            ax.plot([a[0], b[0]], [a[1], b[1]], color=style.TAIL_KEPT if c.ok else style.TAIL_LOST,
                    linewidth=1.3, linestyle="-" if c.ok else "--", alpha=0.85, zorder=5)
        planes_now = {q.name: q for q in m.planes}
        for a_name, b_name in m.overlaps:
            for n in (a_name, b_name):
                q = planes_now[n]
                draw_base(ax, q.base, q.pose, style.OVERLAP, fill=True, alpha=0.35, linewidth=2.0)
        for t in m.collisions:
            for n in (t.a, t.b):
                q = planes_now[n]
                draw_base(ax, q.base, q.pose, style.COLLISION, linewidth=2.6)
            qa = planes_now[t.a]
            outcome = "collide" if t.collided else "miss"
            ax.annotate(f"collision P={t.probability}: {outcome}", qa.stand, xytext=(6, -14),
                        textcoords="offset points", fontsize=style.FONT_SIZE, color=style.COLLISION,
                        fontweight="bold")
        for n in m.left_table:
            q = planes_now[n]
            ax.plot(*q.stand, marker="X", markersize=10, color=style.TAIL_LOST, zorder=6)
            ax.annotate(f"{n} out (DF.E1)", q.stand, xytext=(6, 6), textcoords="offset points",
                        fontsize=style.FONT_SIZE, color=style.TAIL_LOST)
        if last:
            for x in m.shots:
                ax.plot([x.gun[0], x.aim[0]], [x.gun[1], x.aim[1]], color=colours[by_name[x.shooter].side],
                        linewidth=0.9, linestyle=":", zorder=4)
    handles = [Patch(facecolor="none", edgecolor=c, label=side) for side, c in colours.items()]
    handles += [Line2D([], [], color=style.TAIL_KEPT, label="tail kept"),
                Line2D([], [], color=style.TAIL_LOST, linestyle="--", label="tail lost"),
                Patch(facecolor=style.OVERLAP, alpha=0.35, label="overlap"),
                Patch(facecolor="none", edgecolor=style.COLLISION, linewidth=2, label="collision test"),
                Line2D([], [], color=style.NEUTRAL, linestyle=":", label="firing position (end)")]
    ax.legend(handles=handles, loc="best", fontsize=style.FONT_SIZE, framealpha=0.85)
    _frame_action(ax, result)
    return figure


def _frame_action(ax, result, margin_mm: float = 80.0):
    """Zoom on the planes' bases and paths (with a margin), never beyond the table's
    edge by more than the margin; equal aspect."""
    import numpy as np

    pts = [p.base.corners(p.pose) for p in result.before.planes]
    for m in result.maneuvers:
        pts += [mv.path.poses[:, :2] for mv in m.moves]
        pts += [p.base.corners(p.pose) for p in m.planes]
    pts = np.vstack(pts)
    s = result.before
    lo = np.maximum(pts.min(axis=0) - margin_mm, [-margin_mm / 2, -margin_mm / 2])
    hi = np.minimum(pts.max(axis=0) + margin_mm, [s.table_width_mm + margin_mm / 2, s.table_height_mm + margin_mm / 2])
    centre, half = (lo + hi) / 2, max(hi - lo) / 2
    ax.set_xlim(centre[0] - half, centre[0] + half)
    ax.set_ylim(centre[1] - half, centre[1] + half)
