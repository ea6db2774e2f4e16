"""What the benchmarks that start ``furball serve`` share: waiting for its port."""
from __future__ import annotations

import socket
import subprocess
import time


def wait_until_serving(server: subprocess.Popen, port: int, timeout_s: float) -> bool:
    """Wait until ``server`` accepts connections on ``port`` of loopback: ``True``, or
    ``False`` when it exited or ``timeout_s`` seconds passed first."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                return False
            time.sleep(0.1)
