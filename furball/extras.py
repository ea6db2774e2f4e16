"""The optional parts of furball and the packages each needs.

The core install (``pip install furball``) holds the geometry, the four engines, the CLI
and the pictures. The rest is installed by extra:

========  ==========================================  ================================
extra     packages                                    for
========  ==========================================  ================================
web       starlette, uvicorn, websockets, pebble      ``furball serve``: table, rooms
postgres  psycopg                                     rooms shared through PostgreSQL
cluster   dask.distributed, pyarrow                   ``--workers``/``--scheduler``,
                                                      Parquet files
rl        open_spiel, pettingzoo, gymnasium           OpenSpiel games, PettingZoo
                                                      environments, search bots
capture   opencv-python-headless                      ``furball capture``, ``furball
                                                      print markers``: photos read
all       every one of the above
========  ==========================================  ================================

:func:`require` imports a module of an extra or raises
:class:`~furball.errors.MissingExtra`, a one-line error naming the extra to install.
"""
from __future__ import annotations

import importlib
from types import ModuleType

from furball.errors import MissingExtra

__all__ = ["EXTRAS", "require"]

EXTRAS: dict[str, tuple[str, ...]] = {
    "web": ("starlette", "uvicorn", "websockets", "pebble"),
    "postgres": ("psycopg",),
    "cluster": ("distributed", "pyarrow"),
    "rl": ("pyspiel", "pettingzoo", "gymnasium"),
    "capture": ("cv2",),
}
"""Each extra and the modules it provides (``pip install 'furball[EXTRA]'``)."""


def require(extra: str, feature: str, *modules: str) -> ModuleType:
    """Import ``modules`` (default: every module of ``extra``) and return the last one.
    Raises :class:`MissingExtra` — "``feature`` needs the optional package 'X': pip
    install 'furball[extra]'" — when one is missing."""
    last = None
    for name in modules or EXTRAS[extra]:
        try:
            last = importlib.import_module(name)
        except ImportError:
            raise MissingExtra(extra, feature, name.split(".")[0]) from None
    assert last is not None
    return last
