"""The working copy of a Yorktown position while one action resolves.

:class:`Work` is the engine's :class:`~furball.scenarios.engine.frozen.Draft`: it holds
the state's fields (the tuples of :data:`LISTS` become lists the first time they are
read), draws the step's dice from the step's numpy generator, keeps the log (lines
formatted only when read, none kept for a state without a log) and offers the
primitive moves every rule uses — dice, fuel payments, crashes, the clock, Japanese
tokens, the end checks. :meth:`~furball.scenarios.engine.frozen.Draft.freeze` builds
the next state.
"""
from __future__ import annotations

from furball.i18n import N_

from ..engine.frozen import Draft
from .actions import PLANES, EndReason, Phase, PlaneType
from .board import ISLANDS

__all__ = ["Work", "LISTS"]

LISTS = ("deck", "discard", "japanese", "supply", "loc", "fuel", "skill", "side_b", "load", "tile", "choice",
         "done", "weather", "revealed")
"""State fields that are lists while a :class:`Work` lives (the others are plain values)."""
BLOCK = 64
"""Dice drawn from numpy at a time."""


class Work(Draft):
    """A mutable copy of a :class:`~.state.State` (a
    :class:`~furball.scenarios.engine.frozen.Draft` whose :data:`LISTS` are lists), with
    the game's ``board``, ``rules`` and ``time`` model at hand."""

    LISTS = LISTS
    PRIVATE = Draft.PRIVATE + ("board", "rules", "time", "_dice")

    def __init__(self, state):
        super().__init__(state)
        setup = state.setup
        self.board, self.rules, self.time = setup.board, setup.rules, setup.time
        self._dice: list[int] = []
        # the lists nearly every action reads or writes, made at once (cheaper than on first read)
        self.loc, self.fuel, self.done = list(state.loc), list(state.fuel), list(state.done)

    # -- randomness ----------------------------------------------------------
    def draw(self, n: int) -> list[int]:
        """``n`` die faces 1–6 from this step's generator (drawn in blocks of :data:`BLOCK`)."""
        while len(self._dice) < n:
            self._dice.extend(self.rng.integers(1, 7, size=BLOCK).tolist())
        out, self._dice = self._dice[:n], self._dice[n:]
        return out

    @property
    def entries(self) -> list:
        """The log lines of this transition so far, as ``(template, args)`` pairs."""
        return self._entries

    # -- log -----------------------------------------------------------------
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
            self.end(EndReason.TIME, N_("  the timer rings: time is up (YT.E2)"))
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

    def alive(self) -> list[int]:
        """Planes still in the game."""
        return [p for p in range(PLANES) if self.loc[p] is not None]
