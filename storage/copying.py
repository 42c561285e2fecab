"""Copying a whole database into an empty one (SQLite to PostgreSQL, say), in one transaction."""

from __future__ import annotations

from collections.abc import Sequence

from storage.base import DatabaseBase
from storage.errors import DatabaseUnusable
from storage.migrations import SCHEMA
from storage.sql import Executor, Row, Values, Work

COPY_BATCH = 500
"""Games read at a time when a database is copied."""


class CopyQueries(DatabaseBase):
    """Copying every row of another database."""

    async def copy_from(self, source: DatabaseBase, *,
                        batch: int = COPY_BATCH) -> dict[str, int]:
        """Copy every row of `source` into this database, which must be empty and at the same
        schema version; in one transaction (all or nothing). The rows copied, by table.

        Games are read `batch` at a time with their seats, moves, timers and abort votes,
        so a large history never sits in memory whole.
        """
        version, theirs = await self.schema_version(), await source.schema_version()
        if version != theirs:
            raise DatabaseUnusable(f"the two databases are at schema versions {theirs} and "
                                   f"{version}: open both with this version first")
        if await self._fetch("SELECT 1 FROM games LIMIT 1"):
            raise DatabaseUnusable("the target database already holds games: copy into an "
                                   "empty one")
        counts = dict.fromkeys(COPIED_TABLES, 0)

        def inserting(table: str, rows: Sequence[Row]) -> Work[None]:
            return lambda sql: _insert(sql, table, rows, counts)

        async with self.transaction() as tx:  # reads from the source between the writes
            last = 0
            while games := await source._fetch(
                    f"SELECT {_columns('games')} FROM games WHERE id > ? ORDER BY id LIMIT ?",
                    (last, batch)):
                last = int(games[-1]["id"])
                ids = Values([int(row["id"]) for row in games])
                await tx.run(inserting("games", games))
                for table in GAME_TABLES:
                    rows = await source._fetch(
                        f"SELECT {_columns(table)} FROM {table} WHERE game_id IN "
                        "(SELECT value FROM json_each(?))", (ids,))
                    await tx.run(inserting(table, rows))
            for table in OTHER_TABLES:
                await tx.run(inserting(table, await source._fetch(
                    f"SELECT {_columns(table)} FROM {table}")))
            await tx.run(_follow_copied_ids)
        return counts


GAME_TABLES = ("seats", "moves", "timers", "abort_votes", "rating_changes")
"""Tables whose rows belong to a game (copied with it)."""


OTHER_TABLES = ("challenges", "player_settings", "server_settings", "ratings", "tournaments",
                "tournament_players", "tournament_games", "absences", "blocks")
"""Tables copied whole, after the games."""


COPIED_TABLES = ("games", *GAME_TABLES, *OTHER_TABLES)
"""Every table `copy_from` copies (`schema_version` is each database's own)."""


def _columns(table: str) -> str:
    """The columns of `table`, as the code knows them."""
    return ", ".join(SCHEMA[table])


async def _follow_copied_ids(sql: Executor) -> None:
    """Make the next ids follow the copied ones (PostgreSQL's identities do not by themselves;
    SQLite's AUTOINCREMENT does)."""
    if sql.dialect != "postgresql":
        return
    for table in ("games", "challenges", "timers", "tournaments"):
        await sql.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                          f"(SELECT COALESCE(MAX(id), 0) + 1 FROM {table}), false)")


async def _insert(sql: Executor, table: str, rows: Sequence[Row], counts: dict[str, int]) -> None:
    """Insert rows read with `_columns(table)`."""
    if not rows:
        return
    columns = SCHEMA[table]
    await sql.executemany(
        f"INSERT INTO {table} ({', '.join(columns)}) "
        f"VALUES ({', '.join('?' for _ in columns)})",
        [tuple(row[column] for column in columns) for row in rows])
    counts[table] += len(rows)
