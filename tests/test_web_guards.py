"""Issue #22 item 5: what keeps one page's long calculation or one slow connection from
stalling the server: the bounded work pool with a time limit (its worker process killed),
the header timeout, and `furball serve` on a LAN (Host names, the URL to give players)."""
import asyncio
import math
import socket
import time

import pytest

from furball.errors import InputError
from furball.scenarios.cli import serve
from furball.scenarios.web.hub import Busy
from furball.scenarios.web.pool import WorkPool


@pytest.mark.slow
def test_a_calculation_past_its_time_limit_is_stopped_and_the_pool_goes_on():
    pool = WorkPool(workers=1, time_limit_s=30.0, max_waiting=2)

    async def scenario():
        with pytest.raises(Busy, match="longer than 0.5 s"):
            await pool.run(time.sleep, 30, time_limit_s=0.5)
        return await pool.run(math.factorial, 20)  # a fresh worker replaced the killed one

    try:
        started = time.monotonic()
        assert asyncio.run(scenario()) == math.factorial(20)
        assert time.monotonic() - started < 25  # the sleeping worker did not run to its end
    finally:
        pool.close()


def test_too_much_waiting_work_is_refused_at_once():
    pool = WorkPool(workers=0, time_limit_s=5.0, max_waiting=1)

    async def scenario():
        slow = asyncio.ensure_future(pool.run(time.sleep, 0.3))
        await asyncio.sleep(0.05)
        with pytest.raises(Busy, match="busy"):
            await pool.run(math.factorial, 5)
        await slow
        return await pool.run(math.factorial, 5)

    assert asyncio.run(scenario()) == 120


def test_a_connection_that_never_finishes_its_request_head_is_closed():
    import threading

    import uvicorn

    from furball.scenarios.web import create_app
    from furball.scenarios.web.security import guarded_h11_protocol

    protocol = type("Quick", (guarded_h11_protocol(),), {"header_timeout_s": 0.3})
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, http=protocol,
                                           log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.02)
        with socket.create_connection(("127.0.0.1", port)) as slow:
            slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # no blank line: the head never ends
            slow.settimeout(5)
            started = time.monotonic()
            assert slow.recv(100) == b""  # closed by the server
            assert time.monotonic() - started < 4
        with socket.create_connection(("127.0.0.1", port)) as fine:
            fine.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            fine.settimeout(5)
            assert fine.recv(100).startswith(b"HTTP/1.1 200")
    finally:
        server.should_exit = True
        thread.join(5)


def test_serve_on_a_lan_answers_to_its_names_and_prints_the_url_to_give(cli, monkeypatch, tmp_path):
    import uvicorn

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    monkeypatch.setattr(serve, "lan_address", lambda: "192.168.7.9")
    allowed, url, loopback = serve.hosts_and_url("0.0.0.0", [], 8765)
    assert url == "http://192.168.7.9:8765/" and "192.168.7.9" in allowed and "127.0.0.1" in allowed
    assert not loopback and "*" not in allowed and "0.0.0.0" not in allowed
    allowed, url, _ = serve.hosts_and_url("0.0.0.0", ["table.local"], 8765)
    assert url == "http://table.local:8765/" and "table.local" in allowed
    allowed, url, loopback = serve.hosts_and_url("127.0.0.1", [], 9000)
    assert url == "http://127.0.0.1:9000/" and loopback
    with pytest.raises(InputError, match="allow-host"):
        serve.hosts_and_url("0.0.0.0", ["bad name!"], 8765)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code, out, err = cli(["serve", "--host", "0.0.0.0", "--allow-host", "table.local", "--port", port,
                          "--db", str(tmp_path / "r.sqlite3")])
    assert code == 0 and f"http://table.local:{port}/rooms" in out and "table.local" in err


@pytest.mark.parametrize("argv, message", [(["--bot-delay", "-1"], "--bot-delay"), (["--workers", "x"], "--workers"),
                                           (["--db", "mysql://x"], "postgresql")])
def test_serve_refuses_bad_options_in_one_line(cli, argv, message, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    code, out, err = cli(["serve", "--port", "1", *argv])
    assert code == 2 and message in err and err.count("\n") == 1
