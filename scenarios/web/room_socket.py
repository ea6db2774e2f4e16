"""A room's WebSocket (docs/rooms.md, "The socket"): after a ``hello`` naming the seat's
key, the connection receives every update its seat may see (:meth:`~.hub.Hub.next_message`)
and may act; as :data:`router`.

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
            elif msg.get("type") != "ping":
                await say({"type": "error", "id": ref, "status": 400, "error": "expected type act or ping"})
    except WebSocketDisconnect:
        pass
    finally:
        sender.cancel()
        hub.unsubscribe(sub)


router = Router(routes=[WebSocketRoute("/api/rooms/{room}/ws", room_socket)])
"""The socket's route."""
