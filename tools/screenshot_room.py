"""The README's picture of a game room, regenerated: a White Christmas room seen by P1.

    .venv/bin/python tools/screenshot_room.py [OUT.png]    # default: docs/img/room.png

Starts the server on a free loopback port (rooms in memory, bots answering at once),
creates a 3-player room (P1 and P2 people, P3 the heuristic bot, seed 7), plays the
people's first legal action until P1 holds three cards, and saves P1's page, opened in
Debian's headless Chromium (``tests/browser.py``; needs the test extras and ``apt-get
install chromium``).
"""
from __future__ import annotations

import pathlib
import sys
import time

import httpx2 as httpx

from furball.scenarios.web import create_app
from furball.scenarios.web.app import ServerOptions

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the browser helpers the end-to-end tests use
from browser import chromium, chromium_missing, running_server, wait_until  # noqa: E402


def _first_moves(url: str, made: dict) -> None:
    """The people take their first legal action until P1 holds three cards."""
    tokens = [s["token"] for s in made["seats"]]
    room = made["room"]
    for _ in range(200):
        summary = httpx.get(f"{url}api/rooms/{room}").json()
        seat = summary["to_act"]
        if summary["seats"][seat]["bot"]:
            time.sleep(0.05)
            continue
        with httpx.Client() as c:
            view = _view(c, url, room, tokens[seat])
        if seat == 0 and len(view["view"]["private"]["hand"]) >= 3:
            return
        httpx.post(f"{url}api/rooms/{room}/act", json={"version": view["version"], "action": 0},
                   headers={"Authorization": f"Bearer {tokens[seat]}"})


def _view(client, url: str, room: str, token: str) -> dict:
    import json

    from websockets.sync.client import connect

    with connect(f"{url.replace('http', 'ws')}api/rooms/{room}/ws") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            m = json.loads(ws.recv(timeout=10))
            if m["type"] == "update":
                return m["view"]


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = pathlib.Path(argv[0] if argv else "docs/img/room.png")
    missing = chromium_missing()
    if missing:
        print(f"screenshot: {missing}", file=sys.stderr)
        return 2
    app = create_app(options=ServerOptions(bot_delay_s=0.0))
    with running_server(app) as url, chromium() as browser:
        made = httpx.post(f"{url}api/rooms", json={"game": "white-christmas", "options": {"players": 3}, "seed": 7,
                                                   "seats": [None, None, "heuristic"],
                                                   "title": "Saigon, Tuesday night"}).json()
        _first_moves(url, made)
        page = browser.new_page(viewport={"width": 1280, "height": 860}, device_scale_factor=1)
        page.goto(f"{url}rooms/{made['room']}#seat={made['seats'][0]['token']}")
        wait_until(page, "window.furball.updates() > 0 && document.querySelectorAll('[data-testid=board] .target').length > 0")
        page.screenshot(path=str(out))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
