"""Damage decks, damage cards and the special effects they carry (DF.D1-DF.D7).

These rules come from the published game, not from the source text (which only names
the damage card a collision gives, DF.C4, DF.C5): see docs/rules/dogfight.md.

A damage deck is a data file, one per letter (the published game uses A-E)::

    [deck]
    letter = "B"
    provenance = "reconstruction"    # official | measured | reconstruction
    notes = "how the distribution was chosen"

    [[card]]
    value = 2                        # damage points
    count = 6                        # how many such cards (default 1)

    [[card]]
    value = 1
    special = "fire"                 # one of Special

    [special.fire]                   # what the special does (every special a card uses)
    text = "the plane burns"
    maneuvers = 3                    # it lasts the next 3 maneuvers
    burn_points = 1                  # damage points at the end of each of them

Effects a special may have (:class:`SpecialEffect`): ``destroys`` (the plane is
destroyed at once), ``burn_points`` per maneuver while it lasts, ``silences_guns``
(its guns do not fire while it lasts), ``forbids`` (card flags the plane's plans may not
use while it lasts). Nothing about a special is decided in code but when each kind of
effect applies (docs/dogfight.md).

Cards are numbered in file order (``count`` expanded), 1-based: card ``"B#7"`` is the
seventh card of deck B. A draw pile is a tuple of card numbers, top first.
"""
from __future__ import annotations

import pathlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from importlib import resources

from furball.errors import InputError
from furball.geometry.datafile import Table, is_file, load_toml
from furball.i18n import N_

__all__ = ["Special", "Gun", "SpecialEffect", "DamageCard", "DamageDeck", "ActiveEffect", "DamageDefaults",
           "damage_defaults", "parse_damage_deck", "load_damage_deck", "shipped_damage_decks", "find_damage_deck",
           "guns_of", "MAX_DAMAGE_CARDS", "COLLISION_LETTER", "BALLOON_COLLISION_LETTER"]

DAMAGE_DIR = resources.files("furball.maneuvers") / "data" / "damage"
MAX_DAMAGE_CARDS = 1000
"""The most cards a damage deck may hold (a real one has a few dozen)."""
COLLISION_LETTER = "A"
"""DF.C4: a colliding plane takes one damage card "A"."""
BALLOON_COLLISION_LETTER = "C"
"""DF.C5: in a collision with a balloon, plane and balloon each take one card "C"."""


class Special(StrEnum):
    """The specials a damage card may carry (DF.D6). What each does is data
    (:class:`SpecialEffect`, in the deck file)."""

    EXPLOSION = "explosion"
    FIRE = "fire"
    SMOKE = "smoke"
    JAMMED_GUN = "jammed_gun"
    ENGINE = "engine"
    RUDDER = "rudder"
    PILOT_WOUNDED = "pilot_wounded"


class Gun(StrEnum):
    """A plane's guns (DF.D2): the nose gun fires through the base's forward arcs (centre
    within 90 degrees of the heading), the rear gun through the others."""

    NOSE = "nose"
    REAR = "rear"


@dataclass(frozen=True)
class SpecialEffect:
    """What a special does (DF.D6), as the deck file says: ``destroys`` the plane at
    once; lasts the next ``maneuvers`` maneuvers, during which the plane takes
    ``burn_points`` damage points at the end of each, its guns are silent
    (``silences_guns``), and its plans may not use cards with any of the ``forbids``
    flags; ``text`` says it in words."""

    special: Special
    text: str = ""
    destroys: bool = False
    maneuvers: int = 0
    burn_points: int = 0
    silences_guns: bool = False
    forbids: frozenset[str] = frozenset()

    def as_json(self) -> dict:
        return {"special": str(self.special), "text": self.text, "destroys": self.destroys,
                "maneuvers": self.maneuvers, "burn_points": self.burn_points,
                "silences_guns": self.silences_guns, "forbids": sorted(self.forbids)}


@dataclass(frozen=True)
class DamageCard:
    """One damage card: ``id`` (``"B#7"``: deck letter and 1-based number), ``value``
    (damage points), ``special`` or ``None``."""

    id: str
    value: int
    special: Special | None = None

    def as_json(self) -> dict:
        return {"id": self.id, "value": self.value, "special": None if self.special is None else str(self.special)}


@dataclass(frozen=True)
class DamageDeck:
    """A damage deck (DF.D1): ``letter``, its ``cards`` in file order, the ``effects``
    of its specials (``(special, effect)`` pairs), ``provenance``, ``notes`` and the
    ``source`` file."""

    letter: str
    cards: tuple[DamageCard, ...]
    effects: tuple[tuple[Special, SpecialEffect], ...] = ()
    provenance: str = "reconstruction"
    notes: str = ""
    source: str = field(default="", compare=False)

    def __len__(self) -> int:
        return len(self.cards)

    def card(self, number: int) -> DamageCard:
        """Card ``number`` (1-based, as in its id)."""
        return self.cards[number - 1]

    def effect(self, special: Special) -> SpecialEffect:
        """What ``special`` does in this deck."""
        for s, e in self.effects:
            if s == special:
                return e
        raise InputError(f"damage deck '{self.letter}': special '{special}' has no [special.{special}] table")

    def as_json(self) -> dict:
        return {"letter": self.letter, "provenance": self.provenance, "notes": self.notes, "cards": len(self.cards),
                "effects": [e.as_json() for _, e in self.effects]}


@dataclass(frozen=True)
class ActiveEffect:
    """A special in effect on a plane (DF.D6): ``special``, ``maneuvers_left`` (how many
    maneuvers it still lasts), and what it does meanwhile (``burn_points``,
    ``silences_guns``, ``forbids``; see :class:`SpecialEffect`). ``fresh``: received in
    the maneuver being resolved (it starts counting at the end of the next one)."""

    special: Special
    maneuvers_left: int
    burn_points: int = 0
    silences_guns: bool = False
    forbids: tuple[str, ...] = ()
    fresh: bool = False

    @classmethod
    def of(cls, effect: SpecialEffect) -> ActiveEffect:
        return cls(effect.special, effect.maneuvers, effect.burn_points, effect.silences_guns,
                   tuple(sorted(effect.forbids)), fresh=True)

    def as_json(self) -> dict:
        return {"special": str(self.special), "maneuvers_left": self.maneuvers_left,
                "burn_points": self.burn_points, "silences_guns": self.silences_guns, "forbids": list(self.forbids)}


# -- files -------------------------------------------------------------------------------
MAX_LETTER_CHARS = 8
"""The longest damage deck letter accepted (letters or digits): a deck is named by a
letter or a short code, never a sentence."""

DECK_FIELDS = ("letter", "provenance", "notes")
CARD_FIELDS = ("value", "special", "count")
EFFECT_FIELDS = ("text", "destroys", "maneuvers", "burn_points", "silences_guns", "forbids")


def _is_letter(letter: str) -> bool:
    """A damage deck letter: 1 to :data:`MAX_LETTER_CHARS` letters or digits."""
    return 0 < len(letter) <= MAX_LETTER_CHARS and letter.isalnum()


def _letter(t: Table, key: str) -> str:
    letter = t.string(key)
    if not _is_letter(letter):
        raise t.error(key, f"a deck letter (at most {MAX_LETTER_CHARS} letters or digits, e.g. \"B\")", letter)
    return letter


def _effect(t: Table, special: Special) -> SpecialEffect:
    t.only(EFFECT_FIELDS)
    return SpecialEffect(special, t.string("text", "", nonempty=False), t.boolean("destroys", False),
                         t.integer("maneuvers", 0, minimum=0, maximum=1000),
                         t.integer("burn_points", 0, minimum=0, maximum=1000), t.boolean("silences_guns", False),
                         frozenset(t.strings("forbids", ())))


def parse_damage_deck(data: dict, source: str) -> DamageDeck:
    """A :class:`DamageDeck` from parsed TOML (module docstring). Raises
    :class:`InputError` naming the file, the card and the field."""
    top = Table(data, source).only(("deck", "card", "special"))
    head = top.table("deck").only(DECK_FIELDS)
    letter = _letter(head, "letter")
    raw_cards = top.list("card")
    if not raw_cards:
        raise top.error("card", N_("at least one [[card]]"), raw_cards)
    cards: list[DamageCard] = []
    used: set[Special] = set()
    for i, raw in enumerate(raw_cards):
        t = Table(raw, f"{source}: card #{i + 1}").only(CARD_FIELDS)
        value = t.integer("value", minimum=0, maximum=1000)
        special = t.string("special", None, choices=[s.value for s in Special])
        count = t.integer("count", 1, minimum=1, maximum=MAX_DAMAGE_CARDS)
        if len(cards) + count > MAX_DAMAGE_CARDS:
            raise t.error("count", f"at most {MAX_DAMAGE_CARDS} cards in the deck", count)
        for _ in range(count):
            cards.append(DamageCard(f"{letter}#{len(cards) + 1}", value, None if special is None else Special(special)))
        if special is not None:
            used.add(Special(special))
    specials = top.table("special", Table({}, f"{source}: special")).only([s.value for s in Special])
    effects = {Special(name): _effect(specials.table(name), Special(name)) for name in specials.keys()}
    missing = sorted(used - effects.keys())
    if missing:
        raise specials.error(missing[0], f"a [special.{missing[0]}] table saying what it does (a card carries it)")
    return DamageDeck(letter, tuple(cards), tuple(sorted(effects.items())), head.provenance(),
                      head.string("notes", "", nonempty=False), source)


def load_damage_deck(path: str | pathlib.Path) -> DamageDeck:
    """Load a damage deck file. Raises :class:`InputError`."""
    return parse_damage_deck(load_toml(path), str(path))


@lru_cache(maxsize=1)
def shipped_damage_decks() -> dict[str, DamageDeck]:
    """The damage decks shipped in ``maneuvers/data/damage`` (A-E, a labelled
    reconstruction), by letter."""
    decks = {}
    for entry in sorted(DAMAGE_DIR.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            deck = parse_damage_deck(load_toml(entry), f"maneuvers/data/damage/{entry.name}")
            decks[deck.letter] = deck
    return decks


def find_damage_deck(letter_or_path: str) -> DamageDeck:
    """A shipped damage deck by letter, or a damage deck file by path. Raises
    :class:`InputError` naming the shipped letters when neither matches."""
    if letter_or_path.endswith(".toml") or "/" in letter_or_path or is_file(letter_or_path):
        return load_damage_deck(letter_or_path)
    decks = shipped_damage_decks()
    if letter_or_path in decks:
        return decks[letter_or_path]
    raise InputError(f"damage deck {letter_or_path[:40]!r}: no shipped deck of that letter and no such file "
                     f"(shipped: {', '.join(sorted(decks))})")


# -- defaults ----------------------------------------------------------------------------
@dataclass(frozen=True)
class DamageDefaults:
    """What a plane or balloon has when its file says nothing (DF.D2, from
    ``maneuvers/data/dogfight.toml``): damage points of a plane and of a balloon, a
    plane's gun letters (``(gun, letter)`` pairs), the cards drawn at short and long
    range (DF.D3), and the data's provenance."""

    plane_points: int
    balloon_points: int
    guns: tuple[tuple[Gun, str], ...]
    short_range_cards: int
    long_range_cards: int
    provenance: str


@lru_cache(maxsize=1)
def damage_defaults() -> DamageDefaults:
    """The shipped defaults (a labelled reconstruction; see the data file)."""
    source = "maneuvers/data/dogfight.toml"
    top = Table(load_toml(resources.files("furball.maneuvers") / "data" / "dogfight.toml"), source)
    d = top.table("damage").only(("plane_points", "balloon_points", "nose", "rear", "short_range_cards",
                                  "long_range_cards"))
    guns = tuple((g, d.string(g.value)) for g in Gun if g.value in d)
    return DamageDefaults(d.integer("plane_points", minimum=1), d.integer("balloon_points", minimum=1), guns,
                          d.integer("short_range_cards", minimum=0), d.integer("long_range_cards", minimum=0),
                          top.provenance())


def guns_of(value: Mapping | Sequence, where: str) -> tuple[tuple[Gun, str], ...]:
    """Gun letters as sorted ``(Gun, letter)`` pairs from a mapping ``{"nose": "B"}`` or
    pairs. Raises :class:`InputError` naming ``where``."""
    items = value.items() if isinstance(value, Mapping) else value
    out = {}
    try:
        for gun, letter in items:
            if not (isinstance(letter, str) and _is_letter(letter)):
                raise ValueError
            out[Gun(gun)] = letter
    except (TypeError, ValueError):
        raise InputError(f"{where}: field 'guns': expected {{ nose = LETTER, rear = LETTER }} (damage deck "
                         f"letters, DF.D2), got {value!r:.60}") from None
    return tuple(sorted(out.items(), key=lambda kv: list(Gun).index(kv[0])))
