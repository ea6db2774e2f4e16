"""The standard 52-card French deck of Operation Canuck (CN.K1–CN.K5).

A card is an ``int`` in ``0..51``: ``suit = card // 13`` (0 spades, 1 hearts,
2 diamonds, 3 clubs) and ``rank = card % 13 + 1`` (Ace = 1 … 10, J = 11, Q = 12,
K = 13). Labels look like ``"A♥"``, ``"10♦"``, ``"K♠"``; :func:`parse_card` also
accepts ASCII suits ``S H D C`` (``"4H"``, ``"10d"``).
"""
from __future__ import annotations

from furball.errors import InputError
from furball.i18n import msg

__all__ = [
    "SPADES", "HEARTS", "DIAMONDS", "CLUBS", "SUITS", "RANKS", "JACK", "DECK_SIZE", "DECK", "card", "rank", "suit",
    "is_red", "is_black",
    "is_face", "is_red_number", "is_black_number", "is_red_face", "is_black_face", "label",
    "labels", "parse_card", "card_value",
]

SUITS = 4
"""Suits of the standard French deck (CN.K1)."""
RANKS = 13
"""Ranks per suit: Ace = 1 … 10, J = 11, Q = 12, K = 13 (CN.K1)."""
JACK = 11
"""The lowest face card's rank (CN.K3, CN.K5)."""
DECK_SIZE = SUITS * RANKS
"""Cards in the deck: 52 (CN.K1)."""
SPADES, HEARTS, DIAMONDS, CLUBS = range(SUITS)
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_LETTERS = "SHDC"
RANK_LABELS = {1: "A", JACK: "J", 12: "Q", RANKS: "K"}
DECK: tuple[int, ...] = tuple(range(DECK_SIZE))
"""All 52 cards (CN.K1)."""


def card(rank_: int, suit_: int) -> int:
    """The card of ``rank_`` (1–13) and ``suit_`` (0–3)."""
    if not (1 <= rank_ <= RANKS and 0 <= suit_ < SUITS):
        raise InputError(msg("card: expected rank 1-{ranks} and suit 0-{suits}, got rank {rank}, suit {suit}",
                             ranks=RANKS, suits=SUITS - 1, rank=rank_, suit=suit_))
    return suit_ * RANKS + rank_ - 1


def rank(c: int) -> int:
    return c % RANKS + 1


def suit(c: int) -> int:
    return c // RANKS


def is_red(c: int) -> bool:
    """Hearts and diamonds are the Partisan's colour (CN.K2, CN.K3)."""
    return c // RANKS in (HEARTS, DIAMONDS)


def is_black(c: int) -> bool:
    return not is_red(c)


def is_face(c: int) -> bool:
    return c % RANKS >= JACK - 1


def is_red_number(c: int) -> bool:
    """A Partisan resource card (CN.K2)."""
    return is_red(c) and not is_face(c)


def is_black_number(c: int) -> bool:
    """An Axis deck card (CN.K4)."""
    return is_black(c) and not is_face(c)


def is_red_face(c: int) -> bool:
    """An Allied Advance card (CN.K3, CN.F1)."""
    return is_red(c) and is_face(c)


def is_black_face(c: int) -> bool:
    """An Axis Sweep card (CN.K5, CN.F2)."""
    return is_black(c) and is_face(c)


def card_value(c: int, doubled: int | None = None) -> int:
    """The card's value, doubled when its suit is ``doubled`` (CN.P6, CN.P7, CN.P10)."""
    r = c % RANKS + 1
    return 2 * r if doubled is not None and c // RANKS == doubled else r


def label(c: int) -> str:
    r = c % RANKS + 1
    return f"{RANK_LABELS.get(r, str(r))}{SUIT_SYMBOLS[c // RANKS]}"


def labels(cards) -> str:
    """Space-separated labels, or ``-`` for none."""
    return " ".join(label(c) for c in cards) or "-"


def parse_card(text: str) -> int:
    """``"4♥"``, ``"4H"``, ``"10d"``, ``"A♠"``, ``"K♣"`` → card. Raises :class:`InputError`."""
    t = str(text).strip().upper()
    if len(t) >= 2:
        r_text, s_text = t[:-1], t[-1]
        s = SUIT_SYMBOLS.find(s_text) if s_text in SUIT_SYMBOLS else SUIT_LETTERS.find(s_text)
        ranks = {text: r for r, text in RANK_LABELS.items()}
        r = ranks.get(r_text) or (int(r_text) if r_text.isdigit() else 0)
        if s >= 0 and 1 <= r < JACK or (s >= 0 and JACK <= r <= RANKS and r_text in ranks):
            return s * RANKS + r - 1
    raise InputError(msg("card {card}: expected a rank A,2-10,J,Q,K and a suit ♠♥♦♣ or S,H,D,C, e.g. 4♥ or 10D",
                         card=repr(text)))
