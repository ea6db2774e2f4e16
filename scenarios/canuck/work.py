"""A mutable working copy of a Canuck position, used while one action resolves.

:class:`Work` offers the primitive moves every rule uses (deck and Axis draws, filing
cards, hitting garrisons, losing counters, the Alba check) and freezes the result back
into an immutable state of the same class as the one it copied (so this module needs
no import of :mod:`.state`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.steprng import StepRng

if TYPE_CHECKING:
    from .state import State


__all__ = ["Work"]


PILES = ("deck", "reserve", "partisan_discard", "axis_deck", "axis_discard", "removed", "garrison", "groups",
         "leaders", "bases")
"""The state's tuples that a :class:`Work` turns into lists when a rule first uses them."""
CACHES = ("_legal", "_legal_checked")
"""What a state remembers about itself (its legal actions), not copied to the next one."""


class Work:
    """A mutable copy of a :class:`State` used while one action resolves.

    Offers the primitive moves every rule uses: deck and Axis draws, filing cards,
    hitting garrisons, losing counters, and the Alba liberation check (CN.E3) after
    every change of the map. The card piles and per-area counts (:data:`PILES`) are
    copied into lists the first time a rule reads them; the others are frozen back as
    the very tuples they were.
    """

    def __init__(self, state: State):
        self.s = state
        self.board = state.board
        self.unused_groups = state.unused_groups
        self.unused_bases = state.unused_bases
        self.lost_leaders = state.lost_leaders
        self.vp = state.vp
        self.alba_liberated_once = state.alba_liberated_once
        self.red_faces = state.red_faces
        self.options = state.options
        self.draws_due = state.draws_due
        self.pending = state.pending
        self.over = state.over
        self.events: list[str] = []
        self.logging = state.logging  # rules format their log lines only when this is true
        self._rng = None
        self._piles: list[str] = []  # the piles copied into lists so far

    def __getattr__(self, name: str):
        """The first use of a pile: a list copy of the state's tuple (kept from then on)."""
        if name in PILES:
            value = list(getattr(self.s, name))
            setattr(self, name, value)
            self._piles.append(name)
            return value
        raise AttributeError(name)

    # -- randomness ----------------------------------------------------------
    @property
    def rng(self) -> StepRng:
        """This step's generator: the draws of ``numpy.random.default_rng([seed, step])``
        (:mod:`scenarios.engine.steprng`), made on first use."""
        if self._rng is None:
            self._rng = StepRng(self.s.seed, self.s.step)
        return self._rng

    def pick(self, n: int) -> int:
        """A uniform random index in ``range(n)`` (``0`` without a draw when n == 1)."""
        return 0 if n == 1 else self.rng.integers(n)

    # -- log -----------------------------------------------------------------
    def log(self, text: str) -> None:
        """Add a log line (kept only when the state keeps a log; a line that takes work
        to format is guarded by ``if w.logging`` where it is made)."""
        if self.logging:
            self.events.append(text)

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
                        self.log(f"  the Axis deck and discard pile are empty: {len(drawn)} of {n} cards drawn")
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
                self.log(f"  garrison in {self.name(area)} {before} -> removed: +1 VP (VP {self.vp})")
        else:
            self.garrison[area] = after
            if self.logging:
                self.log(f"  garrison in {self.name(area)} {before} -> {after}")
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
            self.log(f"  lost in {self.name(area)}: {'the Base' if kind == 'base' else 'a ' + kind.capitalize()}")
        self.check_alba()

    def finish_option(self, red=(), black=()) -> None:
        """The end of an option: discard the cards it used, last ("lo último que hace
        el Partisano es descartar", CN.P8, CN.P12), then owe 1 draw from the deck."""
        self.discard(list(red), list(black))
        self.pending = None
        self.draws_due += 1

    # -- freezing ------------------------------------------------------------
    def freeze(self):
        """The new immutable state (same class as the copied one), one step later.
        Built from a copy of the old state's fields (not through the dataclass
        ``__init__``, which sets them one by one); a pile left as it was stays the very
        same tuple."""
        s = self.s
        new = object.__new__(type(s))
        fields = new.__dict__
        fields.update(s.__dict__)
        for cache in CACHES:
            fields.pop(cache, None)
        mine = self.__dict__
        for name in self._piles:
            value = tuple(mine[name])
            if value != fields[name]:
                fields[name] = value
        fields.update(step=s.step + 1, unused_groups=self.unused_groups, unused_bases=self.unused_bases,
                      lost_leaders=self.lost_leaders, vp=self.vp, alba_liberated_once=self.alba_liberated_once,
                      red_faces=self.red_faces, options=self.options, draws_due=self.draws_due,
                      pending=self.pending, over=self.over, events=tuple(self.events))
        return new
