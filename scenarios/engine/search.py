"""The search bots (``mcts``, ``ismcts``) in every game's bot list, found when asked for.

A game's ``players`` mapping is its own bots plus two search bots built on OpenSpiel's
Monte Carlo tree search (``furball.scenarios.rl.bots``, the ``rl`` extra):

* ``mcts``: determinised MCTS — several worlds the seat cannot tell from the real one,
  each searched by OpenSpiel's ``MCTSBot``, the root visits added up;
* ``ismcts``: OpenSpiel's information-set MCTS, a new world for every simulation.

Spelled ``KIND[:BUDGET][:ROLLOUT]``: ``BUDGET`` is simulations per decision (``200``) or
seconds (``0.5s``; not reproducible: it depends on the machine); ``ROLLOUT`` the game's
bot that plays positions out (default: the game's heuristic where it has one), e.g.
``ismcts``, ``ismcts:400``, ``mcts:1s:random``. The first use of a search bot imports
the rl package; without the extra the error names ``furball[rl]`` on one line.

The package that builds them is only *named* here, by the registry of games
(:data:`.registry.SEARCH_MODULE`), and imported when a search bot is asked for: the
engines stay below the rl package, which imports them and which they never import.
"""
from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator, Mapping

from furball.errors import InputError

from .protocol import Player
from .registry import SEARCH_MODULE

__all__ = ["SEARCH_KINDS", "SEARCH_MODULE", "SearchSpelling", "parse_search", "with_search_bots"]

SEARCH_KINDS = ("mcts", "ismcts")
"""The search bots every game offers."""
MAX_SIMULATIONS = 1_000_000
"""Simulations per decision refused above this."""
MAX_SECONDS = 3600.0
"""Seconds per decision refused above this."""

_SPELLING = re.compile(r"^(mcts|ismcts)(?::([^:]*))?(?::([^:]*))?$")


class SearchSpelling(tuple):
    """``(kind, simulations, seconds, rollout)`` of a search bot's name (one of
    ``simulations``/``seconds`` is ``None``; ``rollout`` ``None``: the game's default)."""

    kind = property(lambda self: self[0])
    simulations = property(lambda self: self[1])
    seconds = property(lambda self: self[2])
    rollout = property(lambda self: self[3])


def parse_search(name: str, default_simulations: int) -> SearchSpelling | None:
    """The parts of a search bot's name, or ``None`` when ``name`` is no search bot.
    Raises :class:`InputError` for a search bot spelled wrong."""
    m = _SPELLING.match(name)
    if m is None:
        if name.split(":")[0] in SEARCH_KINDS:
            raise InputError(f"--player {name[:40]!r}: expected KIND[:BUDGET][:ROLLOUT], e.g. ismcts:200 or "
                             f"mcts:0.5s:random")
        return None
    kind, budget, rollout = m.group(1), m.group(2), m.group(3)
    simulations: int | None = default_simulations
    seconds: float | None = None
    if budget:
        try:
            if budget.endswith("s"):
                seconds, simulations = float(budget[:-1]), None
                if not 0 < seconds <= MAX_SECONDS:
                    raise ValueError
            else:
                simulations = int(budget)
                if not 1 <= simulations <= MAX_SIMULATIONS:
                    raise ValueError
        except ValueError:
            raise InputError(f"--player {name[:40]!r}: expected a budget of 1 to {MAX_SIMULATIONS} simulations "
                             f"or 0 to {MAX_SECONDS:g} seconds (e.g. 200 or 0.5s), got {budget[:20]!r}") from None
    return SearchSpelling((kind, simulations, seconds, rollout or None))


class _SearchBots(Mapping):
    """A game's own bots, then the search bots (module docstring)."""

    def __init__(self, game: str, own: Mapping[str, Callable[[int, int], Player]]):
        self.game, self.own = game, own

    def __getitem__(self, name: str) -> Callable[[int, int], Player]:
        if name in self.own:
            return self.own[name]
        if parse_search(name, 1) is None:
            raise KeyError(name)
        return lambda seed, seat: _build(self.game, name, seed, seat)

    def __contains__(self, name) -> bool:
        return isinstance(name, str) and (name in self.own or name.split(":")[0] in SEARCH_KINDS)

    def __iter__(self) -> Iterator[str]:
        yield from self.own
        yield from SEARCH_KINDS

    def __len__(self) -> int:
        return len(self.own) + len(SEARCH_KINDS)

    def __reduce__(self):
        return _SearchBots, (self.game, self.own)


def _build(game: str, name: str, seed: int, seat: int) -> Player:
    from furball.extras import require

    require("rl", f"--player {name[:40]}")
    return importlib.import_module(SEARCH_MODULE).search_player(game, name, seed, seat)


def with_search_bots(game: str, own: Mapping[str, Callable[[int, int], Player]]) -> Mapping:
    """``own`` (a game's bots: name -> ``(seed, seat) -> Player``, the first the default)
    followed by the search bots of game ``game`` (its engine name, e.g. ``"canuck"``)."""
    return _SearchBots(game, own)
