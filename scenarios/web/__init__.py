"""furball's web server (``furball serve``): the practice table and the game rooms.

The room model needs no web framework: :mod:`.rooms` (a room as an immutable value:
a game, its options, seed, seats and events; :class:`~.rooms.Room`), :mod:`.store`
(rooms in SQLite or PostgreSQL) and :mod:`.hub` (the live rooms of one process: the
referee between the pages and the store) import neither Starlette nor uvicorn, and
:mod:`.views` turns each game's observations into a seat's JSON view. :mod:`.api` holds
the practice table's JSON API as plain functions over the dogfight engine's values;
:mod:`.jobs` a seat's long calculations, :mod:`.pool` the bounded pool they run in.

The HTTP layer (Starlette, the ``web`` extra): :mod:`.app` assembles the ASGI
application (:func:`create_app`) from one router per part, :mod:`.practice`,
:mod:`.room_routes` and :mod:`.room_socket`, with the handlers' shared parts in
:mod:`.endpoint` and the guards in :mod:`.security`; ``static/`` holds the pages (plain
JavaScript modules, SVG, CSS; no build step). Endpoints: docs/serve.md and
docs/rooms.md. This package sits on top, beside the CLI: it may import engines and viz;
nothing below imports it. Importing it imports nothing: ``create_app``,
``LOOPBACK_HOSTS`` and ``Catalogue`` are loaded on first use.
"""
from __future__ import annotations

import importlib
from typing import Any

__all__ = ["Catalogue", "LOOPBACK_HOSTS", "create_app"]

_LAZY = {"Catalogue": ".api", "LOOPBACK_HOSTS": ".app", "create_app": ".app"}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_LAZY[name], __name__), name)
