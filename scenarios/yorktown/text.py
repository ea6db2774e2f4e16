"""The board as text, for the terminal (``observation_string``)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import PLANES, Phase, plane_name

if TYPE_CHECKING:
    from .state import State

__all__ = ["board_text"]


def board_text(s: State, player: int = 0) -> str:
    """Clock, tracks, islands (colour, Japanese and Allied planes, white lines), the
    Yorktown, the planes' cards and the roll under way. Expert tiles of other seats
    stay hidden."""
    board, r = s.setup.board, s.setup.rules
    m, sec = divmod(s.clock, 60)
    left = s.setup.limit - s.clock
    lines = [f"turn {s.turn} | clock {m}:{sec:02d} of {s.setup.limit // 60}:00 ({left // 60}:{left % 60:02d} left) | "
             f"search {s.search}/7{' (Shōhō located)' if s.search >= r.located else ''} | Shōhō damage {s.shoho}/"
             f"{r.shoho_hits_to_sink}, CAP {s.cap}/{board.cap_boxes} | Yorktown damage {s.yorktown}/"
             f"{r.yorktown_hits_to_sink}{' | YORKTOWN LOCATED' if s.located() else ''}"]
    here: dict[int, list[str]] = {}
    for p in range(PLANES):
        if s.loc[p] is not None:
            here.setdefault(s.loc[p], []).append(f"D{p + 1}")
    width = max(len(n) for n in board.names) + 3
    lines.append(f"{'island':<{width}} {'colour':<7} {'Japanese':<12} {'Allied':<9} white lines to")
    for k, name in enumerate(board.names):
        node = board.island_node[k]
        jp = " ".join(s.japanese[k]) or "-"
        weather = ""
        if s.weather[k] is not None:
            weather = f"  [weather: {s.weather[k]}]" if s.revealed[k] else "  [weather tile face down]"
        near = ", ".join(str(board.island_of[n] + 1) for n in board.steps[node] if board.island_of[n] is not None)
        touch = " + approach zone" if k in board.touching else ""
        lines.append(f"{k + 1:>2} {name:<{width - 3}} {board.colours[k]:<7} {jp:<12} "
                     f"{' '.join(here.get(node, [])) or '-':<9} {near}{touch}{weather}")
    lines.append(f"approach zone: {' '.join(here.get(board.approach, [])) or '-'} | runway: "
                 f"{' '.join(here.get(board.runway, [])) or '-'} ({s.runway_used}/{board.runway_places} used this turn)"
                 f" | bombs in reserve {s.bombs_left()}")
    for p in range(PLANES):
        if s.loc[p] is None:
            lines.append(f"{plane_name(p)}: out of the game")
            continue
        tile = ""
        if s.tile[p] is not None:
            tile = f", maneuver {s.tile[p]}" if s.setup.seat_of[p] == player else ", maneuver (hidden)"
        status = ("acting now" if s.acting == p else "done" if s.done[p] else
                  f"card {s.choice[p]}" if s.choice[p] else "to choose")
        lines.append(f"{plane_name(p)} (P{s.setup.seat_of[p] + 1}): {board.labels[s.loc[p]]}, fuel {s.fuel[p]}/"
                     f"{r.fuel_max}, skill {s.skill[p]} ({r.dice_for(s.skill[p])} dice), cockpit "
                     f"{'B' if s.side_b[p] else 'A'}, {s.load[p] or 'no bomb'}{tile}; {status}")
    if s.roll is not None:
        roll = s.roll
        locked = {0: "no die", 1: "1 die"}.get(roll.ones, f"{roll.ones} dice")
        lines.append(f"{plane_name(roll.plane)}'s {roll.purpose} roll of {roll.dice} dice: showing "
                     f"{' '.join(map(str, roll.faces)) or '-'}, {locked} locked on 1, {roll.throws} "
                     f"throw(s), last throw {' '.join(map(str, roll.last)) or '-'}")
    if s.phase == Phase.OVER:
        lines.extend(s.outcome())
    return "\n".join(lines)
