"""A real table read from one photo: each tagged base's pose with its uncertainty.

:func:`capture_table` finds the ArUco markers (OpenCV, sub-pixel corners), maps the
photo to the table through the homography of the four table-corner markers (16
corners at known millimetres, ``capture/data/markers.toml``), lifts it to the plane of
the base stickers (their height above the table, through the camera's focal length:
calibrated, estimated from the tilt, or a default), and fits each base's pose
``(x_mm, y_mm, heading_deg)`` to its tags' corners by least squares (a rigid motion).

The uncertainty is propagated, not guessed. A Monte Carlo of :data:`SAMPLES` draws
redoes the whole chain (homography, lift, fits) with every input perturbed by its own
error: the corner markers' corners by their residual noise, the lens ``k1``, the focal
length and each sticker's height by theirs; each base tag's four corners together, from
the covariance of its own image alignment (:func:`corner_covariance`: correlated within
the tag, each pixel weighed by its own misfit); and each tag's place and turn on its
base by the scatter the photo's bases with two tags or more show beyond that (pooled
over the photo, :data:`TAG_PRIOR_MM` and :data:`TAG_PRIOR_DEG` before any). The
covariance of the draws is each base's ``(3, 3)`` covariance (mm, mm, degrees). A base
none of whose tags is seen is listed as not found, never guessed.
"""
from __future__ import annotations

import math
import pathlib
from dataclasses import dataclass, field

import numpy as np

from furball.errors import InputError
from furball.i18n import msg

from .camera import (
    DEFAULT_FOCAL_PER_DIAGONAL,
    Camera,
    apply_homography,
    estimate_focal_px,
    fit_radial,
    homography_batch,
    lifted_homography,
    read_gray,
    undistort_radial,
)
from .fleet import FleetPlane, default_plane
from .markers import MarkerLayout, aruco_dictionary, cv2_module, marker_layout


def _area(a, b) -> float:
    """The signed area of the parallelogram of 2-vectors ``a`` and ``b``."""
    return float(a[0] * b[1] - a[1] * b[0])


__all__ = ["CapturedTable", "capture_table", "detect_markers", "MAX_TILT_DEG", "SAMPLES", "Z95"]

MAX_TILT_DEG = 60.0
"""Beyond this tilt (the camera's axis from the table's normal) markers shrink to slivers
and the far side of the table loses its precision: refused."""
MAX_CORNER_RMS_PX = 4.0
"""Corner markers fitting the table's homography worse than this (RMS) are not where the
table size says (a marker turned, moved or a wrong ``--table``): refused."""
SAMPLES = 200
"""Monte Carlo draws of the uncertainty."""
NOISE_FLOOR_PX = 0.08
"""The smallest corner noise assumed (pixels): sub-pixel corners are no better than this
on real photos, whatever the residuals of 16 corners say."""
HEIGHT_SD_MM = 0.5
"""Standard deviation of a sticker's height above the table (base thickness, glue)."""
FOCAL_SD = {"calibrated": 0.01, "estimated": 0.08, "default": 0.15}
"""Relative standard deviation of the focal length, by its origin."""
TAG_PRIOR_MM = 0.05
"""Each tag's placement error (mm, sd) before the photo says otherwise: the bases with
two tags or more in view measure it (their tags' scatter about the base's rigid fit);
this prior counts as :data:`TAG_PRIOR_DOF` such measurements (measured on the synthetic
photos, docs/capture.md)."""
TAG_PRIOR_DEG = 0.1
TAG_PRIOR_DOF = 2
Z95 = 1.959963984540054
"""A 95 % two-sided normal interval is +-Z95 standard deviations."""


@dataclass(frozen=True)
class CapturedTable:
    """What one photo shows.

    ``photo``: its name; ``width_mm`` x ``height_mm``: the table; per base found (``N``):
    ``names``, ``stickers`` (numbers), ``kinds`` (base kinds), ``poses`` ``(N, 3)``
    (x_mm, y_mm, heading_deg: the base centre, table frame), ``covariances``
    ``(N, 3, 3)`` (mm², mm·deg, deg²), ``tags_seen`` (tags found per base); ``not_found``:
    fleet planes none of whose tags is seen; ``fleet``: the plane of each found base.
    The photo: ``noise_px`` (corner noise used), ``corner_rms_px`` (the corner markers'
    fit), ``tilt_deg``, ``mm_per_px`` (at the table centre), ``focal_px`` and its
    ``focal_source`` ("calibrated", "estimated", "default"), ``image_size``
    ``(width, height)``, ``homography`` ``(3, 3)`` (table mm -> image pixels, the lens's
    distortion taken out), the lens: ``lens_matrix`` ``(3, 3)`` and ``distortion``
    (OpenCV's model: the calibration, or the radial ``k1`` read off the corner markers)."""

    photo: str
    width_mm: float
    height_mm: float
    names: tuple[str, ...]
    stickers: tuple[int, ...]
    kinds: tuple[str, ...]
    poses: np.ndarray
    covariances: np.ndarray
    tags_seen: tuple[int, ...]
    not_found: tuple[str, ...]
    fleet: tuple[FleetPlane, ...]
    noise_px: float
    corner_rms_px: float
    tilt_deg: float
    mm_per_px: float
    focal_px: float
    focal_source: str
    image_size: tuple[int, int]
    homography: np.ndarray = field(repr=False)
    lens_matrix: np.ndarray = field(repr=False, default_factory=lambda: np.eye(3))
    distortion: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(5))

    def __post_init__(self):
        for name in ("poses", "covariances", "homography", "lens_matrix", "distortion"):
            a = np.array(getattr(self, name), float)
            a.setflags(write=False)
            object.__setattr__(self, name, a)

    def sd(self) -> np.ndarray:
        """``(N, 3)``: the standard deviations of x (mm), y (mm), heading (degrees)."""
        return np.sqrt(np.diagonal(self.covariances, axis1=1, axis2=2))

    def half_width_95(self) -> np.ndarray:
        """``(N, 3)``: the 95 % uncertainty, +- this much in x, y (mm) and heading (deg)."""
        return Z95 * self.sd()

    def placement_errors(self) -> dict[str, tuple[float, float]]:
        """plane name -> ``(xy_mm, heading_deg)`` standard deviations for the margins'
        placement error (the larger of x and y: the error model is round)."""
        sd = self.sd()
        return {n: (float(max(s[0], s[1])), float(s[2])) for n, s in zip(self.names, sd)}

    def to_json(self) -> dict:
        """A JSON-ready dict (units in the names)."""
        h95 = self.half_width_95()
        return {"photo": self.photo, "table": {"width_mm": self.width_mm, "height_mm": self.height_mm},
                "bases": [{"name": n, "sticker": s, "base": k, "tags_seen": t,
                           "pose": {"x_mm": float(p[0]), "y_mm": float(p[1]), "heading_deg": float(p[2])},
                           "uncertainty_95": {"x_mm": float(u[0]), "y_mm": float(u[1]), "heading_deg": float(u[2])},
                           "covariance": [[float(v) for v in row] for row in c]}
                          for n, s, k, t, p, u, c in zip(self.names, self.stickers, self.kinds, self.tags_seen,
                                                         self.poses, h95, self.covariances)],
                "not_found": list(self.not_found),
                "photo_quality": {"noise_px": self.noise_px, "corner_rms_px": self.corner_rms_px,
                                  "tilt_deg": self.tilt_deg, "mm_per_px": self.mm_per_px,
                                  "focal_px": self.focal_px, "focal_source": self.focal_source,
                                  "image_size": list(self.image_size)}}


def refine_corners(gray: np.ndarray, marker_id: int, corners: np.ndarray, dictionary: str,
                   margin_cells: float = 1.0) -> np.ndarray | None:
    """The marker's corners ``(4, 2)`` refined by aligning its printed pattern (the cells
    and ``margin_cells`` of the white margin around it) to the photo: OpenCV's ECC image alignment with a
    homography, started from the detected corners. Every pixel of the pattern pulls,
    not only the neighbourhood of each corner, so small tags (cells of 4 px) come out
    to about 0.1 px where corner refinement gives 0.5 px (measured on synthetic photos,
    docs/capture.md). ``None`` when the alignment does not converge (a tag partly
    hidden): the tag is then not used."""
    cv2 = cv2_module()
    cells = aruco_dictionary(dictionary).markerSize + 2
    side = float(max(np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[2] - corners[1])))
    template, src = _tag_template(marker_id, dictionary, side, margin_cells)
    reach = side * (margin_cells + 0.5) / cells  # the template's margin, and room to move
    if np.any(corners.min(0) - reach < 0) or np.any(corners.max(0) + reach > gray.shape[::-1]):
        return None  # the pattern's margin runs off the photo
    x0, y0 = np.maximum(np.floor(corners.min(0) - side / 3), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(corners.max(0) + side / 3), gray.shape[::-1]).astype(int)
    roi = gray[y0:y1, x0:x1].astype(np.float32)
    warp = cv2.getPerspectiveTransform(src, (corners - [x0, y0]).astype(np.float32)).astype(np.float32)
    try:
        rho, warp = cv2.findTransformECC(template, roi, warp, cv2.MOTION_HOMOGRAPHY,
                                         (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 60, 1e-4), None, 1)
    except cv2.error:
        return None
    if not rho > 0.8:  # the pattern does not match well: something lies over the tag
        return None
    out = cv2.perspectiveTransform(src.reshape(-1, 1, 2), warp).reshape(4, 2) + [x0, y0]
    return out if np.abs(out - corners).max() < max(2.0, side / cells / 2) else None


def _tag_template(marker_id: int, dictionary: str, side_px: float,
                  margin_cells: float) -> tuple[np.ndarray, np.ndarray]:
    """The printed pattern of a marker whose side is ``side_px`` in the photo: a grey
    template (cells of 4-16 px and ``margin_cells`` of white margin) and its corners
    ``(4, 2)`` in template pixels (OpenCV's order)."""
    from .markers import marker_bits

    bits = marker_bits(marker_id, dictionary)
    cells = bits.shape[0]
    u = max(4, min(16, int(round(side_px / cells))))  # template cells of at most 16 px: fast, as precise
    m = max(2, int(margin_cells * u))  # the white margin, template pixels
    template = np.full((cells * u + 2 * m, cells * u + 2 * m), 255, np.float32)
    template[m:-m, m:-m] = np.kron(bits.astype(np.float32), np.ones((u, u), np.float32)) * 255
    lo, hi = m - 0.5, m + cells * u - 0.5  # template pixel j covers [j - 0.5, j + 0.5]
    return template, np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], np.float32)


def corner_covariance(gray: np.ndarray, marker_id: int, corners: np.ndarray, dictionary: str,
                      margin_cells: float = 1.0) -> np.ndarray:
    """``(8, 8)``: the covariance (px²) of a refined marker's four corners ``(4, 2)``
    (flattened x0, y0, x1, ...), as the image alignment of :func:`refine_corners` knows
    them. Every pixel of the pattern is one equation of a Gauss-Newton (Lucas-Kanade)
    fit: ``J`` is the photo's intensity gradient times how far the pixel moves when a
    corner moves (and the pattern's gain and offset), ``r`` the pixel's misfit once the
    pattern is laid on the photo. The covariance is the robust ("sandwich") one,
    ``(J^T J)^-1 (J^T diag(r²) J) (J^T J)^-1``: each pixel weighs with its own misfit, so
    a wing shading part of a tag's margin, or JPEG ringing on its edges, widens that
    tag's covariance, where one noise level for the whole photo would not.

    The corners of one tag come out strongly correlated: the pattern pins the tag's
    position and turn far better than its perspective, so noise drawn independently
    per corner overstates the turn of a tag (docs/capture.md, "What the uncertainty
    means")."""
    cv2 = cv2_module()
    side = float(max(np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[2] - corners[1])))
    template, src = _tag_template(marker_id, dictionary, side, margin_cells)
    x0, y0 = np.maximum(np.floor(corners.min(0) - side / 3), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(corners.max(0) + side / 3), gray.shape[::-1]).astype(int)
    roi = gray[y0:y1, x0:x1].astype(np.float32)
    at = (np.asarray(corners, float) - [x0, y0]).astype(np.float32)
    warp = cv2.getPerspectiveTransform(src, at)
    size = (int(x1 - x0), int(y1 - y0))
    pattern = cv2.warpPerspective(template, warp, size, flags=cv2.INTER_LINEAR)
    inside = cv2.warpPerspective(np.ones_like(template), warp, size, flags=cv2.INTER_LINEAR) > 0.999
    ys, xs = np.nonzero(inside)
    pix = np.stack([xs, ys], -1).astype(float)
    in_template = apply_homography(np.linalg.inv(warp), pix)
    gx = cv2.Sobel(roi, cv2.CV_32F, 1, 0, ksize=3)[inside] / 8.0
    gy = cv2.Sobel(roi, cv2.CV_32F, 0, 1, ksize=3)[inside] / 8.0
    step = 0.01
    columns = []
    for j in range(8):  # each corner coordinate moved a little: where each pixel of the pattern goes
        moved = at.astype(float).ravel()
        moved[j] += step
        h = cv2.getPerspectiveTransform(src, moved.reshape(4, 2).astype(np.float32))
        d = (apply_homography(h, in_template) - pix) / step
        columns.append(gx * d[:, 0] + gy * d[:, 1])
    value = pattern[inside].astype(float)
    gain_offset = np.stack([value, np.ones_like(value)], -1)
    coef, *_ = np.linalg.lstsq(gain_offset, roi[inside], rcond=None)
    residual = roi[inside] - gain_offset @ coef
    jac = np.stack(columns + [value / 255.0, np.ones_like(value)], -1)  # the gain and offset are fitted too
    bread = np.linalg.inv(jac.T @ jac)
    meat = (jac * residual[:, None] ** 2).T @ jac  # each pixel weighs with its own misfit
    return (bread @ meat @ bread)[:8, :8]


def detect_markers(gray: np.ndarray, dictionary: str, label: str = "photo",
                   margins: dict[int, float] | None = None) -> dict[int, np.ndarray]:
    """marker id -> its corners ``(4, 2)`` in pixels (OpenCV's order), refined by
    :func:`refine_corners` (``margins``: marker id -> its white margin in cells, default
    1); markers whose refinement fails are left out. Raises
    InputError naming the photo when an id is seen twice."""
    cv2 = cv2_module()
    margins = margins or {}
    raw: dict[int, np.ndarray] = {}
    # OpenCV's threshold constant (7) first; a marker it misses in soft light (blur, JPEG,
    # a shadow) is looked for again with 3, only when a corner marker is missing
    for constant in (7, 3):
        if raw and all(i in raw for i in margins):
            break
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        params.minMarkerPerimeterRate = 0.01
        params.adaptiveThreshConstant = constant
        params.errorCorrectionRate = 0.0  # a tag partly hidden (a wing over it) is not read: its corners would be pulled
        params.maxErroneousBitsInBorderRate = 0.05
        detector = cv2.aruco.ArucoDetector(aruco_dictionary(dictionary), params)
        corners, ids, _ = detector.detectMarkers(gray)
        seen: dict[int, np.ndarray] = {}
        for c, i in zip(corners, ids.ravel() if ids is not None else ()):
            i = int(i)
            if i in seen:
                raise InputError(msg("{photo}: marker {marker} seen twice: expected each printed marker once (two copies "
                                     "of one sheet on the table?)", photo=label, marker=int(i)))
            seen[i] = np.asarray(c, float).reshape(4, 2)
        raw = {**seen, **raw}
    out = {}
    for i, c in raw.items():
        refined = refine_corners(gray, i, c, dictionary, margins.get(i, 1.0))
        if refined is not None:
            out[i] = refined
    return out


def _rigid_fit(src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Least-squares rigid motions taking ``src`` ``(n, 2)`` onto each ``dst``
    ``(M, n, 2)``: ``(M, 2)`` translations (where src's origin lands) and ``(M,)``
    angles (radians)."""
    ps = src - src.mean(0)
    qs = dst - dst.mean(1, keepdims=True)
    cross = (ps[None, :, 0] * qs[..., 1] - ps[None, :, 1] * qs[..., 0]).sum(1)
    dot = (ps[None, :, 0] * qs[..., 0] + ps[None, :, 1] * qs[..., 1]).sum(1)
    theta = np.arctan2(cross, dot)
    c, s = np.cos(theta), np.sin(theta)
    m = src.mean(0)
    rotated = np.stack([c * m[0] - s * m[1], s * m[0] + c * m[1]], -1)
    return dst.mean(1) - rotated, theta


def _rigid_residuals(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """``(M, n, 2)``: each ``dst`` ``(M, n, 2)`` less ``src`` ``(n, 2)`` moved onto it by
    :func:`_rigid_fit`."""
    t, a = _rigid_fit(src, dst)
    c, s = np.cos(a)[:, None], np.sin(a)[:, None]
    moved = np.stack([c * src[None, :, 0] - s * src[None, :, 1], s * src[None, :, 0] + c * src[None, :, 1]], -1)
    return dst - (moved + t[:, None])


def _camera_matrix(f: np.ndarray | float, size: tuple[int, int], camera: Camera | None) -> np.ndarray:
    f = np.atleast_1d(np.asarray(f, float))
    if camera is not None:
        k = np.broadcast_to(camera.matrix, (len(f), 3, 3)).copy()
        k[:, 0, 0] *= f / camera.matrix[0, 0]
        k[:, 1, 1] *= f / camera.matrix[0, 0]
        return k
    k = np.zeros((len(f), 3, 3))
    k[:, 0, 0] = k[:, 1, 1] = f
    k[:, 0, 2], k[:, 1, 2], k[:, 2, 2] = size[0] / 2, size[1] / 2, 1
    return k


def _tilt_deg(h: np.ndarray, k: np.ndarray) -> float:
    from .camera import plane_poses

    r, _ = plane_poses(h[None], k[None])
    return math.degrees(math.acos(min(1.0, abs(float(r[0, 2, 2])))))


def capture_table(image, fleet: tuple[FleetPlane, ...] | None = None, *, width_mm: float = 900.0,
                  height_mm: float = 900.0, camera: Camera | None = None, name: str = "",
                  layout: MarkerLayout | None = None, seed: int = 0) -> CapturedTable:
    """Read the table in ``image`` (a path, the file's bytes, or a grey/BGR array).

    ``fleet``: the planes by sticker (:func:`~furball.capture.fleet.load_fleet`; without
    one, every sticker found is a plane ``P<n>``); ``width_mm`` x ``height_mm``: the play
    area whose corners carry the corner markers; ``camera``: a lens calibration
    (:func:`~furball.capture.camera.load_camera`); ``name``: the photo's name in
    messages; ``seed``: the Monte Carlo's (same photo, same numbers).

    Raises InputError (one line naming the photo): unreadable or too large an image,
    fewer than four corner markers, a marker seen twice, corner markers that do not fit
    the table, a tilt beyond :data:`MAX_TILT_DEG`.
    """
    layout = layout or marker_layout()
    gray, label = read_gray(image, name)
    size = (gray.shape[1], gray.shape[0])
    if camera is not None:
        camera = camera.scaled_to(size)
    cell_mm = layout.corner_mm / (aruco_dictionary(layout.dictionary).markerSize + 2)
    found = detect_markers(gray, layout.dictionary, label,
                           {i: min(1.0, 0.8 * layout.corner_quiet_mm / cell_mm) for i in layout.corner_ids})
    raw = dict(found)  # as detected, lens distortion and all
    missing = [i for i in layout.corner_ids if i not in found]
    if missing:
        raise InputError(msg("{photo}: {found} of the 4 table-corner markers found (missing {missing}): expected all four "
                             "in the photo, unhidden", photo=label, found=4 - len(missing),
                             missing=", ".join(map(str, missing))))
    table_pts = layout.table_corners_mm(width_mm, height_mm).reshape(-1, 2)
    diag = math.hypot(*size)
    # the lens: calibrated, or its radial distortion read off the corner markers
    raw_pts = np.concatenate([found[i] for i in layout.corner_ids])
    if camera is not None:
        k1, k1_sd, lens_f = 0.0, 0.0, 1.0
        found = {i: camera.undistort(c) for i, c in found.items()}
        image_pts = np.concatenate([found[i] for i in layout.corner_ids])
        h = homography_batch(table_pts, image_pts[None])[0]
        residual = image_pts - apply_homography(h, table_pts)
        dof = 2 * len(table_pts) - 8
    else:
        lens_f = DEFAULT_FOCAL_PER_DIAGONAL * diag
        k1, k1_sd, residual = fit_radial(table_pts, raw_pts, size, lens_f)
        found = {i: undistort_radial(c, k1, np.array(size) / 2, lens_f) for i, c in found.items()}
        image_pts = np.concatenate([found[i] for i in layout.corner_ids])
        h = homography_batch(table_pts, image_pts[None])[0]
        dof = 2 * len(table_pts) - 9
    corner_rms = float(np.sqrt((residual ** 2).sum() / len(table_pts)))
    if corner_rms > MAX_CORNER_RMS_PX:
        raise InputError(msg("{photo}: the corner markers are {rms} px (RMS) off a {width} x {height} mm table: expected "
                             "each at its corner, upright (label read from the bottom edge), and --table the play "
                             "area's size", photo=label, rms=format(corner_rms, ".1f"), width=format(width_mm, "g"),
                             height=format(height_mm, "g")))
    noise = max(NOISE_FLOOR_PX, float(np.sqrt((residual ** 2).sum() / dof)))

    if camera is not None:
        focal, source = float(camera.matrix[0, 0]), "calibrated"
    else:
        focal, source = DEFAULT_FOCAL_PER_DIAGONAL * diag, "default"
        if _tilt_deg(h, _camera_matrix(focal, size, None)[0]) > 12.0:
            est = estimate_focal_px(h, size)
            if est is not None:
                focal, source = est, "estimated"
    k0 = _camera_matrix(focal, size, camera)[0]
    tilt = _tilt_deg(h, k0)
    if tilt > MAX_TILT_DEG:
        raise InputError(msg("{photo}: the camera is tilted {tilt} degrees from straight down: expected at most {most} "
                             "(the markers turn to slivers); photograph from higher above", photo=label,
                             tilt=format(tilt, ".0f"), most=format(MAX_TILT_DEG, "g")))
    centre = np.array([[width_mm / 2, height_mm / 2], [width_mm / 2 + 1, height_mm / 2],
                       [width_mm / 2, height_mm / 2 + 1]])
    c = apply_homography(h, centre)
    mm_per_px = 1.0 / math.sqrt(abs(_area(c[1] - c[0], c[2] - c[0])))

    # the bases: tags grouped by sticker number
    owner = layout.tag_owner()
    by_sticker: dict[int, list[tuple[int, int]]] = {}
    for tid in found:
        if tid in owner:
            number, index = owner[tid]
            by_sticker.setdefault(number, []).append((tid, index))
    planes = {p.sticker: p for p in (fleet or ())}
    numbers = sorted(n for n in by_sticker if fleet is None or n in planes)

    rng = np.random.default_rng(seed)
    m = SAMPLES
    f_draws = focal * np.exp(FOCAL_SD[source] * rng.standard_normal(m))
    f_draws[0] = focal  # draw 0: the nominal chain
    k = _camera_matrix(f_draws, size, camera)
    k1_draws = k1 + k1_sd * rng.standard_normal(m)
    k1_draws[0] = k1

    def undistorted(draws: np.ndarray, nominal: np.ndarray) -> np.ndarray:
        """``m`` draws of photo points ``(m, n, 2)`` with the lens (each draw's k1)
        taken out; draw 0 is ``nominal``."""
        out = camera.undistort(draws) if camera is not None else \
            undistort_radial(draws, k1_draws, np.array(size) / 2, lens_f)
        out[0] = nominal
        return out

    # the table: its corner markers' corners drawn with the noise of their residuals
    hs = homography_batch(table_pts, undistorted(raw_pts[None] + noise * rng.standard_normal((m, *raw_pts.shape)),
                                                 image_pts))

    # the bases, first pass: each tag's corners drawn from its own alignment's covariance
    # (correlated within the tag), mapped to the sticker plane of each draw
    bases = []
    shift_excess, shift_dof = TAG_PRIOR_DOF * TAG_PRIOR_MM ** 2, float(TAG_PRIOR_DOF)
    turn_excess, turn_dof = TAG_PRIOR_DOF * math.radians(TAG_PRIOR_DEG) ** 2, float(TAG_PRIOR_DOF)
    for number in numbers:
        sticker = layout.sticker_of_number(number)
        local = sticker.tag_corners_mm()
        tags = sorted(by_sticker[number], key=lambda t: t[1])
        src = np.concatenate([local[index] for _, index in tags])
        img = np.concatenate([found[tid] for tid, _ in tags])
        heights = sticker.height_mm + HEIGHT_SD_MM * rng.standard_normal(m)
        heights[0] = sticker.height_mm
        lifted = lifted_homography(hs, k, heights)
        chol = np.array([np.linalg.cholesky(corner_covariance(gray, tid, raw[tid], layout.dictionary)
                                            + 1e-12 * np.eye(8)) for tid, _ in tags])
        shake = np.einsum("tij,mtj->mti", chol, rng.standard_normal((m, len(tags), 8))).reshape(m, -1, 2)
        raw_img = np.concatenate([raw[tid] for tid, _ in tags])
        pts = apply_homography(np.linalg.inv(lifted), undistorted(raw_img[None] + shake, img))
        if len(tags) > 1:  # each tag's place and turn about the base's rigid fit, beyond what its alignment explains
            _, a_base = _rigid_fit(src, pts)
            rigid = _rigid_residuals(src, pts).reshape(m, len(tags), 4, 2)
            shift = rigid.mean(2)
            turn = np.stack([_rigid_fit(src[4 * j:4 * j + 4], pts[:, 4 * j:4 * j + 4])[1] for j in range(len(tags))], 1)
            turn = (turn - a_base[:, None] + math.pi) % (2 * math.pi) - math.pi
            shift_excess += float((shift[0] ** 2).sum() - ((shift[1:] - shift[0]) ** 2).sum((1, 2)).mean())
            shift_dof += 2 * len(tags) - 3
            turn_excess += float((turn[0] ** 2).sum() - ((turn[1:] - turn[0]) ** 2).sum(1).mean())
            turn_dof += len(tags) - 1
        bases.append((number, sticker, tags, src, pts))
    # each tag's own placement error (print, glue, what the alignment's pixels do not
    # show: a wing shading its margin), pooled over the photo's bases with 2 tags or more
    tag_sd_mm = math.sqrt(max(shift_excess, 0.0) / shift_dof)
    tag_sd_rad = math.sqrt(max(turn_excess, 0.0) / turn_dof)

    names, kinds, poses, covs, seen = [], [], [], [], []
    for number, sticker, tags, src, pts in bases:
        pts = pts.reshape(m, len(tags), 4, 2)
        centre = pts.mean(2, keepdims=True)
        turn = tag_sd_rad * rng.standard_normal((m, len(tags), 1))
        shift = tag_sd_mm * rng.standard_normal((m, len(tags), 1, 2))
        turn[0], shift[0] = 0.0, 0.0
        c, s = np.cos(turn), np.sin(turn)
        rel = pts - centre
        pts = (centre + shift + np.stack([c * rel[..., 0] - s * rel[..., 1], s * rel[..., 0] + c * rel[..., 1]], -1)
               ).reshape(m, -1, 2)
        t, a = _rigid_fit(src, pts)
        heading = np.degrees(a)
        d = np.stack([t[:, 0], t[:, 1], (heading - heading[0] + 180) % 360 - 180 + heading[0]], -1)
        names.append(planes[number].name if number in planes else default_plane(number).name)
        kinds.append(sticker.kind)
        poses.append([t[0, 0], t[0, 1], heading[0] % 360])
        covs.append(np.cov(d[1:].T))
        seen.append(len(tags))
    not_found = tuple(p.name for p in (fleet or ()) if p.sticker not in by_sticker)
    used = tuple(planes[n] if n in planes else default_plane(n) for n in numbers)
    return CapturedTable(
        photo=label, width_mm=float(width_mm), height_mm=float(height_mm), names=tuple(names),
        stickers=tuple(numbers), kinds=tuple(kinds), poses=np.array(poses, float).reshape(-1, 3),
        covariances=np.array(covs, float).reshape(-1, 3, 3), tags_seen=tuple(seen), not_found=not_found,
        fleet=used, noise_px=noise, corner_rms_px=corner_rms, tilt_deg=tilt, mm_per_px=mm_per_px,
        focal_px=focal, focal_source=source, image_size=size, homography=h,
        lens_matrix=camera.matrix if camera is not None else _camera_matrix(lens_f, size, None)[0],
        distortion=np.ravel(camera.distortion) if camera is not None else np.array([k1, 0, 0, 0, 0.0]))


def parse_table_size(text: str) -> tuple[float, float]:
    """``"900x900"`` -> ``(900.0, 900.0)``: the play area, mm (100 to 10 000 each). Raises
    InputError naming ``--table``."""
    w, sep, h = str(text).lower().partition("x")
    try:
        width, height = float(w), float(h)
    except ValueError:
        width = height = -1.0
    if not sep or not (100 <= width <= 10_000 and 100 <= height <= 10_000):
        raise InputError(msg("--table {text}: expected WIDTHxHEIGHT in mm between 100 and 10000, e.g. 900x900",
                             text=repr(text[:40])))
    return width, height


def photo_name(path) -> str:
    """The file name of a photo path (what a scenario records)."""
    return pathlib.Path(str(path)).name
