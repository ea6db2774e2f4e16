"""The picture of a captured table: the photo rectified onto the table, the bases
furball found drawn over it (outline, heading, name, the 95 % uncertainty), so a
player sees at a glance that furball saw what is on the table."""
from __future__ import annotations

import io

import numpy as np

from .markers import cv2_module
from .table import CapturedTable

__all__ = ["rectified", "captured_picture"]

PX_PER_MM = 1.0
"""Resolution of the rectified photo in the picture."""


def rectified(gray: np.ndarray, captured: CapturedTable, px_per_mm: float = PX_PER_MM) -> np.ndarray:
    """The photo seen from straight above: ``(H, W)`` grey, row 0 at the table's top
    (y = height), ``px_per_mm`` pixels per table millimetre (lens distortion undone)."""
    cv2 = cv2_module()
    w = max(1, int(round(captured.width_mm * px_per_mm)))
    h = max(1, int(round(captured.height_mm * px_per_mm)))
    xs = (np.arange(w) + 0.5) / px_per_mm
    ys = captured.height_mm - (np.arange(h) + 0.5) / px_per_mm
    gx, gy = np.meshgrid(xs, ys)
    pts = np.stack([gx.ravel(), gy.ravel(), np.ones(gx.size)], 1) @ captured.homography.T
    ideal = pts[:, :2] / pts[:, 2:]
    k = captured.lens_matrix
    normal = np.c_[(ideal - k[:2, 2]) / [k[0, 0], k[1, 1]], np.ones(len(ideal))]
    seen, _ = cv2.projectPoints(normal.reshape(-1, 1, 3), np.zeros(3), np.zeros(3), k, captured.distortion)
    seen = seen.reshape(h, w, 2).astype(np.float32)
    return cv2.remap(gray, seen[..., 0], seen[..., 1], interpolation=cv2.INTER_LINEAR, borderValue=0)


def captured_picture(gray: np.ndarray, captured: CapturedTable, fmt: str = "png") -> bytes:
    """The picture (``fmt``: png, svg or pdf) as bytes."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Ellipse, Polygon

    from furball.maneuvers.bases import shipped_bases

    bases = shipped_bases()
    fig = Figure(figsize=(8, 8 * captured.height_mm / captured.width_mm + 0.6), layout="constrained")
    ax = fig.add_subplot()
    ax.imshow(rectified(gray, captured), cmap="gray", vmin=0, vmax=255,
              extent=(0, captured.width_mm, 0, captured.height_mm), interpolation="antialiased")
    for name, kind, pose, cov, tags in zip(captured.names, captured.kinds, captured.poses, captured.covariances,
                                           captured.tags_seen):
        b = bases[kind]
        a = np.radians(pose[2])
        c, s = np.cos(a), np.sin(a)
        local = np.array([[b.length_mm / 2, b.width_mm / 2], [-b.length_mm / 2, b.width_mm / 2],
                          [-b.length_mm / 2, -b.width_mm / 2], [b.length_mm / 2, -b.width_mm / 2]])
        corners = local @ np.array([[c, s], [-s, c]]) + pose[:2]
        colour = "#1f9e3a" if tags > 1 else "#e08a00"
        ax.add_patch(Polygon(corners, closed=True, fill=False, edgecolor=colour, linewidth=1.5))
        ax.annotate("", xy=(pose[0] + 0.6 * b.length_mm * c, pose[1] + 0.6 * b.length_mm * s),
                    xytext=(pose[0], pose[1]), arrowprops={"arrowstyle": "->", "color": colour, "lw": 1.5})
        # the 95 % ellipse of the centre, drawn 20 times larger to be seen
        vals, vecs = np.linalg.eigh(cov[:2, :2])
        angle = np.degrees(np.arctan2(vecs[1, 1], vecs[0, 1]))
        size = 2 * 20 * np.sqrt(np.maximum(vals, 0) * 5.991)
        ax.add_patch(Ellipse(pose[:2], size[1], size[0], angle=angle, fill=False, edgecolor=colour, linewidth=0.8,
                             linestyle="--"))
        sd = np.sqrt(np.diag(cov))
        ax.text(pose[0], pose[1] - 0.75 * max(b.length_mm, b.width_mm), f"{name}\n±{1.96 * max(sd[0], sd[1]):.2f} mm"
                f" ±{1.96 * sd[2]:.2f}°", ha="center", va="top", fontsize=7, color=colour,
                bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none", "alpha": 0.8})
    missing = f"; not found: {', '.join(captured.not_found)}" if captured.not_found else ""
    ax.set_title(f"{captured.photo}: {len(captured.names)} bases found{missing}\n(95 % uncertainty; dashed "
                 f"ellipses 20x; orange: one tag seen)", fontsize=9)
    ax.set_xlim(0, captured.width_mm)
    ax.set_ylim(0, captured.height_mm)
    ax.set_aspect("equal")
    ax.set_xlabel("x mm")
    ax.set_ylabel("y mm")
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, dpi=120)
    return buffer.getvalue()
