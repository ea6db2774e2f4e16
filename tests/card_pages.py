"""Playing a card game's room page the way a person does, for the browser tests: the
action a policy picks (a bot deciding on a mirror of the room, in Python) is chosen on the
page by clicking the pieces it concerns (``choices.actions[i].targets``: an island, a
card, a token, then where it goes), or its button when it concerns no piece."""
from __future__ import annotations

import json
import time

from browser import wait_until

from furball.scenarios.web.rooms import Room, bot_seed

__all__ = ["view", "wait_for_turn", "click_action", "bot_choice", "catch_up", "settle"]


def view(page) -> dict:
    return page.evaluate("window.furball.view()")


def wait_for_turn(page, version: int, timeout_s: float = 30.0) -> dict:
    """Wait until ``page`` may act in its seat's position ``version`` (the seat's own
    view version, ``Room.view_version``); its view."""
    wait_until(page, "(n) => { const v = window.furball.view(); return v && v.version === n && v.choices && "
                     "document.querySelector('[data-testid=card-game]'); }", timeout_s=timeout_s, arg=version)
    return view(page)


def _selector(target: str) -> str:
    return f"[data-id={json.dumps(target)}]"


def click_action(page, index: int) -> str:
    """Choose legal action ``index`` on ``page`` by clicking: its targets one by one (on
    the table, or in a panel), then its button if several actions share those pieces;
    an action with no target by its button. Returns how it was chosen (``pieces`` or
    ``button``). Waits until the room has moved on."""
    v = view(page)
    version = v["version"]
    targets = v["choices"]["actions"][index]["targets"]
    how = "button"
    for k, target in enumerate(targets):
        how = "pieces"
        locator = page.locator(f"[data-testid=card-game] .target{_selector(target)}")
        if locator.count() == 0:
            raise AssertionError(f"{target} is not offered as a piece to click (step {k + 1} of {targets})")
        locator.first.click(force=True)
        wait_until(page, "(a) => { const v = window.furball.view(); return v.version !== a.version || "
                         "document.querySelector('[data-testid=card-game]').dataset.path === a.path; }",
                   arg={"version": version, "path": "|".join(targets[:k + 1])})
    if view(page).get("version") == version:
        button = page.locator(f'[data-testid=choose] button[data-action="{index}"]')
        button.click()
    wait_until(page, "(n) => window.furball.view().version !== n", timeout_s=15, arg=version)
    return how


def bot_choice(room: Room, bot: str, seat: int) -> int:
    """The index of the action the bot ``bot`` would take for ``seat`` in ``room`` (a
    fresh bot seeded as the room seeds its own)."""
    player = room.game.player(bot, bot_seed(room.spec.seed, room.version + 1, seat), seat)
    chosen = player.choose(room.state.observation(seat))
    legal = room.state.legal_actions()
    index = next((i for i, a in enumerate(legal) if a is chosen), None)
    return list(legal).index(chosen) if index is None else index


def catch_up(room: Room) -> Room:
    """The mirror after every decision the room's own bots make."""
    while room.bot_to_act() is not None:
        room, _ = room.bot_event()
    return room


def settle(pages, version: int, timeout_s: float = 20.0) -> None:
    """Wait until every page shows its own view version ``version`` or later."""
    deadline = time.monotonic() + timeout_s
    for page in pages:
        wait_until(page, "(n) => { const v = window.furball.view(); return v && (v.version === undefined || "
                         "v.version >= n || v.terminal); }", timeout_s=max(0.5, deadline - time.monotonic()),
                   arg=version)
