"""A mutable working copy of a Yorktown position, used while one action resolves.

:class:`Work` copies the state's fields (tuples become lists), offers the primitive
moves every rule uses — dice, fuel payments, crashes, the clock, Japanese tokens, the
end checks — and freezes the result back into a state of the same class (so this
module needs no import of :mod:`.state`).

Log lines are kept as ``(format, args)`` pairs and formatted only when a state's
``events`` are read, so games played without a log do no string formatting.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .actions import PLANES, EndReason, Phase, PlaneType
from .board import ISLANDS

if TYPE_CHECKING:
    from .state import State

__all__ = ["Work", "LISTS"]

LISTS = ("deck", "discard", "japanese", "supply", "loc", "fuel", "skill", "side_b", "load", "tile", "choice",
         "done", "weather", "revealed")
"""State fields copied as lists (the others are plain values)."""
BLOCK = 64
"""Dice drawn from numpy at a time."""


class Work:
    """A mutable copy of a :class:`~.state.State` (same field names, lists for tuples)."""

    def __init__(self, state: State):
        d = self.__dict__
        d.update(state.__dict__)
        for k in LISTS:
            d[k] = list(d[k])
        self.board = state.setup.board
        self.rules = state.setup.rules
        self.time = state.setup.time
        self.entries: list = []
        self._rng = None
        self._dice: list[int] = []
        self.step = state.step + 1
        self._key = [state.seed, state.step]
        self._cls = type(state)

    # -- randomness ----------------------------------------------------------
    @property
    def rng(self) -> np.random.Generator:
        """This step's generator ``default_rng([seed, step])``, made on first use."""
        if self._rng is None:
            self._rng = np.random.default_rng(self._key)
        return self._rng

    def draw(self, n: int) -> list[int]:
        """``n`` die faces 1–6 (drawn from numpy in blocks of :data:`BLOCK`)."""
        while len(self._dice) < n:
            self._dice.extend(self.rng.integers(1, 7, size=BLOCK).tolist())
        out, self._dice = self._dice[:n], self._dice[n:]
        return out

    # -- log -----------------------------------------------------------------
    def log(self, fmt: str, *args) -> None:
        """Add a log line ``fmt.format(*args)`` (formatted only if read)."""
        self.entries.append((fmt, args))

    def where(self, node: int | None) -> str:
        """A node's name for the log."""
        return self.board.labels[node] if node is not None else "out of the game"

    # -- clock (YT.S4, YT.E2) ------------------------------------------------
    def spend(self, seconds: int) -> bool:
        """Advance the clock; at the limit the game is lost. Returns whether it goes on."""
        if self.over is not None:
            return False
        self.clock += seconds
        if self.clock >= self.setup.limit:
            self.clock = self.setup.limit
            self.end(EndReason.TIME, "  the timer rings: time is up (YT.E2)")
            return False
        return True

    def on_throw(self) -> bool:
        """The clock of one throw of the dice (YT.S4)."""
        self.throws += 1
        return self.spend(self.time.throw)

    def decision_time(self, seconds: int, p: int | None) -> bool:
        """A choice or an action of plane ``p``: novices take ``novice_extra`` longer."""
        if p is not None and self.setup.novice(p):
            seconds += self.time.novice_extra
        return self.spend(seconds)

    # -- the end (YT.E1, YT.E2) -------------------------------------------------
    def end(self, reason: EndReason, text: str) -> None:
        """End the game (YT.E1, YT.E2) with ``reason``, logging ``text``; the first end wins."""
        if self.over is None:
            self.over = reason
            self.phase = Phase.OVER
            self.acting = None
            self.log(text)

    # -- fuel and crashes (YT.A6) ------------------------------------------------
    def pay(self, p: int, n: int) -> bool:
        """Spend ``n`` fuel; with too little the plane crashes (YT.A6). Returns whether
        it could pay."""
        if self.fuel[p] >= n:
            self.fuel[p] -= n
            return True
        self.fuel[p] = 0
        self.log("  {} needs fuel and has none left: it crashes (YT.A6)", self.name(p))
        self.crash(p, hurt=True)
        return False

    def crash(self, p: int, hurt: bool) -> None:
        """YT.A6: −3 skill if the pilot is hurt; the cockpit flips to side B and the plane
        restarts on the runway with full fuel; a crash on side B eliminates it."""
        r = self.rules
        self.crashes += 1
        if self.load[p] is not None:
            self.load[p] = None
        if hurt:
            self.skill[p] = max(0, self.skill[p] - r.hurt)
            self.log("  the pilot is hurt: skill -{} (now {} points, {} dice)", r.hurt, self.skill[p],
                     r.dice_for(self.skill[p]))
        if self.side_b[p]:
            self.loc[p] = None
            self.log("  {} crashed on cockpit side B: eliminated (YT.A6)", self.name(p))
            if all(x is None for x in self.loc):
                self.end(EndReason.NO_PLANES, "  no Allied plane is left (YT.E2)")
        else:
            self.side_b[p] = True
            self.loc[p] = self.board.runway
            self.fuel[p] = r.fuel_max
            self.log("  {}: cockpit card flipped to side B; back on the runway with fuel {} (YT.A6)",
                     self.name(p), r.fuel_max)

    def gain_skill(self, p: int, points: int) -> None:
        """YT.X1: move the medal marker; past ``flip_after`` the card is on its other side."""
        if points <= 0:
            return
        r = self.rules
        before = self.skill[p]
        self.skill[p] = min(r.max_points, before + points)
        flip = " (skill card flipped)" if before <= r.flip_after < self.skill[p] else ""
        self.log("  {} skill +{} -> {} points, {} dice{}", self.name(p), points, self.skill[p],
                 r.dice_for(self.skill[p]), flip)

    @staticmethod
    def name(p: int) -> str:
        """Plane ``p``'s name."""
        return f"Dauntless {p + 1}"

    # -- Japanese tokens -----------------------------------------------------------
    def mask(self) -> int:
        """Occupied islands as a bit mask."""
        return sum(1 << k for k in range(ISLANDS) if self.japanese[k])

    def pool_index(self, t: PlaneType) -> int:
        """Index in ``supply`` of plane type ``t``'s token pool."""
        return self.setup.deck.pool_order[self.setup.deck.planes[t].pool]

    def remove_japanese(self, k: int, t: PlaneType) -> None:
        """A plane shot down on island ``k``: its token goes back to the reserve."""
        planes = list(self.japanese[k])
        planes.remove(t)
        self.japanese[k] = tuple(planes)
        self.supply[self.pool_index(t)] += 1
        self.shot_down += 1

    # -- freezing ------------------------------------------------------------------
    def freeze(self) -> State:
        """The new immutable state, one step later (built without re-running the
        dataclass ``__init__``: every field is copied from this working copy)."""
        d = self.__dict__
        values = {k: d[k] for k in self._cls.__dataclass_fields__}
        for k in LISTS:
            values[k] = tuple(values[k])
        values["log_entries"] = tuple(self.entries)
        new = object.__new__(self._cls)
        new.__dict__.update(values)
        return new

    def alive(self) -> list[int]:
        """Planes still in the game."""
        return [p for p in range(PLANES) if self.loc[p] is not None]
