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
from .actions import ROUNDS, ActionKind as K, Phase, Stairs
from .components import MODELS, ROW, Extra, Icon
from .options import free_spaces, heli_side, moves, people_at, rescues, special_options
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
UPGRADE_EFFECT = {1: 2.0, 2: 2.0, 3: 1.0, 4: 0.8, 5: 2.5}


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


class _View:
    """Per-decision valuations from one observation (computed lazily, once)."""

    def __init__(self, o: Observation):
        self.o = o
        self.comp = o.setup.comp
        self.me = o.sides[o.seat]
        self.seat = o.seat
        self.cards = [heli_side(self.comp, self.me, i) for i in range(len(MODELS))]
        self._potential = {}
        self._uses = {}
        self._present = None
        self._cards = {}

    def room(self, i: int) -> int:
        return self.cards[i].capacity - len(self.me.aboard[i])

    def potential(self, i: int, slot: str) -> float:
        """VP helicopter i could rescue from ``slot`` (as Chambers counts it, WC.H6)."""
        key = (i, slot)
        hit = self._potential.get(key)
        if hit is None:
            vp, b = self.cards[i].table, self.o.board
            values = [vp.get(p, 0) for _, roof, st in self.o.table.reach[slot]
                      for p in people_at(b.roofs, b.stairs, roof, st)]
            room = self.room(i)
            if len(values) > room:
                values.sort(reverse=True)
                values = values[:room]
            hit = self._potential[key] = float(sum(values))
        return hit

    def unload_value(self, i: int) -> float:
        aboard = sorted((self.cards[i].value(p) for p in self.me.aboard[i]), reverse=True)
        return float(sum(aboard[:max(0, free_spaces(self.me))]))

    def move_value(self, model, dest: str) -> float:
        i = MODELS.index(model)
        own = self.o.table.carriers[self.seat]
        here = self.me.at[i]
        if dest == own:
            if not self.me.aboard[i]:
                return -1.0
            full = 0.5 if self.room(i) == 0 else 0.0
            return self.unload_value(i) + full - (0.3 * self.potential(i, here) if here in self.o.table.reach else 0)
        lost = sum(self.cards[i].value(p) for p in self.me.aboard[i]) if here == own else 0.0
        gain = self.potential(i, dest) - (self.potential(i, here) if here in self.o.table.reach else 0.0)
        return 0.6 * gain - lost - (2.0 if self.room(i) == 0 else 0.0)

    def best_move(self) -> float:
        options = moves(self.o.table, self.o.sides, self.seat)
        return max((self.move_value(m, d) for m, d in options), default=-1.0)

    def rescue_value(self, model, person) -> float:
        return self.cards[MODELS.index(model)].value(person) + 0.4

    def best_rescue(self, person) -> float:
        b = self.o.board
        options = rescues(self.comp, self.o.table, self.o.sides, b.roofs, b.stairs, self.seat, person)
        return max((self.rescue_value(m, p) for m, _, p in options), default=-1.0)

    def special_value(self, kind: str, index: int, paid) -> float:
        rnd = self.o.board.round
        if kind == "order":
            return self.comp.orders[index].vp + 0.3 * len(paid)
        up = self.comp.upgrades[index - 1]
        effect = UPGRADE_EFFECT[index] * (ROUNDS - rnd + 1) / ROUNDS
        cost = TOKEN * len(paid) if index == 4 else -0.3 * len(paid)
        return up.vp + effect - cost

    def best_special(self) -> float:
        o = self.o
        options = special_options(self.comp, self.me, o.setup.colours[self.seat], o.own.radar, o.board.orders_row)
        return max((self.special_value(*x) for x in options), default=-1.0)

    def influence_value(self) -> float:
        nxt = self.me.influence + 1
        if nxt > self.comp.influence.spaces:
            return -1.0
        bonus = self.o.setup.track[nxt]
        extra = {"vp": 1.0, "radar": TOKEN, "influence": 1.0, "move": 0.8, "rescue": 1.0, "special_order": 1.0}
        threshold = 1.0 if nxt == self.comp.influence.threshold and not self.me.upgrades[0] else 0.0
        return BASE[Icon.INFLUENCE] + extra.get(bonus.value, 0.0) + threshold

    def use_value(self, icon: Icon, person=None) -> float:
        """The best this seat can do now with action ``icon`` (cached per decision)."""
        key = (icon, person)
        hit = self._uses.get(key)
        if hit is None:
            hit = self._uses[key] = self._use_value(icon, person)
        return hit

    def _use_value(self, icon: Icon, person=None) -> float:
        if icon == Icon.RADAR:
            return TOKEN if self.o.board.radar_left else -1.0
        if icon == Icon.INFLUENCE:
            return self.influence_value()
        if icon == Icon.MOVE:
            return self.best_move()
        if icon == Icon.RESCUE:
            return self.best_rescue(person)
        return self.best_special()

    def card_value(self, card_id: int) -> float:
        """A card's worth for phase 2 (its best action, roughly)."""
        card = self.comp.cards[card_id]
        hit = self._cards.get(card)
        if hit is not None:
            return hit
        best = 0.0
        for use in card.uses():
            if use == Icon.RESCUE:
                best = max(best, self._rescue_prospect(card.rescue))
            else:
                best = max(best, BASE[use] + (0.5 if card.wild else 0.0))
        self._cards[card] = best
        return best

    def _rescue_prospect(self, person) -> float:
        """Half the best VP a helicopter with a free seat scores for ``person`` (any type
        for ``None``) if one is on the board: a card's Rescue is worth that much later."""
        present = self._present
        if present is None:
            b = self.o.board
            present = set()
            for people in b.roofs:
                present.update(people)
            if b.stairs_state == Stairs.REVEALED:
                for people in b.stairs:
                    present.update(people)
            self._present = present
        kinds = present if person is None else ({person} & present)
        return max((0.5 * self.cards[i].value(p) for i in range(len(MODELS)) if self.room(i) > 0 for p in kinds),
                   default=0.0)


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
            return v.cards[MODELS.index(a.heli)].value(a.person)
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
