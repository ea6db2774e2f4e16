"""A real maneuver card's motion from a photo on the card mat, or a flat scan.

The card lies on the printed card mat (four markers around it: the photo maps to mat
millimetres through their homography) or is scanned flat at a known resolution. The
user marks pixels: the two ends of the arrow's start line (the base's front line,
DF.M1), then points along the arrow's centre line to its tip. In the arrow-start
frame (origin the start line's middle, x forward across it, y left) the points are
fitted by least squares with a straight (``straight_mm`` = the tip's x) and with an
arc tangent to x at the origin (``radius_mm`` from the circle's linear least squares,
``angle_deg`` to the tip); the arc is kept when it fits clearly better (residuals
halved and a radius under 3 m). The uncertainty comes from a Monte Carlo over the
marked points (``CLICK_PX`` of noise each) and, on the mat, the markers' corners.
"""
from __future__ import annotations

import math
import pathlib
from dataclasses import dataclass, replace

import numpy as np

from furball.errors import InputError
from furball.i18n import DEFAULT_LANG, Lang, msg, translator

from .camera import apply_homography, homography_batch, read_gray
from .markers import cv2_module, marker_layout
from .table import Z95, detect_markers


def _area(a, b) -> float:
    """The signed area of the parallelogram of 2-vectors ``a`` and ``b``."""
    return float(a[0] * b[1] - a[1] * b[0])


__all__ = ["CardFit", "capture_card", "fit_arrow", "deck_with_card", "CLICK_PX", "find_arrow", "ArrowNotFound"]

CLICK_PX = 1.0
"""Standard deviation of a marked point, pixels (a careful click on a zoomed image)."""
SAMPLES = 300


@dataclass(frozen=True)
class CardFit:
    """The fitted motion: ``kind`` ("straight" or "arc"), ``length_mm`` (straight),
    ``radius_mm`` (signed: + left, the circle's centre at ``(0, radius)``) and
    ``angle_deg`` (arc, + left), the tip ``end`` ``(x_mm, y_mm,
    heading_deg)`` in the arrow-start frame, the 95 % half-widths ``uncertainty_95``
    (same keys), the RMS residual ``rms_mm`` of the marked points and ``mm_per_px``."""

    kind: str
    length_mm: float
    radius_mm: float
    angle_deg: float
    end: tuple[float, float, float]
    uncertainty_95: dict
    rms_mm: float
    mm_per_px: float
    segments: tuple[tuple[str, float, float], ...] = ()
    frame_mm: tuple[float, float, float] = (0.0, 0.0, 0.0)
    image_from_mm: tuple[tuple[float, ...], ...] = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))

    def path_points_px(self, step_mm: float = 1.0) -> np.ndarray:
        """``(K, 2)``: the fitted path drawn back on the image, pixels (``frame_mm``: the
        arrow start in mat or scan mm, x, y, forward angle in degrees; ``image_from_mm``:
        the homography mat mm -> image pixels)."""
        if self.kind == "compound":
            kinds, params = [k for k, _, _ in self.segments], []
            for k, a, b in self.segments:
                params += [a] if k == "straight" else [a, b]
        elif self.kind == "straight":
            kinds, params = ["straight"], [self.length_mm]
        else:
            kinds, params = ["arc"], [self.radius_mm, self.angle_deg]
        local, _ = _chain(kinds, np.array(params, float), step_mm)
        x0, y0, a = self.frame_mm
        c, s = math.cos(math.radians(a)), math.sin(math.radians(a))
        mm = np.stack([x0 + c * local[:, 0] - s * local[:, 1], y0 + s * local[:, 0] + c * local[:, 1]], -1)
        return apply_homography(np.array(self.image_from_mm), mm)

    def path(self) -> list[dict]:
        """The card's ``path`` in the deck format."""
        if self.kind == "compound":
            return [{"straight_mm": round(a, 3)} if k == "straight" else
                    {"arc": {"radius_mm": round(abs(a), 3), "angle_deg": round(b, 3)}} for k, a, b in self.segments]
        if self.kind == "straight":
            return [{"straight_mm": round(self.length_mm, 3)}]
        return [{"arc": {"radius_mm": round(abs(self.radius_mm), 3), "angle_deg": round(self.angle_deg, 3)}}]

    def describe(self, lang: Lang | str = DEFAULT_LANG) -> str:
        """The fitted motion in words, in ``lang`` (its decimals the language's way: a
        decimal comma in Spanish)."""
        _ = translator(lang)
        comma = Lang(lang) == Lang.ES

        def n(x: float, digits: int = 2, sign: bool = False) -> str:
            text = f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"
            return text.replace(".", ",") if comma else text

        u = self.uncertainty_95
        if self.kind == "compound":
            parts = []
            for i, (k, a, b) in enumerate(self.segments):
                err = u[f"segment {i + 1}"]
                if k == "straight":
                    parts.append(_("straight {length} mm +-{error}").format(length=n(a), error=n(err[0])))
                else:
                    parts.append(_("arc {length} mm +-{error}, {angle} deg +-{angle_error}").format(
                        length=n(abs(a)), error=n(err[0]), angle=n(b, sign=True), angle_error=n(err[1])))
            what = _("the deck's path: {parts}").format(parts=_(", then ").join(parts))
        elif self.kind == "straight":
            what = _("straight {length} mm +-{error}").format(length=n(self.length_mm), error=n(u["length_mm"]))
        else:
            what = _("arc of radius {radius} mm +-{error}, {angle} deg +-{angle_error}").format(
                radius=n(abs(self.radius_mm)), error=n(u["radius_mm"]), angle=n(self.angle_deg, sign=True),
                angle_error=n(u["angle_deg"]))
        return _("{what} (95 %); tip at x {x}, y {y} mm, heading {heading} deg; points fit to {rms} mm RMS at "
                 "{scale} mm per pixel").format(what=what, x=n(self.end[0]), y=n(self.end[1]), heading=n(self.end[2]),
                                                rms=n(self.rms_mm), scale=n(self.mm_per_px, 3))


def _frame(start: np.ndarray, path: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The path points ``(..., K, 2)`` in the arrow-start frame of the start line
    ``(..., 2, 2)``: origin its middle, x across it towards the path."""
    mid = start.mean(-2)
    along = start[..., 1, :] - start[..., 0, :]
    normal = np.stack([along[..., 1], -along[..., 0]], -1)
    normal /= np.linalg.norm(normal, axis=-1, keepdims=True)
    toward = ((path.mean(-2) - mid) * normal).sum(-1)
    normal = normal * np.where(toward < 0, -1.0, 1.0)[..., None]
    left = np.stack([-normal[..., 1], normal[..., 0]], -1)
    rel = path - mid[..., None, :]
    return (np.stack([(rel * normal[..., None, :]).sum(-1), (rel * left[..., None, :]).sum(-1)], -1),
            normal)


def fit_arrow(local: np.ndarray) -> tuple[str, np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]:
    """Fit the points ``(..., K, 2)`` (arrow-start frame, last = tip): returns kind,
    ``(...,)`` arrays of length, radius, angle (deg), tip heading and the RMS residual
    of the chosen model (decided on the first set)."""
    x, y = local[..., 0], local[..., 1]
    straight_rms = np.sqrt((y ** 2).mean(-1))
    radius = (y * (x ** 2 + y ** 2)).sum(-1) / (2 * (y ** 2).sum(-1) + 1e-12)
    arc_res = np.hypot(x, y - radius[..., None]) - np.abs(radius[..., None])
    arc_rms = np.sqrt((arc_res ** 2).mean(-1))
    tip = local[..., -1, :]
    angle = np.degrees(np.arctan2(tip[..., 0], np.sign(radius) * (radius - tip[..., 1]))) * np.sign(radius)
    first = (np.ravel(straight_rms)[0], np.ravel(arc_rms)[0], abs(np.ravel(radius)[0]))
    kind = "arc" if first[1] < 0.5 * first[0] and first[2] < 3000 else "straight"
    if kind == "straight":
        return kind, tip[..., 0], np.zeros_like(radius), np.zeros_like(radius), np.zeros_like(radius), float(first[0])
    return kind, tip[..., 0], radius, angle, angle, float(first[1])


def _chain(kinds, params: np.ndarray, step_mm: float = 0.25) -> tuple[np.ndarray, np.ndarray]:
    """The path of segments ``kinds`` ("straight" / "arc") with ``params`` (a length, or
    a radius and an angle per segment, flat) from the arrow start: points ``(K, 2)``
    every ``step_mm`` and the tip ``(x, y, heading_deg)``."""
    x = y = h = 0.0
    pts, i = [np.zeros((1, 2))], 0
    for kind in kinds:
        if kind == "straight":
            length = params[i]
            i += 1
            s = np.linspace(0, length, max(2, int(abs(length) / step_mm) + 1))[1:]
            pts.append(np.stack([x + s * math.cos(h), y + s * math.sin(h)], -1))
            x, y = x + length * math.cos(h), y + length * math.sin(h)
        else:
            radius, angle = abs(params[i]), math.radians(params[i + 1])
            i += 2
            side = 1.0 if angle >= 0 else -1.0
            cx, cy = x - side * radius * math.sin(h), y + side * radius * math.cos(h)
            a = np.linspace(0, angle, max(2, int(abs(angle) * radius / step_mm) + 1))[1:]
            start = h - side * math.pi / 2
            pts.append(np.stack([cx + radius * np.cos(start + a), cy + radius * np.sin(start + a)], -1))
            h += angle
            x, y = cx + radius * math.cos(start + angle), cy + radius * math.sin(start + angle)
    return np.concatenate(pts), np.array([x, y, math.degrees(h)])


def fit_compound(local: np.ndarray, kinds, start: np.ndarray) -> np.ndarray:
    """The parameters of the segments ``kinds`` fitted to the points ``(K, 2)`` (arrow-
    start frame, tip last) by least squares, from ``start``: each point's distance to
    the path, and the tip's to the path's end."""
    from scipy.optimize import least_squares

    def residuals(params):
        path, tip = _chain(kinds, params)
        inner = local[:-1]
        d = np.sqrt(((inner[:, None, :] - path[None]) ** 2).sum(-1)).min(1)
        return np.concatenate([d, tip[:2] - local[-1]])

    return least_squares(residuals, start, method="trf", diff_step=1e-4).x


def _to_mm(image, points: np.ndarray, dpi: float | None, rng) -> tuple[np.ndarray, float, str, np.ndarray]:
    """``(SAMPLES, n, 2)`` draws of the points in mat (or scan) mm, the scale, the label
    and the homography mat mm -> image pixels."""
    noisy = points[None] + CLICK_PX * rng.standard_normal((SAMPLES, *points.shape))
    noisy[0] = points
    if dpi is not None:
        scale = 25.4 / dpi
        label = str(image) if not isinstance(image, (bytes, np.ndarray)) else "image"
        to_image = np.array([[1 / scale, 0, 0], [0, -1 / scale, 0], [0, 0, 1.0]])
        return np.stack([noisy[..., 0] * scale, -noisy[..., 1] * scale], -1), scale, label, to_image
    layout = marker_layout()
    gray, label = read_gray(image)
    found = detect_markers(gray, layout.dictionary, label)
    missing = [i for i in layout.mat_ids if i not in found]
    if missing:
        raise InputError(msg("{photo}: {found} of the 4 card-mat markers found (missing {missing}): expected the card on "
                             "the printed card mat, all four markers in view (or give --dpi for a flat scan)",
                             photo=label, found=4 - len(missing), missing=", ".join(map(str, missing))))
    mat = layout.mat_corners_mm().reshape(-1, 2)
    img = np.concatenate([found[i] for i in layout.mat_ids])
    draws = img[None] + 0.1 * rng.standard_normal((SAMPLES, *img.shape))
    draws[0] = img
    inv = np.linalg.inv(homography_batch(mat, draws))  # image -> mat, one per draw
    mm = apply_homography(inv, noisy)
    c = apply_homography(inv[0], np.array([points[0], points[0] + [1, 0], points[0] + [0, 1]]))
    scale = math.sqrt(abs(_area(c[1] - c[0], c[2] - c[0])))
    return mm, scale, label, np.linalg.inv(inv[0])


def capture_card(image, points, end_line=None, dpi: float | None = None, seed: int = 0,
                 template=None) -> CardFit:
    """Fit a card's motion to ``points`` (pixels: the start line's two ends, then at
    least two points along the arrow to its tip) in ``image`` (a path, bytes or array;
    on the card mat, or a flat scan at ``dpi``). ``end_line``: two pixels of the
    arrow's end line, giving the tip's heading (default: the fitted path's). Raises
    InputError (the card mat not found, too few points, a start line of no length).
    ``template``: the deck card's own path (:class:`~furball.maneuvers.card.Straight` /
    ``Arc`` segments); with two segments or more its lengths, radii and angles are
    fitted instead (the deck's compound path; :data:`COMPOUND_SAMPLES` draws)."""
    pts = np.asarray(points, float)
    if pts.ndim != 2 or pts.shape[1] != 2 or len(pts) < 4:
        raise InputError(msg("points: expected the start line's two ends and at least two points along the arrow"))
    extra = np.asarray(end_line, float).reshape(-1, 2) if end_line is not None else np.zeros((0, 2))
    if np.hypot(*(pts[1] - pts[0])) < 3:
        raise InputError(msg("points: the start line's two ends are the same pixel: expected its two ends"))
    rng = np.random.default_rng(seed)
    mm, scale, _, to_image = _to_mm(image, np.concatenate([pts, extra]), dpi, rng)
    start, path, ends = mm[:, :2], mm[:, 2:len(pts)], mm[:, len(pts):]
    local, normal = _frame(start, path)
    mid = start[0].mean(0)
    frame = (float(mid[0]), float(mid[1]), math.degrees(math.atan2(normal[0, 1], normal[0, 0])))
    image_from_mm = tuple(tuple(float(v) for v in row) for row in to_image)
    if template is not None and len(template) >= 2:
        return replace(_compound(local, template, scale), frame_mm=frame, image_from_mm=image_from_mm)
    kind, length, radius, angle, heading, rms = fit_arrow(local)
    if len(extra) == 2:  # the end line's normal, in the arrow-start frame
        d = ends[:, 1] - ends[:, 0]
        n = np.stack([d[:, 1], -d[:, 0]], -1)
        left = np.stack([-normal[:, 1], normal[:, 0]], -1)
        hx, hy = (n * normal).sum(-1), (n * left).sum(-1)
        sign = np.where(hx < 0, -1.0, 1.0)
        heading = np.degrees(np.arctan2(hy * sign, hx * sign))
    tip = local[:, -1]
    sd = lambda a: float(Z95 * np.std(a[1:], ddof=1))  # noqa: E731
    u = {"length_mm": sd(length), "radius_mm": sd(radius), "angle_deg": sd(angle),
         "x_mm": sd(tip[:, 0]), "y_mm": sd(tip[:, 1]), "heading_deg": sd(heading)}
    return CardFit(kind, float(length[0]), float(radius[0]), float(angle[0]),
                   (float(tip[0, 0]), float(tip[0, 1]), float(heading[0])), u, float(rms), scale,
                   frame_mm=frame, image_from_mm=image_from_mm)


COMPOUND_SAMPLES = 40
"""Monte Carlo draws for a compound path (each is a least-squares fit)."""


def _compound(local: np.ndarray, template, scale: float) -> CardFit:
    from furball.maneuvers.card import Straight

    kinds = ["straight" if isinstance(s, Straight) else "arc" for s in template]
    start = np.array([v for s in template for v in ((s.length_mm,) if isinstance(s, Straight)
                                                    else (s.radius_mm, s.angle_deg))], float)
    fits = np.array([fit_compound(local[k], kinds, start) for k in range(COMPOUND_SAMPLES)])
    best = fits[0]
    path, tip = _chain(kinds, best)
    inner = local[0, :-1]
    rms = float(np.sqrt((np.sqrt(((inner[:, None] - path[None]) ** 2).sum(-1)).min(1) ** 2).mean()))
    sd = Z95 * np.std(fits[1:], axis=0, ddof=1)
    segments: list[tuple[str, float, float]] = []
    u: dict = {}
    i = 0
    for n, kind in enumerate(kinds, 1):
        if kind == "straight":
            segments.append((kind, float(best[i]), 0.0))
            u[f"segment {n}"] = (float(sd[i]), 0.0)
            i += 1
        else:
            segments.append((kind, float(best[i]), float(best[i + 1])))
            u[f"segment {n}"] = (float(sd[i]), float(sd[i + 1]))
            i += 2
    tips = np.array([_chain(kinds, f)[1] for f in fits[1:]])
    u.update({"x_mm": float(Z95 * tips[:, 0].std(ddof=1)), "y_mm": float(Z95 * tips[:, 1].std(ddof=1)),
              "heading_deg": float(Z95 * tips[:, 2].std(ddof=1))})
    return CardFit("compound", 0.0, 0.0, 0.0, (float(tip[0]), float(tip[1]), float(tip[2])), u, rms, scale,
                   tuple(segments))


def deck_with_card(deck_path, card_id: str, fit: CardFit, photo: str, label: str | None = None) -> str:
    """The deck file's text with card ``card_id``'s motion replaced by ``fit`` (its
    ``path``; with an end line whose heading differs from the path's, an ``end``
    pose instead), the deck's provenance ``measured`` and its notes naming the
    measured card. A card measured alone no longer mirrors its twin: the ``twin`` link
    is dropped on both (the notes say so). Raises InputError (no such deck file or
    card; ``label`` names the file in messages, default its path). The result is
    checked by loading it as a deck."""
    import tomli_w

    from furball.geometry.datafile import load_toml
    from furball.maneuvers.deck import parse_deck

    p = pathlib.Path(deck_path)
    where = label or str(p)
    data = load_toml(p)
    parse_deck(data, where)  # the deck as given must be a deck
    cards = data.get("card", [])
    match = [c for c in cards if isinstance(c, dict) and c.get("id") == card_id]
    if not match:
        known = ", ".join(str(c.get("id")) for c in cards if isinstance(c, dict))
        raise InputError(f"{where}: card {card_id!r:.40}: expected one of {known}")
    card = match[0]
    twin = card.pop("twin", None)
    for other in cards:
        if isinstance(other, dict) and twin is not None and other.get("id") == twin:
            other.pop("twin", None)
    for key in ("path", "end", "final_turn_deg"):
        card.pop(key, None)
    path_heading = fit.angle_deg if fit.kind == "arc" else 0.0
    if fit.kind == "compound":
        path_heading = sum(b for k, _, b in fit.segments if k == "arc")
    if abs(((fit.end[2] - path_heading) + 180) % 360 - 180) > 0.5:
        card["end"] = {"x_mm": round(fit.end[0], 3), "y_mm": round(fit.end[1], 3), "heading_deg": round(fit.end[2], 3)}
    else:
        card["path"] = fit.path()
    deck = data.setdefault("deck", {})
    deck["provenance"] = "measured"
    note = f"card {card_id} measured from {photo} ({fit.describe()})" + (
        f"; its twin link to {twin} dropped (measured alone)" if twin else "")
    deck["notes"] = f"{deck.get('notes', '')}; {note}".strip("; ")
    text = (f"# furball deck; card {card_id} measured by furball capture card from {photo}.\n"
            f"# Format: maneuvers/deck.py; how cards are measured: docs/capture.md\n" + tomli_w.dumps(data))
    from furball.geometry.datafile import parse_toml

    parse_deck(parse_toml(text, where), where)
    return text


class ArrowNotFound(InputError):
    """The card's arrow could not be found in the picture (the reason in the message):
    its points are to be marked by hand (``--points``), never guessed."""


ARROW_POINTS = 8
"""Points taken along an arrow found automatically (besides its start line and tip)."""
STROKE_TOLERANCE_MM = 0.6
"""How far an inked pixel may lie from a straight line and count as on it (the printed
stroke's half width and the picture's blur)."""


def _rectified_ink(gray: np.ndarray, image_from_mm: np.ndarray, extent_mm, masks_mm, label: str):
    """The picture seen from above at a scale near its own (px per mm ``r``): the inked
    pixels' mat millimetres ``(P, 2)`` of the largest inked shape (Otsu's threshold on
    the paper; ``masks_mm``: polygons left out, the mat's markers) and ``r``."""
    cv2 = cv2_module()
    x0, y0, x1, y1 = extent_mm
    c = apply_homography(image_from_mm, np.array([[(x0 + x1) / 2, (y0 + y1) / 2], [(x0 + x1) / 2 + 1, (y0 + y1) / 2],
                                                  [(x0 + x1) / 2, (y0 + y1) / 2 + 1]]))
    r = float(np.clip(math.sqrt(abs(_area(c[1] - c[0], c[2] - c[0]))), 2.0, 8.0))
    size = (int((x1 - x0) * r), int((y1 - y0) * r))
    to_mm = np.array([[1 / r, 0, x0], [0, -1 / r, y1], [0, 0, 1.0]])  # rectified pixel -> mm (y up)
    top = cv2.warpPerspective(gray, image_from_mm @ to_mm, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderValue=0)
    valid = np.full(top.shape, 255, np.uint8)
    for poly in masks_mm:
        px = apply_homography(np.linalg.inv(to_mm), np.asarray(poly, float))
        cv2.fillPoly(valid, [np.round(px).astype(np.int32)], 0)
    valid = cv2.erode(valid, np.ones((5, 5), np.uint8))
    paper = top[valid > 0]
    if paper.size == 0:
        raise ArrowNotFound(msg("{photo}: no paper in view: mark the arrow's points", photo=label))
    threshold, _ = cv2.threshold(paper.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    ink = ((top < threshold) & (valid > 0)).astype(np.uint8)
    ink = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if count < 2:
        raise ArrowNotFound(msg("{photo}: no printed arrow found on the card: mark the arrow's points", photo=label))
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    ys, xs = np.nonzero(labels == biggest)
    return apply_homography(to_mm, np.stack([xs, ys], -1).astype(float)), r


def _longest_straight(pts: np.ndarray, rng, tries: int = 400) -> tuple[np.ndarray, np.ndarray] | None:
    """The longest straight run of inked points (RANSAC over point pairs: inliers within
    :data:`STROKE_TOLERANCE_MM` of the line, gaps under 3 mm): its two ends ``(2, 2)``
    (the inliers' extent on their fitted line) and the inliers' mask, or ``None``."""
    if len(pts) < 20:
        return None
    best, best_len = None, 0.0
    pairs = rng.integers(0, len(pts), (tries, 2))
    for i, j in pairs:
        d = pts[j] - pts[i]
        n = np.hypot(*d)
        if n < 3.0:
            continue
        u = d / n
        rel = pts - pts[i]
        near = np.abs(rel[:, 0] * u[1] - rel[:, 1] * u[0]) < STROKE_TOLERANCE_MM
        s = np.sort(rel[near] @ u)
        if len(s) < 10:
            continue
        gaps = np.nonzero(np.diff(s) > 3.0)[0]  # a stroke crossing it, taken out before, leaves a gap
        cuts = np.concatenate([[0], gaps + 1, [len(s)]])
        k = int(np.argmax(s[cuts[1:] - 1] - s[cuts[:-1]]))
        length = float(s[cuts[k + 1] - 1] - s[cuts[k]])
        if length > best_len:
            best_len, best = length, (pts[i], u, s[cuts[k]], s[cuts[k + 1] - 1])
    if best is None:
        return None
    p, u, lo, hi = best
    for _ in range(2):  # refit: the stroke's own principal axis through its inliers, then its inliers again
        rel = pts - p
        along = rel @ u
        inliers = (np.abs(rel[:, 0] * u[1] - rel[:, 1] * u[0]) < STROKE_TOLERANCE_MM) & (along >= lo) & (along <= hi)
        p = pts[inliers].mean(0)
        w, v = np.linalg.eigh(np.cov((pts[inliers] - p).T))
        u = v[:, np.argmax(w)]
        t = (pts[inliers] - p) @ u
        lo, hi = float(t.min()), float(t.max())
    rel = pts - p
    along = rel @ u
    stroke = (np.abs(rel[:, 0] * u[1] - rel[:, 1] * u[0]) < 2 * STROKE_TOLERANCE_MM) & (along >= lo - 0.5) & \
        (along <= hi + 0.5)  # the whole stroke, its blurred edges too
    return np.array([p + lo * u, p + hi * u]), stroke


def _arrow_from_ink(pts: np.ndarray, label: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """From the inked points (mat mm) of a printed arrow: the start line's ends ``(2,
    2)``, points along the arrow ``(K, 2)`` with the tip last, and the end line's ends
    ``(2, 2)``. The start and end lines are the straight strokes of 25 mm or more from
    whose middle the arrow leaves on one side; the start is the lower on the mat (the
    card laid with its arrow pointing up the mat). Raises :class:`ArrowNotFound`."""
    rng = np.random.default_rng(0)
    left, segments = pts, []
    for _ in range(3):
        found = _longest_straight(left, rng)
        if found is None or np.hypot(*(found[0][1] - found[0][0])) < 25.0:
            break
        segments.append(found[0])
        left = left[~found[1]]
    crosses = []
    for ends in segments:
        mid = ends.mean(0)
        along = (ends[1] - ends[0]) / np.hypot(*(ends[1] - ends[0]))
        normal = np.array([-along[1], along[0]])
        rel = pts - mid
        a, n = rel @ along, rel @ normal
        attached = (np.abs(a) < 2.0) & (np.abs(n) > 2.0) & (np.abs(n) < 6.0)
        by_end = (np.abs(np.abs(a) - np.hypot(*(ends[1] - ends[0])) / 2) < 3.0) & (np.abs(n) > 2.0) & (np.abs(n) < 6.0)
        sides = np.sign(n[attached])
        if attached.sum() >= 3 and abs(sides.mean()) > 0.9 and by_end.sum() < attached.sum() / 3:
            crosses.append(ends)
    if len(crosses) != 2:
        raise ArrowNotFound(msg("{photo}: the arrow's start and end lines were not found ({count} straight strokes with "
                                "the arrow at their middle): mark the arrow's points", photo=label, count=len(crosses)))
    start, end = sorted(crosses, key=lambda e: e.mean(0)[1])
    # the arrow: the ink off both lines, its centre line sampled at distances from the start
    off = np.ones(len(pts), bool)
    for ends in crosses:
        mid = ends.mean(0)
        along = (ends[1] - ends[0]) / np.hypot(*(ends[1] - ends[0]))
        rel = pts - mid
        off &= ~((np.abs(rel @ np.array([-along[1], along[0]])) < 1.5) &
                 (np.abs(rel @ along) < np.hypot(*(ends[1] - ends[0])) / 2 + 1.0))
    arrow = pts[off]
    origin, tip = start.mean(0), end.mean(0)
    d = np.hypot(*(arrow - origin).T)
    reach = np.hypot(*(tip - origin))
    if len(arrow) < 20 or reach < 10.0:
        raise ArrowNotFound(msg("{photo}: no arrow between the start and end lines: mark the arrow's points", photo=label))
    points = []
    for target in np.linspace(3.0, reach - 3.0, ARROW_POINTS):
        ring = arrow[np.abs(d - target) < 0.5]
        if len(ring):
            points.append(ring.mean(0))
    if len(points) < 3:
        raise ArrowNotFound(msg("{photo}: the arrow's stroke is broken: mark the arrow's points", photo=label))
    return start, np.array(points + [tip]), end


def find_arrow(image, dpi: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The arrow of a card found in its picture (``image``: a path, bytes or array; on
    the card mat, or a flat scan at ``dpi``), where the card's printing allows: a dark
    arrow from the middle of a straight start line (the base's front line, DF.M1) to the
    middle of a straight end line, on light paper, laid with its arrow pointing up the
    mat. The picture is rectified onto the mat (OpenCV: a perspective warp), the ink
    thresholded (Otsu) and its largest shape kept; the two lines are its longest straight
    strokes (RANSAC, then each stroke's principal axis) from whose middle the arrow leaves
    on one side, and the arrow's centre line is sampled at :data:`ARROW_POINTS`
    distances from the start. Returns pixels, as a user would mark them for
    :func:`capture_card`: ``points`` ``(K + 3, 2)`` (the start line's two ends, points
    along the arrow, the tip last) and ``end_line`` ``(2, 2)``. Raises
    :class:`ArrowNotFound` (one line: what was not found; mark the points instead)."""
    gray, label = read_gray(image)
    layout = marker_layout()
    if dpi is not None:
        scale = 25.4 / dpi
        image_from_mm = np.array([[1 / scale, 0, 0], [0, -1 / scale, 0], [0, 0, 1.0]])
        extent = (0.0, -gray.shape[0] * scale, gray.shape[1] * scale, 0.0)
        masks: list = []
    else:
        found = detect_markers(gray, layout.dictionary, label)
        missing = [i for i in layout.mat_ids if i not in found]
        if missing:
            raise ArrowNotFound(msg("{photo}: {found} of the 4 card-mat markers found: the arrow cannot be found without "
                                    "them (or --dpi for a flat scan): mark the arrow's points", photo=label,
                                    found=4 - len(missing)))
        mat = layout.mat_corners_mm()
        image_from_mm = homography_batch(mat.reshape(-1, 2),
                                         np.concatenate([found[i] for i in layout.mat_ids])[None])[0]
        extent = (0.0, 0.0, *layout.mat_size_mm)
        q = layout.mat_quiet_mm
        masks = [np.array([c.min(0) - q, [c.max(0)[0] + q, c.min(0)[1] - q], c.max(0) + q,
                           [c.min(0)[0] - q, c.max(0)[1] + q]]) for c in mat]
    pts, _ = _rectified_ink(gray, image_from_mm, extent, masks, label)
    start, path, end = _arrow_from_ink(pts, label)
    px = apply_homography(image_from_mm, np.concatenate([start, path, end]))
    return px[:len(start) + len(path)], px[len(start) + len(path):]
