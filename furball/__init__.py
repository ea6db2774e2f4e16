"""furball: exact movement geometry for miniatures air-combat games, and the engines of
the card games that share its board graphs.

One name to import. The folders of the repository are its subpackages:

* :mod:`furball.geometry` — SE(2) poses, rectangular bases, overlap, segments, sectors,
  board graphs; knows no game;
* :mod:`furball.maneuvers` — maneuver cards, decks and bases as data, placement, and the
  dogfight's rules of one moment (tailing, firing, collisions, altitude);
* :mod:`furball.scenarios` — one engine per game (``dogfight``, ``canuck``, ``yorktown``,
  ``white_christmas``) on the shared shape of ``scenarios.engine``, the CLI and the web
  table;
* :mod:`furball.viz` — matplotlib pictures.

Importing :mod:`furball` is cheap: nothing below is imported until it is used.
:class:`~furball.errors.InputError` (bad user input, one line) and
:class:`~furball.errors.IllegalAction` live in :mod:`furball.errors`, which imports
nothing heavy.
"""
from __future__ import annotations

import importlib

__version__ = "0.2.0"

_SUBPACKAGES = ("geometry", "maneuvers", "scenarios", "viz", "errors")

__all__ = ["__version__", *_SUBPACKAGES]


def __getattr__(name: str):
    """``furball.geometry`` and the like, imported on first use (PEP 562)."""
    if name in _SUBPACKAGES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'furball' has no attribute {name!r}")
