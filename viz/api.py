"""What the CLI asks of viz (found through the ``furball.viz`` entry point, so no
engine module imports viz): build a picture of a result, save it, animate a turn."""
from __future__ import annotations

import pathlib

from scenarios.output import write_atomic

from .fan import fan_picture
from .picture import Picture, render
from .plots import move_picture
from .turn import turn_picture
from .zones import zones_picture

PICTURES = {"move": move_picture, "turn": turn_picture, "fan": fan_picture, "zones": zones_picture}


def picture(kind: str, result) -> Picture:
    """The :class:`~viz.picture.Picture` of a command's result (``kind``: move, turn, fan, zones)."""
    return PICTURES[kind](result)


def figure(kind: str, result):
    """The matplotlib Figure of a command's result."""
    return render(picture(kind, result))


def save_plot(kind: str, result, path: pathlib.Path, scale=None, paper: str = "A4") -> str:
    """Write the picture to ``path`` (atomically); with ``scale`` ``(paper, table)``, a
    true-scale PDF on ``paper`` pages. Returns a one-line description of what was written."""
    pic = picture(kind, result)
    if scale is None:
        fig = render(pic)
        write_atomic(path, lambda tmp: fig.savefig(tmp, bbox_inches="tight"))
        return f"plot written to {path}"
    from .true_scale import save_true_scale

    layout = save_true_scale(pic.draw, pic.extent_mm, path, scale=scale, paper=paper, title=pic.title)
    return f"true-scale PDF written to {path}: {layout.describe()}"


def check_animation(path: pathlib.Path) -> None:
    """Refuse, before any work, an animation format this machine cannot write."""
    from .animate import check_animation_path

    check_animation_path(path)


def save_animation(result, path: pathlib.Path, fps: int = 12) -> str:
    """Animate a turn to ``path`` (.gif with Pillow; .mp4 needs ffmpeg on the PATH)."""
    from .animate import write_turn_animation

    frames = write_turn_animation(result, path, fps)
    return f"animation written to {path} ({frames} frames)"
