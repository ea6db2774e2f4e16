"""Plan legality: a plane's three cards for a turn, checked before anything moves.

Checks, each error naming plane, card and rule:

* three cards, all in the plane's deck (DF.M1);
* deck sequencing flags (DF.M4 "special cards carry extra effects"): no two ``steep``
  cards in a row, across turns (the previous turn's last card counts); an
  ``immelmann`` card needs a ``straight`` card right before it and right after it
  (across turns too: an Immelmann flown last obliges the next turn to open with a
  straight). A descent card is not a straight (DF.H5);
* bomb load (DF.B1): a plane fully loaded at the start of the turn plans no Immelmann
  and at least two of its three cards without the ``complex`` flag (engine convention
  for "at least two non-complex maneuvers": per turn, among the three planned cards);
* bombs to drop after each maneuver: whole numbers, no more than aboard;
* altitude (DF.H3): flying the plan, with its drops, never climbs above the ceiling.
"""
from __future__ import annotations

from typing import Sequence

from geometry.errors import InputError

from .altitude import AltitudeError, after_card, after_drop, fully_loaded
from .card import ManeuverCard
from .plane import Plane

__all__ = ["PlanError", "check_plan", "plan_problem", "CARDS_PER_TURN"]

CARDS_PER_TURN = 3
"""DF.M1: each plane plans three cards per turn."""

_ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


class PlanError(InputError):
    """An illegal plan; the message names plane, card and rule."""


def _fail(where: str, plane: Plane, k: int | None, card_id: str | None, reason: str) -> PlanError:
    at = f": card '{card_id}' ({_ORDINAL.get(k + 1, f'{k + 1}th')} maneuver)" if card_id is not None else ""
    return PlanError(f"{where}plane '{plane.name}'{at}: {reason}")


def check_plan(plane: Plane, card_ids: Sequence[str], drops: Sequence[int] | None,
               max_altitude: int, where: str = "") -> tuple[ManeuverCard, ...]:
    """Check a plan; return its cards. Raises :class:`PlanError` (an InputError).

    ``plane``: its state at the start of the turn; ``card_ids``: the three ids in the
    order they will be flown; ``drops``: bombs dropped after each maneuver (or None);
    ``where``: prefix for messages (e.g. ``"duel.toml: "``).
    """
    deck = plane.deck
    if deck is None:
        raise _fail(where, plane, None, None, "has no deck, so it cannot plan maneuvers")
    if len(card_ids) != CARDS_PER_TURN:
        raise _fail(where, plane, None, None,
                    f"plan has {len(card_ids)} cards, expected {CARDS_PER_TURN} (DF.M1)")
    cards = []
    for k, cid in enumerate(card_ids):
        if cid not in deck:
            raise _fail(where, plane, k, cid, f"not a card of deck '{deck.name}' (known: {', '.join(deck.ids)})")
        cards.append(deck.card(cid))
    drops = tuple(drops) if drops is not None else (0,) * CARDS_PER_TURN
    if len(drops) != CARDS_PER_TURN or any(isinstance(d, bool) or not isinstance(d, int) or d < 0 for d in drops):
        raise _fail(where, plane, None, None, f"drops must be {CARDS_PER_TURN} whole numbers >= 0, got {list(drops)}")
    if sum(drops) > plane.bombs:
        raise _fail(where, plane, None, None, f"drops {sum(drops)} bombs but carries {plane.bombs} (DF.B1)")

    previous = deck.card(plane.last_card) if plane.last_card in deck else None
    for k, card in enumerate(cards):
        following = cards[k + 1] if k + 1 < len(cards) else None
        if previous is not None and "steep" in previous.flags and "steep" in card.flags:
            raise _fail(where, plane, k, card.id,
                        f"two steep maneuvers in a row (after '{previous.id}'; deck sequencing, DF.M4)")
        if previous is not None and "immelmann" in previous.flags and "straight" not in card.flags:
            raise _fail(where, plane, k, card.id,
                        f"an Immelmann ('{previous.id}') must be followed by a straight (deck sequencing, DF.M4, DF.H5)")
        if "immelmann" in card.flags:
            if previous is not None and "straight" not in previous.flags:
                raise _fail(where, plane, k, card.id,
                            f"an Immelmann must follow a straight, not '{previous.id}' (deck sequencing, DF.M4)")
            if following is not None and "straight" not in following.flags:
                raise _fail(where, plane, k, card.id,
                            f"an Immelmann must be followed by a straight, not '{following.id}' (deck sequencing, DF.M4)")
        previous = card

    if fully_loaded(plane):
        for k, card in enumerate(cards):
            if "immelmann" in card.flags:
                raise _fail(where, plane, k, card.id, "fully loaded with bombs: no Immelmann turns (DF.B1)")
        simple = sum("complex" not in c.flags for c in cards)
        if simple < 2:
            raise _fail(where, plane, None, None,
                        f"fully loaded with bombs: needs at least two non-complex maneuvers, plans {simple} (DF.B1)")

    state = plane
    for k, (card, drop) in enumerate(zip(cards, drops)):
        if state.status != "flying":
            break
        try:
            state, _ = after_card(state, card, max_altitude)
        except AltitudeError:
            raise _fail(where, plane, k, card.id,
                        f"would climb above the ceiling, altitude {max_altitude} (DF.H3)") from None
        state, _ = after_drop(state, drop)
    return tuple(cards)


def plan_problem(plane: Plane, card_ids: Sequence[str], drops: Sequence[int] | None,
                 max_altitude: int) -> str | None:
    """The reason a plan is illegal, or ``None`` when it is legal."""
    try:
        check_plan(plane, card_ids, drops, max_altitude)
    except InputError as exc:
        return str(exc)
    return None
