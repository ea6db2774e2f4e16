"""The web server's HTTP layer: the practice table (docs/serve.md) and the game rooms
(docs/rooms.md): pages, static files, the JSON API and the rooms' WebSocket.

An ASGI application (Starlette). The practice table keeps no state between requests
except the scenario given on the command line (served as the first document): every
request carries the whole table, so undo, redo and replay live in the page. Rooms live
in a :class:`~.hub.Hub` over a :class:`~.store.Store`. Every answer to a bad request
is a 4xx with ``{"error": "one line"}``; nothing a request says opens a file; bodies are
size-limited before they are read whole. Work that may take a while runs off the event
loop: the practice table's quick answers (analysis, zones, saving) in a thread lane,
adjudication and Best plans in a :class:`~.pool.WorkPool` (worker processes under
``furball serve``), each with a time limit. :class:`~.security.Guard` checks Host and
Origin, limits each connection's rate and adds the security headers.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import pathlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from furball.errors import IllegalAction, InputError
from furball.scenarios.dogfight import Scenario

from . import api
from .hub import Busy, Forbidden, Hub, NotFound
from .jobs import Jobs
from .pool import WorkPool
from .rooms import StaleAction, games_json, seat_count
from .security import Bucket, Guard
from .store import SQLiteStore, Store

__all__ = ["create_app", "LOOPBACK_HOSTS", "ServerOptions"]

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
"""Host names a loopback server answers to (others are refused: DNS rebinding)."""
STATIC = resources.files("furball.scenarios.web") / "static"
log = logging.getLogger("furball.serve")


@dataclass(frozen=True)
class ServerOptions:
    """How the server works (``furball serve`` sets them from its options).

    ``bot_delay_s``: the pause before each bot decision in a room; ``workers``: worker
    processes for adjudication and Best plans (0: threads); ``heavy_time_limit_s``: the
    most such a call may take (its worker is then stopped); ``quick_time_limit_s``: the
    most an analysis or a room's engine call may take; ``rate`` / ``burst``: requests a
    second per connection; ``ws_rate`` / ``ws_burst``: WebSocket messages a second per
    connection; ``max_loaded``: rooms kept in memory."""

    bot_delay_s: float = 1.0
    workers: int = 0
    heavy_time_limit_s: float = 60.0
    quick_time_limit_s: float = 10.0
    rate: float = 60.0
    burst: float = 240.0
    ws_rate: float = 10.0
    ws_burst: float = 40.0
    max_loaded: int = 1000


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


MAX_WS_MESSAGE = 4096
"""The longest message a page may send over a room's WebSocket, in characters."""
HELLO_TIMEOUT_S = 10.0
"""Seconds a new WebSocket connection has to say which room view it wants."""
ROOM_ERRORS = ((NotFound, 404), (Forbidden, 403), (StaleAction, 409), (IllegalAction, 409), (Busy, 503),
               (InputError, 422))
"""Each error's HTTP status (the first class that matches): a bad value is 422."""


def _status(exc: InputError) -> int:
    return next(status for cls, status in ROOM_ERRORS if isinstance(exc, cls))


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    return header[7:].strip() if header.lower().startswith("bearer ") else None


def create_app(scenario: Scenario | None = None, allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS,
               store: Store | None = None, options: ServerOptions | None = None) -> Starlette:
    """The ASGI application serving the practice table and the game rooms.
    ``scenario``: the table shown first (its decks and bases become nameable); ``None``:
    an empty 900 x 900 mm table. ``allowed_hosts``: the ``Host`` names answered
    (``("*",)`` for any). ``store``: where rooms are kept (default: in memory, gone with
    the server); ``options``: :class:`ServerOptions`. The app's ``state.hub`` is the
    :class:`~.hub.Hub`. Raises :class:`InputError` when the scenario's own decks clash
    with the shipped ones."""
    options = options or ServerOptions()
    store = store if store is not None else SQLiteStore(":memory:")
    hub = Hub(store, bot_delay_s=options.bot_delay_s, time_limit_s=options.quick_time_limit_s,
              max_loaded=options.max_loaded)
    heavy = WorkPool(options.workers, options.heavy_time_limit_s)
    quick = WorkPool(0, options.quick_time_limit_s)
    jobs = Jobs()
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
            except InputError as exc:  # 422, or the room errors' own statuses (ROOM_ERRORS)
                return _error(_status(exc), str(exc))
            except (RecursionError, MemoryError, OverflowError, ValueError) as exc:
                log.warning("refused a request: %s", exc)
                return _error(422, f"request: cannot be read ({type(exc).__name__})")
            return out if isinstance(out, Response) else _json(out)
        return run

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

    async def fields(request: Request, *extra: str) -> dict:
        data = await _object(request)
        _only(data, ("scenario",) + extra)
        if "scenario" not in data:
            raise BadRequest(400, "request: field 'scenario': expected the table document")
        return data

    async def post_analyse(request: Request):
        return await quick.run(api.practice, "analyse", catalogue, await fields(request))

    async def post_adjudicate(request: Request):
        return await heavy.run(api.practice, "adjudicate", catalogue, await fields(request, "seed", "policy"))

    async def post_zones(request: Request):
        return await quick.run(api.practice, "zones", catalogue, await fields(request, "plane", "enemy_heading_deg"))

    async def post_save(request: Request):
        saved = await quick.run(api.practice, "save", catalogue, await fields(request))
        stem = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in saved["name"])[:60] or "table"
        return Response(saved["toml"], media_type="application/toml",
                        headers={"Content-Disposition": f'attachment; filename="{stem}.toml"'})

    async def post_open(request: Request):
        unknown = sorted(set(request.query_params.keys()) - {"filename"})
        if unknown:
            raise BadRequest(400, f"query: unknown parameter {unknown[0][:40]!r} (expected: filename)")
        data = await _body(request)
        return api.open_toml(data, request.query_params.get("filename", "upload.toml"), catalogue)

    async def post_best_plans(request: Request):
        return await heavy.run(api.practice, "best-plans", catalogue, await fields(request, "plane", "vs"))

    # -- rooms ------------------------------------------------------------------------
    async def lobby(request: Request):
        return FileResponse(str(STATIC / "lobby.html"), media_type="text/html")

    async def room_page(request: Request):
        return FileResponse(str(STATIC / "room.html"), media_type="text/html")

    async def get_games(request: Request):
        return {"games": games_json()}

    async def post_seats(request: Request):
        return {"seats": await quick.run(seat_count, await _object(request))}

    async def post_analysis(request: Request):
        room, seat, fn, args = await hub.analysis(request.path_params["room"], _bearer(request),
                                                  await _object(request))
        job = jobs.start(room, seat, lambda progress: heavy.run(fn, *args, progress=progress), _status)
        return JSONResponse(job.as_json(), status_code=202)

    async def post_clock(request: Request):
        data = await _object(request)
        _only(data, ("paused",))
        return {"version": await hub.clock(request.path_params["room"], _bearer(request), data.get("paused"))}

    async def post_why(request: Request):
        data = await _object(request)
        _only(data, ("targets",))
        return {"reason": await hub.why(request.path_params["room"], _bearer(request), data.get("targets"))}

    async def get_analysis(request: Request):
        live = await hub.live(request.path_params["room"])
        seat = hub.role(live, _bearer(request)).seat
        return jobs.get(request.path_params["job"], live.room.spec.id, seat).as_json()

    async def post_rooms(request: Request):
        made = await hub.create(await _object(request))
        return JSONResponse(made, status_code=201)

    async def get_room(request: Request):
        return hub.summary(await hub.live(request.path_params["room"]))

    async def post_act(request: Request):
        data = await _object(request)
        _only(data, ("version", "action"))
        version = await hub.act(request.path_params["room"], _bearer(request), data.get("version"),
                                data.get("action"))
        return {"version": version}

    async def post_seat(request: Request):
        data = await _object(request)
        _only(data, ("bot",))
        seat = request.path_params["seat"]
        version = await hub.control(request.path_params["room"], _bearer(request), seat, data.get("bot"))
        return {"version": version}

    async def room_socket(ws: WebSocket):
        await ws.accept()
        room_id = ws.path_params["room"]
        bucket = Bucket(options.ws_rate, options.ws_burst)

        async def say(message: dict) -> None:
            await ws.send_text(json.dumps(message, separators=(",", ":")))

        try:
            hello = json.loads(await asyncio.wait_for(ws.receive_text(), HELLO_TIMEOUT_S))
            if not isinstance(hello, dict) or hello.get("type") != "hello":
                raise ValueError("expected hello")
            token = hello.get("token")
            sub = await hub.subscribe(room_id, token, hello.get("seen", 0), hello.get("owner"))
        except InputError as exc:
            with contextlib.suppress(Exception):
                await say({"type": "error", "status": _status(exc), "error": str(exc)})
                await ws.close(4000 + _status(exc))
            return
        except (TimeoutError, ValueError, RecursionError, WebSocketDisconnect, KeyError, TypeError):
            with contextlib.suppress(Exception):
                await say({"type": "error", "status": 400, "error": 'expected {"type": "hello", "token": ..., '
                                                                     '"seen": N} first'})
                await ws.close(1008)
            return

        async def pump():
            while True:
                await ws.send_text(await hub.next_message(sub))

        sender = asyncio.get_running_loop().create_task(pump())
        refused = 0
        try:
            while True:
                text = await ws.receive_text()
                if len(text) > MAX_WS_MESSAGE:
                    await say({"type": "error", "status": 413, "error": f"message: expected at most "
                                                                        f"{MAX_WS_MESSAGE} characters"})
                    await ws.close(1009)
                    return
                if not bucket.take():
                    refused += 1
                    if refused > options.ws_burst:  # still sending after a burst of refusals: hang up
                        await ws.close(1008)
                        return
                    await say({"type": "error", "status": 429, "error": "too many messages: slow down"})
                    continue
                refused = 0
                try:
                    msg = json.loads(text)
                    if not isinstance(msg, dict):
                        raise ValueError
                except (ValueError, RecursionError):
                    await say({"type": "error", "status": 400, "error": "expected a JSON object"})
                    continue
                ref = msg.get("id") if isinstance(msg.get("id"), (int, str)) else None
                if msg.get("type") == "act":
                    try:
                        version = await hub.act(room_id, token, msg.get("version"), msg.get("action"))
                        await say({"type": "ack", "id": ref, "version": version})
                    except InputError as exc:
                        await say({"type": "error", "id": ref, "status": _status(exc), "error": str(exc)})
                elif msg.get("type") != "ping":
                    await say({"type": "error", "id": ref, "status": 400, "error": "expected type act or ping"})
        except WebSocketDisconnect:
            pass
        finally:
            sender.cancel()
            hub.unsubscribe(sub)

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
        Route("/rooms", lobby),
        Route("/rooms/{room}", room_page),
        Route("/api/games", endpoint(get_games)),
        Route("/api/games/seats", endpoint(post_seats), methods=["POST"]),
        Route("/api/rooms", endpoint(post_rooms), methods=["POST"]),
        Route("/api/rooms/{room}", endpoint(get_room)),
        Route("/api/rooms/{room}/act", endpoint(post_act), methods=["POST"]),
        Route("/api/rooms/{room}/seats/{seat:int}", endpoint(post_seat), methods=["POST"]),
        Route("/api/rooms/{room}/analysis", endpoint(post_analysis), methods=["POST"]),
        Route("/api/rooms/{room}/why", endpoint(post_why), methods=["POST"]),
        Route("/api/rooms/{room}/clock", endpoint(post_clock), methods=["POST"]),
        Route("/api/rooms/{room}/analysis/{job}", endpoint(get_analysis)),
        WebSocketRoute("/api/rooms/{room}/ws", room_socket),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app):
        heavy.start(("furball.scenarios.web.api", "furball.scenarios.web.views.dogfight"),  # workers ready first,
                    warm=api.warm)  # their kernels loaded
        try:
            yield
        finally:
            jobs.close()
            await hub.close()
            heavy.close()

    middleware = [Middleware(Guard, allowed_hosts=tuple(allowed_hosts), rate=options.rate, burst=options.burst)]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={HTTPException: http_error, Exception: server_error})
    app.state.hub, app.state.heavy, app.state.store = hub, heavy, store
    app.state.allowed_hosts = tuple(allowed_hosts)
    return app
