"""A dogfight table as Python values: its size, its rules, the planes on it, and orders.

Everything ``furball turn`` reads from a scenario file can be built here directly::

    from furball.scenarios.dogfight import Table, PlaneState, Orders, adjudicate
    table = Table(width_mm=900, height_mm=900, planes=[
        PlaneState("Camel", side="Allies", deck="A", base=None, pose=(250, 420, 0), altitude=2),
        PlaneState("Albatros", side="Central Powers", deck="A", base=None, pose=(400, 440, 10), altitude=2),
    ])
    result = adjudicate(table, {"Camel": ["A1", "A3", "A4"], "Albatros": ["A4", "A6", "A14"]}, seed=1)
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from furball.errors import InputError
from furball.geometry.datafile import MAX_LENGTH_MM
from furball.geometry.tolerance import TOLERANCE_MM
from furball.i18n import Message, msg
from furball.maneuvers.damage import (
    BALLOON_COLLISION_LETTER,
    COLLISION_LETTER,
    DamageDeck,
    shipped_damage_decks,
)
from furball.maneuvers.plan import CARDS_PER_TURN
from furball.maneuvers.plane import PlaneKind, PlaneState, Rules, check_name, default_rules

__all__ = ["Table", "Orders", "MIN_TABLE_MM", "MAX_PLANES", "normalise_orders", "default_damage_decks"]

MIN_TABLE_MM = 10.0
"""The smallest table side accepted (a smaller one is a typo, not a table)."""
MAX_PLANES = 1000
"""The most planes on one table (more would take minutes per turn; refused at once)."""


@dataclass(frozen=True)
class Orders:
    """A plane's orders for the coming turn: ``plan``, its three card ids in the order
    they will be flown (DF.M1); ``drops``, bombs dropped after each maneuver (``None``:
    none; DF.B1, DF.B2); ``tail``, the enemy its player chose to tail when several can
    be (DF.T3), or ``None`` to let the engine pick the nearest.

    The fields are what they say (tuples, not lists): :meth:`of` builds orders from any
    sequences. Raises ``TypeError`` for a plan or drops that are not tuples."""

    plan: tuple[str, ...] | None = None
    drops: tuple[int, ...] | None = None
    tail: str | None = None

    def __post_init__(self):
        for key in ("plan", "drops"):
            value = getattr(self, key)
            if value is not None and type(value) is not tuple:
                raise TypeError(f"Orders: field '{key}': expected a tuple or None (Orders.of takes any sequence), "
                                f"got {type(value).__name__}")

    @classmethod
    def of(cls, plan: Sequence[str] | None = None, drops: Sequence[int] | None = None,
           tail: str | None = None) -> Orders:
        """Orders from loose inputs: ``plan`` and ``drops`` any sequences (a list from a
        notebook or a JSON body), kept as tuples."""
        return cls(None if plan is None else tuple(plan), None if drops is None else tuple(drops), tail)


@dataclass(frozen=True)
class Table:
    """A table ready for a turn.

    ``width_mm`` x ``height_mm``: the play area, from (0, 0) (table frame: x right, y
    up); ``planes``: :class:`~maneuvers.plane.PlaneState` values with unique names;
    ``rules``: :class:`~maneuvers.plane.Rules` (default: the shipped defaults); ``name``,
    ``turn`` (1 = the first turn of the game: planes start at altitude 1 or more,
    DF.H2), ``notes``. ``damage_decks``: the damage decks by letter (DF.D1; default:
    the shipped A-E, :func:`default_damage_decks`), as :class:`DamageDeck` values;
    ``piles``: each deck's draw pile, ``(letter, card numbers top first)`` pairs sorted
    by letter (a deck without a pile is shuffled when first drawn from; DF.D7).

    Raises :class:`InputError` (one line) for a table side outside [10 mm, 1 km], more
    than :data:`MAX_PLANES` planes, a duplicate name, an altitude above the ceiling, a
    plane below altitude 1 on turn 1, a plane on the table whose stand lies outside
    the play area (DF.E1: it would already be out of the game), a gun letter with no
    damage deck, or a pile that is not made of its deck's cards.
    """

    width_mm: float
    height_mm: float
    planes: tuple[PlaneState, ...]
    rules: Rules = field(default_factory=default_rules)
    name: str = "table"
    turn: int = 1
    notes: str = ""
    damage_decks: tuple[DamageDeck, ...] = field(default_factory=lambda: default_damage_decks())
    piles: tuple[tuple[str, tuple[int, ...]], ...] = ()

    def __post_init__(self):
        check_name(self.name, "table: field 'name'")
        for key in ("width_mm", "height_mm"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
                    MIN_TABLE_MM <= value <= MAX_LENGTH_MM):
                raise InputError(msg("table: field '{key}': expected {least} to {most} mm, got {value}",
                                     key=key, least=format(MIN_TABLE_MM, "g"), most=format(MAX_LENGTH_MM, "g"),
                                     value=format(repr(value), ".40")))
            object.__setattr__(self, key, float(value))
        if isinstance(self.turn, bool) or not isinstance(self.turn, int) or self.turn < 1:
            raise InputError(msg("table: field 'turn': expected a whole number >= 1, got {value}",
                                 value=format(repr(self.turn), ".40")))
        planes = tuple(self.planes)
        object.__setattr__(self, "planes", planes)
        if not planes:
            raise InputError(msg("table: field 'planes': expected at least one plane"))
        if len(planes) > MAX_PLANES:
            raise InputError(msg("table: field 'planes': expected at most {most} planes, got {count}",
                                 most=MAX_PLANES, count=len(planes)))
        seen = set()
        for p in planes:
            if not isinstance(p, PlaneState):
                raise InputError(msg("table: field 'planes': expected PlaneState values, got {type}",
                                     type=type(p).__name__))
            if p.name in seen:
                raise InputError(msg("plane '{plane}': field 'name': expected a name no other plane has",
                                     plane=p.name))
            seen.add(p.name)
            self._check_plane(p)
        decks, piles = self._checked_damage()
        object.__setattr__(self, "damage_decks", decks)
        object.__setattr__(self, "piles", piles)

    def _checked_damage(self) -> tuple[tuple[DamageDeck, ...], tuple[tuple[str, tuple[int, ...]], ...]]:
        """The damage decks (sorted by letter) and piles, checked (DF.D1, DF.D7)."""
        decks = tuple(self.damage_decks.values()) if isinstance(self.damage_decks, Mapping) else tuple(
            self.damage_decks)
        if not all(isinstance(d, DamageDeck) for d in decks):
            raise InputError(msg("table: field 'damage_decks': expected DamageDeck values"))
        by_letter = {d.letter: d for d in decks}
        needed: dict[str, Message] = {COLLISION_LETTER: msg("collisions (DF.C4)"),
                                      BALLOON_COLLISION_LETTER: msg("balloon collisions (DF.C5)")}
        for p in self.planes:
            for gun, letter in p.guns:
                needed.setdefault(letter, msg("plane '{plane}': {gun} gun", plane=p.name, gun=gun))
        for letter, why in needed.items():
            if letter not in by_letter:
                raise InputError(msg("table: field 'damage_decks': expected a damage deck '{letter}' for {why} "
                                     "(decks: {decks})", letter=letter, why=why, decks=", ".join(sorted(by_letter))))
        piles = dict(self.piles.items() if isinstance(self.piles, Mapping) else self.piles)
        for letter, pile in piles.items():
            deck = by_letter.get(letter)
            pile = tuple(pile)
            if deck is None:
                raise InputError(msg("table: field 'piles': pile '{letter}' has no damage deck of that letter",
                                     letter=letter))
            if len(set(pile)) != len(pile) or not all(
                    isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= len(deck) for n in pile):
                raise InputError(msg("table: field 'piles': pile '{letter}': expected distinct card numbers from 1 "
                                     "to {count} (DF.D7), got {value}", letter=letter, count=len(deck),
                                     value=format(repr(list(pile)[:8]), ".60")))
            piles[letter] = pile
        return tuple(sorted(by_letter.values(), key=lambda d: d.letter)), tuple(sorted(piles.items()))

    def damage_deck(self, letter: str) -> DamageDeck:
        """The damage deck of ``letter`` (DF.D1)."""
        for d in self.damage_decks:
            if d.letter == letter:
                return d
        raise InputError(msg("table '{table}': no damage deck '{letter}'", table=self.name, letter=letter))

    def pile(self, letter: str) -> tuple[int, ...] | None:
        """The draw pile of deck ``letter`` (card numbers, top first), or ``None`` when
        it has not been shuffled yet (DF.D7)."""
        for name, pile in self.piles:
            if name == letter:
                return pile
        return None

    def _check_plane(self, p: PlaneState) -> None:
        if p.altitude > self.rules.max_altitude:
            raise InputError(msg("plane '{plane}': field 'altitude': expected at most the ceiling {ceiling} "
                                 "(DF.H3), got {altitude}", plane=p.name, ceiling=self.rules.max_altitude,
                                 altitude=p.altitude))
        if self.turn == 1 and p.kind == PlaneKind.PLANE and p.altitude < 1:
            raise InputError(msg("plane '{plane}': field 'altitude': expected 1 to {ceiling} on turn 1 "
                                 "(DF.H2: the game starts at an agreed altitude from 1), got {altitude}",
                                 plane=p.name, ceiling=self.rules.max_altitude, altitude=p.altitude))
        if p.on_table and p.damage_taken >= p.damage_points:
            raise InputError(msg("plane '{plane}': field 'damage_taken': expected less than its {points} damage "
                                 "points for a plane on the table (DF.D5), got {taken} (say status = \"destroyed\")",
                                 plane=p.name, points=p.damage_points, taken=p.damage_taken))
        if p.on_table and not self.stand_on_table(p):
            x, y = p.stand
            raise InputError(msg("plane '{plane}': field 'pose': expected the stand on the {width} x {height} mm "
                                 "table, got ({x}, {y}) mm (a plane off the table is out of the game, DF.E1: say "
                                 "status = \"out\")", plane=p.name, width=format(self.width_mm, "g"),
                                 height=format(self.height_mm, "g"), x=format(x, ".1f"), y=format(y, ".1f")))

    def stand_on_table(self, p: PlaneState) -> bool:
        """DF.E1: the stand (the base centre where the peg goes) is on the play area; a
        stand exactly on the edge, within the tolerance, is still on it."""
        x, y = p.stand
        return (-TOLERANCE_MM <= x <= self.width_mm + TOLERANCE_MM
                and -TOLERANCE_MM <= y <= self.height_mm + TOLERANCE_MM)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.planes)

    def plane(self, name: str) -> PlaneState:
        """The plane called ``name``. Raises :class:`InputError` listing the planes."""
        for p in self.planes:
            if p.name == name:
                return p
        raise InputError(msg("no plane {name} on table '{table}' (planes: {planes})", name=format(repr(name), ".60"),
                             table=self.name, planes=", ".join(self.names)))

    def replace(self, **changes) -> Table:
        """A copy with some fields changed (checked again)."""
        return replace(self, **changes)


def default_damage_decks() -> tuple[DamageDeck, ...]:
    """The shipped damage decks A-E (a labelled reconstruction, DF.D1)."""
    return tuple(shipped_damage_decks().values())


def needs_plan(p: PlaneState) -> bool:
    """A plane whose player plans three cards this turn (DF.M1): flying, not a balloon,
    not autonomous (DF.A1 draws its cards)."""
    return p.flying and not p.is_balloon and not p.autonomous


def normalise_orders(table: Table, orders: Mapping[str, Orders | Sequence[str]] | None,
                     require_plans: bool = True) -> dict[str, Orders]:
    """Orders by plane name, each an :class:`Orders` (a bare sequence of card ids is a
    plan). Raises :class:`InputError` naming plane and field for orders of an unknown
    plane, a plan for a plane that draws or has none, a tail wish that does not name an
    enemy on the table (DF.T3), or (with ``require_plans``) a missing plan."""
    out: dict[str, Orders] = {}
    orders = dict(orders or {})
    for name, o in orders.items():
        p = table.plane(name)
        if not isinstance(o, Orders):
            if isinstance(o, str):
                raise InputError(msg("plane '{plane}': field 'plan': expected {count} card ids, got {value}",
                                     plane=name, count=CARDS_PER_TURN, value=format(repr(o), ".60")))
            o = Orders.of(plan=o)
        if o.plan is not None and not needs_plan(p):
            if p.is_balloon:
                why = msg("balloons do not maneuver")
            elif p.autonomous:
                why = msg("autonomous planes draw their cards (DF.A1)")
            else:
                why = msg("it is {status}", status=str(p.status))
            raise InputError(msg("plane '{plane}': field 'plan': expected no plan: {why}", plane=name, why=why))
        if o.tail is not None:
            target = table.plane(o.tail) if o.tail in table.names else None
            if target is None or target.name == name or target.side == p.side:
                raise InputError(msg("plane '{plane}': field 'tail': expected the name of an enemy plane "
                                     "(another side, DF.T3), got {value}", plane=name, value=format(repr(o.tail), ".60")))
        out[name] = o
    for p in table.planes:
        o = out.setdefault(p.name, Orders())
        if require_plans and needs_plan(p) and o.plan is None:
            raise InputError(msg("plane '{plane}': field 'plan': expected {count} card ids for turn {turn} (DF.M1)",
                                 plane=p.name, count=CARDS_PER_TURN, turn=table.turn))
    return out


def ordered(planes: Iterable[PlaneState]) -> list[PlaneState]:
    """Planes in name order: every random draw and every choice that could depend on
    the order of the planes follows it, so the table's order never matters."""
    return sorted(planes, key=lambda p: p.name)
