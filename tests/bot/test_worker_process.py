"""A worker process run from the event loop gives back each job's result, or its error, and
never leaves a job waiting for ever when the process dies."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from functools import partial

import pytest

from bot.worker_process import READ_SIZE, WorkerDied, WorkerProcess


class Unpicklable(Exception):
    """An error carrying something that cannot cross to another process."""

    def __init__(self) -> None:
        super().__init__("holds a lock")
        self.lock = threading.Lock()


def raise_unpicklable() -> None:
    """A job failing with an error that pickle refuses."""
    raise Unpicklable


def sleep_then(seconds: float, value: int) -> int:
    """A job that takes `seconds`, then gives `value`."""
    time.sleep(seconds)
    return value


async def test_jobs_come_back_in_order_with_their_results() -> None:
    worker = WorkerProcess()
    try:
        results = await asyncio.gather(*(worker.submit(partial(pow, n, 2)) for n in range(20)))
    finally:
        worker.shutdown()
    assert results == [n * n for n in range(20)]


async def test_a_result_larger_than_one_read_arrives_whole() -> None:
    worker = WorkerProcess()
    try:
        big = await worker.submit(partial(bytes, 3 * READ_SIZE + 5))
        after = await worker.submit(partial(str, "next"))
    finally:
        worker.shutdown()
    assert big == bytes(3 * READ_SIZE + 5) and after == "next"


async def test_a_job_too_big_for_the_socket_waits_without_blocking_the_loop_and_arrives_whole(
) -> None:
    worker = WorkerProcess()
    try:
        busy = worker.submit(partial(sleep_then, 0.3, 1))  # the worker reads nothing meanwhile
        big = worker.submit(partial(len, bytes(8 * READ_SIZE)))
        ticks = 0
        while not busy.done():  # the loop stays free while the job waits to be sent
            await asyncio.sleep(0.01)
            ticks += 1
        assert await busy == 1 and await big == 8 * READ_SIZE
        assert ticks >= 10
    finally:
        worker.shutdown()


async def test_a_jobs_error_is_raised_where_it_was_awaited_and_the_worker_goes_on() -> None:
    worker = WorkerProcess()
    try:
        with pytest.raises(ValueError, match="invalid literal"):
            await worker.submit(partial(int, "not a number"))
        with pytest.raises(RuntimeError, match="Unpicklable: holds a lock"):
            await worker.submit(raise_unpicklable)
        assert await worker.submit(partial(int, "7")) == 7
    finally:
        worker.shutdown()


class OnlyHere:
    """A job that cannot be rebuilt in the worker."""

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return (_missing, ())

    def __call__(self) -> int:
        return 1


def _missing() -> None:
    """What unpickling an `OnlyHere` calls in the worker: it fails there."""
    raise RuntimeError("cannot be rebuilt in the worker")


async def test_a_job_the_worker_cannot_read_is_an_error_and_the_worker_goes_on() -> None:
    worker = WorkerProcess()
    try:
        with pytest.raises(RuntimeError, match="cannot be rebuilt"):
            await worker.submit(OnlyHere())
        assert await worker.submit(partial(int, "8")) == 8
    finally:
        worker.shutdown()


class ReadOnlyThere:
    """An answer the bot cannot rebuild from what the worker sends."""

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return (_missing, ())


def answer_unreadable_here() -> ReadOnlyThere:
    """A job whose answer fails to unpickle in the bot."""
    return ReadOnlyThere()


async def test_an_answer_the_bot_cannot_read_is_that_jobs_error_and_the_next_jobs_come_back(
) -> None:
    worker = WorkerProcess()
    try:
        unreadable = worker.submit(answer_unreadable_here)
        after = worker.submit(partial(int, "9"))
        with pytest.raises(RuntimeError, match="answer is unreadable"):
            await asyncio.wait_for(unreadable, 5)
        assert await asyncio.wait_for(after, 5) == 9
    finally:
        worker.shutdown()


async def test_a_killed_worker_fails_its_waiting_jobs_instead_of_leaving_them_hanging() -> None:
    worker = WorkerProcess()
    try:
        await worker.submit(int)  # started
        waiting = [worker.submit(partial(sleep_then, 5, n)) for n in range(3)]
        [pid] = worker.pids()
        os.kill(pid, signal.SIGKILL)
        for job in waiting:
            with pytest.raises(WorkerDied):
                await asyncio.wait_for(job, 5)
        assert worker.pids() == []
        with pytest.raises(WorkerDied):
            worker.submit(int)
    finally:
        worker.shutdown()


async def test_a_shut_down_worker_cancels_its_waiting_jobs_and_its_process_ends() -> None:
    worker = WorkerProcess()
    await worker.submit(int)
    job = worker.submit(partial(sleep_then, 0.2, 1))
    worker.shutdown()
    assert job.cancelled()
    worker.process.join(5)
    assert worker.process.exitcode == 0, "the process saw the socket close and ended"
