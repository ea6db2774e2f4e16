"""The seats' decisions: which actions are legal, what each does, and its text
(WC.F2-WC.F6, WC.G4, WC.G5).

:func:`legal_actions` lists, in a fixed order, the actions of the seat to decide;
:func:`apply` checks an action against that list (an illegal one raises
:class:`IllegalAction` and changes nothing), resolves it on a :class:`Work` copy, runs
the game on to the next decision (:func:`.flow.advance`) and freezes the new state.
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache
from itertools import repeat
from operator import is_not

from furball.i18n import N_, render_entry

from ..engine.protocol import Reason, refuse
from . import actions as A
from .actions import ActionKind, Ask, Pending, Phase
from .components import MODELS, ROW, Extra, Icon, Wild, words
from .flow import advance, board_passenger, passengers_on_offer
from .options import can_advance, can_move, fleet_rescues, moves, rescue_types, special_options, special_possible
from .work import Phrase, Text, Work, _without, at_place, joined

__all__ = ["legal_actions", "apply", "describe", "current_side"]


def current_side(s) -> int | None:
    """The side to decide: the first open question's, else the side on turn."""
    return s.current_player()


# -- legal actions ------------------------------------------------------------------------
def _possible(s, side: int, icon: Icon) -> bool:
    """Whether ``side`` could do action ``icon`` now (a Rescue of any type for Rescue)."""
    if icon == Icon.RADAR:
        return s.board.radar_left > 0
    if icon == Icon.INFLUENCE:
        return can_advance(s.setup.comp, s.sides[side])
    if icon == Icon.MOVE:
        return can_move(s.table, s.sides, side)
    if icon == Icon.RESCUE:
        return bool(_rescues(s, side))
    return special_possible(s.setup.comp, s.sides[side], s.setup.colours[side], s.private[side].radar,
                            s.board.orders_row)


EXTRA_ICON = {Extra.INFLUENCE: Icon.INFLUENCE, Extra.DOUBLE_MOVE: Icon.MOVE,
              Extra.DOUBLE_SPECIAL_ORDER: Icon.SPECIAL_ORDER, Extra.RESCUE: Icon.RESCUE}


def _rescues(s, side: int) -> tuple:
    """Every rescue of side ``side`` (:func:`~.options.fleet_rescues`)."""
    me, b = s.sides[side], s.board
    return fleet_rescues(s.setup.comp, s.table, me.at, me.aboard, me.night, b.roofs, b.stairs)


def _specials(s, side: int) -> list:
    return special_options(s.setup.comp, s.sides[side], s.setup.colours[side], s.private[side].radar,
                           s.board.orders_row)


def _extras(s, side: int) -> list:
    out = []
    for e in dict.fromkeys(s.sides[side].extras):
        if _possible(s, side, EXTRA_ICON[e]):
            out.append(A.extra(e))
    return out


def _distinct(faces: tuple[int, ...], hand) -> list[int] | tuple[int, ...]:
    """One card id per distinct card face in ``hand`` (identical cards are one choice)."""
    if len(set(map(faces.__getitem__, hand))) == len(hand):
        return hand                  # the usual case: no two cards alike
    seen, out = set(), []
    for c in hand:
        if faces[c] not in seen:
            seen.add(faces[c])
            out.append(c)
    return out


def _or_pass(front: Pending, options: list) -> list:
    """``options`` and ``pass`` (WC.F3: "cannot or do not wish"), except when the action
    is performed when able (``front.must``) and something is possible."""
    return options if front.must and options else options + [A.PASS]


def _question(s, front: Pending) -> list:
    side = front.side
    if front.ask == Ask.MOVE:
        return _or_pass(front, [A.move(m, d) for m, d in moves(s.table, s.sides, side, front.helis)])
    if front.ask == Ask.RESCUE:
        return _or_pass(front, [A.rescue(m, n, p) for m, n, p in _rescues(s, side) if front.person in (None, p)])
    if front.ask == Ask.SPECIAL_ORDER:
        out = []
        for kind, index, paid in _specials(s, side):
            if kind == "order":
                out.append(A.order(index, paid))
            elif index == 4:
                out.append(A.upgrade(index, tokens=paid))
            else:
                out.append(A.upgrade(index, people=paid))
        return _or_pass(front, out)
    if front.ask == Ask.PASSENGER:
        return [A.board(p) for p in dict.fromkeys(passengers_on_offer(s.setup.comp, s.board.sighting, s.board.supply))]
    if front.ask == Ask.REPLACE:
        return [A.replace(c) for c in _distinct(s.setup.comp.faces, s.private[side].hand)]
    if front.ask == Ask.UNLOAD:
        me, own = s.sides[side], s.table.carriers[side]
        return [A.unload(m, p) for i, m in enumerate(MODELS) if me.at[i] == own
                for p in dict.fromkeys(me.aboard[i])]
    return _extras(s, side) + [A.KEEP]


def legal_actions(s) -> tuple:
    """Every legal action of the seat to decide, in a fixed order; ``()`` at the end."""
    side = s.current_player()
    if side is None:
        return ()
    b = s.board
    if b.pending:
        return tuple(_question(s, b.pending[0]))
    extras = _extras(s, side) if s.sides[side].extras else []
    if b.phase == Phase.DRAW:
        filled = tuple(map(is_not, b.row, repeat(None)))
        return _takes(filled, bool(s.deck or b.discard), len(s.table.roofs)) + tuple(extras)
    if b.phase == Phase.SIGHTING:
        return tuple([A.bid(v) for v in dict.fromkeys(s.private[side].radar)] + [A.SEAL])
    hand = s.private[side].hand
    comp = s.setup.comp
    plays, faceups = _menus(comp)
    menu = [plays[c] for c in _distinct(comp.faces, hand)]
    up = s.sides[side].faceup
    if up is not None and hand:
        menu.append(faceups[up])
    out = []
    ok = {}
    people = None
    for rescue, person, others, discard in menu:
        if rescue is not None:
            if people is None:
                people = rescue_types(s.setup.comp, s.table, s.sides[side], b.roofs, b.stairs)
            if person in people if person is not None else people:
                out.append(rescue)
        for action, use in others:
            can = ok.get(use)
            if can is None:
                can = ok[use] = _possible(s, side, use)
            if can:
                out.append(action)
        if discard is not None:
            out.append(discard)
    return tuple(out + extras)


@lru_cache(maxsize=8)
def _menus(comp) -> tuple:
    """Phase 2's menus before what is possible now (WC.F3), per action card id, for
    playing it from the hand and for playing it face up: ``(its Rescue or None, the
    Rescue's type, ((action, use), ...) of its other uses, its discard or None)`` in
    menu order (a card's Rescue is its first use); made once per card set."""
    plays, faceups = [], []
    for c, card in enumerate(comp.cards):
        rescue = Icon.RESCUE in card.uses()
        others = tuple(use for use in card.uses() if use != Icon.RESCUE)
        plays.append((A.play(c, Icon.RESCUE) if rescue else None, card.rescue,
                      tuple((A.play(c, use), use) for use in others), A.discard(c)))
        faceups.append((A.faceup(Icon.RESCUE) if rescue else None, card.rescue,
                        tuple((A.faceup(use), use) for use in others), None))
    return tuple(plays), tuple(faceups)


@lru_cache(maxsize=4096)
def _takes(filled: tuple, deck: bool, roofs: int) -> tuple:
    """Phase 1's takes (WC.F2): each filled board slot, and Inspect of each staircase
    while the deck (or the discard pile to rebuild it) has a card."""
    out = [A.take(slot) for slot, full in zip(ROW, filled) if full]
    if deck:
        out += [A.take(Icon.INSPECT, k) for k in range(roofs)]
    return tuple(out)


# -- resolving an action ------------------------------------------------------------------
SLOT_WHY = {Icon.RADAR: N_("radar slot"), Icon.INFLUENCE: N_("influence slot"), Icon.MOVE: N_("move slot"),
            Icon.SPECIAL_ORDER: N_("special order slot")}
"""Why a board slot's action asks its details (the question's ``why``)."""


def _perform(w: Work, side: int, icon: Icon, person, why: str, must: bool = False) -> None:
    """Do the action ``icon`` (WC.F5): Radar and Influence at once; Move, Rescue and
    Special Order ask their details next (nothing when impossible); ``must``: they are
    performed when able (a phase-1 slot's action, WC.F2), no pass offered."""
    if icon == Icon.RADAR:
        w.take_radar(side)
    elif icon == Icon.INFLUENCE:
        w.influence(side)
    else:
        pending = w.ask_for(side, icon, person, why, must)
        if pending is None:
            w.log("  {}: nothing possible", words(icon))
        else:
            w.push(pending)


def _hand_minus(w: Work, side: int, card: int) -> None:
    w.set_priv(side, hand=_without(w.private[side].hand, (card,)))
    w.set_side(side, hand=w.sides[side].hand - 1)


def _take(w: Work, side: int, a) -> None:
    """WC.F2: take a card into hand and do its slot's action (the deck top: Inspect)."""
    w.b["turn"] += 1
    label = w.labels[side]
    if a.slot == Icon.INSPECT:
        card = w.draw_card()
        k = a.roof
        w.set_priv(side, hand=tuple(sorted(w.private[side].hand + (card,))),
                   inspected=w.private[side].inspected + ((k, w.stairs_down[k]),))
        w.set_side(side, hand=w.sides[side].hand + 1)
        w.log("{} takes the deck top (Inspect) and looks at the staircase of {}", label, w.table.roofs[k])
        w.gain(side, 1, "Inspect")
        return
    i = ROW.index(a.slot)
    card = w.b["row"][i]
    w.b["row"] = w.b["row"][:i] + (None,) + w.b["row"][i + 1:]
    w.set_priv(side, hand=tuple(sorted(w.private[side].hand + (card,))))
    w.set_side(side, hand=w.sides[side].hand + 1)
    w.log("{} takes {} from the {} slot", label, w.comp.cards[card].name, words(a.slot))
    _perform(w, side, a.slot, None, SLOT_WHY[a.slot], must=True)    # "immediately perform the action"
    w.refill_row()


def _play(w: Work, side: int, a) -> None:
    """WC.F3: play a hand card or the face-up card (then put a hand card face up), or
    discard a card without effect."""
    w.b["turn"] += 1
    label = w.labels[side]
    if a.kind == ActionKind.DISCARD:
        _hand_minus(w, side, a.card)
        w.discard_card(a.card)
        w.log("{} discards {} without effect", label, w.comp.cards[a.card].name)
        return
    if a.kind == ActionKind.PLAY:
        card_id = a.card
        _hand_minus(w, side, card_id)
        w.discard_card(card_id)
        w.log("{} plays {}: {}", label, w.comp.cards[card_id].name, words(a.use))
    else:
        card_id = w.sides[side].faceup
        w.set_side(side, faceup=None)
        if w.setup.solo and w.comp.cards[card_id].wild == Wild.ACTION:
            w.b["removed"] = w.b["removed"] + (card_id,)
            gone = N_(" (single use in solo: removed from the game)")
        else:
            w.discard_card(card_id)
            gone = ""
        w.log("{} plays the face-up {}: {}{}", label, w.comp.cards[card_id].name, words(a.use), gone)
    card = w.comp.cards[card_id]
    _perform(w, side, a.use, card.rescue, card.name)
    if a.kind == ActionKind.FACEUP:
        w.b["pending"] = w.b["pending"] + (A.pending(Ask.REPLACE, side, why=N_("face-up card played")),)


def _extra(w: Work, side: int, a) -> None:
    """WC.F4: use an action kept from a won sighting (free, during the turn)."""
    me = w.sides[side]
    w.set_side(side, extras=_without(me.extras, (a.extra,)))
    w.log("{} uses the sighting's {}", w.labels[side], words(a.extra))
    if a.extra == Extra.INFLUENCE:
        w.influence(side)
        return
    icon = EXTRA_ICON[a.extra]
    first = w.ask_for(side, icon, None, "sighting")
    twice = a.extra in (Extra.DOUBLE_MOVE, Extra.DOUBLE_SPECIAL_ORDER)
    w.push(*([first] + ([first] if twice else [])))


def _move(w: Work, side: int, a) -> None:
    """WC.G4 (and carrier upgrade 4: the other helicopter may fly after)."""
    front = w.pop()
    before = len(w.b["pending"])
    w.fly(side, a.heli, a.to)
    others = tuple(m for m in front.helis if m != a.heli)
    if front.both and others and w.can_move(side, others):
        k = len(w.b["pending"]) - before  # unloading questions the flight raised come first
        follow = A.pending(Ask.MOVE, side, helis=others, why=N_("advanced communications"))
        w.b["pending"] = w.b["pending"][:k] + (follow,) + w.b["pending"][k:]


def _rescue(w: Work, side: int, a) -> None:
    """WC.G5 (and carrier upgrade 3: a second person)."""
    front = w.pop()
    w.rescue(side, a.heli, a.at, a.person)
    if front.picks > 1 and w.can_rescue(side, front.person):
        w.push(A.pending(Ask.RESCUE, side, person=front.person, picks=front.picks - 1, why=N_("special rescue device")))


def _answer(w: Work, side: int, a) -> None:
    if a.kind == ActionKind.ORDER:
        w.pop()
        w.complete_order(side, a.order, a.people)
    elif a.kind == ActionKind.UPGRADE:
        w.pop()
        w.do_upgrade(side, a.upgrade, a.people, a.tokens)
    elif a.kind == ActionKind.REPLACE:
        w.pop()
        _hand_minus(w, side, a.card)
        w.set_side(side, faceup=a.card)
        w.log("{} puts {} face up next to the carrier", w.labels[side], w.comp.cards[a.card].name)
    elif a.kind == ActionKind.UNLOAD:
        w.pop()
        w.unload(side, MODELS.index(a.heli), (a.person,))
        w.settle(side)
    elif a.kind == ActionKind.BOARD:
        w.pop()
        board_passenger(w, side, a.person)
    elif a.kind == ActionKind.KEEP:
        w.pop()
        w.log("{} keeps {} for a later turn", w.labels[side],
              ", ".join(words(e) for e in w.sides[side].extras))
    else:  # PASS
        front = w.pop()
        w.log("{} passes ({})", w.labels[side], words(front.ask))


def _bid(w: Work, side: int, a) -> None:
    """WC.F4: tokens go into the sealed bid one by one; sealing shows only how many."""
    mine = w.private[side]
    if a.kind == ActionKind.BID:
        w.set_priv(side, radar=_without(mine.radar, (a.value,)), bid=tuple(sorted(mine.bid + (a.value,))))
        return
    w.b["turn"] += 1
    w.set_side(side, bid=len(mine.bid))
    w.log("{} bids {} token(s), face down", w.labels[side], len(mine.bid))


_RESOLVE = {ActionKind.TAKE: _take, ActionKind.PLAY: _play, ActionKind.FACEUP: _play, ActionKind.DISCARD: _play, ActionKind.EXTRA: _extra, ActionKind.MOVE: _move,
            ActionKind.RESCUE: _rescue, ActionKind.BID: _bid, ActionKind.SEAL: _bid}


_ASKED = {Ask.MOVE: ("WC.G4", "the open question is where a helicopter flies"),
          Ask.RESCUE: ("WC.G5", "the open question is whom a helicopter rescues"),
          Ask.SPECIAL_ORDER: ("WC.F5", "the open question is which special order to carry out"),
          Ask.REPLACE: ("WC.F3", "the open question is which card replaces the face-up wild"),
          Ask.UNLOAD: ("WC.F6", "the open question is whom to unload on the carrier"),
          Ask.SIGHTING: ("WC.F4", "the open question is whether to use the won sighting's actions now"),
          Ask.PASSENGER: ("WC.F4", "the open question is which passenger boards")}
"""Per open question: its rule and the question in words."""
_PHASE_ASKS = {Phase.DRAW: ("WC.F2", "in phase 1 each seat takes a card of the row (or inspects)"),
               Phase.PLAY: ("WC.F3", "in phase 2 each seat plays a card of its hand (or its face-up wild)"),
               Phase.SIGHTING: ("WC.F4", "in phase 3 each seat adds radar tokens to its sealed bid, then seals")}
"""Per phase with no open question: its rule and what it asks."""


def explain(s, action) -> Reason | None:
    """``None`` when ``action`` is legal for the seat to decide, else why not: the rule
    of the decision the game waits for and one line. It is told only to the seat to
    decide, and names only what that seat sees: its own hand and radar tokens, the
    phase and the open question, the count of its own legal actions."""
    side = s.current_player()
    if side is None:
        return Reason("WC.F1", "the game is over")
    if s.is_legal(action):
        return None
    legal = s.legal_actions()
    b = s.board
    rule, asked = _ASKED[b.pending[0].ask] if b.pending else _PHASE_ASKS[b.phase]
    if not isinstance(action, A.Action):
        return Reason(rule, f"not now: {asked} ({len(legal)} legal actions)")
    mine, now = s.private[side], None if b.pending else b.phase
    if now == Phase.SIGHTING and action.kind == ActionKind.BID and action.value not in mine.radar:
        return Reason("WC.F4", f"you hold no radar token worth {str(action.value)[:20]} outside your bid")
    if now == Phase.PLAY and action.kind in (ActionKind.PLAY, ActionKind.DISCARD) and action.card not in mine.hand:
        return Reason(rule, "that card is not in your hand")
    if action.kind not in {a.kind for a in legal}:
        return Reason(rule, f"not now: {asked} ({len(legal)} legal actions)")
    same = sum(1 for a in legal if a.kind == action.kind)
    return Reason(rule, f"not one of the {same} {action.kind.value} action(s) open now ({len(legal)} legal actions)")


def apply(s, action):
    """The state after ``action`` by the seat to decide. Raises :class:`IllegalAction`
    naming the rule (nothing changes) when the action is not among :func:`legal_actions`."""
    reason = None if s.is_legal(action) else explain(s, action)
    if reason is not None:
        raise refuse(_short(action), reason)
    side = s.current_player()
    w = Work(s)
    _RESOLVE.get(action.kind, _answer)(w, side, action)
    advance(w)
    return w.freeze()


def _short(action) -> str:
    """``action`` in one short line for an error message (anything may have been passed)."""
    if not isinstance(action, A.Action):
        return repr(action)[:120]
    values = {f.name: getattr(action, f.name) for f in dataclasses.fields(action)}
    return f"{action.kind} {({k: v for k, v in values.items() if v not in (None, ()) and k != 'kind'})}"[:120]


# -- text -----------------------------------------------------------------------------------
_TEXT = {ActionKind.PLAY: N_("play {}: {}"), ActionKind.DISCARD: N_("discard {} without effect"),
         ActionKind.EXTRA: N_("use the sighting's {} now"), ActionKind.KEEP: N_("keep the sighting's actions for a later turn"),
         ActionKind.BID: N_("add a radar token worth {} to the sealed bid"), ActionKind.MOVE: N_("fly the {} to {}"),
         ActionKind.RESCUE: N_("rescue a {} from {} with the {}"),
         ActionKind.REPLACE: N_("put {} face up next to the carrier"), ActionKind.UNLOAD: N_("unload a {} from the {}"),
         ActionKind.BOARD: N_("take the {} passenger into the one free carrier space (the other is lost)"),
         ActionKind.PASS: N_("pass")}
"""The text of the actions that need only their own values (their values: :data:`_VALUES`)."""
_VALUES = {ActionKind.PLAY: lambda a, card: (card, words(a.use)), ActionKind.DISCARD: lambda a, card: (card,),
           ActionKind.EXTRA: lambda a, card: (words(a.extra),), ActionKind.KEEP: lambda a, card: (),
           ActionKind.BID: lambda a, card: (a.value,), ActionKind.MOVE: lambda a, card: (a.heli, Phrase(at_place, a.to)),
           ActionKind.RESCUE: lambda a, card: (a.person, Phrase(at_place, a.at), a.heli), ActionKind.REPLACE: lambda a, card: (card,),
           ActionKind.UNLOAD: lambda a, card: (a.person, a.heli), ActionKind.BOARD: lambda a, card: (a.person,),
           ActionKind.PASS: lambda a, card: ()}
ACTION_WORDS = (N_("special order"), N_("double move"), N_("double special order"))
"""Words the actions' text writes (:func:`~.components.words` of a vocabulary value), for the catalog."""


def _order_label(_, order) -> str:
    return order.label(_)


def _paid(_, people, tokens) -> str:
    """What a carrier card's upgrade is paid with (WC.F5), read with ``_``: People, or
    radar tokens (``2 + 3 in radar``)."""
    if people:
        return ", ".join(map(_, people))
    return _("{tokens} in radar").format(tokens=" + ".join(map(str, tokens)))


def describe(s, a) -> str:
    """A short human-readable text of action ``a`` in state ``s`` (English:
    :func:`describe_entry` rendered)."""
    return render_entry(*describe_entry(s, a))


def describe_entry(s, a) -> tuple[str, tuple]:
    """Action ``a`` in state ``s`` as a log entry ``(template, args)``: the English text
    with ``{}`` fields and their values, for a reader's language (docs/i18n.md)."""
    comp = s.setup.comp
    if a.kind in _TEXT:
        card = comp.cards[a.card].name if a.card is not None else ""
        return _TEXT[a.kind], _VALUES[a.kind](a, card)
    if a.kind == ActionKind.TAKE:
        if a.slot == Icon.INSPECT:
            return N_("take the deck top (Inspect: +1 VP, look at the staircase of {})"), (s.table.roofs[a.roof],)
        card = s.board.row[ROW.index(a.slot)]
        return N_("take {} from the {} slot and do {}"), (comp.cards[card].name, words(a.slot), words(a.slot))
    if a.kind == ActionKind.FACEUP:
        up = s.sides[current_side(s)].faceup
        return N_("play the face-up {}: {} (then put a hand card face up)"), (comp.cards[up].name, words(a.use))
    if a.kind == ActionKind.SEAL:
        mine = s.private[current_side(s)].bid
        return N_("seal the bid ({} token(s) worth {})"), (len(mine), sum(mine))
    if a.kind == ActionKind.ORDER:
        return N_("complete {} discarding {}"), (Phrase(_order_label, comp.orders[a.order]), Text(joined, a.people))
    paid = Phrase(_paid, a.people, a.tokens) if a.people or a.tokens else ""
    up = comp.upgrades[a.upgrade - 1]
    if paid:
        return N_("upgrade carrier card {} ({}, {} VP) discarding {}"), (a.upgrade, up.name, up.vp, paid)
    return N_("upgrade carrier card {} ({}, {} VP)"), (a.upgrade, up.name, up.vp)
