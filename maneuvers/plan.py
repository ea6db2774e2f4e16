"""Plan legality: a plane's three cards for a turn, checked before anything moves.

Checks, each failure a :class:`PlanError` naming plane, card and rule (``.rule``):

* three cards, all in the plane's deck (DF.M1);
* deck sequencing (DF.M5, from the published game, switchable in the scenario's
  ``[rules]``): no two ``steep`` cards in a row, across turns (the previous turn's last
  card counts); an ``immelmann`` card needs a ``straight`` card right before it and right
  after it (across turns too). A descent card is not a straight (DF.H5);
* bomb load (DF.B1, DF.B2): each card is judged against the load it is flown with —
  the restrictions end as soon as the plane has dropped half its bombs, also in the
  middle of a turn. While fully loaded: no Immelmann, and "at least two non-complex
  maneuvers" is read as *at most one complex card among the cards flown fully loaded*
  (for a turn flown loaded throughout: at least two of the three cards non-complex;
  after a mid-turn drop the cards flown after it are free);
* bombs to drop after each maneuver: whole numbers, no more than aboard;
* altitude (DF.H3): flying the plan, with its drops, never climbs above the ceiling.
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from furball.errors import InputError
from furball.i18n import N_, Message, msg

from .altitude import AltitudeError, after_card, after_drop, fully_loaded
from .card import ManeuverCard
from .plane import PlaneState, Rules

__all__ = ["PlanError", "check_plan", "plan_problem", "CARDS_PER_TURN", "PLAN_FLAGS", "legal_plans", "card_tree",
           "continuations"]

CARDS_PER_TURN = 3
"""DF.M1: each plane plans three cards per turn."""

PLAN_FLAGS = frozenset({"steep", "immelmann", "straight", "complex", "climb", "descent"})
"""The card flags :func:`check_plan` reads (DF.M5 sequencing, DF.B1 load, DF.H3 through
:func:`~maneuvers.altitude.after_card`), besides those the plane's effects forbid
(DF.D6): two cards whose flags agree on these are interchangeable in a plan's legality
(the plan analysis checks each such sequence once). A check reading another flag adds
it here."""

_ORDINAL = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd")}


class PlanError(InputError):
    """An illegal plan. ``rule`` is the rule ID that fails (e.g. ``"DF.B1"``), ``plane``
    the plane's name, ``card`` the card id (or ``None``); the message says it all (a
    :class:`~furball.i18n.Message`: each reader reads it in their language)."""

    def __init__(self, message: str | Message, rule: str, plane: str, card: str | None = None):
        super().__init__(message)
        self.rule, self.plane, self.card = rule, plane, card


def _fail(where: str, plane: PlaneState, k: int | None, card_id: str | None, rule: str, reason: Message) -> PlanError:
    at: Message | str = ""
    if card_id is not None and k is not None:
        ordinal = Message(_ORDINAL[k + 1]) if k + 1 in _ORDINAL else f"{k + 1}th"
        at = msg(": card '{card}' ({ordinal} maneuver)", card=card_id, ordinal=ordinal)
    return PlanError(msg("{where}plane '{plane}'{at}: {reason} ({rule})", where=where, plane=plane.name, at=at,
                         reason=reason, rule=rule), rule, plane.name, card_id)


def _sequencing(where: str, plane: PlaneState, cards, rules: Rules) -> None:
    """DF.M5: steep and Immelmann sequencing, across turns."""
    deck = plane.deck
    assert deck is not None  # only planes with a deck plan cards
    last = plane.last_card
    previous = deck.card(last) if last is not None and last in deck else None
    for k, card in enumerate(cards):
        following = cards[k + 1] if k + 1 < len(cards) else None
        if rules.steep_sequencing and previous is not None and "steep" in previous.flags and "steep" in card.flags:
            raise _fail(where, plane, k, card.id, "DF.M5", msg("two steep maneuvers in a row (after '{card}')", card=previous.id))
        if rules.immelmann_sequencing:
            if previous is not None and "immelmann" in previous.flags and "straight" not in card.flags:
                raise _fail(where, plane, k, card.id, "DF.M5",
                            msg("an Immelmann ('{card}') must be followed by a straight (a descent is not one, DF.H5)",
                                card=previous.id))
            if "immelmann" in card.flags:
                if previous is not None and "straight" not in previous.flags:
                    raise _fail(where, plane, k, card.id, "DF.M5",
                                msg("an Immelmann must follow a straight, not '{card}'", card=previous.id))
                if following is not None and "straight" not in following.flags:
                    raise _fail(where, plane, k, card.id, "DF.M5",
                                msg("an Immelmann must be followed by a straight, not '{card}'", card=following.id))
        previous = card


def _effects(where: str, plane: PlaneState, cards) -> None:
    """DF.D6: a special in effect at the start of the turn may forbid cards with some flags."""
    for e in plane.effects:
        if e.maneuvers_left <= 0:
            continue
        for k, card in enumerate(cards):
            flag = next((f for f in e.forbids if f in card.flags), None)
            if flag is not None:
                raise _fail(where, plane, k, card.id, "DF.D6",
                            msg("{special} in effect: no '{flag}' card for {left} more maneuvers",
                                special=Message(str(e.special).replace("_", " ")), flag=flag, left=e.maneuvers_left))


def check_plan(plane: PlaneState, card_ids: Sequence[str], drops: Sequence[int] | None,
               rules: Rules, where: str = "") -> tuple[ManeuverCard, ...]:
    """Check a plan; return its cards. Raises :class:`PlanError` (an InputError).

    ``plane``: its state at the start of the turn; ``card_ids``: the three ids in the
    order they will be flown; ``drops``: bombs dropped after each maneuver (or None);
    ``rules``: the table's rules (ceiling, DF.M5 switches); ``where``: prefix for
    messages (e.g. ``"duel.toml: "``).
    """
    deck = plane.deck
    if deck is None:
        raise _fail(where, plane, None, None, "DF.M1", msg("has no deck, so it cannot plan maneuvers"))
    if len(card_ids) != CARDS_PER_TURN:
        raise _fail(where, plane, None, None, "DF.M1", msg("plan has {count} cards, expected {cards}",
                                                                                count=len(card_ids), cards=CARDS_PER_TURN))
    cards = []
    for k, cid in enumerate(card_ids):
        if cid not in deck:
            raise _fail(where, plane, k, str(cid)[:40], "DF.M1",
                        msg("not a card of deck '{deck}' (known: {cards})", deck=deck.name, cards=deck.ids_text()))
        cards.append(deck.card(cid))
    drops = tuple(drops) if drops is not None else (0,) * CARDS_PER_TURN
    if len(drops) != CARDS_PER_TURN or any(isinstance(d, bool) or not isinstance(d, int) or d < 0 for d in drops):
        raise _fail(where, plane, None, None, "DF.B1",
                    msg("drops must be {cards} whole numbers >= 0, got {drops}", cards=CARDS_PER_TURN, drops=str(list(drops))))
    if sum(drops) > plane.bombs:
        raise _fail(where, plane, None, None, "DF.B1", msg("drops {drops} bombs but carries {bombs}",
                                                                        drops=sum(drops), bombs=plane.bombs))
    _sequencing(where, plane, cards, rules)
    if plane.effects:
        _effects(where, plane, cards)

    state, complex_loaded = plane, None
    for k, (card, drop) in enumerate(zip(cards, drops)):
        if not state.flying:
            break
        if fully_loaded(state):  # DF.B1, judged with the load this card is flown with (DF.B2)
            if "immelmann" in card.flags:
                raise _fail(where, plane, k, card.id, "DF.B1", msg("fully loaded with bombs: no Immelmann turns"))
            if "complex" in card.flags:
                if complex_loaded is not None:
                    raise _fail(where, plane, k, card.id, "DF.B1",
                                msg("fully loaded with bombs: a second complex maneuver (after '{card}'); at least two "
                                    "must be non-complex", card=complex_loaded))
                complex_loaded = card.id
        try:
            state, _ = after_card(state, card, rules.max_altitude)
        except AltitudeError:
            raise _fail(where, plane, k, card.id, "DF.H3",
                        msg("would climb above the ceiling, altitude {ceiling}", ceiling=rules.max_altitude)) from None
        state, _ = after_drop(state, drop)
    return tuple(cards)


def plan_problem(plane: PlaneState, card_ids: Sequence[str], drops: Sequence[int] | None,
                 rules: Rules) -> PlanError | None:
    """The :class:`PlanError` a plan would raise, or ``None`` when it is legal."""
    try:
        check_plan(plane, card_ids, drops, rules)
    except PlanError as exc:
        return exc
    return None


@lru_cache(maxsize=512)
def _legal(deck, last_card, altitude: int, climb_rate: int, climb_counters: int, bombs: int, bombs_at_start: int,
           effects, status, rules: Rules, drops) -> tuple[tuple[str, ...], ...]:
    """The legal plans, each sequence of *kinds* of card checked once: the checks read a
    card through the flags of :data:`PLAN_FLAGS` and those the plane's effects forbid
    only, so cards that agree on these flags are interchangeable; each sequence of kinds
    is checked on the first cards of those kinds in deck order, and the answer holds for
    every plan made of cards of those kinds (tests compare it with checking every plan)."""
    probe = PlaneState("probe", "probe", deck, None, (0.0, 0.0, 0.0), altitude, climb_rate, climb_counters,
                       bombs_at_start=bombs_at_start, bombs=bombs, last_card=last_card, effects=effects, status=status)
    ids = deck.ids
    read = PLAN_FLAGS.union(*(e.forbids for e in effects))
    flags = [deck.card(c).flags & read for c in ids]
    kinds = list(dict.fromkeys(flags))
    kind = np.array([kinds.index(f) for f in flags], dtype=np.int64)
    first_of = [ids[flags.index(f)] for f in kinds]
    ok = np.array([plan_problem(probe, plan, drops, rules) is None
                   for plan in itertools.product(first_of, repeat=CARDS_PER_TURN)], dtype=bool)
    legal = ok.reshape((len(kinds),) * CARDS_PER_TURN)[np.ix_(*(kind,) * CARDS_PER_TURN)]
    return tuple(zip(*(np.array(ids, dtype=object)[i] for i in np.nonzero(legal)), strict=True))


def legal_plans(plane: PlaneState, rules: Rules, drops: Sequence[int] | None = None) -> tuple[tuple[str, ...], ...]:
    """Every legal plan of ``plane`` at the start of a turn, in deck order
    (:func:`check_plan`: DF.M1, DF.M5, DF.B1, DF.B2, DF.H3, DF.D6); ``drops``: the bombs
    dropped after each maneuver (default none). Answers are kept in a bounded cache keyed
    by what legality reads of the plane (not its name or position)."""
    if plane.deck is None:
        return ()
    return _legal(plane.deck, plane.last_card, plane.altitude, plane.climb_rate, plane.climb_counters, plane.bombs,
                  plane.bombs_at_start, plane.effects, plane.status, rules, None if drops is None else tuple(drops))


def card_tree(plans: Sequence[Sequence[str]]) -> dict:
    """Plans (sequences of card ids, e.g. a plane's legal plans in their order) as a tree
    to choose from card by card: ``{first card: {second card: {third card: index}}}``,
    where ``index`` is the plan's place in ``plans`` and every level keeps the order in
    which its cards first appear (deck order for :func:`legal_plans`). A browser page
    offers the first card among the tree's keys, then the continuations of the cards
    chosen so far (DF.M1: three cards a turn)."""
    tree: dict = {}
    for index, plan in enumerate(plans):
        node = tree
        for card in plan[:-1]:
            node = node.setdefault(card, {})
        node[plan[-1]] = index
    return tree


def continuations(plans: Sequence[Sequence[str]], prefix: Sequence[str]) -> tuple[str, ...]:
    """The cards that may follow ``prefix`` (the cards chosen so far) in some plan of
    ``plans``, in order of first appearance; ``()`` when none does."""
    prefix = tuple(prefix)
    n = len(prefix)
    return tuple(dict.fromkeys(plan[n] for plan in plans if len(plan) > n and tuple(plan[:n]) == prefix))
