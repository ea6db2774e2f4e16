"""Pictures of a dogfight turn: the whole turn, or one moment of it (animation frames)."""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from furball.geometry.pose import Pose, heading_difference_deg
from furball.maneuvers.path import arrow_points, path_poses

from . import style
from .draw import draw_arrow, draw_base, draw_swept, draw_table
from .labels import label as place_label
from .picture import Picture, extent_of

__all__ = ["Moment", "turn_picture", "draw_turn", "turn_extent", "poses_at", "with_samples", "draw_close_calls",
           "marked_turn_picture"]


def with_samples(result):
    """The turn with every move's path and arrow sampled (``adjudicate(...,
    samples=False)`` skips them; a picture needs them)."""
    if all(mv.path is not None for m in result.maneuvers for mv in m.moves):
        return result
    planes = {p.name: p for p in result.before.planes}

    def sampled(mv):
        if mv.path is not None:
            return mv
        p = planes[mv.plane]
        card = p.deck.card(mv.card)
        return replace(mv, path=path_poses(mv.start, card, p.base), arrow=arrow_points(mv.start, card, p.base))

    return replace(result, maneuvers=tuple(replace(m, moves=tuple(sampled(mv) for mv in m.moves))
                                           for m in result.maneuvers))


@dataclass(frozen=True)
class Moment:
    """A moment of the turn: ``fraction`` (0..1) of the way through maneuver ``maneuver`` (1..3)."""

    maneuver: int
    fraction: float


def _planes_before(result, k: int):
    """Plane states just before maneuver ``k`` (1-based)."""
    return result.before.planes if k == 1 else result.maneuvers[k - 2].planes


def _interpolate(path, fraction: float) -> Pose:
    poses = path.poses
    if len(poses) == 1 or fraction >= 1.0:
        return Pose.from_array(poses[-1])
    x = fraction * (len(poses) - 1)
    i = int(np.floor(x))
    t = x - i
    a, b = poses[i], poses[min(i + 1, len(poses) - 1)]
    dh = float(heading_difference_deg(b[2], a[2]))
    return Pose(a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * dh)


def poses_at(result, moment: Moment) -> dict:
    """Each plane's pose at ``moment`` (planes that do not move keep theirs)."""
    m = result.maneuvers[moment.maneuver - 1]
    poses = {p.name: p.pose for p in _planes_before(result, moment.maneuver)}
    for mv in m.moves:
        poses[mv.plane] = _interpolate(mv.path, moment.fraction)
    return poses


def turn_extent(result, margin_mm: float = 60.0):
    """The region the turn happens in (bases and paths), with a margin, mm."""
    pts = [p.base.corners(p.pose) for p in result.before.planes]
    for m in result.maneuvers:
        pts += [mv.path.poses[:, :2] for mv in m.moves]
        pts += [p.base.corners(p.pose) for p in m.planes]
    return extent_of(np.vstack(pts), margin_mm)


def _legend(colours, close_calls: bool = False):
    def legend(ax):
        handles = [Patch(facecolor="none", edgecolor=c, label=side) for side, c in colours.items()]
        handles += [Line2D([], [], color=style.TAIL_KEPT, label="tail kept"),
                    Line2D([], [], color=style.TAIL_LOST, linestyle="--", label="tail lost"),
                    Patch(facecolor=style.OVERLAP, alpha=0.35, label="overlap"),
                    Patch(facecolor="none", edgecolor=style.COLLISION, linewidth=2, label="collision test"),
                    Line2D([], [], color=style.NEUTRAL, linestyle=":", label="firing position"),
                    Line2D([], [], color=style.DAMAGE, linewidth=1.6, label="shot fired (cards drawn)"),
                    Line2D([], [], color=style.LOST, marker="X", linestyle="none", markersize=9,
                           label="plane lost")]
        if close_calls:
            handles.append(Line2D([], [], color=style.CLOSE_CALL, marker="o", markerfacecolor="none",
                                  linestyle="none", markersize=11, markeredgewidth=2,
                                  label="close call (may flip)"))
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=style.FONT_SIZE,
                  framealpha=0.9, borderaxespad=0.0)
    return legend


def _ruler(ax, stands, ok: bool):
    (a, b) = stands
    (line,) = ax.plot([a[0], b[0]], [a[1], b[1]], color=style.TAIL_KEPT if ok else style.TAIL_LOST,
                      linewidth=1.4, linestyle="-" if ok else "--", alpha=0.9, zorder=5)
    line.set_gid("tail-ruler:" + ("kept" if ok else "lost"))
    return line


def _events(ax, m, planes_now, colours, by_name, shots: bool):
    """Overlaps, collision tests, planes out and (optionally) shots of maneuver ``m``."""
    for a_name, b_name in m.overlaps:
        for n in (a_name, b_name):
            q = planes_now[n]
            draw_base(ax, q.base, q.pose, style.OVERLAP, fill=True, alpha=0.35, linewidth=2.0,
                      gid=f"overlap:{n}:{m.index}")
    for t in m.collisions:
        for n in (t.a, t.b):
            q = planes_now[n]
            draw_base(ax, q.base, q.pose, style.COLLISION, linewidth=2.6, gid=f"collision:{n}:{m.index}")
        outcome = "collide" if t.collided else "miss"
        place_label(ax, f"collision P={t.probability}: {outcome}", planes_now[t.a].stand, style.COLLISION,
                    style.FONT_SIZE, offset=(6, -14), fontweight="bold", gid=f"label:collision:{t.a}")
    for n in m.left_table:
        q = planes_now[n]
        ax.plot(*q.stand, marker="X", markersize=10, color=style.TAIL_LOST, zorder=6)
        place_label(ax, f"{n} out (DF.E1)", q.stand, style.TAIL_LOST, style.FONT_SIZE, offset=(6, 6),
                    gid=f"label:out:{n}")
    if shots:
        for x in m.shots:
            (line,) = ax.plot([x.gun[0], x.aim[0]], [x.gun[1], x.aim[1]], linewidth=0.9, linestyle=":",
                              color=colours[by_name[x.shooter].side], zorder=4)
            line.set_gid(f"shot:{x.shooter}:{x.target}")
    _damage(ax, m, planes_now)


def _damage(ax, m, planes_now):
    """Every shot fired (DF.D3), every damage card drawn (one label per plane hit, its
    cards in order: id and points, special) and every plane lost (DF.D5) in maneuver ``m``."""
    for x in m.fire:
        (line,) = ax.plot([x.gun[0], x.aim[0]], [x.gun[1], x.aim[1]], linewidth=1.6, color=style.DAMAGE,
                          alpha=0.8, zorder=4)
        line.set_gid(f"fired:{x.shooter}:{x.target}:{m.index}")
    hit: dict[str, list[str]] = {}
    for d in m.damage:
        what = f"{d.card.id} {d.points}" if d.card is not None else f"fire {d.points}"
        if d.special is not None and d.card is not None:
            what += f" {str(d.special).replace('_', ' ')}" + ("" if d.applied else " (no effect)")
        hit.setdefault(d.plane, []).append(what)
    for name, cards in hit.items():
        q = planes_now[name]
        place_label(ax, f"{name} hit: " + ", ".join(cards), q.stand, style.DAMAGE, style.FONT_SIZE,
                    offset=(6, -26), gid=f"damage:{name}:{m.index}")
    for x in m.lost:
        q = planes_now[x.plane]
        (mark,) = ax.plot(*q.stand, marker="X", markersize=14, color=style.LOST, zorder=7)
        mark.set_gid(f"lost:{x.plane}:{m.index}")
        why = "explodes" if str(x.reason) == "explosion" else "destroyed"
        place_label(ax, f"{x.plane} {why} (DF.D5)", q.stand, style.LOST, style.FONT_SIZE + 1, offset=(6, 10),
                    fontweight="bold", gid=f"label:lost:{x.plane}")


def draw_turn(ax, result, moment: Moment | None = None):
    """Draw the turn on ``ax`` (table mm). Without ``moment``: the whole turn (every
    maneuver's swept path, arrow and end base, each tail check, overlaps, collision
    tests, and the last maneuver's firing positions). With a ``moment``: the maneuvers
    before it as trails, the current one swept up to that point, bases where they are,
    live tail rulers, and the maneuver's events once it is complete."""
    s = result.before
    colours = style.side_colours(p.side for p in s.planes)
    by_name = {p.name: p for p in s.planes}
    draw_table(ax, s.width_mm, s.height_mm)
    last = len(result.maneuvers) if moment is None else moment.maneuver
    for p in s.planes:
        draw_base(ax, p.base, p.pose, colours[p.side], alpha=style.GHOST_ALPHA, gid=f"base:{p.name}:0",
                  label=p.name if moment is None or moment.maneuver == 1 and moment.fraction == 0 else None)
    if moment is None:
        for c in result.tails:
            _ruler(ax, c.stands, True)
    for m in result.maneuvers[:last]:
        current = moment is not None and m.index == moment.maneuver
        fraction = moment.fraction if current else 1.0
        planes_now = {q.name: q for q in m.planes}
        for mv in m.moves:
            p = planes_now[mv.plane]
            colour = colours[p.side]
            n = max(1, int(round(fraction * (len(mv.path.poses) - 1))) + 1)
            draw_swept(ax, p.base, mv.path.poses[:n], colour)
            draw_arrow(ax, mv.arrow)
            if not current:
                final = moment is None and m.index == last
                draw_base(ax, p.base, mv.end, colour, gid=f"base:{mv.plane}:{m.index}",
                          label=f"{mv.plane} ▲{mv.altitude}" if final else str(m.index),
                          alpha=1.0 if final else (0.4 + 0.15 * m.index if moment is None else 0.35))
        if moment is None:
            for c in m.tail_checks:
                _ruler(ax, c.stands, c.ok)
            _events(ax, m, planes_now, colours, by_name, shots=m.index == last)
    if moment is not None:
        k = moment.maneuver
        m = result.maneuvers[k - 1]
        before = {p.name: p for p in _planes_before(result, k)}
        now = poses_at(result, moment)
        moving = {mv.plane: mv for mv in m.moves}
        for name, pose in now.items():
            p = before[name]
            if not p.on_table and name not in moving:
                continue
            alt = moving[name].altitude if name in moving and moment.fraction >= 1 else p.altitude
            draw_base(ax, p.base, pose, colours[p.side], label=f"{name} ▲{alt}", gid=f"base:{name}:now")
        lost_before = {c.chaser for mm in result.maneuvers[:k - 1] for c in mm.tail_checks if not c.ok}
        for c in result.tails:
            if c.chaser in lost_before:
                continue
            a = before[c.chaser].base.stand_point(now[c.chaser])
            b = before[c.target].base.stand_point(now[c.target])
            ok = True
            if moment.fraction >= 1:
                ok = next((t.ok for t in m.tail_checks if t.chaser == c.chaser), True)
            _ruler(ax, (tuple(a), tuple(b)), ok)
        if moment.fraction >= 1:
            _events(ax, m, {q.name: q for q in m.planes}, colours, by_name, shots=True)
    return ax


def turn_picture(result, moment: Moment | None = None) -> Picture:
    """The turn (or one moment of it) as a :class:`~viz.picture.Picture`."""
    result = with_samples(result)
    s = result.before
    colours = style.side_colours(p.side for p in s.planes)
    name = f'"{s.name}"'
    if moment is None:
        title = style.title("turn", name, s.turn, extra=f"seed {result.seed}")
    else:
        title = style.title("turn", name, s.turn, moment.maneuver, extra=f"seed {result.seed}")
    return Picture(title, lambda ax: draw_turn(ax, result, moment), turn_extent(result), _legend(colours))


def _ruling_point(r, planes):
    """Where a ruling is marked: between the two stands (a tail, a shot, an overlap), or
    on the stand (the table edge)."""
    pts = [planes[n].stand for n in r.planes if n in planes]
    return np.mean(pts, axis=0) if pts else None


def draw_close_calls(ax, result, margins):
    """Mark every close call of ``margins`` (:class:`~scenarios.dogfight.margins.TurnMargins`
    of ``result``): a ring between the planes it concerns, where they stood, and a label
    with the maneuver, the ruling, its deciding margin and flip chance (docs/margins.md)."""
    for step in margins.steps:
        planes = {p.name: p for p in (result.before.planes if step.maneuver == 0
                                      else result.maneuvers[step.maneuver - 1].planes)}
        for r in step.rulings:
            if not r.close(margins.close_call):
                continue
            at = _ruling_point(r, planes)
            if at is None:
                continue
            gid = f"close-call:{step.maneuver}:{r.kind}:{':'.join(r.planes)}"
            if len(r.planes) == 2:
                a, b = planes[r.planes[0]].stand, planes[r.planes[1]].stand
                (line,) = ax.plot([a[0], b[0]], [a[1], b[1]], color=style.CLOSE_CALL, linewidth=1.0,
                                  linestyle=(0, (2, 2)), zorder=8)
                line.set_gid(f"line:{gid}")
            (ring,) = ax.plot(*at, marker="o", markersize=16, markerfacecolor="none", markeredgewidth=2.2,
                              color=style.CLOSE_CALL, zorder=8)
            ring.set_gid(gid)
            d = r.deciding(margins.error)
            when = "start" if step.maneuver == 0 else f"m{step.maneuver}"
            text = f"{when} {r.outcome} {'-'.join(r.planes)}: {d}, flips {r.flip.chance:.0%}"
            place_label(ax, text, at, style.CLOSE_CALL, style.FONT_SIZE, offset=(9, 9), fontweight="bold",
                        gid=f"label:{gid}")


def marked_turn_picture(marked) -> Picture:
    """``marked``: ``(result, margins)``: the turn's picture with its close calls marked."""
    result, margins = marked
    pic = turn_picture(result)
    s = result.before
    colours = style.side_colours(p.side for p in s.planes)

    def draw(ax):
        pic.draw(ax)
        draw_close_calls(ax, result, margins)
        return ax
    n = len(margins.close_calls)
    title = style.title("turn", f'"{s.name}"', s.turn, extra=f"seed {result.seed}, {n} close call{'s' * (n != 1)}")
    return Picture(title, draw, pic.extent_mm, _legend(colours, close_calls=True))
