"""Board pictures drawn in worker processes are the pictures the renderers draw."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import partial

from bot import painter as painter_module
from bot.painter import ProcessPainter, ThreadPainter
from bot.replay import fitting_gif, replay_pictures
from engines import GAMES
from i18n import Language, use_language
from renderers import render
from renderers.chart import RatingChartView, render_rating_chart
from tests.renderers.pixels import how_they_differ
from tests.replay_games import random_game
from tests.waiting import eventually


async def test_a_worker_process_draws_the_same_board_and_preview_as_the_renderer() -> None:
    state = GAMES["qawale"].new_state(2)
    move = str(state.legal_moves()[0])
    painter = ProcessPainter(1)
    try:
        board = await painter.paint(state.view(None), None, names=["Alice", "Bob"])
        preview = await painter.paint(state.view(0), move, preview=True, names=["Alice", "Bob"])
    finally:
        painter.close()
    assert board == render(state.view(None), None, names=["Alice", "Bob"])
    assert preview == render(state.view(0), move, preview=True, names=["Alice", "Bob"])
    assert board != preview


async def test_a_rating_chart_is_drawn_in_a_worker_process_as_the_renderer_draws_it() -> None:
    view = RatingChartView(ratings=[0.0, 1.4, 0.9], first="26 Nov 2026", last="27 Nov 2026")
    painter = ProcessPainter(1)
    try:
        assert await painter.chart(view) == render_rating_chart(view)
    finally:
        painter.close()
    assert await ThreadPainter().chart(view) == render_rating_chart(view)


async def test_a_thread_painter_draws_in_the_bots_process() -> None:
    state = GAMES["granat"].new_state(2)
    assert await ThreadPainter().paint(state.view(None), None) == render(state.view(None))


def test_a_worker_hands_freed_memory_back_every_few_pictures_and_draws_the_same(
    monkeypatch,
) -> None:
    released: list[int] = []
    monkeypatch.setattr(painter_module, "RELEASE_EVERY", 3)
    monkeypatch.setattr(painter_module, "release_memory", lambda: released.append(1))
    state = GAMES["graps"].new_state(2)
    pictures = {painter_module.draw(state.view(None), None, preview=False, names=None,
                                    language="en") for _ in range(6)}
    assert pictures == {render(state.view(None))}
    assert len(released) == 2


class ThreadWorker:
    """A thread standing in for a worker process (`bot.painter.RenderWorker`)."""

    def __init__(self) -> None:
        self.executor = ThreadPoolExecutor(1)

    def submit(self, job):
        return asyncio.wrap_future(self.executor.submit(job))

    def pids(self) -> list[int]:
        return []

    def shutdown(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


class Clock:
    """The painter's clock, moved on by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_a_second_worker_starts_when_the_first_is_busy_and_stops_once_idle(
    monkeypatch,
) -> None:
    release = threading.Event()

    def slow_render(*args, **kwargs) -> bytes:
        release.wait(5)
        return b"png"

    monkeypatch.setattr(painter_module, "render", slow_render)
    clock, started = Clock(), []

    def start_worker(palettes) -> ThreadWorker:
        started.append(ThreadWorker())
        return started[-1]

    painter = ProcessPainter(2, busy_at=2, idle_after=60, clock=clock, start_worker=start_worker)
    view = GAMES["qawale"].new_state(2).view(None)
    try:
        assert painter.workers == 1, "a quiet bot runs one worker"
        first = [asyncio.ensure_future(painter.paint(view, None)) for _ in range(2)]
        await asyncio.sleep(0.05)
        assert painter.workers == 1, "two pictures in hand do not call for another yet"
        third = asyncio.ensure_future(painter.paint(view, None))  # the first worker is busy
        await eventually(lambda: painter.workers == 2, "a second worker started")
        fourth = asyncio.ensure_future(painter.paint(view, None))
        await asyncio.sleep(0.05)
        assert painter.workers == 2, "never more than the most allowed"
        release.set()
        assert await asyncio.gather(*first, third, fourth) == [b"png"] * 4

        clock.now += 59
        await painter.paint(view, None)
        assert painter.workers == 2, "the extra worker stays while it may be needed again"
        clock.now += 62
        await painter.paint(view, None)
        assert painter.workers == 1, "an extra worker idle for a while stops"
        assert len(started) == 2
    finally:
        painter.close()


async def test_a_render_worker_that_dies_is_replaced_and_the_picture_still_drawn() -> None:
    state = GAMES["qawale"].new_state(2)
    painter = ProcessPainter(1)
    try:
        first = await painter.paint(state.view(None), None)
        [dead] = painter.pids()
        os.kill(dead, signal.SIGKILL)  # out of memory, say
        await asyncio.sleep(0.2)
        again = await painter.paint(state.view(None), None)
        drawn_here = render(state.view(None))
        assert first == drawn_here, how_they_differ(first, drawn_here)
        assert again == first, how_they_differ(first, again)
        assert painter.workers == 1 and dead not in painter.pids()
    finally:
        painter.close()


async def test_a_replay_gif_is_made_in_a_worker_process_with_the_askers_captions() -> None:
    record, moves = random_game("qawale", 3)
    painter = ProcessPainter(1)
    try:
        with use_language(Language.FR):
            shown = replay_pictures(record, moves)
            made = await painter.replay(shown.pictures, shown.captions, shown.names,
                                        limit=8_000_000)
    finally:
        painter.close()
    with use_language(Language.FR):
        assert made == fitting_gif(record, moves, limit=8_000_000)
    with use_language(Language.EN):
        assert made.data != fitting_gif(record, moves, limit=8_000_000).data  # French captions


async def test_boards_go_to_another_worker_while_one_makes_a_replay(monkeypatch) -> None:
    replaying, release = threading.Event(), threading.Event()

    def slow_gif(*args, **kwargs):
        replaying.set()
        release.wait(5)
        return "gif"

    monkeypatch.setattr(painter_module, "fitting_animation", slow_gif)
    monkeypatch.setattr(painter_module, "render", lambda *args, **kwargs: b"png")
    started: list[ThreadWorker] = []

    def start_worker(palettes) -> ThreadWorker:
        started.append(ThreadWorker())
        return started[-1]

    painter = ProcessPainter(2, busy_at=2, start_worker=start_worker)
    view = GAMES["qawale"].new_state(2).view(None)
    try:
        gif = asyncio.ensure_future(painter.replay([(view, None)], ["Start"], ["Ann", "Bob"],
                                                   limit=1000))
        await asyncio.to_thread(replaying.wait, 5)
        board = await asyncio.wait_for(painter.paint(view, None), 5)
        assert board == b"png", "a board does not wait for the replay"
        assert painter.workers == 2 and not gif.done()
        release.set()
        assert await gif == "gif"
    finally:
        release.set()
        painter.close()


async def test_a_worker_started_later_takes_the_palettes_the_first_chose_and_draws_the_same(
) -> None:
    handed = []

    def start_worker(palettes):
        handed.append(palettes)
        return painter_module.spawn_worker(palettes)

    state = GAMES["granat"].new_state(2)
    painter = ProcessPainter(2, busy_at=1, start_worker=start_worker)
    try:
        await painter.paint(state.view(None), None)
        await asyncio.gather(*(painter.paint(state.view(None), None) for _ in range(3)))
        assert painter.workers == 2
    finally:
        painter.close()
    assert handed[0] is None and set(handed[1]) == set(GAMES), "the first chose, the second took"
    second = painter_module.spawn_worker(handed[1])
    try:
        picture = await second.submit(partial(painter_module.draw, state.view(None), None,
                                              preview=False, names=None, language="en"))
    finally:
        second.shutdown()
    assert picture == render(state.view(None))


async def test_a_worker_starts_even_when_the_palettes_asked_of_another_never_came(
    monkeypatch,
) -> None:
    monkeypatch.setattr(painter_module, "render", lambda *args, **kwargs: b"png")
    hold = threading.Event()
    started: list[ThreadWorker] = []

    def start_worker(palettes) -> ThreadWorker:
        started.append(ThreadWorker())
        if len(started) == 1:
            started[0].executor.submit(hold.wait, 5)  # still warming up when it is stopped
        return started[-1]

    painter = ProcessPainter(2, busy_at=1, start_worker=start_worker)
    try:
        started[0].shutdown()  # its palettes will never come
        hold.set()
        await asyncio.sleep(0.05)
        painter._replace(painter._workers[0])  # as after a dead worker
        assert await painter.paint(GAMES["qawale"].new_state(2).view(None), None) == b"png"
        assert len(started) == 2
    finally:
        hold.set()
        painter.close()


def test_a_warmed_up_worker_leaves_its_start_up_heap_out_of_garbage_collections() -> None:
    gc.unfreeze()
    painter_module.warm_up()  # what a worker process runs first
    assert gc.get_freeze_count() > 10_000  # its modules and caches: no full collection walks them
