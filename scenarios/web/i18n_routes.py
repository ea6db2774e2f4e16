"""The pages' message catalogs (docs/i18n.md): ``GET /api/i18n?lang=es`` answers
``{"lang": "es", "languages": ["en", "es"], "messages": {id: text}}`` for the page's
``static/js/i18n.js``. Without ``lang`` (a page whose reader has not chosen yet) the
language is the request's ``Accept-Language``; a ``lang`` with no catalog reads English."""
from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, Router

from furball.i18n import Lang, accept_language, catalog_json, parse_lang

__all__ = ["request_lang", "router"]


def request_lang(request: Request) -> Lang:
    """The language a request is answered in: its ``?lang=`` where that names a language
    furball speaks, else its ``Accept-Language`` (a page sends the language it loaded,
    ``static/js/api.js``), else English."""
    asked = request.query_params.get("lang")
    return (parse_lang(asked[:20]) if asked else None) or accept_language(request.headers.get("accept-language"))


async def get_catalog(request: Request):
    lang = request_lang(request)
    return JSONResponse({"lang": lang.value, "languages": [x.value for x in Lang], "messages": catalog_json(lang)},
                        headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})


router = Router(routes=[Route("/api/i18n", get_catalog)])
"""The catalog route."""
