"""The camera: images read safely, lens calibration, the homography's decomposition.

A photo of the table is a plane seen through a pinhole camera: the table plane
(z = 0) maps to the image by the homography ``H = K [r1 r2 t]``, and the plane of the
base stickers, ``height_mm`` above it, by ``K [r1 r2 (t + height r3)]``. ``K`` comes
from a lens calibration (``furball capture calibrate``, a ChArUco sheet) or, without
one, from the homography itself (the focal length that makes ``r1``, ``r2``
orthonormal, principal point at the image centre) when the photo is tilted enough
to tell, else a phone-like default. The batch functions work on ``(M, ...)`` stacks
so the Monte Carlo uncertainty (:mod:`furball.capture.table`) costs milliseconds.
"""
from __future__ import annotations

import math
import pathlib
from dataclasses import dataclass

import numpy as np

from furball.errors import InputError
from furball.i18n import N_, msg

from .markers import cv2_module

__all__ = ["Camera", "read_gray", "MAX_PIXELS", "MAX_FILE_BYTES", "homography_batch", "apply_homography",
           "undistort_radial", "fit_radial", "lifted_homography",
           "estimate_focal_px", "plane_poses", "load_camera", "camera_toml", "calibrate"]

MAX_PIXELS = 40_000_000
"""Largest photo accepted (pixels), checked from the file's header before decoding."""
MAX_FILE_BYTES = 60_000_000
"""Largest photo file accepted (bytes)."""
DEFAULT_FOCAL_PER_DIAGONAL = 0.75
"""Without calibration or a tilt to tell it, the focal length is this share of the image
diagonal (a phone's main camera, 26-28 mm equivalent, is 0.6-0.65; 0.75 sits between
it and a mild tele), with a 15 % standard deviation in the uncertainty."""


@dataclass(frozen=True)
class Camera:
    """A lens calibration: ``matrix`` ``(3, 3)`` (pixels), ``distortion`` (OpenCV's
    coefficients), the ``size`` ``(width, height)`` it was made at, its
    ``reprojection_px`` (RMS), ``photos`` used and ``source``."""

    matrix: np.ndarray
    distortion: np.ndarray
    size: tuple[int, int]
    reprojection_px: float = 0.0
    photos: int = 0
    source: str = ""

    def scaled_to(self, size: tuple[int, int]) -> Camera:
        """The same lens at another resolution of the same aspect (a photo resized)."""
        if tuple(size) == tuple(self.size):
            return self
        sx, sy = size[0] / self.size[0], size[1] / self.size[1]
        if abs(sx - sy) > 0.01 * sx:
            raise InputError(msg("{file}: made at {width}x{height}, the photo is {photo_width}x{photo_height}: "
                                 "expected a photo of the same camera and aspect",
                                 file=self.source or msg("calibration"), width=self.size[0], height=self.size[1],
                                 photo_width=size[0], photo_height=size[1]))
        m = self.matrix.copy()
        m[0] *= sx
        m[1] *= sy
        return Camera(m, self.distortion, (int(size[0]), int(size[1])), self.reprojection_px, self.photos, self.source)

    def undistort(self, points: np.ndarray) -> np.ndarray:
        """``(..., 2)`` image points without the lens distortion (same pixel frame)."""
        cv2 = cv2_module()
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        out = cv2.undistortPoints(pts, self.matrix, self.distortion, P=self.matrix)
        return out.reshape(np.shape(points))


def read_gray(image, name: str = "") -> tuple[np.ndarray, str]:
    """A photo as an 8-bit grey image ``(H, W)`` and its name for messages.

    ``image``: a path, the file's bytes, or an array (grey or BGR). The pixel count is
    read from the header (Pillow opens lazily) and refused above :data:`MAX_PIXELS`
    before anything is decoded. Raises InputError naming the photo."""
    cv2 = cv2_module()
    if isinstance(image, np.ndarray):
        a = image
        if a.ndim == 3:
            a = cv2.cvtColor(a, cv2.COLOR_BGR2GRAY)
        if a.ndim != 2 or a.size == 0:
            raise InputError(msg("{file}: expected a grey or colour image array", file=name or msg("photo")))
        if a.size > MAX_PIXELS:
            raise InputError(msg("{file}: {pixels} pixels: expected at most {most}", file=name or msg("photo"),
                                 pixels=a.size, most=MAX_PIXELS))
        return (a if a.dtype == np.uint8 else np.clip(a, 0, 255).astype(np.uint8)), name or "photo"
    if isinstance(image, (bytes, bytearray)):
        data, label = bytes(image), name or "photo"
    else:
        path = pathlib.Path(image)
        label = name or str(path)
        try:
            size = path.stat().st_size
        except OSError:
            raise InputError(msg("{file}: no such file", file=label)) from None
        if not path.is_file():
            raise InputError(msg("{file}: expected a photo file (JPEG or PNG)", file=label))
        if size > MAX_FILE_BYTES:
            raise InputError(msg("{file}: {size} bytes: expected a photo of at most {most} MB", file=label, size=size,
                                 most=MAX_FILE_BYTES // 1_000_000))
        data = path.read_bytes()
    if len(data) > MAX_FILE_BYTES:
        raise InputError(msg("{file}: {size} bytes: expected a photo of at most {most} MB", file=label, size=len(data),
                             most=MAX_FILE_BYTES // 1_000_000))
    import io

    from PIL import Image, UnidentifiedImageError

    Image.MAX_IMAGE_PIXELS = None  # our own limit below, without Pillow's warning
    try:
        with Image.open(io.BytesIO(data)) as header:
            w, h = header.size
    except (UnidentifiedImageError, OSError, ValueError):
        raise InputError(msg("{file}: not a readable image: expected a JPEG or PNG photo", file=label)) from None
    if w * h > MAX_PIXELS:
        raise InputError(msg("{file}: {width}x{height} pixels: expected at most {most} megapixels", file=label, width=w,
                             height=h, most=MAX_PIXELS // 1_000_000))
    gray = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    if gray is None or gray.size == 0:
        raise InputError(msg("{file}: not a readable image: expected a JPEG or PNG photo", file=label))
    return gray, label


def homography_batch(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """``(M, 3, 3)`` homographies mapping ``src`` ``(n, 2)`` to each ``dst`` ``(M, n, 2)``
    by the normalised direct linear transform (least squares in the algebraic error;
    the same as ``cv2.findHomography(..., 0)`` up to its refinement)."""
    src = np.asarray(src, float)
    dst = np.asarray(dst, float)
    m, n = dst.shape[0], src.shape[0]

    def norm(p):  # (..., n, 2) -> transform (..., 3, 3)
        c = p.mean(axis=-2, keepdims=True)
        s = np.sqrt(2) / np.sqrt(((p - c) ** 2).sum(-1)).mean(-1)
        t = np.zeros(p.shape[:-2] + (3, 3))
        t[..., 0, 0] = t[..., 1, 1] = s
        t[..., 0, 2] = -s * c[..., 0, 0]
        t[..., 1, 2] = -s * c[..., 0, 1]
        t[..., 2, 2] = 1
        return t

    ts, td = norm(src), norm(dst)
    sp = src @ ts[:2, :2].T + ts[:2, 2]
    dp = np.einsum("mij,mnj->mni", td[:, :2, :2], dst) + td[:, None, :2, 2]
    x, y = np.broadcast_to(sp[:, 0], (m, n)), np.broadcast_to(sp[:, 1], (m, n))
    u, v = dp[..., 0], dp[..., 1]
    z, o = np.zeros((m, n)), np.ones((m, n))
    a = np.concatenate([np.stack([-x, -y, -o, z, z, z, u * x, u * y, u], -1),
                        np.stack([z, z, z, -x, -y, -o, v * x, v * y, v], -1)], axis=1)
    _, _, vt = np.linalg.svd(a)
    h = vt[:, -1].reshape(m, 3, 3)
    h = np.linalg.inv(td) @ h @ ts
    return h / h[:, 2:3, 2:3]


def apply_homography(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Points ``(..., n, 2)`` mapped by ``h`` ``(..., 3, 3)``."""
    p = np.asarray(points, float)
    q = np.einsum("...ij,...nj->...ni", h[..., :2, :2], p) + h[..., None, :2, 2]
    w = np.einsum("...j,...nj->...n", h[..., 2, :2], p) + h[..., None, 2, 2]
    return q / w[..., None]


def estimate_focal_px(h: np.ndarray, size: tuple[int, int]) -> float | None:
    """The focal length (pixels) that makes the table's axes orthogonal and equally
    long through ``h`` (table -> image), principal point at the image centre; ``None``
    when the photo is too square-on to tell (the two constraints degenerate)."""
    w, hh = size
    t = np.array([[1, 0, -w / 2], [0, 1, -hh / 2], [0, 0, 1.0]])
    g = t @ h
    g = g / np.linalg.norm(g[:, 0])
    h1, h2 = g[:, 0], g[:, 1]
    # (a / f^2) + b = 0 for: h1.w.h2 = 0 and h1.w.h1 = h2.w.h2, w = diag(1/f^2, 1/f^2, 1)
    a = np.array([h1[0] * h2[0] + h1[1] * h2[1], h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2])
    b = np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    if not (b @ b) > 0:
        return None
    x = -(a @ b) / (b @ b)  # f^2 (square-on, b -> 0: it runs off to infinity or below 0)
    if not np.isfinite(x) or x <= 0:
        return None
    f = math.sqrt(x)
    diag = math.hypot(w, hh)
    return f if 0.3 * diag <= f <= 5 * diag else None


def plane_poses(h: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """From ``h`` ``(M, 3, 3)`` (table -> image) and ``k`` ``(M, 3, 3)``: the table's
    rotation ``(M, 3, 3)`` (columns: table x, y, z in the camera frame) and origin
    ``(M, 3)`` in the camera frame (in table mm, z away from the camera)."""
    b = np.linalg.inv(k) @ h
    scale = 2.0 / (np.linalg.norm(b[:, :, 0], axis=1) + np.linalg.norm(b[:, :, 1], axis=1))
    b = b * scale[:, None, None]
    sign = np.where(b[:, 2, 2] < 0, -1.0, 1.0)  # the table in front of the camera
    b = b * sign[:, None, None]
    r = np.stack([b[:, :, 0], b[:, :, 1], np.cross(b[:, :, 0], b[:, :, 1])], axis=2)
    u, _, vt = np.linalg.svd(r)
    r = u @ vt
    return r, b[:, :, 2]


def lifted_homography(h: np.ndarray, k: np.ndarray, height_mm: np.ndarray | float) -> np.ndarray:
    """``(M, 3, 3)``: the homography of the plane ``height_mm`` above the table (towards
    the camera) to the image, from the table's ``h`` and the camera ``k``. At height 0
    it is ``h`` itself (the table's own columns are kept; only the normal comes from the
    camera), so a focal length slightly off moves the lifted plane, never the table."""
    b = np.linalg.inv(k) @ h
    scale = 2.0 / (np.linalg.norm(b[:, :, 0], axis=1) + np.linalg.norm(b[:, :, 1], axis=1))
    b = b * (scale * np.where(b[:, 2, 2] < 0, -1.0, 1.0))[:, None, None]
    normal = np.cross(b[:, :, 0], b[:, :, 1])
    normal /= np.linalg.norm(normal, axis=1, keepdims=True)
    height = np.broadcast_to(np.asarray(height_mm, float), (len(h),))
    lifted = b.copy()
    lifted[:, :, 2] += height[:, None] * normal
    out = k @ lifted
    return out / out[:, 2:3, 2:3]


def undistort_radial(points: np.ndarray, k1, centre, focal_px: float) -> np.ndarray:
    """Points ``(..., n, 2)`` of a photo with radial distortion ``k1`` (OpenCV's model,
    about ``centre``, normalised by ``focal_px``; ``k1`` broadcast over ``...``) moved to
    where a perfect lens puts them (a fixed-point iteration, exact to 1e-6 px for
    |k1| <= 0.3 inside the frame)."""
    c = np.asarray(centre, float)
    k = np.asarray(k1, float)[..., None]
    d = (np.asarray(points, float) - c) / focal_px
    u = d.copy()
    for _ in range(30):
        u = d / (1 + k * (u ** 2).sum(-1))[..., None]
    return c + u * focal_px


def fit_radial(table_pts: np.ndarray, image_pts: np.ndarray, size: tuple[int, int],
               focal_px: float) -> tuple[float, float, np.ndarray]:
    """The lens's radial distortion ``k1`` read off the table-corner markers themselves
    (no calibration): the homography and ``k1`` fitted together to the observed corners
    ``image_pts`` ``(n, 2)`` of ``table_pts`` ``(n, 2)`` by least squares (principal point
    at the image centre). Returns ``(k1, sd_k1, residuals (n, 2) px)``; ``sd_k1`` from
    the fit's covariance."""
    from scipy.optimize import least_squares

    c = np.array(size, float) / 2
    h0 = homography_batch(table_pts, image_pts[None])[0]

    def residuals(params):
        h = np.append(params[:8], 1.0).reshape(3, 3)
        d = (apply_homography(h, table_pts) - c) / focal_px
        return (c + d * (1 + params[8] * (d ** 2).sum(-1))[:, None] * focal_px - image_pts).ravel()

    solution = least_squares(residuals, np.append(h0.ravel()[:8], 0.0), method="lm", x_scale="jac")
    r = solution.fun
    dof = max(len(r) - 9, 1)
    try:
        cov = np.linalg.inv(solution.jac.T @ solution.jac) * (r @ r / dof)
        sd = float(np.sqrt(max(cov[8, 8], 0.0)))
    except np.linalg.LinAlgError:
        sd = 0.05
    return float(solution.x[8]), sd, r.reshape(-1, 2)


def load_camera(path) -> Camera:
    """A calibration file written by ``furball capture calibrate``. Raises InputError."""
    from furball.geometry.datafile import Table as FileTable
    from furball.geometry.datafile import load_toml

    t = FileTable(load_toml(path), str(path)).only(("provenance", "camera_matrix", "distortion", "image_size",
                                                    "reprojection_px", "photos", "notes"))
    t.provenance()
    m = np.array(t.list("camera_matrix"), float) if all(isinstance(r, list) for r in t.list("camera_matrix")) \
        else None
    if m is None or m.shape != (3, 3) or not np.isfinite(m).all() or m[0, 0] <= 0 or m[1, 1] <= 0:
        raise t.error("camera_matrix", N_("a 3 x 3 matrix with positive focal lengths"), t.list("camera_matrix"))
    d = np.array(t.list("distortion"), float)
    if d.ndim != 1 or len(d) not in (4, 5, 8, 12, 14) or not np.isfinite(d).all():
        raise t.error("distortion", N_("4, 5, 8, 12 or 14 OpenCV distortion coefficients"), t.list("distortion"))
    size = t.list("image_size")
    if len(size) != 2 or not all(isinstance(v, int) and v > 0 for v in size):
        raise t.error("image_size", N_("[width, height] in pixels"), size)
    return Camera(m, d, (size[0], size[1]), t.number("reprojection_px", 0.0), t.integer("photos", 0), str(path))


def camera_toml(camera: Camera) -> str:
    """The calibration as a TOML file (read back by :func:`load_camera`)."""
    import tomli_w

    return ("# furball lens calibration (furball capture calibrate; docs/capture.md)\n" + tomli_w.dumps({
        "provenance": "measured", "image_size": list(camera.size), "photos": camera.photos,
        "reprojection_px": float(camera.reprojection_px),
        "camera_matrix": [[float(v) for v in row] for row in camera.matrix],
        "distortion": [float(v) for v in np.ravel(camera.distortion)]}))


def calibrate(photos, names=None) -> Camera:
    """A lens calibration from photos of the printed ChArUco sheet (at least 3 photos
    in which 6 or more of its corners are found; same camera, same size). Raises
    InputError naming the photo that cannot be used."""
    from .sheet import charuco_board

    cv2 = cv2_module()
    board = charuco_board()
    detector = cv2.aruco.CharucoDetector(board)
    objects, images, size = [], [], None
    for i, photo in enumerate(photos):
        gray, label = read_gray(photo, names[i] if names else "")
        if size is None:
            size = (gray.shape[1], gray.shape[0])
        elif size != (gray.shape[1], gray.shape[0]):
            raise InputError(msg("{file}: {width}x{height} pixels: expected every photo at {first_width}x"
                                 "{first_height} (one camera, one setting)", file=label, width=gray.shape[1],
                                 height=gray.shape[0], first_width=size[0], first_height=size[1]))
        corners, ids, _, _ = detector.detectBoard(gray)
        if ids is None or len(ids) < 6:
            raise InputError(msg("{file}: {corners} ChArUco corners found: expected the printed calibration sheet, "
                                 "flat, 6 or more of its corners in view", file=label,
                                 corners=0 if ids is None else len(ids)))
        obj, img = board.matchImagePoints(corners, ids)
        objects.append(obj)
        images.append(img)
    if len(objects) < 3:
        raise InputError(msg("{count} calibration photos: expected 3 or more of the ChArUco sheet from different "
                             "angles", count=len(objects)))
    assert size is not None
    rms, k, d, _, _ = cv2.calibrateCamera(objects, images, size, None, None)
    return Camera(k, d.ravel(), size, float(rms), len(objects))
