"""What a query needs of a database connection, whichever database it is.

Queries are written once, as `async def work(sql: Executor)`, in SQL both SQLite and
PostgreSQL understand (`?` placeholders; a list of values goes in as `Values`). Each
backend runs them its own way: SQLite on its connection's thread, all statements of a
transaction in one round trip (`drive`); PostgreSQL on an asyncpg connection.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, cast

T = TypeVar("T")

class Row(Protocol):
    """A result row (sqlite3's or asyncpg's), read by column name or position."""

    def __getitem__(self, key: str | int, /) -> Any:
        """The value of a column."""
        ...


@dataclass(frozen=True)
class Written:
    """What one write statement did."""

    rowcount: int
    lastrowid: int | None


@dataclass(frozen=True)
class Values:
    """A list of values for `IN (SELECT value FROM json_each(?))` (SQLite's spelling; the
    PostgreSQL backend rewrites it to `unnest`)."""

    items: Sequence[int | str]

    def as_json(self) -> str:
        """The list as SQLite's `json_each` reads it."""
        return json.dumps(list(self.items), separators=(",", ":"))


class Executor(Protocol):
    """Statements on one connection, inside the transaction (or read snapshot) of the work."""

    dialect: str
    """`sqlite` or `postgresql`, for the rare statement that differs."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> Written:
        """Run one statement."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement for each row of parameters."""
        ...

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row a query gives."""
        ...

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row a query gives, or None."""
        ...


Work = Callable[[Executor], Coroutine[Any, Any, T]]
"""A query: statements on an executor, and what they found."""


class Transaction(Protocol):
    """A write transaction a task holds (`Database.transaction()`)."""

    async def run(self, work: Work[T]) -> T:
        """Run `work` inside the transaction."""
        ...

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> Written:
        """Run one write statement inside the transaction."""
        ...


def drive(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a work coroutine whose awaits never suspend (a SQLite executor answers at once),
    synchronously: on the database's own thread, in one round trip."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return cast(T, done.value)
    coroutine.close()
    raise RuntimeError("a query awaited something other than its executor")
