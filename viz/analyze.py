"""The picture of a plan analysis: the best plans' paths on the table, and a heat map of
pair scores (the plane's best plans x the enemy's plans)."""
from __future__ import annotations

import numpy as np
from matplotlib.lines import Line2D

from furball.maneuvers.path import path_poses

from . import style
from .draw import draw_base, draw_swept, draw_table, table_axes
from .picture import Picture, extent_of

__all__ = ["analyze_picture", "analyze_figure", "draw_analysis", "draw_heat", "PATHS_SHOWN"]

PATHS_SHOWN = 3
"""How many of the best plans are drawn on the table."""


def _paths(report, plane, plan):
    """Sampled poses ``(K, 3)`` per card of ``plan`` flown from the plane's start."""
    pose, out = plane.pose, []
    for card_id in plan:
        samples = path_poses(pose, plane.deck.card(card_id), plane.base)
        out.append(samples.poses)
        pose = type(pose).from_array(samples.poses[-1])
    return out


def draw_analysis(ax, report):
    """The table, every plane at its start, the best plans' swept paths and end bases."""
    table = report.table
    me = table.plane(report.plane)
    colours = style.side_colours(p.side for p in table.planes)
    draw_table(ax, table.width_mm, table.height_mm)
    for p in table.planes:
        if p.on_table:
            draw_base(ax, p.base, p.pose, colours[p.side], label=p.name, alpha=1.0 if p.name == me.name else 0.6,
                      gid=f"base:{p.name}:start")
    for rank, i in enumerate(report.ranking[:PATHS_SHOWN], start=1):
        plan = report.plans[int(i)]
        colour = style.CARD_COLOURS[(rank - 1) % len(style.CARD_COLOURS)]
        for k, poses in enumerate(_paths(report, me, plan)):
            draw_swept(ax, me.base, poses, colour)
            draw_base(ax, me.base, type(me.pose).from_array(poses[-1]), colour, alpha=0.5 + 0.15 * k,
                      label=f"#{rank}" if k == len(plan) - 1 else None, gid=f"path:{rank}:{k + 1}")
    return ax


def draw_heat(inset, report, enemy):
    """The heat map of pair scores against ``enemy`` on axes ``inset``: rows the plane's
    best plans (best on top), columns the enemy's plans, most dangerous first."""
    heat = enemy.heat
    if heat.size == 0:
        return None
    limit = float(np.max(np.abs(heat))) or 1.0
    image = inset.imshow(heat, aspect="auto", cmap="RdYlGn", vmin=-limit, vmax=limit, interpolation="nearest")
    image.set_gid(f"heat:{enemy.name}")
    rows = [" ".join(report.plans[int(i)]) for i in enemy.heat_rows]
    step = max(1, len(rows) // 20)
    inset.set_yticks(range(0, len(rows), step))
    inset.set_yticklabels([f"#{k + 1} {rows[k]}" for k in range(0, len(rows), step)], fontsize=style.FONT_SIZE - 2)
    inset.set_xlabel(f"{enemy.name}'s {len(enemy.plans)} plans (most dangerous to {report.plane} first)",
                     fontsize=style.FONT_SIZE)
    inset.set_ylabel(f"{report.plane}'s best plans", fontsize=style.FONT_SIZE)
    inset.tick_params(labelsize=style.FONT_SIZE - 1)
    inset.set_title(f"pair scores against {enemy.name}", fontsize=style.TITLE_SIZE)
    bar = inset.figure.colorbar(image, ax=inset, fraction=0.05, pad=0.02)
    bar.set_label("pair score (higher: better for " + report.plane + ")", fontsize=style.FONT_SIZE)
    bar.ax.tick_params(labelsize=style.FONT_SIZE - 1)
    return image


def analyze_figure(report):
    """The whole picture as a matplotlib Figure: the table (best paths) on the left, one
    heat map per enemy (at most two) on the right."""
    from matplotlib.figure import Figure

    pic = analyze_picture(report)
    heats = report.enemies[:2]
    figure = Figure(figsize=(15.0, 7.0), dpi=style.FIGURE_DPI)
    grid = figure.add_gridspec(max(1, len(heats)), 2, width_ratios=[1.0, 1.15])
    ax = table_axes(figure.add_subplot(grid[:, 0]), pic.title)
    pic.draw(ax)
    xmin, xmax, ymin, ymax = pic.extent_mm
    ax.set_xlim(xmin, xmax)
    ax.set_ylim(ymin, ymax)
    pic.legend(ax)
    for k, enemy in enumerate(heats):
        draw_heat(figure.add_subplot(grid[k, 1]), report, enemy)
    figure.tight_layout()
    return figure


def analyze_picture(report) -> Picture:
    """The analysis as a :class:`~viz.picture.Picture`."""
    me = report.table.plane(report.plane)
    pts = [p.base.corners(p.pose) for p in report.table.planes if p.on_table]
    for i in report.ranking[:PATHS_SHOWN]:
        pts += [poses[:, :2] for poses in _paths(report, me, report.plans[int(i)])]
    vs = ", ".join(e.name for e in report.enemies) or "nobody in reach"
    title = style.title("analyze", f"{report.plane} vs {vs} in \"{report.table.name}\"", report.table.turn,
                        extra=f"{len(report.plans)} plans, best {PATHS_SHOWN} drawn")

    def legend(ax):
        handles = [Line2D([], [], color=style.CARD_COLOURS[k], linewidth=3,
                          label=f"#{k + 1} " + " ".join(report.plans[int(i)]))
                   for k, i in enumerate(report.ranking[:PATHS_SHOWN])]
        ax.legend(handles=handles, loc="lower left", fontsize=style.FONT_SIZE, framealpha=0.9)

    return Picture(title, lambda ax: draw_analysis(ax, report), extent_of(np.vstack(pts), 60.0), legend)
