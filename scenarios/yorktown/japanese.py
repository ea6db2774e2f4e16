"""The Japanese side: set-up draws (YT.S3) and the Japanese phase of a turn
(YT.R1–R4, in the source's order).

Order of a Japanese phase: reveal the top card; check whether the Yorktown is located
(a board-graph path query, cached by occupancy); if so, DIRECT HIT scores a hit with no
roll (YT.R3), any other card attacks in ONE roll of its type's dice (YT.R1: a hit per
set of the hit pattern, the attacker shot down by the shot-down pattern); then the
card's planes are placed (YT.R4: none after DIRECT HIT or when the attacker was shot
down; a full island passes the plane to the next number, 10 wrapping to 1; an empty
token pool uses the substitution chart); then the card's event (YT.R2).
"""
from __future__ import annotations

from furball.i18n import N_, Message, Phrase, msg

from .actions import EndReason, Event, PlaneType
from .board import ISLANDS
from .deck import JapaneseCard
from .dice import count_pattern
from .work import Work

__all__ = ["draw_card", "place", "japanese_phase", "set_up_planes"]


def draw_card(w: Work) -> JapaneseCard:
    """The top card; an empty deck is replaced by its shuffled discard pile (YT.R4
    engine convention)."""
    if not w.deck:
        order = w.rng.permutation(len(w.discard))
        w.deck = [w.discard[int(i)] for i in order]
        w.discard = []
        w.log("  the Japanese discard pile is shuffled into a new deck")
    index = w.deck.pop(0)
    w.discard.append(index)
    return w.setup.deck.cards[index]


def place(w: Work, t: PlaneType, number: int) -> None:
    """YT.R4: put a plane of type ``t`` on island ``number`` — or, if no token of that
    type is left, of the first type of the substitution chart that has one; a full
    island passes it to the next number (board-graph ``next_node`` among the islands
    with room, 10 wrapping to 1); when every island is full it goes back to the supply."""
    deck = w.setup.deck
    if w.supply[w.pool_index(t)] == 0:
        for alt in deck.substitution[t]:
            if w.supply[w.pool_index(alt)] > 0:
                w.log("  no {} token left: a {} is placed instead (YT.R4)", t, alt)
                t = alt
                break
        else:
            w.log("  no {} token left and no substitute: no plane placed (YT.R4)", t)
            return
    k = number - 1
    if len(w.japanese[k]) >= 2:
        board = w.board
        room = [board.names[j] for j in range(ISLANDS) if len(w.japanese[j]) < 2]
        target = board.graph.next_node(board.names[k], key="number", among=room) if room else None
        if target is None:
            w.log("  every island is full: the {} goes back to the supply (YT.R4)", t)
            return
        j = board.island(target)
        skipped = [(k + i) % ISLANDS for i in range(1, (j - k) % ISLANDS)]
        full = "".join(f", {board.labels[board.island_node[s]]} too" for s in skipped)
        w.log("  {} is full{}: the {} goes on to {} (YT.R4)", board.labels[board.island_node[k]], full, t,
              board.labels[board.island_node[j]])
        k = j
    w.japanese[k] = tuple(sorted(w.japanese[k] + (t,)))
    w.supply[w.pool_index(t)] -= 1
    w.log("  a {} is placed on {}", t, w.board.labels[w.board.island_node[k]])


def set_up_planes(w: Work) -> None:
    """YT.S3: a two-island card places two planes and stops; a one-island card places
    one and another card is drawn (so 2 or 3 planes start). Events are ignored.
    Engine convention: a DIRECT HIT drawn here places nothing and is followed by
    another card."""
    placed_cards = 0
    while True:
        card = draw_card(w)
        w.log("  set-up: Japanese {}", Phrase(_label, card))
        if card.direct_hit:
            continue
        for n in card.islands:
            place(w, card.plane, n)
        placed_cards += 1
        if len(card.islands) >= 2 or placed_cards >= 2:
            return


def japanese_phase(w: Work) -> None:
    """YT.R1–R4 (see the module doc). May end the game (YT.E2: third hit, or time)."""
    if not w.spend(w.time.japanese_phase):
        return
    card = draw_card(w)
    w.log("turn {}, Japanese phase: {}", w.turn, Phrase(_label, card))
    board = w.board
    shot = False
    if board.located(w.mask()):
        w.log("  the USS Yorktown is LOCATED: Japanese planes chain an orange island to a red one (YT.R1)")
        if card.direct_hit:
            _hit(w, 1, N_("DIRECT HIT: the Yorktown is hit without a roll (YT.R3)"))
        else:
            spec = w.setup.deck.planes[card.plane]
            if not w.on_throw():
                return
            faces = w.draw(spec.attack_dice)
            counts = [0] * 7
            for f in faces:
                counts[f] += 1
            deck = w.setup.deck
            hits = count_pattern(counts, deck.hit.equal, deck.hit.faces)
            shot = count_pattern(counts, deck.shot_down.equal, deck.shot_down.faces) > 0
            w.log("  a {} attacks with {} dice: {} -> {} hit(s){} (YT.R1)", card.plane, spec.attack_dice,
                  " ".join(map(str, faces)), hits, N_(", the attacker is SHOT DOWN") if shot else "")
            if hits:
                _hit(w, hits, msg("the Yorktown takes {hits} hit(s)", hits=hits))
        if w.over is not None:
            return
    else:
        w.log("  the Yorktown is not located")
    if card.direct_hit:
        w.log("  DIRECT HIT: no Japanese plane is placed this turn (YT.R3)")
    elif shot:
        w.log("  the attacker was shot down: no plane is placed this turn (YT.R1)")
    else:
        for n in card.islands:
            place(w, card.plane, n)
    if card.event == Event.CAP:
        zeke = w.pool_index(PlaneType.ZEKE)
        if w.cap >= board.cap_boxes:
            w.log("  event CAP: both CAP boxes are full, ignored (YT.R2)")
        elif w.supply[zeke] == 0:
            w.log("  event CAP: no Zeke token left, ignored (YT.R2)")
        else:
            w.cap += 1
            w.supply[zeke] -= 1
            w.log("  event CAP: a Zeke flies combat air patrol over the Shōhō ({} on CAP) (YT.R2)", w.cap)
    elif card.event == Event.SHOHO_MOVES:
        if w.search > 0:
            w.search -= 1
            w.log("  event: the Shōhō moves, search marker down to {} (YT.R2)", w.search)
        else:
            w.log("  event: the Shōhō moves, the search marker is already at 0 (YT.R2)")


def _label(_, card: JapaneseCard) -> str:
    return card.label(_)


def _hit(w: Work, hits: int, text: str | Message) -> None:
    most = w.rules.yorktown_hits_to_sink
    w.yorktown = min(most, w.yorktown + hits)
    w.log("  {}: Yorktown damage {}/{}", text, w.yorktown, most)
    if w.yorktown >= most:
        w.end(EndReason.YORKTOWN_SUNK, N_("  the USS Yorktown is sunk (YT.E2)"))
