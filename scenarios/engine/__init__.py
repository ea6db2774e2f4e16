"""The shape every card- and board-game engine of furball shares (OpenSpiel-like).

A game engine lives in ``scenarios/<game>/`` and offers:

* an immutable state (:class:`GameState`): ``current_player()``, ``legal_actions()``,
  ``apply(action)`` (a new state; an illegal action raises :class:`IllegalAction` and
  changes nothing), ``is_terminal()``, ``returns()``, ``observation(player)`` (what that
  player may see: bots receive only this), ``observation_string(player)`` (the same as
  text, for the terminal), ``describe(action)``, ``events`` (log lines of the last
  transition), ``outcome()`` (the closing lines of a finished game) and ``result()``
  (one flat row of results, for tables and sweeps); optionally, for simultaneous nodes
  (several seats acting on one state, the dogfight's planning), ``current_players()``,
  ``awaited_players()`` and ``legal_actions_for(seat)`` (:class:`SimultaneousState`);
* players (:class:`Player`): ``choose(observation) -> action``, built from a seed;
* a :class:`Game` descriptor that names all of this as data.

With that, whole games, Monte Carlo series, summary tables with 95 % intervals and the
interactive terminal loop are written once (:mod:`.runner`, :mod:`.stats`).

The modules: :mod:`.protocol` (the shapes above, the game's facts); :mod:`.registry`
(every game's engine, CLI, room view and RL modules, by name, imported on demand);
:mod:`.runner` and :mod:`.stats`; :mod:`.sweep` and :mod:`.cluster` (many games at every
point of a grid, in worker processes or on a Dask cluster); :mod:`.search` (the search
bots every game offers); :mod:`.frozen` (the immutable-state helpers the card engines
share).
Randomness: a game is reproducible from one integer seed; a series of N games started
at seed S uses the seeds :func:`series_seeds` derives with ``numpy.random.SeedSequence``.
"""
from .protocol import (
           TERMINAL,
           Game,
           GameInfo,
           GameState,
           IllegalAction,
           Information,
           Option,
           Player,
           SimultaneousState,
           Utility,
           acting_seats,
           awaited_seats,
           decide,
           seat_actions,
)
from .runner import GameRecord, play_game, play_many, series_seeds
from .stats import ColumnSummary, Summary, mean_interval, proportion_interval, summarise

__all__ = ["Game", "GameInfo", "Information", "Utility", "GameState", "IllegalAction", "Option", "Player", "TERMINAL",
           "decide", "SimultaneousState", "acting_seats", "awaited_seats", "seat_actions", "GameRecord", "play_game",
           "play_many", "series_seeds", "ColumnSummary", "Summary", "mean_interval", "proportion_interval",
           "summarise"]
