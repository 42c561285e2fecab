"""Fixtures shared by the bot's tests: an in-memory database and a fake Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.ratings import rate_game
from storage import Database
from tests.bot.fakes import FakePublisher


@pytest.fixture
async def db() -> AsyncIterator[Database]:
    """A fresh in-memory database."""
    database = await Database.open("sqlite:///:memory:", rater=rate_game)
    yield database
    await database.close()


@pytest.fixture
def publisher() -> FakePublisher:
    """What Discord would have shown."""
    return FakePublisher()
