"""The web server's HTTP layer: the practice table (docs/serve.md) and the game rooms
(docs/rooms.md): pages, static files, the JSON API and the rooms' WebSocket.

An ASGI application (Starlette) assembled from one router per part, each of module-level
handlers: :mod:`.practice` (the practice table), :mod:`.room_routes` (the rooms' pages
and API) and :mod:`.room_socket` (a room's WebSocket); :mod:`.endpoint` holds what they
share (one-line refusals, bodies read within their limit). Handlers reach the server's
shared parts through ``request.app.state``, set here. Rooms live in a
:class:`~.hub.Hub` over a :class:`~.store.Store`. Work that may take a while runs off the
event loop: the practice table's quick answers (analysis, zones, saving) in a thread
lane, adjudication and Best plans in a :class:`~.pool.WorkPool` (worker processes under
``furball serve``), each with a time limit. :class:`~.security.Guard` checks Host and
Origin, limits each connection's rate and adds the security headers.
"""
from __future__ import annotations

import contextlib
import pathlib
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from furball.scenarios.dogfight import Scenario

from . import api, capture_routes, i18n_routes, practice, room_routes, room_socket
from .endpoint import STATIC, _error, log
from .hub import Hub
from .jobs import Jobs
from .limits import RoomLimits
from .pool import WorkPool
from .rooms import available_games
from .security import Guard
from .store import SQLiteStore, Store
from .transport import Limits, TransportLimits
from .webhook import Reach

__all__ = ["create_app", "LOOPBACK_HOSTS", "ServerOptions"]

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
"""Host names a loopback server answers to (others are refused: DNS rebinding)."""


@dataclass(frozen=True)
class ServerOptions:
    """How the server works (``furball serve`` sets them from its options).

    ``bot_delay_s``: the pause before each bot decision in a room; ``workers``: worker
    processes for adjudication and Best plans (0: threads); ``heavy_time_limit_s``: the
    most such a call may take (its worker is then stopped); ``quick_time_limit_s``: the
    most an analysis or a room's engine call may take; ``rate`` / ``burst``: requests a
    second per connection; ``ws_rate`` / ``ws_burst``: WebSocket messages a second per
    connection; ``max_loaded``: rooms kept in memory; ``limits``: the limits on creating
    and keeping rooms (:class:`~.limits.RoomLimits`); ``transport``: connections per
    client and in all, header and body timeouts, WebSockets per client and per room, idle
    WebSockets (:class:`~.transport.TransportLimits`); ``bot_workers``: worker processes
    where the rooms' bots decide (``None``: as many as ``workers``; 0: threads), each
    decision within ``quick_time_limit_s``; ``webhooks``: where the rooms' webhooks may
    go (:class:`~.webhook.Reach`: ``off``, ``public`` addresses only, ``any``)."""

    bot_delay_s: float = 1.0
    workers: int = 0
    heavy_time_limit_s: float = 60.0
    quick_time_limit_s: float = 10.0
    rate: float = 60.0
    burst: float = 240.0
    ws_rate: float = 10.0
    ws_burst: float = 40.0
    max_loaded: int = 1000
    limits: RoomLimits = field(default_factory=RoomLimits)
    transport: TransportLimits = field(default_factory=TransportLimits)
    bot_workers: int | None = None
    webhooks: Reach = Reach.PUBLIC


async def http_error(request: Request, exc: HTTPException):
    return _error(exc.status_code, exc.detail or "request refused")


async def gone(request: Request, exc: ClientDisconnect):  # the client left (or its body timed out)
    return _error(400, "request: the client went away before its body was complete")


async def server_error(request: Request, exc: Exception):  # a bug: say so in one line, no traceback
    log.error("internal error on %s: %r", request.url.path, exc)
    return _error(500, "internal error (a bug in furball: please report the request)")


@contextlib.asynccontextmanager
async def lifespan(app: Starlette):
    state = app.state
    state.heavy.start(("furball.scenarios.web.api", "furball.scenarios.web.views.dogfight"),  # workers ready first,
                      warm=api.warm)  # their kernels loaded
    for game in available_games():  # imported now, not on the event loop when a room first draws
        game.view_module()
    state.bots.start(("furball.scenarios.web.rooms",))
    try:
        yield
    finally:
        state.jobs.close()
        await state.hub.close()
        state.heavy.close()
        state.bots.close()


def create_app(scenario: Scenario | None = None, allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS,
               store: Store | None = None, options: ServerOptions | None = None) -> Starlette:
    """The ASGI application serving the practice table and the game rooms.
    ``scenario``: the table shown first (its decks and bases become nameable); ``None``:
    an empty 900 x 900 mm table. ``allowed_hosts``: the ``Host`` names answered
    (``("*",)`` for any). ``store``: where rooms are kept (default: in memory, gone with
    the server); ``options``: :class:`ServerOptions`. The app's ``state`` holds what the
    handlers share: ``hub`` (the :class:`~.hub.Hub`), ``store``, ``heavy``, ``quick`` and
    ``bots`` (the :class:`~.pool.WorkPool` lanes), ``jobs``, ``catalogue``, ``first`` (the first
    document), ``options`` and ``allowed_hosts``. Raises :class:`InputError` when the
    scenario's own decks clash with the shipped ones."""
    options = options or ServerOptions()
    store = store if store is not None else SQLiteStore(":memory:")
    bot_workers = options.workers if options.bot_workers is None else options.bot_workers
    bots = WorkPool(bot_workers, options.quick_time_limit_s)
    hub = Hub(store, bot_delay_s=options.bot_delay_s, time_limit_s=options.quick_time_limit_s,
              max_loaded=options.max_loaded, limits=options.limits, bot_pool=bots if bot_workers else None,
              bot_lanes=bot_workers or 2, webhooks=options.webhooks)
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

    routes = [
        *practice.router.routes,
        *room_routes.router.routes,
        *room_socket.router.routes,
        *i18n_routes.router.routes,  # the pages' catalogs (docs/i18n.md)
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
        Mount("/capture", app=capture_routes.router),  # the Capture page (docs/capture.md)
    ]
    middleware = [Middleware(Guard, allowed_hosts=tuple(allowed_hosts), rate=options.rate, burst=options.burst),
                  Middleware(Limits, limits=options.transport)]
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={HTTPException: http_error, ClientDisconnect: gone, Exception: server_error})
    app.state.hub, app.state.heavy, app.state.store = hub, heavy, store
    app.state.quick, app.state.jobs, app.state.options, app.state.bots = quick, jobs, options, bots
    app.state.catalogue, app.state.first = catalogue, first
    app.state.allowed_hosts = tuple(allowed_hosts)
    return app
