"""What a side could do now: flights, rescues, special orders and upgrades, payments
(WC.G4, WC.G5, WC.F5). Pure functions of public values, so the rules engine, Captain
Chambers and the bots (from their observation) all ask the same questions.

``sides`` is a sequence of :class:`~.state.SidePublic`, ``roofs[k]`` / ``stairs[k]`` the
People on rooftop k and on its staircase, ``table`` the round's :class:`~.table.Layout`.

Answers asked again and again are kept in bounded caches keyed by public values only
(the components, the table, a carrier's People, the special-order row ...): nothing a
side holds face down (its radar values) is ever part of a key, so no seat's answer can
carry another seat's secret. What needs radar values is computed afresh each time.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from .components import MODELS, PEOPLE, Components, Model, Person

ANSWERS_KEPT = 8192
"""Entries each cache of public answers keeps."""

__all__ = ["Queries", "occupied", "moves", "can_move", "rescues", "rescue_types", "fleet_rescues", "heli_side", "free_spaces", "people_at", "order_payments", "upgrade_payments",
           "special_options", "special_costs", "fewest_tokens", "special_possible", "sub_multisets", "radar_payments", "can_advance", "counts"]


def heli_side(comp: Components, side, i: int):
    """The helicopter card side (day or night) of ``MODELS[i]`` of this side."""
    return comp.helicopters[i].night if side.night[i] else comp.helicopters[i].day


def free_spaces(side) -> int:
    """Free People spaces on the side's carrier (WC.F6)."""
    return side.spaces - len(side.carrier)


def occupied(sides: Sequence) -> frozenset[str]:
    """The nodes where a helicopter is (of any side)."""
    return frozenset([n for s in sides for n in s.at])


def moves(table, sides: Sequence, who: int, helis: Iterable[Model] = MODELS,
          taken: frozenset[str] | None = None) -> list[tuple[Model, str]]:
    """Every ``(model, destination node)`` a helicopter of side ``who`` may fly to
    (WC.G4): its own carrier, or a slot of its model that holds no helicopter
    (``taken``: :func:`occupied`, when already known)."""
    if taken is None:
        taken = occupied(sides)
    own = table.carriers[who]
    out = []
    me = sides[who]
    for model in helis:
        i = MODELS.index(model)
        for dest in table.flights[(model, me.at[i], who)]:
            if dest == own or dest not in taken:
                out.append((model, dest))
    return out


def can_move(table, sides: Sequence, who: int) -> bool:
    """Whether side ``who`` has any flight (:func:`moves`, stopping at the first)."""
    taken = occupied(sides)
    own, at = table.carriers[who], sides[who].at
    for i, model in enumerate(MODELS):
        for dest in table.flights[(model, at[i], who)]:
            if dest == own or dest not in taken:
                return True
    return False


def people_at(roofs, stairs, roof: int, is_stairs: bool) -> tuple[Person, ...]:
    """The People on rooftop ``roof`` or on its staircase."""
    if is_stairs:
        return stairs[roof] if stairs else ()
    return roofs[roof]


def rescues(comp: Components, table, sides: Sequence, roofs, stairs, who: int,
            person: Person | None) -> tuple[tuple[Model, str, Person], ...]:
    """Every ``(model, node, type)`` side ``who`` may rescue (WC.G5): a person of type
    ``person`` (any type when ``None``) on a rooftop, or its staircase, where that
    helicopter lands, has a free seat and may carry that type."""
    me = sides[who]
    every = fleet_rescues(comp, table, me.at, me.aboard, me.night, roofs, stairs)
    return every if person is None else tuple(r for r in every if r[2] == person)


def rescue_types(comp: Components, table, side, roofs, stairs) -> frozenset[Person]:
    """The People types ``side`` (its public values) could rescue now (:func:`rescues`)."""
    return frozenset([p for _, _, p in fleet_rescues(comp, table, side.at, side.aboard, side.night, roofs, stairs)])


@lru_cache(maxsize=ANSWERS_KEPT)
def fleet_rescues(comp: Components, table, at: tuple[str, ...], aboard, night: tuple[bool, ...], roofs,
                  stairs) -> tuple[tuple[Model, str, Person], ...]:
    """:func:`rescues` of any type by helicopters at ``at`` with ``aboard`` and ``night``
    sides (a side's rescues depend on nothing else of the sides)."""
    out = []
    for i, model in enumerate(MODELS):
        reach = table.reach.get(at[i])
        if not reach:
            continue
        card = comp.helicopters[i].night if night[i] else comp.helicopters[i].day
        if len(aboard[i]) >= card.capacity:
            continue
        for node, roof, is_stairs in reach:
            seen = set()
            for p in people_at(roofs, stairs, roof, is_stairs):
                if p in seen or not card.carries(p):
                    continue
                seen.add(p)
                out.append((model, node, p))
    return tuple(out)


def sub_multisets(counts: Sequence[int], k: int, start: int = 0) -> list[tuple[int, ...]]:
    """Every way to choose ``k`` items from ``counts[i]`` items of kind i (kind indices,
    sorted, no repeats): the distinct multisets."""
    if k == 0:
        return [()]
    out = []
    for i in range(start, len(counts)):
        if counts[i]:
            rest = list(counts)
            rest[i] -= 1
            out.extend((i,) + tail for tail in sub_multisets(rest, k - 1, i))
    return out


def counts(people: Sequence[Person]) -> tuple[int, ...]:
    """How many of each type (in :data:`PEOPLE` order)."""
    return tuple(map(people.count, PEOPLE))


def _payable(have: Sequence[int], exact: Sequence[int], extra: int) -> bool:
    """Whether ``have`` (count per type) covers ``exact`` per type plus ``extra`` more."""
    spare = 0
    for h, e in zip(have, exact):
        if h < e:
            return False
        spare += h - e
    return spare >= extra


def _payments(carrier: tuple[Person, ...], exact: Sequence[int], extra: int) -> list[tuple[Person, ...]]:
    """Ways to discard ``exact[t]`` People of each type plus ``extra`` of any type from
    ``carrier`` (sorted tuples)."""
    have = counts(carrier)
    if not _payable(have, exact, extra):
        return []
    left = [h - n for h, n in zip(have, exact)]
    fixed = [p for p, n in zip(PEOPLE, exact) for _ in range(n)]
    out = []
    for choice in sub_multisets(left, extra):
        paid = fixed + [PEOPLE[i] for i in choice]
        out.append(tuple(sorted(paid, key=PEOPLE.index)))
    return out


def order_payments(carrier: tuple[Person, ...], order) -> list[tuple[Person, ...]]:
    """Ways to complete ``order`` from the People on the carrier (WC.F5)."""
    return _payments(carrier, order.people, order.any)


def radar_payments(tokens: tuple[int, ...], total: int) -> list[tuple[int, ...]]:
    """Sets of radar tokens worth at least ``total`` from which no token could be
    dropped (carrier upgrade 4; engine decision: paying more is never offered)."""
    values = sorted(set(tokens))
    counts = [tokens.count(v) for v in values]
    rest = [0] * (len(values) + 1)          # rest[i]: what the tokens of values[i:] are worth
    for i in range(len(values) - 1, -1, -1):
        rest[i] = rest[i + 1] + values[i] * counts[i]
    out = []

    def walk(i, chosen, s):
        if s >= total:
            if s - min(chosen) < total:
                out.append(tuple(sorted(chosen)))
            return
        if s + rest[i] < total:             # the tokens left cannot reach the total
            return
        for n in range(counts[i], -1, -1):
            walk(i + 1, chosen + [values[i]] * n, s + n * values[i])
    walk(0, [], 0)
    return sorted(set(out))


def can_advance(comp: Components, side) -> bool:
    """Whether an Influence action can move the marker (not on the last space)."""
    return side.influence < comp.influence.spaces


def upgrade_payments(comp: Components, side, colour, radar: tuple[int, ...], number: int) -> list[tuple]:
    """Ways to meet carrier card ``number``'s requirement (WC.F5): ``[()]`` when it asks
    for no payment and is met, ``[]`` when it cannot be met now; else the People (cards
    3 and 5) or radar tokens (card 4) that may be discarded."""
    up = comp.upgrades[number - 1]
    if side.upgrades[number - 1]:
        return []
    if number == 1:
        return [()] if side.influence >= comp.influence.threshold else []
    if number == 2:
        return [()] if side.orders >= 1 else []
    if number == 4:
        return radar_payments(radar, up.radar)
    return _payments(side.carrier, _upgrade_exact(comp, colour.rescue_device, number), up.any)


def _upgrade_exact(comp: Components, device: Person, number: int) -> list[int]:
    """People of each type carrier card ``number`` asks for (card 3: its ``same`` of the
    colour's rescue-device type ``device``)."""
    up = comp.upgrades[number - 1]
    return [up.same if (number == 3 and p == device) else 0 for p in PEOPLE]


def special_possible(comp: Components, side, colour, radar: tuple[int, ...], row: tuple[int, ...]) -> bool:
    """Whether :func:`special_options` would offer anything (a fast test; what the
    carrier can pay is kept per carrier, row, upgrades 3 and 5 and colour)."""
    ups = side.upgrades
    if (not ups[0] and side.influence >= comp.influence.threshold or not ups[1] and side.orders >= 1
            or not ups[3] and sum(radar) >= comp.upgrades[3].radar):
        return True
    return bool(side.carrier) and _carrier_pays(comp, side.carrier, row, ups[2], ups[4], colour.rescue_device)


@lru_cache(maxsize=ANSWERS_KEPT)
def _carrier_pays(comp: Components, carrier: tuple[Person, ...], row: tuple[int, ...], up3: bool, up5: bool,
                  device: Person) -> bool:
    """Whether the People on ``carrier`` pay an order of ``row`` or carrier card 3 or 5
    (``up3``, ``up5``: flipped already; ``device``: the colour's rescue-device type)."""
    have = counts(carrier)
    orders = comp.orders
    for i in row:
        if _payable(have, orders[i].people, orders[i].any):
            return True
    for number, done in ((3, up3), (5, up5)):
        if not done and _payable(have, _upgrade_exact(comp, device, number), comp.upgrades[number - 1].any):
            return True
    return False


def fewest_tokens(tokens: tuple[int, ...], total: int) -> int | None:
    """How many radar tokens the smallest payment of :func:`radar_payments` takes (the
    largest ones first), ``None`` when the tokens are worth less than ``total``."""
    s = 0
    for n, value in enumerate(sorted(tokens, reverse=True), 1):
        s += value
        if s >= total:
            return n
    return None


RADAR_CARD = 4
"""The carrier card paid with radar tokens (WC.F5 Advanced communications): the one
upgrade whose menu depends on private values."""


def special_costs(comp: Components, side, colour, radar: tuple[int, ...],
                  row: tuple[int, ...]) -> tuple[tuple[str, int, int], ...]:
    """What :func:`special_options` offers, by size and without listing the ways to pay
    (WC.F5): ``("order", index, n)`` for each order of the row the carrier can pay (every
    way to pay it discards n People), ``("upgrade", number, n)`` for each upgrade whose
    requirement is met (n People or radar tokens; for carrier card 4 the fewest tokens
    that reach its Radar value). Kept per public values like :func:`special_options`."""
    ups = side.upgrades
    orders = _order_costs(comp, side.carrier, row)
    upgrades = _upgrade_costs(comp, side.carrier, ups, side.influence >= comp.influence.threshold,
                              side.orders >= 1, colour.rescue_device)
    if not ups[RADAR_CARD - 1]:
        n = fewest_tokens(radar, comp.upgrades[RADAR_CARD - 1].radar)
        if n is not None:
            upgrades = tuple(sorted(upgrades + (("upgrade", RADAR_CARD, n),), key=lambda x: x[1]))
    return orders + upgrades if upgrades else orders


@lru_cache(maxsize=ANSWERS_KEPT)
def _order_costs(comp: Components, carrier: tuple[Person, ...], row: tuple[int, ...]) -> tuple:
    have = counts(carrier)
    return tuple(("order", index, sum(o.people) + o.any) for index, o in ((index, comp.orders[index]) for index in row)
                 if _payable(have, o.people, o.any))


@lru_cache(maxsize=ANSWERS_KEPT)
def _upgrade_costs(comp: Components, carrier: tuple[Person, ...], ups: tuple[bool, ...], influence_met: bool,
                   order_met: bool, device: Person) -> tuple:
    """:func:`special_costs` of the carrier cards but card 4 (public values only)."""
    have, out = counts(carrier), []
    for number, up in enumerate(comp.upgrades, 1):
        if ups[number - 1] or number == RADAR_CARD:
            continue
        if number == 1:
            n = 0 if influence_met else None
        elif number == 2:
            n = 0 if order_met else None
        else:
            exact = _upgrade_exact(comp, device, number)
            n = sum(exact) + up.any if _payable(have, exact, up.any) else None
        if n is not None:
            out.append(("upgrade", number, n))
    return tuple(out)


def special_options(comp: Components, side, colour, radar: tuple[int, ...],
                    row: tuple[int, ...]) -> tuple[tuple[str, int, tuple], ...]:
    """Every Special Order action (WC.F5): ``("order", index, people)`` for each order of
    the row the carrier can pay, ``("upgrade", number, payment)`` for each upgrade whose
    requirement is met, in card order. The orders are kept per carrier and row, the
    upgrades but card 4 per carrier, upgrades, whether influence and orders meet cards 1
    and 2, and colour; card 4's payments (radar values, private) are listed afresh."""
    carrier, ups = side.carrier, side.upgrades
    orders = _order_options(comp, carrier, row)
    upgrades = _upgrade_options(comp, carrier, ups, side.influence >= comp.influence.threshold, side.orders >= 1,
                                colour.rescue_device)
    if not ups[RADAR_CARD - 1]:
        radar_ways = tuple(("upgrade", RADAR_CARD, paid) for paid in radar_payments(radar, comp.upgrades[RADAR_CARD - 1].radar))
        if radar_ways:
            before = tuple(u for u in upgrades if u[1] < RADAR_CARD)
            upgrades = before + radar_ways + upgrades[len(before):]
    return orders + upgrades if upgrades else orders


@lru_cache(maxsize=ANSWERS_KEPT)
def _order_options(comp: Components, carrier: tuple[Person, ...], row: tuple[int, ...]) -> tuple:
    return tuple(("order", index, paid) for index in row for paid in order_payments(carrier, comp.orders[index]))


@lru_cache(maxsize=ANSWERS_KEPT)
def _upgrade_options(comp: Components, carrier: tuple[Person, ...], ups: tuple[bool, ...], influence_met: bool,
                     order_met: bool, device: Person) -> tuple:
    """:func:`special_options` of the carrier cards but card 4 (public values only)."""
    out = []
    for number, up in enumerate(comp.upgrades, 1):
        if ups[number - 1] or number == RADAR_CARD:
            continue
        if number == 1:
            ways = [()] if influence_met else []
        elif number == 2:
            ways = [()] if order_met else []
        else:
            ways = _payments(carrier, _upgrade_exact(comp, device, number), up.any)
        out.extend(("upgrade", number, paid) for paid in ways)
    return tuple(out)


class Queries:
    """The public questions of one position (flights and rescues of any side), each
    answered once, for a bot that asks them again and again while it decides (an
    observation's :attr:`~.state.Observation.queries`; made of public values only). A
    side's rescues come from :func:`fleet_rescues`, kept across positions."""

    __slots__ = ("comp", "table", "sides", "roofs", "stairs", "_taken", "_moves", "_rescues", "_types")

    def __init__(self, comp: Components, table, sides: Sequence, roofs, stairs):
        self.comp, self.table, self.sides, self.roofs, self.stairs = comp, table, sides, roofs, stairs
        self._taken = None
        self._moves: dict = {}
        self._rescues: dict = {}
        self._types: dict = {}

    def occupied(self) -> frozenset[str]:
        """:func:`occupied` (cached)."""
        taken = self._taken
        if taken is None:
            taken = self._taken = occupied(self.sides)
        return taken

    def moves(self, who: int, helis: tuple[Model, ...] = MODELS) -> list[tuple[Model, str]]:
        """:func:`moves` of side ``who`` (cached)."""
        key = (who, helis)
        hit = self._moves.get(key)
        if hit is None:
            hit = self._moves[key] = moves(self.table, self.sides, who, helis, self.occupied())
        return hit

    def can_move(self, who: int) -> bool:
        """Whether :meth:`moves` of side ``who`` offers anything (stops at the first)."""
        hit = self._moves.get((who, MODELS))
        return bool(hit) if hit is not None else can_move(self.table, self.sides, who)

    def rescues(self, who: int, person: Person | None = None) -> tuple[tuple[Model, str, Person], ...]:
        """:func:`rescues` of side ``who`` for ``person`` (any type for ``None``; cached)."""
        every = self._rescues.get(who)
        if every is None:
            me = self.sides[who]
            every = self._rescues[who] = fleet_rescues(self.comp, self.table, me.at, me.aboard, me.night, self.roofs,
                                                       self.stairs)
        return every if person is None else tuple(r for r in every if r[2] == person)

    def rescue_types(self, who: int) -> frozenset:
        """The People types side ``who`` could rescue now (cached)."""
        hit = self._types.get(who)
        if hit is None:
            hit = self._types[who] = frozenset([p for _, _, p in self.rescues(who)])
        return hit
