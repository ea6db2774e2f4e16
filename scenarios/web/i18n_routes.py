"""The pages' message catalogs (docs/i18n.md): ``GET /api/i18n?lang=es`` answers
``{"lang": "es", "languages": ["en", "es"], "messages": {id: text}}`` for the page's
``static/js/i18n.js``. Without ``lang`` (a page whose reader has not chosen yet) the
language is the request's ``Accept-Language``; a ``lang`` with no catalog reads English."""
from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, Router

from furball.i18n import Lang, catalog_json

from .endpoint import reader_lang

__all__ = ["router"]


async def get_catalog(request: Request):
    lang = reader_lang(request)
    return JSONResponse({"lang": lang.value, "languages": [x.value for x in Lang], "messages": catalog_json(lang)},
                        headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})


router = Router(routes=[Route("/api/i18n", get_catalog)])
"""The catalog route."""
