"""Issue #15: `furball serve`: loopback by default, a warning for any other host, every
mistake one line and exit 2 before anything listens (the hostile corpus has more)."""
import socket
import types

import pytest

from furball.scenarios.cli import serve


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch):
    """The default rooms database goes to a temporary data folder, never the user's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture
def served(monkeypatch):
    """Run `furball serve` without serving: uvicorn's Server.run records its sockets."""
    import uvicorn

    calls = []

    def fake_run(self, sockets=None):
        calls.append((self.config.app, [s.getsockname() for s in sockets]))

    monkeypatch.setattr(uvicorn.Server, "run", fake_run)
    return calls


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_listens_on_loopback_by_default(cli, served):
    port = _free_port()
    code, out, err = cli(["serve", "furball", "--port", port])
    assert code == 0 and f"http://127.0.0.1:{port}/" in out and err == ""
    (app, sockets), = served
    assert sockets == [("127.0.0.1", port)]


def test_serve_warns_when_asked_for_another_host(cli, served):
    code, out, err = cli(["serve", "--host", "0.0.0.0", "--port", _free_port()])
    assert code == 0 and "WARNING" in err and "anyone who can reach this machine" in err


def test_serve_opens_the_browser_only_when_asked(cli, served, monkeypatch):
    opened = []
    monkeypatch.setattr(serve.threading, "Timer", lambda delay, fn, args: types.SimpleNamespace(
        start=lambda: opened.append(args[0])))
    port = _free_port()
    assert cli(["serve", "--port", port])[0] == 0 and opened == []
    assert cli(["serve", "--port", port, "--open"])[0] == 0 and opened == [f"http://127.0.0.1:{port}/"]


def test_a_busy_port_is_one_line_and_exit_2(cli, served):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        code, out, err = cli(["serve", "--port", busy.getsockname()[1]])
    assert code == 2 and err.startswith("furball: error: --host '127.0.0.1' --port") and err.count("\n") == 1
    assert served == []


@pytest.mark.parametrize("host, loopback", [("127.0.0.1", True), ("127.1.2.3", True), ("localhost", True),
                                            ("::1", True), ("[::1]", True), ("0.0.0.0", False),
                                            ("192.168.1.5", False), ("example.org", False)])
def test_is_loopback(host, loopback):
    assert serve.is_loopback(host) is loopback
