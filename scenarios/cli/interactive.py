"""Playing a game yourself in the terminal, for any engine of :mod:`scenarios.engine`.

Each decision shows the deciding seat's observation and a numbered menu of its legal
actions; the person types a number. ``q``/``quit`` or the end of input stops cleanly
(exit status 0). With ``hot_seat`` (several people at one screen, hidden information),
the screen is cleared and the next seat is asked to take the keyboard before anything
of theirs is shown. Seats listed in ``bots`` are played by those bots instead; a bot's
action is shown as every seat may know it (the state's optional ``public_describe``: a
token put into a sealed bid is not named).

Language (docs/i18n.md): the prompts, the events, the actions' texts and the outcome are
written in ``lang`` (the engine's log entries, ``describe_entry`` and ``outcome_entries``
where the state keeps them, else its English text through the catalog); the
observation (``observation_string``) stays English.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TextIO

from furball.i18n import DEFAULT_LANG, Lang, render_entry, translator
from furball.scenarios.engine import GameState, Player, decide
from furball.scenarios.engine.protocol import PublicDescribe

__all__ = ["play_interactive", "CLEAR"]

CLEAR = "\033[2J\033[H"
"""ANSI: clear the screen and go home (between seats in hot-seat play)."""


def _ask(state: GameState, seat: int, stdin: TextIO, out: TextIO, many: bool, lang: Lang | str):
    _ = translator(lang)
    actions = list(state.legal_actions())
    print("", file=out)
    print(state.observation_string(seat), file=out)
    for i, a in enumerate(actions, 1):
        print(f"  {i:>3}. {_describe(state, a, lang)}", file=out)
    while True:
        if many:
            prompt = _("P{seat}, choose 1-{count} (q to quit): ").format(seat=seat + 1, count=len(actions))
        else:
            prompt = _("choose 1-{count} (q to quit): ").format(count=len(actions))
        print(prompt, end="", file=out, flush=True)
        line = stdin.readline()
        if not line:
            print("\n" + _("end of input: game left unfinished"), file=out)
            return None
        text = line.strip().lower()
        if text in ("q", "quit", "exit"):
            print("\n" + _("game left unfinished"), file=out)
            return None
        if text.isdigit() and 1 <= int(text) <= len(actions):
            return actions[int(text) - 1]
        print(_("please type a number from 1 to {count}, or q").format(count=len(actions)), file=out)


def _describe(state: GameState, action, lang: Lang | str) -> str:
    """``action`` in words for the seat that takes it, in ``lang``."""
    if lang != Lang.EN and hasattr(state, "describe_entry"):
        return render_entry(*state.describe_entry(action), lang)
    return translator(lang)(state.describe(action))


def _public(state: GameState, action, lang: Lang | str) -> str | None:
    """``action`` as every seat may know it (``public_describe`` when the state has it),
    in ``lang``."""
    if isinstance(state, PublicDescribe):
        said = state.public_describe(action)
        if said is None or lang == Lang.EN:
            return said
        return _describe(state, action, lang) if said == state.describe(action) else translator(lang)(said)
    return _describe(state, action, lang)


def _events(state: GameState, lang: Lang | str) -> tuple[str, ...]:
    """The last transition's log lines in ``lang``."""
    if lang != Lang.EN and hasattr(state, "events_in"):
        return tuple(state.events_in(lang))
    return tuple(state.events)


def _outcome(state: GameState, lang: Lang | str) -> tuple[str, ...]:
    """The final lines in ``lang``."""
    if lang != Lang.EN and hasattr(state, "outcome_entries"):
        return tuple(render_entry(template, args, lang) for template, args in state.outcome_entries())
    _ = translator(lang)
    return tuple(_(line) for line in state.outcome())


def play_interactive(state: GameState, stdin: TextIO, out: TextIO, seats: int = 1, hot_seat: bool = False,
                     bots: Mapping[int, Player] | None = None, lang: Lang | str = DEFAULT_LANG) -> int:
    """Play from ``state`` to the end (or until the person quits), every line in
    ``lang``. Returns 0."""
    _ = translator(lang)
    bots = dict(bots or {})
    print("\n".join(_events(state, lang)), file=out)
    last_seat = None
    while (seat := state.current_player()) is not None:
        if seat in bots:
            action = decide(bots[seat], state, seat)
            said = _public(state, action, lang)
            state = state.apply(action)
            if said is not None:
                print("\n" + _("> P{seat} (bot): {action}").format(seat=seat + 1, action=said), file=out)
            if said is not None or state.events:
                print("\n".join(_events(state, lang)), file=out)
            continue
        if hot_seat and seat != last_seat:
            print(CLEAR, end="", file=out)
            print(_("Pass the keyboard to P{seat} and press Enter.").format(seat=seat + 1), file=out, flush=True)
            if not stdin.readline():
                print("\n" + _("end of input: game left unfinished"), file=out)
                return 0
            print(CLEAR, end="", file=out)
        last_seat = seat
        action = _ask(state, seat, stdin, out, seats > 1, lang)
        if action is None:
            return 0
        said = _describe(state, action, lang)
        state = state.apply(action)
        print(f"\n> {said}" if seats == 1 else f"\n> P{seat + 1}: {said}", file=out)
        print("\n".join(_events(state, lang)), file=out)
    print("\n".join(_outcome(state, lang)), file=out)
    return 0
