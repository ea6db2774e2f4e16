"""Deck draws and face cards: filing drawn cards, Allied Advances and Axis Sweeps
(CN.P8, CN.P12, CN.P13, CN.F1, CN.F2, CN.E1, CN.E2).

All functions work on a :class:`~scenarios.canuck.work.Work` (a mutable copy of the
state during one action).
"""
from __future__ import annotations

from furball.i18n import N_

from .actions import RED_FACES_TO_END, EndReason, Pending, PendingKind
from .cards import is_black_number, is_red_face, is_red_number, label, labels, rank
from .losses import begin_losses
from .work import Work

__all__ = ["run_draws", "draw_one", "allied_advance", "start_sweep", "sweep_targets", "resolve_sweep"]


def run_draws(w: Work) -> None:
    """Make the deck draws still owed (``w.draws_due``), one after another, until they
    are done, the game ends, or a Sweep waits for the Partisan's cards (CN.P13: a face
    card is resolved before the next draw)."""
    while w.draws_due > 0 and not w.over and w.pending is None:
        w.draws_due -= 1
        draw_one(w)
    if w.over:
        w.draws_due = 0


def _red_face(w: Work, c: int, during: str = "") -> bool:
    """Count a red face card; True if it is the 6th (CN.E1: the game ends at once)."""
    w.red_faces += 1
    w.removed.append(c)
    if w.red_faces >= RED_FACES_TO_END:
        w.over = EndReason.SIXTH_ADVANCE
        if w.logging:
            w.log(N_("  {} (drawn in the Allied Advance): the 6th red face card: the game ends (CN.E1)") if during
                  else N_("  {}: the 6th red face card: the game ends (CN.E1)"), label(c))
        return True
    return False


def draw_one(w: Work) -> None:
    """Draw the top card of the deck and file or resolve it (CN.P8): a red number card
    to the Reserve, a black number card into the Axis deck, a red face card triggers an
    Allied Advance (CN.F1), a black face card an Axis Sweep (CN.F2)."""
    if not w.deck:  # cannot happen before the 6th red face card; kept for safety
        w.log("  the draw deck is empty: no card drawn")
        return
    c = w.deck.pop(0)
    if is_red_number(c):
        w.to_reserve(c)
        if w.logging:
            w.log("  draws {}: to the Reserve", label(c))
    elif is_black_number(c):
        w.to_axis_deck(c)
        if w.logging:
            w.log("  draws {}: shuffled into the Axis deck", label(c))
    elif is_red_face(c):
        if not _red_face(w, c):
            if w.logging:
                w.log("  draws {}: Allied Advance #{} (CN.F1)", label(c), w.red_faces)
            allied_advance(w)
    else:
        w.removed.append(c)
        if w.logging:
            w.log("  draws {}: Axis Sweep (CN.F2)", label(c))
        start_sweep(w)


def allied_advance(w: Work) -> None:
    """CN.F1: draw one by one until the first red number card, which goes to the
    Reserve; every other card drawn is removed from play unresolved. Engine convention:
    a red face card drawn here still counts towards the 6 that end the game (CN.E1)."""
    removed = []
    while w.deck:
        c = w.deck.pop(0)
        if is_red_number(c):
            if removed:
                if w.logging:
                    w.log("  removed unresolved: {}", labels(removed))
            w.to_reserve(c)
            if w.logging:
                w.log("  Allied Advance brings {} to the Reserve", label(c))
            return
        if is_red_face(c):
            if _red_face(w, c, " (drawn in the Allied Advance)"):
                return
            if w.logging:
                w.log("  {} drawn in the Allied Advance: red face card {} of {}, removed unresolved", label(c),
                      w.red_faces, RED_FACES_TO_END)
        else:
            w.removed.append(c)
        removed.append(c)
    if w.logging:
        w.log("  removed unresolved: {}; the draw deck is empty", labels(removed))


def sweep_targets(w, garrison_area: int) -> list[int]:
    """The areas the garrison of ``garrison_area`` may attack, best first tier only
    (CN.F2c): Alba if it is its own or an adjacent area; else its own area; else the
    adjacent areas with a Base; else the adjacent areas without a Base holding the most
    Groups + Leaders. Engine convention: an area qualifies only if it holds at least one
    Partisan counter. ``w`` may be a Work or a State."""
    board = w.board

    def occupied(a: int) -> bool:
        return w.groups[a] + w.leaders[a] + w.bases[a] > 0

    near = board.near[garrison_area]
    alba = board.alba
    if (alba == garrison_area or alba in near) and occupied(alba):
        return [alba]
    if occupied(garrison_area):
        return [garrison_area]
    with_base = [a for a in near if w.bases[a]]
    if with_base:
        return with_base
    counts = [(w.groups[a] + w.leaders[a], a) for a in near if occupied(a)]
    if not counts:
        return []
    most = max(n for n, _ in counts)
    return [a for n, a in counts if n == most]


def start_sweep(w: Work) -> None:
    """CN.F2 (a)–(c): return removed garrisons at strength 1, pick the strongest (random
    among ties), pick its target; then wait for the Partisan's cards (CN.F2d, chosen
    before the Axis draws) — or resolve at once when the Reserve is empty."""
    board = w.board
    back = [g for g in board.gar if w.garrison[g] == 0]
    for g in back:
        w.garrison[g] = 1
    if back and w.logging:
        w.log("  garrisons return at strength 1: {}", ", ".join(w.name(g) for g in back))
    strongest = max(w.garrison[g] for g in board.gar)
    tied = [g for g in board.gar if w.garrison[g] == strongest]
    gar = tied[w.pick(len(tied))]
    targets = sweep_targets(w, gar)
    if not targets:
        if w.logging:
            w.log("  the garrison in {} (strength {}) finds no Partisans in reach: no attack", w.name(gar), strongest)
        return
    target = targets[w.pick(len(targets))]
    if w.logging:
        w.log("  the garrison in {} (strength {}) sweeps {} ({}G {}L {}B)", w.name(gar), strongest, w.name(target),
              w.groups[target], w.leaders[target], w.bases[target])
    if not w.reserve:
        resolve_sweep(w, gar, target, ())
    else:
        w.pending = Pending(PendingKind.SWEEP, area=target, garrison=gar)


def resolve_sweep(w: Work, gar: int, target: int, cards) -> None:
    """CN.F2 (d)–(h). Partisan score = sum of the chosen Reserve cards (no doubling) +
    counters in the area; Axis score = as many random Axis cards as the garrison's
    strength. Axis <= Partisan: the garrison loses one strength per counter. Axis >
    Partisan: up to ``strength`` counters are lost (the Partisan chooses which,
    :mod:`.losses`) and the garrison loses one strength per counter lost; if a Base was
    lost the red cards are removed from play, and losing the last Base ends the game in
    defeat (CN.E2)."""
    w.pending = None
    red = w.take_from_reserve(cards)
    n = w.groups[target] + w.leaders[target] + w.bases[target]
    score = sum(rank(c) for c in red) + n
    strength = w.garrison[gar]
    black = w.draw_axis(strength)
    axis = sum(rank(c) for c in black)
    if w.logging:
        w.log("  Sweep: Partisan {} + {} counter(s) = {} vs Axis {} = {}", labels(red), n, score, labels(black), axis)
    if axis <= score:
        w.log("  the Sweep fails (CN.F2f)")
        w.hit_garrison(gar, n)
        w.discard(red, black)
        return
    w.log("  the Sweep succeeds (CN.F2g)")
    w.discard(red, black)  # the red cards leave the discard pile again if a Base is lost
    begin_losses(w, target, strength, n, n, garrison=gar, red=tuple(red))
