"""Captain Lawrence Chambers, the solo automaton (WC.H1-WC.H9).

Chambers is a side of the table but not a seat: whenever his turn comes, the engine
plays it inside ``apply`` by these procedures, exactly as the rules give them:

* WC.H2 at the start of each phase, +1 VP when he leads the influence track; in phase 1
  he also advances one space (no effects); in phase 2 his five cards are shuffled;
* WC.H3 his draw: discard the deck top, take the board card under its lower icon, do
  that slot's action, refill;
* WC.H4 his play: reveal his next card; its Rescue if possible, else its lower action,
  else nothing;
* WC.H5 his bid: as many tokens as the player holds plus one (all he has if fewer); a won
  sighting's actions are done at once and its passengers never taken;
* WC.H6 Move, WC.H7 Rescue, WC.H8 Special Order: see each function.

Engine decisions where the text is silent (``docs/white_christmas.md``): the leftmost
helicopter on the carrier is the CH-53 (carrier card 1); on the row, a helicopter is as
far left as its rooftop (CH-53 before CH-46 on one rooftop); a tie between a rooftop and
its staircase goes to the rooftop; which tokens he bids is random; when the step of his
special-order alternation that is due is impossible he does the other one.
"""
from __future__ import annotations

from .actions import Phase
from .components import MODELS, PEOPLE, ROW, Extra, Icon, Person, words
from .options import can_advance, heli_side, moves, people_at, rescues
from .work import Phrase, Text, Work, at_place, joined

__all__ = ["leads", "phase_start", "draw", "play", "bid", "act", "won_sighting", "potential", "move", "rescue",
           "special"]


def leads(w: Work, ch: int) -> bool:
    """WC.H2: Chambers leads the influence track: he "scores only for having more
    influence than you" (final scoring of the solo rules), so a tie does not count for him,
    whichever marker is on top."""
    return all(w.sides[ch].influence > s.influence for i, s in enumerate(w.sides) if i != ch)


def phase_start(w: Work, ch: int, phase: Phase) -> None:
    """WC.H2 (and WC.H4's shuffle) at the start of a phase."""
    if leads(w, ch):
        w.gain(ch, 1, "leads the influence track, WC.H2")
    if phase == Phase.DRAW:
        w.influence(ch, effects=False)
    elif phase == Phase.PLAY and len(w.private[ch].hand) > 1:
        w.set_priv(ch, hand=w.shuffled(w.private[ch].hand))
        w.log("  Chambers shuffles his {} cards", len(w.private[ch].hand))


def act(w: Work, ch: int, icon: Icon, person: Person | None = None) -> bool:
    """Do one of Chambers' actions (Chambers' Actions page); ``False`` when impossible."""
    if icon == Icon.RADAR:
        return w.take_radar(ch)
    if icon == Icon.INFLUENCE:
        if not can_advance(w.comp, w.sides[ch]):
            return False
        w.influence(ch, effects=False)  # "He does not receive any additional effects or Actions."
        return True
    if icon == Icon.MOVE:
        return move(w, ch)
    if icon == Icon.RESCUE:
        return rescue(w, ch, person)
    return special(w, ch)


def draw(w: Work, ch: int) -> None:
    """WC.H3: discard the deck top; take the board card under its lower action icon into
    his face-down deck; do that slot's action; refill the row."""
    top = w.draw_card()
    if top is None:
        w.log("  Chambers finds no action card to draw")
        return
    w.discard_card(top)
    lower = w.comp.cards[top].lower
    if lower is None:
        w.log("  Chambers discards {}: it has no lower action, he takes nothing", w.comp.cards[top].name)
        return
    i = ROW.index(lower)
    card = w.b["row"][i]
    w.log("  Chambers discards {} from the deck: he takes the card of the {} slot", w.comp.cards[top].name,
          words(lower))
    if card is None:
        w.log("  the {} slot is empty: he takes nothing", words(lower))
        return
    w.b["row"] = w.b["row"][:i] + (None,) + w.b["row"][i + 1:]
    w.set_priv(ch, hand=w.private[ch].hand + (card,))
    w.set_side(ch, hand=w.sides[ch].hand + 1)
    w.log("  Chambers takes {} face down and does {}", w.comp.cards[card].name, words(lower))
    if not act(w, ch, lower):
        w.log("  Chambers cannot do {}", words(lower))
    w.refill_row()


def play(w: Work, ch: int) -> None:
    """WC.H4: reveal his next card and discard it; its Rescue if possible, else its lower
    action if possible, else nothing."""
    hand = w.private[ch].hand
    if not hand:
        return
    card_id = hand[0]
    w.set_priv(ch, hand=hand[1:])
    w.set_side(ch, hand=w.sides[ch].hand - 1)
    w.discard_card(card_id)
    card = w.comp.cards[card_id]
    w.log("  Chambers reveals {}", card.name)
    if Icon.RESCUE in card.uses() and rescue(w, ch, card.rescue):
        return
    if card.lower is not None and act(w, ch, card.lower):
        return
    w.log("  Chambers does nothing")


def bid(w: Work, ch: int) -> None:
    """WC.H5: as many tokens as the player holds (all, bid or not) plus one, or all he
    has; which of his face-down tokens is random (engine decision)."""
    player = next(i for i in range(len(w.sides)) if i != ch)
    mine = w.private[ch].radar
    n = min(w.sides[player].radar + 1, len(mine))
    chosen = sorted(int(i) for i in w.rng.choice(len(mine), n, replace=False)) if n else []
    tokens = tuple(mine[i] for i in chosen)
    w.set_priv(ch, radar=tuple(v for i, v in enumerate(mine) if i not in chosen), bid=tokens)
    w.set_side(ch, bid=n)
    w.log("  Chambers bids {} token(s)", n)


def won_sighting(w: Work, ch: int, card) -> None:
    """WC.H5: Chambers does the won sighting's actions at once and never takes its
    passengers from the supply."""
    if card.passengers:
        w.log("  Chambers takes no passengers ({} stay in the supply, WC.H5)", Text(joined, card.passengers))
    for extra in card.actions:
        if extra == Extra.INFLUENCE:
            done = act(w, ch, Icon.INFLUENCE)
        elif extra == Extra.DOUBLE_MOVE:
            first = move(w, ch)
            done = move(w, ch) or first
        elif extra == Extra.DOUBLE_SPECIAL_ORDER:
            first = special(w, ch)
            done = special(w, ch) or first
        else:
            done = rescue(w, ch, None)
        if not done:
            w.log("  Chambers cannot use {}", words(extra))


def potential(w: Work, ch: int, i: int, slot: str) -> int:
    """WC.H6: the VP helicopter ``MODELS[i]`` could rescue from ``slot``: the best VP of
    the People on that rooftop and its staircase (a type it cannot carry counts 0), as
    many as it has free seats. The source's example: 2 + 2 + 0 = 4."""
    me = w.sides[ch]
    card = heli_side(w.comp, me, i)
    room = card.capacity - len(me.aboard[i])
    values = sorted((card.value(p) for _, roof, st in w.table.reach[slot]
                     for p in people_at(w.b["roofs"], w.b["stairs"], roof, st)), reverse=True)
    return sum(values[:room])


def _heli_place(w: Work, ch: int, i: int) -> tuple[int, int]:
    """How far left helicopter ``MODELS[i]`` is, as a rank: (0 on the carrier, else 1 +
    its rooftop's index in the row; then carrier-card order)."""
    k = w.table.roof_of.get(w.sides[ch].at[i])
    return (0 if k is None else 1 + k, i)


def move(w: Work, ch: int) -> bool:
    """WC.H6: first a helicopter from his carrier to a rooftop, else one from a rooftop
    back to his carrier. Out: the helicopter and free rooftop worth the most VP to rescue
    (:func:`potential`), ties to the leftmost helicopter, then the leftmost rooftop. Back:
    the helicopter whose unloading scores most, ties to the leftmost. Unloading returns
    the People to the supply (WC.F6)."""
    own = w.table.carriers[ch]
    options = moves(w.table, w.sides, ch)
    out = [(m, d) for m, d in options if w.sides[ch].at[MODELS.index(m)] == own and d != own]
    if out:
        def key(option):
            m, d = option
            i = MODELS.index(m)
            return (potential(w, ch, i, d), tuple(-x for x in _heli_place(w, ch, i)), -w.table.roof_of[d])
        m, d = max(out, key=key)
        w.log("  Chambers flies out the helicopter worth most: {} to {} ({} VP to rescue)", m, Phrase(at_place, d),
              potential(w, ch, MODELS.index(m), d))
        w.fly(ch, m, d)
        return True
    back = [m for m, d in options if d == own]
    if back:
        def value(m):
            i = MODELS.index(m)
            card = heli_side(w.comp, w.sides[ch], i)
            return (sum(card.value(p) for p in w.sides[ch].aboard[i]), tuple(-x for x in _heli_place(w, ch, i)))
        m = max(back, key=value)
        w.fly(ch, m, own)
        return True
    return False


def rescue(w: Work, ch: int, person: Person | None) -> bool:
    """WC.H7: rescue the type shown (any type for ``None``) worth the most VP to the
    helicopter that takes it; ties to the leftmost helicopter, then the rooftop before its
    staircase, then the People types' order."""
    options = rescues(w.comp, w.table, w.sides, w.b["roofs"], w.b["stairs"], ch, person)
    if not options:
        return False

    def key(option):
        m, node, p = option
        i = MODELS.index(m)
        vp = heli_side(w.comp, w.sides[ch], i).value(p)
        on_stairs = node != w.table.roofs[w.table.roof_of[node]]
        return (vp, tuple(-x for x in _heli_place(w, ch, i)), -on_stairs, -PEOPLE.index(p))
    m, node, p = max(options, key=key)
    w.rescue(ch, m, node, p)
    return True


def special(w: Work, ch: int) -> bool:
    """WC.H8: no requirements; he alternates: upgrade carrier card 1, complete an order
    (the row's lowest-VP card, ties to the leftmost), upgrade card 2, an order, ... When
    the step due is impossible (no order in the row, all cards flipped) he does the other."""
    me = w.sides[ch]
    flipped = sum(me.upgrades)
    row = w.b["orders_row"]
    can_upgrade, can_order = flipped < len(me.upgrades), bool(row)
    if can_upgrade and (flipped <= me.orders or not can_order):
        w.do_upgrade(ch, me.upgrades.index(False) + 1)
        return True
    if can_order:
        index = min(row, key=lambda o: (w.comp.orders[o].vp, row.index(o)))
        w.complete_order(ch, index, ())
        return True
    return False
