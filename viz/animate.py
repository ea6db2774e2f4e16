"""Turn animations: the bases slide along their arrows, maneuver by maneuver.

Frames follow the intermediate poses of each maneuver (both base marks riding the
arrow, :mod:`maneuvers.path`), with live tail rulers, then hold on the maneuver's end
to show overlaps, collision tests and firing positions. A frame counter and the plane
names stay readable. GIF is written with Pillow; MP4 needs ffmpeg on the PATH (no
binary is downloaded).
"""
from __future__ import annotations

import pathlib

from matplotlib import animation

from furball.errors import InputError

from . import style
from .picture import render
from .turn import Moment, turn_picture, with_samples

MOVE_FRAMES = 12
"""Frames for the motion of one maneuver."""
HOLD_FRAMES = 6
"""Frames held at the end of each maneuver, showing what it led to."""


def moments(result, move_frames: int = MOVE_FRAMES, hold_frames: int = HOLD_FRAMES) -> list[Moment]:
    """The moments shown, in order: each maneuver's motion then a hold on its end."""
    out = []
    for m in result.maneuvers:
        out += [Moment(m.index, i / move_frames) for i in range(move_frames)]
        out += [Moment(m.index, 1.0)] * hold_frames
    return out


def check_animation_path(path: pathlib.Path) -> None:
    """Raise :class:`InputError` now if ``path``'s format cannot be written here."""
    if path.suffix.lower() == ".mp4" and not animation.writers.is_available("ffmpeg"):
        raise InputError(f"--animate {path}: .mp4 needs ffmpeg on the PATH; write a .gif instead")


def write_turn_animation(result, path: pathlib.Path, fps: int = 12, dpi: int = 100,
                         move_frames: int = MOVE_FRAMES, hold_frames: int = HOLD_FRAMES,
                         format: str | None = None) -> int:
    """Animate a :class:`~scenarios.dogfight.turn.TurnResult` into ``path`` (gif, or mp4;
    ``format`` overrides the path's suffix). The caller decides where the file goes.

    Returns the number of frames. Raises :class:`InputError` for .mp4 without ffmpeg.
    """
    path = pathlib.Path(path)
    check_animation_path(path)
    fmt = (format or path.suffix.lstrip(".")).lower()
    if fmt == "mp4":
        writer = animation.FFMpegWriter(fps=fps)
    else:
        writer = animation.PillowWriter(fps=fps)
    result = with_samples(result)
    frames = moments(result, move_frames, hold_frames)
    first = turn_picture(result, frames[0])
    figure = render(first)
    ax = figure.axes[0]
    limits = (ax.get_xlim(), ax.get_ylim())

    def draw(i):
        moment = frames[i]
        pic = turn_picture(result, moment)
        for extra in list(figure.texts):
            extra.remove()
        ax.clear()
        ax.set_aspect("equal", adjustable="box")
        ax.set_title(pic.title, fontsize=style.TITLE_SIZE)
        ax.set_xlabel("x (mm)", fontsize=style.FONT_SIZE)
        ax.set_ylabel("y (mm)", fontsize=style.FONT_SIZE)
        ax.tick_params(labelsize=style.FONT_SIZE)
        ax.grid(True, linewidth=0.3, alpha=0.5)
        pic.draw(ax)
        ax.set_xlim(*limits[0])
        ax.set_ylim(*limits[1])
        pic.legend(ax)
        phase = "moving" if moment.fraction < 1 else "after the maneuver"
        figure.text(0.01, 0.01, f"frame {i + 1}/{len(frames)} · maneuver {moment.maneuver} of "
                                f"{len(result.maneuvers)} · {phase}", fontsize=style.FONT_SIZE + 1,
                    family="monospace")
        return []

    anim = animation.FuncAnimation(figure, draw, frames=len(frames), blit=False, repeat=False)
    anim.save(str(path), writer=writer, dpi=dpi)
    return len(frames)
