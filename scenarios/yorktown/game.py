"""1942 USS Yorktown as a :class:`scenarios.engine.Game`: whole games, series, summaries.

The same seed gives the same log byte for byte; a series of games started at ``seed``
uses :func:`scenarios.engine.series_seeds`.
"""
from __future__ import annotations

from collections.abc import Iterable

from furball.errors import InputError
from furball.i18n import N_

from ..engine import Game, GameInfo, Information, Option, Summary, Utility, summarise
from ..engine.search import with_search_bots
from .actions import Difficulty, EndReason
from .board import load_map
from .deck import load_deck
from .players import HeuristicPlayer, RandomPlayer
from .state import new_game
from .tables import check_expansions, load_time

__all__ = ["YORKTOWN", "summary", "RESULTS", "ENDS"]

RESULTS = ("victory", "defeat")
ENDS = tuple(e.value for e in EndReason)
MAX_LENGTH = 5_000
"""The most decisions a game may take: every decision but a few costs clock seconds, and
the longest of 1,200 random and heuristic games (1 and 3 players, with and without the
expansions) took 116."""
INFO = GameInfo(Utility.IDENTICAL, 0.0, 1.0, MAX_LENGTH)
"""The facts of every Yorktown game: cooperative, every seat 1 for a victory (the
Shōhō sunk), else 0."""


def _players(text) -> int:
    """The ``players`` option: 1-4. Raises :class:`InputError`."""
    try:
        value = int(text)
    except (TypeError, ValueError):
        value = 0
    if not 1 <= value <= 4:
        raise InputError(f"--players {str(text)[:20]!r}: expected 1 to 4")
    return value


def _new_game(seed, players=1, difficulty=Difficulty.NORMAL, novices=0, map=None, deck=None, expansions=frozenset(),
              time=None):
    return new_game(seed, players=players, difficulty=difficulty, novices=novices, map=map, deck=deck,
                    expansions=expansions, time=time)


YORKTOWN = Game(
    name="yorktown", title="1942 USS Yorktown",
    new_game=_new_game,
    players=with_search_bots("yorktown", {"heuristic": lambda seed, seat: HeuristicPlayer(seed, seat),
                                          "random": lambda seed, seat: RandomPlayer(seed, seat)}),
    min_players=1, max_players=4,
    options=(
        Option(N_("players"), _players, 1, N_("players, 1-4 (they share the four planes)"), (1, 2, 3, 4)),
        Option(N_("difficulty"), str, Difficulty.NORMAL, N_("easy (35 min), normal (30) or hard (25)"), tuple(Difficulty)),
        Option(N_("novices"), int, 0, N_("novice players (+2 minutes each)")),
        Option("map", load_map, None, "an archipelago file (TOML); default: the shipped reconstruction"),
        Option("deck", load_deck, None, "a Japanese deck file (TOML); default: the shipped reconstruction"),
        Option(N_("expansions"), check_expansions, frozenset(), N_("comma-separated: expert, tank, weather (or none)")),
        Option("time", load_time, None, "a time-model file (TOML); default: the shipped model"),
    ),
    seats=lambda opts: int(opts.get("players", 1)),
    notes=N_("cooperative, 1-4 players; rules YT.*"),
    information=Information.IMPERFECT, info=lambda first: INFO,
)
"""The game descriptor: seats = ``players``; options as above."""


def summary(rows: Iterable[dict], label: str) -> Summary:
    """Win rate, causes of the end, mean simulated minutes and turns, damage, throws, and
    how often the expansions were used (95 % intervals)."""
    return summarise(rows, label, columns=["result", "end", "minutes", "turns", "shoho_damage", "yorktown_damage",
                                           "throws", "tiles_played", "tanks_used", "weather_searches"],
                     categories={"result": RESULTS, "end": ENDS})
