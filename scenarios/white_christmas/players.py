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
from functools import lru_cache

import numpy as np

from . import actions as A
from .actions import PHASE_NUMBER, ROUNDS, ActionKind, Phase, Stairs
from .components import MODELS, PEOPLE, ROW, Bonus, Extra, Icon
from .options import fleet_rescues, free_spaces, occupied, special_costs
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


MODEL_INDEX = {m: i for i, m in enumerate(MODELS)}
ROW_INDEX = {icon: i for i, icon in enumerate(ROW)}


VALUES_KEPT = 4096
"""Entries each cache of the heuristic's public valuations keeps."""


@lru_cache(maxsize=VALUES_KEPT)
def _potentials(comp, i: int, night: bool, room: int, roofs: tuple, stairs: tuple) -> tuple[float, ...]:
    """Per rooftop, in row order, the ``room`` best VP helicopter ``MODELS[i]`` (night
    side or not) could rescue from it and its staircase (as Chambers counts it, WC.H6).
    Public values only: every seat of a game asks the same questions of one table."""
    vp = (comp.helicopters[i].night if night else comp.helicopters[i].day).table
    out = []
    for k, people in enumerate(roofs):
        if stairs:
            people = people + stairs[k]
        values = sorted([vp.get(p, 0) for p in people], reverse=True)
        out.append(float(sum(values[:room])))
    return tuple(out)


@lru_cache(maxsize=8)
def _card_worth(comp) -> tuple:
    """Per action card: ``(offers Rescue, the Rescue's type, best worth of its other
    actions)``; a card's phase-2 worth is the best of that and its Rescue's prospect."""
    rows = []
    for card in comp.cards:
        rest = 0.0
        for use in card.uses():
            if use != Icon.RESCUE:
                value = BASE[use] + (0.5 if card.wild else 0.0)
                if value > rest:
                    rest = value
        rows.append((Icon.RESCUE in card.uses(), card.rescue, rest))
    return tuple(rows)


class _View:
    """Per-decision valuations from one observation (each computed once, on demand).

    Two caches outlive the decision, owned by the bot (:meth:`HeuristicPlayer._caches`):
    ``mine``, what depends only on the rooftops, staircases and this seat's helicopters
    (their cards, free seats, potentials, rescues, a card's prospects), and ``kept``, what
    also depends on where the others' helicopters are (the best flight)."""

    __slots__ = ("o", "comp", "me", "seat", "cards", "rooms", "consts", "own", "roof_of", "worth", "mine", "kept",
                 "_uses")

    def __init__(self, o: Observation, mine: dict, kept: dict):
        self.o = o
        self.comp = comp = o.setup.comp
        self.seat = seat = o.seat
        self.me = me = o.sides[seat]
        self.mine = mine
        self.kept = kept
        helis = mine.get("helis")
        if helis is None:
            cards = [h.night if n else h.day for h, n in zip(comp.helicopters, me.night)]
            helis = mine["helis"] = (cards, [c.capacity - len(a) for c, a in zip(cards, me.aboard)],
                                     [None] * len(cards))
        self.cards, self.rooms, self.consts = helis
        table = o.table
        self.own = table.carriers[seat]
        self.roof_of = table.roof_of
        self.worth = _card_worth(comp)
        self._uses = {}

    def pots(self, i: int) -> tuple[float, ...]:
        """:meth:`potential` of helicopter i at each rooftop, in row order
        (:func:`_potentials`)."""
        pots = self.mine.get(i)
        if pots is None:
            b = self.o.board
            pots = self.mine[i] = _potentials(self.comp, i, self.me.night[i], self.rooms[i], b.roofs, b.stairs)
        return pots

    def potential(self, i: int, slot: str) -> float:
        """VP helicopter i could rescue from ``slot`` (as Chambers counts it, WC.H6)."""
        return self.pots(i)[self.roof_of[slot]]

    def heli(self, i: int) -> tuple:
        """Helicopter i: ``(on a rooftop, its potential there (0.0 elsewhere), VP aboard
        lost by taking off from the carrier, the penalty for flying full)``."""
        hit = self.consts[i]
        if hit is None:
            me = self.me
            here = me.at[i]
            on_roof = here in self.o.table.reach
            if here == self.own:
                vp = self.cards[i].table
                lost = sum([vp.get(p, 0) for p in me.aboard[i]])
            else:
                lost = 0.0
            hit = self.consts[i] = (on_roof, self.potential(i, here) if on_roof else 0.0, lost,
                                    2.0 if self.rooms[i] == 0 else 0.0)
        return hit

    def unload_value(self, i: int) -> float:
        vp = self.cards[i].table
        aboard = sorted([vp.get(p, 0) for p in self.me.aboard[i]], reverse=True)
        return float(sum(aboard[:max(0, free_spaces(self.me))]))

    def move_value(self, model, dest: str) -> float:
        i = MODEL_INDEX[model]
        on_roof, here, lost, full = self.consts[i] or self.heli(i)
        if dest == self.own:
            if not self.me.aboard[i]:
                return -1.0
            full = 0.5 if self.rooms[i] == 0 else 0.0
            return self.unload_value(i) + full - (0.3 * here if on_roof else 0.0)
        return 0.6 * (self.pots(i)[self.roof_of[dest]] - here) - lost - full

    def best_move(self) -> float:
        """The best :meth:`move_value` of the legal flights (WC.G4: the table's flights to
        the own carrier or a free slot): per helicopter, its own carrier and the free slot
        of highest potential (the value grows with the potential)."""
        key = ("move", free_spaces(self.me))
        best = self.kept.get(key)
        if best is not None:
            return best
        best = -1.0
        taken = occupied(self.o.sides)
        own, roof_of, flights, at, seat = self.own, self.roof_of, self.o.table.flights, self.me.at, self.seat
        for i, m in enumerate(MODELS):
            pots, top = self.pots(i), None
            for d in flights[(m, at[i], seat)]:
                if d == own:
                    value = self.move_value(m, d)
                    if value > best:
                        best = value
                elif d not in taken:
                    pot = pots[roof_of[d]]
                    if top is None or pot > top:
                        top = pot
            if top is not None:          # move_value() of the best free slot, inlined
                _, here, lost, full = self.consts[i] or self.heli(i)
                value = 0.6 * (top - here) - lost - full
                if value > best:
                    best = value
        self.kept[key] = best
        return best

    def rescue_value(self, model, person) -> float:
        return self.cards[MODEL_INDEX[model]].table.get(person, 0) + 0.4

    def best_rescue(self, person) -> float:
        key = ("rescue", person)
        best = self.mine.get(key)
        if best is None:
            best = -1.0
            cards = self.cards
            o, me = self.o, self.me
            for m, _, p in fleet_rescues(self.comp, o.table, me.at, me.aboard, me.night, o.board.roofs,
                                         o.board.stairs):
                if person is not None and p != person:
                    continue
                value = cards[MODEL_INDEX[m]].table.get(p, 0) + 0.4
                if value > best:
                    best = value
            self.mine[key] = best
        return best

    def special_value(self, kind: str, index: int, paid: int) -> float:
        """An order completed or a carrier card flipped, paying ``paid`` People or tokens."""
        if kind == "order":
            return self.comp.orders[index].vp + 0.3 * paid
        up = self.comp.upgrades[index - 1]
        effect = UPGRADE_EFFECT[index] * (ROUNDS - self.o.board.round + 1) / ROUNDS
        cost = TOKEN * paid if index == 4 else -0.3 * paid
        return up.vp + effect - cost

    def best_special(self) -> float:
        """The best :meth:`special_value` of the Special Order actions (the value falls
        with the payment's size, so each action's smallest payment is the one to value)."""
        o = self.o
        costs = special_costs(self.comp, self.me, o.setup.colours[self.seat], o.own.radar, o.board.orders_row)
        return max((self.special_value(*x) for x in costs), default=-1.0)

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
        """The best this seat can do now with action ``icon`` (cached per decision; the
        Rescue's type matters to Rescue only)."""
        if icon == Icon.RESCUE:
            return self.best_rescue(person)
        hit = self._uses.get(icon)
        if hit is None:
            if icon == Icon.MOVE:
                hit = self.best_move()
            elif icon == Icon.RADAR:
                hit = TOKEN if self.o.board.radar_left else -1.0
            elif icon == Icon.INFLUENCE:
                hit = self.influence_value()
            else:
                hit = self.best_special()
            self._uses[icon] = hit
        return hit

    def card_value(self, card_id: int) -> float:
        """A card's worth for phase 2 (its best action, roughly)."""
        rescue, person, rest = self.worth[card_id]
        if rescue:
            value = self.prospect(person)
            if value > rest:
                return value
        return rest

    def prospect(self, person) -> float:
        """Half the best VP a helicopter with a free seat scores for ``person`` (any type
        for ``None``) if one is on the board: a card's Rescue is worth that much later
        (:func:`_prospects`)."""
        b = self.o.board
        best = self.mine.get(b.stairs_state)
        if best is None:
            revealed = b.stairs_state == Stairs.REVEALED
            best = self.mine[b.stairs_state] = _prospects(self.comp, self.me.night, tuple(self.rooms),
                                                          b.roofs + b.stairs if revealed else b.roofs)
        return best.get(person, 0.0)


@lru_cache(maxsize=VALUES_KEPT)
def _prospects(comp, night: tuple[bool, ...], rooms: tuple[int, ...], places: tuple) -> dict:
    """Per People type present in ``places``, half the best VP a helicopter (night side
    or not) with a free seat (``rooms``) scores for it; ``None``: the best of all
    (public values only; the answer is not to be changed)."""
    present = set()
    for people in places:
        present.update(people)
    best = {None: 0.0}
    for i, room in enumerate(rooms):
        if room > 0:
            vp = (comp.helicopters[i].night if night[i] else comp.helicopters[i].day).table
            for p in present:
                v = 0.5 * vp.get(p, 0)
                if v > best.get(p, 0.0):
                    best[p] = v
                if v > best[None]:
                    best[None] = v
    return best


def _take_value(v: _View, a) -> float:
    if a.slot == Icon.INSPECT:
        again = 0.0
        for r, _ in v.o.own.inspected:
            if r == a.roof:
                again = 0.3
                break
        return 1.0 + 1.2 - again - 0.01 * a.roof
    return v.use_value(a.slot) + v.card_value(v.o.board.row[ROW_INDEX[a.slot]])


def _best_take(v: _View, legal: tuple):
    """Phase 1: the best of ``legal`` (:func:`_take_value` inlined: the most frequent
    decision of a game; each board slot's value is computed once)."""
    inspected = {r for r, _ in v.o.own.inspected}
    row = v.o.board.row
    take, inspect = ActionKind.TAKE, Icon.INSPECT
    best, best_value = legal[0], float("-inf")
    for a in legal:
        if a.kind is take:
            slot = a.slot
            if slot is inspect:
                roof = a.roof
                value = 1.0 + 1.2 - (0.3 if roof in inspected else 0.0) - 0.01 * roof
            else:
                value = v.use_value(slot) + v.card_value(row[ROW_INDEX[slot]])
        else:
            value = _VALUE[a.kind](v, a)
        if value > best_value:
            best, best_value = a, value
    return best


def _extra_value(v: _View, a) -> float:
    now = v.use_value(EXTRA_ICON[a.extra])
    b = v.o.board
    late = b.round == ROUNDS and b.phase == Phase.PLAY
    return now + (1.0 if late else 0.0) - (0.0 if late else 0.8)


def _pass_value(v: _View, a) -> float:
    return -0.05


def _board_value(v: _View, a) -> float:
    """A passenger who takes the one free carrier space (WC.F4): People on the carrier pay
    special orders and carrier cards 3 and 5, so the type the row's orders ask for, and
    the type this seat's card 3 asks for while unflipped, is worth more."""
    i = PEOPLE.index(a.person)
    wanted = sum(1 for o in v.o.board.orders_row if v.comp.orders[o].people[i])
    device = not v.me.upgrades[2] and v.o.setup.colours[v.seat].rescue_device == a.person
    return PASSENGER + 0.3 * wanted + (0.5 if device else 0.0)


_VALUE = dict.fromkeys(ActionKind, _pass_value)
_VALUE.update({
    ActionKind.TAKE: _take_value,
    ActionKind.PLAY: lambda v, a: v.use_value(a.use, v.comp.cards[a.card].rescue),
    ActionKind.FACEUP: lambda v, a: v.use_value(a.use, v.comp.cards[v.me.faceup].rescue) - 0.6,
    ActionKind.DISCARD: lambda v, a: -0.5,
    ActionKind.EXTRA: _extra_value,
    ActionKind.KEEP: lambda v, a: 0.0,
    ActionKind.MOVE: lambda v, a: v.move_value(a.heli, a.to),
    ActionKind.RESCUE: lambda v, a: v.rescue_value(a.heli, a.person),
    ActionKind.ORDER: lambda v, a: v.special_value("order", a.order, len(a.people)),
    ActionKind.UPGRADE: lambda v, a: v.special_value("upgrade", a.upgrade, len(a.tokens or a.people)),
    ActionKind.REPLACE: lambda v, a: -v.card_value(a.card),
    ActionKind.UNLOAD: lambda v, a: v.cards[MODEL_INDEX[a.heli]].table.get(a.person, 0),
    ActionKind.BOARD: _board_value,
})
"""What the heuristic thinks an action of each kind is worth, in VP (pass: -0.05, only
when nothing is worth doing)."""


class HeuristicPlayer:
    """Values every legal action in VP and plays the best (see the module docstring);
    deterministic, and it reads nothing but its observation."""

    name = "heuristic"

    def __init__(self, seed: int = 0, seat: int = 0):
        self.seed = seed
        self._mine = (None, {})
        self._kept = (None, {})

    def _caches(self, o: Observation) -> tuple[dict, dict]:
        """The valuations kept from this seat's last decision while what they depend on
        is unchanged (see :class:`_View`): ``mine`` while the table, rooftops, staircases
        and this seat's helicopters are the same values, ``kept`` while, besides, every
        helicopter is where it was. Both belong to this bot (one seat) alone."""
        me, b = o.sides[o.seat], o.board
        key = (o.seat, o.setup.comp, o.table, b.roofs, b.stairs, me.at, me.aboard, me.night)
        last, mine = self._mine
        if key != last:
            mine = {}
            self._mine = (key, mine)
        key = (key, tuple([s.at for s in o.sides]))
        last, kept = self._kept
        if key != last:
            kept = {}
            self._kept = (key, kept)
        return mine, kept

    def choose(self, o: Observation):
        legal = o.legal
        if len(legal) == 1:
            return legal[0]
        if o.board.phase == Phase.SIGHTING and not o.board.pending:
            return self._bid(o)
        v = _View(o, *self._caches(o))
        if o.board.phase == Phase.DRAW and not o.board.pending:
            return _best_take(v, legal)
        best, best_value = legal[0], float("-inf")
        value_of, cards = _VALUE, v.comp.cards
        for a in legal:
            kind = a.kind
            if kind is ActionKind.PLAY:       # the most frequent kinds, inlined
                value = v.use_value(a.use, cards[a.card].rescue)
            elif kind is ActionKind.DISCARD:
                value = -0.5
            elif kind is ActionKind.MOVE:
                value = v.move_value(a.heli, a.to)
            else:
                value = value_of[kind](v, a)
            if value > best_value:
                best, best_value = a, value
        return best

    def _value(self, v: _View, a) -> float:
        """What action ``a`` is worth now, in VP."""
        return _VALUE[a.kind](v, a)

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
