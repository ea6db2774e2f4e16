"""Driving the web table in a real browser, for the end-to-end tests and the README's
screenshot: a server in a background thread, and Debian's headless Chromium through
Playwright (never a downloaded browser).

    with running_server(create_app(scenario)) as url, chromium() as browser:
        page = browser.new_page(); page.goto(url)

Playwright is a test dependency (``pip install -e '.[test]'``); Chromium comes from the
system (``apt-get install chromium``). :func:`chromium_missing` says why a browser
cannot be started, or ``None``.
"""
from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import socket
import threading
import time

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "chromium_missing", "chromium", "running_server", "wait_until", "free_port",
           "serve_process"]

CHROMIUM = os.environ.get("FURBALL_CHROMIUM", "/usr/bin/chromium")
"""The browser used (Debian's package; ``FURBALL_CHROMIUM`` names another binary)."""
CHROMIUM_ARGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync")
"""Flags for a quiet headless browser that talks to nothing but the local server."""


def chromium_missing() -> str | None:
    """Why the browser tests cannot run here, in words, or ``None`` when they can."""
    if importlib.util.find_spec("playwright") is None:
        return "playwright is not installed (pip install -e '.[test]')"
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)) and shutil.which(CHROMIUM) is None:
        return f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
    return None


@contextlib.contextmanager
def chromium():
    """A headless Chromium (Playwright ``Browser``) from :data:`CHROMIUM`."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=list(CHROMIUM_ARGS), headless=True)
        try:
            yield browser
        finally:
            browser.close()


def wait_until(page, expression: str, timeout_s: float = 20.0, arg=None):
    """Wait until ``expression`` (JavaScript, a function of ``arg`` or an expression) is
    truthy in ``page``; returns its value. Polls ``page.evaluate`` instead of Playwright's
    ``wait_for_function``, which evaluates strings with ``eval`` and so cannot run under the
    pages' Content-Security-Policy (no ``unsafe-eval``: the tests keep the real policy).
    A page that navigates (reloads) while it is asked is asked again."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            value = page.evaluate(expression, arg)
        except Exception as exc:  # the page navigated (a reload) while the expression ran: ask again
            if "context was destroyed" not in str(exc) or time.monotonic() > deadline:
                raise
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout_s:g} s for {expression[:80]}")
        time.sleep(0.02)


def free_port() -> int:
    """A loopback port free just now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_process(db, data_home, port: int | None = None, timeout_s: float = 30.0):
    """``furball serve`` in its own process (so a test can kill it), on loopback, rooms in
    ``db`` (a SQLite path or a PostgreSQL URL), bots answering at once, no worker
    processes; returns ``(process, base URL without the final slash)`` once it listens."""
    import subprocess
    import sys

    port = port or free_port()
    env = dict(os.environ, XDG_DATA_HOME=str(data_home))
    proc = subprocess.Popen([sys.executable, "-m", "furball", "serve", "--port", str(port), "--db", str(db),
                             "--bot-delay", "0", "--workers", "0"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, f"http://127.0.0.1:{port}"
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(f"furball serve stopped: {proc.stderr.read()}") from None
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("furball serve did not start")


def restart_after_sigkill(server, db, data_home, port: int, pages):
    """Kill ``server`` (a :func:`serve_process`) with SIGKILL, no goodbye; wait until
    ``pages[0]`` shows the connection lost, start ``furball serve`` again on the same
    database and port, and wait until every page has reconnected. Returns the new process."""
    import signal

    server.send_signal(signal.SIGKILL)
    server.wait(10)
    wait_until(pages[0], "document.getElementById('connection').textContent.includes('disconnected')")
    server, _ = serve_process(db, data_home, port)
    for page in pages:
        wait_until(page, "document.getElementById('connection').textContent === 'connected'", timeout_s=30)
    return server


@contextlib.contextmanager
def running_server(app, timeout_s: float = 10.0):
    """Serve ``app`` with uvicorn on a free loopback port in a background thread; yields
    the base URL (``http://127.0.0.1:PORT/``) and stops the server on exit."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout_s
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            server.should_exit = True
            raise RuntimeError(f"the test server did not start on port {port}")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(timeout_s)


def open_best_plans(browser, url: str, room: str, token: str, vs: str, errors: list | None = None,
                    timeout_s: float = 60.0):
    """A dogfight room's page for the seat of ``token``, its Best plans panel opened
    against ``vs`` and the first answer shown; the page's errors appended to ``errors``."""
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    if errors is not None:
        page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}rooms/{room}#seat={token}")
    wait_until(page, "document.querySelectorAll('[data-testid=cards] button').length > 0", timeout_s=timeout_s)
    page.click("details.df-best summary")
    page.select_option("details.df-best select", vs)
    page.click("[data-testid=best-plans]")
    wait_until(page, "document.querySelector('.df').dataset.best === 'done'", timeout_s=2 * timeout_s)
    return page


def press_on_plane(page, name: str) -> tuple[float, float]:
    """The mouse pressed on the centre of plane ``name``'s base (scrolled into view);
    returns that point (page pixels), from where the caller drags."""
    base = page.locator(f'g.plane[data-plane="{name}"] .base')
    base.scroll_into_view_if_needed()
    box = base.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    return x, y
