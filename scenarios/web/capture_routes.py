"""The Capture page of ``furball serve`` (docs/capture.md), mounted at ``/capture``.

* ``GET /capture/``: the page: upload a table photo, see the bases found over the photo
  rectified onto the table, rename them, set their sides, fix a pose, download the
  measured scenario (and open it on the practice table).
* ``POST /capture/api/table?table=900x900``: the photo's bytes (at most
  :data:`MAX_PHOTO_BYTES`, never written to disk) -> the bases found as JSON (the same
  as ``furball capture table --json``), the rectified photo (a JPEG data URL) and the
  measured scenario's TOML. A photo that cannot be read is a 422 with the one-line
  reason; the work runs in the server's worker pool (503 when it is busy).
* ``GET /capture/card``: the card page: upload a card's photo (on the card mat), click
  the arrow's start line ends and points along it, see the fitted motion drawn over the
  card, download the deck with the card measured.
* ``POST /capture/api/card?deck=A&card=A2``: JSON ``{"image": base64, "points": [[x, y],
  ...], "end_line": [[x, y], [x, y]] or null, "dpi": null}`` -> the fit (as ``furball
  capture card``), the fitted path in image pixels, the points used (``points_px``,
  ``end_line_px``, ``found``) and the deck's TOML. With no points (``[]``) the arrow is
  found automatically, or the answer is a 422 saying to mark them. The deck is a shipped
  one named (no file is opened from a request), or an uploaded deck's text
  (``"deck_toml"``, at most :data:`MAX_DECK_CHARS`; ``deck=`` then only names the
  download).
"""
from __future__ import annotations

import base64
import pathlib

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Route, Router

from furball.errors import InputError
from furball.i18n import msg

from .endpoint import BadRequest, _body, reader_lang, words

__all__ = ["router", "capture_json", "MAX_PHOTO_BYTES"]

MAX_PHOTO_BYTES = 16 * 1024 * 1024
"""The largest photo accepted over the network (bytes)."""
STATIC = pathlib.Path(__file__).resolve().parent / "static"
MAX_DECK_CHARS = 64 * 1024
"""The longest uploaded deck file the card page accepts, in characters."""


def capture_json(data: bytes, table: str) -> dict:
    """Capture the table in the photo ``data`` (runs in a worker process). Raises
    InputError (one line) for a photo that cannot be read."""
    from furball.capture.camera import read_gray
    from furball.capture.markers import cv2_module
    from furball.capture.plot import rectified
    from furball.capture.scenario import captured_scenario
    from furball.capture.table import capture_table, parse_table_size
    from furball.scenarios.dogfight import scenario_toml

    cv2 = cv2_module()
    width, height = parse_table_size(table)
    gray, _ = read_gray(data, "photo")
    captured = capture_table(gray, width_mm=width, height_mm=height, name="photo")
    scale = min(1.0, 900.0 / max(width, height))
    ok, jpeg = cv2.imencode(".jpg", rectified(gray, captured, scale), [cv2.IMWRITE_JPEG_QUALITY, 85])
    out = captured.to_json()
    out["image"] = "data:image/jpeg;base64," + base64.b64encode(jpeg.tobytes()).decode("ascii")
    out["scenario_toml"] = scenario_toml(captured_scenario(captured)) if captured.names else ""
    return out


async def _photo(request: Request, limit: int = MAX_PHOTO_BYTES) -> bytes:
    try:
        data = await _body(request, limit, "photo")
    except BadRequest as exc:  # this router answers through HTTPException (the app's one-line handler)
        raise HTTPException(exc.status, words(exc.message, reader_lang(request))) from None
    if not data:
        raise HTTPException(400, words(msg("photo: expected the photo's bytes as the request body"), reader_lang(request)))
    return data


async def page(request: Request):
    return FileResponse(str(STATIC / "capture.html"), media_type="text/html")


async def post_table(request: Request):
    unknown = sorted(set(request.query_params.keys()) - {"table"})
    if unknown:
        raise HTTPException(400, words(msg("query: unknown parameter {name} (expected: {names})",
                                           name=repr(unknown[0][:40]), names="table"), reader_lang(request)))
    data = await _photo(request)
    table = request.query_params.get("table", "900x900")
    try:
        result = await request.app.state.heavy.run(capture_json, data, table)
    except InputError as exc:
        status = 503 if type(exc).__name__ == "Busy" else 422
        return JSONResponse({"error": " ".join(words(exc.message, reader_lang(request)).split())[:600]},
                            status_code=status)
    return JSONResponse(result)


def card_json(data: bytes, deck_name: str, card_id: str, points, end_line, dpi, deck_text: str | None = None,
              lang: str = "en") -> dict:
    """Fit card ``card_id`` of shipped deck ``deck_name`` (or of the uploaded deck file
    ``deck_text``) to ``points`` (pixels; none: found automatically) of the photo
    ``data`` (runs in a worker process); ``describe`` in ``lang``. Raises InputError (one line)."""
    import tempfile

    from furball.capture.card import capture_card, deck_with_card, find_arrow
    from furball.geometry.datafile import parse_toml
    from furball.maneuvers.deck import DATA_DIR, parse_deck, shipped_decks

    if deck_text is not None:  # an uploaded deck: read as text, never a path
        if not isinstance(deck_text, str) or len(deck_text) > MAX_DECK_CHARS:
            raise InputError(msg("uploaded deck: expected a deck file's text of at most {size} KiB",
                                 size=MAX_DECK_CHARS // 1024))
        deck_name = "uploaded deck"
        deck = parse_deck(parse_toml(deck_text, deck_name), deck_name)
        source_text = deck_text.encode("utf-8")
    else:
        decks = shipped_decks()
        if deck_name not in decks:
            raise InputError(msg("deck {deck}: expected one of {decks}", deck=repr(deck_name[:40]),
                                 decks=", ".join(sorted(decks))))
        deck = decks[deck_name]
        source_text = (pathlib.Path(str(DATA_DIR)) / "decks" / f"{deck_name}.toml").read_bytes()
    card = next((c for c in deck.cards if c.id == card_id), None)
    if card is None:
        raise InputError(msg("deck {deck}: card {card}: expected one of {cards}", deck=deck_name,
                             card=repr(card_id[:40]), cards=deck.ids_text()))
    try:
        pts = [(float(x), float(y)) for x, y in points or ()]
        ends = [(float(x), float(y)) for x, y in end_line] if end_line else None
        dpi = float(dpi) if dpi else None
    except (TypeError, ValueError):
        raise InputError(msg("points: expected [[x, y], ...] pixel coordinates")) from None
    found = not pts
    if found:  # the arrow found automatically, or ArrowNotFound's one line: mark the points
        auto, auto_end = find_arrow(data, dpi=dpi)
        pts, ends = auto.tolist(), ends or auto_end.tolist()
    fit = capture_card(data, pts, end_line=ends, dpi=dpi, template=card.path)
    with tempfile.TemporaryDirectory(prefix="furball-card-") as tmp:  # a private copy, removed at once
        copy = pathlib.Path(tmp) / "deck.toml"
        copy.write_bytes(source_text)
        text = deck_with_card(copy, card_id, fit, "photo", label=deck_name if deck_text is not None
                              else f"deck {deck_name}")
    return {"kind": fit.kind, "path": fit.path(), "end": list(fit.end), "uncertainty_95": fit.uncertainty_95,
            "describe": fit.describe(lang), "path_px": fit.path_points_px().tolist(), "deck_toml": text,
            "points_px": [list(p) for p in pts], "end_line_px": [list(p) for p in ends] if ends else None,
            "found": found}


async def post_card(request: Request):
    unknown = sorted(set(request.query_params.keys()) - {"deck", "card"})
    if unknown:
        raise HTTPException(400, words(msg("query: unknown parameter {name} (expected: {names})",
                                           name=repr(unknown[0][:40]), names="deck, card"), reader_lang(request)))
    import json

    body = await _photo(request, limit=MAX_PHOTO_BYTES * 4 // 3 + 65536 + 4 * MAX_DECK_CHARS)
    try:
        doc = json.loads(body)
        image = base64.b64decode(doc["image"], validate=True)
        points, end_line, dpi = doc.get("points") or [], doc.get("end_line"), doc.get("dpi")
        deck_text = doc.get("deck_toml")
    except (ValueError, KeyError, TypeError):
        raise HTTPException(400, words(msg("request body: expected JSON {{image: base64, points: [[x, y], ...]}}"),
                                       reader_lang(request))) from None
    try:
        result = await request.app.state.heavy.run(card_json, image, request.query_params.get("deck", "A"),
                                                   request.query_params.get("card", ""), points, end_line, dpi,
                                                   deck_text, reader_lang(request).value)
    except InputError as exc:
        status = 503 if type(exc).__name__ == "Busy" else 422
        return JSONResponse({"error": " ".join(words(exc.message, reader_lang(request)).split())[:600]},
                            status_code=status)
    return JSONResponse(result)


async def card_page(request: Request):
    return FileResponse(str(STATIC / "capture_card.html"), media_type="text/html")


router = Router(routes=[Route("/", page), Route("/api/table", post_table, methods=["POST"]),
                        Route("/card", card_page), Route("/api/card", post_card, methods=["POST"])])
"""The Capture page's routes (``Mount("/capture", app=router)``)."""
