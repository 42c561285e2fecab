"""What every query needs, whatever the database: a backend runs a `storage.sql.Work` in
a transaction or a read snapshot; the query modules (`storage.*_queries`) build on it."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, TypeVar

from storage.migrations import MIGRATIONS, Migration
from storage.models import GameRecord
from storage.rating_writes import Rater
from storage.rows import as_record, seats_of, tournaments_of_games
from storage.sql import Executor, Row, Transaction, Work, Written

T = TypeVar("T")


def dumps(value: Any) -> str:
    """`value` as compact JSON text, keys sorted (the same value, the same text)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class DatabaseBase(ABC):
    """The connection to a database, as every query module uses it."""

    def __init__(self, *, rater: Rater | None = None) -> None:
        self._rater = rater

    @abstractmethod
    async def close(self) -> None:
        """Close the connections (after the write in progress, if any)."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """A write transaction: all or nothing; this task's writes within it join it."""

    @abstractmethod
    async def write(self, work: Work[T]) -> T:
        """Run `work` as one whole write transaction."""

    @abstractmethod
    async def _read(self, work: Work[T]) -> T:
        """Run a read in one snapshot of the last committed state."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The last migration applied (0 for an empty database)."""

    @abstractmethod
    async def migrate(self, migrations: Sequence[Migration] = MIGRATIONS) -> list[int]:
        """Apply every migration newer than the schema, each in its own transaction."""

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> Written:
        """Run one write statement in its own transaction (one round trip)."""
        return await self.write(lambda executor: executor.execute(sql, params))

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self._read(lambda executor: executor.fetch(sql, params))

    async def _games(self, query: str, params: Sequence[Any]) -> list[GameRecord]:
        """Records for the game rows `query` selects, their seats and tournaments read in the
        same snapshot."""

        async def read(sql: Executor) -> list[GameRecord]:
            rows = await sql.fetch(query, params)
            ids = [row["id"] for row in rows]
            seats = await seats_of(sql, ids)
            tournaments = await tournaments_of_games(sql, ids)
            records = [as_record(row, seats[row["id"]]) for row in rows]
            for record in records:
                record.tournament_id = tournaments.get(record.id)
            return records

        return await self._read(read)
