"""The web table's HTTP layer: one page, its static files, and the JSON API (docs/serve.md).

An ASGI application (Starlette). It keeps no state between requests except the
scenario given on the command line (served as the first document): every request
carries the whole table, so undo, redo and replay live in the page. Every answer to a
bad request is a 4xx with ``{"error": "one line"}``; nothing a request says opens a
file; bodies are size-limited before they are read whole.
"""
from __future__ import annotations

import json
import logging
import pathlib
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from furball.errors import InputError
from furball.scenarios.dogfight import Scenario

from . import api

__all__ = ["create_app", "LOOPBACK_HOSTS"]

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
"""Host names a loopback server answers to (others are refused: DNS rebinding)."""
STATIC = resources.files("furball.scenarios.web") / "static"
log = logging.getLogger("furball.serve")


class BadRequest(Exception):
    """A request that cannot be answered: ``status`` (4xx) and a one-line ``message``."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": " ".join(str(message).split())[:600]}, status_code=status)


def _json(data: Any) -> Response:
    """A JSON answer; numbers that JSON cannot hold (NaN, infinity) are a server bug,
    never sent as invalid JSON."""
    return Response(json.dumps(data, allow_nan=False, separators=(",", ":")), media_type="application/json")


async def _body(request: Request) -> bytes:
    """The request body, refused with 413 past :data:`api.MAX_BODY_BYTES` (checked on the
    declared length first, then while reading)."""
    declared = request.headers.get("content-length")
    limit = api.MAX_BODY_BYTES
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise BadRequest(413, f"request body: expected at most {limit // 1024} KiB")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BadRequest(413, f"request body: expected at most {limit // 1024} KiB")
        chunks.append(chunk)
    return b"".join(chunks)


async def _object(request: Request) -> dict:
    """The request body as a JSON object (400 otherwise)."""
    raw = await _body(request)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise BadRequest(400, f"request body: expected JSON, got invalid text ({str(exc)[:80]})") from None
    if not isinstance(data, dict):
        raise BadRequest(400, "request body: expected a JSON object")
    return data


def _only(data: dict, allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise BadRequest(400, f"request: unknown field {unknown[0][:40]!r} (expected: {', '.join(allowed)})")


def create_app(scenario: Scenario | None = None, allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS) -> Starlette:
    """The ASGI application serving the web table. ``scenario``: the table shown first
    (its decks and bases become nameable); ``None``: an empty 900 x 900 mm table.
    ``allowed_hosts``: the ``Host`` names answered (``("*",)`` for any). Raises
    :class:`InputError` when the scenario's own decks clash with the shipped ones."""
    catalogue = api.Catalogue.shipped()
    if scenario is not None:
        catalogue = catalogue.with_scenario(scenario, pathlib.Path(scenario.source or ".").parent)
        first = api.document(scenario, catalogue)
    else:
        first = {"scenario": {"name": "table", "turn": 1}, "table": {"width_mm": 900.0, "height_mm": 900.0},
                 "rules": {"reorder_policy": "keep"}, "plane": []}

    def endpoint(handler: Callable[[Request], Awaitable[Any]]):
        async def run(request: Request) -> Response:
            try:
                out = await handler(request)
            except BadRequest as exc:
                return _error(exc.status, exc.message)
            except InputError as exc:
                return _error(422, str(exc))
            except (RecursionError, MemoryError, OverflowError, ValueError) as exc:
                log.warning("refused a request: %s", exc)
                return _error(422, f"request: cannot be read ({type(exc).__name__})")
            return out if isinstance(out, Response) else _json(out)
        return run

    async def read(request: Request, *extra: str):
        data = await _object(request)
        _only(data, ("scenario",) + extra)
        if "scenario" not in data:
            raise BadRequest(400, "request: field 'scenario': expected the table document")
        return api.read_document(data["scenario"], catalogue), data

    async def index(request: Request):
        return FileResponse(str(STATIC / "index.html"), media_type="text/html")

    async def get_meta(request: Request):
        return api.meta(catalogue)

    async def get_scenario(request: Request):
        return first

    async def get_cards(request: Request):
        q = request.query_params
        unknown = sorted(set(q.keys()) - {"deck", "base"})
        if unknown:
            raise BadRequest(400, f"query: unknown parameter {unknown[0][:40]!r} (expected: deck, base)")
        if "base" not in q:
            raise BadRequest(400, "query: parameter 'base': expected a base name or LENGTHxWIDTH")
        return api.cards(q.get("deck"), q["base"], catalogue)

    async def post_analyse(request: Request):
        s, _ = await read(request)
        return api.analysis(s)

    async def post_adjudicate(request: Request):
        s, data = await read(request, "seed", "policy")
        return api.adjudication(s, catalogue, data.get("seed"), data.get("policy"))

    async def post_zones(request: Request):
        s, data = await read(request, "plane", "enemy_heading_deg")
        return api.zones_json(s, data.get("plane"), data.get("enemy_heading_deg"))

    async def post_save(request: Request):
        s, _ = await read(request)
        stem = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in s.table.name)[:60] or "table"
        return Response(api.save_toml(s, catalogue), media_type="application/toml",
                        headers={"Content-Disposition": f'attachment; filename="{stem}.toml"'})

    async def post_open(request: Request):
        unknown = sorted(set(request.query_params.keys()) - {"filename"})
        if unknown:
            raise BadRequest(400, f"query: unknown parameter {unknown[0][:40]!r} (expected: filename)")
        data = await _body(request)
        return api.open_toml(data, request.query_params.get("filename", "upload.toml"), catalogue)

    async def post_best_plans(request: Request):
        s, data = await read(request, "plane", "vs")
        return api.best_plans(s, data.get("plane"), data.get("vs"))

    async def http_error(request: Request, exc: HTTPException):
        return _error(exc.status_code, exc.detail or "request refused")

    async def server_error(request: Request, exc: Exception):  # a bug: say so in one line, no traceback
        log.error("internal error on %s: %r", request.url.path, exc)
        return _error(500, "internal error (a bug in furball: please report the request)")

    routes = [
        Route("/", index),
        Route("/api/meta", endpoint(get_meta)),
        Route("/api/scenario", endpoint(get_scenario)),
        Route("/api/cards", endpoint(get_cards)),
        Route("/api/analyse", endpoint(post_analyse), methods=["POST"]),
        Route("/api/adjudicate", endpoint(post_adjudicate), methods=["POST"]),
        Route("/api/zones", endpoint(post_zones), methods=["POST"]),
        Route("/api/save", endpoint(post_save), methods=["POST"]),
        Route("/api/open", endpoint(post_open), methods=["POST"]),
        Route("/api/best-plans", endpoint(post_best_plans), methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))]
    return Starlette(routes=routes, middleware=middleware,
                     exception_handlers={HTTPException: http_error, Exception: server_error})
