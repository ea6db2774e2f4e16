"""The Japanese deck, plane types, substitution chart and the Yorktown's defence
patterns (YT.K3, YT.K4, YT.R1, YT.R4), read from ``data/japanese_deck.toml``.

File format (every field checked; unknown fields are errors)::

    provenance = "reconstruction"      # official | measured | reconstruction
    notes = "..."
    [sources]                          # optional: part -> official | measured | reconstruction
    [tokens]                           # token pool -> how many tokens (a double-sided token is one pool)
    Jake = 8
    "Kate/Zeke" = 12
    [plane.Jake]                       # one table per type: Jake, Kate, Zeke
    token = "Jake"                     # its pool
    attack_dice = 2                    # dice it rolls against the Yorktown (YT.R1)
    shoot_down = 3                     # equal results needed to shoot it down (YT.A7)
    skill = 2                          # skill points for shooting it down (YT.X1)
    [substitution]                     # type -> types to place instead when its pool is empty (YT.R4)
    Jake = ["Kate", "Zeke"]
    [yorktown]                         # YT.R1: sets of `equal` dice of `faces`
    hit = { equal = 2, faces = [2, 3, 4, 5, 6] }
    shot_down = { equal = 2, faces = [1] }
    [[card]]
    id = "1"
    islands = [3]                      # one or two island numbers 1-10
    plane = "Kate"
    event = "cap"                      # optional: "cap" or "shoho moves"
    [[card]]
    id = "38"
    direct_hit = true                  # the DIRECT HIT card (no islands, no plane)
"""
from __future__ import annotations

import pathlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from furball.geometry.datafile import PROVENANCES, Table, load_toml
from furball.i18n import ENGLISH

from .actions import Event, PlaneType
from .board import ISLANDS
from .shipped import DATA, shipped

__all__ = ["PlaneSpec", "JapaneseCard", "Pattern", "JapaneseDeck", "load_deck", "parse_deck", "default_deck",
           "DEFAULT_DECK_PATH", "MAX_CARDS"]

DEFAULT_DECK_PATH = DATA / "japanese_deck.toml"
MAX_CARDS = 1000
"""A deck bigger than this is refused (a typo, not a deck)."""
MAX_DICE = 100


@dataclass(frozen=True)
class PlaneSpec:
    """A Japanese plane type: its token ``pool``, ``attack_dice`` against the
    Yorktown, the equal results ``shoot_down`` needs and the ``skill`` it rewards."""

    type: PlaneType
    pool: str
    attack_dice: int
    shoot_down: int
    skill: int


@dataclass(frozen=True)
class JapaneseCard:
    """A card: ``islands`` (numbers, one or two), ``plane`` type, ``event``; or the
    ``direct_hit`` card (no islands, no plane)."""

    id: str
    islands: tuple[int, ...] = ()
    plane: PlaneType | None = None
    event: Event = Event.NONE
    direct_hit: bool = False

    def label(self, _=ENGLISH) -> str:
        """The card in words, e.g. ``card 7: Kate on island 7, event shoho moves``, read
        with ``_`` (a reader's :func:`~furball.i18n.translator`; English by default)."""
        if self.direct_hit:
            return _("card {id}: DIRECT HIT").format(id=self.id)
        where = _(" and ").join(str(n) for n in self.islands)
        event = _(", event {event}").format(event=_(str(self.event))) if self.event else ""
        if len(self.islands) > 1:
            text = _("card {id}: {plane} on islands {islands}{event}")
        else:
            text = _("card {id}: {plane} on island {islands}{event}")
        return text.format(id=self.id, plane=self.plane, islands=where, event=event)


@dataclass(frozen=True)
class Pattern:
    """Sets of ``equal`` dice showing one of ``faces`` (YT.R1)."""

    equal: int
    faces: tuple[int, ...]


@dataclass(frozen=True)
class JapaneseDeck:
    """The checked deck file: ``cards``, ``planes`` (type -> :class:`PlaneSpec`),
    ``pools`` (pool -> tokens), ``substitution`` (type -> replacement types), the
    Yorktown's ``hit`` and ``shot_down`` patterns, ``provenance``, ``notes``,
    ``sources`` (part -> provenance), ``source`` (the file) and ``pool_order`` (pool ->
    its index in the state's ``supply``)."""

    cards: tuple[JapaneseCard, ...]
    planes: Mapping[PlaneType, PlaneSpec]
    pools: tuple[tuple[str, int], ...]
    substitution: Mapping[PlaneType, tuple[PlaneType, ...]]
    hit: Pattern
    shot_down: Pattern
    provenance: str
    notes: str
    sources: tuple[tuple[str, str], ...]
    source: str
    pool_order: Mapping[str, int]

    def __hash__(self):
        return hash((self.cards, self.pools, self.source))

    def pool_total(self, pool: str) -> int:
        """How many tokens pool ``pool`` has in all."""
        return dict(self.pools)[pool]


def _pattern(t: Table, key: str) -> Pattern:
    p = t.table(key).only(("equal", "faces"))
    equal = p.integer("equal", minimum=1, maximum=MAX_DICE)
    faces = p.list("faces")
    if not faces or not all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 6 for f in faces):
        raise p.error("faces", "a non-empty list of die faces 1-6", faces)
    return Pattern(equal, tuple(sorted(set(faces))))


def parse_deck(data: dict, source: str) -> JapaneseDeck:
    """Check parsed TOML ``data`` as a deck file (format in the module doc); ``source``
    names it in errors. Raises :class:`InputError` (one located line)."""
    top = Table(data, source).only(("provenance", "notes", "sources", "tokens", "plane", "substitution",
                                    "yorktown", "card"))
    provenance = top.provenance()
    notes = top.string("notes", "", nonempty=False)
    sources = []
    if "sources" in top:
        st = top.table("sources")
        sources = [(k, st.string(k, choices=PROVENANCES)) for k in st.keys()]
    tokens = top.table("tokens")
    pools = tuple((k, tokens.integer(k, minimum=0, maximum=MAX_CARDS)) for k in tokens.keys())
    if not pools:
        raise tokens.error(None, "at least one token pool, e.g. Jake = 8")
    planes_t = top.table("plane").only(tuple(PlaneType))
    planes = {}
    for ptype in PlaneType:
        if ptype not in planes_t:
            raise planes_t.error(str(ptype), f"a [plane.{ptype}] table")
        p = planes_t.table(str(ptype)).only(("token", "attack_dice", "shoot_down", "skill"))
        pool = p.string("token", choices=[k for k, _ in pools])
        planes[ptype] = PlaneSpec(ptype, pool, p.integer("attack_dice", minimum=0, maximum=MAX_DICE),
                                  p.integer("shoot_down", minimum=2, maximum=MAX_DICE),
                                  p.integer("skill", minimum=0, maximum=MAX_DICE))
    sub_t = top.table("substitution", None)
    substitution = {}
    for ptype in PlaneType:
        if sub_t is not None and str(ptype) in sub_t:
            chain = sub_t.strings(str(ptype))
            for name in chain:
                if name not in tuple(PlaneType):
                    raise sub_t.error(str(ptype), "a list of plane types (Jake, Kate, Zeke)", list(chain))
            substitution[ptype] = tuple(PlaneType(n) for n in chain)
        else:
            substitution[ptype] = ()
    if sub_t is not None:
        sub_t.only(tuple(PlaneType))
    york = top.table("yorktown").only(("hit", "shot_down"))
    hit, shot_down = _pattern(york, "hit"), _pattern(york, "shot_down")
    raw_cards = top.list("card")
    if not raw_cards:
        raise top.error("card", "at least one [[card]]", raw_cards)
    if len(raw_cards) > MAX_CARDS:
        raise top.error("card", f"at most {MAX_CARDS} cards", len(raw_cards))
    cards, seen = [], set()
    for i, raw in enumerate(raw_cards):
        head = Table(raw, f"{source}: card #{i + 1}")
        cid = head.string("id")
        t = Table(raw, f"{source}: card '{cid}'").only(("id", "islands", "plane", "event", "direct_hit"))
        if cid in seen:
            raise t.error("id", "a card id used once", cid)
        seen.add(cid)
        event = t.string("event", "", nonempty=False)
        if event not in tuple(Event):
            raise t.error("event", "'cap', 'shoho moves' or nothing", event)
        if t.boolean("direct_hit", False):
            for key in ("islands", "plane"):
                if key in t:
                    raise t.error(key, "no islands and no plane on the DIRECT HIT card", t.data[key])
            cards.append(JapaneseCard(cid, event=Event(event), direct_hit=True))
            continue
        islands = t.list("islands")
        if not 1 <= len(islands) <= 2 or not all(isinstance(n, int) and not isinstance(n, bool)
                                                 and 1 <= n <= ISLANDS for n in islands):
            raise t.error("islands", f"one or two island numbers 1-{ISLANDS}", islands)
        plane = PlaneType(t.string("plane", choices=tuple(PlaneType)))
        cards.append(JapaneseCard(cid, tuple(islands), plane, Event(event)))
    if not any(not c.direct_hit for c in cards):
        raise top.error("card", "at least one card that places planes")
    return JapaneseDeck(tuple(cards), planes, pools, substitution, hit, shot_down, provenance, notes,
                        tuple(sources), source, {k: i for i, (k, _) in enumerate(pools)})


def load_deck(path: str | pathlib.Path) -> JapaneseDeck:
    """Load and check a deck file. Raises :class:`InputError`."""
    return parse_deck(load_toml(path), str(path))


@lru_cache(maxsize=1)
def default_deck() -> JapaneseDeck:
    """The shipped reconstruction ``scenarios/yorktown/data/japanese_deck.toml``."""
    return shipped("japanese_deck.toml", parse_deck)
