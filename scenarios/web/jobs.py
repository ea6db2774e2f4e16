"""Long calculations a room's seat asks for (the dogfight's Best plans), followed while they
run: one :class:`Job` per request, its progress and, once done, its answer or its
one-line refusal.

A job belongs to the room and the seat that started it: only that seat's key reads it
(the answer is made from what that seat sees, and is its own). **One job per seat**:
asking again while the seat's job runs returns that job (nothing new starts); asking
once it has finished replaces it (the finished one is forgotten). At most ``most`` jobs
*run* at once (one more is refused: :class:`~.hub.Busy`); finished jobs do not count
against that cap: they are kept for their seat to read, at most ``keep_s`` seconds and
at most ``most_kept`` of them (the oldest forgotten first). Ids carry 96 random bits.
The work itself runs in the server's bounded pool (:class:`~.pool.WorkPool`).
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

    def __init__(self, most: int = 256, keep_s: float = 300.0, most_kept: int = 4096):
        self.most, self.keep_s, self.most_kept = int(most), float(keep_s), int(most_kept)
        self._jobs: dict[str, Job] = {}
        self._seats: dict[tuple[str, int], Job] = {}  # each seat's one job

    @property
    def running(self) -> int:
        """How many jobs are running now."""
        return sum(1 for j in self._jobs.values() if j.finished is None)

    def _forget(self, job: Job) -> None:
        self._jobs.pop(job.id, None)
        if self._seats.get((job.room, job.seat)) is job:
            del self._seats[(job.room, job.seat)]

    def _forget_old(self) -> None:
        now = time.monotonic()
        finished = sorted((j for j in self._jobs.values() if j.finished is not None), key=lambda j: j.finished)
        surplus = len(finished) - self.most_kept
        for k, job in enumerate(finished):
            if k < surplus or now - job.finished > self.keep_s:
                self._forget(job)

    def start(self, room: str, seat: int, work: Callable[[Callable[[int, int], None]], Awaitable[Any]],
              status_of: Callable[[InputError], int]) -> Job:
        """A new job for ``seat`` of ``room`` running ``work(progress)`` (a coroutine
        function given the job's progress callback), or the seat's job still running
        (one job per seat; a finished one is replaced). Raises :class:`Busy` when
        ``most`` jobs are running."""
        self._forget_old()
        old = self._seats.get((room, seat))
        if old is not None and old.finished is None:
            return old
        if self.running >= self.most:
            raise Busy("the server is busy with other long calculations: try again in a moment")
        if old is not None:
            self._forget(old)
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

        self._jobs[job.id] = self._seats[(room, seat)] = job
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
