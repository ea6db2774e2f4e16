"""Operation Canuck observations as JSON (the rooms' seat views; docs/rooms.md).

A solitaire game whose observation is the state itself: everything the Partisan sees is
public (spectators see it too), except the draw deck's order, which nobody sees, and the
Axis deck, which only shows how many cards it holds (CN.K4). ``private`` is ``None``.
"""
from __future__ import annotations

from typing import Any

from furball.scenarios.canuck.cards import label

from . import plain

__all__ = ["view"]


def _cards(cards) -> list[str]:
    return [label(c) for c in cards]


def view(s, seat: int) -> dict[str, Any]:
    """The JSON of Canuck observation ``s`` (see the module docstring)."""
    score = s.score()
    areas = [{"name": name, "garrison": int(s.garrison[i]), "groups": int(s.groups[i]),
              "leaders": int(s.leaders[i]), "bases": int(s.bases[i])} for i, name in enumerate(s.board.areas)]
    public = {
        "areas": areas, "reserve": _cards(s.reserve), "deck": len(s.deck),
        "partisan_discard": _cards(s.partisan_discard), "axis_deck": len(s.axis_deck),
        "axis_discard": _cards(s.axis_discard), "removed": _cards(s.removed),
        "unused_groups": int(s.unused_groups), "unused_bases": int(s.unused_bases),
        "lost_leaders": int(s.lost_leaders), "vp": int(s.vp), "red_faces": int(s.red_faces),
        "score": {"total": int(score.total), "band": plain(score.band)},
        "pending": None if s.pending is None else plain(s.pending.kind), "over": plain(s.over)}
    return {"public": public, "private": None}
