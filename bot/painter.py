"""Where board pictures are drawn: a pool of worker processes, so rendering uses every core
and never holds the bot's GIL; or a thread (tests, tiny bots).

Drawing is CPU work in Pillow and FreeType that holds the GIL for most of its time, so
threads of the bot's own process share one core with the event loop. Worker processes draw
in parallel and hand back PNG bytes; each draws one board of every game when it starts, so
no player waits for a game's palette to be chosen.
"""

from __future__ import annotations

import asyncio
import ctypes
import itertools
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from multiprocessing import get_context
from typing import Protocol

from engines import GAMES
from i18n import current_language
from renderers import render

View = Mapping[str, object]


class Painter(Protocol):
    """Draws pictures of game views away from the event loop."""

    async def paint(self, view: View, highlight: str | None, *, preview: bool = False,
                    names: Sequence[str] | None = None) -> bytes:
        """PNG bytes of `view` (see `renderers.render`)."""
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


def warm_up() -> None:
    """Draw one board of every game (a worker's first picture of a game chooses its
    palette, which takes far longer than a board), then let the references' memory go."""
    for game in GAMES.values():
        render(game.new_state(game.min_players).view(None))
    release_memory()


_drawn = itertools.count(1)


def draw(view: View, highlight: str | None, *, preview: bool, names: list[str] | None,
         language: str) -> bytes:
    """A worker's picture (`renderers.render`); every RELEASE_EVERY pictures, freed memory
    goes back to the system."""
    png = render(view, highlight, preview=preview, names=names, language=language)
    if next(_drawn) % RELEASE_EVERY == 0:
        release_memory()
    return png


class ProcessPainter:
    """Pictures drawn in a pool of worker processes."""

    def __init__(self, workers: int) -> None:
        # spawn, not fork: the bot's process has threads (SQLite) a fork would copy mid-call.
        self._pool = ProcessPoolExecutor(max(1, workers), mp_context=get_context("spawn"),
                                         initializer=warm_up)
        for _ in range(max(1, workers)):  # start every worker now, not at the first boards
            self._pool.submit(int)

    async def paint(self, view: View, highlight: str | None, *, preview: bool = False,
                    names: Sequence[str] | None = None) -> bytes:
        """Draw in a worker process (plain data in, bytes out), in the current language."""
        loop = asyncio.get_running_loop()
        job = partial(draw, dict(view), highlight, preview=preview,
                      names=None if names is None else list(names),
                      language=current_language().value)
        return await loop.run_in_executor(self._pool, job)

    def close(self) -> None:
        """Stop the workers without waiting for pictures nobody will see."""
        self._pool.shutdown(wait=False, cancel_futures=True)


class ThreadPainter:
    """Pictures drawn in a thread of the bot's process (they share its core)."""

    async def paint(self, view: View, highlight: str | None, *, preview: bool = False,
                    names: Sequence[str] | None = None) -> bytes:
        """Draw in a thread, in the current language."""
        return await asyncio.to_thread(render, view, highlight, preview=preview, names=names,
                                       language=current_language().value)

    def close(self) -> None:
        """Nothing to stop."""
