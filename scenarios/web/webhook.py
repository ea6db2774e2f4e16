"""A room's optional webhook: "your turn" for play over days (issue 34 item 7, docs/rooms.md).

The room's owner gives a URL (:func:`check_url`); whenever the people the game waits for
change, the server POSTs one JSON object to it (:func:`payload`)::

    {"room": ID, "game": NAME, "title": TITLE, "to_act": ["P2"], "terminal": false,
     "link": "https://host/rooms/ID"}

Made from the **spectator's** view only (:meth:`~.rooms.Room.view` of ``None``), so it
carries nothing a spectator may not read: no hidden card, no seat's token (``link`` is
the spectator link), no seed.

**Server-side request forgery** (SSRF): the server sends a request to an address a
stranger chose. What furball does about it (:class:`Reach`, ``furball serve
--webhooks``): only ``http``/``https`` URLs of at most :data:`MAX_URL_CHARS`
characters, without user name or password; by default (``public``) the host's every
address must be a public one (no loopback, private, link-local, multicast or reserved
address: the cloud's metadata service and the server's own ports are out of reach),
checked when each request is sent; redirects are not followed; the answer is never read
nor shown to anyone (a failure is logged with its status only), so the webhook cannot be
used to read an internal service. What remains: a name that resolves to another address
between the check and the connection (DNS rebinding) — a server that must exclude even
that runs behind an egress firewall, or with ``--webhooks off``. ``any`` allows private
addresses (a LAN's chat bot; tests).

Sending (:func:`send`) is a blocking call the hub runs in a worker thread
(:meth:`~.hub.Hub`), one request per room at a time, the newest payload replacing a
waiting one, at most :data:`MAX_WAITING` rooms waiting (more are dropped and logged),
each within :data:`TIMEOUT_S`, never retried.
"""
from __future__ import annotations

import ipaddress
import json
import socket
import urllib.error
import urllib.parse
import urllib.request
from enum import StrEnum
from typing import Any

from furball.errors import InputError

__all__ = ["Reach", "MAX_URL_CHARS", "MAX_WAITING", "TIMEOUT_S", "check_url", "payload", "worth_sending", "send",
           "WebhookRefused"]

MAX_URL_CHARS = 500
"""The longest webhook URL accepted."""
MAX_WAITING = 64
"""The most rooms whose webhook request may wait at once (more are dropped, logged)."""
TIMEOUT_S = 5.0
"""The most one webhook request may take (connecting and sending)."""


class Reach(StrEnum):
    """Where a server's webhooks may go: nowhere (``off``), public addresses only
    (``public``, the default) or ``any`` address, private ones included."""

    OFF = "off"
    PUBLIC = "public"
    ANY = "any"


class WebhookRefused(InputError):
    """A webhook request not sent: its host is not a public address (:class:`Reach`)."""


def check_url(url: Any) -> str | None:
    """The webhook URL ``url`` checked (``None`` or ``""``: no webhook). Raises
    :class:`InputError` (one line) unless it is an ``http``/``https`` URL of at most
    :data:`MAX_URL_CHARS` printable characters with a host and no user name or password."""
    if url is None or url == "":
        return None
    if not isinstance(url, str) or len(url) > MAX_URL_CHARS or not url.isprintable() or " " in url:
        raise InputError(f"request: field 'url': expected an http or https URL of at most {MAX_URL_CHARS} "
                         "characters, or null")
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a bad port
    except ValueError:
        raise InputError("request: field 'url': expected an http or https URL (this one does not parse)") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError("request: field 'url': expected an http:// or https:// URL with a host")
    if parts.username is not None or parts.password is not None:
        raise InputError("request: field 'url': a user name or password in the URL is not accepted")
    return url


def payload(room, link: str) -> dict:
    """What the webhook of ``room`` (a :class:`~.rooms.Room`) receives now, made from
    its spectator view only: ``room``, ``game``, ``title``, ``to_act`` (the labels of
    the seats the game waits for that people play; bots act by themselves),
    ``terminal`` and ``link`` (the spectator link)."""
    v = room.view(None, public={})
    people = [i for i in v["awaited"] if v["seats"][i]["bot"] is None]
    return {"room": v["room"], "game": v["game"], "title": v["title"], "to_act": [v["labels"][i] for i in people],
            "terminal": bool(v["terminal"]), "link": link}


def worth_sending(before: dict | None, after: dict) -> bool:
    """Whether ``after`` is news: the people to act changed (to someone) or the game ended."""
    if before is not None and (before["to_act"], before["terminal"]) == (after["to_act"], after["terminal"]):
        return False
    return bool(after["to_act"]) or after["terminal"]


def _public_host(host: str, port: int) -> None:
    """Raises :class:`WebhookRefused` unless every address of ``host`` is a global one."""
    try:
        infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except OSError as exc:
        raise WebhookRefused(f"webhook host {host!r} does not resolve ({exc.strerror or exc})") from None
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%")[0])
        if not address.is_global or address.is_multicast:
            raise WebhookRefused(f"webhook host {host!r} is a non-public address ({address}): refused "
                                 "(furball serve --webhooks any allows it)")


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: D102 - never followed
        return None


_OPENER = urllib.request.build_opener(_NoRedirects)


def send(url: str, body: dict, reach: Reach, timeout_s: float = TIMEOUT_S) -> int:
    """POST ``body`` as JSON to ``url`` (blocking: run it in a thread), within
    ``timeout_s``, redirects not followed. Returns the HTTP status. Raises
    :class:`WebhookRefused` (its host not allowed by ``reach``) or :class:`OSError`
    (no answer, or an error status: :class:`urllib.error.HTTPError`)."""
    if reach == Reach.OFF:
        raise WebhookRefused("webhooks are off on this server (furball serve --webhooks)")
    parts = urllib.parse.urlsplit(url)
    if reach == Reach.PUBLIC:
        _public_host(parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80))
    data = json.dumps(body, separators=(",", ":")).encode()
    request = urllib.request.Request(url, data=data, method="POST", headers={
        "Content-Type": "application/json", "User-Agent": "furball-webhook"})
    with _OPENER.open(request, timeout=timeout_s) as answer:
        return int(answer.status)
