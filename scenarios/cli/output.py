"""Where the CLI's files go, and how they are written: checked first, all or nothing.

* Every requested output (``--out``, ``--plot``, ``--animate``) is claimed before any
  work: the name must end in an accepted suffix, its directory must exist and be
  writable (a real probe, not a guess), it must not be a directory or a symbolic link,
  and it must not be one of the command's inputs (the scenario, its deck or base files)
  or another output. Each mistake is one line, exit status 2.
* The heavy work then renders every output in memory. Only when all are ready are they
  published, each through a nameless file in the target's directory (Linux
  ``O_TMPFILE``) linked into place and renamed over the target: a killed run leaves no
  temporary file behind and no half-written output. If publishing one fails, the ones
  already published by this run are removed again.
* Pictures are drawn by :mod:`viz` (the layer below the CLI), which never decides where
  a file goes.
"""
from __future__ import annotations

import io
import math
import os
import pathlib
import tempfile
from dataclasses import dataclass, field

from furball.errors import InputError
from furball.i18n import N_, Lang, Message, msg, render, translator

PLOT_FORMATS = (".png", ".svg", ".pdf")
PAPERS = ("A4", "Letter")
ANIMATION_FORMATS = (".gif", ".mp4")
MAX_SCALE = 1000.0
"""The most one table millimetre may be enlarged or reduced on paper (``--scale``)."""


def _short(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[:n - 3] + "..."


@dataclass
class Outputs:
    """The files one command writes: claimed up front, published together.

    ``inputs``: paths the command reads, which no output may replace.
    """

    inputs: list[pathlib.Path] = field(default_factory=list)
    claimed: dict = field(default_factory=dict)
    staged: list = field(default_factory=list)

    def protect(self, *paths) -> None:
        """Add input files no output may overwrite (missing or empty names are skipped).
        Outputs claimed already are checked against them too (inputs such as a
        scenario's deck files become known only once the scenario is read)."""
        for p in paths:
            if p:
                path = pathlib.Path(str(p).partition(".toml:")[0] + (".toml" if ".toml:" in str(p) else ""))
                self.inputs.append(path)
                for out, option in self.claimed.items():
                    _not_input(out, path, option)

    def claim(self, text: str | None, formats: tuple[str, ...], option: str) -> pathlib.Path | None:
        """Check an output name now, before any work. Returns the path (``None`` when the
        option was not given). Raises :class:`InputError` (one line)."""
        if text is None:
            return None
        shown = _short(text)
        if not text.strip():
            raise InputError(msg("{option} {value}: expected a file name", option=option, value=repr(text)))
        p = pathlib.Path(text)
        if p.suffix.lower() not in formats:
            raise InputError(msg("{option} {value}: expected a file ending in {formats}", option=option, value=shown,
                             formats=", ".join(formats)))
        parent = p.parent if str(p.parent) else pathlib.Path(".")
        if not parent.is_dir():
            if parent.exists():
                raise InputError(msg("{option} {value}: directory {directory} is not a directory", option=option,
                                     value=shown, directory=_short(str(parent))))
            raise InputError(msg("{option} {value}: directory {directory} does not exist", option=option, value=shown,
                                 directory=_short(str(parent))))
        if p.is_symlink():
            raise InputError(msg("{option} {value}: is a symbolic link; refusing to replace it (name a plain file)", option=option,
                                 value=shown))
        if p.is_dir():
            raise InputError(msg("{option} {value}: is a directory, expected a file name", option=option, value=shown))
        for other in self.inputs:
            _not_input(p, other, option)
        for other, opt in self.claimed.items():
            if _same(p, other):
                raise InputError(msg("{option} {value}: is also the file of {other}", option=option, value=shown, other=opt))
        try:
            with tempfile.TemporaryFile(dir=parent):
                pass
        except OSError as exc:
            raise InputError(msg("{option} {value}: cannot write in directory {directory} ({why})", option=option, value=shown,
                                 directory=_short(str(parent)), why=str(exc.strerror or exc))) from None
        self.claimed[p] = option
        return p

    def stage(self, path: pathlib.Path | None, data: bytes, said: Message | str) -> None:
        """Keep rendered ``data`` for ``path``; ``said`` describes it (``msg("plot")``, or
        the drawing layer's :class:`~furball.i18n.MessageText`), read in the reader's
        language when published."""
        if path is not None:
            self.staged.append((path, data, said))

    def publish(self, lang: Lang | str = Lang.EN) -> list[str]:
        """Write every staged output; returns one line per file (``plot written to
        FILE``) in ``lang``. If one fails, those already written by this call are removed
        and :class:`InputError` is raised."""
        from furball.geometry.files import write_bytes_atomic

        _ = translator(lang)
        done, lines = [], []
        for path, data, said in self.staged:
            try:
                write_bytes_atomic(path, data)
            except OSError as exc:
                for p in done:
                    p.unlink(missing_ok=True)
                raise InputError(msg("{file}: cannot be written ({why}); no output was kept", file=_short(str(path)),
                                     why=str(exc.strerror or exc))) from None
            done.append(path)
            lines.append(_("{what} written to {file}").format(what=render(said, lang), file=path))
        self.staged = []
        return lines


def _not_input(out: pathlib.Path, source: pathlib.Path, option: str) -> None:
    """Refuse an output that is one of the command's inputs (it would destroy it)."""
    if _same(out, source):
        raise InputError(msg("{option} {value}: is an input of this command ({source}); writing there would destroy it: "
                             "name another file", option=option, value=_short(str(out)), source=_short(str(source))))


def _same(a: pathlib.Path, b: pathlib.Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def scenario_inputs(scenario) -> list[str]:
    """The files a loaded dogfight scenario was built from (decks and bases given as
    files), which no output may replace."""
    out = []
    for p in scenario.table.planes:
        for source in (getattr(p.deck, "source", ""), p.base.source):
            if source and not source.startswith("maneuvers/data/"):
                out.append(source)
    return out


def viz():
    """The drawing layer's API (:mod:`viz.api`), imported only when a picture is asked
    for (it loads matplotlib)."""
    from furball.viz import api

    return api


def resolve_deck_and_base(deck_spec: str, base_spec: str | None):
    """A deck (shipped name or file) and the base to fly it on: ``base_spec`` or the
    deck's own base. Raises :class:`InputError`."""
    from furball.maneuvers.bases import find_base
    from furball.maneuvers.deck import find_deck

    deck = find_deck(deck_spec)
    chosen = base_spec or deck.base
    if chosen is None:
        raise InputError(msg("deck '{deck}' names no base: give --base", deck=deck.name))
    return deck, find_base(chosen)


def int_or_text(text: str) -> int | str:
    """An argparse ``type`` for a whole-number option: the number, or the text as typed
    when it is not one (the game's own option check then refuses it, naming the option)."""
    try:
        return int(text)
    except ValueError:
        return text


def parse_scale(text: str) -> tuple[float, float]:
    """``"1:1"`` -> ``(1.0, 1.0)``: paper millimetres per table millimetres as A:B, the
    ratio between 1:1000 and 1000:1. Raises :class:`InputError`."""
    a, sep, b = text.partition(":")
    try:
        pa, tb = float(a), float(b)
    except ValueError:
        pa = tb = math.nan
    ok = sep and all(math.isfinite(v) and v > 0 for v in (pa, tb))
    if not ok or not 1 / MAX_SCALE <= pa / tb <= MAX_SCALE:
        raise InputError(msg("--scale {value}: expected PAPER:TABLE with positive numbers whose ratio is between 1:{most} and "
                             "{most}:1, e.g. 1:1", value=repr(_short(text)), most=format(MAX_SCALE, "g")))
    return pa, tb


def add_picture_options(parser) -> None:
    """``--plot FILE``, ``--scale A:B`` and ``--paper`` for a command that draws."""
    parser.add_argument("--plot", metavar="FILE", help=N_("draw to FILE.png, .svg or .pdf"))
    parser.add_argument("--scale", metavar="A:B", help=N_("true scale: with --plot FILE.pdf, A mm on paper per "
                                                          "B mm of table (1:1 prints at real size, tiled with "
                                                          "crop marks and a 100 mm test bar)"))
    parser.add_argument("--paper", choices=PAPERS, default=None, help=N_("paper for --scale (default A4)"))


@dataclass(frozen=True)
class PictureRequest:
    """What the user asked to draw, checked before any work is done."""

    plot: pathlib.Path | None
    scale: tuple[float, float] | None
    paper: str

    @classmethod
    def from_args(cls, args, outputs: Outputs) -> PictureRequest:
        plot = outputs.claim(args.plot, PLOT_FORMATS, "--plot")
        scale = parse_scale(args.scale) if args.scale is not None else None
        if scale is not None and (plot is None or plot.suffix.lower() != ".pdf"):
            raise InputError(msg("--scale {value}: writes a PDF: give --plot FILE.pdf", value=_short(args.scale)))
        if args.paper is not None and scale is None:
            raise InputError(msg("--paper {value}: only a true-scale print has paper: give --scale A:B with --plot FILE.pdf",
                                 value=args.paper))
        return cls(plot, scale, args.paper or "A4")

    @property
    def wanted(self) -> bool:
        """Whether a picture was asked for."""
        return self.plot is not None

    def render(self, kind: str, result, outputs: Outputs) -> None:
        """Draw ``result`` in memory and stage it for publishing."""
        if self.plot is None:
            return
        buffer = io.BytesIO()
        said = viz().save_plot(kind, result, buffer, scale=self.scale, paper=self.paper,
                               format=self.plot.suffix.lstrip(".").lower())
        outputs.stage(self.plot, buffer.getvalue(), said)


def render_animation(result, path: pathlib.Path | None, fps: int, outputs: Outputs) -> None:
    """Animate a turn into a private temporary directory and stage the bytes."""
    if path is None:
        return
    with tempfile.TemporaryDirectory(prefix="furball-") as tmp:
        target = pathlib.Path(tmp) / f"animation{path.suffix.lower()}"
        said = viz().save_animation(result, target, fps=fps)
        outputs.stage(path, target.read_bytes(), said)
