"""Storage fixtures: every test of the `db` fixture runs on SQLite and on PostgreSQL.

PostgreSQL is a throwaway server started once per test process from the machine's binaries
(`tests/postgres_server.py`); without them the PostgreSQL runs are skipped, saying why.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Database
from tests.postgres_server import fresh_database

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of each backend: a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    admin = request.getfixturevalue("postgres_admin")
    return asyncio.run(fresh_database(admin, f"t_{uuid.uuid4().hex}"))


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    """A migrated database of each backend."""
    database = await Database.open(database_url)
    yield database
    await database.close()
