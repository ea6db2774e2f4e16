"""Where the CLI's files go, and how they are written.

* Every output path is checked before any work is done.
* Files are written to a temporary name beside the target and renamed into place
  only when complete, so a failed run leaves no partial output file.
* Pictures are drawn by :mod:`viz` (the layer below the CLI), which never decides where
  a file goes: the CLI hands it a temporary path and moves the result into place.
"""
from __future__ import annotations

import pathlib
from dataclasses import dataclass

from geometry.errors import InputError
from geometry.files import write_atomic
from maneuvers.bases import find_base
from maneuvers.deck import find_deck

PLOT_FORMATS = (".png", ".svg", ".pdf")


def check_output_path(path: str, formats: tuple[str, ...], option: str) -> pathlib.Path:
    """Validate an output file name before any work is done. Raises :class:`InputError`."""
    p = pathlib.Path(path)
    if p.suffix.lower() not in formats:
        raise InputError(f"{option} {path}: expected a file ending in {', '.join(formats)}")
    parent = p.parent if str(p.parent) else pathlib.Path(".")
    if not parent.is_dir():
        raise InputError(f"{option} {path}: directory {parent} does not exist")
    if p.is_dir():
        raise InputError(f"{option} {path}: is a directory, expected a file name")
    return p


def write_text_atomic(path: pathlib.Path, text: str) -> None:
    write_atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def viz():
    """The drawing layer's API (:mod:`viz.api`), imported only when a picture is asked
    for (it loads matplotlib)."""
    from viz import api

    return api


def resolve_deck_and_base(deck_spec: str, base_spec: str | None):
    """A deck (shipped name or file) and the base to fly it on: ``base_spec`` or the
    deck's own base. Raises :class:`InputError`."""
    deck = find_deck(deck_spec)
    chosen = base_spec or deck.base
    if chosen is None:
        raise InputError(f"deck '{deck.name}' names no base: give --base")
    return deck, find_base(chosen)


PAPERS = ("A4", "Letter")
ANIMATION_FORMATS = (".gif", ".mp4")


def parse_scale(text: str) -> tuple[float, float]:
    """``"1:1"`` -> ``(1.0, 1.0)``: paper millimetres per table millimetres as A:B."""
    a, sep, b = text.partition(":")
    try:
        pa, tb = float(a), float(b)
    except ValueError:
        pa = tb = 0.0
    if not sep or not (pa > 0 and tb > 0) or pa != pa or tb != tb or pa == float("inf") or tb == float("inf"):
        raise InputError(f"--scale {text!r}: expected PAPER:TABLE with positive numbers, e.g. 1:1")
    return pa, tb


def add_picture_options(parser) -> None:
    """``--plot FILE``, ``--scale A:B`` and ``--paper`` for a command that draws."""
    parser.add_argument("--plot", metavar="FILE", help="draw to FILE.png, .svg or .pdf")
    parser.add_argument("--scale", metavar="A:B", help="true scale: with --plot FILE.pdf, A mm on paper per "
                                                       "B mm of table (1:1 prints at real size, tiled with "
                                                       "crop marks and a 100 mm test bar)")
    parser.add_argument("--paper", choices=PAPERS, default="A4", help="paper for --scale (default A4)")


@dataclass(frozen=True)
class PictureRequest:
    """What the user asked to draw, checked before any work is done."""

    plot: pathlib.Path | None
    scale: tuple[float, float] | None
    paper: str

    @classmethod
    def from_args(cls, args) -> "PictureRequest":
        plot = check_output_path(args.plot, PLOT_FORMATS, "--plot") if args.plot else None
        scale = parse_scale(args.scale) if args.scale else None
        if scale is not None and (plot is None or plot.suffix.lower() != ".pdf"):
            raise InputError(f"--scale {args.scale}: writes a PDF: give --plot FILE.pdf")
        return cls(plot, scale, args.paper)

    @property
    def wanted(self) -> bool:
        """Whether a picture was asked for."""
        return self.plot is not None

    def save(self, kind: str, result) -> str | None:
        """Draw ``result`` and move the file into place; returns a line saying what was written."""
        if self.plot is None:
            return None
        said = []
        write_atomic(self.plot, lambda tmp: said.append(
            viz().save_plot(kind, result, tmp, scale=self.scale, paper=self.paper)))
        return f"{said[0]} written to {self.plot}"
