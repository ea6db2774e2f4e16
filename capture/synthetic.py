"""Synthetic table photos rendered from a known truth, to measure capture against.

:func:`render_table_photo` lays the printed markers on a table (the four corner
markers on their cut squares of paper; a sticker on each base, its top ``height_mm``
above the table), puts miniatures over the bases (a plane's silhouette 30-40 mm up)
and random occluders (a hand, a die: sometimes over a whole base, which is then
hidden), and photographs it with a pinhole camera at a given tilt and turn, then
adds lens distortion, blur, noise and JPEG compression. Everything is drawn from a
seeded generator: the same arguments give the same photo. What it returns says the
truth: the poses, which bases are hidden, the camera.

``tools/render_capture_photos.py`` writes a photo set with it; the benchmark
(``benchmarks/bench_capture.py``) and the tests read photos rendered by it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .markers import MarkerLayout, cv2_module, marker_bits, marker_layout

__all__ = ["Shot", "SyntheticPhoto", "render_table_photo", "random_shot", "random_layout", "camera_pose",
           "render_card_photo"]

PLANE_HEIGHT_MM = (30.0, 40.0)
"""The miniature above its base (stand height), mm."""


@dataclass(frozen=True)
class Shot:
    """How the photo is taken: ``size`` ``(width, height)`` px, ``tilt_deg`` (optical
    axis from straight down), ``azimuth_deg`` (the side the camera stands on, CCW from
    +x; -90: the bottom edge), ``roll_deg``, ``focal_per_diagonal``, ``fill`` (share of
    the frame's limiting side the table spans), ``blur_px`` (Gaussian sigma), ``noise``
    (grey levels sd), ``jpeg_quality`` (0: PNG), ``k1`` / ``k2`` (radial distortion,
    OpenCV's, at the focal length), ``occluders`` (random extra blobs), ``hide``
    (sticker numbers covered whole), ``miniatures``: draw the planes above the bases,
    ``shift`` (mm: where the camera aims, from the table centre), ``height_sd_mm``: each
    base's true thickness differs from the data file's by this much (sd)."""

    size: tuple[int, int] = (1600, 1200)
    tilt_deg: float = 0.0
    azimuth_deg: float = -90.0
    roll_deg: float = 0.0
    focal_per_diagonal: float = 0.75
    fill: float = 0.92
    blur_px: float = 0.0
    noise: float = 0.0
    jpeg_quality: int = 0
    k1: float = 0.0
    k2: float = 0.0
    occluders: int = 0
    hide: tuple[int, ...] = ()
    miniatures: bool = True
    shift: tuple[float, float] = (0.0, 0.0)
    height_sd_mm: float = 0.0


@dataclass(frozen=True)
class SyntheticPhoto:
    """A rendered photo: ``data`` (encoded JPEG/PNG bytes), ``image`` (the grey pixels
    before encoding), the truth ``stickers`` and ``poses`` ``(N, 3)``, ``hidden``
    (stickers covered whole), the camera ``matrix`` ``(3, 3)``, ``distortion``
    ``(5,)``, ``rotation`` ``(3, 3)`` (rows: camera axes in table coordinates) and
    ``centre_mm`` ``(3,)``."""

    data: bytes
    image: np.ndarray = field(repr=False)
    stickers: tuple[int, ...]
    poses: np.ndarray
    hidden: tuple[int, ...]
    matrix: np.ndarray
    distortion: np.ndarray
    rotation: np.ndarray
    centre_mm: np.ndarray
    width_mm: float
    height_mm: float


def camera_pose(width_mm: float, height_mm: float, shot: Shot) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(K, R, C)``: the camera matrix, the rotation (rows: camera x, y, z in table
    coordinates) and the centre (mm) such that the table spans ``shot.fill`` of the
    frame, seen at ``shot``'s tilt, azimuth and roll."""
    w, h = shot.size
    f = shot.focal_per_diagonal * math.hypot(w, h)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    target = np.array([width_mm / 2 + shot.shift[0], height_mm / 2 + shot.shift[1], 0.0])
    t, a, r = (math.radians(v) for v in (shot.tilt_deg, shot.azimuth_deg, shot.roll_deg))
    direction = np.array([math.sin(t) * math.cos(a), math.sin(t) * math.sin(a), math.cos(t)])
    z = -direction
    # image x along the table's +x turned by the roll, as seen from the camera's side
    ref = np.array([math.cos(a + math.pi / 2 + r), math.sin(a + math.pi / 2 + r), 0.0])
    x = ref - (ref @ z) * z
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    rot = np.stack([x, y, z])
    corners = np.array([[0, 0, 0], [width_mm, 0, 0], [width_mm, height_mm, 0], [0, height_mm, 0]], float)

    def extent(distance):
        c = target + distance * direction
        p = (k @ (rot @ (corners - c).T)).T
        p = p[:, :2] / p[:, 2:]
        return max(np.abs(p[:, 0] - w / 2).max() * 2 / w, np.abs(p[:, 1] - h / 2).max() * 2 / h)

    lo, hi = 10.0, 1e6
    for _ in range(80):  # bisection: the distance at which the table spans `fill` of the frame
        mid = math.sqrt(lo * hi)
        if extent(mid) > shot.fill:
            lo = mid
        else:
            hi = mid
    return k, rot, target + hi * direction


def _homography(k, rot, centre, height_mm: float) -> np.ndarray:
    """Table plane at ``height_mm`` (x, y mm) -> undistorted image pixels."""
    r = rot  # rows are camera axes: X_c = rot (X - C)
    m = np.stack([r[:, 0], r[:, 1], r[:, 2] * height_mm - r @ centre], axis=1)
    return k @ m


def _project(hmat: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.c_[pts, np.ones(len(pts))] @ hmat.T
    return p[:, :2] / p[:, 2:]


def _fill(img: np.ndarray, poly_px: np.ndarray, value: float) -> None:
    cv2 = cv2_module()
    pts = np.round(poly_px * 16).astype(np.int32).reshape(-1, 1, 2)
    cv2.fillPoly(img, [pts], float(value), lineType=cv2.LINE_AA, shift=4)


def _draw_marker(img: np.ndarray, marker_id: int, corners_mm: np.ndarray, hmat: np.ndarray,
                 dictionary: str, printed=None) -> None:
    """Warp the marker's cells (oversampled at least twice the image's pixels) into the
    image region its corners ``(4, 2)`` (OpenCV's order) project to. ``printed``:
    ``(texture, corners (4, 2) in texture pixels)``, the marker as printed (a crop of a
    rasterised page) to draw instead of its cells."""
    cv2 = cv2_module()
    dst = _project(hmat, corners_mm)
    if printed is not None:
        tex, src = printed[0].astype(np.float32), np.asarray(printed[1], np.float32)
    else:
        bits = marker_bits(marker_id, dictionary).astype(np.float32)
        cells = bits.shape[0]
        side_px = max(np.linalg.norm(dst[1] - dst[0]), np.linalg.norm(dst[2] - dst[1]))
        up = max(8, int(math.ceil(2 * side_px / cells)))
        tex = np.kron(bits, np.ones((up, up), np.float32)) * 255
        n = cells * up
        src = np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32) - 0.5  # texel i covers [i - 0.5, i + 0.5]
    x0, y0 = np.floor(dst.min(0)).astype(int) - 2
    x1, y1 = np.ceil(dst.max(0)).astype(int) + 2
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, img.shape[1]), min(y1, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    m = cv2.getPerspectiveTransform(src, (dst - [x0, y0]).astype(np.float32))
    roi = img[y0:y1, x0:x1]
    warped = cv2.warpPerspective(tex, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderValue=0)
    inside = np.zeros_like(tex)
    if printed is not None:  # the square only, not the paper cropped around it
        _fill(inside, src.astype(float), 1.0)
    else:
        inside[:] = 1.0
    mask = cv2.warpPerspective(inside, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderValue=0)
    roi[:] = roi * (1 - mask) + warped * mask


def _rect(cx, cy, heading_rad, length, width) -> np.ndarray:
    c, s = math.cos(heading_rad), math.sin(heading_rad)
    local = np.array([[length / 2, width / 2], [-length / 2, width / 2], [-length / 2, -width / 2],
                      [length / 2, -width / 2]])
    return local @ np.array([[c, s], [-s, c]]) + [cx, cy]


def random_layout(rng, width_mm: float, height_mm: float, count: int, layout: MarkerLayout | None = None,
                  kinds=("small",)) -> tuple[tuple[int, ...], np.ndarray]:
    """``count`` bases at random, not overlapping, inside the markers' frame: sticker
    numbers and poses ``(N, 3)``."""
    from furball.maneuvers.bases import shipped_bases

    layout = layout or marker_layout()
    bases = shipped_bases()
    margin = layout.corner_quiet_mm + layout.corner_mm
    numbers: list[int] = []
    poses: list[tuple[float, float, float]] = []
    shapes: list[tuple[float, float, float]] = []
    used = {k: 0 for k in kinds}
    for _ in range(count * 50):
        if len(numbers) == count:
            break
        kind = kinds[len(numbers) % len(kinds)]
        base = bases[kind]
        r = math.hypot(base.length_mm, base.width_mm) / 2 + 2
        x = rng.uniform(r + 5, width_mm - r - 5)
        y = rng.uniform(r + 5, height_mm - r - 5)
        near = margin + r + 15
        in_corner = (x < near or x > width_mm - near) and (y < near or y > height_mm - near)
        if in_corner or any(math.hypot(x - px, y - py) < r + pr for px, py, pr in shapes):
            continue
        shapes.append((x, y, r))
        numbers.append(layout.sticker(kind).numbers[0] + used[kind])
        used[kind] += 1
        poses.append((x, y, rng.uniform(0, 360)))
    return tuple(numbers), np.array(poses, float).reshape(-1, 3)


def random_shot(rng, size=(4000, 3000), max_tilt_deg: float = 35.0, distortion: bool = True) -> Shot:
    """A photo as the benchmark takes them: tilt 0-``max_tilt_deg``, any side, blur up
    to 1.5 px, noise, JPEG 70-95, some lens distortion, miniatures and occluders."""
    return Shot(size=tuple(size), tilt_deg=float(rng.uniform(0, max_tilt_deg)),
                azimuth_deg=float(rng.uniform(-180, 180)), roll_deg=float(rng.uniform(-8, 8)),
                focal_per_diagonal=float(rng.uniform(0.6, 1.0)), fill=float(rng.uniform(0.85, 0.95)),
                blur_px=float(rng.uniform(0.3, 1.5)), noise=float(rng.uniform(1, 4)),
                jpeg_quality=int(rng.integers(70, 96)), height_sd_mm=0.5,
                k1=float(rng.uniform(-0.08, 0.08)) if distortion else 0.0, occluders=int(rng.integers(0, 4)))


def render_table_photo(stickers, poses, shot: Shot | None = None, *, width_mm: float = 900.0,
                       height_mm: float = 900.0, seed: int = 0, layout: MarkerLayout | None = None,
                       printed: dict | None = None) -> SyntheticPhoto:
    """Render the photo of a table with base stickers ``stickers`` at ``poses``
    ``(N, 3)`` (x_mm, y_mm, heading_deg of each base centre), taken as ``shot`` says.
    ``printed``: marker id -> ``(texture, corners in texture pixels)``: those markers
    drawn as printed (crops of the rasterised marker sheet) instead of from their cells."""
    from furball.maneuvers.bases import shipped_bases

    cv2 = cv2_module()
    shot = shot or Shot()
    layout = layout or marker_layout()
    rng = np.random.default_rng(seed)
    poses = np.asarray(poses, float).reshape(-1, 3)
    k, rot, centre = camera_pose(width_mm, height_mm, shot)
    w, h = shot.size
    h0 = _homography(k, rot, centre, 0.0)

    # the table: a grey cloth with a soft texture and a light gradient
    low = rng.normal(0, 1, (h // 32 + 2, w // 32 + 2)).astype(np.float32)
    tex = cv2.resize(low, (w, h), interpolation=cv2.INTER_CUBIC)
    gx = np.linspace(-1, 1, w, dtype=np.float32)
    img = (95 + 10 * tex + 12 * gx[None, :]).astype(np.float32) * np.ones((h, 1), np.float32)
    # the corner markers on their paper squares
    corners_mm = layout.table_corners_mm(width_mm, height_mm)
    for marker, mid in zip(corners_mm, layout.corner_ids):
        lo = marker[3] - layout.corner_quiet_mm
        side = layout.corner_mm + 2 * layout.corner_quiet_mm
        paper = np.array([lo, lo + [side, 0], lo + [side, side], lo + [0, side]])
        _fill(img, _project(h0, paper), 235)
        _draw_marker(img, mid, marker, h0, layout.dictionary, (printed or {}).get(mid))
    # the bases: the side (a dark band in a tilted view), the white sticker, its tags
    bases = shipped_bases()
    for number, (x, y, heading) in zip(stickers, poses):
        sticker = layout.sticker_of_number(number)
        base = bases[sticker.kind]
        thickness = max(0.0, sticker.height_mm + shot.height_sd_mm * rng.standard_normal())
        top = _homography(k, rot, centre, thickness)
        outline = _rect(x, y, math.radians(heading), base.length_mm, base.width_mm)
        for z in np.linspace(0, thickness, 4):
            _fill(img, _project(_homography(k, rot, centre, z), outline), 40)
        _fill(img, _project(top, outline), 225)
        c, s = math.cos(math.radians(heading)), math.sin(math.radians(heading))
        to_table = np.array([[c, -s], [s, c]])
        for tag, tid in zip(sticker.tag_corners_mm(), sticker.tag_ids(number)):
            _draw_marker(img, tid, tag @ to_table.T + [x, y], top, layout.dictionary, (printed or {}).get(tid))
    # the miniatures above the bases: a fuselage and a wing, 30-40 mm up
    for number, (x, y, heading) in zip(stickers, poses):
        if not shot.miniatures:
            break
        z = rng.uniform(*PLANE_HEIGHT_MM)
        hz = _homography(k, rot, centre, z)
        a = math.radians(heading + rng.normal(0, 5))
        kind = layout.sticker_of_number(number).kind
        span = 58.0 if kind == "small" else 100.0
        _fill(img, _project(hz, _rect(x, y, a, span * 0.7, 7)), rng.uniform(30, 80))
        _fill(img, _project(hz, _rect(x + 4 * math.cos(a), y + 4 * math.sin(a), a, 9, span)), rng.uniform(30, 80))
    # whole bases hidden (a hand over them), and random blobs
    for number, (x, y, _) in zip(stickers, poses):
        if number in shot.hide:
            kind = layout.sticker_of_number(number).kind
            r = 0.56 * math.hypot(bases[kind].length_mm, bases[kind].width_mm)
            circle = np.array([[x + r * math.cos(t), y + r * math.sin(t)] for t in np.linspace(0, 2 * math.pi, 40)])
            z = layout.sticker_of_number(number).height_mm + 2.0
            _fill(img, _project(_homography(k, rot, centre, z), circle), rng.uniform(120, 180))
    frame = layout.corner_quiet_mm * 2 + layout.corner_mm + 30
    for _ in range(shot.occluders):  # anywhere but on the corner markers
        cx, cy = rng.uniform(frame, width_mm - frame), rng.uniform(0, height_mm)
        r = rng.uniform(8, 25)
        blob = np.array([[cx + r * math.cos(t), cy + 0.6 * r * math.sin(t)] for t in np.linspace(0, 2 * math.pi, 24)])
        _fill(img, _project(h0, blob), rng.uniform(20, 200))

    dist = np.array([shot.k1, shot.k2, 0, 0, 0], float)
    if shot.k1 or shot.k2:  # the lens: each distorted pixel shows the ideal image where it undistorts to
        step = 8
        gx, gy = np.meshgrid(np.arange(0, w + step, step, dtype=np.float32),
                             np.arange(0, h + step, step, dtype=np.float32))
        pts = np.stack([gx, gy], -1).reshape(-1, 1, 2)
        und = cv2.undistortPoints(pts, k, dist, P=k).reshape(gx.shape + (2,))
        # the map at every pixel, interpolated from the grid (grid point i sits at pixel i * step)
        fine_x = np.arange(w, dtype=np.float32) / step
        fine_y = np.arange(h, dtype=np.float32) / step
        mx = cv2.remap(und[..., 0], *np.meshgrid(fine_x, fine_y), interpolation=cv2.INTER_LINEAR)
        my = cv2.remap(und[..., 1], *np.meshgrid(fine_x, fine_y), interpolation=cv2.INTER_LINEAR)
        img = cv2.remap(img, mx, my, interpolation=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if shot.blur_px > 0:
        img = cv2.GaussianBlur(img, (0, 0), shot.blur_px)
    if shot.noise > 0:
        img = img + rng.normal(0, shot.noise, img.shape).astype(np.float32)
    gray = np.clip(np.round(img), 0, 255).astype(np.uint8)
    if shot.jpeg_quality:
        ok, enc = cv2.imencode(".jpg", gray, [cv2.IMWRITE_JPEG_QUALITY, int(shot.jpeg_quality)])
    else:
        ok, enc = cv2.imencode(".png", gray)
    assert ok
    hidden = tuple(n for n in stickers if n in shot.hide)
    return SyntheticPhoto(enc.tobytes(), gray, tuple(int(n) for n in stickers), poses.copy(), hidden, k, dist, rot,
                          centre, float(width_mm), float(height_mm))


def render_card_photo(segments, size=(1200, 1500), tilt_deg: float = 10.0, azimuth_deg: float = -90.0,
                      start_mm=(90.0, 60.0), seed: int = 0, blur_px: float = 0.7, noise: float = 2.0):
    """A photo of a maneuver card on the card mat: the mat's four markers, the card's
    arrow from its start line at ``start_mm`` (mat mm, pointing up the mat) along
    ``segments`` (:class:`~furball.maneuvers.card.Straight` / ``Arc``). Returns
    ``(png bytes, start line ends (2, 2) px, points along the arrow (K, 2) px with the
    tip last, end line ends (2, 2) px)``."""
    from furball.geometry.pose import Pose
    from furball.maneuvers.card import chain_end

    cv2 = cv2_module()
    layout = marker_layout()
    rng = np.random.default_rng(seed)
    w_mm, h_mm = layout.mat_size_mm
    k, rot, centre = camera_pose(w_mm, h_mm, Shot(size=tuple(size), tilt_deg=tilt_deg, azimuth_deg=azimuth_deg,
                                                  fill=0.95))
    hmat = _homography(k, rot, centre, 0.0)
    w, h = size
    img = np.full((h, w), 70.0, np.float32)
    _fill(img, _project(hmat, np.array([[0, 0], [w_mm, 0], [w_mm, h_mm], [0, h_mm]], float)), 235)
    for corners, mid in zip(layout.mat_corners_mm(), layout.mat_ids):
        _draw_marker(img, mid, corners, hmat, layout.dictionary)
    start = Pose(start_mm[0], start_mm[1], 90.0)
    poses, done = [start], Pose.identity()
    for seg in segments:  # sample each segment every 2 mm, in the arrow-start frame
        end = seg.end
        steps = max(2, int(math.ceil(seg.length_mm / 2)))
        for s in np.linspace(0, 1, steps + 1)[1:]:
            part = type(seg)(**{f: getattr(seg, f) * (s if f in ("length_mm", "angle_deg") else 1)
                                for f in seg.__dataclass_fields__})
            poses.append(start @ done @ part.end)
        done = done @ end
    tip = start @ chain_end(segments)
    line = np.array([[p.x_mm, p.y_mm] for p in poses])
    px = _project(hmat, line)
    cv2.polylines(img, [np.round(px * 16).astype(np.int32).reshape(-1, 1, 2)], False, 40.0, 3, cv2.LINE_AA, 4)
    half = 20.0

    def across(p):
        a = math.radians(p.heading_deg + 90)
        return np.array([[p.x_mm - half * math.cos(a), p.y_mm - half * math.sin(a)],
                         [p.x_mm + half * math.cos(a), p.y_mm + half * math.sin(a)]])

    start_px, end_px = _project(hmat, across(start)), _project(hmat, across(tip))
    for seg_px in (start_px, end_px):
        cv2.line(img, tuple(np.round(seg_px[0] * 16).astype(int)), tuple(np.round(seg_px[1] * 16).astype(int)), 40.0,
                 2, cv2.LINE_AA, 4)
    img = cv2.GaussianBlur(img, (0, 0), blur_px) + np.asarray(rng.normal(0.0, noise, img.shape), np.float32)
    ok, enc = cv2.imencode(".png", np.clip(np.round(img), 0, 255).astype(np.uint8))
    assert ok
    pick = [int(round(v)) for v in np.linspace(0.0, len(px) - 1.0, num=min(8, len(px)))]
    return enc.tobytes(), start_px, px[pick[1:]], end_px
