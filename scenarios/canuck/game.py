"""Playing whole games: one game with its log, or many with summary statistics.

A game is reproducible: ``play_game(seed, player)`` uses ``new_game(seed)`` and a
player seeded with ``seed``, so the same seed gives the same log byte for byte.
Game ``i`` of a series started at ``seed`` uses seed ``seed + i``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable

import numpy as np
from scipy import stats

from .board import CanuckMap
from .state import END_REASONS, Score, State, new_game

__all__ = ["GameRecord", "play_game", "Summary", "summarise", "BANDS"]

BANDS = ("major", "medium", "minor", "defeat")
MAX_ACTIONS = 100_000  # a safety net; a game makes a few hundred decisions at most


@dataclass(frozen=True)
class GameRecord:
    """One finished game: seed, player, final state and score, and the log as
    ``(action text or None for set-up, event lines)`` pairs."""

    seed: int
    player: str
    final: State
    score: Score
    steps: tuple[tuple[str | None, tuple[str, ...]], ...]

    def log_lines(self) -> list[str]:
        lines = []
        for action, events in self.steps:
            if action is not None:
                lines.append(f"> {action}")
            lines.extend(events)
        s = self.score
        lines.append(f"game over after {self.final.options} options: {END_REASONS.get(s.reason, s.reason)}")
        lines.append(f"VP: operations {s.operations} + Alba {s.alba} = {s.total}: {s.band.upper()}")
        return lines

    def to_json(self) -> dict:
        s = self.score
        return {
            "seed": self.seed, "player": self.player, "map": self.final.board.graph.name,
            "map_provenance": self.final.board.graph.provenance,
            "result": {"vp": s.total, "operations_vp": s.operations, "alba_vp": s.alba, "band": s.band,
                       "end": s.reason, "options": self.final.options,
                       "red_faces": self.final.red_faces},
            "log": [{"action": a, "events": list(e)} for a, e in self.steps],
        }


def play_game(seed: int, player: str = "heuristic", board: CanuckMap | None = None,
              keep_log: bool = True) -> GameRecord:
    """Play one game with the named player (see :mod:`scenarios.canuck.players`)."""
    from .players import make_player
    chooser = make_player(player, seed)
    state = new_game(seed, board)
    steps = [(None, state.events)]
    for _ in range(MAX_ACTIONS):
        if state.over:
            break
        action = chooser.choose(state)
        text = state.describe(action) if keep_log else ""
        state = state.apply(action)
        if keep_log:
            steps.append((text, state.events))
    else:  # pragma: no cover - the deck guarantees an end (docs/canuck.md)
        raise AssertionError(f"seed {seed}: game did not end")
    return GameRecord(seed, player, state, state.score(), tuple(steps))


@dataclass(frozen=True)
class Summary:
    """Statistics of a series of games: band and end-reason counts, mean VP with a
    95 % t confidence interval, and game length in options."""

    games: int
    player: str
    bands: dict
    reasons: dict
    mean_vp: float
    ci_low: float
    ci_high: float
    sd_vp: float
    mean_options: float
    min_options: int
    max_options: int

    def table(self) -> str:
        lines = [f"{self.games} games, player {self.player}",
                 f"{'band':<10} {'games':>7} {'share':>7}"]
        for b in BANDS:
            n = self.bands.get(b, 0)
            lines.append(f"{b:<10} {n:>7} {n / self.games:>7.1%}")
        lines.append(f"mean VP {self.mean_vp:.2f} (95% CI {self.ci_low:.2f} to {self.ci_high:.2f}; sd {self.sd_vp:.2f})")
        lines.append(f"game length: {self.mean_options:.1f} options on average "
                     f"(min {self.min_options}, max {self.max_options})")
        lines.append("ends: " + ", ".join(f"{r} {n}" for r, n in sorted(self.reasons.items())))
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"games": self.games, "player": self.player, "bands": self.bands, "ends": self.reasons,
                "mean_vp": self.mean_vp, "ci95": [self.ci_low, self.ci_high], "sd_vp": self.sd_vp,
                "mean_options": self.mean_options, "min_options": self.min_options,
                "max_options": self.max_options}


def summarise(records: Iterable[tuple[Score, int]], player: str) -> Summary:
    """Summary of ``(score, options)`` pairs (scipy.stats t interval for the mean)."""
    records = list(records)
    vp = np.array([s.total for s, _ in records], dtype=float)
    length = np.array([n for _, n in records], dtype=float)
    n = len(vp)
    mean = float(vp.mean())
    sd = float(vp.std(ddof=1)) if n > 1 else 0.0
    if n > 1 and sd > 0:
        low, high = stats.t.interval(0.95, n - 1, loc=mean, scale=sd / math.sqrt(n))
    else:
        low = high = mean
    bands, reasons = {b: 0 for b in BANDS}, {}
    for s, _ in records:
        bands[s.band] += 1
        reasons[s.reason] = reasons.get(s.reason, 0) + 1
    return Summary(n, player, bands, reasons, mean, float(low), float(high), sd, float(length.mean()),
                   int(length.min()), int(length.max()))


def play_many(games: int, seed: int, player: str, board: CanuckMap | None = None,
              progress: Callable[[Iterable[int]], Iterable[int]] | None = None) -> Summary:
    """Play ``games`` games with seeds ``seed, seed+1, …`` and summarise them."""
    seeds = range(seed, seed + games)
    if progress is not None:
        seeds = progress(seeds)
    results = []
    for s in seeds:
        record = play_game(s, player, board, keep_log=False)
        results.append((record.score, record.final.options))
    return summarise(results, player)
