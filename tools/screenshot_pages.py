"""The README's pictures of the games' pages in a room, regenerated: Operation Canuck,
1942 USS Yorktown and 1975 White Christmas mid-game, and a dogfight room replaying the
turn just flown.

    .venv/bin/python tools/screenshot_pages.py [FOLDER]    # default: docs/img

Starts the server on a free loopback port (rooms in memory, bots answering at once),
creates each room with a fixed seed, plays the person's seat with the heuristic bot's
choices through the room's API until the position is worth showing, and saves that
seat's page as Debian's headless Chromium draws it (``tests/browser.py``; needs the test
extras and ``apt-get install chromium``). Writes ``page_canuck.png``,
``page_yorktown.png``, ``page_white_christmas.png`` and ``room_dogfight.png``.
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


def _shoot(browser, url: str, made: dict, out: pathlib.Path, ready: str, then=None) -> None:
    page = browser.new_page(viewport=WIDE, device_scale_factor=1)
    page.goto(f"{url}rooms/{made['room']}#seat={made['seats'][0]['token']}")
    wait_until(page, ready, timeout_s=20)
    if then is not None:
        then(page)
    time.sleep(0.5)
    page.screenshot(path=str(out), full_page=True)
    page.close()
    print(f"wrote {out}")


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    folder = pathlib.Path(argv[0] if argv else "docs/img")
    missing = chromium_missing()
    if missing:
        print(f"screenshot: {missing}", file=sys.stderr)
        return 2
    app = create_app(options=ServerOptions(bot_delay_s=0.0))
    card = "window.furball.updates() > 0 && document.querySelectorAll('[data-testid=board] [data-id]').length > 3"
    with running_server(app) as url, chromium() as browser:
        made = _post(f"{url}api/rooms", {"game": "canuck", "seed": 3, "title": "Langhe, autumn 1944"})
        _play(app, url, made, lambda r: r.version >= 14 and r.state.pending is not None)
        _shoot(browser, url, made, folder / "page_canuck.png", card)

        made = _post(f"{url}api/rooms", {"game": "yorktown", "options": {"players": 2}, "seed": 3,
                                         "seats": [None, "heuristic"], "title": "Coral Sea, 7 May 1942"})
        _play(app, url, made, lambda r: r.version >= 20 and r.state.roll is not None and r.to_act == 0)
        _shoot(browser, url, made, folder / "page_yorktown.png", card)

        made = _post(f"{url}api/rooms", {"game": "white-christmas", "options": {"players": 3}, "seed": 7,
                                         "seats": [None, "heuristic", "heuristic"],
                                         "title": "Saigon, Tuesday night"})
        _play(app, url, made, lambda r: r.version >= 12 and r.to_act == 0)
        _shoot(browser, url, made, folder / "page_white_christmas.png", card)

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
        _shoot(browser, url, made, folder / "room_dogfight.png",
               "window.furball.updates() > 0 && document.querySelectorAll('[data-testid=table] use.silhouette')"
               ".length === 2 && document.querySelector('[data-replay=open]') && "
               "(!document.querySelector('[data-replay=open]').hidden || "
               "!document.querySelector('[data-replay=first]').closest('[hidden]'))", replay)
    return 0


if __name__ == "__main__":
    sys.exit(main())
