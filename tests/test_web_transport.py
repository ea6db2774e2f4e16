"""Issue #35 items 3 and 4, issue #36 item 3: what one client cannot do to the others at the
connection level (docs/rooms.md, "Security"), on loopback with the server's own uvicorn
settings and small limits: request heads over the limit in one write, connections past a
client's share, the fair 503 of a full server, trickled bodies, idle and surplus
WebSockets; and TCP_NODELAY on accepted connections. Clients are told apart by their
source address (127.0.0.2, 127.0.0.3 ...: all loopback on Linux)."""
import contextlib
import dataclasses
import json
import socket
import threading
import time

import pytest

from furball.scenarios.web.security import CSP

SMALL = dict(connections_per_client=6, connections_total=12, header_timeout_s=3.0, body_timeout_s=0.5,
             sockets_per_client=3, sockets_per_room=2, socket_idle_s=0.6)


@contextlib.contextmanager
def serving(**limits):
    """``furball serve``'s uvicorn settings around a fresh app with ``limits``; yields
    ``(port, ledger)`` (the :class:`~furball.scenarios.web.transport.Clients` of its protocols)."""
    import uvicorn

    from furball.scenarios.cli import serve
    from furball.scenarios.web import create_app
    from furball.scenarios.web.app import ServerOptions
    from furball.scenarios.web.transport import TransportLimits

    options = ServerOptions(bot_delay_s=0.0, transport=dataclasses.replace(TransportLimits(), **limits))
    app = create_app(options=options)
    sock = serve.listen("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = uvicorn.Server(serve.uvicorn_config(uvicorn, app))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the test server did not start"
            time.sleep(0.02)
        yield port, server.config.http_protocol_class.clients
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def connect(port: int, source: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    s.settimeout(5)
    return s


def answer(s: socket.socket) -> tuple[int, dict, bytes]:
    """Status, headers (lower-case names) and body of one answer (read until the body is
    whole or the connection closes)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value for name, _, value in (line.partition(": ") for line in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = s.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(lines[0].split()[1]), headers, body


def get(port: int, source: str, path: str = "/api/games") -> tuple[int, dict, bytes]:
    with connect(port, source) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        return answer(s)


def refused(status: int, headers: dict, body: bytes, expected: int, contains: str) -> None:
    assert status == expected, body
    assert headers["content-security-policy"] == CSP and headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "no-referrer"
    error = json.loads(body)["error"]
    assert contains in error and "\n" not in error


def test_a_60000_byte_request_head_in_one_write_is_refused_with_the_headers():
    with serving() as (port, _):
        with connect(port, "127.0.0.2") as s:
            big = "x" * 60_000
            s.sendall(f"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: {big}\r\n\r\n".encode())
            refused(*answer(s), 431, "16 KiB")
        with connect(port, "127.0.0.2") as s:  # the same head in pieces: h11's limit, the same headers
            s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
            for _ in range(3):  # 18,000 bytes: past the limit with the third piece
                time.sleep(0.05)
                s.sendall(b"x" * 6_000)
            status, headers, body = answer(s)
            assert status in (400, 431)
            refused(status, headers, body, status, "16 KiB")
        assert get(port, "127.0.0.2")[0] == 200


def test_one_client_past_its_share_cannot_make_another_clients_request_fail():
    with serving(**SMALL) as (port, _):
        hoard = []
        try:
            for n in range(30):  # unfinished request heads: 6 counted, the next 6 refused, the rest dropped
                if n == 6:
                    refused(*get(port, "127.0.0.2"), 429, "too many connections from your address")
                s = connect(port, "127.0.0.2")
                s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                hoard.append(s)
            status, headers, body = get(port, "127.0.0.3")
            assert status == 200 and headers["content-security-policy"] == CSP
            for source in ("127.0.0.4", "127.0.0.5"):  # the server full: 6 + 6 + ... = 12
                for _ in range(6):
                    s = connect(port, source)
                    s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                    hoard.append(s)
            time.sleep(0.2)
            assert get(port, "127.0.0.6")[0] == 200  # a newcomer: one of the heaviest clients' gives way
        finally:
            for s in hoard:
                s.close()


def test_a_full_server_answers_the_heaviest_client_503_with_the_headers():
    with serving(connections_per_client=10, connections_total=12) as (port, _):
        hoard = []
        try:
            for source in ("127.0.0.2", "127.0.0.3"):
                for _ in range(6):
                    s = connect(port, source)
                    s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                    hoard.append(s)
            time.sleep(0.2)
            refused(*get(port, "127.0.0.2"), 503, "the server is full")
            assert get(port, "127.0.0.7")[0] == 200
        finally:
            for s in hoard:
                s.close()


def test_a_body_trickled_a_byte_at_a_time_is_cut():
    with serving(**SMALL) as (port, _):
        with connect(port, "127.0.0.2") as s:
            s.sendall(b"POST /api/games/seats HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 1000\r\n\r\n{")
            started = time.monotonic()
            with pytest.raises(OSError):
                for _ in range(100):  # 10 s of trickling if nothing cut it
                    s.sendall(b" ")
                    time.sleep(0.1)
            assert time.monotonic() - started < 5
        with connect(port, "127.0.0.3") as s:
            s.sendall(b"POST /api/games/seats HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\n{")
            refused(*answer(s), 408, "request body: not received within 0.5 s")


def _room(port: int) -> str:
    body = json.dumps({"game": "white-christmas", "options": {"players": 2}, "seats": [None, None]}).encode()
    with connect(port, "127.0.0.9") as s:
        s.sendall(b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Connection: close\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        status, _, answer_body = answer(s)
    assert status == 201, answer_body
    return json.loads(answer_body)["room"]


def _socket(stack: contextlib.ExitStack, port: int, room: str, source: str):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect as ws_connect

    ws = stack.enter_context(ws_connect(f"ws://127.0.0.1:{port}/api/rooms/{room}/ws", sock=connect(port, source),
                                        open_timeout=5))
    with contextlib.suppress(ConnectionClosed):  # a refused one is closed already (its message is kept)
        ws.send(json.dumps({"type": "hello", "token": None}))
    return ws


def test_an_idle_websocket_is_closed():
    from websockets.exceptions import ConnectionClosed

    pytest.importorskip("furball.scenarios.white_christmas")
    with serving(**SMALL) as (port, _), contextlib.ExitStack() as stack:
        idle = _socket(stack, port, _room(port), "127.0.0.2")
        assert json.loads(idle.recv(timeout=5))["type"] == "update"
        with pytest.raises(ConnectionClosed) as closed:
            idle.recv(timeout=5)
        assert closed.value.rcvd.code == 4408 and "idle" in closed.value.rcvd.reason


def test_rooms_and_clients_take_a_bounded_number_of_websockets():
    from websockets.exceptions import ConnectionClosed

    pytest.importorskip("furball.scenarios.white_christmas")
    with serving(**(SMALL | {"socket_idle_s": 180.0})) as (port, _), contextlib.ExitStack() as stack:
        room, other, third_room = _room(port), _room(port), _room(port)
        for source in ("127.0.0.3", "127.0.0.4"):
            assert json.loads(_socket(stack, port, room, source).recv(timeout=5))["type"] == "update"
        third = _socket(stack, port, room, "127.0.0.5")  # the room's share is 2
        message = json.loads(third.recv(timeout=5))
        assert message["status"] == 503 and "this room has 2 pages open" in message["error"]
        with pytest.raises(ConnectionClosed) as closed:
            third.recv(timeout=5)
        assert closed.value.rcvd.code == 1013
        for where in (other, other, third_room):
            assert json.loads(_socket(stack, port, where, "127.0.0.6").recv(timeout=5))["type"] == "update"
        fourth = _socket(stack, port, third_room, "127.0.0.6")  # this client's share is 3
        assert "too many open rooms from your address" in json.loads(fourth.recv(timeout=5))["error"]
        assert json.loads(_socket(stack, port, third_room, "127.0.0.7").recv(timeout=5))["type"] == "update"


def test_accepted_connections_have_tcp_nodelay():
    with serving() as (port, ledger), connect(port, "127.0.0.2") as s:
        s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert answer(s)[0] == 200
        sockets = [t.get_extra_info("socket") for t in ledger.client_of]
        assert sockets and all(x.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) for x in sockets)
