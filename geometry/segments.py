"""Segments against rectangles: through which edge a segment leaves or enters, and
whether it enters the interior.

These are the predicates of a range ruler laid between two stands (DF.T1). Each is
computed in the rectangle's own frame and decided with the single tolerance of
:mod:`geometry.tolerance`, so the answer does not change under any rigid motion of the
whole scene:

* a segment **leaves through edge k** when its exit point from the rectangle lies on
  edge k at more than ``TOLERANCE_MM`` from both of the edge's corners (a crossing
  through a corner crosses no edge);
* it **enters through edge k** likewise, at its entry point;
* it **enters the interior** when part of it lies deeper than ``TOLERANCE_MM`` inside
  the rectangle (grazing an edge, running along it, or touching a corner does not).

Rectangles are given by centre poses ``(N, 3)`` and sizes; edges are numbered as in
:mod:`geometry.base` (0 front, 1 left, 2 rear, 3 right).
"""
from __future__ import annotations

import numpy as np

from .base import Edge
from .pose import as_pose_array, to_local_batch
from .tolerance import TOLERANCE_MM

__all__ = ["clip_parameters", "exit_edge", "entry_edge", "enters_interior"]


def _local(a, b, poses):
    poses = np.atleast_2d(as_pose_array(poses))
    pts = np.stack(np.broadcast_arrays(np.asarray(a, float), np.asarray(b, float)), axis=-2)
    pts = np.broadcast_to(pts, (poses.shape[0], 2, 2))
    local = to_local_batch(poses, pts)
    return local[:, 0, :], local[:, 1, :] - local[:, 0, :]


def clip_parameters(a, b, poses, half_length, half_width):
    """Liang-Barsky clipping of the line ``a + t (b - a)`` by rectangles.

    ``a``, ``b``: points ``(2,)`` (table mm), one line for every rectangle, or ``(N, 2)``,
    line i for rectangle i; ``poses``: ``(N, 3)``; half sizes scalars or ``(N,)``. Returns ``(t_enter, t_exit)``, each ``(N,)``: the line is inside rectangle i
    for ``t_enter[i] <= t <= t_exit[i]`` (empty when ``t_enter > t_exit``), in the
    parameter of the whole line (not clamped to the segment).
    """
    p, d = _local(a, b, poses)
    half = np.stack(np.broadcast_arrays(np.asarray(half_length, float), np.asarray(half_width, float)), -1)
    half = np.broadcast_to(half, p.shape)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        t1 = (-half - p) / d
        t2 = (half - p) / d
    lo = np.minimum(t1, t2)
    hi = np.maximum(t1, t2)
    parallel = d == 0
    inside_slab = np.abs(p) <= half
    lo = np.where(parallel, np.where(inside_slab, -np.inf, np.inf), lo)
    hi = np.where(parallel, np.where(inside_slab, np.inf, -np.inf), hi)
    return lo.max(axis=1), hi.min(axis=1)


def _edge_of(q, half):
    """Edge whose interior (beyond the tolerance from its corners) holds boundary point q."""
    hx, hy = half[..., 0], half[..., 1]
    x, y = q[..., 0], q[..., 1]
    on_x = np.abs(y) < hy - TOLERANCE_MM
    on_y = np.abs(x) < hx - TOLERANCE_MM
    edge = np.full(x.shape, int(Edge.NONE))
    edge = np.where(on_x & (x >= hx - TOLERANCE_MM), int(Edge.FRONT), edge)
    edge = np.where(on_x & (x <= -hx + TOLERANCE_MM), int(Edge.REAR), edge)
    edge = np.where(on_y & (y >= hy - TOLERANCE_MM), int(Edge.LEFT), edge)
    edge = np.where(on_y & (y <= -hy + TOLERANCE_MM), int(Edge.RIGHT), edge)
    return edge


def _crossing(a, b, poses, length, width, leaving: bool):
    poses = np.atleast_2d(as_pose_array(poses))
    half = np.stack(np.broadcast_arrays(np.asarray(length, float) / 2, np.asarray(width, float) / 2), -1)
    half = np.broadcast_to(half, (poses.shape[0], 2))
    p, d = _local(a, b, poses)
    t_in, t_out = clip_parameters(a, b, poses, half[:, 0], half[:, 1])
    t = t_out if leaving else t_in
    valid = (t_in <= t_out) & (t >= 0.0) & (t <= 1.0)
    if leaving:
        valid &= t_in <= 0.0  # the segment starts inside and really leaves
    else:
        valid &= t_out >= 1.0  # it ends inside
    q = p + np.where(np.isfinite(t), t, 0.0)[:, None] * d
    return np.where(valid, _edge_of(q, half), int(Edge.NONE))


def exit_edge(a, b, poses, length_mm, width_mm) -> np.ndarray:
    """For a segment from ``a`` (inside each rectangle) to ``b``: the edge through whose
    interior it leaves, per rectangle, ``(N,)`` of :class:`~geometry.base.Edge` values
    (``Edge.NONE``: it leaves through a corner, or ``b`` is inside too). Sizes are full
    lengths/widths (mm)."""
    return _crossing(a, b, poses, length_mm, width_mm, leaving=True)


def entry_edge(a, b, poses, length_mm, width_mm) -> np.ndarray:
    """For a segment from ``a`` to ``b`` (inside each rectangle): the edge through whose
    interior it enters, ``(N,)`` of :class:`~geometry.base.Edge` values."""
    return _crossing(a, b, poses, length_mm, width_mm, leaving=False)


def enters_interior(a, b, poses, length_mm, width_mm) -> np.ndarray:
    """Boolean ``(N,)``: part of segment ``a``-``b`` lies more than ``TOLERANCE_MM``
    inside rectangle i (so grazing, running along an edge or through a corner does not)."""
    hl = np.asarray(length_mm, float) / 2 - TOLERANCE_MM
    hw = np.asarray(width_mm, float) / 2 - TOLERANCE_MM
    t_in, t_out = clip_parameters(a, b, poses, hl, hw)
    return (np.maximum(t_in, 0.0) < np.minimum(t_out, 1.0))
