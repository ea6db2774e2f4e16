"""The Capture page of ``furball serve`` (docs/capture.md), mounted at ``/capture``.

* ``GET /capture/``: the page: upload a table photo, see the bases found over the photo
  rectified onto the table, rename them, set their sides, fix a pose, download the
  measured scenario (and open it on the practice table).
* ``POST /capture/api/table?table=900x900``: the photo's bytes (at most
  :data:`MAX_PHOTO_BYTES`, never written to disk) -> the bases found as JSON (the same
  as ``furball capture table --json``), the rectified photo (a JPEG data URL) and the
  measured scenario's TOML. A photo that cannot be read is a 422 with the one-line
  reason; the work runs in the server's worker pool (503 when it is busy).
"""
from __future__ import annotations

import base64
import pathlib

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Route, Router

from furball.errors import InputError

__all__ = ["router", "capture_json", "MAX_PHOTO_BYTES"]

MAX_PHOTO_BYTES = 16 * 1024 * 1024
"""The largest photo accepted over the network (bytes)."""
STATIC = pathlib.Path(__file__).resolve().parent / "static"


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


async def _photo(request: Request) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_PHOTO_BYTES):
        raise HTTPException(413, f"photo: expected at most {MAX_PHOTO_BYTES // 2**20} MiB")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_PHOTO_BYTES:
            raise HTTPException(413, f"photo: expected at most {MAX_PHOTO_BYTES // 2**20} MiB")
        chunks.append(chunk)
    if not size:
        raise HTTPException(400, "photo: expected the photo's bytes as the request body")
    return b"".join(chunks)


async def page(request: Request):
    return FileResponse(str(STATIC / "capture.html"), media_type="text/html")


async def post_table(request: Request):
    unknown = sorted(set(request.query_params.keys()) - {"table"})
    if unknown:
        raise HTTPException(400, f"query: unknown parameter {unknown[0][:40]!r} (expected: table)")
    data = await _photo(request)
    table = request.query_params.get("table", "900x900")
    try:
        result = await request.app.state.heavy.run(capture_json, data, table)
    except InputError as exc:
        status = 503 if type(exc).__name__ == "Busy" else 422
        return JSONResponse({"error": " ".join(str(exc).split())[:600]}, status_code=status)
    return JSONResponse(result)


router = Router(routes=[Route("/", page), Route("/api/table", post_table, methods=["POST"])])
"""The Capture page's routes (``Mount("/capture", app=router)``)."""
