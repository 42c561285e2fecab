"""A move costs the database one transaction and at most three round trips to its thread."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest

from bot.clock import utcnow
from bot.timers import TimerLoop
from storage import Database, NewTimer, TimerEvent
from tests.bot.fakes import ALICE, BOB, FakePublisher, manager, new_game


@pytest.fixture(autouse=True)
def quick_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board picture does not matter here: skip the rendering."""
    monkeypatch.setattr("bot.painter.render", lambda *args, **kwargs: b"png")


@pytest.fixture
def round_trips(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of each piece of work sent to a database thread, in order."""
    import storage.sqlite as database

    calls: list[str] = []
    real = database._call

    async def counted(connection: Any, work: Callable[[Any], Any]) -> Awaitable[Any]:
        calls.append(getattr(work, "__qualname__", "?"))
        return await real(connection, work)

    monkeypatch.setattr(database, "_call", counted)
    return calls


async def test_a_move_in_a_clocked_game_takes_at_most_three_round_trips(
    db: Database, publisher: FakePublisher, round_trips: list[str]
) -> None:
    sessions = manager(db, publisher)
    other = await new_game(db)  # another game's timer, due before any of this game's
    await db.add_timer(other.id, NewTimer(TimerEvent.TIMEOUT, utcnow() + timedelta(hours=1), 0))
    loop = TimerLoop(db, {})
    sessions.timers_changed = loop.wake
    loop.start()
    await asyncio.sleep(0.05)  # the loop sleeps for that timer
    session = await sessions.start(await new_game(db, clock="daily"))
    await session.play(ALICE, "a1:NES")
    round_trips.clear()

    await session.play(BOB, str(session.state.legal_moves()[0]))

    try:
        assert len(round_trips) <= 3, round_trips
        assert sum("write" in name for name in round_trips) == 2, round_trips
        assert [t.event for t in await db.timers_of(session.id)][-1] is TimerEvent.TIMEOUT
    finally:
        loop.close()
