"""The dogfight table in the browser: a local web server (``furball serve``) and its page.

:mod:`.api` holds the JSON API as plain functions over the engine's values
(:mod:`scenarios.dogfight`); :mod:`.app` the ASGI application (Starlette) that serves
them and the page's static files (``static/``: plain JavaScript modules, SVG, CSS; no
build step). Endpoints and documents: docs/serve.md. This package sits on top, beside
the CLI: it may import engines and viz; nothing below imports it.
"""
from .api import Catalogue
from .app import LOOPBACK_HOSTS, create_app

__all__ = ["Catalogue", "LOOPBACK_HOSTS", "create_app"]
