"""The printed marker sheet (``furball print markers``): true-scale pages of markers.

Pages, in order: the four table-corner markers (cut along the grey squares), the card
mat, the base stickers asked for, and a ChArUco sheet for lens calibration. The
sheet is drawn in "sheet millimetres": page ``k`` (from 1) is the band
``[(P - k) * h, (P - k + 1) * h]`` of a strip one printable area wide, so the
true-scale machinery (:func:`furball.viz.true_scale.save_true_scale`, test bar
included) lays each band on its own page at 1:1. Markers are drawn as vector paths
(the union of their black cells), so they print at exactly their size.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from furball.errors import InputError

from .markers import MarkerLayout, cv2_module, marker_bits, marker_layout, square_corners

__all__ = ["SheetPage", "parse_base_list", "plan_sheet", "draw_marker", "save_marker_sheet", "charuco_board",
           "CHARUCO"]

CUT_COLOUR = "#888888"
LABEL_SIZE = 6.5
GAP_MM = 3.0

CHARUCO: dict[str, Any] = {"dictionary": "DICT_5X5_100", "squares": (7, 9), "square_mm": 20.0, "marker_mm": 15.0}
"""The ChArUco calibration board: its own dictionary (never mistaken for a table tag),
7 x 9 squares of 20 mm, markers of 15 mm."""


@dataclass(frozen=True)
class SheetPage:
    """One page: ``kind`` ("corners", "mat", "stickers", "charuco") and, for stickers,
    ``stickers``: ``(number, kind)`` of each sticker on it."""

    kind: str
    stickers: tuple[tuple[int, str], ...] = ()


def parse_base_list(text: str, layout: MarkerLayout | None = None) -> tuple[str, ...]:
    """``"small,small,large"`` or ``"small*4,large*2"``: the kind of each sticker to print.
    Raises InputError naming the option."""
    layout = layout or marker_layout()
    kinds: list[str] = []
    for part in (p.strip() for p in str(text).split(",")):
        name, star, count = part.partition("*")
        try:
            n = int(count) if star else 1
        except ValueError:
            n = -1
        if not name or not 1 <= n <= 100:
            raise InputError(f"--bases {text[:60]!r}: expected base kinds separated by commas, e.g. small*4,large*2")
        try:
            layout.sticker(name.strip())
        except InputError as exc:
            raise InputError(f"--bases {text[:60]!r}: {exc}") from None
        kinds += [name.strip()] * n
    return tuple(kinds)


def _sticker_numbers(kinds, layout: MarkerLayout) -> list[tuple[int, str]]:
    used: dict[str, int] = {}
    out = []
    for kind in kinds:
        s = layout.sticker(kind)
        number = s.numbers[0] + used.get(kind, 0)
        if number > s.numbers[1]:
            raise InputError(f"--bases: at most {s.numbers[1] - s.numbers[0] + 1} {kind} stickers (numbers "
                             f"{s.numbers[0]}-{s.numbers[1]} of capture/data/markers.toml)")
        used[kind] = used.get(kind, 0) + 1
        out.append((number, kind))
    return out


def _sticker_size(kind: str) -> tuple[float, float]:
    """(width, height) on paper of a sticker: the base's width across, length up."""
    from furball.maneuvers.bases import shipped_bases

    base = shipped_bases()[kind]
    return base.width_mm, base.length_mm


def _shelves(stickers, room_w: float, room_h: float) -> list[list[tuple[int, str, float, float]]]:
    """Stickers packed row by row into pages: each ``(number, kind, x, y)``, lower-left
    corner in page mm."""
    pages: list[list] = [[]]
    x, top, row_h = 0.0, room_h, 0.0
    for number, kind in stickers:
        w, h = _sticker_size(kind)
        if x + w > room_w:
            x, top, row_h = 0.0, top - row_h - GAP_MM, 0.0
        if top - h < 0:
            pages.append([])
            x, top, row_h = 0.0, room_h, 0.0
        pages[-1].append((number, kind, x, top - h))
        x += w + GAP_MM
        row_h = max(row_h, h)
    return [p for p in pages if p]


def plan_sheet(kinds, paper: str = "A4") -> tuple[list[SheetPage], tuple[float, float], list]:
    """The pages for stickers of ``kinds``, the printable area ``(width, height)`` mm of
    ``paper`` (portrait) and the stickers' places. Raises InputError."""
    from furball.viz.true_scale import plan_true_scale

    layout = marker_layout()
    probe = plan_true_scale((0, 1, 0, 1), (1, 1), paper)
    w, h = probe.printable_mm[2], probe.printable_mm[3]
    if probe.orientation != "portrait":  # pragma: no cover - a 1 mm square is portrait
        w, h = h, w
    placed = _shelves(_sticker_numbers(kinds, layout), w, h - 12.0)
    pages = [SheetPage("corners"), SheetPage("mat")]
    pages += [SheetPage("stickers", tuple((n, k) for n, k, _, _ in p)) for p in placed]
    pages.append(SheetPage("charuco"))
    return pages, (w, h), placed


def _marker_path(bits: np.ndarray, x_mm: float, y_mm: float, size_mm: float):
    """A matplotlib Path: the union of the marker's black cells (lower-left ``x, y``)."""
    import shapely
    from matplotlib.path import Path
    from shapely.geometry import box
    from shapely.geometry.polygon import orient

    cells = bits.shape[0]
    c = size_mm / cells
    boxes = [box(x_mm + j * c, y_mm + (cells - 1 - i) * c, x_mm + (j + 1) * c, y_mm + (cells - i) * c)
             for i in range(cells) for j in range(cells) if not bits[i, j]]
    shape = shapely.union_all(boxes)
    polys = list(getattr(shape, "geoms", [shape]))
    paths = []
    for poly in polys:
        poly = orient(poly, 1.0)
        for ring in (poly.exterior, *poly.interiors):
            xy = np.asarray(ring.coords)
            paths.append(Path(xy, [Path.MOVETO] + [Path.LINETO] * (len(xy) - 2) + [Path.CLOSEPOLY]))
    return Path.make_compound_path(*paths)


def draw_marker(ax, marker_id: int, x_mm: float, y_mm: float, size_mm: float, dictionary: str | None = None):
    """Draw marker ``marker_id`` upright with its black square's lower-left corner at
    ``(x_mm, y_mm)`` and side ``size_mm`` (a vector path). Returns the patch."""
    from matplotlib.patches import PathPatch

    patch = PathPatch(_marker_path(marker_bits(marker_id, dictionary), x_mm, y_mm, size_mm),
                      facecolor="black", edgecolor="none", linewidth=0, gid=f"marker-{marker_id}")
    ax.add_patch(patch)
    return patch


def _cut(ax, x, y, w, h):
    from matplotlib.patches import Rectangle

    ax.add_patch(Rectangle((x, y), w, h, fill=False, edgecolor=CUT_COLOUR, linewidth=0.3, linestyle=(0, (2, 1.5))))


def _text(ax, x, y, text, **kw):
    ax.text(x, y, text, fontsize=kw.pop("size", LABEL_SIZE), ha=kw.pop("ha", "center"), va=kw.pop("va", "center"),
            color=kw.pop("color", "#333333"), **kw)


_CORNER_NAMES = ("bottom-left (0, 0)", "bottom-right (W, 0)", "top-right (W, H)", "top-left (0, H)")


def _corner_slots(layout: MarkerLayout, w: float) -> list[tuple[float, float]]:
    """Lower-left corners of the four cut squares on the corners page (page mm), in
    table order: the bottom-left marker at the page's bottom-left."""
    side = layout.corner_mm + 2 * layout.corner_quiet_mm
    left = (w - 2 * side - 4 * GAP_MM) / 2
    return [(left, 12.0), (left + side + 4 * GAP_MM, 12.0), (left + side + 4 * GAP_MM, 12.0 + side + 14),
            (left, 12.0 + side + 14)]


def _draw_corners(ax, layout: MarkerLayout, w: float, h: float, y0: float) -> None:
    side = layout.corner_mm + 2 * layout.corner_quiet_mm
    slots = [(x, y0 + y) for x, y in _corner_slots(layout, w)]
    for (x, y), mid, name in zip(slots, layout.corner_ids, _CORNER_NAMES):
        _cut(ax, x, y, side, side)
        q = layout.corner_quiet_mm
        draw_marker(ax, mid, x + q, y + q, layout.corner_mm, layout.dictionary)
        _text(ax, x + side / 2, y - 4, f"corner {mid}: {name}")
    _text(ax, w / 2, y0 + h - 6, "furball table-corner markers (docs/capture.md): cut along the dashed squares; "
                                 "each square's corner on the play area's corner,\nits label read from the "
                                 "table's bottom edge (y = 0)", size=7)


def _draw_mat(ax, layout: MarkerLayout, w: float, h: float, y0: float) -> None:
    mw, mh = layout.mat_size_mm
    x0, yb = (w - mw) / 2, y0 + (h - mh) / 2
    _cut(ax, x0, yb, mw, mh)
    for (cx, cy), mid in zip(layout.mat_corners_mm()[:, 3], layout.mat_ids):
        draw_marker(ax, mid, x0 + cx, yb + cy, layout.mat_mm, layout.dictionary)
    _text(ax, x0 + mw / 2, yb + mh / 2, "card mat: lay the maneuver card here,\nthe markers all in the photo,\n"
                                        "this text upright", size=8)


def _draw_stickers(ax, layout: MarkerLayout, placed, y0: float) -> None:
    from furball.maneuvers.bases import shipped_bases

    bases = shipped_bases()
    for number, kind, x, y in placed:
        s = layout.sticker(kind)
        base = bases[kind]
        sw, sh = base.width_mm, base.length_mm
        cx, cy = x + sw / 2, y0 + y + sh / 2  # base centre; base x (forward) = sheet +y, base y (left) = -x
        _cut(ax, x, y0 + y, sw, sh)
        for (tx, ty), tid in zip(s.tags_mm, s.tag_ids(number)):
            half = s.tag_mm / 2
            draw_marker(ax, tid, cx - ty - half, cy + tx - half, s.tag_mm, layout.dictionary)
        _text(ax, cx, cy + 4, f"{number}", size=9)
        _text(ax, cx, cy - 4, f"{kind} base\nfront ^", size=5)
        ax.plot([cx - 2, cx + 2], [cy, cy], color=CUT_COLOUR, linewidth=0.3)
        ax.plot([cx, cx], [cy - 2, cy + 2], color=CUT_COLOUR, linewidth=0.3)


def charuco_board():
    """OpenCV's ChArUco board of :data:`CHARUCO` (square and marker lengths in mm)."""
    cv2 = cv2_module()
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, CHARUCO["dictionary"]))
    return cv2.aruco.CharucoBoard(CHARUCO["squares"], CHARUCO["square_mm"], CHARUCO["marker_mm"], d)


def _draw_charuco(ax, w: float, h: float, y0: float) -> None:
    board = charuco_board()
    cols, rows = CHARUCO["squares"]
    px_per_mm = 8
    bw, bh = cols * CHARUCO["square_mm"], rows * CHARUCO["square_mm"]
    image = board.generateImage((int(bw * px_per_mm), int(bh * px_per_mm)), marginSize=0, borderBits=1)
    x0, yb = (w - bw) / 2, y0 + (h - bh) / 2
    ax.imshow(image, cmap="gray", vmin=0, vmax=255, extent=(x0, x0 + bw, yb, yb + bh), interpolation="none")
    _text(ax, w / 2, yb - 5, "lens calibration sheet: photograph it flat from several angles, then "
                             "furball capture calibrate PHOTOS...")


def save_marker_sheet(path, kinds=("small",) * 4 + ("large",) * 2, paper: str = "A4"):
    """Write the marker sheet PDF at 1:1 to ``path`` (a name ending in .pdf or a binary
    file object): corner markers, the card mat, stickers of ``kinds`` (numbered from
    each kind's first number), the ChArUco sheet. Returns the pages
    (:class:`SheetPage`). Raises InputError (unknown paper or base kind, too many
    stickers of a kind)."""
    from furball.viz.true_scale import save_true_scale

    layout = marker_layout()
    pages, (w, h), placed = plan_sheet(kinds, paper)
    count = len(pages)

    def draw(ax):
        ax.set_facecolor("white")
        sticker_pages = iter(placed)
        for k, page in enumerate(pages, 1):
            y0 = (count - k) * h
            if page.kind == "corners":
                _draw_corners(ax, layout, w, h, y0)
            elif page.kind == "mat":
                _draw_mat(ax, layout, w, h, y0)
            elif page.kind == "stickers":
                _draw_stickers(ax, layout, next(sticker_pages), y0)
            else:
                _draw_charuco(ax, w, h, y0)

    save_true_scale(draw, (0.0, w, 0.0, count * h), path, (1, 1), paper, title="furball markers: print at 100 %")
    return pages


def sheet_marker_corners(kinds, paper: str = "A4") -> dict[int, tuple[int, np.ndarray]]:
    """Where each table marker of the sheet sits on its page: marker id -> ``(page,
    (4, 2))`` corners in paper mm from the page's bottom-left corner (OpenCV's corner
    order): the corner markers (page 1) and the base stickers' tags. For tests that
    read the printed PDF back."""
    from furball.viz.true_scale import plan_true_scale

    layout = marker_layout()
    pages, (w, h), placed = plan_sheet(kinds, paper)
    plan = plan_true_scale((0.0, w, 0.0, len(pages) * h), (1, 1), paper)
    left, bottom = plan.printable_mm[0], plan.printable_mm[1]
    out: dict[int, tuple[int, np.ndarray]] = {}
    from furball.maneuvers.bases import shipped_bases

    bases = shipped_bases()
    sticker_page = 0
    q = layout.corner_quiet_mm
    for (x, y), mid in zip(_corner_slots(layout, w), layout.corner_ids):
        out[mid] = (1, square_corners(left + x + q, bottom + y + q, layout.corner_mm))
    for k, page in enumerate(pages, 1):
        if page.kind != "stickers":
            continue
        for number, kind, x, y in placed[sticker_page]:
            s = layout.sticker(kind)
            base = bases[kind]
            cx, cy = x + base.width_mm / 2, y + base.length_mm / 2
            for (tx, ty), tid in zip(s.tags_mm, s.tag_ids(number)):
                half = s.tag_mm / 2
                out[tid] = (k, square_corners(left + cx - ty - half, bottom + cy + tx - half, s.tag_mm))
        sticker_page += 1
    return out
