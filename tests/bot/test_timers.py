"""The timer loop: due timers fire once, failures are retried then dropped, and a timer
stored while the loop sleeps is not missed."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import discord

from bot.timers import MAX_ATTEMPTS, RETRY_AFTER, TimerLoop
from storage import Database, NewTimer, Timer, TimerEvent
from tests.bot.fakes import new_game
from tests.waiting import eventually


def now():
    return discord.utils.utcnow()


async def test_a_due_timer_fires_once_and_is_forgotten(db: Database) -> None:
    game = await new_game(db)
    await db.add_timer(game.id, NewTimer(TimerEvent.TIMEOUT, now() - timedelta(seconds=1), 0, 1))
    fired: list[Timer] = []

    async def record(timer: Timer) -> None:
        fired.append(timer)

    loop = TimerLoop(db, {TimerEvent.TIMEOUT: record})
    assert await loop.run_once()
    assert [(t.game_id, t.event, t.seat) for t in fired] == [(game.id, TimerEvent.TIMEOUT, 1)]
    assert await db.next_timer() is None
    assert not await loop.run_once(), "nothing left: the loop ends until woken"


async def test_a_failing_action_is_tried_again_later_then_dropped(db: Database) -> None:
    game = await new_game(db)
    await db.add_timer(game.id, NewTimer(TimerEvent.ARCHIVE, now() - timedelta(seconds=1), 0))

    async def broken(timer: Timer) -> None:
        raise RuntimeError("Discord is down")

    loop = TimerLoop(db, {TimerEvent.ARCHIVE: broken})
    await loop.run_once()
    retry = await db.next_timer()
    assert retry is not None and retry.attempts == 1
    assert retry.due_at >= now() + RETRY_AFTER - timedelta(seconds=5)
    await loop.fire(Timer(retry.id, game.id, TimerEvent.ARCHIVE, retry.due_at, 0, None,
                          attempts=MAX_ATTEMPTS - 1))
    assert await db.next_timer() is None, "given up after the last attempt"


async def test_a_timer_stored_while_the_loop_sleeps_wakes_it(db: Database) -> None:
    game = await new_game(db)
    await db.add_timer(game.id, NewTimer(TimerEvent.HALF_TIME, now() + timedelta(hours=1), 0, 0))
    fired = asyncio.Event()

    async def record(timer: Timer) -> None:
        fired.set()

    loop = TimerLoop(db, {TimerEvent.TIMEOUT: record})
    loop.start()
    try:
        await asyncio.sleep(0.05)  # the loop now sleeps for an hour
        await db.add_timer(game.id, NewTimer(TimerEvent.TIMEOUT, now(), 0, 0))
        loop.wake()
        await asyncio.wait_for(fired.wait(), timeout=5)

        async def only_the_later_one_left() -> bool:  # the loop forgets a timer it acted on
            return [t.event for t in await db.timers_of(game.id)] == [TimerEvent.HALF_TIME]
        await eventually(only_the_later_one_left, "the fired timer is forgotten")
    finally:
        loop.close()


async def no_sleep(seconds: float) -> None:
    """Stands in for the loop's sleep: the test only looks at who fires."""


async def test_two_processes_sharing_the_timers_fire_a_due_one_once(tmp_path, monkeypatch
                                                                  ) -> None:
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    first, second = await Database.open(url), await Database.open(url)
    try:
        game = await new_game(first)
        await first.add_timer(game.id, NewTimer(TimerEvent.TIMEOUT, now(), 0, 1))
        fired: list[str] = []

        def action(name: str):
            async def act(timer: Timer) -> None:
                fired.append(name)
                await asyncio.sleep(0.01)  # Discord takes a moment
            return act

        loops = [TimerLoop(first, {TimerEvent.TIMEOUT: action("first")}),
                 TimerLoop(second, {TimerEvent.TIMEOUT: action("second")})]
        for loop in loops:  # a loop that reads the timer once claimed sleeps out the lease
            monkeypatch.setattr(loop, "_sleep", no_sleep)
        await asyncio.gather(*(loop.run_once() for loop in loops))
        assert len(fired) == 1
        assert await first.next_timer() is None
    finally:
        await first.close()
        await second.close()
