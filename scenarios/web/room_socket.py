"""A room's WebSocket (docs/rooms.md, "The socket"): after a ``hello`` naming the seat's
key, the connection receives every update its seat may see (:meth:`~.hub.Hub.next_message`)
and may act; as :data:`router`. A seat may also ask for Best plans on it (``{"type":
"best", "n": N, "plane"?, "vs"?, "poses"?}``, :meth:`~.hub.Hub.analysis`), as often as
its page drags a plane: the answer is pushed on the same connection only (``{"type":
"best", "n": N, "result": ...}`` or ``..., "status", "error"}``), one calculation at a
time per connection, and a request that arrives while one runs replaces any other
still waiting (only the newest is answered next; the page drops answers older than its
last request, by ``n``).

Messages are size-limited (:data:`MAX_WS_MESSAGE`) and rate-limited per connection
(``request.app.state.options.ws_rate`` / ``ws_burst``); a connection that keeps flooding
is closed.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from starlette.routing import Router, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from furball.errors import InputError
from furball.i18n import DEFAULT_LANG, parse_lang, render

from . import api
from .endpoint import _status
from .security import Bucket

__all__ = ["router", "MAX_WS_MESSAGE", "HELLO_TIMEOUT_S"]

MAX_WS_MESSAGE = 4096
"""The longest message a page may send over a room's WebSocket, in characters."""
HELLO_TIMEOUT_S = 10.0
"""Seconds a new WebSocket connection has to say which room view it wants."""


async def room_socket(ws: WebSocket):
    await ws.accept()
    room_id = ws.path_params["room"]
    hub, options = ws.app.state.hub, ws.app.state.options
    bucket = Bucket(options.ws_rate, options.ws_burst)

    async def say(message: dict) -> None:
        await ws.send_text(json.dumps(message, separators=(",", ":")))

    hello: Any = None
    try:
        hello = api.read_json(await asyncio.wait_for(ws.receive_text(), HELLO_TIMEOUT_S))
        if not isinstance(hello, dict) or hello.get("type") != "hello":
            raise ValueError("expected hello")
        token = hello.get("token")
        sub = await hub.subscribe(room_id, token, hello.get("seen", 0), hello.get("owner"), hello.get("lang"),
                                  hello.get("chat_seen", 0))
    except InputError as exc:  # in the language the hello names (a room that is not there: 404)
        asked = hello.get("lang") if isinstance(hello, dict) else None
        lang = (parse_lang(asked[:20]) if isinstance(asked, str) else None) or DEFAULT_LANG
        with contextlib.suppress(Exception):
            await say({"type": "error", "status": _status(exc), "error": render(exc.message, lang)})
            await ws.close(4000 + _status(exc))
        return
    except (TimeoutError, ValueError, RecursionError, WebSocketDisconnect, KeyError, TypeError):
        with contextlib.suppress(Exception):
            await say({"type": "error", "status": 400, "error": 'expected {"type": "hello", "token": ..., '
                                                                 '"seen": N} first'})
            await ws.close(1008)
        return

    async def pump():
        try:
            while True:
                await ws.send_text(await hub.next_message(sub))
        except InputError as exc:  # the room was deleted
            with contextlib.suppress(Exception):
                await say({"type": "error", "status": _status(exc), "error": render(exc.message, sub.lang)})
                await ws.close(4000 + _status(exc))

    asked: dict = {}  # the newest Best plans request not yet started: {"n": N, "data": {...}}
    answering: asyncio.Task | None = None

    async def answer_best():
        heavy = ws.app.state.heavy
        while asked:
            n, data = asked.pop("n"), asked.pop("data")
            try:
                _, _, fn, args = await hub.analysis(room_id, token, data)
                await say({"type": "best", "n": n, "result": await heavy.run(fn, *args)})
            except InputError as exc:
                await say({"type": "best", "n": n, "status": _status(exc),
                           "error": " ".join(render(exc.message, sub.lang).split())[:600]})
            except (WebSocketDisconnect, RuntimeError):  # the page has gone
                return
            except Exception as exc:  # noqa: BLE001 - a bug: one line for the page, never a traceback
                with contextlib.suppress(Exception):
                    await say({"type": "best", "n": n, "status": 500,
                               "error": f"the calculation failed ({type(exc).__name__})"})

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
                msg = api.read_json(text)
                if not isinstance(msg, dict):
                    raise ValueError
            except InputError as exc:
                await say({"type": "error", "status": 422, "error": str(exc)})
                continue
            except (ValueError, RecursionError):
                await say({"type": "error", "status": 400, "error": "expected a JSON object"})
                continue
            ref = msg.get("id") if isinstance(msg.get("id"), (int, str)) else None
            if msg.get("type") == "act":
                try:
                    version = await hub.act(room_id, token, msg.get("version"), msg.get("action"))
                    await say({"type": "ack", "id": ref, "version": version})
                except InputError as exc:
                    await say({"type": "error", "id": ref, "status": _status(exc), "error": render(exc.message, sub.lang)})
            elif msg.get("type") == "best":
                n = msg.get("n")
                if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= api.MAX_JS_INT:
                    await say({"type": "error", "status": 400, "error": "best: field 'n': expected a request number"})
                    continue
                asked.update(n=n, data={k: msg[k] for k in ("plane", "vs", "poses") if k in msg})
                if answering is None or answering.done():
                    answering = asyncio.get_running_loop().create_task(answer_best())
            elif msg.get("type") != "ping":
                await say({"type": "error", "id": ref, "status": 400, "error": "expected type act, best or ping"})
    except WebSocketDisconnect:
        pass
    finally:
        sender.cancel()
        if answering is not None:
            answering.cancel()
        hub.unsubscribe(sub)


router = Router(routes=[WebSocketRoute("/api/rooms/{room}/ws", room_socket)])
"""The socket's route."""
