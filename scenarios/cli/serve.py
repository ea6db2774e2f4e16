"""`furball serve [SCENARIO.toml]`: the dogfight table in the browser (docs/serve.md)."""
from __future__ import annotations

import ipaddress
import socket
import sys
import threading
import webbrowser

from furball.errors import InputError

DEFAULT_PORT = 8765


def _port(text: str) -> int:
    import argparse

    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port number from 1 to 65535, got {text[:40]!r}")
    return int(text)


def register(subparsers, line: str, argv=()) -> None:
    """Add this command's parser (``line``: its help in the command list)."""
    p = subparsers.add_parser(
        "serve", help=line,
        description="Start a local web server showing a dogfight table: add and drag planes, pick "
                    "cards, adjudicate the turn and step through it, save and open scenario files. "
                    "Loopback only unless --host says otherwise.")
    p.add_argument("scenario", nargs="?", help="scenario or saved-state file to show first (TOML)")
    p.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--open", action="store_true", help="open the page in the web browser")
    p.set_defaults(func=run)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) only reaches this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def build(args):
    """The ASGI app and the URL for ``args`` (every check done, nothing started).
    Raises :class:`InputError`."""
    from furball.scenarios.dogfight import load_scenario
    from furball.scenarios.web import LOOPBACK_HOSTS, create_app

    host = args.host
    if not host or any(ch.isspace() for ch in host) or len(host) > 253:
        raise InputError(f"--host {host[:40]!r}: expected an address such as 127.0.0.1")
    scenario = load_scenario(args.scenario) if args.scenario else None
    loopback = is_loopback(host)
    app = create_app(scenario, LOOPBACK_HOSTS + (host.strip("[]"),) if loopback else ("*",))
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return app, f"http://{shown}:{args.port}/", loopback


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (bound here, so a busy port or an unknown
    host is one line and exit 2). Raises :class:`InputError`."""
    try:
        family = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host.strip("[]"), port), family=family, backlog=64)
    except (OSError, UnicodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InputError(f"--host {host[:60]!r} --port {port}: cannot listen there: {why}") from None


def run(args) -> int:
    from furball.extras import require

    uvicorn = require("web", "furball serve", "starlette", "websockets", "uvicorn")

    app, url, loopback = build(args)
    sock = listen(args.host, args.port)
    if not loopback:
        print(f"furball serve: WARNING: listening on {args.host}: anyone who can reach this machine on port "
              f"{args.port} can use the table (there is no login)", file=sys.stderr)
    print(f"furball serve: the table is at {url} (Ctrl+C stops the server)", flush=True)
    if args.open:
        threading.Timer(0.8, webbrowser.open, args=(url,)).start()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0
