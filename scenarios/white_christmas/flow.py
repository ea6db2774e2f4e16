"""The course of a game: rounds, phases, staircases, sightings, the Cessna and the end
(WC.F1-WC.F4, WC.F7, WC.G2). :func:`advance` runs everything that needs no decision
(phase starts, Captain Chambers' turns, the sighting's resolution) until a seat must
decide or the game is over.
"""
from __future__ import annotations

from furball.i18n import N_, msg

from . import chambers
from .actions import CARDS_IN_HAND, Ask, Pending, Phase, Stairs
from .components import PEOPLE, Person
from .options import free_spaces
from .values import Pile
from .work import Phrase, Text, Work, joined

__all__ = ["advance", "start_round", "start_phase", "turn_order", "on_turn", "nothing_to_take"]


def _nobody(people) -> str:
    return ", ".join(people) or N_("nobody")


def _fate(_, gone, to_supply: bool) -> str:
    """What became of the People a staircase had no room for (WC.G2), read with ``_``."""
    people = ", ".join(map(_, gone))
    if to_supply:
        return _(", {people} back to the supply (no room)").format(people=people)
    return _(", {people} discarded (no room)").format(people=people)


def _bids(_, labels, bids) -> str:
    """The sealed bids revealed (WC.F4): ``P1 2+3 = 5; P2 nothing``, read with ``_``."""
    nothing = _("nothing")
    return "; ".join(f"{label} {'+'.join(map(str, bid)) or nothing}" + (f" = {sum(bid)}" if len(bid) > 1 else "")
                     for label, bid in zip(labels, bids))


def _sighting_label(_, sighting) -> str:
    return sighting.label(_)


def on_turn(board, sides: int) -> int:
    """The side whose turn it is (phases 1-2 go round the turn order; phase 3 once)."""
    if board.phase == Phase.SIGHTING:
        return board.order[board.turn]
    return board.order[board.turn % sides]


def turn_order(w: Work) -> tuple[int, ...]:
    """WC.F1: most influence first; on one space, the marker on top (the later arrival)
    first. Solo: the player always holds turn-order card 1 (WC.H1)."""
    if w.setup.solo:
        return (0, w.setup.chambers)
    return tuple(sorted(range(len(w.sides)), key=lambda i: (-w.sides[i].influence, -w.sides[i].arrived)))


def nothing_to_take(w: Work) -> bool:
    """No card in the board row, the deck or the discard pile (never with 38 cards)."""
    return not w.deck and not w.b["discard"] and all(c is None for c in w.b["row"])


def advance(w: Work) -> None:
    """Resolve everything up to the next decision of a seat (or the end)."""
    n = len(w.sides)
    b = w.b
    ch = w.setup.chambers
    while not b["over"]:
        if b["pending"]:
            front = b["pending"][0]
            if front.ask == Ask.SIGHTING and not w.sides[front.side].extras:
                w.pop()
                continue
            return
        phase = b["phase"]
        if phase == Phase.SIGHTING:
            if b["turn"] < n:
                side = b["order"][b["turn"]]
                if side == ch:
                    chambers.bid(w, side)
                    b["turn"] += 1
                    continue
                return
            if not b["resolved"]:
                resolve_sighting(w)
                b["resolved"] = True
                continue
            start_round(w, b["round"] + 1)
            continue
        if b["turn"] >= CARDS_IN_HAND * n:
            start_phase(w, Phase.PLAY if phase == Phase.DRAW else Phase.SIGHTING)
            continue
        side = b["order"][b["turn"] % n]
        if side == ch:
            (chambers.draw if phase == Phase.DRAW else chambers.play)(w, side)
            b["turn"] += 1
            continue
        if (phase == Phase.PLAY and not w.private[side].hand) or (phase == Phase.DRAW and nothing_to_take(w)):
            w.log("  {} has nothing to {}: turn skipped", w.labels[side], "play" if phase == Phase.PLAY else "take")
            b["turn"] += 1
            continue
        return


def start_round(w: Work, number: int) -> None:
    """Round ``number`` begins with its phase 1 (WC.F1)."""
    w.b["round"] = number
    start_phase(w, Phase.DRAW)


def start_phase(w: Work, phase: Phase) -> None:
    """WC.F1 at the start of every phase (turn order, special-order row), WC.H2 for
    Captain Chambers, then the phase's own start: WC.F2 staircases added and the
    sighting revealed; WC.F3 staircases revealed and filled; WC.F4 staircases climbed
    (and in round 4 the Cessna and the end, WC.F7)."""
    b = w.b
    b["phase"], b["turn"], b["resolved"] = phase, 0, False
    b["order"] = turn_order(w)
    number = {Phase.DRAW: 1, Phase.PLAY: 2, Phase.SIGHTING: 3}[phase]
    w.log("round {}, phase {} ({}): turn order {}", b["round"], number, phase,
          Text(joined, b["order"], w.labels.__getitem__))
    w.refill_orders()
    if w.setup.chambers is not None:
        chambers.phase_start(w, w.setup.chambers, phase)
    if phase == Phase.DRAW:
        for i, mine in enumerate(w.private):
            if mine.inspected:
                w.set_priv(i, inspected=())
        add_staircases(w)
        reveal_sighting(w)
    elif phase == Phase.PLAY:
        reveal_staircases(w)
    else:
        climb_staircases(w)
        if b["sighting"] is None:
            cessna(w)
            end_game(w)


def reveal_sighting(w: Work) -> None:
    """WC.F2: the round's sighting card is turned up (round 4: the Cessna, WC.F7)."""
    if w.sightings:
        card, w.sightings = w.sightings[0], w.sightings[1:]
        w.b["sighting"] = card
        w.log("  sighting of round {}: {}", w.b["round"], Phrase(_sighting_label, w.comp.sightings[card]))
    else:
        w.b["sighting"] = None
        w.log("  sighting of round {}: the {} (radar totals at the end)", w.b["round"], w.comp.cessna.name)


def add_staircases(w: Work) -> None:
    """WC.G2: a face-down staircase left of each rooftop. Engine convention (spec): an
    empty staircase deck is rebuilt by shuffling the discarded staircases."""
    cards = []
    for _ in w.table.roofs:
        if not w.stairs_deck:
            w.stairs_deck, w.stairs_used = w.shuffled(w.stairs_used), ()
            w.log("  the discarded staircases are shuffled into a new staircase deck")
        card, w.stairs_deck = w.stairs_deck[0], w.stairs_deck[1:]
        cards.append(card)
    w.stairs_down = tuple(cards)
    w.b["stairs_state"] = Stairs.FACE_DOWN
    w.table = w.table.with_stairs(True)
    w.log("  a staircase is added face down left of each rooftop")


def reveal_staircases(w: Work) -> None:
    """WC.G2, WC.F3: the staircases are turned up and their spaces filled from the
    supply (a space whose type the supply lacks stays empty: engine decision; counted in
    the board's ``empty_stairs``)."""
    people = []
    for k, card in enumerate(w.stairs_down):
        got = tuple(p for p in w.comp.staircases[card].people if w.from_supply(p))
        people.append(got)
        missing = len(w.comp.staircases[card].people) - len(got)
        w.b["empty_stairs"] += missing
        w.log("  staircase of {} ({}): {}{}", w.table.roofs[k], w.comp.staircases[card].name,
              Text(_nobody, got), msg(" ({missing} space(s) empty: supply short)", missing=missing) if missing else "")
    w.b["stairs"] = tuple(people)
    w.b["stairs_cards"] = w.stairs_down
    w.b["stairs_state"] = Stairs.REVEALED


def climb_staircases(w: Work) -> None:
    """WC.G2, WC.F4: the staircases are discarded; their People climb onto the rooftop's
    free spaces in arrow order; those with no room go back to the supply (rule option
    ``overflow``: or are discarded out of the game, :class:`~.values.Pile`)."""
    roofs = list(w.b["roofs"])
    to_supply = w.setup.overflow == Pile.SUPPLY
    for k, climbing in enumerate(w.b["stairs"]):
        free = max(0, w.table.spaces[k] - len(roofs[k]))
        up, gone = climbing[:free], climbing[free:]
        roofs[k] = roofs[k] + up
        for p in gone:
            (w.to_supply if to_supply else w.to_discard)(p)
        if climbing:
            fate = Phrase(_fate, gone, to_supply) if gone else ""
            w.log("  staircase of {}: {} climb(s) up{}", w.table.roofs[k], Text(_nobody, up), fate)
    w.b["roofs"] = tuple(roofs)
    w.stairs_used = w.stairs_used + w.stairs_down
    w.stairs_down = ()
    w.b["stairs"] = ((),) * len(roofs)
    w.b["stairs_cards"] = ()
    w.b["stairs_state"] = Stairs.NONE
    w.table = w.table.with_stairs(False)
    for i, side in enumerate(w.sides):
        if side.bid is not None or w.private[i].bid:
            w.set_side(i, bid=None)
            w.set_priv(i, bid=())


def resolve_sighting(w: Work) -> None:
    """WC.F4: the sealed bids are revealed together; the highest total wins the sighting
    (ties: the lower turn-order card); the others score 1 VP per token bid; every bid
    token goes back to the supply. The winner's passengers join their carrier from the
    supply (:func:`board_passengers`) and its actions are kept to use now or later;
    Captain Chambers does his at once and takes no passengers (WC.H5)."""
    order = w.b["order"]
    bids = {i: w.private[i].bid for i in order}
    totals = {i: sum(v) for i, v in bids.items()}
    w.log("  bids revealed: {}", Phrase(_bids, tuple(w.labels[i] for i in order), tuple(bids[i] for i in order)))
    winner = min(order, key=lambda i: (-totals[i], order.index(i)))
    card = w.comp.sightings[w.b["sighting"]]
    w.log("  {} wins the sighting: {}", w.labels[winner], card.name)
    for i in order:
        if i != winner:
            w.gain(i, len(bids[i]), "radar tokens bid")
    for i in order:
        if bids[i]:
            w.return_tokens(bids[i])
            w.set_side(i, radar=w.sides[i].radar - len(bids[i]), bid=None)
            w.set_priv(i, bid=())
        else:
            w.set_side(i, bid=None)
    if w.is_chambers(winner):
        chambers.won_sighting(w, winner, card)
        return
    asked = board_passengers(w, winner, card)
    if card.actions:
        w.set_side(winner, extras=w.sides[winner].extras + card.actions)
        asked.append(Pending(Ask.SIGHTING, winner, why=card.name))
    w.push(*asked)


def passengers_on_offer(comp, sighting: int, supply: tuple[int, ...]) -> tuple[Person, ...]:
    """The passengers of sighting card ``sighting`` the ``supply`` (People per type) holds,
    in card order (a type twice only when the supply has two)."""
    supply = list(supply)
    out = []
    for p in comp.sightings[sighting].passengers:
        i = PEOPLE.index(p)
        if supply[i]:
            supply[i] -= 1
            out.append(p)
    return tuple(out)


def board_passengers(w: Work, winner: int, card) -> list[Pending]:
    """WC.F4: the sighting's passengers join the winner's carrier at once, from the supply,
    each into a free space; one the supply lacks, or with no space left, is lost. When the
    free spaces are fewer than the passengers on offer and these are of different types,
    the winner chooses who boards: a ``passenger`` question (returned, to be asked)."""
    offered = passengers_on_offer(w.comp, w.b["sighting"], w.b["supply"])
    missing = list(card.passengers)
    for p in offered:
        missing.remove(p)
    for p in missing:
        w.log("  the {} passenger is lost (none in the supply)", p)
    free = free_spaces(w.sides[winner])
    if len(offered) > free > 0 and len(set(offered)) > 1:
        return [Pending(Ask.PASSENGER, winner, why=card.name)]
    for k, p in enumerate(offered):
        if k < free:
            board_passenger(w, winner, p, announce=False)
        else:
            w.log("  the {} passenger is lost (no carrier space)", p)
    return []


def board_passenger(w: Work, side: int, person: Person, announce: bool = True) -> None:
    """A passenger of type ``person`` joins ``side``'s carrier from the supply (WC.F4);
    ``announce``: the others on offer are lost (the one free space was taken)."""
    rest = list(passengers_on_offer(w.comp, w.b["sighting"], w.b["supply"]))
    rest.remove(person)
    w.from_supply(person)
    me = w.sides[side]
    w.set_side(side, carrier=tuple(sorted(me.carrier + (person,), key=PEOPLE.index)))
    w.log("  a {} passenger joins {}'s carrier", person, w.labels[side])
    if announce:
        for p in rest:
            w.log("  the {} passenger is lost (no carrier space)", p)


def cessna(w: Work) -> None:
    """WC.F7: every radar token is revealed; the highest totals score 8/5/2 VP (8/3 with
    2 players or solo); a side needs at least one token; ties to the lower turn-order card."""
    order = w.b["order"]
    totals = {i: sum(w.private[i].radar) + sum(w.private[i].bid) for i in order}
    w.log("  the {}: radar totals {}", w.comp.cessna.name,
          ", ".join(f"{w.labels[i]} {totals[i]}" for i in order))
    holders = [i for i in order if w.private[i].radar or w.private[i].bid]
    ranked = sorted(holders, key=lambda i: (-totals[i], order.index(i)))
    vp = w.comp.cessna.vp_two if len(w.sides) == 2 else w.comp.cessna.vp
    for place, i in enumerate(ranked[:len(vp)]):
        w.gain(i, vp[place], msg("Cessna, place {place}", place=place + 1))


def end_game(w: Work) -> None:
    """WC.F7: +1 VP per 2 People still aboard helicopters, the upgrades' and the special
    orders' VP; the highest total wins, ties to the lower turn-order card."""
    order = w.b["order"]
    for i in order:
        me = w.sides[i]
        w.gain(i, sum(len(a) for a in me.aboard) // 2, "People still aboard, 1 per 2")
        w.gain(i, sum(u.vp for u, done in zip(w.comp.upgrades, me.upgrades) if done), "carrier upgrades")
        w.gain(i, sum(w.comp.orders[o].vp for o in w.private[i].orders), "special orders")
    winner = min(order, key=lambda i: (-w.sides[i].vp, order.index(i)))
    w.b["winner"], w.b["over"], w.b["pending"] = winner, True, ()
    w.log("game over: {} wins with {} VP ({})", w.labels[winner], w.sides[winner].vp,
          ", ".join(f"{w.labels[i]} {w.sides[i].vp}" for i in order))
