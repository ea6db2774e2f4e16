"""Which counters are lost: the Partisan chooses (engine convention; the source is silent).

A failed Ambush or Sabotage removes participating counters (CN.P6, CN.P7); a successful
Sweep removes counters of the swept area, its Base included (CN.F2g). The source never
says who picks them. furball lets the Partisan choose, one counter at a time, whenever
there is a real choice (two kinds of counter could go); otherwise the counters go at
once. The choice matters: losing the last Group instead of a Leader can leave a lone
Leader and end the game in deadlock (CN.E2).
"""
from __future__ import annotations

from .actions import EndReason, Pending, PendingKind, Piece
from .cards import labels
from .work import Work

__all__ = ["begin_losses", "lose", "allowed_pieces"]


def allowed_pieces(groups: tuple[int, ...], leaders: tuple[int, ...], bases: tuple[int, ...],
                   p: Pending) -> dict[Piece, int]:
    """How many counters of each kind may still be taken in the pending loss ``p``."""
    a = p.area
    out = {Piece.GROUP: min(p.groups, groups[a]), Piece.LEADER: min(p.leaders, leaders[a]),
           Piece.BASE: bases[a] if p.garrison is not None else 0}
    return {k: n for k, n in out.items() if n > 0}


def begin_losses(w: Work, area: int, n: int, groups: int, leaders: int, garrison: int | None = None,
                 red: tuple[int, ...] = ()) -> None:
    """Remove ``n`` counters from ``area``: at most ``groups`` Groups and ``leaders``
    Leaders; the Base too when ``garrison`` (the sweeping garrison's area) is given.
    ``red``: the red cards a Sweep used (removed from play if a Base is lost)."""
    p = Pending(PendingKind.LOSSES, area=area, left=n, groups=groups, leaders=leaders, garrison=garrison,
                cards=tuple(red))
    _settle(w, p)


def lose(w: Work, p: Pending, piece: Piece) -> None:
    """The Partisan gives up one counter of ``piece`` (an action ``lose``)."""
    _settle(w, _taken(w, p, piece))


def _taken(w: Work, p: Pending, piece: Piece) -> Pending:
    """Remove one ``piece`` and return the loss still pending."""
    w.remove_counter(p.area, piece)
    g, l_, b = p.lost
    return Pending(PendingKind.LOSSES, area=p.area, left=p.left - 1,
                   groups=p.groups - (piece == Piece.GROUP), leaders=p.leaders - (piece == Piece.LEADER),
                   garrison=p.garrison, cards=p.cards,
                   lost=(g + (piece == Piece.GROUP), l_ + (piece == Piece.LEADER), b + (piece == Piece.BASE)))


def _settle(w: Work, p: Pending) -> None:
    """Take what is forced; wait for a choice when two kinds could go; else complete."""
    while p.left > 0:
        allowed = allowed_pieces(w.groups, w.leaders, w.bases, p)
        if not allowed:
            break
        if len(allowed) > 1 and sum(allowed.values()) > p.left:
            w.pending = p
            return
        p = _taken(w, p, next(iter(allowed)))
    _complete(w, p)


def _complete(w: Work, p: Pending) -> None:
    w.pending = None
    if p.garrison is None:  # a failed Ambush or Sabotage: its cards are already discarded
        w.finish_option()
        return
    lost = sum(p.lost)
    if lost:
        w.hit_garrison(p.garrison, lost)  # CN.F2g
    if p.lost[2]:
        for c in p.cards:
            w.partisan_discard.remove(c)
        w.removed.extend(p.cards)
        if p.cards:
            if w.logging:
                w.log("  a Base was lost: {} removed from play", labels(p.cards))
        if sum(w.bases) == 0:
            w.over = EndReason.LAST_BASE
            w.log("  the last Base is lost: the game ends in defeat (CN.F2h, CN.E2)")
