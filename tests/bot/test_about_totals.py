"""`/about`'s totals are counted at most once a minute: anyone may ask, and each count reads a
whole index."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.games import GAME_UIS
from bot.painter import ThreadPainter
from bot.records import TOTALS_EVERY, RecordsService
from engines import GAMES
from storage import Seat


async def new_game(db) -> None:
    await db.create_game(game="qawale", guild_id=1, channel_id=10, parent_id=5,
                         seats=[Seat(0, 100, "Alice"), Seat(1, 200, "Bob")], options={},
                         rng_seed=1, state=GAMES["qawale"].new_state(2).dump(),
                         now=datetime(2026, 11, 27, tzinfo=UTC))


async def test_the_totals_are_counted_again_only_after_a_minute(db) -> None:
    now = [0.0]
    records = RecordsService(db, GAME_UIS, ThreadPainter(), clock=lambda: now[0])
    await new_game(db)
    assert (await records.totals()).running == 1
    await new_game(db)
    now[0] += TOTALS_EVERY - 1
    assert (await records.totals()).running == 1, "the minute's count"
    now[0] += 1
    assert (await records.totals()).running == 2
