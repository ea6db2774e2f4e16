"""What a side could do now: flights, rescues, special orders and upgrades, payments
(WC.G4, WC.G5, WC.F5). Pure functions of public values, so the rules engine, Captain
Chambers and the bots (from their observation) all ask the same questions.

``sides`` is a sequence of :class:`~.state.SidePublic`, ``roofs[k]`` / ``stairs[k]`` the
People on rooftop k and on its staircase, ``table`` the round's :class:`~.table.Layout`.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from .components import MODELS, PEOPLE, Components, Model, Person

__all__ = ["Queries", "occupied", "moves", "rescues", "heli_side", "free_spaces", "people_at", "order_payments", "upgrade_payments",
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


def people_at(roofs, stairs, roof: int, is_stairs: bool) -> tuple[Person, ...]:
    """The People on rooftop ``roof`` or on its staircase."""
    if is_stairs:
        return stairs[roof] if stairs else ()
    return roofs[roof]


def rescues(comp: Components, table, sides: Sequence, roofs, stairs, who: int,
            person: Person | None) -> list[tuple[Model, str, Person]]:
    """Every ``(model, node, type)`` side ``who`` may rescue (WC.G5): a person of type
    ``person`` (any type when ``None``) on a rooftop, or its staircase, where that
    helicopter lands, has a free seat and may carry that type."""
    me = sides[who]
    out = []
    for i, model in enumerate(MODELS):
        reach = table.reach.get(me.at[i])
        if not reach:
            continue
        card = heli_side(comp, me, i)
        if len(me.aboard[i]) >= card.capacity:
            continue
        for node, roof, is_stairs in reach:
            seen = set()
            for p in people_at(roofs, stairs, roof, is_stairs):
                if p in seen or (person is not None and p != person) or not card.carries(p):
                    continue
                seen.add(p)
                out.append((model, node, p))
    return out


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
    out = []

    def walk(i, chosen, s):
        if s >= total:
            if s - min(chosen) < total:
                out.append(tuple(sorted(chosen)))
            return
        if i == len(values):
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
    return _payments(side.carrier, _upgrade_exact(comp, colour, number), up.any)


def _upgrade_exact(comp: Components, colour, number: int) -> list[int]:
    up = comp.upgrades[number - 1]
    return [up.same if (number == 3 and p == colour.rescue_device) else 0 for p in PEOPLE]


def special_possible(comp: Components, side, colour, radar: tuple[int, ...], row: tuple[int, ...]) -> bool:
    """Whether :func:`special_options` would offer anything (a fast test; what the
    carrier can pay is memoised per carrier, row, upgrades 3 and 5 and colour)."""
    ups = side.upgrades
    if (not ups[0] and side.influence >= comp.influence.threshold or not ups[1] and side.orders >= 1
            or not ups[3] and sum(radar) >= comp.upgrades[3].radar):
        return True
    carrier = side.carrier
    if not carrier:
        return False
    memo = comp.memo("carrier pays")
    key = (carrier, row, ups[2], ups[4], colour.rescue_device)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = _carrier_pays(comp, carrier, row, ups, colour)
    return hit


def _carrier_pays(comp: Components, carrier: tuple[Person, ...], row: tuple[int, ...], ups, colour) -> bool:
    """Whether the People on ``carrier`` pay an order of ``row`` or carrier card 3 or 5."""
    have = counts(carrier)
    orders = comp.orders
    for i in row:
        if _payable(have, orders[i].people, orders[i].any):
            return True
    for number in (3, 5):
        if not ups[number - 1] and _payable(have, _upgrade_exact(comp, colour, number), comp.upgrades[number - 1].any):
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


def special_costs(comp: Components, side, colour, radar: tuple[int, ...],
                  row: tuple[int, ...]) -> tuple[tuple[str, int, int], ...]:
    """What :func:`special_options` offers, by size and without listing the ways to pay
    (WC.F5): ``("order", index, n)`` for each order of the row the carrier can pay (every
    way to pay it discards n People), ``("upgrade", number, n)`` for each upgrade whose
    requirement is met (n People or radar tokens; for carrier card 4 the fewest tokens
    that reach its Radar value). Memoised like :func:`special_options`."""
    carrier, ups = side.carrier, side.upgrades
    memo = comp.memo("order costs")
    key = (carrier, row)
    orders = memo.get(key)
    if orders is None:
        have = counts(carrier)
        orders = memo[key] = tuple(("order", index, sum(o.people) + o.any) for index, o in
                                   ((index, comp.orders[index]) for index in row) if _payable(have, o.people, o.any))
    memo = comp.memo("upgrade costs")
    key = (carrier, ups, side.influence >= comp.influence.threshold, side.orders >= 1, radar, colour.rescue_device)
    upgrades = memo.get(key)
    if upgrades is None:
        have, out = counts(carrier), []
        for number, up in enumerate(comp.upgrades, 1):
            if ups[number - 1]:
                continue
            if number == 1:
                n = 0 if key[2] else None
            elif number == 2:
                n = 0 if key[3] else None
            elif number == 4:
                n = fewest_tokens(radar, up.radar)
            else:
                exact = _upgrade_exact(comp, colour, number)
                n = sum(exact) + up.any if _payable(have, exact, up.any) else None
            if n is not None:
                out.append(("upgrade", number, n))
        upgrades = memo[key] = tuple(out)
    return orders + upgrades if upgrades else orders


def special_options(comp: Components, side, colour, radar: tuple[int, ...],
                    row: tuple[int, ...]) -> tuple[tuple[str, int, tuple], ...]:
    """Every Special Order action (WC.F5): ``("order", index, people)`` for each order of
    the row the carrier can pay, ``("upgrade", number, payment)`` for each upgrade whose
    requirement is met. The orders are memoised per carrier and row, the upgrades per
    carrier, upgrades, whether influence and orders meet cards 1 and 2, radar tokens and
    colour."""
    carrier, ups = side.carrier, side.upgrades
    memo = comp.memo("order options")
    key = (carrier, row)
    orders = memo.get(key)
    if orders is None:
        orders = memo[key] = tuple(("order", index, paid) for index in row
                                   for paid in order_payments(carrier, comp.orders[index]))
    memo = comp.memo("upgrade options")
    key = (carrier, ups, side.influence >= comp.influence.threshold, side.orders >= 1, radar, colour.rescue_device)
    upgrades = memo.get(key)
    if upgrades is None:
        upgrades = memo[key] = tuple(("upgrade", number, paid) for number in range(1, 6)
                                     for paid in upgrade_payments(comp, side, colour, radar, number))
    return orders + upgrades if upgrades else orders


class Queries:
    """The public questions of one position (flights and rescues of any side), each
    answered once: the legal-action list and the deciding seat's bot share the answers
    (:meth:`~.state.State.observation` hands the same object on; it holds nothing private).
    A side's rescues are also memoised across positions in ``memo`` (a game's, per table,
    helicopters and People in view), since they do not depend on the other sides."""

    __slots__ = ("comp", "table", "sides", "roofs", "stairs", "memo", "_taken", "_moves", "_rescues", "_types")

    def __init__(self, comp: Components, table, sides: Sequence, roofs, stairs, memo: dict | None = None):
        self.comp, self.table, self.sides, self.roofs, self.stairs = comp, table, sides, roofs, stairs
        self.memo = {} if memo is None else memo
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
        if hit is not None:
            return bool(hit)
        table, taken = self.table, self.occupied()
        own, at = table.carriers[who], self.sides[who].at
        for i, model in enumerate(MODELS):
            for dest in table.flights[(model, at[i], who)]:
                if dest == own or dest not in taken:
                    return True
        return False

    def rescues(self, who: int, person: Person | None = None) -> list[tuple[Model, str, Person]]:
        """:func:`rescues` of side ``who`` for ``person`` (any type for ``None``; cached)."""
        every = self._rescues.get(who)
        if every is None:
            me = self.sides[who]
            memo = self.memo
            key = (self.table, me.at, me.aboard, me.night, self.roofs, self.stairs)
            every = memo.get(key)
            if every is None:
                every = memo[key] = rescues(self.comp, self.table, self.sides, self.roofs, self.stairs, who, None)
            self._rescues[who] = every
        return every if person is None else [r for r in every if r[2] == person]

    def rescue_types(self, who: int) -> frozenset:
        """The People types side ``who`` could rescue now (cached)."""
        hit = self._types.get(who)
        if hit is None:
            hit = self._types[who] = frozenset([p for _, _, p in self.rescues(who)])
        return hit
