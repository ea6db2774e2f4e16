"""What keeps ``furball serve`` safe on a LAN (docs/rooms.md, "Security").

* :class:`Guard`, an ASGI middleware in front of everything:

  - **Host check**: only the names the server was started for are answered (loopback
    names, ``--host``, ``--allow-host``): a web page that rebinds its own DNS name to
    this machine gets 400 (HTTP) or a refused handshake (WebSocket).
  - **Origin check**: a request that can change something (any method but GET, HEAD and
    OPTIONS) and every WebSocket handshake must come from this server's own pages: an
    ``Origin`` header naming another host or port (or ``null``) is refused with 403, so
    another site's page in the same browser can make the server do nothing. A request without
    ``Origin`` (not a browser: curl, scripts) is let through.
  - **Rate limit** per connection: a token bucket of ``rate`` requests a second (burst
    ``burst``); past it, 429 with one line.
  - **Headers** on every answer: a Content-Security-Policy allowing only this server's
    own scripts, styles, images and connections, ``frame-ancestors 'none'`` (and
    ``X-Frame-Options: DENY``), ``Referrer-Policy: no-referrer`` (a join link in the
    address bar never leaks to another site), ``X-Content-Type-Options: nosniff``.

* :class:`Bucket`, the token bucket (also used per WebSocket connection).
* :func:`guarded_h11_protocol`: uvicorn's HTTP/1.1 protocol with a **header timeout**:
  a connection that has not sent a complete request head within ``HEADER_TIMEOUT_S``
  of opening (or of its previous answer) is closed, so slow or silent connections cannot
  pile up; idle keep-alive connections close after uvicorn's ``timeout_keep_alive``.
"""
from __future__ import annotations

import functools
import json
import time
from collections.abc import Iterable

from cachetools import TTLCache

__all__ = ["Guard", "Bucket", "guarded_h11_protocol", "HEADER_TIMEOUT_S", "CSP", "SECURITY_HEADERS",
           "host_allowed"]

HEADER_TIMEOUT_S = 10.0
"""Seconds a connection has to send a complete request head."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
"""The Content-Security-Policy of every answer (``'self'`` covers the page's own
WebSocket in current browsers)."""
SECURITY_HEADERS = ((b"content-security-policy", CSP.encode()), (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"no-referrer"), (b"x-content-type-options", b"nosniff"))


class Bucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` saved up."""

    __slots__ = ("rate", "burst", "tokens", "at")

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst = float(rate), float(burst)
        self.tokens, self.at = float(burst), time.monotonic()

    def take(self, n: float = 1.0) -> bool:
        """Whether ``n`` tokens were there (and are now spent)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= n:
            self.tokens -= n
            return True
        return False


def host_allowed(host_header: str, allowed: Iterable[str]) -> bool:
    """Whether a ``Host`` header (``name`` or ``name:port``, ``[v6]:port``) names one of
    ``allowed`` (``"*"``: any)."""
    allowed = tuple(allowed)
    if "*" in allowed:
        return True
    host = host_header.strip().lower()
    if host.startswith("["):
        name = host[:host.find("]") + 1] if "]" in host else host
    else:
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    return name in {a.lower() for a in allowed} or name.strip("[]") in {a.lower().strip("[]") for a in allowed}


def _same_site(origin: str, host: str) -> bool:
    """Whether an ``Origin`` header names this server: its host and port are the request's
    ``Host`` (the scheme is not compared, so a page served through an HTTPS proxy works;
    ``null`` and other sites are refused)."""
    scheme, sep, rest = origin.strip().lower().partition("://")
    return bool(sep) and scheme in ("http", "https") and rest == host.strip().lower()


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


class Guard:
    """Host and Origin checks, a per-connection rate limit and security headers (see
    the module docstring). ``allowed_hosts``: host names answered (``("*",)``: any)."""

    def __init__(self, app, allowed_hosts: Iterable[str], rate: float = 60.0, burst: float = 240.0):
        self.app = app
        self.allowed = tuple(allowed_hosts)
        self.rate, self.burst = rate, burst
        self.buckets: TTLCache = TTLCache(maxsize=20_000, ttl=300)

    async def __call__(self, scope, receive, send):
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        host = _header(scope, b"host") or ""
        if not host_allowed(host, self.allowed):
            return await self._refuse(scope, receive, send, 400, "request: Host header: not a name this server "
                                                                 "answers to (start it with --allow-host NAME)")
        origin = _header(scope, b"origin")
        changes = kind == "websocket" or scope.get("method", "GET") not in SAFE_METHODS
        if changes and origin is not None and not _same_site(origin, host):
            return await self._refuse(scope, receive, send, 403,
                                      "request: Origin: another site's page may not use this server")
        client = scope.get("client") or ("?", 0)
        key = (client[0], client[1])
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = Bucket(self.rate, self.burst)
        if kind == "http" and not bucket.take():
            return await self._refuse(scope, receive, send, 429, "too many requests on this connection: slow down")

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", []) if h[0].lower() not in dict(SECURITY_HEADERS)]
                message = {**message, "headers": headers + list(SECURITY_HEADERS)}
            await send(message)
        await self.app(scope, receive, send_with_headers)

    @staticmethod
    async def _refuse(scope, receive, send, status: int, message: str) -> None:
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
            return
        body = json.dumps({"error": message}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                *SECURITY_HEADERS]})
        await send({"type": "http.response.body", "body": body})


@functools.lru_cache(maxsize=1)
def guarded_h11_protocol() -> type:
    """uvicorn's HTTP/1.1 protocol class with the header timeout (for
    ``uvicorn.Config(http=...)``; built on first call: uvicorn is the web extra's)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Guarded(H11Protocol):
        """uvicorn's HTTP/1.1 protocol with a header timeout (see the module docstring)."""

        header_timeout_s = HEADER_TIMEOUT_S

        def _arm(self) -> None:
            self._disarm()
            self._head_timer = self.loop.call_later(self.header_timeout_s, self._head_timeout)

        def _disarm(self) -> None:
            timer = getattr(self, "_head_timer", None)
            if timer is not None:
                timer.cancel()
                self._head_timer = None

        def _head_timeout(self) -> None:
            self._head_timer = None
            if not self.transport.is_closing() and self.conn.their_state in (h11.IDLE,):
                self.transport.close()

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

    return Guarded

