"""Operation Canuck as a :class:`scenarios.engine.Game`: whole games, series, summaries.

A game is reproducible: ``play_game(seed, player)`` uses ``new_game(seed)`` and a
player seeded with ``seed``, so the same seed gives the same log byte for byte. A series
of games started at ``seed`` uses :func:`scenarios.engine.series_seeds`.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from furball.i18n import N_

from ..engine import Game, GameInfo, GameRecord, Information, Option, Summary, Utility, summarise
from ..engine import play_game as _play_game
from ..engine import play_many as _play_many
from ..engine.search import with_search_bots
from .actions import Band, EndReason
from .board import CanuckMap, load_map
from .placement import SetUp, free_placement
from .players import HeuristicPlayer, RandomPlayer
from .state import new_game

__all__ = ["CANUCK", "play_game", "play_many", "summary", "BANDS", "ENDS", "MAX_VP", "MAX_LENGTH"]

MAX_VP = 100
"""The returns' upper bound (VP). No rule caps VP; the engine only adds them, and no game
of thousands played by the random and heuristic bots came near 40."""
MAX_LENGTH = 2_000
"""The most decisions a game may take. No rule bounds it; the longest of 3,000 random and
3,000 heuristic games took 113 (a test plays games and checks the bound)."""
INFO = GameInfo(Utility.GENERAL_SUM, 0.0, float(MAX_VP), MAX_LENGTH)
"""The facts of every Canuck game: the VP total (CN.E4), never below 0."""

BANDS = tuple(b.value for b in Band)
ENDS = tuple(e.value for e in EndReason)

def _new_game(seed: int, map: CanuckMap | None = None, setup: str = SetUp.DEFAULT):
    return new_game(seed, map, placement=free_placement if setup == SetUp.FREE else None)


CANUCK = Game(
    name="canuck", title="Operation Canuck",
    new_game=_new_game,
    players=with_search_bots("canuck", {"heuristic": lambda seed, seat: HeuristicPlayer(seed),
                                        "random": lambda seed, seat: RandomPlayer(seed)}),
    options=(Option("map", load_map, None, N_("a Canuck map file (TOML); default: the shipped reconstruction")),
             Option(N_("setup"), str, SetUp.DEFAULT.value, N_("CN.S3: the default stacks in the BASE* areas, or the "
                                                          "free set-up next to the weakest garrisons"),
                    tuple(s.value for s in SetUp))),
    notes=N_("solitaire; rules CN.*"),
    information=Information.IMPERFECT, info=lambda first: INFO,
)
"""The game descriptor: one seat (the Partisan); options ``map`` (a :class:`CanuckMap`)
and ``setup`` (:class:`~.placement.SetUp`: ``default`` or ``free``, CN.S3)."""


def play_game(seed: int, player: str = "heuristic", board: CanuckMap | None = None,
              keep_log: bool = True) -> GameRecord:
    """Play one game with the named bot (``heuristic`` or ``random``) on ``board``
    (default: the shipped map)."""
    return _play_game(CANUCK, seed, player, {"map": board}, keep_log=keep_log)


def summary(rows: Iterable[dict], label: str) -> Summary:
    """Bands, end reasons, VP (95 % interval) and game length of result rows, and the
    VP of the games that did not end in deadlock (CN.E2), so a player's strength shows
    apart from how often it stalls."""
    rows = list(rows)
    table = summarise(rows, label, columns=["vp", "band", "end", "options"], categories={"band": BANDS, "end": ENDS})
    alive = [r for r in rows if r["end"] != EndReason.DEADLOCK]
    if not alive:
        return table
    extra = replace(summarise(alive, label, columns=["vp"]).column("vp"), name="vp without deadlock defeats")
    return replace(table, columns=table.columns[:1] + (extra,) + table.columns[1:])


def play_many(games: int, seed: int, player: str, board: CanuckMap | None = None,
              progress: Callable[[Iterable[int]], Iterable[int]] | None = None) -> Summary:
    """Play ``games`` games of a series started at ``seed`` and summarise them."""
    return summary(_play_many(CANUCK, games, seed, player, {"map": board}, progress=progress), f"player {player}")
