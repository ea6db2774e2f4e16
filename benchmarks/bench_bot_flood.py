"""A bot flood from one client against another room's person, on loopback (issue #35 item 7).

Run: .venv/bin/python benchmarks/bench_bot_flood.py [--flood 8] [--actions 40]

Starts ``furball serve`` (its own process: a SQLite file, two worker processes, bots
deciding at once: ``--bot-delay 0``) and, from this one client, a White Christmas room of
two people whose seats act in turn over HTTP (the first legal action), ``--actions``
times: first with nothing else on the server (the reference, measured in the same run),
then again after the same client opened ``--flood`` White Christmas rooms of four
``mcts`` bots (seconds of search a decision). Prints the time from sending each action to
its answer (p50 / p95 / max) in both phases and their ratio, the time to create a room
during the flood, and how many bot decisions the flood rooms stored meanwhile (and
``--wait`` seconds more); the server's messages (a bot decision past its 10 s limit made
by the quick bot) are printed as they come. Bounded: at most 40 flood rooms, 200
actions, 120 s of waiting. Numbers, not pass/fail (the issue's target: under
250 ms during the flood).
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

import httpx2 as httpx
import numpy as np
from serving import wait_until_serving
from websockets.sync.client import connect

MOST_FLOOD, MOST_ACTIONS = 40, 200


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _act(client: httpx.Client, url: str, room: dict, n: int) -> list[float]:
    """``n`` actions of the room's people in turn; the seconds each took to be answered
    (reading whose turn it is and its event number is not timed)."""
    tokens = [s["token"] for s in room["seats"]]
    waits = []
    for _ in range(n):
        seat = client.get(f"{url}/api/rooms/{room['room']}").json()["to_act"]
        if seat is None:
            break
        version = _version(url, room["room"], tokens[seat])
        start = time.perf_counter()
        r = client.post(f"{url}/api/rooms/{room['room']}/act", json={"version": version, "action": 0},
                        headers={"Authorization": f"Bearer {tokens[seat]}"})
        waits.append(time.perf_counter() - start)
        if r.status_code != 200:
            print(f"  refused: {r.status_code} {r.text[:120]}")
    return waits


def _version(url: str, room: str, token: str) -> int:
    """The room's event number as the seat to act sees it (its socket's first update)."""
    with connect(f"{url.replace('http', 'ws')}/api/rooms/{room}/ws") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            m = json.loads(ws.recv(timeout=30))
            if m.get("type") == "update" and "version" in m["view"]:
                return m["view"]["version"]


def _bot_events(db: pathlib.Path, rooms: list[str]) -> int:
    """How many events the flood rooms have stored (the bots' decisions)."""
    with sqlite3.connect(db) as conn:
        return conn.execute(f"SELECT count(*) FROM furball_events WHERE room IN ({','.join('?' * len(rooms))})",
                            rooms).fetchone()[0]


def _report(title: str, waits: list[float]) -> float:
    xs = np.array(waits) * 1000
    p50, p95 = np.percentile(xs, [50, 95])
    print(f"{title}: {len(xs)} actions: p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  max {xs.max():6.1f} ms")
    return float(p50)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--flood", type=int, default=8, help="rooms of four mcts bots")
    p.add_argument("--actions", type=int, default=40)
    p.add_argument("--wait", type=float, default=10.0, help="seconds to let the bots play on before counting")
    args = p.parse_args(argv)
    flood, actions = min(max(1, args.flood), MOST_FLOOD), min(max(2, args.actions), MOST_ACTIONS)
    args.wait = min(max(0.0, args.wait), 120.0)
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_DATA_HOME=tmp)
        db = pathlib.Path(tmp) / "rooms.sqlite3"
        server = subprocess.Popen([sys.executable, "-m", "furball", "serve", "--port", str(port), "--db",
                                   str(db), "--workers", "2", "--bot-delay", "0"],
                                  env=env, stdout=subprocess.DEVNULL, stderr=None, text=True)
        try:
            if not wait_until_serving(server, port, 30):
                print("furball serve did not start (its messages are above)", file=sys.stderr)
                return 1
            with httpx.Client(timeout=60) as client:
                people = {"game": "white-christmas", "seed": 8, "options": {"players": 2}}
                quiet = _report("no flood (reference)", _act(client, url, client.post(f"{url}/api/rooms",
                                                                                     json=people).json(), actions))
                rooms = [client.post(f"{url}/api/rooms", json={"game": "white-christmas", "seed": k,
                                                               "options": {"players": 4}, "seats": ["mcts"] * 4}
                                     ).json()["room"] for k in range(flood)]
                time.sleep(2.0)  # the bots are deciding
                before = _bot_events(db, rooms)
                start = time.perf_counter()
                mine = client.post(f"{url}/api/rooms", json=people).json()
                print(f"creating a room during the flood: {1000 * (time.perf_counter() - start):.1f} ms")
                flooded = _report(f"{flood} rooms of mcts bots", _act(client, url, mine, actions))
                time.sleep(args.wait)
                decided = _bot_events(db, rooms) - before
                print(f"ratio flood / reference (p50): {flooded / quiet:.2f}; the flood's bots decided {decided} "
                      f"times meanwhile")
        finally:
            server.terminate()
            server.wait(15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
