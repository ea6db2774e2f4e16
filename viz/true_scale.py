"""True-scale printable PDFs: table millimetres become real millimetres on paper.

:func:`save_true_scale` lays a region of the table onto A4 or Letter pages at a given
scale (``(1, 1)`` is 1:1, ``(1, 2)`` half size) and writes a PDF. When the region does
not fit one page it is tiled: row 1 is the top of the region (largest y), column 1
its left (smallest x); each tile sits in the page's printable area with its top-left
corner at the printable area's top-left corner, adjacent tiles abut exactly (no gap,
no overlap), and crop marks at each tile's corners show where to trim before taping
the pages together. Page 1 carries a 100 mm test bar (100 mm on paper whatever the
scale) to check that the printer did not rescale the page.

Layout, in millimetres from the page's bottom-left corner::

    top margin (10):    crop marks at the tile's top corners, the title
    printable area:     the tile (an axes positioned in inches: 1 data mm = scale paper mm)
    bottom margin (22): crop marks, tick labels, the test bar (page 1), the page label

:func:`plan_true_scale` computes the same layout without drawing (for the CLI and
tests). Errors are :class:`geometry.errors.InputError` with a one-line message.
"""
from __future__ import annotations

import math
import pathlib
from collections.abc import Callable
from dataclasses import dataclass

import matplotlib
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.text import Annotation
from matplotlib.ticker import FuncFormatter, MultipleLocator
from matplotlib.transforms import Affine2D

from furball.errors import InputError
from furball.i18n import N_, MessageText, msg, msg_plural

from . import style

__all__ = ["PAPERS", "Tile", "TrueScaleLayout", "plan_true_scale", "save_true_scale"]

MM_PER_INCH = 25.4

PAPERS: dict[str, tuple[float, float]] = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
"""Paper sizes in portrait, (width, height) mm."""

MARGIN_LEFT_MM = 10.0
MARGIN_RIGHT_MM = 10.0
MARGIN_TOP_MM = 10.0
MARGIN_BOTTOM_MM = 22.0

CROP_GAP_MM = 2.0
"""Crop marks start this far outside the tile corner (so they never print on the tile)."""
CROP_LENGTH_MM = 6.0
CROP_COLOUR = "#000000"
CROP_WIDTH_PT = 0.4

TEST_BAR_MM = 100.0
TEST_BAR_X_MM = 15.0
"""Left end of the test bar, from the page's left edge (clear of the crop marks)."""
TEST_BAR_Y_MM = 10.0
TEST_BAR_TICK_MM = 3.0
TEST_BAR_COLOUR = "#000000"
TEST_BAR_WIDTH_PT = 0.8

PAGE_LABEL_Y_MM = 4.0
TITLE_FROM_TOP_MM = 5.0
TICK_SPACING_MIN_MM = 25.0
"""Tick marks (and any grid) are at least this far apart on paper."""
TICK_LABEL_SIZE = 5.0
TICK_LABEL_EDGE_MM = 5.0
"""Tick labels this close (on paper) to a tile edge are left out: crop marks live there."""
FRAME_COLOUR = "#999999"
FRAME_WIDTH_PT = 0.3

MAX_PAGES = 400
"""A region needing more pages than this is refused (almost surely a wrong scale)."""

_EPS_MM = 1e-6  # paper mm; a region this much larger than the printable area still fits


@dataclass(frozen=True)
class Tile:
    """One page of a true-scale print.

    ``page``, ``row``, ``column`` count from 1 (row 1 at the top of the region, column 1
    at its left). ``window_mm = (xmin, xmax, ymin, ymax)`` is the table region the page
    shows, table mm; ``rect_mm = (left, bottom, width, height)`` is where it is printed,
    paper mm from the page's bottom-left corner (``width = (xmax - xmin) * scale``).
    """

    page: int
    row: int
    column: int
    window_mm: tuple[float, float, float, float]
    rect_mm: tuple[float, float, float, float]


@dataclass(frozen=True)
class TrueScaleLayout:
    """How a region is laid out on paper.

    ``paper`` is the canonical name ("A4" or "Letter"); ``orientation`` "portrait" or
    "landscape"; ``paper_mm = (width, height)`` of a page as printed (landscape already
    swapped); ``printable_mm = (left, bottom, width, height)`` the printable area, paper
    mm; ``scale = (paper_units, table_units)``; ``rows`` x ``columns`` tiles, listed in
    ``tiles`` row by row (page order).
    """

    paper: str
    orientation: str
    paper_mm: tuple[float, float]
    printable_mm: tuple[float, float, float, float]
    scale: tuple[float, float]
    rows: int
    columns: int
    tiles: tuple[Tile, ...]

    @property
    def pages(self) -> int:
        """Number of pages (``rows * columns``)."""
        return len(self.tiles)

    @property
    def paper_per_table(self) -> float:
        """Paper mm per table mm."""
        return self.scale[0] / self.scale[1]

    def scale_text(self) -> str:
        """The scale as players write it, e.g. ``"1:1"``, ``"1:2"``."""
        return f"{self.scale[0]:g}:{self.scale[1]:g}"

    def describe(self) -> str:
        """One line for the CLI, e.g. ``"4 pages (2 rows x 2 columns), A4 landscape, scale 1:1"``
        (a :class:`~furball.i18n.MessageText`: that English text, read in another language
        by :func:`~furball.i18n.render`)."""
        orientation = N_("landscape") if self.orientation == "landscape" else N_("portrait")
        return MessageText(msg(
            "{pages} ({rows} x {columns}), {paper} {orientation}, scale {scale}",
            pages=msg_plural("{count} page", "{count} pages", self.pages),
            rows=msg_plural("{count} row", "{count} rows", self.rows),
            columns=msg_plural("{count} column", "{count} columns", self.columns),
            paper=self.paper, orientation=msg(orientation), scale=self.scale_text()))


def _check_scale(scale) -> tuple[float, float]:
    try:
        a, b = (float(v) for v in scale)
    except (TypeError, ValueError):
        raise InputError(f"scale {scale!r}: expected (paper_units, table_units)") from None
    if not (math.isfinite(a) and math.isfinite(b) and a > 0 and b > 0):
        raise InputError(f"scale {scale!r}: expected two positive numbers (paper_units, table_units)")
    return a, b


def _paper_name(paper: str) -> str:
    for name in PAPERS:
        if str(paper).strip().lower() == name.lower():
            return name
    raise InputError(f"paper {paper!r}: expected one of {', '.join(PAPERS)}")


def _check_extent(extent_mm) -> tuple[float, float, float, float]:
    try:
        xmin, xmax, ymin, ymax = (float(v) for v in extent_mm)
    except (TypeError, ValueError):
        raise InputError(f"extent {extent_mm!r}: expected (xmin, xmax, ymin, ymax) in mm") from None
    if not all(math.isfinite(v) for v in (xmin, xmax, ymin, ymax)) or xmin >= xmax or ymin >= ymax:
        raise InputError(f"extent {extent_mm!r}: expected finite xmin < xmax and ymin < ymax, mm")
    return xmin, xmax, ymin, ymax


def _count(length_paper_mm: float, room_mm: float) -> int:
    return max(1, math.ceil((length_paper_mm - _EPS_MM) / room_mm))


def _split(lo: float, hi: float, step: float, n: int) -> list[tuple[float, float]]:
    """``n`` windows of ``step`` from ``lo``, the last one ending at ``hi``. The shared
    edges are the same float expression, so neighbours abut exactly."""
    edges = [lo + i * step for i in range(n)] + [hi]
    return [(edges[i], edges[i + 1]) for i in range(n)]


def plan_true_scale(extent_mm, scale=(1.0, 1.0), paper: str = "A4") -> TrueScaleLayout:
    """The page layout for printing ``extent_mm = (xmin, xmax, ymin, ymax)`` (table mm)
    at ``scale = (paper_units, table_units)`` on ``paper`` ("A4" or "Letter", any case).

    Landscape is chosen when it needs fewer pages than portrait. Raises
    :class:`InputError` for an unknown paper, a non-positive scale, an empty extent or
    more than :data:`MAX_PAGES` pages.
    """
    name = _paper_name(paper)
    scale = _check_scale(scale)
    xmin, xmax, ymin, ymax = _check_extent(extent_mm)
    k = scale[0] / scale[1]
    width_paper, height_paper = (xmax - xmin) * k, (ymax - ymin) * k

    candidates = []
    for orientation in ("portrait", "landscape"):
        w, h = PAPERS[name] if orientation == "portrait" else PAPERS[name][::-1]
        room_w = w - MARGIN_LEFT_MM - MARGIN_RIGHT_MM
        room_h = h - MARGIN_TOP_MM - MARGIN_BOTTOM_MM
        columns, rows = _count(width_paper, room_w), _count(height_paper, room_h)
        candidates.append((rows * columns, orientation, (w, h), (room_w, room_h), rows, columns))
    best = min(candidates, key=lambda c: c[0])  # ties keep portrait (listed first)
    pages, orientation, (w, h), (room_w, room_h), rows, columns = best
    if pages > MAX_PAGES:
        raise InputError(f"scale {scale[0]:g}:{scale[1]:g}: the region "
                         f"{xmax - xmin:g} x {ymax - ymin:g} mm needs {pages} {name} pages "
                         f"(at most {MAX_PAGES}); use a smaller scale such as 1:2")

    x_windows = _split(xmin, xmax, room_w / k, columns)
    # Row 1 is the top: windows run downwards from ymax.
    y_windows = [(b, a) for a, b in _split(ymax, ymin, -room_h / k, rows)]
    top = h - MARGIN_TOP_MM
    tiles = []
    for r, (y0, y1) in enumerate(y_windows, 1):
        for c, (x0, x1) in enumerate(x_windows, 1):
            width, height = (x1 - x0) * k, (y1 - y0) * k
            rect = (MARGIN_LEFT_MM, top - height, width, height)
            tiles.append(Tile(page=len(tiles) + 1, row=r, column=c,
                              window_mm=(x0, x1, y0, y1), rect_mm=rect))
    printable = (MARGIN_LEFT_MM, MARGIN_BOTTOM_MM, room_w, room_h)
    return TrueScaleLayout(paper=name, orientation=orientation, paper_mm=(w, h),
                           printable_mm=printable, scale=scale, rows=rows, columns=columns,
                           tiles=tuple(tiles))


def _tick_step(k: float) -> float:
    """The smallest 1-2-5 step (table mm) at least :data:`TICK_SPACING_MIN_MM` apart on paper."""
    target = TICK_SPACING_MIN_MM / k
    decade = 10.0 ** math.floor(math.log10(target))
    for m in (1.0, 2.0, 5.0, 10.0):
        if m * decade >= target * (1 - 1e-9):
            return m * decade
    return 10.0 * decade  # pragma: no cover


def _fix_axes(ax, tile: Tile, k: float, paper_mm: tuple[float, float]) -> None:
    """Override whatever ``draw`` set that would change the scale or spill off the tile."""
    w, h = paper_mm
    left, bottom, width, height = tile.rect_mm
    x0, x1, y0, y1 = tile.window_mm
    ax.set_position([left / w, bottom / h, width / w, height / h], which="both")
    ax.set_aspect("auto")  # equal by construction; 'equal' + 'datalim' would move the limits
    ax.set_autoscale_on(False)
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_title("")
    ax.set_title("", loc="left")
    ax.set_title("", loc="right")
    ax.set_xlabel("")
    ax.set_ylabel("")
    for spine in ax.spines.values():
        spine.set_color(FRAME_COLOUR)
        spine.set_linewidth(FRAME_WIDTH_PT)

    step = _tick_step(k)
    edge = TICK_LABEL_EDGE_MM / k

    def formatter(lo, hi):
        def fmt(value, _pos):
            if value < lo + edge or value > hi - edge:
                return ""
            return f"{value:g}"
        return FuncFormatter(fmt)

    label_mm = max(len(f"{v:g}") for v in (x0, x1, y0, y1, step)) * 0.6 * TICK_LABEL_SIZE \
        * MM_PER_INCH / 72
    show = label_mm < 0.8 * step * k
    ax.xaxis.set_major_locator(MultipleLocator(step))
    ax.yaxis.set_major_locator(MultipleLocator(step))
    ax.xaxis.set_major_formatter(formatter(x0, x1))
    ax.yaxis.set_major_formatter(formatter(y0, y1))
    ax.minorticks_off()
    ax.tick_params(which="both", direction="out", length=2.0, width=0.4, pad=1.0,
                   labelsize=TICK_LABEL_SIZE, colors=FRAME_COLOUR, labelcolor=style.NEUTRAL,
                   labelbottom=show, labelleft=show, labeltop=False, labelright=False,
                   bottom=True, left=True, top=False, right=False)
    for label in ax.get_yticklabels():
        label.set_rotation(90)
        label.set_verticalalignment("center")

    # Everything drawn in the axes stays inside the tile; a label crossing a tile edge
    # is drawn (clipped) on both pages so the assembled sheet shows all of it.
    for artist in (*ax.lines, *ax.patches, *ax.collections, *ax.images, *ax.texts,
                   *ax.artists):
        artist.set_clip_on(True)
        artist.set_clip_path(ax.patch)
        if isinstance(artist, Annotation):
            artist.set_annotation_clip(False)


def _crop_marks(figure, tile: Tile, mm_transform) -> list[Line2D]:
    left, bottom, width, height = tile.rect_mm
    marks = []
    for x, dx in ((left, -1.0), (left + width, 1.0)):
        for y, dy in ((bottom, -1.0), (bottom + height, 1.0)):
            near, far = CROP_GAP_MM, CROP_GAP_MM + CROP_LENGTH_MM
            marks.append(Line2D([x + dx * near, x + dx * far], [y, y]))
            marks.append(Line2D([x, x], [y + dy * near, y + dy * far]))
    for mark in marks:
        mark.set(transform=mm_transform, color=CROP_COLOUR, linewidth=CROP_WIDTH_PT,
                 solid_capstyle="butt", gid="crop-mark")
        figure.add_artist(mark)
    return marks


def _test_bar(figure, mm_transform) -> list:
    x0, x1, y = TEST_BAR_X_MM, TEST_BAR_X_MM + TEST_BAR_MM, TEST_BAR_Y_MM
    half = TEST_BAR_TICK_MM / 2
    bar = Line2D([x0, x1], [y, y], gid="test-bar")
    ticks = [Line2D([x, x], [y - half, y + half], gid="test-bar-tick") for x in (x0, x1)]
    for line in (bar, *ticks):
        line.set(transform=mm_transform, color=TEST_BAR_COLOUR, linewidth=TEST_BAR_WIDTH_PT,
                 solid_capstyle="butt")
        figure.add_artist(line)
    label = figure.text(x0, y + half + 1.0,
                        f"{TEST_BAR_MM:g} mm on paper, whatever the scale: measure between the "
                        f"end ticks to check your printer's scaling (print at 100 %, not "
                        f"'fit to page')",
                        transform=mm_transform, fontsize=6.5, color=style.NEUTRAL,
                        ha="left", va="bottom")
    return [bar, *ticks, label]


def _page_label(layout: TrueScaleLayout, tile: Tile) -> str:
    return (f"page {tile.page} of {layout.pages}, row {tile.row}, column {tile.column} "
            f"— scale {layout.scale_text()}, {layout.paper}")


def save_true_scale(draw: Callable, extent_mm, path, scale=(1.0, 1.0), paper: str = "A4",
                    title: str = "") -> TrueScaleLayout:
    """Write a PDF whose millimetres are real millimetres on paper at ``scale``.

    ``draw(ax)`` draws the picture into a matplotlib Axes in table-millimetre data
    coordinates; it is called once per page (it may set anything: limits, aspect,
    position, titles, axis labels and ticks are overridden afterwards, and what it
    draws is clipped to the tile). ``extent_mm = (xmin, xmax, ymin, ymax)`` is the
    table region to print, mm; ``scale = (paper_units, table_units)`` (``(1, 2)`` is
    half size); ``paper`` "A4" or "Letter" (any case; landscape is chosen when it needs
    fewer pages); ``title`` is printed at the top of every page. ``path`` must end in
    ``.pdf``, or be a binary file object (the caller decides where it goes: the CLI
    renders into memory and publishes the file once every output is ready).

    Returns the :class:`TrueScaleLayout`. Raises :class:`InputError` for an unknown
    paper, a bad scale or extent, a path not ending in ``.pdf`` or too many pages.
    """
    layout = plan_true_scale(extent_mm, scale, paper)
    if isinstance(path, (str, pathlib.PurePath)) and pathlib.Path(path).suffix.lower() != ".pdf":
        raise InputError(f"{path}: a true-scale picture is a PDF, expected a file ending in .pdf")
    k = layout.paper_per_table
    w, h = layout.paper_mm

    def write(target) -> None:
        metadata = {"Title": title or "furball true-scale print", "Creator": "furball",
                    "Subject": f"{layout.describe()}", "CreationDate": None}
        # 'standard' bbox whatever the user's matplotlibrc says: 'tight' would resize pages.
        with matplotlib.rc_context({"savefig.bbox": "standard"}), \
                PdfPages(target, metadata=metadata) as pdf:
            for tile in layout.tiles:
                figure = Figure(figsize=(w / MM_PER_INCH, h / MM_PER_INCH), layout="none")
                mm_transform = Affine2D().scale(1 / MM_PER_INCH) + figure.dpi_scale_trans
                ax = figure.add_axes([0, 0, 1, 1])
                draw(ax)
                _fix_axes(ax, tile, k, (w, h))
                _crop_marks(figure, tile, mm_transform)
                if tile.page == 1:
                    _test_bar(figure, mm_transform)
                figure.text(MARGIN_LEFT_MM, PAGE_LABEL_Y_MM, _page_label(layout, tile),
                            transform=mm_transform, fontsize=7, color=style.NEUTRAL,
                            ha="left", va="baseline")
                if title:
                    figure.text(w / 2, h - TITLE_FROM_TOP_MM, title, transform=mm_transform,
                                fontsize=style.TITLE_SIZE - 1, color=style.NEUTRAL,
                                ha="center", va="center")
                pdf.savefig(figure)

    write(path)
    return layout
