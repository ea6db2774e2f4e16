"""`furball serve [SCENARIO.toml]`: the practice table and the game rooms in the browser
(docs/serve.md, docs/rooms.md)."""
from __future__ import annotations

import ipaddress
import os
import re
import socket
import sys
import threading
import webbrowser

from furball.errors import InputError
from furball.i18n import N_, msg, translator

DEFAULT_PORT = 8765
MAX_BOT_DELAY_S = 60.0
HOST_NAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$|^\[?[0-9A-Fa-f:.]+\]?$")


def _port(text: str) -> int:
    import argparse

    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port number from 1 to 65535, got {text[:40]!r}")
    return int(text)


def _seconds(text: str) -> float:
    import argparse

    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= MAX_BOT_DELAY_S:
        raise argparse.ArgumentTypeError(f"expected seconds from 0 to {MAX_BOT_DELAY_S:g}, got {text[:40]!r}")
    return value


def _workers(text: str) -> int:
    import argparse

    if not text.isdigit() or int(text) > 64:
        raise argparse.ArgumentTypeError(f"expected 0 to 64 worker processes, got {text[:40]!r}")
    return int(text)


def register(subparsers, line: str, argv=()) -> None:
    """Add this command's parser (``line``: its help in the command list)."""
    p = subparsers.add_parser(
        "serve", help=line,
        description=N_("Start a web server with the practice table (add and drag planes, pick cards, adjudicate "
                    "the turn and step through it, save and open scenario files) and game rooms (play a card "
                    "game with others, each in their own browser, bots in the empty seats; rooms are kept in a "
                    "database and survive a restart). Loopback only unless --host says otherwise."))
    p.add_argument("scenario", nargs="?", help=N_("scenario or saved-state file to show first on the practice table"))
    p.add_argument("--port", type=_port, default=DEFAULT_PORT, help=msg("port (default {port})", port=DEFAULT_PORT))
    p.add_argument("--host", default="127.0.0.1",
                   help=N_("address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every network)"))
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help=N_("a name players use to reach this server (its LAN name or address); repeatable"))
    p.add_argument("--db", default=None, metavar="PATH|URL",
                   help=N_("where rooms are kept: a SQLite file (default: rooms.sqlite3 in your data folder) or "
                        "postgresql://... (several servers sharing rooms)"))
    p.add_argument("--bot-delay", type=_seconds, default=1.0, metavar="SECONDS",
                   help=N_("pause before each bot move in a room, so people can follow (default 1)"))
    p.add_argument("--webhooks", choices=("off", "public", "any"), default="public",
                   help=N_("where a room owner's webhook may send its 'your turn' calls: nowhere, public addresses "
                        "only (default), or any address, private ones included (docs/rooms.md, Webhooks)"))
    p.add_argument("--workers", type=_workers, default=None, metavar="N",
                   help=N_("worker processes for adjudication, Best plans and the rooms' bots "
                        "(default: the number of CPUs, at most 4)"))
    p.add_argument("--open", action="store_true", help=N_("open the page in the web browser"))
    p.set_defaults(func=run)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) only reaches this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's address on its main network (the one a UDP socket would use to
    reach the outside; nothing is sent), or ``None``."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere, no packet leaves
            address = s.getsockname()[0]
    except OSError:
        return None
    return None if ipaddress.ip_address(address).is_loopback else address


def _shown(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def hosts_and_url(host: str, allow: list[str], port: int) -> tuple[tuple[str, ...], str, bool]:
    """The ``Host`` names the server answers to, the URL players should use and whether
    it listens on loopback only. Raises :class:`InputError` for a malformed name."""
    for name in [host, *allow]:
        if not name or len(name) > 253 or not HOST_NAME.match(name):
            raise InputError(msg("--host/--allow-host {value}: expected a host name or an address such as 192.168.1.5",
                                 value=repr(name[:40])))
    from furball.scenarios.web import LOOPBACK_HOSTS

    loopback = is_loopback(host)
    names = list(LOOPBACK_HOSTS) + [host.strip("[]")] + [a.strip("[]") for a in allow]
    wildcard = host.strip("[]") in ("0.0.0.0", "::")
    if wildcard:  # every network: this machine's LAN address and name are its names too
        names += [n for n in (lan_address(), socket.gethostname()) if n]
    if loopback:
        url_host = host
    elif allow:
        url_host = allow[0]
    elif wildcard:
        url_host = lan_address() or socket.gethostname()
    else:
        url_host = host
    allowed = tuple(dict.fromkeys(n for n in names if n not in ("0.0.0.0", "::")))
    return allowed, f"http://{_shown(url_host)}:{port}/", loopback


def build(args):
    """The ASGI app, the URL and whether it listens on loopback only, for ``args``
    (every check done, the store opened, nothing started). Raises :class:`InputError`."""
    from furball.scenarios.dogfight import load_scenario
    from furball.scenarios.web import create_app
    from furball.scenarios.web.app import ServerOptions
    from furball.scenarios.web.store import open_store

    allowed, url, loopback = hosts_and_url(args.host, list(getattr(args, "allow_host", []) or []), args.port)
    scenario = load_scenario(args.scenario) if args.scenario else None
    workers = getattr(args, "workers", None)
    workers = min(4, os.cpu_count() or 1) if workers is None else workers
    options = ServerOptions(bot_delay_s=getattr(args, "bot_delay", 1.0), workers=workers,
                            webhooks=getattr(args, "webhooks", "public"))
    store = open_store(getattr(args, "db", None))
    return create_app(scenario, allowed, store=store, options=options), url, loopback


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (bound here, so a busy port or an unknown
    host is one line and exit 2). Raises :class:`InputError`."""
    try:
        family = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host.strip("[]"), port), family=family, backlog=64)
    except (OSError, UnicodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InputError(msg("--host {host} --port {port}: cannot listen there: {why}", host=repr(host[:60]), port=port,
                             why=why)) from None


def uvicorn_config(uvicorn, app):
    """The server's uvicorn settings: the connection limits and timeouts of the app's
    :class:`~furball.scenarios.web.transport.TransportLimits` (its ``state.options.transport``:
    connections per client and in all, header and body timeouts, request heads), 5 s
    idle keep-alive, 64 KiB WebSocket messages, pings every 20 s, ``TCP_NODELAY`` on every
    connection. uvicorn's own ``limit_concurrency`` is off: its 503 would refuse everyone
    alike once one client holds the connections (the ledger's is fair)."""
    from furball.scenarios.web.transport import TransportLimits, protocols

    options = getattr(app.state, "options", None)
    limits = options.transport if options is not None else TransportLimits()
    http, ws = protocols(limits)
    return uvicorn.Config(app, log_level="warning", lifespan="on", http=http, ws=ws,
                          timeout_keep_alive=5, h11_max_incomplete_event_size=limits.head_bytes,
                          ws_max_size=64 * 1024, ws_ping_interval=20.0, ws_ping_timeout=20.0,
                          limit_concurrency=None, timeout_graceful_shutdown=3)


def run(args) -> int:
    from furball.extras import require

    require("web", "furball serve")
    import uvicorn

    app, url, loopback = build(args)
    sock = listen(args.host, args.port)
    _ = translator(args.lang)
    if not loopback:
        print(_("furball serve: WARNING: listening on {host}: anyone who can reach this machine on port {port} can use "
                "the practice table and open rooms whose links they know; the server answers only to the names "
                "{names} (add others with --allow-host)").format(host=args.host, port=args.port,
                                                                  names=", ".join(app.state.allowed_hosts)),
              file=sys.stderr)
    store = app.state.store
    print(_("furball serve: the practice table is at {url} and the game rooms at {url}rooms (rooms kept in {where}; "
            "Ctrl+C stops the server)").format(url=url, where=store.where), flush=True)
    if args.open:
        threading.Timer(0.8, webbrowser.open, args=(url,)).start()
    server = uvicorn.Server(uvicorn_config(uvicorn, app))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        store.close()
    return 0
