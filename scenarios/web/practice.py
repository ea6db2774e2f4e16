"""The practice table's HTTP handlers (docs/serve.md): its page, the catalogue, the
first document, and the JSON API over :mod:`.api`, as :data:`router`.

The practice table keeps no state between requests except the scenario given on the
command line (``request.app.state.first``): every request carries the whole table, so
undo, redo and replay live in the page. Quick answers (analysis, zones, saving) run in
the server's thread lane (``state.quick``), adjudication and Best plans in its
:class:`~.pool.WorkPool` (``state.heavy``), each with a time limit.
"""
from __future__ import annotations

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route, Router

from furball.i18n import msg

from . import api
from .endpoint import STATIC, BadRequest, _body, _object, _only, endpoint, reader_lang

__all__ = ["router"]


async def index(request: Request):
    return FileResponse(str(STATIC / "index.html"), media_type="text/html")


async def get_meta(request: Request):
    return api.meta(request.app.state.catalogue)


async def get_scenario(request: Request):
    return request.app.state.first


async def get_cards(request: Request):
    q = request.query_params
    unknown = sorted(set(q.keys()) - {"deck", "base"})
    if unknown:
        raise BadRequest(400, msg("query: unknown parameter {name} (expected: {names})", name=repr(unknown[0][:40]),
                                  names="deck, base"))
    if "base" not in q:
        raise BadRequest(400, msg("query: parameter 'base': expected a base name or LENGTHxWIDTH"))
    return api.cards(q.get("deck"), q["base"], request.app.state.catalogue)


async def fields(request: Request, *extra: str) -> dict:
    data = await _object(request)
    _only(data, ("scenario",) + extra)
    if "scenario" not in data:
        raise BadRequest(400, msg("request: field 'scenario': expected the table document"))
    return data


async def post_analyse(request: Request):
    state = request.app.state
    return await state.quick.run(api.practice, "analyse", state.catalogue, await fields(request),
                                 reader_lang(request).value)


async def post_adjudicate(request: Request):
    state = request.app.state
    return await state.heavy.run(api.practice, "adjudicate", state.catalogue, await fields(request, "seed", "policy"),
                                 reader_lang(request).value)


async def post_zones(request: Request):
    state = request.app.state
    return await state.quick.run(api.practice, "zones", state.catalogue,
                                 await fields(request, "plane", "enemy_heading_deg"))


async def post_save(request: Request):
    state = request.app.state
    saved = await state.quick.run(api.practice, "save", state.catalogue, await fields(request))
    stem = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in saved["name"])[:60] or "table"
    return Response(saved["toml"], media_type="application/toml",
                    headers={"Content-Disposition": f'attachment; filename="{stem}.toml"'})


async def post_open(request: Request):
    unknown = sorted(set(request.query_params.keys()) - {"filename"})
    if unknown:
        raise BadRequest(400, msg("query: unknown parameter {name} (expected: {names})", name=repr(unknown[0][:40]),
                                  names="filename"))
    data = await _body(request)
    return api.open_toml(data, request.query_params.get("filename", "upload.toml"), request.app.state.catalogue)


async def post_best_plans(request: Request):
    state = request.app.state
    return await state.heavy.run(api.practice, "best-plans", state.catalogue, await fields(request, "plane", "vs"))


router = Router(routes=[
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
])
"""The practice table's routes (the page ``/`` and ``/api/...``)."""
