"""Plane geometry for miniatures games: SE(2) poses, rectangular bases, overlap, segments.

* :mod:`.pose` — SE(2) poses and their batches (``(N, 3)``: x, y in mm, heading in
  degrees); :mod:`.base` — rectangular bases, their corners, overlap and penetration
  depth; :mod:`.segments` and :mod:`.sector` — segment crossings and circular sectors
  (arcs of fire); :mod:`.tolerance` — the one tolerance;
* :mod:`.board_graph` — board graphs (areas or nodes and their edges) as the card games'
  maps, loaded from TOML; :mod:`.datafile` and :mod:`.files` — reading data files with
  one-line errors;
* :mod:`.kernels` — the compiled (numba) kernels behind the batch functions, and the
  pure-numpy path when numba is missing.

Knows no game. Millimetres and degrees at every boundary; one tolerance
(:data:`geometry.tolerance.TOLERANCE_MM`) for every touching/crossing decision.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from furball._lazy import attach

if TYPE_CHECKING:
    from furball.errors import InputError

    from .base import Base, penetration_depth_mm, rectangle_corners, rectangles_overlap
    from .board_graph import BoardGraph, load_board
    from .pose import Pose, compose_batch, inverse_batch, to_local_batch, to_table_batch
    from .tolerance import TOLERANCE_MM

__all__ = [
    "BoardGraph", "load_board", "Base", "penetration_depth_mm", "rectangle_corners", "rectangles_overlap", "InputError",
    "Pose", "compose_batch", "inverse_batch", "to_local_batch", "to_table_batch", "TOLERANCE_MM",
]

_EXPORTS = {
    'Base': '.base',
    'penetration_depth_mm': '.base',
    'rectangle_corners': '.base',
    'rectangles_overlap': '.base',
    'BoardGraph': '.board_graph',
    'load_board': '.board_graph',
    'InputError': 'furball.errors',
    'Pose': '.pose',
    'compose_batch': '.pose',
    'inverse_batch': '.pose',
    'to_local_batch': '.pose',
    'to_table_batch': '.pose',
    'TOLERANCE_MM': '.tolerance',
}
__getattr__, __dir__ = attach(__name__, _EXPORTS)
