"""Long calculations a room's seat asks for (the dogfight's Best plans), followed while they
run: one :class:`Job` per request, its progress and, once done, its answer or its
one-line refusal.

A job belongs to the room and the seat that started it: only that seat's key reads it
(the answer is made from what that seat sees, and is its own). A seat has at most one job
running (asking again while it runs returns the same job); :class:`Jobs` keeps at most
``most`` jobs and forgets finished ones after ``keep_s`` seconds. Ids carry 96 random
bits. The work itself runs in the server's bounded pool (:class:`~.pool.WorkPool`).
"""
from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from furball.errors import InputError

from .hub import Busy, NotFound

__all__ = ["Job", "Jobs"]


@dataclass(eq=False)
class Job:
    """A calculation for ``seat`` of ``room``: ``done`` of ``total`` steps so far,
    then its ``result`` or ``error`` (one line) and its HTTP ``status``."""

    id: str
    room: str
    seat: int
    done: int = 0
    total: int = 0
    result: Any = None
    error: str | None = None
    status: int = 200
    finished: float | None = None
    started: float = field(default_factory=time.monotonic)
    task: asyncio.Task | None = field(default=None, repr=False)

    def progress(self, done: int, total: int) -> None:
        self.done, self.total = int(done), int(total)

    def as_json(self) -> dict:
        """``state`` (``running``, ``done`` or ``failed``), ``done``, ``total``,
        ``seconds`` so far, and ``result`` or ``error``."""
        state = "running" if self.finished is None else ("failed" if self.error else "done")
        out = {"job": self.id, "state": state, "done": self.done, "total": self.total,
               "seconds": round((self.finished or time.monotonic()) - self.started, 2)}
        if state == "done":
            out["result"] = self.result
        elif state == "failed":
            out.update(error=self.error, status=self.status)
        return out


class Jobs:
    """The jobs of one server process (see the module docstring)."""

    def __init__(self, most: int = 256, keep_s: float = 300.0):
        self.most, self.keep_s = int(most), float(keep_s)
        self._jobs: dict[str, Job] = {}

    def _forget_old(self) -> None:
        now = time.monotonic()
        for key in [k for k, j in self._jobs.items() if j.finished is not None and now - j.finished > self.keep_s]:
            del self._jobs[key]

    def start(self, room: str, seat: int, work: Callable[[Callable[[int, int], None]], Awaitable[Any]],
              status_of: Callable[[InputError], int]) -> Job:
        """A new job for ``seat`` of ``room`` running ``work(progress)`` (a coroutine
        function given the job's progress callback), or the seat's job still running.
        Raises :class:`Busy` when too many jobs are kept."""
        self._forget_old()
        for job in self._jobs.values():
            if job.room == room and job.seat == seat and job.finished is None:
                return job
        if len(self._jobs) >= self.most:
            raise Busy("the server is busy with other long calculations: try again in a moment")
        job = Job(secrets.token_urlsafe(12), room, seat)

        async def run():
            try:
                job.result = await work(job.progress)
            except InputError as exc:
                job.error, job.status = " ".join(str(exc).split())[:600], status_of(exc)
            except Exception as exc:  # noqa: BLE001 - a bug: one line for the page, never a traceback
                job.error, job.status = f"the calculation failed ({type(exc).__name__})", 500
            finally:
                job.finished = time.monotonic()

        self._jobs[job.id] = job
        job.task = asyncio.get_running_loop().create_task(run())
        return job

    def get(self, job_id: Any, room: str, seat: int | None) -> Job:
        """The job ``job_id`` of ``room`` started by ``seat``. Raises :class:`NotFound`
        (also for another seat's job: its answer is that seat's own)."""
        self._forget_old()
        job = self._jobs.get(job_id) if isinstance(job_id, str) else None
        if job is None or job.room != room or seat is None or job.seat != seat:
            raise NotFound("no such calculation (it may have been forgotten: ask again)")
        return job

    def close(self) -> None:
        for job in self._jobs.values():
            if job.task is not None and not job.task.done():
                job.task.cancel()
