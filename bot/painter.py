"""Where board pictures are drawn: worker processes, so rendering uses every core and never
holds the bot's GIL (one while the bot is quiet, more under load); or a thread (tests, tiny
bots).

Drawing is CPU work in Pillow and FreeType that holds the GIL for most of its time, so
threads of the bot's own process share one core with the event loop. Worker processes draw
in parallel and hand back PNG bytes over a socket the event loop reads itself
(`bot.worker_process`); each draws one board of every game when it starts, so no player
waits for a game's palette to be chosen.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import itertools
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import BrokenExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, TypeVar

from bot.worker_process import WorkerProcess
from engines import GAMES
from i18n import current_language
from renderers import render
from renderers.animation import MAX_WIDTH, FittedAnimation, fitting_animation
from renderers.chart import RatingChartView, render_rating_chart
from renderers.encoding import adopt_palettes, chosen_palettes

View = Mapping[str, object]

Picture = tuple[View, str | None]
"""A view and the move to highlight on it."""

T = TypeVar("T")

log = logging.getLogger(__name__)


class Painter(Protocol):
    """Draws pictures of game views away from the event loop."""

    async def paint(self, view: View, highlight: str | None, *, preview: bool = False,
                    names: Sequence[str] | None = None) -> bytes:
        """PNG bytes of `view` (see `renderers.render`)."""
        ...

    async def replay(self, pictures: Sequence[Picture], captions: Sequence[str],
                     names: Sequence[str], *, limit: int) -> FittedAnimation:
        """The GIF of `pictures` (view and highlight), each over its caption, in at most
        `limit` bytes (see `draw_replay`)."""
        ...

    async def chart(self, view: RatingChartView) -> bytes:
        """PNG bytes of a member's rating chart (see `renderers.chart`)."""
        ...

    def close(self) -> None:
        """Stop the workers."""
        ...


RELEASE_EVERY = 100
"""Pictures a worker draws between two hand-backs of freed memory to the system: glibc keeps
the heap pages a picture freed, so a worker would otherwise stay at its busiest size (a
hand-back takes well under a millisecond)."""


def release_memory() -> None:
    """Give the heap pages freed so far back to the system (glibc's malloc_trim; a no-op
    where the C library has none)."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        return


Palettes = Mapping[str, bytes]
"""The games' PNG palettes one worker chose, handed to the next (see `chosen_palettes`)."""


def warm_up(palettes: Palettes | None = None) -> None:
    """Take the palettes another worker chose, if given; draw one board of every game (a
    worker's first picture of a game otherwise chooses its palette, which takes far longer
    than a board), then let the references' memory go, and freeze what is left (the
    worker's modules and caches, some 50,000 objects) out of the garbage collector's way:
    each full collection walked them all, 11-17 ms with a board waiting."""
    if palettes is not None:
        adopt_palettes(palettes)
    for game in GAMES.values():
        render(game.new_state(game.min_players).view(None))
    release_memory()
    gc.freeze()


_drawn = itertools.count(1)


def draw(view: View, highlight: str | None, *, preview: bool, names: list[str] | None,
         language: str) -> bytes:
    """A worker's picture (`renderers.render`); every RELEASE_EVERY pictures, freed memory
    goes back to the system."""
    png = render(view, highlight, preview=preview, names=names, language=language)
    if next(_drawn) % RELEASE_EVERY == 0:
        release_memory()
    return png


def draw_replay(pictures: Sequence[Picture], captions: Sequence[str], names: Sequence[str],
                *, limit: int | None, language: str, max_width: int = MAX_WIDTH,
                max_frames: int | None = None) -> FittedAnimation:
    """A replay GIF: every picture drawn in `language`, then animated to fit `limit` bytes
    (`renderers.animation.fitting_animation`); the memory its frames took goes back to the
    system at once."""
    frames = [render(view, highlight, names=names, language=language)
              for view, highlight in pictures]
    gif = fitting_animation(frames, captions, limit=limit, max_width=max_width,
                            max_frames=max_frames)
    del frames  # before the hand-back, so that their memory goes back too
    release_memory()
    return gif


BUSY_AT = 2
"""Pictures in hand at every running worker before one more worker starts (up to the most
allowed): one worker draws a quiet bot's boards; a burst brings in the other cores."""

IDLE_WORKER_SECONDS = 120.0
"""An extra worker with nothing to draw for this long stops, and its memory (over 100 MiB of
caches) goes back to the system; the first worker always stays."""


class RenderWorker(Protocol):
    """Where pictures are drawn: a worker process (`WorkerProcess`), or a stand-in in tests."""

    def submit(self, job: Callable[[], T]) -> asyncio.Future[T]:
        """Run `job` there; the future of its result (BrokenExecutor once the worker died)."""
        ...

    def pids(self) -> list[int]:
        """Its process ids, if any (for benchmarks and tests)."""
        ...

    def shutdown(self) -> None:
        """Stop it; the jobs still waiting are cancelled."""
        ...


def spawn_worker(palettes: Palettes | None) -> RenderWorker:
    """One warmed-up worker process, given the palettes an earlier worker chose if any."""
    return WorkerProcess(warm_up, (palettes,))


def _probe(pool: RenderWorker, job: Callable[[], T]) -> asyncio.Future[T]:
    """`job` handed to `pool` to learn something of it later, if it is still there: what
    came of it is read only when done, so a worker dying first is no error to report."""
    future = pool.submit(job)
    future.add_done_callback(_settled)
    return future


def _settled(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()  # read: a probe's failure is expected, not to be logged


@dataclass
class Worker:
    """A worker process and what it has in hand."""

    pool: RenderWorker
    ready: asyncio.Future[object]
    """Done once the worker has started and warmed up."""
    jobs: int = 0
    """Pictures given to it and not yet back (a replay counts as BUSY_AT)."""
    replays: int = 0
    """Replays given to it and not yet back: each takes seconds."""
    last_used: float = 0.0
    """When it last finished a picture (or started), on the painter's clock."""


class ProcessPainter:
    """Pictures drawn in worker processes, as many as the load needs up to `workers`.

    One worker runs at all times. Pictures go to the first worker with fewer than BUSY_AT in
    hand; when every running worker has that many, one more starts (it takes pictures once
    warmed up). An extra worker left idle for IDLE_WORKER_SECONDS stops. A quiet bot so keeps
    one worker's memory, and a busy one uses every core. Made in a running event loop, whose
    futures its pictures are.
    """

    def __init__(self, workers: int, *, busy_at: int = BUSY_AT,
                 idle_after: float = IDLE_WORKER_SECONDS,
                 clock: Callable[[], float] = time.monotonic,
                 start_worker: Callable[[Palettes | None], RenderWorker] = spawn_worker) -> None:
        self.most = max(1, workers)
        self.busy_at = busy_at
        self.idle_after = idle_after
        self._clock = clock
        self._start_worker = start_worker
        self._palettes: asyncio.Future[dict[str, bytes]] | None = None
        """The palettes the first worker chose, asked for once it warmed up."""
        self._workers = [self._start()]

    def _start(self) -> Worker:
        """Start a worker. One started later takes the palettes an earlier one chose, and is
        ready in about a third of the time (under a second instead of over one): the wait a
        burst from a quiet spell sees."""
        asked = self._palettes
        palettes = (asked.result() if asked is not None and asked.done()
                    and not asked.cancelled() and asked.exception() is None else None)
        pool = self._start_worker(palettes)
        worker = Worker(pool, _probe(pool, int), last_used=self._clock())
        if palettes is None and (asked is None or asked.done()):
            self._palettes = _probe(pool, chosen_palettes)  # runs once it warmed up
        return worker

    @property
    def workers(self) -> int:
        """Workers running now."""
        return len(self._workers)

    def pids(self) -> list[int]:
        """The worker processes' ids (for benchmarks)."""
        return [pid for worker in self._workers for pid in worker.pool.pids()]

    def _choose(self) -> Worker:
        """The first warmed-up worker that is not busy, so that extra workers fall idle when
        the load drops (and stop); when all are busy, the least busy one, and another worker
        starts if room is left. A worker making a replay is busy for seconds: while every
        warmed-up worker makes one, a starting worker (ready within a second or so) is
        sooner."""
        now = self._clock()
        for worker in self._workers[1:]:
            if worker.jobs == 0 and now - worker.last_used > self.idle_after:
                self._workers.remove(worker)
                worker.pool.shutdown()
        ready = [worker for worker in self._workers if worker.ready.done()] \
            or self._workers[:1]  # the first takes pictures while it warms up (they wait)
        for worker in ready:
            if worker.jobs < self.busy_at:
                return worker
        starting = [worker for worker in self._workers if not worker.ready.done()]
        if not starting and len(self._workers) < self.most:
            starting.append(self._start())
            self._workers.append(starting[-1])
        drawing = [worker for worker in ready if not worker.replays]
        if not drawing and starting:
            return starting[0]
        return min(drawing or ready, key=lambda worker: worker.jobs)

    async def paint(self, view: View, highlight: str | None, *, preview: bool = False,
                    names: Sequence[str] | None = None) -> bytes:
        """Draw in a worker process (plain data in, bytes out), in the current language."""
        return await self._run(partial(draw, dict(view), highlight, preview=preview,
                                       names=None if names is None else list(names),
                                       language=current_language().value))

    async def replay(self, pictures: Sequence[Picture], captions: Sequence[str],
                     names: Sequence[str], *, limit: int) -> FittedAnimation:
        """Make the GIF in a worker, counted as a full hand (BUSY_AT pictures): it takes
        seconds, so boards go to another worker meanwhile, started if need be (see
        `_choose`)."""
        return await self._run(partial(draw_replay, [(dict(view), highlight)
                                                     for view, highlight in pictures],
                                       list(captions), list(names), limit=limit,
                                       language=current_language().value), replay=True)

    async def chart(self, view: RatingChartView) -> bytes:
        """Draw a rating chart in a worker process, as a board is."""
        return await self._run(partial(render_rating_chart, view))

    async def _run(self, job: Callable[[], T], *, replay: bool = False) -> T:
        """Hand `job` to a worker; if the worker died (killed, out of memory), replace it and
        hand the job to the new one."""
        worker = self._choose()
        try:
            return await self._run_on(worker, job, replay)
        except BrokenExecutor:
            log.warning("a render worker died; starting another")
            return await self._run_on(self._replace(worker), job, replay)

    async def _run_on(self, worker: Worker, job: Callable[[], T], replay: bool) -> T:
        """Hand `job` to `worker`, counting it in hand meanwhile."""
        weight = self.busy_at if replay else 1
        worker.jobs += weight
        worker.replays += replay
        try:
            return await worker.pool.submit(job)
        finally:
            worker.jobs -= weight
            worker.replays -= replay
            worker.last_used = self._clock()

    def _replace(self, dead: Worker) -> Worker:
        """A new worker in a dead one's place (the first stays first)."""
        fresh = self._start()
        index = self._workers.index(dead) if dead in self._workers else len(self._workers)
        self._workers[index:index + 1] = [fresh]
        dead.pool.shutdown()
        return fresh

    def close(self) -> None:
        """Stop the workers without waiting for pictures nobody will see."""
        for worker in self._workers:
            worker.pool.shutdown()


class ThreadPainter:
    """Pictures drawn in a thread of the bot's process (they share its core)."""

    async def paint(self, view: View, highlight: str | None, *, preview: bool = False,
                    names: Sequence[str] | None = None) -> bytes:
        """Draw in a thread, in the current language."""
        return await asyncio.to_thread(render, view, highlight, preview=preview, names=names,
                                       language=current_language().value)

    async def replay(self, pictures: Sequence[Picture], captions: Sequence[str],
                     names: Sequence[str], *, limit: int) -> FittedAnimation:
        """Make the GIF in a thread, in the current language."""
        return await asyncio.to_thread(draw_replay, pictures, captions, names, limit=limit,
                                       language=current_language().value)

    async def chart(self, view: RatingChartView) -> bytes:
        """Draw a rating chart in a thread."""
        return await asyncio.to_thread(render_rating_chart, view)

    def close(self) -> None:
        """Nothing to stop."""
