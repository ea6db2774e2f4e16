"""The working copy of a Canuck position while one action resolves.

:class:`Work` is the engine's :class:`~furball.scenarios.engine.frozen.Draft`: it reads
through to the state, keeps the card piles and per-area counts (:data:`PILES`) as lists
while it lives, and adds the primitive moves every rule uses (deck and Axis draws,
filing cards, hitting garrisons, losing counters, the Alba check).
"""
from __future__ import annotations

from ..engine.frozen import Draft
from .actions import piece_name

__all__ = ["Work"]


PILES = ("deck", "reserve", "partisan_discard", "axis_deck", "axis_discard", "removed", "garrison", "groups",
         "leaders", "bases")
"""The state's tuples that are lists while a :class:`Work` lives."""


class Work(Draft):
    """A mutable copy of a Canuck ``State`` while one action resolves (a
    :class:`~furball.scenarios.engine.frozen.Draft` whose :data:`PILES` are lists).

    Offers the primitive moves every rule uses: deck and Axis draws, filing cards,
    hitting garrisons, losing counters, and the Alba liberation check (CN.E3) after
    every change of the map. Rules format their log lines only when ``logging`` is true.
    """

    LISTS = PILES

    def name(self, area: int) -> str:
        return self.board.areas[area]
    # -- cards ---------------------------------------------------------------
    def to_reserve(self, card: int) -> None:
        self.reserve.append(card)
        self.reserve.sort()

    def to_axis_deck(self, card: int) -> None:
        """A black number card joins the Axis deck, which is (re)shuffled (CN.P8):
        the deck is kept sorted and always drawn from at random."""
        self.axis_deck.append(card)
        self.axis_deck.sort()

    def draw_axis(self, n: int) -> list[int]:
        """Draw ``n`` black cards at random from the Axis deck (CN.P2), reshuffling the
        Axis discard pile into a new deck whenever it is empty. Engine convention: if
        both are empty, fewer cards are drawn (cards drawn by the current operation
        are not in the discard pile until it ends)."""
        drawn = []
        for _ in range(n):
            if not self.axis_deck:
                if not self.axis_discard:
                    if self.logging:
                        self.log("  the Axis deck and discard pile are empty: {} of {} cards drawn", len(drawn), n)
                    break
                self.axis_deck, self.axis_discard = sorted(self.axis_discard), []
                self.log("  the Axis discard pile is shuffled into a new Axis deck (CN.P2)")
            drawn.append(self.axis_deck.pop(self.pick(len(self.axis_deck))))
        return drawn

    def discard(self, red: list[int], black: list[int]) -> None:
        """Played red cards to the Partisan discard pile, drawn black cards to the Axis
        discard pile (CN.P8)."""
        self.partisan_discard.extend(red)
        self.partisan_discard.sort()
        self.axis_discard.extend(black)
        self.axis_discard.sort()

    def take_from_reserve(self, cards) -> list[int]:
        for c in cards:
            self.reserve.remove(c)
        return list(cards)

    # -- map -----------------------------------------------------------------
    def check_alba(self) -> None:
        """CN.E3: record that Alba has been liberated at this moment."""
        a = self.board.alba
        if not self.alba_liberated_once and self.garrison[a] == 0 and self.groups[a] + self.leaders[a] > 0:
            self.alba_liberated_once = True
            self.log("  Alba is liberated (CN.E3)")

    def hit_garrison(self, area: int, loss: int) -> None:
        """The garrison in ``area`` loses ``loss`` strength; at 0 or less its die is
        removed and the Partisan scores 1 VP (CN.P6, CN.F2f, CN.F2g)."""
        before = self.garrison[area]
        after = before - loss
        if after <= 0:
            self.garrison[area] = 0
            self.vp += 1
            if self.logging:
                self.log("  garrison in {} {} -> removed: +1 VP (VP {})", self.name(area), before, self.vp)
        else:
            self.garrison[area] = after
            if self.logging:
                self.log("  garrison in {} {} -> {}", self.name(area), before, after)
        self.check_alba()

    def remove_counter(self, area: int, piece) -> None:
        """Remove one counter of ``piece`` from ``area``: a Group or a Base becomes
        unused, a Leader is gone for good (CN.P6, CN.F2h)."""
        kind = str(piece)
        if kind == "group":
            self.groups[area] -= 1
            self.unused_groups += 1
        elif kind == "leader":
            self.leaders[area] -= 1
            self.lost_leaders += 1
        else:
            self.bases[area] -= 1
            self.unused_bases += 1
        if self.logging:
            self.log("  lost in {}: {}", self.name(area), piece_name(kind))
        self.check_alba()

    def finish_option(self, red=(), black=()) -> None:
        """The end of an option: discard the cards it used, last ("lo último que hace
        el Partisano es descartar", CN.P8, CN.P12), then owe 1 draw from the deck."""
        self.discard(list(red), list(black))
        self.pending = None
        self.draws_due += 1
