"""Whole games and series of games, for any engine with the :mod:`.protocol` shape."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from furball.errors import InputError
from furball.i18n import DEFAULT_LANG, Lang, render_entry, translator

from .protocol import Game, GameState, decide

__all__ = ["GameRecord", "play_game", "play_many", "series_seeds", "MAX_ACTIONS"]

MAX_ACTIONS = 1_000_000
"""A safety net: no shipped game comes near it; reaching it is a bug, reported as such."""


def series_seeds(seed: int, games: int, start: int = 0) -> list[int]:
    """The seeds of games ``start .. start+games-1`` of a series started at ``seed``:
    64-bit integers from ``numpy.random.SeedSequence(seed).spawn(...)`` (child ``i`` is
    ``SeedSequence(seed, spawn_key=(i,))``, so any stretch of the series is made without
    the games before it), and a game's result does not depend on how many workers ran
    the series or in which order. Raises :class:`InputError` for a negative seed."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(f"seed: expected an integer >= 0, got {seed!r}")
    seed = int(seed)
    return [int(np.random.SeedSequence(seed, spawn_key=(i,)).generate_state(1, dtype=np.uint64)[0])
            for i in range(int(start), int(start) + int(games))]


@dataclass(frozen=True)
class GameRecord:
    """One finished game: ``seed``, the bot name of each seat, the final state, its
    result row, and the log as ``(seat or None for set-up, action text or None,
    event lines)`` triples (empty when the log was not kept)."""

    game: str
    seed: int
    players: tuple[str, ...]
    final: GameState
    result: dict
    steps: tuple[tuple[int | None, str | None, tuple[str, ...]], ...]
    entries: tuple[tuple[tuple[str, tuple] | None, tuple[tuple[str, tuple], ...]], ...] = ()
    """Each step's action and log as the engine's ``(template, args)`` entries, where its
    states offer them (``describe_entry`` and ``log_entries``, :mod:`.frozen`; the
    action's ``None`` for the set-up): what :meth:`log_lines` renders in a language
    other than English; empty for an engine without them."""

    def log_lines(self, lang: Lang = DEFAULT_LANG) -> list[str]:
        """The log as text: events, ``> action`` before each decision (``> P2: ...``
        when several seats play), then the outcome lines. ``lang``: the reader's
        language (the events from :attr:`entries` where the engine keeps them; an
        action's text and the outcome lines through the catalog)."""
        many = len(self.players) > 1
        localized = lang != Lang.EN
        _ = translator(lang)
        lines = []
        for k, (seat, action, events) in enumerate(self.steps):
            entry, logged = self.entries[k] if localized and k < len(self.entries) else (None, None)
            if seat is not None and action is not None:  # the set-up's entry has neither
                if localized:
                    action = _(action) if entry is None else render_entry(*entry, lang)
                lines.append(f"> P{seat + 1}: {action}" if many else f"> {action}")
            if logged is not None:
                events = tuple(render_entry(template, args, lang) for template, args in logged)
            lines.extend(events)
        if localized and hasattr(self.final, "outcome_entries"):
            lines.extend(render_entry(template, args, lang) for template, args in self.final.outcome_entries())
        else:
            lines.extend(_(line) if localized else line for line in self.final.outcome())
        return lines

    def to_json(self) -> dict:
        return {"game": self.game, "seed": self.seed, "players": list(self.players), "result": self.result,
                "log": [{"player": seat, "action": a, "events": list(e)} for seat, a, e in self.steps]}


def play_game(game: Game, seed: int, players: str | Sequence[str] = "heuristic",
              options: Mapping[str, Any] | None = None, keep_log: bool = True) -> GameRecord:
    """Play one game of ``game`` from ``seed`` with bots (one name for every seat, or
    one per seat). Raises :class:`InputError` for a bad option, seat count or bot name."""
    opts = game.defaults()
    for key, value in (options or {}).items():
        opts[key] = game.option(key).check(value)
    seats = game.seat_count(opts)
    names = (players,) * seats if isinstance(players, str) else tuple(players)
    if len(names) != seats:
        raise InputError(f"{game.name}: expected {seats} players, got {len(names)}")
    bots = [game.player(name, seed, seat) for seat, name in enumerate(names)]
    state = game.new_game(seed, **opts)
    steps: list[tuple[int | None, str | None, tuple[str, ...]]] = []
    entries: list[tuple[tuple[str, tuple] | None, tuple[tuple[str, tuple], ...]]] = []
    keep_entries = keep_log and hasattr(state, "log_entries")
    if keep_log:
        steps.append((None, None, tuple(state.events)))
    if keep_entries:
        entries.append((None, getattr(state, "log_entries", ())))
    if not keep_log and hasattr(state, "without_log"):
        state = state.without_log()  # optional protocol member: no log lines formatted
    for _ in range(MAX_ACTIONS):
        seat = state.current_player()
        if seat is None:
            break
        action = decide(bots[seat], state, seat)
        text = state.describe(action) if keep_log else None
        entry = state.describe_entry(action) if keep_entries and hasattr(state, "describe_entry") else None
        state = state.apply(action)
        if keep_log:
            steps.append((seat, text, tuple(state.events)))
        if keep_entries:
            entries.append((entry, getattr(state, "log_entries", ())))
    else:  # pragma: no cover - a bug, not a user mistake
        raise RuntimeError(f"{game.name} seed {seed}: no end after {MAX_ACTIONS} actions")
    return GameRecord(game.name, int(seed), names, state, state.result(), tuple(steps), tuple(entries))


def play_many(game: Game, games: int, seed: int, players: str | Sequence[str] = "heuristic",
              options: Mapping[str, Any] | None = None,
              progress: Callable[[Iterable[int]], Iterable[int]] | None = None) -> list[dict]:
    """Play ``games`` games (seeds from :func:`series_seeds`) and return one result row
    per game, each with its ``seed`` first."""
    seeds: Iterable[int] = series_seeds(seed, games)
    if progress is not None:
        seeds = progress(seeds)
    rows = []
    for s in seeds:
        record = play_game(game, s, players, options, keep_log=False)
        rows.append({"seed": s, **record.result})
    return rows
