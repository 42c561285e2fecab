"""A worker process driven straight from the event loop: jobs go down a socket, their results
come back up it, with no thread in between.

`concurrent.futures.ProcessPoolExecutor` hands each job through a manager thread and a
queue-feeder thread, and each result back through the manager thread and a wake-up of the
event loop: measured on a board, 0.84 ms of the bot's CPU a picture, where this takes 0.3 ms.
At 150 moves a second that is a twelfth of a core. Here the event loop writes each job
(a picklable callable) to the worker's socket without blocking and reads the results as they
come (the worker runs its jobs one at a time, in order, so the first result is the first
job's).
"""

from __future__ import annotations

import asyncio
import pickle
import socket
import struct
from collections import deque
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from multiprocessing import get_context
from typing import Any, TypeVar

T = TypeVar("T")

HEADER = struct.Struct(">I")
"""Each message is its length, then the pickled job or result."""

READ_SIZE = 1 << 18
"""Bytes read from a worker at a time, into a buffer kept for it: a board's PNG comes in one
read, a replay in a few. (Reading into a new buffer each time costs more than the copy: a
big one is mapped afresh and shrunk.)"""


class WorkerDied(BrokenExecutor):
    """The worker process stopped (killed, out of memory) or was shut down: its jobs are lost."""


def serve(connection: socket.socket, initializer: Callable[..., object],
          initargs: tuple[Any, ...]) -> None:
    """The worker's side: run `initializer`, then each job read, sending back its result (or
    the exception it raised) until the bot closes the socket."""
    initializer(*initargs)
    with connection:
        while True:
            try:
                message = _read_message(connection)
            except EOFError:
                return  # the bot shut the worker down
            try:  # a job that cannot be read, or fails, is an error for whoever asked
                job = pickle.loads(message)
                reply = pickle.dumps((True, job()), pickle.HIGHEST_PROTOCOL)
            except Exception as error:
                reply = pickle.dumps((False, _picklable(error)), pickle.HIGHEST_PROTOCOL)
            try:
                connection.sendall(HEADER.pack(len(reply)) + reply)
            except OSError:
                return  # the bot went away meanwhile


def _picklable(error: Exception) -> Exception:
    """`error` itself if it survives pickling, else a RuntimeError saying what it was."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error


def _read_message(connection: socket.socket) -> bytes:
    """One whole message from a blocking socket; EOFError when it is closed."""
    size, = HEADER.unpack(_read_exactly(connection, HEADER.size))
    return _read_exactly(connection, size)


def _read_exactly(connection: socket.socket, size: int) -> bytes:
    buffer = bytearray(size)
    view, got = memoryview(buffer), 0
    while got < size:
        count = connection.recv_into(view[got:])
        if not count:
            raise EOFError
        got += count
    return bytes(buffer)


class WorkerProcess:
    """One spawned worker process running jobs for the event loop that started it.

    Spawned, not forked: the bot's process has threads (SQLite's) that a fork would copy
    mid-call. Must be made in a running event loop; its results are that loop's futures.
    """

    def __init__(self, initializer: Callable[..., object] = int,
                 initargs: tuple[Any, ...] = ()) -> None:
        """Start the process; it runs `initializer(*initargs)` before its first job."""
        self._loop = asyncio.get_running_loop()
        mine, theirs = socket.socketpair()
        self.process = get_context("spawn").Process(
            target=serve, args=(theirs, initializer, initargs), daemon=True)
        self.process.start()
        theirs.close()
        mine.setblocking(False)
        self._socket: socket.socket | None = mine
        self._waiting: deque[asyncio.Future[Any]] = deque()
        self._inbox = bytearray()
        self._buffer = memoryview(bytearray(READ_SIZE))
        self._outbox = bytearray()
        self._writing = False
        self._loop.add_reader(mine.fileno(), self._readable)

    def pids(self) -> list[int]:
        """The worker's process id, while it runs."""
        pid = self.process.pid
        return [pid] if pid is not None and self._socket is not None else []

    def submit(self, job: Callable[[], T]) -> asyncio.Future[T]:
        """Hand `job` (a picklable callable) to the worker; the future of its result.

        Raises WorkerDied when the worker is gone already.
        """
        if self._socket is None:
            raise WorkerDied("the worker process has stopped")
        message = pickle.dumps(job, pickle.HIGHEST_PROTOCOL)
        future: asyncio.Future[T] = self._loop.create_future()
        self._waiting.append(future)
        self._outbox += HEADER.pack(len(message))
        self._outbox += message
        self._write()
        return future

    def _write(self) -> None:
        """Send what the socket takes now; wait to be writable for the rest (a worker busy
        drawing reads its next job only once it is done)."""
        connection = self._socket
        if connection is None:
            return
        try:
            sent = connection.send(self._outbox)
        except BlockingIOError:
            sent = 0
        except OSError:
            self._stop(WorkerDied("the worker process stopped"))
            return
        del self._outbox[:sent]
        if self._outbox and not self._writing:
            self._loop.add_writer(connection.fileno(), self._write)
            self._writing = True
        elif not self._outbox and self._writing:
            self._loop.remove_writer(connection.fileno())
            self._writing = False

    def _readable(self) -> None:
        """Take what the worker sent; settle the future of every whole result in it."""
        connection = self._socket
        if connection is None:
            return
        try:
            count = connection.recv_into(self._buffer)
        except BlockingIOError:
            return
        except OSError:
            count = 0
        if not count:
            self._stop(WorkerDied("the worker process stopped"))
            return
        inbox = self._inbox
        inbox += self._buffer[:count]
        while len(inbox) >= HEADER.size:
            size, = HEADER.unpack_from(inbox)
            end = HEADER.size + size
            if len(inbox) < end:
                break
            answer = inbox[HEADER.size:end]
            del inbox[:end]
            future = self._waiting.popleft()
            try:
                succeeded, value = pickle.loads(answer)
            except Exception as error:  # the asker's error, not the event loop's
                succeeded, value = False, RuntimeError(f"the worker's answer is unreadable: "
                                                       f"{type(error).__name__}: {error}")
            if future.cancelled():
                continue
            if succeeded:
                future.set_result(value)
            else:
                future.set_exception(value)

    def _stop(self, error: BaseException | None) -> None:
        """Close the socket (the worker then ends) and fail the jobs still waiting with
        `error` (None: cancel them)."""
        connection, self._socket = self._socket, None
        if connection is not None:
            self._loop.remove_reader(connection.fileno())
            if self._writing:
                self._loop.remove_writer(connection.fileno())
            connection.close()
        while self._waiting:
            future = self._waiting.popleft()
            if future.done():
                continue
            if error is None:
                future.cancel()
            else:
                future.set_exception(error)

    def shutdown(self) -> None:
        """Stop the worker: the job it is running ends unseen, those waiting are cancelled."""
        self._stop(None)


__all__ = ["WorkerDied", "WorkerProcess", "serve"]
