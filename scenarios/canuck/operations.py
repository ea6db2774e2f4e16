"""The Partisan's options: legal actions, declarations and their resolution
(CN.P1–CN.P13, CN.E2).

An option is declared in small steps, each a legal action of its own, so that every
menu is short (the terminal game shows them as numbered choices):

* main menu: ``ambush``/``sabotage`` in an area with a garrison die and a Group or
  Leader (CN.P3), ``train``/``move``/``build_base``/``supply_drop`` (engine
  convention: only with at least one Reserve card, CN.P9), ``pause`` naming the area of
  the Group removed (CN.P13);
* kinetic operations: ``participants`` (CN.P4), then ``add_card`` up to the number of
  participants (CN.P5) and ``resolve``; ``cancel`` drops the declaration;
* non-kinetic operations: ``add_card`` (at least one) and ``resolve`` (CN.P9);
* after a success: ``place_group`` / ``done`` (Train), ``move_counter`` / ``done``
  (Move; each counter moves at most once per operation), ``place_base`` (Build Base);
* a Sweep: ``add_card`` any Reserve card, then ``resolve`` (CN.F2d);
* losing counters (a failed kinetic operation, a successful Sweep) when two kinds of
  counter could go: ``lose`` one counter at a time (:mod:`.losses`).
"""
from __future__ import annotations

from itertools import compress
from operator import sub
from typing import TYPE_CHECKING

from furball.i18n import N_, render_entry

from ..engine.protocol import Reason, action_text, refuse
from .actions import (
    KINETIC,
    NON_KINETIC_KINDS,
    OP_NAMES,
    PAUSE_DRAWS,
    SUPPLY_DROP_CARDS,
    TRAIN_GROUPS,
    Action,
    ActionKind,
    EndReason,
    Pending,
    PendingKind,
    Piece,
    action_table,
    op_name,
    piece_name,
)
from .cards import DECK_SIZE, DIAMONDS, HEARTS, card_value, label, labels, rank
from .losses import allowed_pieces, begin_losses, lose
from .sweep import resolve_sweep, run_draws
from .work import Work

if TYPE_CHECKING:
    from .state import State

__all__ = ["legal_actions", "explain", "apply", "describe"]

K = ActionKind


def legal_actions(s: State) -> tuple[Action, ...]:
    """Every legal action of ``s`` in a fixed order (see the module docstring). The
    actions are the shared values of :func:`~.actions.action_table`."""
    if s.over:
        return ()
    p = s.pending
    T = action_table(len(s.groups))
    if p is None:
        return _main_menu(s, T)
    return _MENU_OF[p.kind](s, p, T)


def _main_menu(s: State, T) -> tuple[Action, ...]:
    out = []
    ambush, sabotage = T.by_area[K.AMBUSH], T.by_area[K.SABOTAGE]
    garrison, groups, leaders = s.garrison, s.groups, s.leaders
    for a in s.board.gar:
        if garrison[a] > 0 and groups[a] + leaders[a] > 0:  # CN.P3, CN.P4
            out.append(ambush[a])
            out.append(sabotage[a])
    if s.reserve:
        out.extend(T.non_kinetic)
    out.extend(compress(T.by_area[K.PAUSE], groups))  # CN.P13: the areas holding a Group
    return tuple(out)


def _participants_menu(s: State, p: Pending, T) -> tuple[Action, ...]:
    out = [_participants(T, g, l_)
           for l_ in range(s.leaders[p.area] + 1) for g in range(s.groups[p.area] + 1)
           if g + l_ >= 1 and (g <= 1 or l_ >= 1)]  # CN.P4
    return tuple(out) + (T.cancel,)


def _cards_menu(s: State, p: Pending, T) -> tuple[Action, ...]:
    kinetic = p.op in KINETIC
    limit = p.groups + p.leaders if kinetic else len(s.reserve)  # CN.P5
    out = []
    if len(p.cards) < limit:
        add = T.add_card
        out = [add[c] for c in s.reserve if c not in p.cards]
    if kinetic or p.cards:  # CN.P5 allows none; engine convention: CN.P9 needs one
        out.append(T.resolve)
    out.append(T.cancel)
    return tuple(out)


def _sweep_menu(s: State, p: Pending, T) -> tuple[Action, ...]:
    add = T.add_card
    return tuple(add[c] for c in s.reserve if c not in p.cards) + (T.resolve,)


def _train_menu(s: State, p: Pending, T) -> tuple[Action, ...]:
    place = T.by_area[K.PLACE_GROUP]
    return tuple(place[a] for a, b in enumerate(s.bases) if b) + (T.done,)


def _move_menu(s: State, p: Pending, T) -> tuple[Action, ...]:
    out = []
    moves_from = T.moves_from
    group, leader = Piece.GROUP, Piece.LEADER
    groups_left = map(sub, s.groups, p.arrived_groups)  # a counter moves once
    leaders_left = map(sub, s.leaders, p.arrived_leaders)
    for a, (g, l_) in enumerate(zip(groups_left, leaders_left)):
        if g > 0:
            out.extend(moves_from[a, group])
        if l_ > 0:
            out.extend(moves_from[a, leader])
    out.append(T.done)
    return tuple(out)


def _base_menu(s: State, p: Pending, T) -> tuple[Action, ...]:
    place = T.by_area[K.PLACE_BASE]
    return tuple(place[a] for a in s.board.base if not s.bases[a])


def _losses_menu(s: State, p: Pending, T) -> tuple[Action, ...]:
    return tuple(T.lose[piece] for piece in allowed_pieces(s.groups, s.leaders, s.bases, p))


_MENU_OF = {PendingKind.PARTICIPANTS: _participants_menu, PendingKind.CARDS: _cards_menu,
            PendingKind.SWEEP: _sweep_menu, PendingKind.TRAIN: _train_menu, PendingKind.MOVE: _move_menu,
            PendingKind.BASE: _base_menu, PendingKind.LOSSES: _losses_menu}
"""The menu of each pending decision (the module docstring lists them)."""


def _participants(T, g: int, l_: int) -> Action:
    return T.participants.get((g, l_)) or Action(K.PARTICIPANTS, groups=g, leaders=l_)


_RULE_OF = {PendingKind.PARTICIPANTS: "CN.P4", PendingKind.SWEEP: "CN.F2", PendingKind.TRAIN: "CN.P11",
            PendingKind.MOVE: "CN.P11", PendingKind.BASE: "CN.P11"}
"""The rule each pending decision follows (CARDS and LOSSES: see :func:`_decision_rule`)."""


def _decision_rule(p: Pending) -> str:
    if p.kind == PendingKind.CARDS:
        return "CN.P5" if p.op in KINETIC else "CN.P9"
    if p.kind == PendingKind.LOSSES:
        return "CN.F2" if p.garrison is not None else ("CN.P6" if p.op == K.AMBUSH else "CN.P7")
    return _RULE_OF[p.kind]


def explain(s: State, a) -> Reason | None:
    """``None`` when ``a`` is legal in ``s``, else why not: the rule it breaks and one
    line (a solitaire: everything it names is on the table)."""
    if s.is_legal(a):
        return None
    if s.over:
        return Reason("CN.E2" if s.over in (EndReason.LAST_BASE, EndReason.DEADLOCK) else "CN.E1",
                      f"the game is over ({s.over})")
    n = len(s.groups)
    if type(a) is not Action:
        return Reason("CN.P1", "not an action of Operation Canuck")
    if not all(x is None or (isinstance(x, int) and 0 <= x < n) for x in (a.area, a.to)):
        return Reason("CN.K6", f"no such area on the map (areas 0 to {n - 1})")
    names, p, k = s.areas, s.pending, a.kind
    if p is None:
        if k in KINETIC and a.area is not None:
            where = names[a.area]
            if a.area not in s.board.gar or s.garrison[a.area] <= 0:
                return Reason("CN.P3", f"{OP_NAMES[k]} only against an area with a garrison die: {where} has none")
            return Reason("CN.P4", f"{OP_NAMES[k]} needs a Group or Leader in {where} to take part: none there")
        if k in NON_KINETIC_KINDS:
            return Reason("CN.P9", f"{OP_NAMES[k]} needs Reserve cards: the Reserve is empty")
        if k == K.PAUSE and a.area is not None:
            return Reason("CN.P13", f"an Operational Pause removes a Group from {names[a.area]}: none there")
        return Reason("CN.P1", "first choose an operation or an Operational Pause (one option at a time)")
    rule = _decision_rule(p)
    if p.kind == PendingKind.PARTICIPANTS and k == K.PARTICIPANTS:
        g, l_ = a.groups, a.leaders
        if g + l_ < 1:
            return Reason(rule, "at least 1 Group or Leader takes part")
        if g > 1 and l_ < 1:
            return Reason(rule, "more than 1 Group takes part only with a Leader")
        return Reason(rule, f"{names[p.area]} holds {s.groups[p.area]} Group(s) and {s.leaders[p.area]} Leader(s)")
    if p.kind in (PendingKind.CARDS, PendingKind.SWEEP) and k == K.ADD_CARD:
        if a.card not in s.reserve:
            return Reason(rule, f"{label(a.card)} is not in the Reserve" if isinstance(a.card, int) and
                          0 <= a.card < DECK_SIZE else "not a card of the Reserve")
        if a.card in p.cards:
            return Reason(rule, f"{label(a.card)} is already chosen")
        return Reason(rule, f"at most {p.groups + p.leaders} card(s): one per Group or Leader taking part")
    if p.kind == PendingKind.CARDS and k == K.RESOLVE:
        return Reason(rule, "choose at least one Reserve card first")
    if p.kind == PendingKind.MOVE and k == K.MOVE_COUNTER and a.piece in (Piece.GROUP, Piece.LEADER):
        return Reason(rule, f"no {a.piece.capitalize()} left to move from {names[a.area]} (a counter moves once)")
    if p.kind == PendingKind.BASE and k == K.PLACE_BASE:
        return Reason(rule, f"{names[a.area]} has no free BASE box")
    if p.kind == PendingKind.TRAIN and k == K.PLACE_GROUP:
        return Reason(rule, f"Groups are placed in areas with a Base: {names[a.area]} has none")
    return Reason(rule, f"not an answer to the decision in progress ({p.kind}; "
                        f"{len(s.legal_actions())} legal actions)")


def describe(s: State, a: Action) -> str:
    """Human-readable text of action ``a`` in state ``s`` (English: :func:`describe_entry`)."""
    template, args = describe_entry(s, a)
    return render_entry(template, args)


def describe_entry(s: State, a: Action) -> tuple[str, tuple]:
    """Action ``a`` in state ``s`` as a log entry, ``(template, args)``: the English text
    with ``{}`` fields and their values, rendered in a reader's language by
    :func:`furball.i18n.render_entry`."""
    names = s.areas
    k = a.kind
    if k in KINETIC:
        return N_("{} the garrison in {} (strength {})"), (op_name(k), names[a.area], s.garrison[a.area])
    if k in OP_NAMES:
        return OP_NAMES[k], ()
    if k == K.PAUSE:
        return N_("Operational Pause, removing a Group from {}"), (names[a.area],)
    if k == K.PARTICIPANTS:
        return N_("commit {} Group(s) and {} Leader(s)"), (a.groups, a.leaders)
    if k == K.ADD_CARD:
        return N_("add {}"), (label(a.card),)
    if k == K.RESOLVE:
        p = s.pending
        return (N_("resolve with {}"), (labels(p.cards),)) if p is not None else (N_("resolve"), ())
    if k == K.CANCEL:
        return N_("cancel this declaration"), ()
    if k == K.DONE:
        return N_("done"), ()
    if k == K.PLACE_GROUP:
        return N_("place a Group in {}"), (names[a.area],)
    if k == K.MOVE_COUNTER:
        return N_("move {} from {} to {}"), (piece_name(a.piece), names[a.area], names[a.to])
    if k == K.PLACE_BASE:
        return N_("place a Base in {}"), (names[a.area],)
    if k == K.LOSE:
        if s.pending is None:
            return N_("lose {} in the area"), (piece_name(a.piece),)
        return N_("lose {} in {}"), (piece_name(a.piece), names[s.pending.area])
    return str(k), ()


def apply(s: State, action: Action) -> State:
    """The state after ``action``. Raises :class:`IllegalAction` (state unchanged) for
    an action not in the listed menu (:meth:`State.is_legal`)."""
    if not s.is_legal(action):
        raise refuse(describe_safe(s, action), explain(s, action))
    w = Work(s)
    _dispatch(w, s, action)
    run_draws(w)
    if w.pending is None and not w.over and w.draws_due == 0 and not w.reserve and sum(w.groups) == 0:
        w.over = EndReason.DEADLOCK  # CN.E2
        w.log("  deadlock: no Reserve cards and no Group for an Operational Pause: defeat (CN.E2)")
    return w.freeze()


def declares_only(s: State, a: Action) -> bool:
    """Whether ``a`` only declares the option being chosen (an operation but the
    Operational Pause, its participants, a card added, a cancel: :func:`_dispatch`'s
    first branches), drawing nothing and resolving nothing (no deck draws owed)."""
    p = s.pending
    if s.draws_due:
        return False
    if p is None:
        return a.kind != K.PAUSE
    return (a.kind == K.CANCEL or p.kind == PendingKind.PARTICIPANTS
            or (p.kind in (PendingKind.CARDS, PendingKind.SWEEP) and a.kind == K.ADD_CARD))


def describe_safe(s: State, a: Action) -> str:
    try:
        return repr(describe(s, a))
    except (IndexError, TypeError, ValueError):
        return action_text(a)


def _dispatch(w: Work, s: State, a: Action) -> None:
    p = s.pending
    k = a.kind
    if p is None:
        if k in KINETIC:
            if w.logging:
                w.log("{} declared against {}", op_name(k), w.name(a.area))
            w.pending = Pending(PendingKind.PARTICIPANTS, op=k, area=a.area)
        elif k == K.PAUSE:
            _pause(w, a.area)
        else:
            if w.logging:
                w.log("{} declared", op_name(k))
            w.pending = Pending(PendingKind.CARDS, op=k)
    elif k == K.CANCEL:
        if w.logging:
            w.log("  {} cancelled", op_name(p.op))
        w.pending = None
    elif p.kind == PendingKind.PARTICIPANTS:
        w.pending = Pending(PendingKind.CARDS, op=p.op, area=p.area, groups=a.groups, leaders=a.leaders)
    elif p.kind in (PendingKind.CARDS, PendingKind.SWEEP) and k == K.ADD_CARD:
        w.pending = Pending(p.kind, op=p.op, area=p.area, garrison=p.garrison, groups=p.groups,
                            leaders=p.leaders, cards=p.cards + (a.card,))
    elif p.kind == PendingKind.CARDS:
        w.options += 1
        w.pending = None
        {K.AMBUSH: _ambush, K.SABOTAGE: _sabotage}.get(p.op, _non_kinetic)(w, p)
    elif p.kind == PendingKind.SWEEP:
        resolve_sweep(w, p.garrison, p.area, p.cards)
    elif p.kind == PendingKind.TRAIN:
        _train_step(w, p, a)
    elif p.kind == PendingKind.MOVE:
        _move_step(w, p, a)
    elif p.kind == PendingKind.LOSSES:
        lose(w, p, a.piece)
    elif p.kind == PendingKind.BASE:
        w.bases[a.area] = 1
        w.unused_bases -= 1
        if w.logging:
            w.log("  a Base is placed in {}", w.name(a.area))
        w.finish_option(p.cards, p.drawn)


def _ambush(w: Work, p: Pending) -> None:
    """CN.P6: score = Groups + Leaders + cards (hearts doubled) vs as many random Axis
    cards as red cards played (1 if none)."""
    red = w.take_from_reserve(p.cards)
    score = p.groups + p.leaders + sum(card_value(c, HEARTS) for c in red)
    n = max(1, len(red))
    black = w.draw_axis(n)
    axis = sum(rank(c) for c in black)
    if w.logging:
        w.log("  Ambush in {}: {}G + {}L + {} = {} vs Axis {} = {}", w.name(p.area), p.groups, p.leaders,
              labels(red), score, labels(black), axis)
    w.discard(red, black)
    if score > axis:
        w.log("  success")
        w.hit_garrison(p.area, n)
        w.finish_option()
    else:
        w.log("  failure")
        begin_losses(w, p.area, len(black), p.groups, p.leaders)


def _sabotage(w: Work, p: Pending) -> None:
    """CN.P7: score = Groups + Leaders + cards (diamonds doubled) vs as many random Axis
    cards as the garrison's strength; success scores 1 VP per red card (1 if none)."""
    red = w.take_from_reserve(p.cards)
    score = p.groups + p.leaders + sum(card_value(c, DIAMONDS) for c in red)
    strength = max(1, w.garrison[p.area])
    black = w.draw_axis(strength)
    axis = sum(rank(c) for c in black)
    if w.logging:
        w.log("  Sabotage in {}: {}G + {}L + {} = {} vs Axis {} = {}", w.name(p.area), p.groups, p.leaders,
              labels(red), score, labels(black), axis)
    w.discard(red, black)
    if score > axis:
        gain = max(1, len(red))
        w.vp += gain
        if w.logging:
            w.log("  success: +{} VP (VP {})", gain, w.vp)
        w.finish_option()
    else:
        w.log("  failure")
        begin_losses(w, p.area, strength, p.groups, p.leaders)


def _non_kinetic(w: Work, p: Pending) -> None:
    """CN.P9–CN.P12: the adjusted total (hearts doubled for Train and Move, diamonds for
    Build Base and Supply Drop) against ONE random Axis card."""
    red = w.take_from_reserve(p.cards)
    doubled = HEARTS if p.op in (K.TRAIN, K.MOVE) else DIAMONDS
    total = sum(card_value(c, doubled) for c in red)
    black = w.draw_axis(1)
    axis = sum(rank(c) for c in black)
    success = total > axis
    if w.logging:
        w.log(N_("  {}: {} = {} vs Axis {} = {}: success") if success else N_("  {}: {} = {} vs Axis {} = {}: failure"),
              op_name(p.op), labels(red), total, labels(black), axis)
    if p.op == K.SUPPLY_DROP:
        if success:  # shuffle the Partisan discard pile, draw up to 2 (before discarding)
            got = []
            for _ in range(min(SUPPLY_DROP_CARDS, len(w.partisan_discard))):
                got.append(w.partisan_discard.pop(w.pick(len(w.partisan_discard))))
            for c in got:
                w.to_reserve(c)
            if w.logging:
                w.log("  Supply Drop brings {} to the Reserve", labels(got))
        w.finish_option(red, black)
        return
    # the cards stay with the operation until its effect is placed: discarding is the
    # last thing the Partisan does (CN.P12)
    red, black = tuple(red), tuple(black)
    if not success:
        w.finish_option(red, black)
    elif p.op == K.TRAIN and w.unused_groups > 0:
        w.pending = Pending(PendingKind.TRAIN, left=min(TRAIN_GROUPS, w.unused_groups), cards=red, drawn=black)
    elif p.op == K.MOVE and sum(w.groups) + sum(w.leaders) > 0:
        n = len(w.board.areas)
        w.pending = Pending(PendingKind.MOVE, arrived_groups=(0,) * n, arrived_leaders=(0,) * n, cards=red,
                            drawn=black)
    elif p.op == K.BUILD_BASE and w.unused_bases > 0 and any(not w.bases[a] for a in w.board.base):
        w.pending = Pending(PendingKind.BASE, cards=red, drawn=black)
    else:
        w.log("  (nothing to place)")
        w.finish_option(red, black)


def _train_step(w: Work, p: Pending, a: Action) -> None:
    """CN.P11 Train: place up to 3 unused Groups in areas with Bases."""
    if a.kind == K.DONE:
        w.finish_option(p.cards, p.drawn)
        return
    w.groups[a.area] += 1
    w.unused_groups -= 1
    if w.logging:
        w.log("  a Group is placed in {}", w.name(a.area))
    w.check_alba()
    left = p.left - 1
    if left == 0 or w.unused_groups == 0:
        w.finish_option(p.cards, p.drawn)
    else:
        w.pending = Pending(PendingKind.TRAIN, left=left, cards=p.cards, drawn=p.drawn)


def _move_step(w: Work, p: Pending, a: Action) -> None:
    """CN.P11 Move: any or all Groups/Leaders from/to any areas (each counter once)."""
    if a.kind == K.DONE:
        w.finish_option(p.cards, p.drawn)
        return
    have, arrived = (w.groups, list(p.arrived_groups)) if a.piece == Piece.GROUP else (w.leaders, list(p.arrived_leaders))
    have[a.area] -= 1
    have[a.to] += 1
    arrived[a.to] += 1
    if w.logging:
        w.log("  {} moves from {} to {}", piece_name(a.piece), w.name(a.area), w.name(a.to))
    w.check_alba()
    ag = tuple(arrived) if a.piece == Piece.GROUP else p.arrived_groups
    al = tuple(arrived) if a.piece == Piece.LEADER else p.arrived_leaders
    movable = any(w.groups[i] - ag[i] > 0 or w.leaders[i] - al[i] > 0 for i in range(len(w.groups)))
    if movable:
        w.pending = Pending(PendingKind.MOVE, arrived_groups=ag, arrived_leaders=al, cards=p.cards, drawn=p.drawn)
    else:
        w.finish_option(p.cards, p.drawn)


def _pause(w: Work, area: int) -> None:
    """CN.P13: remove 1 Group (it becomes unused), then draw 2 cards one after another."""
    w.options += 1
    w.groups[area] -= 1
    w.unused_groups += 1
    if w.logging:
        w.log("Operational Pause: a Group leaves {}", w.name(area))
    w.check_alba()
    w.draws_due += PAUSE_DRAWS
