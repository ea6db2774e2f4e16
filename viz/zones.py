"""The tailing/firing view of one plane."""
from __future__ import annotations

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from . import style
from .draw import draw_base, draw_polygon, draw_table
from .picture import Picture, extent_of


def draw_zones(ax, z):
    """Firing bands (short darker, long lighter), the tail zone (green), the close-call
    bands of tails (magenta) and shots (purple) when found, the plane, the friends' and
    landed planes' bases that block its ruler and line of fire, the enemies, and each
    enemy's stand marked by whether it can be tailed now."""
    plane = z.plane
    planes = [plane] + [e for e, _, _ in z.enemies] + list(z.blockers)
    colours = style.side_colours(p.side for p in planes)
    if z.table_mm[0] > 0:
        draw_table(ax, *z.table_mm)
    for short, long in z.bands:
        draw_polygon(ax, long, style.LONG_RANGE, alpha=0.35, gid="band:long")
        draw_polygon(ax, short, style.SHORT_RANGE, alpha=0.25, gid="band:short")
    draw_polygon(ax, z.tail_zone, style.TAIL_ZONE, alpha=0.35, edge=style.TAIL_ZONE, gid="tail-zone")
    if z.close_band is not None and not z.close_band.is_empty:
        draw_polygon(ax, z.close_band, style.CLOSE_CALL, alpha=0.45, gid="close-band")
    if z.shot_band is not None and not z.shot_band.is_empty:
        draw_polygon(ax, z.shot_band, style.SHOT_CLOSE_CALL, alpha=0.45, gid="shot-close-band")
    draw_base(ax, plane.base, plane.pose, colours[plane.side], label=f"{plane.name} ▲{plane.altitude}",
              linewidth=2.0, gid=f"base:{plane.name}")
    for other in z.blockers:
        if any(other.name == e.name for e, _, _ in z.enemies):
            continue  # a landed enemy: drawn below
        draw_base(ax, other.base, other.pose, colours[other.side], label=f"{other.name} ▲{other.altitude}",
                  gid=f"base:{other.name}")
    for (enemy, _check, shot), in_zone in zip(z.enemies, z.in_zone):
        draw_base(ax, enemy.base, enemy.pose, colours[enemy.side], label=f"{enemy.name} ▲{enemy.altitude}",
                  gid=f"base:{enemy.name}")
        # the marker answers the zone's question (an enemy flying the zone's heading there)
        (mark,) = ax.plot(*enemy.stand, marker="o" if in_zone else "x", markersize=8,
                          color=style.TAIL_KEPT if in_zone else style.NEUTRAL, zorder=6)
        mark.set_gid(f"in-zone:{enemy.name}:{'yes' if in_zone else 'no'}")
        if shot is not None:
            ax.plot([shot.gun[0], shot.aim[0]], [shot.gun[1], shot.aim[1]], linestyle=":",
                    color=colours[plane.side], linewidth=1.0)
    return ax


def zones_picture(z) -> Picture:
    r = z.rules.ruler_length_mm
    stand = np.asarray(z.plane.stand)
    pts = [stand - r - 20, stand + r + 20] + [e.base.corners(e.pose) for e, _, _ in z.enemies]
    pts += [b.base.corners(b.pose) for b in z.blockers]
    title = style.title("zones", f"{z.plane.name} in \"{z.scenario}\"" if z.scenario else z.plane.name,
                        z.turn, extra=f"enemy heading {z.enemy_heading_deg:g}°")

    share = "the threshold" if z.close_call is None else f"{z.close_call:.0%}"
    bands = []
    if z.close_band is not None:
        bands.append(Patch(facecolor=style.CLOSE_CALL, alpha=0.45, label=f"tail close call: flips above {share}"))
    if z.shot_band is not None:
        bands.append(Patch(facecolor=style.SHOT_CLOSE_CALL, alpha=0.45,
                           label=f"shot close call (target stand): flips above {share}"))
        if not z.shot_band.is_empty:
            x0, y0, x1, y1 = z.shot_band.bounds
            pts.append(np.array([[x0, y0], [x1, y1]]))

    def legend(ax):
        ax.legend(handles=[
            Patch(facecolor=style.TAIL_ZONE, alpha=0.35, label="tailable enemy stand (DF.T1)"),
            Patch(facecolor=style.SHORT_RANGE, alpha=0.25, label=f"short range ≤ {z.rules.short_range_mm:g} mm"),
            Patch(facecolor=style.LONG_RANGE, alpha=0.35, label=f"long range ≤ {r:g} mm"),
            Line2D([], [], marker="o", linestyle="", color=style.TAIL_KEPT,
                   label=f"stand in the zone (flying {z.enemy_heading_deg:g}°)"),
            Line2D([], [], marker="x", linestyle="", color=style.NEUTRAL, label="stand outside the zone"),
        ] + bands, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=style.FONT_SIZE, borderaxespad=0.0)

    return Picture(title, lambda ax: draw_zones(ax, z), extent_of(np.vstack(pts), 10.0), legend)
