"""1942 USS Yorktown observations as JSON (the rooms' seat views; docs/rooms.md).

A cooperative game whose observation is the state: the board, the tracks and the planes
are public; the Japanese deck's order and face-down weather tiles are not sent, and each
unused expert maneuver tile is ``private`` to the seat flying its plane (YT expansions).
"""
from __future__ import annotations

from typing import Any

from furball.scenarios.yorktown.actions import PLANES, plane_name

from . import plain

__all__ = ["view"]


def view(s, seat: int) -> dict[str, Any]:
    """The JSON of Yorktown observation ``s`` for ``seat`` (see the module docstring)."""
    board = s.setup.board
    islands = [{"name": name, "colour": board.colours[k], "japanese": plain(s.japanese[k]),
                "weather": plain(s.weather[k]) if s.weather[k] is not None and s.revealed[k] else None,
                "weather_face_down": s.weather[k] is not None and not s.revealed[k]}
               for k, name in enumerate(board.names)]
    planes = []
    for p in range(PLANES):
        at = s.loc[p]
        planes.append({"name": plane_name(p), "seat": f"P{s.setup.seat_of[p] + 1}",
                       "at": None if at is None else board.labels[at], "fuel": int(s.fuel[p]),
                       "skill": int(s.skill[p]), "cockpit": "B" if s.side_b[p] else "A", "load": plain(s.load[p]),
                       "card": plain(s.choice[p]), "done": bool(s.done[p]), "expert_tile": s.tile[p] is not None})
    public = {"turn": int(s.turn), "clock_s": int(s.clock), "limit_s": int(s.setup.limit), "search": int(s.search),
              "yorktown_damage": int(s.yorktown), "shoho_damage": int(s.shoho), "cap": int(s.cap),
              "deck": len(s.deck), "islands": islands, "planes": planes, "over": plain(s.over)}
    private = {"expert_tiles": {plane_name(p): plain(s.tile[p]) for p in range(PLANES)
                                if s.setup.seat_of[p] == seat and s.tile[p] is not None}}
    return {"public": public, "private": private}
