"""The markers furball prints and reads back: where every tag sits, in millimetres.

The layout comes from ``capture/data/markers.toml`` (provenance in the file):

* four **table-corner markers** (ids 0-3) whose black squares lie ``quiet_mm`` inside
  the play area's corners, upright when read from the bottom edge;
* a **card mat** (ids 4-7): four markers around a maneuver card;
* **base stickers**: sticker ``n`` carries three tags (ids ``10 + 3 (n - 1) + k``) at the
  base's rear-left, rear-right and front-left corners, their tops towards the base's
  front.

Corner order everywhere is OpenCV's: top-left, top-right, bottom-right, bottom-left of
the marker as printed (upright), so the table (or base) millimetres of a detected
marker's corners are known. No OpenCV is needed to read the layout; drawing the bits
of a marker does (the ``capture`` extra).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources

import numpy as np

from furball.errors import InputError
from furball.extras import require
from furball.geometry.datafile import Table as FileTable
from furball.geometry.datafile import parse_toml
from furball.i18n import N_

__all__ = ["BaseSticker", "MarkerLayout", "marker_layout", "marker_bits", "square_corners", "cv2_module",
           "aruco_dictionary"]

DATA_FILE = "capture/data/markers.toml"


def cv2_module():
    """OpenCV (``cv2``), or :class:`~furball.errors.MissingExtra` naming ``furball[capture]``."""
    return require("capture", "capture (photos and markers)", "cv2")


@dataclass(frozen=True)
class BaseSticker:
    """The sticker of one base kind: ``kind`` ("small", "large", a name of
    ``maneuvers/data/bases.toml``), sticker ``numbers`` ``(first, last)``, the tag side
    ``tag_mm``, tag centres ``tags_mm`` ``(T, 2)`` in the base frame (x forward, y left,
    mm from the base centre) and ``height_mm``: the sticker above the table."""

    kind: str
    numbers: tuple[int, int]
    tag_mm: float
    tags_mm: tuple[tuple[float, float], ...]
    height_mm: float
    first_id: int = 10
    tags_per_sticker: int = 3

    def tag_ids(self, number: int) -> tuple[int, ...]:
        """The ids of sticker ``number``'s tags, in the order of :attr:`tags_mm`."""
        first = self.first_id + self.tags_per_sticker * (number - 1)
        return tuple(first + k for k in range(len(self.tags_mm)))

    def tag_corners_mm(self) -> np.ndarray:
        """``(T, 4, 2)``: each tag's corners in the base frame, mm (OpenCV's order: the
        tag's top-left, top-right, bottom-right, bottom-left; its top towards +x)."""
        h = self.tag_mm / 2
        out = []
        for cx, cy in self.tags_mm:
            # tag right = base -y, tag up = base +x
            out.append([(cx + h, cy + h), (cx + h, cy - h), (cx - h, cy - h), (cx - h, cy + h)])
        return np.array(out, float)


@dataclass(frozen=True)
class MarkerLayout:
    """Every printed marker (from :data:`DATA_FILE`): ``dictionary`` (OpenCV's name),
    ``corner_ids`` (bottom-left, bottom-right, top-right, top-left), ``corner_mm``
    (black square side), ``corner_quiet_mm``; the card mat's ``mat_ids``, ``mat_mm``,
    ``mat_size_mm`` ``(width, height)``, ``mat_quiet_mm``; the base ``stickers`` by kind;
    ``provenance``."""

    dictionary: str
    corner_ids: tuple[int, int, int, int]
    corner_mm: float
    corner_quiet_mm: float
    mat_ids: tuple[int, int, int, int]
    mat_mm: float
    mat_size_mm: tuple[float, float]
    mat_quiet_mm: float
    stickers: tuple[BaseSticker, ...]
    provenance: str

    def sticker(self, kind: str) -> BaseSticker:
        """The sticker of base kind ``kind``. Raises InputError naming the known kinds."""
        for s in self.stickers:
            if s.kind == kind:
                return s
        raise InputError(f"base {kind!r}: expected one of {', '.join(s.kind for s in self.stickers)} "
                         f"(the stickers of {DATA_FILE})")

    def sticker_of_number(self, number: int) -> BaseSticker:
        """The sticker kind whose numbers hold ``number``. Raises InputError."""
        for s in self.stickers:
            if s.numbers[0] <= number <= s.numbers[1]:
                return s
        ranges = ", ".join(f"{s.kind} {s.numbers[0]}-{s.numbers[1]}" for s in self.stickers)
        raise InputError(f"sticker {number}: expected a printed sticker number ({ranges})")

    def numbers(self) -> tuple[int, ...]:
        """Every sticker number, in order."""
        return tuple(n for s in self.stickers for n in range(s.numbers[0], s.numbers[1] + 1))

    def tag_owner(self) -> dict[int, tuple[int, int]]:
        """tag id -> (sticker number, index of the tag on its sticker)."""
        out = {}
        for s in self.stickers:
            for n in range(s.numbers[0], s.numbers[1] + 1):
                for k, tid in enumerate(s.tag_ids(n)):
                    out[tid] = (n, k)
        return out

    def table_corners_mm(self, width_mm: float, height_mm: float) -> np.ndarray:
        """``(4, 4, 2)``: the corner markers' corners on a ``width x height`` table, mm
        (marker order :attr:`corner_ids`; corner order OpenCV's)."""
        q, s = self.corner_quiet_mm, self.corner_mm
        lows = [(q, q), (width_mm - q - s, q), (width_mm - q - s, height_mm - q - s), (q, height_mm - q - s)]
        return np.array([square_corners(x, y, s) for x, y in lows])

    def mat_corners_mm(self) -> np.ndarray:
        """``(4, 4, 2)``: the card mat's markers' corners in mat mm."""
        q, s = self.mat_quiet_mm, self.mat_mm
        w, h = self.mat_size_mm
        lows = [(q, q), (w - q - s, q), (w - q - s, h - q - s), (q, h - q - s)]
        return np.array([square_corners(x, y, s) for x, y in lows])


def square_corners(x_mm: float, y_mm: float, size_mm: float) -> np.ndarray:
    """``(4, 2)``: an upright marker's corners (OpenCV's order: top-left, top-right,
    bottom-right, bottom-left) from its lower-left corner and side, y up."""
    s = size_mm
    return np.array([(x_mm, y_mm + s), (x_mm + s, y_mm + s), (x_mm + s, y_mm), (x_mm, y_mm)], float)


def _ids(t: FileTable, key: str, count: int) -> tuple:
    raw = t.list(key)
    if len(raw) != count or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1000 for v in raw):
        raise t.error(key, f"{count} marker ids", raw)
    return tuple(raw)


def parse_marker_layout(data: dict, source: str) -> MarkerLayout:
    """The layout from parsed TOML (format in ``capture/data/markers.toml``). Raises InputError."""
    top = FileTable(data, source).only(("provenance", "notes", "dictionary", "corners", "mat", "stickers", "base"))
    ids = top.table("stickers").only(("first_id", "tags_per_sticker"))
    first_id = ids.integer("first_id", minimum=0, maximum=1000)
    per = ids.integer("tags_per_sticker", minimum=2, maximum=8)
    c = top.table("corners").only(("ids", "size_mm", "quiet_mm"))
    m = top.table("mat").only(("ids", "size_mm", "width_mm", "height_mm", "quiet_mm"))
    stickers = []
    bases = top.table("base")
    for kind in bases.keys():
        b = bases.table(kind).only(("numbers", "tag_mm", "tags", "height_mm"))
        numbers = b.list("numbers")
        if len(numbers) != 2 or not all(isinstance(v, int) and v >= 1 for v in numbers) or numbers[0] > numbers[1]:
            raise b.error("numbers", N_("[first, last] sticker numbers, 1 or more"), numbers)
        tags = b.list("tags")
        if not 2 <= len(tags) <= per or not all(isinstance(v, list) and len(v) == 2 for v in tags):
            raise b.error("tags", f"2 to {per} [x_mm, y_mm] tag centres", tags)
        stickers.append(BaseSticker(kind, (numbers[0], numbers[1]), b.length("tag_mm", positive=True),
                                    tuple((float(x), float(y)) for x, y in tags), b.length("height_mm"),
                                    first_id, per))
    return MarkerLayout(top.string("dictionary"), _ids(c, "ids", 4), c.length("size_mm", positive=True),
                        c.length("quiet_mm", positive=True), _ids(m, "ids", 4), m.length("size_mm", positive=True),
                        (m.length("width_mm", positive=True), m.length("height_mm", positive=True)),
                        m.length("quiet_mm", positive=True), tuple(stickers), top.provenance())


@functools.lru_cache(maxsize=1)
def marker_layout() -> MarkerLayout:
    """The shipped layout (:data:`DATA_FILE`)."""
    text = (resources.files("furball.capture") / "data" / "markers.toml").read_text(encoding="utf-8")
    return parse_marker_layout(parse_toml(text, DATA_FILE), DATA_FILE)


@functools.lru_cache(maxsize=16)
def aruco_dictionary(name: str):
    """OpenCV's predefined ArUco dictionary ``name`` (e.g. ``DICT_4X4_100``)."""
    cv2 = cv2_module()
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


@functools.lru_cache(maxsize=256)
def _bits(name: str, marker_id: int) -> bytes:
    cv2 = cv2_module()
    d = aruco_dictionary(name)
    cells = d.markerSize + 2
    return (cv2.aruco.generateImageMarker(d, marker_id, cells) > 127).tobytes()


def marker_bits(marker_id: int, dictionary: str | None = None) -> np.ndarray:
    """``(C, C)`` bool, True = white: the marker's cells with its black border, row 0 at
    the top (as printed upright)."""
    name = dictionary or marker_layout().dictionary
    raw = np.frombuffer(_bits(name, marker_id), dtype=bool)
    cells = int(round(np.sqrt(raw.size)))
    return raw.reshape(cells, cells)
