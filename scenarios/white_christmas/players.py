"""Bots for 1975 White Christmas. A bot sees only its seat's :class:`~.state.Observation`
(the public table, its own hand, radar tokens, orders and inspected staircases) and
picks one of ``observation.legal``.

* :class:`RandomPlayer`: a kind of action uniformly among the legal kinds, then one
  action of that kind uniformly (so the many flights and bids do not swamp the menu).
* :class:`HeuristicPlayer`: values every legal action in VP and plays the best (ties to
  the first listed): it flies empty helicopters to the rooftops worth most to them and
  full ones home to unload, rescues the People its helicopters score most for, completes
  special orders and carrier upgrades (which also free carrier space), takes the cards
  whose actions it can use, and bids for a sighting when it is worth more than the tokens
  and it can outbid what the others can show, else bids its low tokens for 1 VP each.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from . import actions as A
from .actions import PHASE_NUMBER, ROUNDS, ActionKind as K, Phase, Stairs
from .components import MODELS, ROW, Bonus, Extra, Icon
from .options import free_spaces, special_options, special_possible
from .state import Observation
from .turns import EXTRA_ICON

__all__ = ["RandomPlayer", "HeuristicPlayer", "PLAYERS"]

PLAYERS = ("heuristic", "random")
TOKEN = 1.0
"""What a radar token is worth kept (1 VP when bid on a lost sighting; Cessna totals)."""
BASE = {Icon.RADAR: TOKEN, Icon.INFLUENCE: 0.8, Icon.MOVE: 0.5, Icon.SPECIAL_ORDER: 0.5, Icon.RESCUE: 0.5}
"""A card action's worth in phase 2 before anything is known about its details."""
EXTRA_WORTH = {Extra.INFLUENCE: 1.5, Extra.DOUBLE_MOVE: 2.5, Extra.DOUBLE_SPECIAL_ORDER: 3.0, Extra.RESCUE: 2.0}
PASSENGER = 1.5
LEAD = 2.5
"""Solo: what taking or keeping the influence lead from Captain Chambers is worth (WC.H2)."""
UPGRADE_EFFECT = {1: 2.0, 2: 2.0, 3: 1.0, 4: 0.8, 5: 2.5}
TRACK_WORTH = {Bonus.VP: 1.0, Bonus.RADAR: TOKEN, Bonus.INFLUENCE: 1.0, Bonus.MOVE: 0.8, Bonus.RESCUE: 1.0,
               Bonus.SPECIAL_ORDER: 1.0}
"""What an influence space's effect is worth."""


class RandomPlayer:
    """Uniform random legal play, two levels (kind, then action); seeded."""

    name = "random"

    def __init__(self, seed: int = 0, seat: int = 0):
        self.rng = np.random.default_rng([int(seed), 104729, int(seat)])

    def choose(self, obs: Observation):
        by_kind = defaultdict(list)
        for a in obs.legal:
            by_kind[a.kind].append(a)
        kinds = list(by_kind)
        options = by_kind[kinds[int(self.rng.integers(len(kinds)))]] if len(kinds) > 1 else by_kind[kinds[0]]
        return options[int(self.rng.integers(len(options)))] if len(options) > 1 else options[0]


_SUMS: dict = {}


def _best_sum(card, people: tuple, room: int) -> float:
    """The ``room`` best VP of ``people`` for helicopter side ``card`` (memoised: rooftops
    change slowly, so the same question comes back decision after decision)."""
    key = (id(card), people, room)
    hit = _SUMS.get(key)
    if hit is None:
        vp = card.table
        values = sorted((vp.get(p, 0) for p in people), reverse=True)
        if len(_SUMS) > 50_000:
            _SUMS.clear()
        hit = _SUMS[key] = float(sum(values[:room]))
    return hit


class _View:
    """Per-decision valuations from one observation (each computed once, on demand)."""

    __slots__ = ("o", "comp", "me", "seat", "cards", "rooms", "own", "reach", "_potential", "_uses", "_cards",
                 "_prospects")

    def __init__(self, o: Observation):
        self.o = o
        self.comp = comp = o.setup.comp
        self.me = me = o.sides[o.seat]
        self.seat = o.seat
        self.cards = tuple(h.night if night else h.day for h, night in zip(comp.helicopters, me.night))
        self.rooms = tuple(c.capacity - len(a) for c, a in zip(self.cards, me.aboard))
        self.own = o.table.carriers[o.seat]
        self.reach = o.table.reach
        self._potential = {}
        self._uses = {}
        self._cards = {}
        self._prospects = None

    def potential(self, i: int, slot: str) -> float:
        """VP helicopter i could rescue from ``slot`` (as Chambers counts it, WC.H6)."""
        key = (i, slot)
        hit = self._potential.get(key)
        if hit is None:
            b = self.o.board
            k = self.o.table.roof_of[slot]
            people = b.roofs[k] + b.stairs[k] if b.stairs else b.roofs[k]
            hit = self._potential[key] = _best_sum(self.cards[i], people, self.rooms[i])
        return hit

    def unload_value(self, i: int) -> float:
        aboard = sorted((self.cards[i].table.get(p, 0) for p in self.me.aboard[i]), reverse=True)
        return float(sum(aboard[:max(0, free_spaces(self.me))]))

    def move_value(self, model, dest: str) -> float:
        i = MODELS.index(model)
        here = self.me.at[i]
        on_roof = here in self.reach
        if dest == self.own:
            if not self.me.aboard[i]:
                return -1.0
            full = 0.5 if self.rooms[i] == 0 else 0.0
            return self.unload_value(i) + full - (0.3 * self.potential(i, here) if on_roof else 0.0)
        lost = sum(self.cards[i].table.get(p, 0) for p in self.me.aboard[i]) if here == self.own else 0.0
        gain = self.potential(i, dest) - (self.potential(i, here) if on_roof else 0.0)
        return 0.6 * gain - lost - (2.0 if self.rooms[i] == 0 else 0.0)

    def best_move(self) -> float:
        """The best :meth:`move_value` of the legal flights: per helicopter, its own carrier
        or the free slot of highest potential (the value grows with the potential)."""
        best, top = -1.0, {}
        for m, d in self.o.queries.moves(self.seat):
            if d != self.own:
                pot = self.potential(MODELS.index(m), d)
                if top.get(m, -1.0) >= pot:
                    continue
                top[m] = pot
            value = self.move_value(m, d)
            if value > best:
                best = value
        return best

    def rescue_value(self, model, person) -> float:
        return self.cards[MODELS.index(model)].table.get(person, 0) + 0.4

    def best_rescue(self, person) -> float:
        best = -1.0
        for m, _, p in self.o.queries.rescues(self.seat, person):
            value = self.rescue_value(m, p)
            if value > best:
                best = value
        return best

    def special_value(self, kind: str, index: int, paid) -> float:
        if kind == "order":
            return self.comp.orders[index].vp + 0.3 * len(paid)
        up = self.comp.upgrades[index - 1]
        effect = UPGRADE_EFFECT[index] * (ROUNDS - self.o.board.round + 1) / ROUNDS
        cost = TOKEN * len(paid) if index == 4 else -0.3 * len(paid)
        return up.vp + effect - cost

    def best_special(self) -> float:
        o = self.o
        colour, radar, row = o.setup.colours[self.seat], o.own.radar, o.board.orders_row
        if not special_possible(self.comp, self.me, colour, radar, row):
            return -1.0
        return max((self.special_value(*x) for x in special_options(self.comp, self.me, colour, radar, row)),
                   default=-1.0)

    def influence_value(self) -> float:
        nxt = self.me.influence + 1
        if nxt > self.comp.influence.spaces:
            return -1.0
        bonus = self.o.setup.track[nxt]
        threshold = 1.0 if nxt == self.comp.influence.threshold and not self.me.upgrades[0] else 0.0
        return BASE[Icon.INFLUENCE] + TRACK_WORTH.get(bonus, 0.0) + threshold + self.lead_value(nxt)

    def lead_value(self, nxt: int) -> float:
        """Against Captain Chambers, leading the track denies him 1 VP per phase (WC.H2):
        worth more the more phases are left, when the advance takes or keeps the lead."""
        ch = self.o.setup.chambers
        if ch is None:
            return 0.0
        his = self.o.sides[ch].influence
        if nxt < his or nxt > his + 1:
            return 0.0
        b = self.o.board
        left = (ROUNDS - b.round) * 3 + (3 - PHASE_NUMBER[b.phase])
        return LEAD * min(left, 4) / 4

    def use_value(self, icon: Icon, person=None) -> float:
        """The best this seat can do now with action ``icon`` (cached per decision)."""
        key = (icon, person)
        hit = self._uses.get(key)
        if hit is None:
            if icon == Icon.RADAR:
                hit = TOKEN if self.o.board.radar_left else -1.0
            elif icon == Icon.INFLUENCE:
                hit = self.influence_value()
            elif icon == Icon.MOVE:
                hit = self.best_move()
            elif icon == Icon.RESCUE:
                hit = self.best_rescue(person)
            else:
                hit = self.best_special()
            self._uses[key] = hit
        return hit

    def card_value(self, card_id: int) -> float:
        """A card's worth for phase 2 (its best action, roughly)."""
        face = self.comp.faces[card_id]
        hit = self._cards.get(face)
        if hit is None:
            card = self.comp.cards[card_id]
            hit = 0.0
            for use in card.uses():
                value = self.prospect(card.rescue) if use == Icon.RESCUE else BASE[use] + (0.5 if card.wild else 0.0)
                if value > hit:
                    hit = value
            self._cards[face] = hit
        return hit

    def prospect(self, person) -> float:
        """Half the best VP a helicopter with a free seat scores for ``person`` (any type
        for ``None``) if one is on the board: a card's Rescue is worth that much later."""
        best = self._prospects
        if best is None:
            b = self.o.board
            present = set()
            for people in b.roofs + (b.stairs if b.stairs_state == Stairs.REVEALED else ()):
                present.update(people)
            best = {None: 0.0}
            for card, room in zip(self.cards, self.rooms):
                if room > 0:
                    for p in present:
                        v = 0.5 * card.table.get(p, 0)
                        if v > best.get(p, 0.0):
                            best[p] = v
                        if v > best[None]:
                            best[None] = v
            self._prospects = best
        return best.get(person, 0.0)


class HeuristicPlayer:
    """Values every legal action in VP and plays the best (see the module docstring);
    deterministic, and it reads nothing but its observation."""

    name = "heuristic"

    def __init__(self, seed: int = 0, seat: int = 0):
        self.seed = seed

    def choose(self, o: Observation):
        legal = o.legal
        if len(legal) == 1:
            return legal[0]
        if o.board.phase == Phase.SIGHTING and not o.board.pending:
            return self._bid(o)
        v = _View(o)
        best, best_value = legal[0], float("-inf")
        for a in legal:
            value = self._value(v, a)
            if value > best_value:
                best, best_value = a, value
        return best

    # -- values ------------------------------------------------------------------------
    def _value(self, v: _View, a) -> float:
        k = a.kind
        o = v.o
        if k == K.TAKE:
            card = o.board.row[ROW.index(a.slot)] if a.slot != Icon.INSPECT else None
            if card is None:
                inspected = {r for r, _ in o.own.inspected}
                return 1.0 + 1.2 - (0.3 if a.roof in inspected else 0.0) - 0.01 * a.roof
            return v.use_value(a.slot) + v.card_value(card)
        if k == K.PLAY:
            return v.use_value(a.use, o.setup.comp.cards[a.card].rescue)
        if k == K.FACEUP:
            return v.use_value(a.use, o.setup.comp.cards[o.me.faceup].rescue) - 0.6
        if k == K.DISCARD:
            return -0.5
        if k == K.EXTRA:
            now = v.use_value(EXTRA_ICON[a.extra])
            late = o.board.round == ROUNDS and o.board.phase == Phase.PLAY
            return now + (1.0 if late else 0.0) - (0.0 if late else 0.8)
        if k == K.KEEP:
            return 0.0
        if k == K.MOVE:
            return v.move_value(a.heli, a.to)
        if k == K.RESCUE:
            return v.rescue_value(a.heli, a.person)
        if k == K.ORDER:
            return v.special_value("order", a.order, a.people)
        if k == K.UPGRADE:
            return v.special_value("upgrade", a.upgrade, a.tokens or a.people)
        if k == K.REPLACE:
            return -v.card_value(a.card)
        if k == K.UNLOAD:
            return v.cards[MODELS.index(a.heli)].table.get(a.person, 0)
        return -0.05  # pass: only when nothing is worth doing

    # -- bids (WC.F4) ---------------------------------------------------------------------
    def _plan(self, o: Observation) -> tuple[int, ...]:
        """The whole bid this seat wants, from all its tokens (deterministic)."""
        tokens = tuple(sorted(o.own.radar + o.own.bid, reverse=True))
        if not tokens:
            return ()
        card = o.setup.comp.sightings[o.board.sighting]
        worth = sum(PASSENGER for _ in card.passengers[:max(0, free_spaces(o.me))])
        worth += sum(EXTRA_WORTH[e] for e in card.actions)
        need = 0.0
        for i, s in enumerate(o.sides):
            if i == o.seat:
                continue
            if i == o.setup.chambers:   # WC.H5: he will bid as many as this seat holds, plus one
                shown = min(o.me.radar + 1, s.radar)
            else:
                shown = s.bid if s.bid is not None else min(s.radar, 2)
            need = max(need, 3.5 * shown + (0.5 if s.bid is not None else 0.0))
        chosen, total = [], 0
        for t in tokens:
            if total > need:
                break
            chosen.append(t)
            total += t
        if total > need and worth >= TOKEN * len(chosen) + 0.5:
            return tuple(sorted(chosen))
        cheap = tuple(sorted(t for t in tokens if t <= 2))
        return cheap if o.board.round < ROUNDS - 1 else ()

    def _bid(self, o: Observation):
        plan = list(self._plan(o))
        for t in o.own.bid:
            if t in plan:
                plan.remove(t)
        for t in plan:
            if t in o.own.radar:
                return A.bid(t)
        return A.SEAL
