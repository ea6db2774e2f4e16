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
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
from collections.abc import Callable
from typing import Any

import anyio
import anyio.to_thread

from .hub import Busy

__all__ = ["WorkPool"]


def _load(modules: tuple[str, ...]) -> None:
    """Import ``modules`` in a worker (warming it up before the first real call)."""
    import importlib

    for name in modules:
        importlib.import_module(name)


def _lower_priority() -> None:
    """Worker initializer: run below the server (``nice`` +19) where allowed."""
    try:
        os.nice(19)
    except OSError:  # pragma: no cover - not allowed here: same priority
        pass


class WorkPool:
    """A bounded pool with a time limit (see the module docstring)."""

    def __init__(self, workers: int = 0, time_limit_s: float = 60.0, max_waiting: int = 32):
        self.workers = int(workers)
        self.time_limit_s = float(time_limit_s)
        self.max_waiting = int(max_waiting)
        self._pool = None
        self._slots: asyncio.Semaphore | None = None
        self._limiter: anyio.CapacityLimiter | None = None

    def _ready(self) -> None:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.max_waiting)
            self._limiter = anyio.CapacityLimiter(max(1, self.workers or 2))
        if self.workers and self._pool is None:
            import pebble

            self._pool = pebble.ProcessPool(max_workers=self.workers, initializer=_lower_priority,
                                            context=multiprocessing.get_context("forkserver"))

    def start(self, modules: tuple[str, ...] = ()) -> None:
        """Start the worker processes now and have each import ``modules`` (so the first
        long calculation does not wait for a worker to start and load the engine)."""
        if not self.workers:
            return
        self._ready()
        for _ in range(self.workers):
            self._pool.schedule(_load, args=(tuple(modules),), timeout=self.time_limit_s)

    async def run(self, fn: Callable, *args: Any, time_limit_s: float | None = None) -> Any:
        """``fn(*args)`` in the pool. Raises :class:`Busy` when ``max_waiting`` calls are
        already waiting or running, or when it takes longer than the time limit."""
        self._ready()
        limit = self.time_limit_s if time_limit_s is None else float(time_limit_s)
        if self._slots.locked():
            raise Busy("the server is busy with other long calculations: try again in a moment")
        async with self._slots:
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

    def close(self) -> None:
        """Stop the worker processes (pending calls are cancelled)."""
        if self._pool is not None:
            self._pool.stop()
            self._pool.join(timeout=5)
            self._pool = None
