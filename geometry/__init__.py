"""Plane geometry for miniatures games: SE(2) poses, rectangular bases, overlap, segments.

Knows no game. Millimetres and degrees at every boundary; one tolerance
(:data:`geometry.tolerance.TOLERANCE_MM`) for every touching/crossing decision.
"""
from .base import Base, penetration_depth_mm, rectangle_corners, rectangles_overlap
from .board_graph import BoardGraph, load_board
from .errors import InputError
from .pose import Pose, compose_batch, inverse_batch, to_local_batch, to_table_batch
from .tolerance import TOLERANCE_MM

__all__ = [
    "BoardGraph", "load_board", "Base", "penetration_depth_mm", "rectangle_corners", "rectangles_overlap", "InputError",
    "Pose", "compose_batch", "inverse_batch", "to_local_batch", "to_table_batch", "TOLERANCE_MM",
]
