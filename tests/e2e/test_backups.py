"""A running bot backs up its SQLite database: once at start, then every period, with the
games played meanwhile, while it goes on answering."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from bot.client import Ludotheque, create_bot
from bot.config import Settings
from storage import sqlite_path
from storage.backups import backups_of
from tests.e2e.helpers import challenge_and_accept
from tests.waiting import eventually

EVERY = timedelta(hours=24)


@pytest.fixture
def simcord_bot(database_url: str) -> Ludotheque:
    """The bot with daily backups on, as `python -m bot` runs it by default."""
    return create_bot(Settings(database_url=database_url, backup_every=EVERY))


async def test_the_bot_backs_up_at_start_then_daily_with_the_games_played(
        env, world, database_url: str) -> None:
    database = Path(sqlite_path(database_url))
    folder = database.parent / "backups"
    await eventually(lambda: len(backups_of(database, folder)) == 1, "a backup at start")
    with sqlite3.connect(backups_of(database, folder)[0]) as first:
        assert first.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)

    await challenge_and_accept(env, world.channel, world.alice, world.bob)
    await env.advance_time(EVERY.total_seconds() - 60)
    assert len(backups_of(database, folder)) == 1  # not due yet
    await env.advance_time(60)
    await eventually(lambda: len(backups_of(database, folder)) == 2, "the next day's backup")
    with sqlite3.connect(backups_of(database, folder)[-1]) as second:
        assert second.execute("SELECT game, status FROM games").fetchall() == [
            ("qawale", "running")]
