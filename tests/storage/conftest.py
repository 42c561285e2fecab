"""Storage fixtures: a fresh database file per test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Database


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """A migrated database in a temporary file."""
    database = await Database.open(f"sqlite:///{tmp_path / 'games.db'}")
    yield database
    await database.close()
