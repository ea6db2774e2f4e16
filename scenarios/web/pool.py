"""Work that may take seconds (adjudicating a turn, the plan analysis), off the event loop.

:class:`WorkPool` runs such calls in a bounded pool with a time limit, so one page's Best
plans never stalls another room:

* ``workers > 0``: worker **processes** (:mod:`pebble`'s ``ProcessPool``, started by
  ``forkserver``, at the lowest CPU priority, ``nice`` +19), so the server's
  own thread keeps answering while they compute; a call past its time limit has its
  worker process killed and replaced.
* ``workers == 0``: worker threads (for tests and small machines): the time limit then
  only stops waiting (a thread cannot be killed).

At most ``max_waiting`` calls wait or run at once; one more is refused at once
(:class:`~.hub.Busy`: "the server is busy"). Functions and arguments must be
picklable (module-level functions of plain values).

A call may report its **progress** (``run(..., progress=callback)``): the function then
receives ``progress=``, a tqdm-like factory (``bar = progress(total=N)``,
``bar.update(k)``, ``bar.close()``, as :func:`scenarios.dogfight.analyze` takes), and
``callback(done, total)`` runs on the event loop as it advances (a few times a second at
most). From worker processes the figures travel through one queue the pool gives every
worker when it starts (a multiprocessing queue is passed to a process only as it is
created), drained by one thread of the server.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import multiprocessing
import os
import queue as queues
import threading
import time
from collections.abc import Callable
from typing import Any

import anyio
import anyio.to_thread

from .hub import Busy

__all__ = ["WorkPool"]


def _load(modules: tuple[str, ...], warm: Callable[[], Any] | None = None) -> None:
    """Import ``modules`` in a worker and call ``warm`` there (warming it up before the
    first real call)."""
    import importlib

    for name in modules:
        importlib.import_module(name)
    if warm is not None:
        warm()


_WORKER: dict[str, Any] = {}
"""In a worker process: the pool's progress queue (``"progress"``), set once by
:func:`_start_worker` as the process starts."""
REPORT_EVERY_S = 0.2
"""The shortest time between two progress reports of one call."""


def _lower_priority() -> None:
    """Run below the server (``nice`` +19) where allowed."""
    try:
        os.nice(19)
    except OSError:  # pragma: no cover - not allowed here: same priority
        pass


def _start_worker(progress_queue) -> None:
    """Worker initializer: lower priority, keep the progress queue, and keep freed memory
    for reuse (``geometry.kernels.keep_freed_memory``: request after request, the
    analysis's grids then take no fresh pages)."""
    from furball.geometry.kernels import keep_freed_memory

    _lower_priority()
    keep_freed_memory()
    _WORKER["progress"] = progress_queue


class _Bar:
    """A tqdm-like progress bar that sends ``(call, done, total)`` to ``send`` at most
    every :data:`REPORT_EVERY_S` seconds (and when done)."""

    def __init__(self, call: int, total: int, send: Callable[[tuple], None]):
        self.call, self.total, self.done, self.send = call, int(total or 0), 0, send
        self.sent = 0.0
        self.send((call, 0, self.total))

    def update(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if now - self.sent >= REPORT_EVERY_S or self.done >= self.total:
            self.sent = now
            self.send((self.call, self.done, self.total))

    def close(self) -> None:
        self.send((self.call, self.done, self.total))


def _with_progress(call: int, fn: Callable, args: tuple) -> Any:
    """In a worker process: ``fn(*args, progress=...)`` reporting through the pool's queue."""
    out = _WORKER.get("progress")
    send = out.put_nowait if out is not None else (lambda message: None)
    return fn(*args, progress=lambda total: _Bar(call, total, send))


class WorkPool:
    """A bounded pool with a time limit (see the module docstring)."""

    def __init__(self, workers: int = 0, time_limit_s: float = 60.0, max_waiting: int = 32):
        self.workers = int(workers)
        self.time_limit_s = float(time_limit_s)
        self.max_waiting = int(max_waiting)
        self._pool = None
        self._slots: asyncio.Semaphore | None = None
        self._limiter: anyio.CapacityLimiter | None = None
        self._progress = None  # the workers' progress queue
        self._drain: threading.Thread | None = None
        self._watchers: dict[int, tuple[asyncio.AbstractEventLoop, Callable[[int, int], None]]] = {}
        self._calls = itertools.count(1)

    def _ready(self) -> None:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.max_waiting)
            self._limiter = anyio.CapacityLimiter(max(1, self.workers or 2))
        if self.workers and self._pool is None:
            import pebble

            context = multiprocessing.get_context("forkserver")
            self._progress = context.Queue()
            self._pool = pebble.ProcessPool(max_workers=self.workers, initializer=_start_worker,
                                            initargs=(self._progress,), context=context)

    def start(self, modules: tuple[str, ...] = (), warm: Callable[[], Any] | None = None) -> None:
        """Start the worker processes now and have each import ``modules`` and call
        ``warm`` (a module-level function: load compiled kernels, say), so the first
        long calculation does not wait for a worker to start and load the engine."""
        if not self.workers:
            return
        self._ready()
        for _ in range(self.workers):
            self._pool.schedule(_load, args=(tuple(modules), warm), timeout=self.time_limit_s)

    def _report(self, message: tuple) -> None:
        """One progress figure ``(call, done, total)``: to its watcher, on its loop."""
        call, done, total = message
        watcher = self._watchers.get(call)
        if watcher is not None:
            loop, callback = watcher
            loop.call_soon_threadsafe(callback, done, total)

    def _drain_progress(self) -> None:
        """The thread that reads the workers' progress queue until the pool closes."""
        while self._progress is not None:
            try:
                message = self._progress.get(timeout=0.5)
            except (queues.Empty, OSError, EOFError, ValueError):
                continue
            self._report(message)

    async def run(self, fn: Callable, *args: Any, time_limit_s: float | None = None,
                  progress: Callable[[int, int], None] | None = None) -> Any:
        """``fn(*args)`` in the pool (with ``progress``: ``fn(*args, progress=factory)``,
        and ``progress(done, total)`` called on this loop as it advances). Raises
        :class:`Busy` when ``max_waiting`` calls are already waiting or running, or when
        it takes longer than the time limit."""
        self._ready()
        limit = self.time_limit_s if time_limit_s is None else float(time_limit_s)
        if self._slots.locked():
            raise Busy("the server is busy with other long calculations: try again in a moment")
        call = next(self._calls)
        if progress is not None:
            self._watchers[call] = (asyncio.get_running_loop(), progress)
        try:
            async with self._slots:
                return await self._run(call, fn, args, limit, progress is not None)
        finally:
            self._watchers.pop(call, None)

    async def _run(self, call: int, fn: Callable, args: tuple, limit: float, reports: bool) -> Any:
        if reports and self._pool is not None:
            if self._drain is None:
                self._drain = threading.Thread(target=self._drain_progress, name="furball-progress", daemon=True)
                self._drain.start()
            fn, args = _with_progress, (call, fn, args)
        elif reports:
            fn = self._in_thread(call, fn)
        if self._pool is not None:
            future = self._pool.schedule(fn, args=args, timeout=limit)
            try:
                return await asyncio.wrap_future(future)
            except concurrent.futures.TimeoutError:
                raise Busy(f"the calculation took longer than {limit:g} s and was stopped") from None
            except asyncio.CancelledError:
                future.cancel()
                raise
        try:
            with anyio.fail_after(limit):
                return await anyio.to_thread.run_sync(fn, *args, limiter=self._limiter, abandon_on_cancel=True)
        except TimeoutError:
            raise Busy(f"the calculation took longer than {limit:g} s") from None

    def _in_thread(self, call: int, fn: Callable) -> Callable:
        """``fn`` with a progress factory reporting straight to the call's watcher."""
        def run(*args):
            return fn(*args, progress=lambda total: _Bar(call, total, self._report))
        return run

    def close(self) -> None:
        """Stop the worker processes (pending calls are cancelled)."""
        if self._pool is not None:
            self._pool.stop()
            self._pool.join(timeout=5)
            self._pool = None
        if self._progress is not None:
            q, self._progress = self._progress, None
            if self._drain is not None:
                self._drain.join(timeout=2)
                self._drain = None
            q.close()
