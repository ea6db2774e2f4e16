"""The README's pictures of the games' pages in a room, regenerated: Operation Canuck,
1942 USS Yorktown and 1975 White Christmas mid-game, and a dogfight room replaying the
turn just flown.

    .venv/bin/python tools/screenshot_pages.py [FOLDER] [GAME ...]    # default: docs/img, every game

GAME (``canuck``, ``yorktown``, ``white-christmas``, ``dogfight``) limits the pictures to
those games' pages.

Starts the server on a free loopback port (rooms in memory, bots answering at once),
creates each room with a fixed seed, plays the person's seat with the heuristic bot's
choices through the room's API until the position is worth showing, and saves that
seat's page as Debian's headless Chromium draws it (``tests/browser.py``; needs the test
extras and ``apt-get install chromium``). Writes ``page_canuck.png``,
``page_yorktown.png``, ``page_white_christmas.png``, ``room_dogfight.png`` (the end of
the first maneuver: the planes' silhouettes, the cards laid under the bases, shots and
damage), ``room_dogfight_move.png`` (the table alone, zoomed, mid-move: each base sliding
along its arrow onto the card laid in front of it) and ``room_dogfight_phone.png`` (the
same moment on a 390 px phone).
"""
from __future__ import annotations

import json
import pathlib
import sys
import time
import urllib.error
import urllib.request

from furball.scenarios.web import create_app
from furball.scenarios.web.app import ServerOptions
from furball.scenarios.web.rooms import Room

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the browser helpers the end-to-end tests use
from browser import chromium, chromium_missing, running_server, wait_until  # noqa: E402
from card_pages import bot_choice, catch_up  # noqa: E402

WIDE = {"width": 1280, "height": 1000}
PHONE = {"width": 390, "height": 844}


def _post(url: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)
    return json.loads(urllib.request.urlopen(request).read())


def _play(app, url: str, made: dict, stop) -> None:
    """The people's seats decide as the heuristic bot would, through the room's API,
    until ``stop(room)`` (a mirror of the room) holds."""
    room = catch_up(Room.new(app.state.store.load(made["room"]).spec))
    while not room.terminal and not stop(room):
        seat = room.to_act
        index = bot_choice(room, "heuristic", seat)
        for attempt in range(100):  # the server's own bots may not have caught up with the mirror yet
            try:
                _post(f"{url}api/rooms/{made['room']}/act", {"version": room.version, "action": index},
                      made["seats"][seat]["token"])
                break
            except urllib.error.HTTPError as exc:
                if exc.code != 409 or attempt == 99:
                    raise
                time.sleep(0.05)
        room, _ = room.act(seat, index, room.version)
        room = catch_up(room)
    time.sleep(0.3)


def _shoot(browser, url: str, made: dict, out: pathlib.Path, ready: str, then=None, *, viewport=None,
           element: str | None = None, phone: bool = False) -> None:
    """Save the page of seat 0 (the whole page; only ``element`` when given; the screen
    as it is on a ``phone``) once ``ready`` holds and ``then(page)`` has run."""
    context = browser.new_context(viewport=viewport or WIDE, device_scale_factor=2 if phone else 1,
                                  has_touch=phone, is_mobile=phone)
    page = context.new_page()
    page.goto(f"{url}rooms/{made['room']}#seat={made['seats'][0]['token']}")
    wait_until(page, ready, timeout_s=20)
    if then is not None:
        then(page)
    time.sleep(0.5)
    if element:
        page.locator(element).screenshot(path=str(out))
    else:
        page.screenshot(path=str(out), full_page=not phone)
    context.close()
    print(f"wrote {out}")


def _mid_move(page, zoom: int = 0) -> None:
    """Replay the turn from its start and pause the first maneuver mid-move (the bases
    halfway along their arrows, over the cards laid in front of them); zoom in ``zoom``
    times."""
    if page.is_visible('[data-replay="open"]'):
        page.click('[data-replay="open"]')
    page.click('[data-replay="first"]')
    page.click('[data-replay="play"]')
    wait_until(page, "document.querySelector('.df').dataset.replayKind === 'maneuver'")
    time.sleep(0.3)  # about halfway along (js/rooms/games/dogfight/state.js: MOVE_PART of STEP_MS)
    page.click('[data-replay="play"]')  # pause
    for _ in range(zoom):
        page.click('.df-zoom button[title="zoom in"]')


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    folder = pathlib.Path(argv[0] if argv else "docs/img")
    games = set(argv[1:]) or {"canuck", "yorktown", "white-christmas", "dogfight"}
    missing = chromium_missing()
    if missing:
        print(f"screenshot: {missing}", file=sys.stderr)
        return 2
    app = create_app(options=ServerOptions(bot_delay_s=0.0))
    card = "window.furball.updates() > 0 && document.querySelectorAll('[data-testid=board] [data-id]').length > 3"
    with running_server(app) as url, chromium() as browser:
        if "canuck" in games:
            made = _post(f"{url}api/rooms", {"game": "canuck", "seed": 3, "title": "Langhe, autumn 1944"})
            _play(app, url, made, lambda r: r.version >= 14 and r.state.pending is not None)
            _shoot(browser, url, made, folder / "page_canuck.png", card)

        if "yorktown" in games:
            made = _post(f"{url}api/rooms", {"game": "yorktown", "options": {"players": 2}, "seed": 3,
                                             "seats": [None, "heuristic"], "title": "Coral Sea, 7 May 1942"})
            _play(app, url, made, lambda r: r.version >= 20 and r.state.roll is not None and r.to_act == 0)
            _shoot(browser, url, made, folder / "page_yorktown.png", card)

        if "white-christmas" in games:
            made = _post(f"{url}api/rooms", {"game": "white-christmas", "options": {"players": 3}, "seed": 7,
                                             "seats": [None, "heuristic", "heuristic"],
                                             "title": "Saigon, Tuesday night"})
            _play(app, url, made, lambda r: r.version >= 12 and r.to_act == 0)
            _shoot(browser, url, made, folder / "page_white_christmas.png", card)

        if "dogfight" in games:
            made = _post(f"{url}api/rooms", {"game": "dogfight", "options": {"scenario": "duel", "reorder": "policy"}, "seed": 7,
                                             "seats": [None, "planner"], "title": "Over the Somme"})
            room = Room.new(app.state.store.load(made["room"]).spec)
            tree = room.view(0)["choices"]["tree"]
            _post(f"{url}api/rooms/{made['room']}/act", {"version": 0, "action": tree["A10"]["A10"]["A3"]},
                  made["seats"][0]["token"])

            def replay(page):
                if page.is_visible('[data-replay="open"]'):  # else the new turn's replay is playing already
                    page.click('[data-replay="open"]')
                page.click('[data-replay="first"]')
                page.click('[data-replay="next"]')  # maneuver 1, drawn at its end: shots and damage
            flown = ("window.furball.updates() > 0 && document.querySelectorAll('[data-testid=table] use.silhouette')"
                     ".length === 2 && document.querySelector('#furball-silhouettes #sil-fighter') && "
                     "document.querySelector('[data-replay=open]') && "
                     "(!document.querySelector('[data-replay=open]').hidden || "
                     "!document.querySelector('[data-replay=first]').closest('[hidden]'))")
            _shoot(browser, url, made, folder / "room_dogfight.png", flown, replay)
            _shoot(browser, url, made, folder / "room_dogfight_move.png", flown, lambda page: _mid_move(page, 1),
                   element=".df-board")

            def phone(page):
                _mid_move(page, 1)
                page.eval_on_selector("[data-testid=table]",
                                      "e => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 8)")
            _shoot(browser, url, made, folder / "room_dogfight_phone.png", flown, phone, viewport=PHONE, phone=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
