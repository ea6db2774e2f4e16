"""A private PostgreSQL server for the tests marked ``db``: Debian's ``postgresql``
package (``initdb``/``pg_ctl`` in ``/usr/lib/postgresql/*/bin``), a cluster in a
temporary folder, listening on a free loopback port, stopped and removed afterwards.

PostgreSQL refuses to run as root (as CI does): then the cluster belongs to the
``postgres`` user and its commands run through ``runuser``. :func:`postgres_missing`
says in words why no server can be started here, or ``None``.

    with running_postgres() as dsn:
        store = PostgresStore(dsn)
"""
from __future__ import annotations

import contextlib
import glob
import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import tempfile

__all__ = ["postgres_missing", "running_postgres"]


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _user() -> str | None:
    """The user the server runs as: this one, or ``postgres`` when this one is root."""
    if os.geteuid() != 0:
        return None
    return "postgres"


def postgres_missing() -> str | None:
    """Why the PostgreSQL tests cannot run here, or ``None`` when they can."""
    if importlib.util.find_spec("psycopg") is None:
        return "psycopg is not installed (pip install -e '.[postgres]')"
    if _bin("initdb") is None or _bin("pg_ctl") is None:
        return "no PostgreSQL server (apt-get install -y postgresql)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run the server as"
        if shutil.which("runuser") is None:
            return "running as root and runuser is missing"
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run(args: list[str], user: str | None, **kw) -> subprocess.CompletedProcess:
    if user is not None:
        args = ["runuser", "-u", user, "--"] + args
    return subprocess.run(args, check=True, capture_output=True, text=True, timeout=60, **kw)


@contextlib.contextmanager
def running_postgres():
    """A fresh PostgreSQL cluster; yields its DSN (``postgresql://...``)."""
    user = _user()
    folder = tempfile.mkdtemp(prefix="furball-pg-")
    data = os.path.join(folder, "data")
    port = _free_port()
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    try:
        _run([_bin("initdb"), "-D", data, "-U", "furball", "--auth=trust", "-E", "UTF8", "--no-sync"], user,
             cwd=folder)
        _run([_bin("pg_ctl"), "-D", data, "-l", os.path.join(folder, "log"), "-w", "-t", "30", "-o",
              f"-h 127.0.0.1 -p {port} -k {folder} -F", "start"], user, cwd=folder)
        try:
            yield f"postgresql://furball@127.0.0.1:{port}/postgres"
        finally:
            _run([_bin("pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"], user, cwd=folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
