"""The working copy of a White Christmas position while one action resolves.

:class:`Work` is the engine's :class:`~furball.scenarios.engine.frozen.Draft`: it offers
the primitive moves every rule uses (drawing action cards, radar tokens, the influence
track with its chained effects, flights, rescues, unloading, special orders and carrier
upgrades, the special-order row), and its ``freeze()`` is the next state, one step later
(of the copied state's class, so this module needs no import of :mod:`.state`).

Log lines are kept as ``(template, arguments)`` and only formatted when someone reads
``state.events``: games played without a log never pay for the text. They say only what
every player may know (a radar token is taken, not its value; a staircase is inspected,
not what it shows), so a log can be shown at a shared screen.
"""
from __future__ import annotations

from furball.i18n import N_, Message, Phrase, translator

from ..engine.frozen import Draft, fields_of
from .actions import Ask, Pending, pending
from .components import MODELS, PEOPLE, ROW, Bonus, Icon, Person, words
from .options import can_advance, can_move, free_spaces, heli_side, moves, rescues, special_possible
from .table import place
from .values import Board, Pile, SidePrivate, SidePublic

__all__ = ["Work", "Text", "Phrase", "joined", "at_place", "HIDDEN"]

HIDDEN = ("deck", "stairs_deck", "stairs_used", "stairs_down", "radar_supply", "sightings", "orders_deck")
"""The state's piles nobody sees (tuples, replaced while a :class:`Work` lives)."""


def _without(items: tuple, paid) -> tuple:
    """``items`` minus the multiset ``paid`` (each element once per occurrence)."""
    rest = list(items)
    for x in paid:
        rest.remove(x)
    return tuple(rest)


def _add_count(counts: tuple[int, ...], person: Person, n: int = 1) -> tuple[int, ...]:
    i = PEOPLE.index(person)
    return counts[:i] + (counts[i] + n,) + counts[i + 1:]


GAIN_REASONS = (N_("Inspect"), N_("People still aboard, 1 per 2"), N_("carrier upgrades"), N_("influence space"),
                N_("leads the influence track, WC.H2"), N_("radar tokens bid"), N_("special orders"), N_("unloading"))
"""Why points are scored, as :meth:`Work.gain` is told, for the catalog (a log entry's
word argument reads through it)."""


class Text:
    """A log argument made into text only when the log is read: formatting it calls
    ``make(*args)`` (``args`` are immutable values, so the text is the one of the
    moment it was logged). Games played without a log never build it."""

    __slots__ = ("make", "args")

    def __init__(self, make, *args):
        self.make, self.args = make, args

    def __format__(self, spec: str) -> str:
        return format(self.make(*self.args), spec)

    def in_language(self, lang) -> str:
        """The text in ``lang``: each word among the arguments (a string, or the strings
        of a tuple: people, icons) read through the catalog before ``make`` joins them, and
        the result too (``nobody``); names and labels stay as they are."""
        _ = translator(lang)

        def read(value):
            if isinstance(value, str):
                return _(value)
            if isinstance(value, tuple) and all(isinstance(v, str) for v in value):
                return tuple(_(v) for v in value)
            return value

        return _(self.make(*(read(a) for a in self.args)))


def at_place(_, node: str) -> str:
    """Node ``node`` read with ``_`` (:func:`~.table.place`), for a
    :class:`~furball.i18n.Phrase` (text with mixed words and names: a special order's
    label, a helicopter's place)."""
    return place(node, _)


def joined(items, every=str) -> str:
    """``items`` as ``a, b, c`` (each through ``every``)."""
    return ", ".join(map(every, items))


def _order_labels(_, orders, indices) -> str:
    return ", ".join(orders[o].label(_) for o in indices)


def _order_label(_, order) -> str:
    return order.label(_)


class Work(Draft):
    """A mutable copy of a :class:`~.state.State` while one action resolves (a
    :class:`~furball.scenarios.engine.frozen.Draft`).

    The state's fields are attributes: ``sides`` and ``private`` (each side's public and
    private values) are lists while the copy lives, their items replaced (values are
    immutable; nearly every action changes one, so they are copied at once), the hidden
    piles (:data:`HIDDEN`) tuples that are replaced; ``b`` holds the board's fields (a
    dict, frozen into a :class:`~.values.Board`); ``comp`` and ``labels`` are the
    set-up's components and sides' names.
    """

    __slots__ = ("b", "comp", "labels")

    def __init__(self, state):
        Draft.__init__(self, state)
        self.sides = list(state.sides)
        self.private = list(state.private)
        self.b = fields_of(state.board)          # a dict: the board changes many times per action
        self.comp = state.setup.comp
        self.labels = state.setup.labels

    # -- randomness and log ---------------------------------------------------------
    def shuffled(self, items) -> tuple:
        """``items`` in a random order (this step's generator)."""
        items = tuple(items)
        return tuple(items[i] for i in self.rng.permutation(len(items))) if len(items) > 1 else items

    def is_chambers(self, side: int) -> bool:
        return side == self.setup.chambers

    # -- values -----------------------------------------------------------------------
    def set_side(self, i: int, **changes) -> SidePublic:
        """Replace side ``i``'s public values (``replace`` with ``changes``)."""
        self.sides[i] = new = self.sides[i].replace(**changes)
        return new

    def set_priv(self, i: int, **changes) -> SidePrivate:
        """Replace side ``i``'s private values."""
        self.private[i] = new = self.private[i].replace(**changes)
        return new

    def push(self, *items: Pending) -> None:
        """Ask ``items`` next, in this order, before what was already pending."""
        if items:
            self.b["pending"] = tuple(items) + self.b["pending"]

    def pop(self) -> Pending:
        front = self.b["pending"][0]
        self.b["pending"] = self.b["pending"][1:]
        return front

    def gain(self, side: int, vp: int, why: str | Message) -> None:
        """``vp`` victory points on the score track (never negative); ``why``: a reason of
        :data:`GAIN_REASONS` or a :class:`~furball.i18n.Message`."""
        if vp > 0:
            me = self.set_side(side, vp=self.sides[side].vp + vp)
            self.log("  {} scores {} VP ({}): {} VP", self.labels[side], vp, why, me.vp)

    def to_supply(self, person: Person, n: int = 1) -> None:
        self.b["supply"] = _add_count(self.b["supply"], person, n)

    def to_discard(self, person: Person) -> None:
        """``person`` leaves the game (the board's ``discarded`` counts them)."""
        self.b["discarded"] = _add_count(self.b["discarded"], person)

    def pay(self, person: Person) -> None:
        """A People token paid from a carrier for a special order or a carrier card (WC.F5):
        back to the supply, or out of the game (rule option ``payment``, :class:`~.values.Pile`)."""
        if self.setup.payment == Pile.SUPPLY:
            self.to_supply(person)
        else:
            self.to_discard(person)

    def from_supply(self, person: Person) -> bool:
        """Take one ``person`` from the supply; ``False`` when there is none."""
        i = PEOPLE.index(person)
        if not self.b["supply"][i]:
            return False
        self.b["supply"] = _add_count(self.b["supply"], person, -1)
        return True

    # -- action cards (WC.F2) -----------------------------------------------------------
    def draw_card(self) -> int | None:
        """The action deck's top card; an empty deck is first rebuilt by shuffling the
        discard pile (WC.F2). ``None`` when both are empty."""
        if not self.deck:
            if not self.b["discard"]:
                return None
            self.deck = self.shuffled(self.b["discard"])
            self.b["discard"] = ()
            self.log("  the action discard pile is shuffled into a new deck")
        card, self.deck = self.deck[0], self.deck[1:]
        self.b["deck"] = len(self.deck)
        return card

    def discard_card(self, card: int) -> None:
        self.b["discard"] = tuple(sorted(self.b["discard"] + (card,)))

    def refill_row(self) -> None:
        """Fill every empty board slot from the deck top (WC.F2)."""
        row = list(self.b["row"])
        for i, card in enumerate(row):
            if card is None:
                row[i] = self.draw_card()
                if row[i] is not None:
                    self.log("  {} slot refilled: {}", words(ROW[i]), self.comp.cards[row[i]].name)
        self.b["row"] = tuple(row)

    def refill_orders(self) -> None:
        """Refill the special-order row to 4/5/6 cards from its deck (WC.F1)."""
        row = self.b["orders_row"]
        if len(row) < self.setup.row_size and self.orders_deck:
            n = min(self.setup.row_size - len(row), len(self.orders_deck))
            new, self.orders_deck = self.orders_deck[:n], self.orders_deck[n:]
            self.b["orders_row"] = row + new
            self.b["orders_left"] = len(self.orders_deck)
            self.log("  special orders revealed: {}", Phrase(_order_labels, self.comp.orders, new))

    # -- radar (WC.F5) ------------------------------------------------------------------
    def take_radar(self, side: int) -> bool:
        """Draw a random radar token from the supply, face down (WC.F5 Radar)."""
        if not self.radar_supply:
            self.log("  {} finds no radar token left in the supply", self.labels[side])
            return False
        k = int(self.rng.integers(len(self.radar_supply)))
        value = self.radar_supply[k]
        self.radar_supply = self.radar_supply[:k] + self.radar_supply[k + 1:]
        self.b["radar_left"] = len(self.radar_supply)
        self.set_priv(side, radar=tuple(sorted(self.private[side].radar + (value,))))
        me = self.set_side(side, radar=self.sides[side].radar + 1)
        self.log("  {} takes a radar token ({} held)", self.labels[side], me.radar)
        return True

    def return_tokens(self, values) -> None:
        """Radar tokens back to the supply (shuffled face down: kept sorted, drawn at random)."""
        if values:
            self.radar_supply = tuple(sorted(self.radar_supply + tuple(values)))
            self.b["radar_left"] = len(self.radar_supply)

    # -- influence (WC.F1, WC.F5) -------------------------------------------------------
    def influence(self, side: int, effects: bool = True) -> None:
        """Advance ``side``'s influence marker one space; with ``effects``, resolve the
        space's effect at once, advancing again for a further Influence (WC.F5). An
        effect that needs a choice is asked next, to be performed (no pass: "any action or
        effect on the space is resolved immediately"); one that cannot be done is lost."""
        asked = []
        while True:
            me = self.sides[side]
            if not can_advance(self.comp, me):
                self.log("  {} is on the last influence space: no advance", self.labels[side])
                break
            self.b["stamp"] += 1
            me = self.set_side(side, influence=me.influence + 1, arrived=self.b["stamp"])
            self.log("  {} advances to influence {}", self.labels[side], me.influence)
            if not effects:
                break
            bonus = self.setup.track[me.influence]
            if bonus == Bonus.INFLUENCE:
                self.log("  influence space effect: Influence again")
                continue
            if bonus == Bonus.VP:
                self.gain(side, 1, "influence space")
            elif bonus == Bonus.RADAR:
                self.take_radar(side)
            elif bonus != Bonus.NONE:
                pending = self.ask_for(side, Icon(bonus.value), None, "influence space", must=True)
                if pending is None:
                    self.log("  influence space effect {}: not possible, lost", words(bonus))
                else:
                    asked.append(pending)
            break
        self.push(*asked)

    # -- questions ----------------------------------------------------------------------
    def can_move(self, side: int, helis=MODELS) -> bool:
        if helis == MODELS:
            return can_move(self.table, self.sides, side)
        return bool(moves(self.table, self.sides, side, helis))

    def can_rescue(self, side: int, person: Person | None) -> bool:
        return bool(rescues(self.comp, self.table, self.sides, self.b["roofs"], self.b["stairs"], side, person))

    def can_special(self, side: int) -> bool:
        return special_possible(self.comp, self.sides[side], self.setup.colours[side], self.private[side].radar,
                                self.b["orders_row"])

    def ask_for(self, side: int, icon: Icon, person: Person | None, why: str, must: bool = False) -> Pending | None:
        """The question a Move / Rescue / Special Order action asks ``side``, or ``None``
        when there is nothing it could do (carrier upgrades 3 and 4 allow two). ``must``:
        the action is performed when able (no pass: a phase-1 slot's action, an influence
        space's effect)."""
        ups = self.sides[side].upgrades
        if icon == Icon.MOVE:
            return pending(Ask.MOVE, side, MODELS, ups[3], None, 1, why, must) if self.can_move(side) else None
        if icon == Icon.RESCUE:
            can = self.can_rescue(side, person)
            return pending(Ask.RESCUE, side, MODELS, False, person, 2 if ups[2] else 1, why, must) if can else None
        if icon == Icon.SPECIAL_ORDER:
            can = self.can_special(side)
            return pending(Ask.SPECIAL_ORDER, side, MODELS, False, None, 1, why, must) if can else None
        raise ValueError(f"no question for {icon}")  # pragma: no cover - a bug

    # -- helicopters (WC.G4, WC.G5, WC.F6) ----------------------------------------------
    def fly(self, side: int, model, dest: str) -> None:
        """Fly helicopter ``model`` of ``side`` to ``dest`` (WC.G4). Leaving the carrier
        with People aboard sends them back to the supply; landing on the carrier unloads
        (WC.F6)."""
        i = MODELS.index(model)
        me = self.sides[side]
        own = self.table.carriers[side]
        if me.at[i] == own and me.aboard[i]:
            for p in me.aboard[i]:
                self.to_supply(p)
            self.log("  {} {} takes off: {} aboard go back to the supply", self.labels[side], model,
                     Text(joined, me.aboard[i]))
            me = self.set_side(side, aboard=_put(me.aboard, i, ()))
        self.set_side(side, at=_put(me.at, i, dest))
        self.log("  {} {} flies to {}", self.labels[side], model, Phrase(at_place, dest))
        if dest == own:
            self.settle(side)

    def rescue(self, side: int, model, node: str, person: Person) -> None:
        """Take ``person`` from rooftop or staircase ``node`` aboard helicopter ``model`` (WC.G5)."""
        i = MODELS.index(model)
        k = self.table.roof_of[node]
        key = "roofs" if node == self.table.roofs[k] else "stairs"
        places = self.b[key]
        self.b[key] = _put(places, k, _without(places[k], (person,)))
        me = self.sides[side]
        self.set_side(side, aboard=_put(me.aboard, i, me.aboard[i] + (person,)))
        self.log("  {} {} rescues a {} from {}", self.labels[side], model, person, Phrase(at_place, node))

    def settle(self, side: int) -> None:
        """WC.F6: unload the helicopters on ``side``'s carrier. Everything when it fits;
        with too little room the player chooses whom (an ``unload`` question); Captain
        Chambers unloads everything and returns the People to the supply (WC.H6)."""
        me = self.sides[side]
        own = self.table.carriers[side]
        on = [i for i in range(len(MODELS)) if me.at[i] == own and me.aboard[i]]
        if not on:
            return
        if self.is_chambers(side):
            for i in on:
                for p in self.sides[side].aboard[i]:
                    self.to_supply(p)
                self.unload(side, i, self.sides[side].aboard[i], keep=False)
            return
        total = sum(len(me.aboard[i]) for i in on)
        free = free_spaces(me)
        if free <= 0:
            return
        if total <= free:
            for i in on:
                self.unload(side, i, self.sides[side].aboard[i])
            return
        front = self.b["pending"][:1]
        if not (front and front[0].ask == Ask.UNLOAD and front[0].side == side):
            self.push(pending(Ask.UNLOAD, side, why=N_("carrier short of space")))

    def unload(self, side: int, i: int, people: tuple[Person, ...], keep: bool = True) -> None:
        """Unload ``people`` from helicopter ``MODELS[i]`` and score its VP for each (WC.F6);
        ``keep``: they stay on the carrier (else they went back to the supply)."""
        me = self.sides[side]
        card = heli_side(self.comp, me, i)
        vp = sum(card.value(p) for p in people)
        changes = {"aboard": _put(me.aboard, i, _without(me.aboard[i], people)), "rescued": me.rescued + len(people)}
        if keep:
            changes["carrier"] = tuple(sorted(me.carrier + tuple(people), key=PEOPLE.index))
        self.set_side(side, **changes)
        self.log("  {} unloads {} from the {}", self.labels[side], Text(joined, people), MODELS[i])
        self.gain(side, vp, "unloading")

    # -- special orders and upgrades (WC.F5) --------------------------------------------
    def complete_order(self, side: int, index: int, paid: tuple[Person, ...]) -> None:
        """Discard ``paid`` from the carrier and take special order ``index`` (VP at the end)."""
        me = self.sides[side]
        for p in paid:
            self.pay(p)
        self.b["orders_row"] = tuple(o for o in self.b["orders_row"] if o != index)
        self.set_priv(side, orders=self.private[side].orders + (index,))
        self.set_side(side, carrier=_without(me.carrier, paid), orders=me.orders + 1)
        self.log("  {} completes a special order: {}", self.labels[side], Phrase(_order_label, self.comp.orders[index]))
        self.settle(side)

    def do_upgrade(self, side: int, number: int, people: tuple[Person, ...] = (), tokens: tuple[int, ...] = ()) -> None:
        """Flip carrier card ``number`` (its requirement paid with ``people`` or radar
        ``tokens``, which go back to the supply) and apply its effect (WC.F5)."""
        me = self.sides[side]
        for p in people:
            self.pay(p)
        if tokens:
            self.set_priv(side, radar=_without(self.private[side].radar, tokens))
            self.return_tokens(tokens)
        changes = {"upgrades": _put(me.upgrades, number - 1, True), "carrier": _without(me.carrier, people),
                   "radar": me.radar - len(tokens)}
        if number in (1, 2):
            changes["night"] = _put(me.night, number - 1, True)
        up = self.comp.upgrades[number - 1]
        if up.spaces:
            changes["spaces"] = me.spaces + up.spaces
            self.table = self.table.with_capacity(side, changes["spaces"])
        self.set_side(side, **changes)
        self.log("  {} upgrades carrier card {}: {}", self.labels[side], number, up.name)
        self.settle(side)

    # -- freezing -----------------------------------------------------------------------
    def freeze(self):
        """The next state (the copied state's class), one step later: every field as this
        copy holds it, the board made from ``b``."""
        return Draft.freeze(self, board=Board.from_fields(self.b), sides=tuple(self.sides),
                            private=tuple(self.private))


def _put(items: tuple, i: int, value) -> tuple:
    """``items`` with item ``i`` replaced by ``value``."""
    return items[:i] + (value,) + items[i + 1:]
