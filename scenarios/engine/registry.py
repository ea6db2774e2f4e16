"""The registry of games: every game furball plays, by name, and the modules that make it.

One :class:`GameEntry` per game (:data:`GAMES`, in the order the CLI and the lobby list
them) names, as module paths imported only when asked for (as OpenSpiel's
``pyspiel.load_game`` finds a registered game by its short name):

* ``engine``: ``"module:ATTRIBUTE"`` of its :class:`~.protocol.Game` descriptor, which
  declares the game's facts (seats, information, utility and longest game);
* ``cli``: its module of ``furball play GAME`` (:mod:`furball.scenarios.cli.play`);
* ``room``: its view module for the game rooms (:mod:`furball.scenarios.web.views`),
  which also says which options a room may set;
* ``rl``: its module for the OpenSpiel and PettingZoo adapters, holding its ``SPEC``
  (:mod:`furball.scenarios.rl.spec`).

The CLI, the web rooms, the RL adapters and the search bots read this list; no other
module names the games. Adding a game is one entry here plus its own modules
(docs/engines.md shows the steps). This module holds only names: it imports nothing of
the CLI, the web server or the RL package (the layers above the engines), and importing
it imports no engine.
"""
from __future__ import annotations

import functools
import importlib
import importlib.util
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from furball.errors import InputError

if TYPE_CHECKING:
    from .protocol import Game

__all__ = ["GameEntry", "GAMES", "SEARCH_MODULE", "names", "entry", "load_game", "import_attribute"]

_PACKAGE = "furball.scenarios"


@dataclass(frozen=True)
class GameEntry:
    """One game of the registry (module docstring): ``name`` (the CLI spelling, e.g.
    ``"white-christmas"``), ``title`` (the same as its descriptor's, listed without
    importing the engine), and the paths of its ``engine`` descriptor
    (``"module:ATTRIBUTE"``), ``cli``, ``room`` and ``rl`` modules."""

    name: str
    title: str
    engine: str
    cli: str
    room: str
    rl: str

    @property
    def short_name(self) -> str:
        """Its OpenSpiel short name: ``furball_`` and the name with ``_`` for ``-``."""
        return "furball_" + self.name.replace("-", "_")

    @property
    def available(self) -> bool:
        """Whether its engine is installed (a game still being written is skipped)."""
        return _installed(self.engine.partition(":")[0])

    def game(self) -> Game:
        """Its :class:`~.protocol.Game` descriptor (the engine imported now)."""
        return import_attribute(self.engine)

    def cli_module(self) -> ModuleType:
        """Its ``furball play`` module, imported now."""
        return importlib.import_module(self.cli)

    def room_module(self) -> ModuleType:
        """Its room view module, imported now."""
        return importlib.import_module(self.room)

    def rl_module(self) -> ModuleType:
        """Its RL adapter module (with ``SPEC``), imported now."""
        return importlib.import_module(self.rl)


def _entry(name: str, title: str, package: str, descriptor: str) -> GameEntry:
    """The entry of a game whose modules follow the house layout: the engine in
    ``scenarios/<package>/game.py`` and a module called ``<package>`` in the CLI, the
    room views and the RL package."""
    return GameEntry(name, title, engine=f"{_PACKAGE}.{package}.game:{descriptor}", cli=f"{_PACKAGE}.cli.{package}",
                     room=f"{_PACKAGE}.web.views.{package}", rl=f"{_PACKAGE}.rl.{package}")


GAMES: tuple[GameEntry, ...] = (
    _entry("white-christmas", "1975 White Christmas", "white_christmas", "WHITE_CHRISTMAS"),
    _entry("yorktown", "1942 USS Yorktown", "yorktown", "YORKTOWN"),
    _entry("canuck", "Operation Canuck", "canuck", "CANUCK"),
    _entry("dogfight", "Dogfight", "dogfight", "DOGFIGHT"),
)
"""Every game, in the order the CLI and the lobby list them."""

SEARCH_MODULE = f"{_PACKAGE}.rl.bots"
"""The module that builds every game's search bots (``search_player(game, spelling,
seed, seat)``; :mod:`.search`)."""


def names() -> tuple[str, ...]:
    """Every game's name, in the registry's order."""
    return tuple(g.name for g in GAMES)


def entry(name: str) -> GameEntry:
    """The entry of game ``name`` (its CLI spelling, or its OpenSpiel short name such as
    ``furball_white_christmas``). Raises :class:`InputError` listing the games."""
    for g in GAMES:
        if name in (g.name, g.short_name):
            return g
    raise InputError(f"game {str(name)[:40]!r}: expected one of {', '.join(names())}")


def load_game(name: str) -> Game:
    """The :class:`~.protocol.Game` descriptor of game ``name`` (see :func:`entry`),
    its engine imported now. Raises :class:`InputError` for an unknown name."""
    return entry(name).game()


def import_attribute(ref: str) -> Any:
    """The attribute named by ``"module:ATTRIBUTE"``, its module imported now."""
    module, _, attribute = ref.partition(":")
    return getattr(importlib.import_module(module), attribute)


@functools.lru_cache(maxsize=32)
def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False
