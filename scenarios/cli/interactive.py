"""Playing a game yourself in the terminal, for any engine of :mod:`scenarios.engine`.

Each decision shows the deciding seat's observation and a numbered menu of its legal
actions; the person types a number. ``q``/``quit`` or the end of input stops cleanly
(exit status 0). With ``hot_seat`` (several people at one screen, hidden information),
the screen is cleared and the next seat is asked to take the keyboard before anything
of theirs is shown. Seats listed in ``bots`` are played by those bots instead; a bot's
action is shown as every seat may know it (the state's optional ``public_describe``: a
token put into a sealed bid is not named).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TextIO

from furball.scenarios.engine import GameState, Player, decide
from furball.scenarios.engine.protocol import PublicDescribe

__all__ = ["play_interactive", "CLEAR"]

CLEAR = "\033[2J\033[H"
"""ANSI: clear the screen and go home (between seats in hot-seat play)."""


def _ask(state: GameState, seat: int, stdin: TextIO, out: TextIO, many: bool):
    actions = list(state.legal_actions())
    print("", file=out)
    print(state.observation_string(seat), file=out)
    for i, a in enumerate(actions, 1):
        print(f"  {i:>3}. {state.describe(a)}", file=out)
    who = f"P{seat + 1}, " if many else ""
    while True:
        print(f"{who}choose 1-{len(actions)} (q to quit): ", end="", file=out, flush=True)
        line = stdin.readline()
        if not line:
            print("\nend of input: game left unfinished", file=out)
            return None
        text = line.strip().lower()
        if text in ("q", "quit", "exit"):
            print("\ngame left unfinished", file=out)
            return None
        if text.isdigit() and 1 <= int(text) <= len(actions):
            return actions[int(text) - 1]
        print(f"please type a number from 1 to {len(actions)}, or q", file=out)


def _public(state: GameState, action) -> str | None:
    """``action`` as every seat may know it (``public_describe`` when the state has it)."""
    return state.public_describe(action) if isinstance(state, PublicDescribe) else state.describe(action)


def play_interactive(state: GameState, stdin: TextIO, out: TextIO, seats: int = 1, hot_seat: bool = False,
                     bots: Mapping[int, Player] | None = None) -> int:
    """Play from ``state`` to the end (or until the person quits). Returns 0."""
    bots = dict(bots or {})
    print("\n".join(state.events), file=out)
    last_seat = None
    while (seat := state.current_player()) is not None:
        if seat in bots:
            action = decide(bots[seat], state, seat)
            said = _public(state, action)
            state = state.apply(action)
            if said is not None:
                print(f"\n> P{seat + 1} (bot): {said}", file=out)
            if said is not None or state.events:
                print("\n".join(state.events), file=out)
            continue
        if hot_seat and seat != last_seat:
            print(CLEAR, end="", file=out)
            print(f"Pass the keyboard to P{seat + 1} and press Enter.", file=out, flush=True)
            if not stdin.readline():
                print("\nend of input: game left unfinished", file=out)
                return 0
            print(CLEAR, end="", file=out)
        last_seat = seat
        action = _ask(state, seat, stdin, out, seats > 1)
        if action is None:
            return 0
        said = state.describe(action)
        state = state.apply(action)
        print(f"\n> {said}" if seats == 1 else f"\n> P{seat + 1}: {said}", file=out)
        print("\n".join(state.events), file=out)
    print("\n".join(state.outcome()), file=out)
    return 0
