"""What the CLI asks of viz: build a picture of a result, draw it to a file, animate a
turn. viz draws; the caller decides where files go (it passes a path, usually a
temporary one that it moves into place once complete)."""
from __future__ import annotations

import importlib
import pathlib
from collections.abc import Callable

from furball.i18n import MessageText, msg

from .analyze import analyze_figure, analyze_picture
from .fan import fan_picture
from .picture import Picture, render
from .plots import move_picture
from .sweep import sweep_picture
from .turn import marked_turn_picture, turn_picture
from .zones import zones_picture

PICTURES = {"move": move_picture, "turn": turn_picture, "turn-margins": marked_turn_picture, "fan": fan_picture,
            "zones": zones_picture, "sweep": sweep_picture, "analyze": analyze_picture}
"""The pictures of the commands' results; a game's (``furball play GAME --plot``) is
found by :func:`game_picture`."""
FIGURES = {"analyze": analyze_figure}
"""Kinds whose screen picture has more than the table (e.g. the analysis's heat maps)."""


def game_picture(game: str) -> Callable[..., Picture]:
    """The picture of a game's final position: ``<package>_picture`` of this package's
    module of the game (``game``: its name, e.g. ``white-christmas`` for
    :func:`viz.white_christmas.white_christmas_picture`). A new game's picture is its own
    module here, and no table. Raises ``KeyError`` for a game without one."""
    package = game.replace("-", "_")
    if not package.isidentifier() or package.startswith("_"):
        raise KeyError(game)
    try:
        module = importlib.import_module(f".{package}", __package__)
    except ModuleNotFoundError:
        raise KeyError(game) from None
    try:
        return getattr(module, f"{package}_picture")
    except AttributeError:
        raise KeyError(game) from None


def picture(kind: str, result) -> Picture:
    """The :class:`~viz.picture.Picture` of a command's result (``kind``: move, turn, turn-margins
    (a turn and its margins, close calls marked), fan, zones, sweep, analyze, or a game's
    name: its final position, :func:`game_picture`)."""
    return (PICTURES.get(kind) or game_picture(kind))(result)


def figure(kind: str, result):
    """The matplotlib Figure of a command's result."""
    if kind in FIGURES:
        return FIGURES[kind](result)
    return render(picture(kind, result))


def save_plot(kind: str, result, path: pathlib.Path, scale=None, paper: str = "A4",
              format: str | None = None) -> str:
    """Draw the picture into ``path`` (a path or a binary file object; format from
    ``format`` or the path's suffix); with ``scale`` ``(paper, table)``, a true-scale PDF
    on ``paper`` pages. Returns a short description of what was drawn (``"plot"``: a
    :class:`~furball.i18n.MessageText`, English text that the CLI reads in its reader's language)."""
    pic = picture(kind, result)
    fmt = (format or pathlib.Path(path).suffix.lstrip(".")).lower()
    if scale is None:
        figure(kind, result).savefig(path, bbox_inches="tight", format=fmt)
        return MessageText(msg("plot"))
    from .true_scale import save_true_scale

    layout = save_true_scale(pic.draw, pic.extent_mm, path, scale=scale, paper=paper, title=pic.title)
    return MessageText(msg("true-scale PDF ({layout})", layout=layout.describe().message))


def check_animation(path: pathlib.Path) -> None:
    """Refuse, before any work, an animation format this machine cannot write."""
    from .animate import check_animation_path

    check_animation_path(path)


def save_animation(result, path: pathlib.Path, fps: int = 12, format: str | None = None) -> str:
    """Animate a turn into ``path`` (gif with Pillow; mp4 needs ffmpeg on the PATH);
    ``format`` overrides the path's suffix. Returns a short description."""
    from .animate import write_turn_animation

    frames = write_turn_animation(result, path, fps, format=format)
    return MessageText(msg("animation ({count} frames)", count=frames))
