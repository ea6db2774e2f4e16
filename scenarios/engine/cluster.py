"""Running work on ``dask.distributed``: a local cluster of processes on this machine's
cores, or an existing cluster named by its scheduler's address.

Shared by sweeps (many games, :mod:`.sweep`) and the dogfight's plan analysis (many
plan pairs): both hand Dask pure, picklable tasks and gather the results in a fixed
order, so the answer is the same however the work is spread. While Dask runs, Ctrl-C
only raises a flag the caller checks between tasks (:class:`CtrlC`), and the local
workers are forked from a server that ignores Ctrl-C, so nobody prints a traceback.
"""
from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
from collections.abc import Callable, Iterable
from typing import Any

from furball.errors import InputError

__all__ = ["default_workers", "quiet_dask", "CtrlC", "dask_client", "map_in_order"]


def _cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def default_workers() -> int:
    """The cores this process may run on; 1 (this process, no cluster) without the
    ``cluster`` extra."""
    import importlib.util

    if importlib.util.find_spec("distributed") is None:
        return 1
    return _cores()


WORKERS_PER_CORE = 4
"""The most local worker processes per core ``--workers`` may start: more only share the
same cores (and memory); a bigger cluster is started apart and reached by ``--scheduler``."""


def check_local_workers(workers: int | None) -> int | None:
    """``workers`` for a local cluster, checked: a whole number from 1 to
    :data:`WORKERS_PER_CORE` times this machine's cores. Raises :class:`InputError`."""
    if workers is None:
        return None
    cores = _cores()
    most = WORKERS_PER_CORE * cores
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= most:
        raise InputError(f"--workers {workers}: expected a whole number from 1 to {most} ({WORKERS_PER_CORE} per "
                         f"core of this machine's {cores}); for more, start a Dask cluster and give --scheduler")
    return workers


@contextlib.contextmanager
def quiet_dask():
    """Dask's own log lines (worker restarts, shutdown) stay out of the user's terminal."""
    loggers = [logging.getLogger(name) for name in ("distributed", "dask", "tornado", "asyncio")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


class CtrlC:
    """While Dask runs, Ctrl-C only raises a flag (``pressed``): a KeyboardInterrupt
    landing inside Dask's own machinery would leave it half started or half stopped.
    The sweep checks the flag between tasks and stops cleanly."""

    def __init__(self):
        self._event = threading.Event()
        self._previous = None

    def __enter__(self) -> CtrlC:
        try:
            self._previous = signal.signal(signal.SIGINT, lambda signum, frame: self._event.set())
        except ValueError:  # not the main thread: Ctrl-C is not ours to handle
            self._previous = None
        return self

    def __exit__(self, *exc) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)

    @property
    def pressed(self) -> bool:
        return self._event.is_set()

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``; True at once when Ctrl-C is pressed."""
        return self._event.wait(seconds)


def _shielded_forkserver() -> None:
    """Start multiprocessing's fork server with Ctrl-C ignored, so that it and every
    worker process forked from it (Dask's workers, and their restarts) ignore Ctrl-C:
    only this process reacts to it, and no worker prints a traceback."""
    from multiprocessing import forkserver

    from distributed.utils import get_mp_context

    get_mp_context()  # under the forkserver setting: Dask chooses what the server preloads
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread
        forkserver.ensure_running()
        return
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


WORKER_START_S = 60
"""A local worker process that has not started after this many seconds, or that has
lost its scheduler for as long (the process that started it is gone), gives up: the
cluster's start fails with one line instead of waiting for ever, and no worker
outlives its command by more than this."""


WORKER_SATURATION = float("inf")
"""The local cluster's scheduler hands every task to a worker as soon as it is
submitted (Dask's ``worker-saturation``; its default, 1.1, keeps all but about one task
per worker thread queued at the scheduler, which then costs a round trip between
scheduler and worker for each task: measured on 2 workers, 10 ms of wall time per task
on a loaded machine, 0.7 ms without the queue). Sweeps and the analysis's chunks are
many tasks of the same size, which Dask's work stealing evens out."""


def _first_line(exc: BaseException) -> str:
    """The first line of the innermost cause of ``exc`` (at most 100 characters)."""
    while exc.__cause__ is not None:
        exc = exc.__cause__
    return (str(exc).splitlines() or [type(exc).__name__])[0][:100]


@contextlib.contextmanager
def dask_client(workers: int | None, scheduler: str | None):
    """A ``dask.distributed.Client``: on a new ``LocalCluster`` of ``workers`` processes,
    or connected to ``scheduler``. Raises :class:`InputError` if the scheduler cannot be
    reached, or if the local cluster does not start (a worker that fails, or is not up
    within :data:`WORKER_START_S`: a broken Dask configuration, say). The local
    cluster's workers are forked from a server that ignores Ctrl-C
    (:func:`_shielded_forkserver`). Raises :class:`~furball.errors.MissingExtra` without
    the ``cluster`` extra."""
    from furball.extras import require

    require("cluster", "a Dask cluster (--workers, --scheduler)", "dask", "distributed")
    import dask
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise InputError(f"--scheduler {scheduler}: cannot connect ({_first_line(exc)})") from None
        try:
            yield client
        finally:
            client.close()
        return
    with dask.config.set({"distributed.worker.multiprocessing-method": "forkserver",
                          "distributed.scheduler.worker-saturation": WORKER_SATURATION}):
        _shielded_forkserver()
        try:
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                                   silence_logs=logging.CRITICAL + 1, death_timeout=WORKER_START_S)
        except (RuntimeError, OSError, TimeoutError, ImportError) as exc:
            raise InputError(f"--workers {workers}: the local Dask cluster did not start "
                             f"({_first_line(exc)})") from None
        try:
            client = Client(cluster)
            try:
                yield client
            finally:
                client.close()
        finally:
            cluster.close()




def map_in_order(client, fn: Callable, shared: Any, items: Iterable[Any]) -> list[Any]:
    """``[fn(shared, item) for item in items]`` computed on ``client``'s workers: ``shared``
    is sent once to every worker, the results come back in the order of ``items``."""
    items = list(items)
    if not items:
        return []
    handle = client.scatter(shared, broadcast=True)
    futures = client.map(fn, [handle] * len(items), items, pure=False)
    return client.gather(futures)
