"""What keeps one client from starving the others at the connection level (docs/rooms.md,
"Security"): uvicorn's HTTP/1.1 and WebSocket protocols with per-client accounting, and
an ASGI middleware for request heads and the rooms' WebSockets.

A **client** is a remote address (an IPv6 address's /64 network: one household's
devices share one; an IPv4-mapped address is its IPv4 address). All limits are
:class:`TransportLimits`, set through :class:`~.app.ServerOptions`.

* :func:`protocols`: the uvicorn protocol classes of one server (``http=``, ``ws=``)
  sharing one :class:`Clients` ledger:

  - every accepted connection gets ``TCP_NODELAY`` (an answer written in two parts is
    not held back waiting for the peer's delayed ACK);
  - at most ``connections_per_client`` open connections (HTTP and WebSocket) per
    client: a further one is answered ``429`` on its first request head (then closed);
    past twice that many, further connections are closed at once without an answer;
  - at most ``connections_total`` connections in all: when the server is full, a new
    connection from a client holding fewer connections than the heaviest client is let
    in and one of the heaviest client's connections is closed (its idle ones first); a
    new connection from the heaviest client itself gets ``503`` (fair: the client with
    the most connections waits, never another);
  - a **header timeout** (``header_timeout_s``, from opening or from the previous
    answer: :func:`~.security.guarded_h11_protocol`) and a **body timeout**: a request
    body not complete within ``body_timeout_s`` of its head is answered ``408`` and the
    connection closed (a body trickled a byte at a time holds nothing for long);
  - a request head uvicorn cannot take (malformed, or more than ``head_bytes`` across
    reads) is a ``400``;
  - WebSocket messages are compressed (permessage-deflate) at zlib level 1: a room
    update (about 30 KB of JSON for White Christmas) goes out as a few KB for a third
    of the CPU of the default level.

  Every refusal is one JSON line ``{"error": ...}`` with the security headers
  (:data:`~.security.SECURITY_HEADERS`) and ``Connection: close``.
* :class:`Limits`, ASGI middleware (inside :class:`~.security.Guard`):

  - a request head (its request line and headers) longer than ``head_bytes`` is
    ``431`` even when it arrived in one read (h11 only limits what is still incomplete);
  - at most ``sockets_per_client`` WebSockets per client and ``sockets_per_room`` per
    room: the next one is accepted, told ``{"type": "error", "status": 503, ...}`` and
    closed with code 1013 (try again later);
  - a WebSocket on which the page sent nothing for ``socket_idle_s`` is closed with code
    4408 (the room page sends a ``ping`` every 30 s, so only forgotten or hostile
    sockets are idle; dead peers are found sooner by uvicorn's pings).

"""
from __future__ import annotations

import asyncio
import ipaddress
import json
import re
import socket
import time
from collections import Counter
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from .security import SECURITY_HEADERS, guarded_h11_protocol

__all__ = ["TransportLimits", "Clients", "Limits", "protocols", "client_key", "refusal_bytes"]


@dataclass(frozen=True)
class TransportLimits:
    """Connection-level limits (module docstring): counts per client and in all,
    seconds for a request head and body, bytes of a request head, WebSockets per client
    and per room and the seconds a WebSocket may stay silent."""

    connections_per_client: int = 64
    connections_total: int = 1000
    header_timeout_s: float = 10.0
    body_timeout_s: float = 20.0
    head_bytes: int = 16 * 1024
    sockets_per_client: int = 16
    sockets_per_room: int = 32
    socket_idle_s: float = 180.0


def client_key(host: Any) -> str:
    """Who a remote address is for the limits: the address itself (IPv4), the /64 network
    of an IPv6 address, the IPv4 address of an IPv4-mapped one; ``"?"`` when unknown."""
    if not isinstance(host, str) or not host:
        return "?"
    try:
        ip = ipaddress.ip_address(host.strip("[]").split("%")[0])
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def refusal_bytes(status: int, message: str) -> bytes:
    """A whole HTTP/1.1 answer: ``status``, ``{"error": message}``, the security headers
    and ``Connection: close``."""
    body = json.dumps({"error": message}).encode()
    phrase = HTTPStatus(status).phrase
    head = [f"HTTP/1.1 {status} {phrase}".encode(), b"content-type: application/json",
            b"content-length: " + str(len(body)).encode(), b"connection: close"]
    head += [name + b": " + value for name, value in SECURITY_HEADERS]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


class Clients:
    """The open connections of one server, per client (module docstring). Connections
    are keyed by their transport (an upgraded WebSocket keeps its HTTP connection's
    place); each has a protocol that can be asked to :meth:`shed` it."""

    def __init__(self, limits: TransportLimits):
        self.limits = limits
        self.held: dict[str, dict[Any, Any]] = {}  # client -> {transport: protocol}, oldest first
        self.client_of: dict[Any, str] = {}
        self.refused: Counter[str] = Counter()

    @property
    def total(self) -> int:
        return len(self.client_of)

    def admit(self, transport, client: str, protocol) -> tuple[int, str] | None:
        """Count a new connection of ``client`` (``None``), or the answer it gets instead
        (``(status, line)``; status 0: close it without an answer)."""
        limits = self.limits
        mine = self.held.get(client, {})
        if len(mine) >= limits.connections_per_client:
            return self._refuse(client, 429, f"too many connections from your address (at most "
                                             f"{limits.connections_per_client}): close some and try again")
        if self.total >= limits.connections_total:
            heaviest = max(self.held, key=lambda c: len(self.held[c]), default=client)
            if len(self.held.get(heaviest, {})) <= len(mine) + 1:
                return self._refuse(client, 503, "the server is full: try again in a few seconds")
            self._shed_one(heaviest)
        self.held.setdefault(client, {})[transport] = protocol
        self.client_of[transport] = client
        return None

    def _refuse(self, client: str, status: int, line: str) -> tuple[int, str]:
        if self.refused[client] >= self.limits.connections_per_client:
            return 0, line
        self.refused[client] += 1
        return status, line

    def _shed_one(self, client: str) -> None:
        conns = self.held[client]
        victim = next((t for t, p in conns.items() if getattr(p, "idle", False)), next(iter(conns)))
        protocol = conns[victim]
        self.release(victim)  # counted out now: its close comes later
        protocol.shed()

    def adopt(self, transport, protocol) -> None:
        """``protocol`` now speaks for ``transport`` (a WebSocket upgrade)."""
        client = self.client_of.get(transport)
        if client is not None:
            self.held[client][transport] = protocol

    def release(self, transport, refused_client: str | None = None) -> None:
        """``transport`` is closed (or shed); ``refused_client``: it was a refused one."""
        if refused_client is not None:
            self.refused[refused_client] -= 1
            if self.refused[refused_client] <= 0:
                del self.refused[refused_client]
            return
        client = self.client_of.pop(transport, None)
        if client is None:
            return
        conns = self.held[client]
        conns.pop(transport, None)
        if not conns:
            del self.held[client]


def _no_delay(transport) -> None:
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass


def protocols(limits: TransportLimits) -> tuple[type, type]:
    """The HTTP/1.1 and WebSocket protocol classes of one server (for
    ``uvicorn.Config(http=..., ws=...)``), sharing a new :class:`Clients` ledger (the
    classes' ``clients``). uvicorn is the web extra's: imported here."""
    import h11
    from uvicorn.protocols.websockets.websockets_impl import WebSocketProtocol
    from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

    clients = Clients(limits)

    class HTTP(guarded_h11_protocol()):
        """uvicorn's HTTP/1.1 with the header timeout, per-client accounting, the body
        timeout and answers that carry the security headers (module docstring)."""

        header_timeout_s = limits.header_timeout_s
        body_timeout_s = limits.body_timeout_s

        def connection_made(self, transport) -> None:
            _no_delay(transport)
            super().connection_made(transport)
            self.client_id = client_key(self.client[0] if self.client else None)
            self._body_timer: asyncio.TimerHandle | None = None
            self._refusal = clients.admit(transport, self.client_id, self)
            self._head = b""
            self._dropped = self._refusal is not None and self._refusal[0] == 0  # past even the refused ones
            if self._dropped:
                self._refusal = None
                transport.close()

        @property
        def idle(self) -> bool:
            """Whether no request is under way (waiting for a head, or kept alive)."""
            return self.conn.their_state is h11.IDLE and (self.cycle is None or self.cycle.response_complete)

        def shed(self) -> None:
            self.transport.close()

        def refuse(self, status: int, line: str) -> None:
            """Answer ``status`` with ``line`` (whatever h11's state) and close."""
            if not self.transport.is_closing():
                self.transport.write(refusal_bytes(status, line))
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self._refusal is not None:  # refused: answer once the head is in
                self._head = (self._head + data)[-4 * 1024:]
                if b"\r\n\r\n" in self._head or len(data) > limits.head_bytes:
                    self.refuse(*self._refusal)
                return
            super().data_received(data)
            self._watch_body()

        def _watch_body(self) -> None:
            upgraded = self.transport.get_protocol() is not self  # a WebSocket now: no body to wait for
            if self.conn.their_state is h11.SEND_BODY and not self.transport.is_closing() and not upgraded:
                if self._body_timer is None:
                    self._body_timer = self.loop.call_later(self.body_timeout_s, self._body_timeout)
            elif self._body_timer is not None:
                self._body_timer.cancel()
                self._body_timer = None

        def _body_timeout(self) -> None:
            self._body_timer = None
            if self.conn.their_state is not h11.SEND_BODY or self.transport.get_protocol() is not self:
                return
            if self.cycle is None or not self.cycle.response_started:
                self.refuse(408, f"request body: not received within {self.body_timeout_s:g} s")
            else:
                self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._watch_body()

        def send_400_response(self, msg: str) -> None:
            self.refuse(400, f"request: malformed, or a request head longer than {limits.head_bytes // 1024} KiB")

        def connection_lost(self, exc) -> None:
            if self._body_timer is not None:
                self._body_timer.cancel()
                self._body_timer = None
            if self._refusal is not None:
                clients.release(self.transport, refused_client=self.client_id)
            elif not self._dropped:
                clients.release(self.transport)
            super().connection_lost(exc)

    class Socket(WebSocketProtocol):
        """uvicorn's WebSocket protocol, keeping its HTTP connection's place in the
        ledger until it closes."""

        idle = False

        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            if self.config.ws_per_message_deflate:  # zlib level 1: a third of the CPU, updates still ~15x smaller
                self.available_extensions = [ServerPerMessageDeflateFactory(compress_settings={"level": 1})]

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            clients.adopt(transport, self)

        def shed(self) -> None:
            self.transport.close()

        def connection_lost(self, exc) -> None:
            clients.release(self.transport)
            super().connection_lost(exc)

    HTTP.clients = Socket.clients = clients  # type: ignore[attr-defined]
    return HTTP, Socket


ROOM_SOCKET = re.compile(r"^/api/rooms/([^/]{1,80})/ws$")
"""A room's WebSocket path (its room id)."""


def head_bytes(scope) -> int:
    """The size of a request's head as sent (request line and headers, near enough:
    spacing as HTTP/1.1 writes it)."""
    target = len(scope.get("raw_path") or scope.get("path", "").encode()) + len(scope.get("query_string") or b"")
    line = len(scope.get("method", "GET")) + target + len(" ? HTTP/1.1\r\n")
    return line + sum(len(k) + len(v) + 4 for k, v in scope.get("headers", ())) + 2


class Limits:
    """ASGI middleware: request heads at most ``limits.head_bytes`` (431), WebSockets per
    client and per room, idle WebSockets closed (module docstring)."""

    def __init__(self, app, limits: TransportLimits = TransportLimits()):
        self.app = app
        self.limits = limits
        self.sockets_of: Counter[str] = Counter()
        self.sockets_in: Counter[str] = Counter()

    async def __call__(self, scope, receive, send):
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        if head_bytes(scope) > self.limits.head_bytes:
            return await self._refuse(scope, receive, send, 431, f"request head: expected at most "
                                                                 f"{self.limits.head_bytes // 1024} KiB")
        if kind == "http":
            return await self.app(scope, receive, send)
        client = client_key((scope.get("client") or ("?", 0))[0])
        found = ROOM_SOCKET.match(scope.get("path", ""))
        room = found.group(1) if found else None
        if self.sockets_of[client] >= self.limits.sockets_per_client:
            return await self._refuse(scope, receive, send, 503, f"too many open rooms from your address (at most "
                                                                 f"{self.limits.sockets_per_client}): close some pages")
        if room is not None and self.sockets_in[room] >= self.limits.sockets_per_room:
            return await self._refuse(scope, receive, send, 503, f"this room has {self.limits.sockets_per_room} "
                                                                 f"pages open, the most it takes: try again later")
        self.sockets_of[client] += 1
        if room is not None:
            self.sockets_in[room] += 1
        try:
            await self._watched(scope, receive, send)
        finally:
            _drop(self.sockets_of, client)
            if room is not None:
                _drop(self.sockets_in, room)

    async def _watched(self, scope, receive, send) -> None:
        """The app on a WebSocket, closed after ``socket_idle_s`` without a message."""
        idle_s = self.limits.socket_idle_s
        last = time.monotonic()
        closed = False

        async def receive_watched():
            nonlocal last
            message = await receive()
            last = time.monotonic()
            if closed and message["type"] == "websocket.receive":
                return {"type": "websocket.disconnect", "code": 4408}
            return message

        async def send_watched(message):
            if not closed:
                await send(message)

        async def watch():
            nonlocal closed
            while True:
                await asyncio.sleep(max(0.0, last + idle_s - time.monotonic()) + 0.01)
                if time.monotonic() - last >= idle_s:
                    closed = True
                    await send({"type": "websocket.close", "code": 4408,
                                "reason": f"idle: no message for {idle_s:g} s"})
                    return

        watcher: asyncio.Task | None = None

        async def send_first(message):  # the watch starts once the socket is accepted
            nonlocal watcher
            await send_watched(message)
            if message["type"] == "websocket.accept" and watcher is None:
                watcher = asyncio.get_running_loop().create_task(watch())

        try:
            await self.app(scope, receive_watched, send_first)
        finally:
            if watcher is not None:
                watcher.cancel()

    @staticmethod
    async def _refuse(scope, receive, send, status: int, line: str) -> None:
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": json.dumps({"type": "error", "status": status,
                                                                      "error": line})})
            await send({"type": "websocket.close", "code": 1013, "reason": line[:120]})
            return
        body = json.dumps({"error": line}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


def _drop(counter: Counter, key: str) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]
