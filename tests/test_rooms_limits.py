"""Issue #35 items 5-7: the room server's limits, so that one client cannot starve the
others: a seat's long calculations (one job per seat; finished jobs do not fill the job
table), room creation (a rate and a cap on open rooms per client, expiry, the owner's
delete) and bots (their own pool, fair between rooms, people first, a timed-out decision
retried). Bounded counts on loopback, no timed assertion beyond generous bounds (the
figures: benchmarks/bench_rooms.py, docs/performance.md)."""
import asyncio

import pytest

from furball.scenarios.web.hub import Busy
from furball.scenarios.web.jobs import Jobs


def _status(exc):
    return 503


async def _answer(progress):
    return "plans"


def test_jobs_finished_ones_do_not_fill_the_table():
    """One seat asking again and again (each answered at once) leaves room for others."""
    async def main():
        jobs = Jobs(most=4)
        for _ in range(50):
            job = jobs.start("room-a", 0, _answer, _status)
            await job.task
        other = jobs.start("room-b", 1, _answer, _status)
        await other.task
        return other.result, len(jobs._jobs)
    assert asyncio.run(main()) == ("plans", 2)  # one kept job per seat


def test_jobs_one_per_seat_and_the_cap_counts_running_jobs():
    async def main():
        gate = asyncio.Event()

        async def slow(progress):
            await gate.wait()
            return "plans"
        jobs = Jobs(most=2)
        first = jobs.start("room-a", 0, slow, _status)
        again = jobs.start("room-a", 0, slow, _status)
        second = jobs.start("room-a", 1, slow, _status)
        with pytest.raises(Busy):
            jobs.start("room-b", 0, slow, _status)
        gate.set()
        await asyncio.gather(first.task, second.task)
        third = jobs.start("room-b", 0, _answer, _status)  # the finished ones free their places
        await third.task
        replaced = jobs.start("room-a", 0, _answer, _status)  # a finished job is replaced
        await replaced.task
        return again is first, replaced is not first, third.result, jobs.running
    assert asyncio.run(main()) == (True, True, "plans", 0)


def test_jobs_finished_ones_are_bounded():
    async def main():
        jobs = Jobs(most=4, most_kept=10)
        for seat in range(30):
            await jobs.start("room-a", seat, _answer, _status).task
        jobs.start("room-b", 0, _answer, _status)
        return len(jobs._jobs)
    assert asyncio.run(main()) <= 11
