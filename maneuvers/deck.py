"""Decks of maneuver cards, loaded from TOML data files.

File format (documented with examples in docs/formats.md)::

    [deck]
    name = "A"
    provenance = "reconstruction"   # official | measured | reconstruction
    notes = "how the numbers were obtained"
    base = "small"                  # optional: the base this deck is usually flown on

    [[card]]
    id = "A3"
    name = "bank left"
    path = [ { arc = { radius_mm = 80.0, angle_deg = 45.0 } } ]   # +angle = left (CCW)
    flags = ["steep"]
    twin = "A4"                     # optional: its mirror-image card

    [[card]]
    id = "A9"
    name = "measured card"
    end = { x_mm = 60.0, y_mm = 12.5, heading_deg = 30.0 }   # tip in the arrow-start frame

A card gives exactly one of ``path`` (chained ``straight_mm`` / ``arc`` segments) or
``end``; it may add ``final_turn_deg`` (a turn on the spot at the tip), ``anchor``
(``"marks"`` or ``"stand"``, see :mod:`maneuvers.card`), ``flags`` and ``twin``.
A deck file may also hold ``[base.NAME]`` tables (see :mod:`maneuvers.bases`).
Every error names the file, the card and the field.
"""
from __future__ import annotations

import pathlib
from dataclasses import dataclass, field
from importlib import resources

from furball.errors import InputError
from furball.geometry.datafile import Table, is_file, load_toml
from furball.geometry.pose import Pose
from furball.i18n import N_, msg

from .card import Anchor, Arc, ManeuverCard, Straight

__all__ = ["Deck", "load_deck", "parse_deck", "shipped_decks", "find_deck", "DATA_DIR"]

DATA_DIR = resources.files("furball.maneuvers") / "data"
MAX_CARDS = 200
"""The most cards a deck file may hold (a real deck has about twenty)."""
DECK_FIELDS = ("name", "provenance", "notes", "base", "collision", "autonomous")
CARD_FIELDS = ("id", "name", "path", "end", "final_turn_deg", "flags", "anchor", "twin", "text")


@dataclass(frozen=True)
class Deck:
    """A named, ordered deck of maneuver cards.

    ``provenance``: official | measured | reconstruction (of the geometry); ``notes``:
    how the numbers were obtained; ``base``: name of the usual base or ``None``;
    ``source``: the file it came from. ``collision``: ids of the left and right turn
    cards drawn in a collision test (DF.C2), or ``None``; ``autonomous``: ids of the
    8-card autonomous deck (DF.A1), or ``None``.
    """

    name: str
    provenance: str
    cards: tuple[ManeuverCard, ...]
    notes: str = ""
    base: str | None = None
    source: str = ""
    collision: tuple[str, str] | None = None
    autonomous: tuple[str, ...] | None = None
    _by_id: dict[str, ManeuverCard] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "_by_id", {c.id: c for c in self.cards})

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cards)

    def ids_text(self, most: int = 24) -> str:
        """The card ids for an error line: all of them, or the first ``most`` and how
        many in all (a line must stay short whatever the deck)."""
        ids = self.ids
        return ", ".join(ids) if len(ids) <= most else f"{', '.join(ids[:most])}, ... ({len(ids)} cards)"

    def __contains__(self, card_id: str) -> bool:
        return card_id in self._by_id

    def __iter__(self):
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def card(self, card_id: str) -> ManeuverCard:
        """The card with this id. Raises :class:`InputError` listing the known ids."""
        try:
            return self._by_id[card_id]
        except KeyError:
            raise InputError(msg("deck '{deck}': unknown card '{card}' (known: {cards})", deck=self.name,
                                 card=str(card_id), cards=self.ids_text())) from None

    def cards_with(self, flag: str) -> tuple[ManeuverCard, ...]:
        """Cards carrying ``flag``, in deck order."""
        return tuple(c for c in self.cards if flag in c.flags)


def _segment(raw, where: str):
    seg = Table(raw, where)
    if len(seg.data) != 1:
        raise seg.error(None, N_("exactly one of 'straight_mm' or 'arc'"), raw)
    if "straight_mm" in seg:
        return Straight(seg.length("straight_mm", positive=True))
    if "arc" in seg:
        arc = seg.table("arc").only(("radius_mm", "angle_deg"))
        angle = arc.number("angle_deg", minimum=-360.0, maximum=360.0)
        if angle == 0:
            raise arc.error("angle_deg", N_("a non-zero angle (positive = left)"), angle)
        return Arc(arc.length("radius_mm", positive=True), angle)
    key = next(iter(seg.data))
    raise InputError(msg("{where}: unknown field '{key}' (expected 'straight_mm' or 'arc')", where=where, key=key))


def _card(raw, where: str, index: int) -> ManeuverCard:
    t = Table(raw, f"{where}: card #{index + 1}")
    card_id = t.string("id")
    if len(card_id) > 40 or any(ch in card_id for ch in ", \t\n\r"):
        raise t.error("id", N_("an id of at most 40 characters without commas or spaces (ids are typed in "
                            "--cards A1,A2 and in plans)"), card_id)
    t = Table(raw, f"{where}: card '{card_id}'").only(CARD_FIELDS)
    has_path, has_end = "path" in t, "end" in t
    if has_path == has_end:
        raise t.error("path/end", N_("exactly one of 'path' or 'end'"),
                      "both" if has_path else "neither")
    common = dict(
        final_turn_deg=t.number("final_turn_deg", 0.0, minimum=-360.0, maximum=360.0),
        flags=frozenset(t.strings("flags", ())),
        anchor=Anchor(t.string("anchor", "marks", choices=[a.value for a in Anchor])),
        twin=t.string("twin", None),
    )
    name = t.string("name", card_id)
    if has_path:
        segments = t.list("path")
        if not segments:
            raise t.error("path", N_("at least one segment (use 'end' for a card that does not move)"), segments)
        path = [_segment(s, f"{t.where}: path[{i}]") for i, s in enumerate(segments)]
        return ManeuverCard.from_path(card_id, name, path, **common)
    end = t.table("end").only(("x_mm", "y_mm", "heading_deg"))
    pose = Pose(end.length("x_mm"), end.length("y_mm"), end.number("heading_deg"))
    return ManeuverCard.from_end(card_id, name, pose, **common)


def parse_deck(data: dict, source: str) -> Deck:
    """Build a :class:`Deck` from parsed TOML ``data``; ``source`` names it in errors."""
    top = Table(data, source).only(("deck", "card", "base"))
    head = top.table("deck").only(DECK_FIELDS)
    raw_cards = top.list("card")
    if not raw_cards:
        raise top.error("card", N_("at least one [[card]]"), raw_cards)
    if len(raw_cards) > MAX_CARDS:
        raise top.error("card", f"at most {MAX_CARDS} cards", f"{len(raw_cards)} cards")
    cards, seen = [], set()
    for i, raw in enumerate(raw_cards):
        card = _card(raw, source, i)
        if card.id in seen:
            raise InputError(msg("{source}: card '{card}': field 'id': duplicate id", source=source, card=card.id))
        seen.add(card.id)
        cards.append(card)
    by_id = {c.id: c for c in cards}
    for card in cards:
        if card.twin is None:
            continue
        where = f"{source}: card '{card.id}': field 'twin'"
        twin = by_id.get(card.twin)
        if twin is None:
            raise InputError(msg("{where}: expected the id of a card of this deck, got {value}", where=where,
                                 value=repr(card.twin)))
        if not card.transform.mirrored().isclose(twin.transform, 1e-6) or card.anchor != twin.anchor:
            raise InputError(msg("{where}: card '{twin}' is not the mirror image of '{card}'", where=where, twin=twin.id,
                                 card=card.id))
    collision = None
    if "collision" in head:
        pair = head.table("collision").only(("left", "right"))
        collision = (pair.string("left"), pair.string("right"))
        for side, cid in zip(("left", "right"), collision):
            if cid not in by_id:
                raise pair.error(side, N_("the id of a card of this deck"), cid)
    autonomous = None
    if "autonomous" in head:
        autonomous = head.strings("autonomous")
        for cid in autonomous:
            if cid not in by_id:
                raise head.error("autonomous", N_("ids of cards of this deck"), cid)
    return Deck(
        name=head.string("name"),
        provenance=head.provenance(),
        notes=head.string("notes", "", nonempty=False),
        base=head.string("base", None),
        cards=tuple(cards),
        source=source,
        collision=collision,
        autonomous=autonomous,
    )


def load_deck(path: str | pathlib.Path) -> Deck:
    """Load a deck file. Raises :class:`InputError` naming file, card and field."""
    return parse_deck(load_toml(path), str(path))


def shipped_decks() -> dict[str, Deck]:
    """The decks shipped in ``maneuvers/data/decks``, by deck name."""
    decks = {}
    for entry in sorted((DATA_DIR / "decks").iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            deck = parse_deck(load_toml(entry), f"maneuvers/data/decks/{entry.name}")
            decks[deck.name] = deck
    return decks


def find_deck(name_or_path: str) -> Deck:
    """A shipped deck by name, or a deck file by path.

    Raises :class:`InputError` naming the known decks when neither matches.
    """
    p = pathlib.Path(name_or_path)
    if name_or_path.endswith(".toml") or "/" in name_or_path or is_file(p):
        return load_deck(p)
    decks = shipped_decks()
    if name_or_path in decks:
        return decks[name_or_path]
    raise InputError(msg(
        "deck '{deck}': no shipped deck of that name and no such file (shipped: {decks})",
        deck=name_or_path[:40], decks=", ".join(sorted(decks))
    ))
