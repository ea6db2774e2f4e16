"""The components of 1975 White Christmas, read from the data files (WC.G*, WC.F*).

Every card set lives in ``scenarios/white_christmas/data/*.toml``; each file has a top-level
``provenance`` and ``notes`` and is checked field by field (one-line :class:`InputError`
naming the file, the card and the field). Whatever the rules do not print is marked
``provenance = "reconstruction"`` there. :func:`load_components` reads the shipped files,
or a directory whose files replace the shipped ones of the same name.

The closed vocabularies of the game are the ``StrEnum`` classes below; their values are
the words used in data files, logs and JSON.
"""
from __future__ import annotations

import pathlib
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property, lru_cache
from importlib import resources

from furball.errors import InputError
from furball.geometry.datafile import Table, load_toml, parse_toml
from furball.i18n import ENGLISH, N_, Message, msg

__all__ = ["words", "Person", "Model", "Icon", "Bonus", "Extra", "Wild", "PEOPLE", "MODELS", "ROW", "FILES",
           "HeliSide", "Helicopter", "ActionCard", "Rooftop", "Staircase", "EffectCard", "Influence",
           "Order", "Sighting", "Cessna", "Upgrade", "Colour", "Components", "load_components",
           "shipped_components", "DATA"]


class Person(StrEnum):
    """A People token type (WC.F5 Rescue)."""

    VIETNAMESE = "vietnamese"
    SOLDIER = "soldier"
    BUSINESSWOMAN = "businesswoman"
    POLITICIAN = "politician"


WORDS = (N_("vietnamese"), N_("soldier"), N_("businesswoman"), N_("politician"), N_("inspect"), N_("radar"),
         N_("influence"), N_("move"), N_("rescue"), N_("special_order"), N_("draw cards"), N_("play cards"),
         N_("sighting"), N_("top"), N_("bottom"), N_("staircase"), N_("yellow"), N_("green"), N_("blue"), N_("red"))
"""The words of the game's enums that its log writes as they are (a person, an action's
icon, a phase, a place on a rooftop, an influence colour), for the catalog: a log entry's
argument that is a word reads through it (:func:`furball.i18n.render_entry`)."""


class Model(StrEnum):
    """A helicopter model; it fixes the landing slot (WC.G3): CH-46 top, CH-53 bottom."""

    CH53 = "CH-53"
    CH46 = "CH-46"


class Icon(StrEnum):
    """An action (WC.F5), as printed on action cards and the board's action slots."""

    INSPECT = "inspect"
    RADAR = "radar"
    INFLUENCE = "influence"
    MOVE = "move"
    RESCUE = "rescue"
    SPECIAL_ORDER = "special_order"


class Bonus(StrEnum):
    """What an influence-track space does when a marker reaches it (WC.F5 Influence)."""

    NONE = "none"
    RADAR = "radar"
    INFLUENCE = "influence"
    MOVE = "move"
    RESCUE = "rescue"
    SPECIAL_ORDER = "special_order"
    VP = "vp"


class Extra(StrEnum):
    """An action a Sighting card grants its winner (WC.F4), usable at once or later."""

    INFLUENCE = "influence"
    DOUBLE_MOVE = "double_move"
    DOUBLE_SPECIAL_ORDER = "double_special_order"
    RESCUE = "rescue"


class Wild(StrEnum):
    """The two wildcards (WC.F3, WC.H1)."""

    ACTION = "action"
    RESCUE = "rescue"


@lru_cache(maxsize=256)
def words(value) -> str:
    """A vocabulary value as words for text: ``special_order`` -> ``special order``."""
    return str(value).replace("_", " ")

PEOPLE = tuple(Person)
"""The People types in a fixed order (every per-type count tuple uses it)."""
MODELS = (Model.CH53, Model.CH46)
"""A player's helicopters in carrier-card order, left to right (reconstruction: upgrade 1
flips the CH-53, upgrade 2 the CH-46, so they sit on cards 1 and 2 in that order)."""
ROW = (Icon.RADAR, Icon.INFLUENCE, Icon.MOVE, Icon.SPECIAL_ORDER)
"""The board's face-up action slots, left to right; the deck lies under Inspect."""
ACTION_WILD_USES = ROW
"""What the Action Wild may do (WC.F3)."""

FILES = ("people", "helicopters", "rooftops", "staircases", "radar", "action_cards", "influence",
         "special_orders", "sightings", "carrier")
"""The data files (``<name>.toml``)."""
DATA = resources.files("furball.scenarios.white_christmas") / "data"

MAX_SMALL = 20
"""Largest capacity, space count or VP a card may print (anything bigger is a typo)."""


@dataclass(frozen=True)
class HeliSide:
    """One side of a helicopter card: ``capacity`` (People aboard at most) and ``vp``:
    ``(type, VP)`` pairs for the types it may carry (others it cannot)."""

    capacity: int
    vp: tuple[tuple[Person, int], ...]

    @cached_property
    def table(self) -> dict[Person, int]:
        """``vp`` as a mapping: type -> VP."""
        return dict(self.vp)

    def carries(self, person: Person) -> bool:
        return person in self.table

    def value(self, person: Person) -> int:
        """VP for unloading ``person`` (0 for a type it cannot carry)."""
        return self.table.get(person, 0)


@dataclass(frozen=True)
class Helicopter:
    """A helicopter card (WC.G3): ``model``, ``name``, ``day`` and ``night`` sides."""

    model: Model
    name: str
    day: HeliSide
    night: HeliSide

    def side(self, night: bool) -> HeliSide:
        return self.night if night else self.day


@dataclass(frozen=True)
class ActionCard:
    """An action card (WC.F2, WC.F3). A regular card: ``rescue`` (a type) on top and
    ``lower`` (Radar, Influence, Move or Special Order) below. ``wild``: the Action Wild
    (any of the four lower actions) or the Rescue Wild (rescue any type: ``rescue`` is
    ``None``, meaning any type)."""

    name: str
    rescue: Person | None = None
    lower: Icon | None = None
    wild: Wild | None = None

    def uses(self) -> tuple[Icon, ...]:
        """The actions this card offers, top first."""
        if self.wild == Wild.ACTION:
            return ACTION_WILD_USES
        if self.wild == Wild.RESCUE:
            return (Icon.RESCUE,)
        return (Icon.RESCUE, self.lower)


@dataclass(frozen=True)
class Rooftop:
    """A rooftop card (WC.G1): ``spaces`` for People; ``players``: the player counts it is
    used for (the bottom-left mark)."""

    name: str
    spaces: int
    players: tuple[int, ...]


@dataclass(frozen=True)
class Staircase:
    """A staircase card (WC.G2): the People types of its spaces in arrow order."""

    name: str
    people: tuple[Person, ...]


@dataclass(frozen=True)
class EffectCard:
    """An Influence Effect card (set-up step 2, WC.F5) lying under the track's stretch of
    its colour, spaces ``first`` .. ``first + len - 1``. It has two faces, a and b, each
    printed in two halves: ``faces[f][h]`` is half ``h`` of face ``f``, the effects of
    the stretch's spaces in order. At set-up one face is turned up and one of its halves
    shows, the board covering the other ("un lado y cara ... tapando el otro lado")."""

    colour: str
    first: int
    faces: tuple[tuple[tuple[Bonus, ...], tuple[Bonus, ...]], tuple[tuple[Bonus, ...], tuple[Bonus, ...]]]

    POSITIONS = 4
    """Face a or b, times first or second half showing."""

    def position(self, k: int) -> tuple[Bonus, ...]:
        """The effects showing in position ``k`` in 0..3: face ``k // 2`` (a, b), half
        ``k % 2`` (first, second) showing."""
        return self.faces[k // 2][k % 2]

    @staticmethod
    def name(k: int) -> str:
        """Position ``k`` in words (``face a, first half showing``; English, a catalog id)."""
        return POSITION_NAMES[k]

    @property
    def length(self) -> int:
        return len(self.faces[0][0])


POSITION_NAMES = (N_("face a, first half showing"), N_("face a, second half showing"),
                  N_("face b, first half showing"), N_("face b, second half showing"))
"""An effect card's positions 0..3 in words (:meth:`EffectCard.name`)."""

@dataclass(frozen=True)
class Influence:
    """The influence track (WC.F1, WC.F5): spaces 0..``spaces``; upgrade 1 needs a marker
    at ``threshold`` or beyond; ``cards`` cover its coloured stretches."""

    spaces: int
    threshold: int
    cards: tuple[EffectCard, ...]

    def track(self, positions: tuple[int, ...]) -> tuple[Bonus, ...]:
        """The effect on every space 0..spaces with card k in position ``positions[k]``."""
        track = [Bonus.NONE] * (self.spaces + 1)
        for card, k in zip(self.cards, positions):
            for i, bonus in enumerate(card.position(k)):
                track[card.first + i] = bonus
        return tuple(track)


@dataclass(frozen=True)
class Order:
    """A Special Order card (WC.F5): ``people`` (count per type, in :data:`PEOPLE`
    order) plus ``any`` People of any type, discarded from the carrier; ``vp`` at the end."""

    name: str
    people: tuple[int, ...]
    any: int
    vp: int

    def label(self, _=ENGLISH) -> str:
        """``Embassy marines (2 soldier: 3 VP)``, read with ``_`` (a reader's
        :func:`~furball.i18n.translator`; English by default)."""
        parts = [_("{n} {person}").format(n=n, person=_(p)) for p, n in zip(PEOPLE, self.people) if n]
        if self.any:
            parts.append(_("{n} any").format(n=self.any))
        return _("{name} ({people}: {vp} VP)").format(name=_(self.name), people=" + ".join(parts), vp=self.vp)


@dataclass(frozen=True)
class Sighting:
    """A Sighting card (WC.F4): ``passengers`` join the winner's carrier from the supply;
    ``actions`` the winner may use at once or on a later turn. The box holds 7 sighting
    cards, the Cessna (:class:`Cessna`) among them: rounds 1-3 draw 3 of the other 6."""

    name: str
    passengers: tuple[Person, ...]
    actions: tuple[Extra, ...]

    def label(self, _=ENGLISH) -> str:
        """``Huey with a family (vietnamese; double move)``, read with ``_`` (a reader's
        :func:`~furball.i18n.translator`; English by default)."""
        bits = [", ".join(map(_, self.passengers)) or _("no passengers")]
        if self.actions:
            bits.append(", ".join(_(words(a)) for a in self.actions))
        return _("{name} ({details})").format(name=_(self.name), details="; ".join(bits))


@dataclass(frozen=True)
class Cessna:
    """The last sighting (WC.F7): ``vp`` for the 1st/2nd/3rd radar totals; ``vp_two``
    with 2 players or solo."""

    name: str
    vp: tuple[int, ...]
    vp_two: tuple[int, ...]


@dataclass(frozen=True)
class Upgrade:
    """A carrier card's upgrade (WC.F5): ``number`` 1..5, ``vp`` at the end; the amounts of
    its requirement (``same`` People of the colour's type and ``any`` of any type;
    ``radar``: Radar value to discard) and ``spaces`` it adds (upgrade 5)."""

    number: int
    name: str
    vp: int
    same: int = 0
    any: int = 0
    radar: int = 0
    spaces: int = 0


@dataclass(frozen=True)
class Colour:
    """A player colour; ``rescue_device``: the People type its carrier card 3 asks for."""

    name: str
    rescue_device: Person


@dataclass(frozen=True, eq=False)
class Components:
    """Every card set of the game (see the module docstring). ``cards``: the 38 action
    cards expanded, a card's id is its index; ``provenance``: file -> provenance.

    Components are public and never change: answers that depend only on them and on
    other public values are kept in bounded caches keyed by them. They are loaded once
    (:func:`shipped_components`, or once per ``--data`` directory) and compared and
    hashed by identity, which costs nothing in those keys."""

    people: tuple[int, ...]
    helicopters: tuple[Helicopter, ...]
    rooftops: tuple[Rooftop, ...]
    staircases: tuple[Staircase, ...]
    radar: tuple[int, ...]
    cards: tuple[ActionCard, ...]
    influence: Influence
    orders: tuple[Order, ...]
    sightings: tuple[Sighting, ...]
    cessna: Cessna
    spaces: int
    upgrades: tuple[Upgrade, ...]
    colours: tuple[Colour, ...]
    provenance: tuple[tuple[str, str], ...]

    @cached_property
    def faces(self) -> tuple[int, ...]:
        """``faces[id]``: the first action-card id with the same face (identical cards
        are one choice)."""
        first: dict[ActionCard, int] = {}
        return tuple(first.setdefault(c, i) for i, c in enumerate(self.cards))

    def helicopter(self, model: Model) -> Helicopter:
        return self.helicopters[MODELS.index(model)]

    def row_rooftops(self, players: int) -> tuple[Rooftop, ...]:
        """The rooftops used with ``players`` players, in row order (WC.G1)."""
        return tuple(r for r in self.rooftops if players in r.players)

    def wilds(self, kind: Wild) -> tuple[int, ...]:
        return tuple(i for i, c in enumerate(self.cards) if c.wild == kind)

    @property
    def total_people(self) -> int:
        return sum(self.people)


# -- loading ---------------------------------------------------------------------------
def _top(data, source: str, fields) -> Table:
    t = Table(data, source).only(("provenance", "notes") + tuple(fields))
    t.provenance()
    t.string("notes", "", nonempty=False)
    return t


def _small(t: Table, key: str, default=..., minimum: int = 0, maximum: int = MAX_SMALL) -> int:
    return t.integer(key, default, minimum=minimum, maximum=maximum)


def _person(t: Table, key: str, value) -> Person:
    if value not in PEOPLE:
        raise t.error(key, msg("a People type ({types})", types=", ".join(PEOPLE)), value)
    return Person(value)


def _people_list(t: Table, key: str, default=..., most: int = MAX_SMALL) -> tuple[Person, ...]:
    names = t.strings(key, default)
    if len(names) > most:
        raise t.error(key, msg("at most {most} People", most=most), list(names))
    return tuple(_person(t, key, n) for n in names)


def _counts(t: Table, key: str) -> tuple[int, ...]:
    """``{type = count}`` -> counts in :data:`PEOPLE` order."""
    if key not in t:
        return (0,) * len(PEOPLE)
    sub = t.table(key)
    for name in sub.keys():
        if name not in PEOPLE:
            raise sub.error(name, msg("a People type ({types})", types=", ".join(PEOPLE)), name)
    return tuple(_small(sub, p, 0) for p in PEOPLE)


def _items(t: Table, key: str, count: int | None, what: Message | None) -> list[Table]:
    raw = t.list(key)
    if count is not None and len(raw) != count:
        raise t.error(key, msg("exactly {count} [[{key}]] entries ({what})", count=count, key=key, what=what),
                      f"{len(raw)} entries")
    return [Table(r, f"{t.where}: {key} #{i + 1}") for i, r in enumerate(raw)]


def _named(item: Table, fields) -> Table:
    name = item.string("name")
    return Table(item.data, f"{item.where.rsplit(': ', 1)[0]}: '{name}'").only(fields)


def _people(data, src) -> tuple[int, ...]:
    top = _top(data, src, ("type",))
    counts = {}
    for item in _items(top, "type", len(PEOPLE), msg("one per People type")):
        item = _named(item, ("name", "tokens"))
        person = _person(item, "name", item.string("name"))
        if person in counts:
            raise item.error("name", N_("each People type once"), person)
        counts[person] = item.integer("tokens", minimum=1, maximum=32)
    if sum(counts.values()) != 32:
        raise top.error("type", N_("32 People tokens in all (the rules' count)"), sum(counts.values()))
    return tuple(counts[p] for p in PEOPLE)


def _heli_side(t: Table, key: str) -> HeliSide:
    sub = t.table(key).only(("capacity", "vp"))
    vp = sub.table("vp")
    pairs = []
    for name in vp.keys():
        person = _person(vp, name, name)
        pairs.append((person, _small(vp, name)))
    if not pairs:
        raise sub.error("vp", N_("at least one People type the side can carry"))
    pairs.sort(key=lambda pv: PEOPLE.index(pv[0]))
    return HeliSide(_small(sub, "capacity", minimum=1, maximum=8), tuple(pairs))


def _helicopters(data, src) -> tuple[Helicopter, ...]:
    top = _top(data, src, ("helicopter",))
    found = {}
    for item in _items(top, "helicopter", len(MODELS), msg("one CH-53 and one CH-46")):
        item = _named(item, ("model", "name", "day", "night"))
        model = item.string("model", choices=[m.value for m in MODELS])
        if model in found:
            raise item.error("model", N_("each model once"), model)
        day, night = _heli_side(item, "day"), _heli_side(item, "night")
        if night.capacity < day.capacity or not all(night.carries(p) for p, _ in day.vp):
            raise item.error("night", N_("a night side at least as good as the day side (same capacity or "
                                         "more, every type the day side carries)"))
        found[Model(model)] = Helicopter(Model(model), item.string("name"), day, night)
    return tuple(found[m] for m in MODELS)


def _rooftops(data, src) -> tuple[Rooftop, ...]:
    top = _top(data, src, ("rooftop",))
    out = []
    for item in _items(top, "rooftop", 5, msg("the rules' 5 Rooftop cards")):
        item = _named(item, ("name", "spaces", "players"))
        players = item.list("players")
        if not players or not all(isinstance(p, int) and not isinstance(p, bool) and 2 <= p <= 4 for p in players):
            raise item.error("players", N_("a list of player counts from 2 to 4"), players)
        out.append(Rooftop(item.string("name"), _small(item, "spaces", minimum=2, maximum=8),
                           tuple(sorted(set(players)))))
    names = [r.name for r in out]
    if len(set(names)) != len(names):
        raise top.error("rooftop", N_("distinct rooftop names"), names)
    for players, want in ((2, 3), (3, 4), (4, 5)):
        got = sum(1 for r in out if players in r.players)
        if got != want:
            raise top.error("rooftop", msg("{want} rooftops marked for {players} players (WC.G1)", want=want,
                                           players=players), got)
    return tuple(out)


def _staircases(data, src) -> tuple[Staircase, ...]:
    top = _top(data, src, ("staircase",))
    out = []
    for item in _items(top, "staircase", 10, msg("the rules' 10 Staircase cards")):
        item = _named(item, ("name", "people"))
        people = _people_list(item, "people", most=6)
        if not people:
            raise item.error("people", N_("at least one space"))
        out.append(Staircase(item.string("name"), people))
    return tuple(out)


def _radar(data, src) -> tuple[int, ...]:
    top = _top(data, src, ("values",))
    values = top.list("values")
    if len(values) != 18 or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_SMALL
                                    for v in values):
        raise top.error("values", msg("18 token values, whole numbers from 1 to {most}", most=MAX_SMALL), values)
    return tuple(sorted(values))


def _action_cards(data, src) -> tuple[ActionCard, ...]:
    top = _top(data, src, ("card",))
    cards: list[ActionCard] = []
    for item in _items(top, "card", None, None):
        item = _named(item, ("name", "rescue", "action", "wild", "copies"))
        copies = item.integer("copies", 1, minimum=1, maximum=38)
        if "wild" in item:
            for key in ("rescue", "action"):
                if key in item:
                    raise item.error(key, N_("no actions on a wildcard (its `wild` says what it does)"))
            card = ActionCard(item.string("name"), wild=Wild(item.string("wild", choices=[w.value for w in Wild])))
        else:
            lower = item.string("action", choices=[i.value for i in ROW])
            card = ActionCard(item.string("name"), _person(item, "rescue", item.string("rescue")), Icon(lower))
        cards.extend([card] * copies)
    if len(cards) != 38:
        raise top.error("card", N_("38 action cards in all (the rules' count)"), len(cards))
    for kind, want, wanted in ((Wild.ACTION, 4, msg("4 action wildcards (WC.H1)")),
                               (Wild.RESCUE, 2, msg("2 rescue wildcards (WC.H1)"))):
        got = sum(1 for c in cards if c.wild == kind)
        if got != want:
            raise top.error("card", wanted, got)
    return tuple(cards)


def _effect_face(item: Table, key: str) -> tuple[tuple[Bonus, ...], tuple[Bonus, ...]]:
    """A face of an effect card: two halves, each a list of effects."""
    halves = item.list(key)
    if len(halves) != 2 or not all(isinstance(h, list) for h in halves):
        raise item.error(key, N_("two halves, each a list of effects ([[...], [...]])"), halves)
    names = [b.value for b in Bonus]
    out = []
    for half in halves:
        for n in half:
            if n not in names:
                raise item.error(key, msg("effects among {names}", names=", ".join(names)), n)
        out.append(tuple(Bonus(n) for n in half))
    return out[0], out[1]


def _influence(data, src) -> Influence:
    top = _top(data, src, ("spaces", "threshold", "effect_card"))
    spaces = top.integer("spaces", minimum=4, maximum=40)
    threshold = top.integer("threshold", minimum=1, maximum=spaces)
    cards, covered = [], set()
    for item in _items(top, "effect_card", 4, msg("the rules' 4 Influence Effect cards")):
        item = item.only(("colour", "first", "face_a", "face_b"))
        colour = item.string("colour")
        item = Table(item.data, f"{src}: effect_card '{colour}'")
        first = item.integer("first", minimum=1, maximum=spaces)
        faces = (_effect_face(item, "face_a"), _effect_face(item, "face_b"))
        length = len(faces[0][0])
        for key, face in zip(("face_a", "face_b"), faces):
            if not length or any(len(half) != length for half in face):
                if length:
                    raise item.error(key, msg("halves of {length} effects each, like face_a's first half",
                                              length=length), [len(half) for half in face])
                raise item.error(key, msg("halves of at least one effects each, like face_a's first half"),
                                 [len(half) for half in face])
        span = set(range(first, first + length))
        if max(span) > spaces or span & covered:
            raise item.error("first", msg("a stretch inside spaces 1..{spaces} that no other card covers",
                                          spaces=spaces), first)
        covered |= span
        cards.append(EffectCard(colour, first, faces))
    return Influence(spaces, threshold, tuple(cards))


def _orders(data, src) -> tuple[Order, ...]:
    top = _top(data, src, ("order",))
    out = []
    for item in _items(top, "order", 18, msg("the rules' 18 Special Order cards")):
        item = _named(item, ("name", "people", "any", "vp"))
        people, extra = _counts(item, "people"), _small(item, "any", 0, maximum=8)
        if not 1 <= sum(people) + extra <= 8:
            raise item.error("people", N_("1 to 8 People in all (people plus any)"), sum(people) + extra)
        out.append(Order(item.string("name"), people, extra, _small(item, "vp")))
    return tuple(out)


def _sightings(data, src) -> tuple[tuple[Sighting, ...], Cessna]:
    top = _top(data, src, ("sighting", "cessna"))
    out = []
    for item in _items(top, "sighting", 6, msg("the rules' 7 Sighting cards: these 6 and the Cessna")):
        item = _named(item, ("name", "passengers", "actions"))
        actions = item.strings("actions", ())
        for a in actions:
            if a not in [e.value for e in Extra]:
                raise item.error("actions", msg("actions among {names}", names=", ".join(e.value for e in Extra)), a)
        if len(actions) > 2:
            raise item.error("actions", N_("at most 2 actions"), list(actions))
        out.append(Sighting(item.string("name"), _people_list(item, "passengers", (), most=2),
                            tuple(Extra(a) for a in actions)))
    c = top.table("cessna").only(("name", "vp", "vp_two"))
    vp = []
    for key, n in (("vp", 3), ("vp_two", 2)):
        values = c.list(key)
        if len(values) != n or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_SMALL
                                       for v in values):
            raise c.error(key, msg("{count} VP values from 0 to {most}", count=n, most=MAX_SMALL), values)
        vp.append(tuple(values))
    return tuple(out), Cessna(c.string("name"), vp[0], vp[1])


def _carrier(data, src) -> tuple[int, tuple[Upgrade, ...], tuple[Colour, ...]]:
    top = _top(data, src, ("spaces", "upgrade", "colour"))
    spaces = top.integer("spaces", minimum=1, maximum=12)
    ups = []
    for n, item in enumerate(_items(top, "upgrade", 5, msg("the rules' 5 carrier cards")), start=1):
        item = _named(item, ("number", "name", "vp", "same", "any", "radar", "spaces"))
        if item.integer("number") != n:
            raise item.error("number", msg("{number} (the cards in order 1 to 5)", number=n), item.data["number"])
        ups.append(Upgrade(n, item.string("name"), _small(item, "vp"), _small(item, "same", 0, maximum=6),
                           _small(item, "any", 0, maximum=6), item.integer("radar", 0, minimum=0, maximum=200),
                           _small(item, "spaces", 0, maximum=6)))
    needs = {3: ("same", lambda u: u.same >= 1), 4: ("radar", lambda u: u.radar >= 1),
             5: ("any", lambda u: u.any >= 1)}
    for n, (key, ok) in needs.items():
        if not ok(ups[n - 1]):
            raise top.error("upgrade", msg("upgrade {number} with a positive '{key}' (its requirement in the rules)",
                                           number=n, key=key))
    colours = []
    for item in _items(top, "colour", 4, msg("one per player colour")):
        item = _named(item, ("name", "rescue_device"))
        colours.append(Colour(item.string("name"), _person(item, "rescue_device", item.string("rescue_device"))))
    if len({c.name for c in colours}) != 4:
        raise top.error("colour", N_("4 distinct colour names"), [c.name for c in colours])
    return spaces, tuple(ups), tuple(colours)


_PARSERS = {"people": _people, "helicopters": _helicopters, "rooftops": _rooftops, "staircases": _staircases,
            "radar": _radar, "action_cards": _action_cards, "influence": _influence,
            "special_orders": _orders, "sightings": _sightings, "carrier": _carrier}


def _read(name: str, directory: pathlib.Path | None):
    """(parsed data, source label) of data file ``name`` (the user's when given)."""
    if directory is not None and (directory / f"{name}.toml").exists():
        path = directory / f"{name}.toml"
        return load_toml(path), str(path)
    source = f"scenarios/white_christmas/data/{name}.toml"
    return parse_toml((DATA / f"{name}.toml").read_text(encoding="utf-8"), source), source


def load_components(directory: str | pathlib.Path | None = None) -> Components:
    """Every card set, from the shipped data files or, for each file present in
    ``directory``, from the user's file of that name. Raises :class:`InputError` (one line
    naming the file, the card and the field)."""
    folder = None
    if directory is not None:
        folder = pathlib.Path(directory)
        if not folder.is_dir():
            raise InputError(msg("{directory}: expected a directory holding White Christmas data files ({files})",
                                 directory=str(directory), files=", ".join(f + ".toml" for f in FILES)))
    parsed, provenance = {}, []
    for name in FILES:
        data, source = _read(name, folder)
        parsed[name] = _PARSERS[name](data, source)
        provenance.append((name, data["provenance"]))
    spaces, upgrades, colours = parsed["carrier"]
    sightings, cessna = parsed["sightings"]
    return Components(parsed["people"], parsed["helicopters"], parsed["rooftops"], parsed["staircases"],
                      parsed["radar"], parsed["action_cards"], parsed["influence"], parsed["special_orders"],
                      sightings, cessna, spaces, upgrades, colours, tuple(provenance))


@lru_cache(maxsize=1)
def shipped_components() -> Components:
    """The shipped data files (read once)."""
    return load_components()
