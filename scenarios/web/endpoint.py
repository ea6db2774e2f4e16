"""What every HTTP handler of the server shares: one-line refusals, JSON answers, bodies
read within their size limit, and :func:`endpoint`, which turns a handler's exceptions
into those refusals.

A handler is a module-level ``async def handler(request)`` returning a plain value (sent
as JSON) or a :class:`~starlette.responses.Response`; it reaches the server's shared
parts through ``request.app.state`` (``hub``, ``jobs``, ``heavy``, ``quick``,
``catalogue``, ``first``, ``options``, ``store``: set by :func:`~.app.create_app`).
Every answer to a bad request is a 4xx with ``{"error": "one line"}``.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from furball.errors import IllegalAction, InputError
from furball.i18n import Lang, Message, accept_language, msg, parse_lang, render, translator

from . import api
from .hub import Busy, Forbidden, NotFound, TooMany
from .rooms import StaleAction
from .store import RoomGone

__all__ = ["BadRequest", "ROOM_ERRORS", "STATIC", "endpoint", "reader_lang"]

STATIC = resources.files("furball.scenarios.web") / "static"
log = logging.getLogger("furball.serve")


class BadRequest(Exception):
    """A request that cannot be answered: ``status`` (4xx) and a one-line ``message`` (a
    text, or a :class:`~furball.i18n.Message` rendered in the request's language)."""

    def __init__(self, status: int, message: str | Message):
        super().__init__(str(message))
        self.status, self.message = status, message


def reader_lang(request: Request) -> Lang:
    """The language of the request's reader (docs/i18n.md): its ``?lang=`` (the page's
    language, chosen with its switch), else its ``Accept-Language``; English without either."""
    asked = request.query_params.get("lang")
    return (parse_lang(asked[:20]) if asked else None) or accept_language(request.headers.get("accept-language"))


def words(message: str | Message, lang: Lang) -> str:
    """A refusal's one line in ``lang``: a :class:`~furball.i18n.Message` rendered, a text
    read through the catalog (itself where it has no entry: a line not marked yet reads in
    English)."""
    return render(message, lang) if isinstance(message, Message) else translator(lang)(str(message))


def _error(status: int, message: str | Message, lang: Lang = Lang.EN) -> JSONResponse:
    return JSONResponse({"error": " ".join(words(message, lang).split())[:600]}, status_code=status)


def _json(data: Any) -> Response:
    """A JSON answer; numbers that JSON cannot hold (NaN, infinity) are a server bug,
    never sent as invalid JSON."""
    return Response(json.dumps(data, allow_nan=False, separators=(",", ":")), media_type="application/json")


async def _body(request: Request, limit: int = api.MAX_BODY_BYTES, what: str = "request body") -> bytes:
    """The request body, refused with 413 past ``limit`` bytes (default
    :data:`api.MAX_BODY_BYTES`; checked on the declared length first, then while
    reading); ``what``: the body's name in that one line."""
    size_text = f"{limit // 2**20} MiB" if limit >= 2**20 else f"{limit // 1024} KiB"
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise BadRequest(413, msg("{what}: expected at most {size}", what=what, size=size_text))
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BadRequest(413, msg("{what}: expected at most {size}", what=what, size=size_text))
        chunks.append(chunk)
    return b"".join(chunks)


async def _object(request: Request) -> dict:
    """The request body as a JSON object (400 otherwise)."""
    raw = await _body(request)
    try:
        data = api.read_json(raw.decode("utf-8"))
    except InputError:  # a number out of range: 422, naming its field
        raise
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise BadRequest(400, msg("request body: expected JSON, got invalid text ({problem})",
                                  problem=str(exc)[:80])) from None
    if not isinstance(data, dict):
        raise BadRequest(400, msg("request body: expected a JSON object"))
    return data


def _only(data: dict, allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise BadRequest(400, msg("request: unknown field {field} (expected: {fields})", field=repr(unknown[0][:40]),
                                  fields=", ".join(allowed)))


ROOM_ERRORS = ((NotFound, 404), (RoomGone, 404), (Forbidden, 403), (StaleAction, 409), (IllegalAction, 409),
               (TooMany, 429), (Busy, 503), (InputError, 422))
"""Each error's HTTP status (the first class that matches): a bad value is 422."""


def _status(exc: InputError) -> int:
    return next(status for cls, status in ROOM_ERRORS if isinstance(exc, cls))


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    return header[7:].strip() if header.lower().startswith("bearer ") else None


def endpoint(handler: Callable[[Request], Awaitable[Any]]):
    """``handler`` as a Starlette endpoint: its value sent as JSON, its refusals
    (:class:`BadRequest`, :class:`~furball.errors.InputError` with the statuses of
    :data:`ROOM_ERRORS`, unreadable values) as one-line 4xx answers in the request's
    language (:func:`reader_lang`)."""
    async def run(request: Request) -> Response:
        try:
            out = await handler(request)
        except BadRequest as exc:
            return _error(exc.status, exc.message, reader_lang(request))
        except InputError as exc:  # 422, or the room errors' own statuses (ROOM_ERRORS)
            return _error(_status(exc), exc.message, reader_lang(request))
        except (RecursionError, MemoryError, OverflowError, ValueError) as exc:
            log.warning("refused a request: %s", exc)
            return _error(422, msg("request: cannot be read ({problem})", problem=type(exc).__name__),
                          reader_lang(request))
        return out if isinstance(out, Response) else _json(out)
    return run
