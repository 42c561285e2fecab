"""The SQLite database (aiosqlite, WAL mode): connections, transactions, migrations, queries.

Writes are serialised: each goes through `Database.transaction()` (one writer at a time in the
process, `BEGIN IMMEDIATE`, commit on success, rollback as a whole on any exception, a
cancellation included), so one game's commit never carries another game's half-done write.
Reads go through a second, query-only connection that sees the last committed state only (WAL
lets it read while the writer works); an in-memory database has a single connection, and its
reads wait for the writer instead.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from storage.errors import (
    SQLITE_CANTOPEN,
    DatabaseUnusable,
    StorageBusy,
    StorageCorrupt,
    StorageError,
    StorageFull,
    StorageReadOnly,
    error_code,
    storage_error,
)
from storage.migrations import MIGRATIONS, SCHEMA, Migration
from storage.models import (
    GLOBAL_SCOPE,
    TURN_EVENTS,
    ChallengeRecord,
    ChallengeStatus,
    GameRecord,
    GameStatus,
    GameSummary,
    MoveKind,
    MoveRecord,
    NewTimer,
    RatingRow,
    Seat,
    Timer,
    TimerEvent,
)
from storage.sql import Executor, Row, Values, Work, Written, drive

DEFAULT_DATABASE_URL = "sqlite:///data/ludotheque.db"

BUSY_TIMEOUT_MS = 2000
"""How long a write waits for another process's lock: a locked write fails (StorageBusy)
within Discord's 3 s interaction window rather than after it."""

LOG = logging.getLogger(__name__)
T = TypeVar("T")
ThreadWork = Callable[[sqlite3.Connection], T]
"""Statements run directly on a SQLite connection, on its thread."""

Rater = Callable[[GameSummary, int, Callable[[int], RatingRow | None]], list[RatingRow]]
"""Rates one finished game in one scope: given the game, the scope and a lookup of the players'
stored rows (None: never rated there), the rows after the game. The bot supplies it (openskill);
storage keeps the rows and applies each finished game exactly once."""

RATING_BATCH = 50
"""Finished games rated per transaction while catching up (a migrated history, say), so the
writer is never held long."""


def sqlite_path(url: str) -> str:
    """The file path in a `sqlite:///relative.db` or `sqlite:////absolute.db` URL (or a path)."""
    if url.startswith("sqlite:///"):
        return url.removeprefix("sqlite:///")
    if "://" in url:
        raise ValueError(f"only sqlite:/// database URLs are supported, not {url!r}")
    return url


@dataclass(frozen=True)
class NewMove:
    """A move to append to the log."""

    seat: int | None
    user_id: int | None
    kind: MoveKind
    move: str


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _timer_rows(game_id: int, timers: Sequence[NewTimer]) -> list[tuple[Any, ...]]:
    return [(game_id, t.event.value, t.due_at.timestamp(), t.ply, t.seat) for t in timers]


async def _replace_turn(sql: Executor, game_id: int, deadline: datetime | None,
                        timers: Sequence[NewTimer]) -> None:
    """Set the turn's deadline and swap the game's turn timers for `timers` (same transaction)."""
    await sql.execute("UPDATE games SET deadline = ? WHERE id = ?",
                      (deadline.isoformat() if deadline else None, game_id))
    await sql.execute(
        "DELETE FROM timers WHERE game_id = ? AND event IN (SELECT value FROM json_each(?))",
        (game_id, Values([event.value for event in TURN_EVENTS])))
    await sql.executemany(
        "INSERT INTO timers (game_id, event, due_at, ply, seat) VALUES (?, ?, ?, ?, ?)",
        _timer_rows(game_id, timers))


class SqliteExecutor:
    """Statements on a SQLite connection, on its thread: each await answers at once, so a
    whole work runs in one call to the thread (`drive`)."""

    dialect = "sqlite"

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> Written:
        """Run one statement."""
        cursor = self._connection.execute(sql, _bind(params))
        return Written(cursor.rowcount, cursor.lastrowid)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement per row of parameters."""
        self._connection.executemany(sql, [_bind(row) for row in rows])

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query."""
        return list(self._connection.execute(sql, _bind(params)).fetchall())

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of a query, or None."""
        row: Row | None = self._connection.execute(sql, _bind(params)).fetchone()
        return row


def _bind(params: Sequence[Any]) -> list[Any]:
    """Parameters as sqlite3 takes them (a `Values` list as JSON for `json_each`)."""
    return [value.as_json() if isinstance(value, Values) else value for value in params]


def _on_thread(work: Work[T]) -> ThreadWork[T]:
    """A work as statements on the connection's own thread (one round trip)."""
    return lambda connection: drive(work(SqliteExecutor(connection)))


async def _call(connection: aiosqlite.Connection, work: ThreadWork[T]) -> T:
    """Run `work` on the connection's thread: one round trip for any number of statements.

    aiosqlite queues calls to its thread in order, so a rollback queued after a cancelled call
    runs after that call, never before it. (`_execute` is aiosqlite's untyped queueing call.)
    """
    execute = cast(Callable[[Callable[[], T]], Awaitable[T]], connection._execute)
    return await execute(lambda: work(connection._conn))


class Transaction:
    """The write transaction a task holds: its statements run on the writer's thread.

    `BEGIN IMMEDIATE` is sent with the first statement (in the same round trip); the commit or
    rollback is `Database.transaction()`'s business.
    """

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection
        self._begun = False

    async def run(self, work: Work[T]) -> T:
        """Run `work` inside the transaction, in one round trip to the thread."""
        first, self._begun = not self._begun, True
        statements = _on_thread(work)

        def step(connection: sqlite3.Connection) -> T:
            if first:
                connection.execute("BEGIN IMMEDIATE")
            elif not connection.in_transaction:
                raise StorageError("SQLite rolled the transaction back after an error")
            return statements(connection)

        return await _call(self._connection, step)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> Written:
        """Run one write statement."""
        return await self.run(lambda executor: executor.execute(sql, params))

    async def _end(self, *, commit: bool) -> None:
        if not self._begun:
            return

        def end(connection: sqlite3.Connection) -> None:
            if connection.in_transaction:
                connection.execute("COMMIT" if commit else "ROLLBACK")
            elif commit:
                raise StorageError("SQLite rolled the transaction back after an error")

        await _call(self._connection, end)


class Database:
    """All reads and writes of games, moves and challenges; one writer, one reader per bot."""

    def __init__(
        self,
        connection: aiosqlite.Connection,
        reader: aiosqlite.Connection | None = None,
        *,
        path: str = ":memory:",
        rater: Rater | None = None,
    ) -> None:
        self._db = connection
        self._reader = reader or connection
        self._path = path
        self._lock = asyncio.Lock()
        self._tx: Transaction | None = None
        self._owner: asyncio.Task[Any] | None = None
        self._rater = rater

    @classmethod
    async def open(
        cls,
        url: str = DEFAULT_DATABASE_URL,
        migrations: Sequence[Migration] = MIGRATIONS,
        *,
        rater: Rater | None = None,
    ) -> Database:
        """Connect, check the database, switch to WAL and bring the schema up to date.

        With a `rater`, a game's result goes into the ratings table in the transaction that
        finishes it (see `rate_finished_games` for the ones finished before).

        Raises `DatabaseUnusable`, whose one-line message says what is wrong and what to do,
        for a directory, a file that is not (or no longer) a SQLite database, corruption, an
        incomplete schema, a read-only database and one locked by another process.
        """
        path = sqlite_path(url)
        memory = path == ":memory:"
        if not memory:
            _check_file(path)
        writer = await _connect(path)
        reader: aiosqlite.Connection | None = None
        try:
            await _call(writer, _set_up_writer)
            database = cls(writer, path=path, rater=rater)
            await database._check_integrity()
            await database.migrate(migrations)
            await database._check_schema()
            await database._check_writable()
            if not memory:
                reader = await _connect(path)
                await _call(reader, _set_up_reader)
                database._reader = reader
            return database
        except BaseException as exc:
            for connection in (reader, writer):
                if connection is not None:
                    try:
                        await connection.close()
                    except Exception:  # closing after a failure: the failure is the news
                        LOG.debug("closing %s after a failed open", path, exc_info=True)
            if isinstance(exc, DatabaseUnusable):
                raise
            if isinstance(exc, StorageError | sqlite3.Error):
                raise _unusable(path, exc) from exc
            raise

    async def close(self) -> None:
        """Close the connections (after the write in progress, if any)."""
        async with self._lock:
            if self._reader is not self._db:
                await self._reader.close()
            await self._db.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """The one way to write: serialised, `BEGIN IMMEDIATE`, all or nothing.

        Commits when the block ends normally; rolls back as a whole on any exception
        (cancellation included) and re-raises it, SQLite's errors about the database itself
        turned into `StorageError`s (busy, full, read-only, corrupt). Within the block, the same
        task's writes join this transaction; its reads see the last committed state only (on a
        file database).
        """
        task = asyncio.current_task()
        if self._tx is not None and task is not None and self._owner is task:
            yield self._tx
            return
        async with self._lock:
            tx = Transaction(self._db)
            self._tx, self._owner = tx, task
            try:
                try:
                    yield tx
                    await tx._end(commit=True)
                except BaseException:
                    try:
                        await tx._end(commit=False)
                    except Exception:  # the original error is the one to report
                        LOG.exception("rollback failed on %s", self._path)
                    raise
            except sqlite3.Error as exc:
                error = storage_error(exc)
                if error is None:
                    raise
                raise error from exc
            finally:
                self._tx, self._owner = None, None

    async def write(self, work: Work[T]) -> T:
        """Run `work` as a whole transaction in one round trip to the writer's thread: BEGIN
        IMMEDIATE, the statements and COMMIT (ROLLBACK on any error) in one call.

        Inside this task's `transaction()` it joins that transaction instead. Cancelling the
        task while the call runs rolls it back unless it already reached its COMMIT; either
        way the task waits for the thread to finish, so the write is all or nothing.
        """
        if self._tx is not None and self._owner is asyncio.current_task():
            return await self._tx.run(work)
        cancelled = threading.Event()
        statements = _on_thread(work)

        def whole(connection: sqlite3.Connection) -> T:
            connection.execute("BEGIN IMMEDIATE")
            try:
                done = statements(connection)
                if cancelled.is_set():
                    raise asyncio.CancelledError
            except BaseException:
                if connection.in_transaction:
                    connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")
            return done

        try:
            async with self._lock:
                call = asyncio.ensure_future(_call(self._db, whole))
                try:
                    return await asyncio.shield(call)
                except asyncio.CancelledError:
                    cancelled.set()
                    # Hold the writer until the thread committed or rolled back.
                    await asyncio.wait([call])
                    raise
        except sqlite3.Error as exc:
            error = storage_error(exc)
            if error is None:
                raise
            raise error from exc

    async def _read(self, work: Work[T]) -> T:
        """Run a read on the reader, in one snapshot of the last committed state."""
        statements = _on_thread(work)

        def snapshot(connection: sqlite3.Connection) -> T:
            if connection.in_transaction:  # one connection, inside this task's transaction
                return statements(connection)
            connection.execute("BEGIN")
            try:
                return statements(connection)
            finally:
                _end_read(connection)

        try:
            if self._reader is not self._db or (
                self._tx is not None and self._owner is asyncio.current_task()
            ):
                return await _call(self._reader, snapshot)
            async with self._lock:  # one connection: wait for the write in progress
                return await _call(self._db, snapshot)
        except sqlite3.Error as exc:
            error = storage_error(exc)
            if error is None:
                raise
            raise error from exc

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> Written:
        """Run one write statement in its own transaction (one round trip)."""
        return await self.write(lambda executor: executor.execute(sql, params))

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self._read(lambda executor: executor.fetch(sql, params))

    # -- checks at start ----------------------------------------------------------------

    async def _check_integrity(self) -> None:
        rows = await self._fetch("PRAGMA quick_check")
        found = [str(row[0]) for row in rows]
        if found != ["ok"]:
            problem = "; ".join(
                line.strip() for text in found for line in text.splitlines()
                if line.strip() and not line.startswith("***")
            )
            if len(problem) > 160:
                problem = problem[:157] + "..."
            raise DatabaseUnusable(
                f"{self._path} is corrupt (PRAGMA quick_check: {problem}): restore a backup, "
                f"or salvage what is left with `sqlite3 {self._path} .recover`"
            )

    async def _check_schema(self) -> None:
        async def columns(sql: Executor) -> dict[str, set[str]]:
            return {
                table: {row["name"] for row in await sql.fetch(
                    "SELECT name FROM pragma_table_info(?)", (table,))}
                for table in SCHEMA
            }

        found = await self._read(columns)
        version = await self.schema_version()
        for table, wanted in SCHEMA.items():
            if not found[table]:
                raise DatabaseUnusable(
                    f"table {table} is missing from {self._path} (schema version {version}): "
                    "restore a backup, or move the file away to start with an empty database"
                )
            for column in wanted:
                if column not in found[table]:
                    raise DatabaseUnusable(
                        f"column {table}.{column} is missing from {self._path} (schema version "
                        f"{version}): restore a backup, or move the file away to start with an "
                        "empty database"
                    )

    async def _check_writable(self) -> None:
        """Take the write lock and try a write that changes nothing, then roll back."""
        try:
            async with self.transaction() as tx:
                await tx.execute("UPDATE schema_version SET version = version WHERE 0")
                raise _Probed
        except _Probed:
            pass

    # -- schema -------------------------------------------------------------------------

    async def schema_version(self) -> int:
        """The last migration applied (0 for an empty database)."""

        return await self._read(_schema_version)

    async def migrate(self, migrations: Sequence[Migration] = MIGRATIONS) -> list[int]:
        """Apply every migration newer than the schema, each in its own transaction.

        Returns the versions applied. A failing migration is rolled back as a whole and leaves
        the schema at the previous version.
        """
        applied = []
        for migration in sorted(migrations, key=lambda m: m.version):

            async def step(sql: Executor, migration: Migration = migration) -> bool:
                await sql.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version "
                    "(version INTEGER NOT NULL, applied_at TEXT)"
                )
                if migration.version <= await _schema_version(sql):
                    return False
                for statement in migration.statements:
                    await sql.execute(statement)
                await sql.execute(
                    "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
                    (migration.version, datetime.now(UTC).isoformat()),
                )
                return True

            try:
                async with self.transaction() as tx:
                    if await tx.run(step):
                        applied.append(migration.version)
            except sqlite3.Error as exc:
                raise DatabaseUnusable(
                    f"migration {migration.version} ({migration.description}) failed on "
                    f"{self._path}: {exc}; the schema stays at the previous version: fix the "
                    "migration, or restore a backup"
                ) from exc
        return applied

    async def journal_mode(self) -> str:
        """SQLite's journal mode (`wal` once opened)."""
        rows = await self._fetch("PRAGMA journal_mode")
        if not rows:
            raise RuntimeError("PRAGMA journal_mode gave no row")
        return str(rows[0][0])

    # -- games ----------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        game: str,
        guild_id: int | None,
        channel_id: int,
        parent_id: int | None,
        seats: Iterable[Seat],
        options: dict[str, Any],
        rng_seed: int,
        state: dict[str, Any],
        now: datetime,
        clock: str = "none",
        to_move: int | None = None,
    ) -> GameRecord:
        """Insert a running game with its seats, in one transaction; returns it with its id.

        `to_move` is the seat to decide (see `games_to_resume`); None when unknown."""
        stamp = now.isoformat()
        seat_rows = [(s.seat, s.user_id, s.display_name) for s in seats]

        async def insert(sql: Executor) -> int:
            row = await sql.fetchrow(
                """INSERT INTO games (game, guild_id, channel_id, parent_id, options, rng_seed,
                                      state, ply, status, created_at, updated_at, clock,
                                      to_move)
                   VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?) RETURNING id""",
                (game, guild_id, channel_id, parent_id, _dumps(options), rng_seed,
                 _dumps(state), GameStatus.RUNNING.value, stamp, stamp, clock, to_move),
            )
            assert row is not None  # RETURNING gives the new row's id
            game_id = int(row["id"])
            await sql.executemany(
                "INSERT INTO seats (game_id, seat, user_id, display_name) VALUES (?, ?, ?, ?)",
                [(game_id, *row) for row in seat_rows],
            )
            return game_id

        game_id = await self.write(insert)
        record = await self.get_game(game_id)
        assert record is not None
        return record

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id, or None."""
        found = await self._games("SELECT * FROM games WHERE id = ?", (game_id,))
        return found[0] if found else None

    async def running_game_in(self, channel_id: int) -> GameRecord | None:
        """The game running in this channel or thread, if any."""
        found = await self._games(
            "SELECT * FROM games WHERE channel_id = ? AND status = ? ORDER BY id DESC LIMIT 1",
            (channel_id, GameStatus.RUNNING.value),
        )
        return found[0] if found else None

    async def running_games(self) -> list[GameRecord]:
        """Every game still running."""
        return await self._games(
            "SELECT * FROM games WHERE status = ? ORDER BY id", (GameStatus.RUNNING.value,)
        )

    async def games_to_resume(self) -> list[GameRecord]:
        """Running games a start must act on: a board behind the stored position, a clock
        not started, an AI (or a chance event) to move, or a seat to move not known. The
        others wait in storage until someone plays them."""
        return await self._games(
            """SELECT * FROM games g WHERE g.status = ? AND (
                   g.board_ply IS NULL OR g.board_ply != g.ply
                   OR (g.clock != 'none' AND g.deadline IS NULL)
                   OR g.to_move IS NULL OR g.to_move < 0
                   OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id
                              AND s.seat = g.to_move
                              AND (s.user_id < 0 OR s.stand_in IS NOT NULL)))
               ORDER BY g.id""",
            (GameStatus.RUNNING.value,),
        )

    async def games_with_stale_boards(self) -> list[GameRecord]:
        """Running games whose posted board does not show the stored ply (or may not)."""
        return await self._games(
            """SELECT * FROM games WHERE status = ? AND (board_ply IS NULL OR board_ply != ply)
               ORDER BY id""",
            (GameStatus.RUNNING.value,),
        )

    async def record_moves(
        self,
        game_id: int,
        expected_ply: int,
        moves: Sequence[NewMove],
        state: dict[str, Any],
        *,
        result: Mapping[str, Any] | None,
        now: datetime,
        deadline: datetime | None = None,
        timers: Sequence[NewTimer] = (),
        stand_ins: Mapping[int, str] | None = None,
        unrated: bool = False,
        to_move: int | None = None,
    ) -> int:
        """Append moves and store the new state in one transaction; returns the new ply.

        Raises `StaleGame` when the stored ply is not `expected_ply`, so a move computed from
        an out-of-date state is never written. The guarded UPDATE and the log rows go to the
        writer's thread in one round trip; any failure rolls back both. The same transaction
        sets the next turn's `deadline` and replaces the game's turn timers with `timers`
        (an ARCHIVE timer among them is added), hands the seats in `stand_ins` to the AI, and
        with `unrated` takes the game out of the ratings. `to_move` is the seat to decide next.
        """
        stamp = now.isoformat()
        status = GameStatus.FINISHED if result is not None else GameStatus.RUNNING
        new_ply = expected_ply + len(moves)
        update = (_dumps(state), new_ply, status.value, _dumps(result) if result else None,
                  stamp, stamp if result is not None else None,
                  None if result is not None else to_move, game_id, expected_ply,
                  GameStatus.RUNNING.value)
        rows = [(game_id, expected_ply + i + 1, m.seat, m.user_id, m.kind.value, m.move, stamp)
                for i, m in enumerate(moves)]

        async def write(sql: Executor) -> None:
            written = await sql.execute(
                """UPDATE games SET state = ?, ply = ?, status = ?, result = ?, updated_at = ?,
                                     finished_at = ?, to_move = ?
                   WHERE id = ? AND ply = ? AND status = ?""",
                update,
            )
            if written.rowcount != 1:
                raise StaleGame(f"game {game_id} is no longer at ply {expected_ply}")
            await sql.executemany(
                """INSERT INTO moves (game_id, ply, seat, user_id, kind, move, created_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?)""",
                rows,
            )
            await _replace_turn(sql, game_id, deadline, timers)
            await sql.executemany(
                "UPDATE seats SET stand_in = ? WHERE game_id = ? AND seat = ?",
                [(level, game_id, seat) for seat, level in (stand_ins or {}).items()])
            if unrated:
                await sql.execute("UPDATE games SET rated = 0 WHERE id = ?", (game_id,))
            if result is not None and self._rater is not None:
                await _rate_safely(sql, self._rater)

        await self.write(write)
        return new_ply

    async def set_turn_clock(self, game_id: int, ply: int, deadline: datetime | None,
                             timers: Sequence[NewTimer]) -> bool:
        """Give the turn at `ply` its deadline and timers (replacing the game's turn timers);
        False when the game is no longer running at that ply."""

        async def write(sql: Executor) -> bool:
            current = await sql.fetchrow(
                "SELECT 1 FROM games WHERE id = ? AND ply = ? AND status = ?",
                (game_id, ply, GameStatus.RUNNING.value))
            if current is None:
                return False
            await _replace_turn(sql, game_id, deadline, timers)
            return True

        return await self.write(write)

    async def next_timer(self) -> Timer | None:
        """The timer due first, or None when there is none."""
        rows = await self._fetch("SELECT * FROM timers ORDER BY due_at, id LIMIT 1")
        return _timer(rows[0]) if rows else None

    async def timers_of(self, game_id: int) -> list[Timer]:
        """A game's pending timers, the first due first."""
        rows = await self._fetch("SELECT * FROM timers WHERE game_id = ? ORDER BY due_at, id",
                                 (game_id,))
        return [_timer(row) for row in rows]

    async def drop_timer(self, timer_id: int) -> bool:
        """Forget a timer once it has fired; False if it was already gone (fired elsewhere)."""
        written = await self._write("DELETE FROM timers WHERE id = ?", (timer_id,))
        return written.rowcount == 1

    async def postpone_timer(self, timer_id: int, due_at: datetime) -> None:
        """Try a timer again later (its action failed), counting the attempt."""
        await self._write("UPDATE timers SET due_at = ?, attempts = attempts + 1 WHERE id = ?",
                          (due_at.timestamp(), timer_id))

    async def add_timer(self, game_id: int, timer: NewTimer) -> None:
        """Store one timer (an archive after the end, say)."""
        await self._write(
            "INSERT INTO timers (game_id, event, due_at, ply, seat) VALUES (?, ?, ?, ?, ?)",
            _timer_rows(game_id, [timer])[0])

    # -- abort votes and player settings ------------------------------------------------

    async def add_abort_vote(self, game_id: int, user_id: int) -> bool:
        """Record that a player asks to abort; False if they had asked already."""
        written = await self._write(
            "INSERT INTO abort_votes (game_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
            (game_id, user_id))
        return written.rowcount == 1

    async def abort_votes(self, game_id: int) -> set[int]:
        """The players who asked to abort the game."""
        rows = await self._fetch("SELECT user_id FROM abort_votes WHERE game_id = ?", (game_id,))
        return {int(row["user_id"]) for row in rows}

    async def dm_reminders(self, user_id: int) -> bool:
        """Whether the member wants turn reminders by DM (yes unless they turned them off)."""
        rows = await self._fetch("SELECT dm_reminders FROM player_settings WHERE user_id = ?",
                                 (user_id,))
        return bool(rows[0]["dm_reminders"]) if rows else True

    async def set_dm_reminders(self, user_id: int, wanted: bool) -> None:
        """Turn a member's DM reminders on or off."""
        await self._write(
            """INSERT INTO player_settings (user_id, dm_reminders) VALUES (?, ?)
               ON CONFLICT (user_id) DO UPDATE SET dm_reminders = excluded.dm_reminders""",
            (user_id, int(wanted)))

    async def server_language(self, guild_id: int) -> str | None:
        """The language a server chose (`/settings language:`), or None."""
        rows = await self._fetch("SELECT language FROM server_settings WHERE guild_id = ?",
                                 (guild_id,))
        return str(rows[0][0]) if rows and rows[0][0] else None

    async def set_server_language(self, guild_id: int, language: str) -> None:
        """Remember a server's language."""
        await self._write(
            """INSERT INTO server_settings (guild_id, language) VALUES (?, ?)
               ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language""",
            (guild_id, language))

    async def member_locale(self, user_id: int) -> str | None:
        """A member's last known Discord locale, or None."""
        rows = await self._fetch("SELECT locale FROM player_settings WHERE user_id = ?",
                                 (user_id,))
        return str(rows[0][0]) if rows and rows[0][0] else None

    async def set_member_locale(self, user_id: int, locale: str) -> None:
        """Remember a member's Discord locale (their DMs are written in its language)."""
        await self._write(
            """INSERT INTO player_settings (user_id, locale) VALUES (?, ?)
               ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale""",
            (user_id, locale))

    async def abort_game(self, game_id: int, *, now: datetime) -> bool:
        """Mark a running game aborted (it counts for no rating); False if it was not running."""
        stamp = now.isoformat()
        written = await self._write(
            """UPDATE games SET status = ?, updated_at = ?, finished_at = ?
               WHERE id = ? AND status = ?""",
            (GameStatus.ABORTED.value, stamp, stamp, game_id, GameStatus.RUNNING.value),
        )
        return written.rowcount == 1

    async def finished_games(
        self, game: str | None = None, *, guild_id: int | None = None
    ) -> list[GameRecord]:
        """Finished games (not aborted), oldest result first; of one game and one server."""
        sql = "SELECT * FROM games WHERE status = ?"
        params: list[Any] = [GameStatus.FINISHED.value]
        if game is not None:
            sql += " AND game = ?"
            params.append(game)
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        return await self._games(sql + " ORDER BY finished_at, id", params)

    async def games_of(
        self, user_id: int, *, guild_id: int | None = None, limit: int = 10
    ) -> list[GameSummary]:
        """A player's latest games that ended (finished or aborted), newest first."""
        query = f"""SELECT {SUMMARY_COLUMNS} FROM games g JOIN seats s ON s.game_id = g.id
                    WHERE s.user_id = ? AND g.status != ?"""
        params: list[Any] = [user_id, GameStatus.RUNNING.value]
        if guild_id is not None:
            query += " AND g.guild_id = ?"
            params.append(guild_id)
        query += " ORDER BY COALESCE(g.finished_at, g.updated_at) DESC, g.id DESC LIMIT ?"
        params.append(limit)

        async def read(sql: Executor) -> list[GameSummary]:
            rows = await sql.fetch(query, params)
            seats = await _seats_of(sql, [row["id"] for row in rows])
            return [_summary(row, seats[row["id"]]) for row in rows]

        return await self._read(read)

    # -- ratings --------------------------------------------------------------------------

    async def rate_finished_games(self) -> int:
        """Put every finished game not yet rated into the ratings table, oldest first, in
        batches of `RATING_BATCH` per transaction; the number rated (0 without a rater)."""
        rater, done = self._rater, 0
        if rater is None:
            return 0
        while True:
            count = await self.write(lambda sql: _apply_ratings(sql, rater))
            done += count
            if count < RATING_BATCH:
                return done

    async def unrated_backlog(self) -> int:
        """Finished games whose result is not in the ratings table yet."""
        rows = await self._fetch(f"SELECT COUNT(*) AS n FROM games WHERE {_TO_RATE}")
        return int(rows[0]["n"])

    async def leaderboard(
        self, game: str, scope: int, *, offset: int, limit: int
    ) -> tuple[list[RatingRow], int]:
        """One page of a leaderboard, best first, and how many players it ranks."""

        async def read(sql: Executor) -> tuple[list[RatingRow], int]:
            rows = await sql.fetch(
                f"""SELECT * FROM ratings WHERE game = ? AND scope = ?
                    ORDER BY {RANK_ORDER} LIMIT ? OFFSET ?""",
                (game, scope, limit, offset))
            total = await sql.fetchrow(
                "SELECT COUNT(*) AS n FROM ratings WHERE game = ? AND scope = ?", (game, scope))
            assert total is not None  # COUNT always gives a row
            return [_rating(row) for row in rows], int(total["n"])

        return await self._read(read)

    async def player_ratings(self, player_id: int, scope: int) -> list[tuple[RatingRow, int, int]]:
        """A player's rating in each game of `scope`, with their rank (1 is best) and the
        number of players ranked there."""
        rows = await self._fetch(
            """SELECT r.*,
                   (SELECT COUNT(*) FROM ratings o WHERE o.game = r.game AND o.scope = r.scope
                      AND (o.rating > r.rating OR (o.rating = r.rating AND (o.games > r.games
                      OR (o.games = r.games AND (o.sort_name < r.sort_name
                      OR (o.sort_name = r.sort_name AND o.player_id < r.player_id))))))) AS ahead,
                   (SELECT COUNT(*) FROM ratings o WHERE o.game = r.game AND o.scope = r.scope)
                      AS players
               FROM ratings r WHERE r.player_id = ? AND r.scope = ? ORDER BY r.game""",
            (player_id, scope))
        return [(_rating(row), int(row["ahead"]) + 1, int(row["players"])) for row in rows]

    async def set_board_message(
        self, game_id: int, message_id: int | None, ply: int | None = None
    ) -> None:
        """Remember the board message that carries the game's live components, and the ply it
        shows (None: unknown, so the board counts as stale), in one write."""
        await self._write(
            "UPDATE games SET board_message_id = ?, board_ply = ? WHERE id = ?",
            (message_id, ply, game_id),
        )

    async def turn_log(self, game_id: int, seat: int) -> tuple[list[MoveRecord], int]:
        """What `seat` has not seen on a board of its own, and the number of decisions so far.

        The moves since `seat`'s last decision before its current turn (which began after
        the last decision of anyone else): every move of the others since it last played,
        then its own moves of this turn.
        """
        player = MoveKind.PLAYER.value

        async def read(sql: Executor) -> tuple[list[MoveRecord], int]:
            counts = await sql.fetchrow(
                """SELECT (SELECT COUNT(*) FROM moves WHERE game_id = ? AND kind = ?) AS decisions,
                          (SELECT COALESCE(MAX(ply), 0) FROM moves WHERE game_id = ?
                           AND kind = ? AND seat = ? AND ply <= (
                               SELECT COALESCE(MAX(ply), 0) FROM moves WHERE game_id = ?
                               AND kind = ? AND seat != ?)) AS since""",
                (game_id, player, game_id, player, seat, game_id, player, seat))
            assert counts is not None  # a SELECT of two subqueries gives one row
            rows = await sql.fetch(
                "SELECT * FROM moves WHERE game_id = ? AND ply > ? ORDER BY ply",
                (game_id, counts["since"]))
            return [_move(row) for row in rows], int(counts["decisions"])

        return await self._read(read)

    async def moves(self, game_id: int) -> list[MoveRecord]:
        """The game's move log, in order."""
        rows = await self._fetch("SELECT * FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
        return [_move(row) for row in rows]

    async def _games(self, query: str, params: Sequence[Any]) -> list[GameRecord]:
        """Records for the game rows `query` selects, their seats read in the same snapshot."""

        async def read(sql: Executor) -> list[GameRecord]:
            rows = await sql.fetch(query, params)
            seats = await _seats_of(sql, [row["id"] for row in rows])
            return [_record(row, seats[row["id"]]) for row in rows]

        return await self._read(read)

    # -- challenges ---------------------------------------------------------------------

    async def create_challenge(
        self,
        *,
        game: str,
        guild_id: int | None,
        channel_id: int,
        challenger_id: int,
        opponent_ids: list[int],
        player_names: dict[int, str],
        options: dict[str, Any],
        now: datetime,
        expires_at: datetime,
        kind: str = "challenge",
        clock: str = "daily",
        seating: list[int] | None = None,
        accepted_ids: list[int] | None = None,
    ) -> ChallengeRecord:
        """Insert a pending challenge (or, with kind `lobby`, an open table)."""
        written = await self._write(
            """INSERT INTO challenges (game, guild_id, channel_id, challenger_id, opponent_ids,
                                       player_names, options, status, created_at, expires_at,
                                       kind, clock, seating, accepted_ids)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (game, guild_id, channel_id, challenger_id, _dumps(opponent_ids),
             _dumps({str(k): v for k, v in player_names.items()}), _dumps(options),
             ChallengeStatus.PENDING.value, now.isoformat(), expires_at.isoformat(), kind,
             clock, None if seating is None else _dumps(seating), _dumps(accepted_ids or [])),
        )
        challenge_id = written.lastrowid
        assert challenge_id is not None  # set by every successful INSERT
        record = await self.get_challenge(challenge_id)
        assert record is not None
        return record

    async def get_challenge(self, challenge_id: int) -> ChallengeRecord | None:
        """The challenge with this id, or None."""
        rows = await self._fetch("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        return _challenge(rows[0]) if rows else None

    async def pending_challenges(self) -> list[ChallengeRecord]:
        """Every challenge still waiting for an answer."""
        rows = await self._fetch(
            "SELECT * FROM challenges WHERE status = ? ORDER BY id",
            (ChallengeStatus.PENDING.value,),
        )
        return [_challenge(row) for row in rows]

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows the challenge."""
        await self._write(
            "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
        )

    async def update_challenge_players(
        self,
        challenge_id: int,
        *,
        opponent_ids: list[int],
        player_names: dict[int, str],
        accepted_ids: list[int],
    ) -> bool:
        """Record who is invited or joined, and who accepted; False if no longer pending."""
        written = await self._write(
            """UPDATE challenges SET opponent_ids = ?, player_names = ?, accepted_ids = ?
               WHERE id = ? AND status = ?""",
            (_dumps(opponent_ids), _dumps({str(k): v for k, v in player_names.items()}),
             _dumps(accepted_ids), challenge_id, ChallengeStatus.PENDING.value),
        )
        return written.rowcount == 1

    async def close_challenge(
        self, challenge_id: int, status: ChallengeStatus, game_id: int | None = None
    ) -> bool:
        """Move a pending challenge to `status`; False if it was no longer pending."""
        written = await self._write(
            "UPDATE challenges SET status = ?, game_id = ? WHERE id = ? AND status = ?",
            (status.value, game_id, challenge_id, ChallengeStatus.PENDING.value),
        )
        return written.rowcount == 1


class StaleGame(RuntimeError):
    """The stored game moved on (or ended) since the state a write was computed from."""


def _challenge(row: Row) -> ChallengeRecord:
    return ChallengeRecord(
        id=row["id"],
        game=row["game"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        challenger_id=row["challenger_id"],
        opponent_ids=json.loads(row["opponent_ids"]),
        player_names={int(k): v for k, v in json.loads(row["player_names"]).items()},
        options=json.loads(row["options"]),
        message_id=row["message_id"],
        status=ChallengeStatus(row["status"]),
        game_id=row["game_id"],
        created_at=datetime.fromisoformat(row["created_at"]),
        expires_at=datetime.fromisoformat(row["expires_at"]),
        accepted_ids=json.loads(row["accepted_ids"]),
        kind=row["kind"],
        clock=row["clock"],
        seating=json.loads(row["seating"]) if row["seating"] else None,
    )


def _move(row: Row) -> MoveRecord:
    return MoveRecord(row["ply"], row["seat"], row["user_id"], MoveKind(row["kind"]), row["move"],
                      datetime.fromisoformat(row["created_at"]))


def _timer(row: Row) -> Timer:
    return Timer(
        id=row["id"],
        game_id=row["game_id"],
        event=TimerEvent(row["event"]),
        due_at=datetime.fromtimestamp(row["due_at"], UTC),
        ply=row["ply"],
        seat=row["seat"],
        attempts=row["attempts"],
    )


SUMMARY_COLUMNS = ", ".join(
    f"g.{column}" for column in
    ("id", "game", "guild_id", "status", "result", "rated", "updated_at", "finished_at"))
"""The game columns a `GameSummary` reads (never `state`, the big one)."""

RANK_ORDER = "rating DESC, games DESC, sort_name, player_id"
"""Leaderboard order: rating, then games played, then name (the `ratings_by_rank` index)."""

_TO_RATE = "status = 'finished' AND rating_applied = 0"
"""Finished games not yet rated: spelled as the partial index `games_to_rate` is, so SQLite
uses it."""

_UPSERT_RATING = """
    INSERT INTO ratings (game, scope, player_id, name, sort_name, mu, sigma, rating, games,
                         wins, draws, losses, streak, best_streak)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (game, scope, player_id) DO UPDATE SET
        name = excluded.name, sort_name = excluded.sort_name, mu = excluded.mu,
        sigma = excluded.sigma, rating = excluded.rating, games = excluded.games,
        wins = excluded.wins, draws = excluded.draws, losses = excluded.losses,
        streak = excluded.streak, best_streak = excluded.best_streak"""


async def _seats_of(sql: Executor, ids: list[int]) -> dict[int, list[Seat]]:
    """The seats of the games `ids`, in seat order, in one query."""
    seats: dict[int, list[Seat]] = {game_id: [] for game_id in ids}
    if not ids:
        return seats
    for r in await sql.fetch(
        "SELECT game_id, seat, user_id, display_name, stand_in FROM seats WHERE game_id "
        "IN (SELECT value FROM json_each(?)) ORDER BY game_id, seat", (Values(ids),),
    ):
        seats[r["game_id"]].append(Seat(r["seat"], r["user_id"], r["display_name"],
                                        r["stand_in"]))
    return seats


def _summary(row: Row, seats: list[Seat]) -> GameSummary:
    return GameSummary(
        id=row["id"],
        game=row["game"],
        guild_id=row["guild_id"],
        seats=seats,
        status=GameStatus(row["status"]),
        result=json.loads(row["result"]) if row["result"] else None,
        rated=bool(row["rated"]),
        updated_at=datetime.fromisoformat(row["updated_at"]),
        finished_at=_time(row["finished_at"]),
    )


def _rating(row: Row) -> RatingRow:
    return RatingRow(
        game=row["game"], scope=row["scope"], player_id=row["player_id"], name=row["name"],
        mu=row["mu"], sigma=row["sigma"], games=row["games"], wins=row["wins"],
        draws=row["draws"], losses=row["losses"], streak=row["streak"],
        best_streak=row["best_streak"],
    )


async def _apply_ratings(sql: Executor, rater: Rater) -> int:
    """Rate the oldest `RATING_BATCH` finished games not yet rated (inside a transaction).

    The rater is pure and asks for players' rows by id; which ids (an AI level counts as one
    player) is its business: a first call with nothing stored tells them, one query reads
    them, a second call rates.
    """
    rows = await sql.fetch(
        f"""SELECT {SUMMARY_COLUMNS} FROM games g WHERE {_TO_RATE}
            ORDER BY finished_at, id LIMIT ?""", (RATING_BATCH,))
    seats = await _seats_of(sql, [row["id"] for row in rows])
    for row in rows:
        game = _summary(row, seats[row["id"]])
        scopes = [GLOBAL_SCOPE] if game.guild_id is None else [GLOBAL_SCOPE, game.guild_id]
        for scope in scopes:
            wanted: set[int] = set()
            rater(game, scope, partial(_note, wanted))
            stored = {found["player_id"]: _rating(found) for found in await sql.fetch(
                """SELECT * FROM ratings WHERE game = ? AND scope = ?
                   AND player_id IN (SELECT value FROM json_each(?))""",
                (game.game, scope, Values(sorted(wanted))))}
            await sql.executemany(_UPSERT_RATING, [
                (rated.game, rated.scope, rated.player_id, rated.name, rated.name.casefold(),
                 rated.mu, rated.sigma, rated.rating, rated.games, rated.wins, rated.draws,
                 rated.losses, rated.streak, rated.best_streak)
                for rated in rater(game, scope, stored.get)])
    await sql.execute(
        "UPDATE games SET rating_applied = 1 WHERE id IN (SELECT value FROM json_each(?))",
        (Values([row["id"] for row in rows]),))
    return len(rows)


def _note(wanted: set[int], player_id: int) -> None:
    """A lookup that only notes which players the rater asks for (nothing stored yet)."""
    wanted.add(player_id)


async def _rate_safely(sql: Executor, rater: Rater) -> None:
    """Rate what just finished, without ever failing the move that finished it: a rating
    error rolls back to a savepoint and leaves the game for `rate_finished_games`."""
    await sql.execute("SAVEPOINT rating")
    try:
        await _apply_ratings(sql, rater)
    except Exception:
        LOG.exception("rating a finished game failed; it stays in the backlog")
        await sql.execute("ROLLBACK TO SAVEPOINT rating")
    await sql.execute("RELEASE SAVEPOINT rating")


def _record(row: Row, seats: list[Seat]) -> GameRecord:
    return GameRecord(
        id=row["id"],
        game=row["game"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        parent_id=row["parent_id"],
        seats=seats,
        options=json.loads(row["options"]),
        rng_seed=row["rng_seed"],
        state=json.loads(row["state"]),
        ply=row["ply"],
        status=GameStatus(row["status"]),
        result=json.loads(row["result"]) if row["result"] else None,
        board_message_id=row["board_message_id"],
        created_at=datetime.fromisoformat(row["created_at"]),
        updated_at=datetime.fromisoformat(row["updated_at"]),
        finished_at=_time(row["finished_at"]),
        board_ply=row["board_ply"],
        clock=row["clock"],
        deadline=_time(row["deadline"]),
        rated=bool(row["rated"]),
    )


def _end_read(connection: sqlite3.Connection) -> None:
    """Close a read snapshot (unless an error already did), so the next read sees the latest."""
    if connection.in_transaction:
        connection.execute("ROLLBACK")


class _Probed(Exception):
    """Ends the write probe of `Database.open` (its transaction is rolled back)."""


async def _schema_version(sql: Executor) -> int:
    if await sql.fetchrow(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    ) is None:
        return 0
    row = await sql.fetchrow("SELECT MAX(version) AS version FROM schema_version")
    # MAX() always gives one row; its value is NULL while no migration is applied.
    return int(row["version"]) if row is not None and row["version"] is not None else 0


async def _connect(path: str) -> aiosqlite.Connection:
    """An aiosqlite connection in autocommit mode (transactions are begun explicitly)."""
    try:
        connection = await aiosqlite.connect(path, isolation_level=None)
    except sqlite3.Error as exc:
        raise _unusable(path, exc) from exc
    connection.row_factory = sqlite3.Row
    return connection


def _set_up_writer(connection: sqlite3.Connection) -> None:
    connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    connection.execute("PRAGMA foreign_keys = ON")
    connection.execute("PRAGMA journal_mode = WAL").fetchall()


def _set_up_reader(connection: sqlite3.Connection) -> None:
    connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    connection.execute("PRAGMA query_only = ON")


SQLITE_MAGIC = b"SQLite format 3\0"


def _check_file(path: str) -> None:
    """Refuse, before SQLite sees it, a path that cannot hold the database."""
    file = Path(path)
    if file.is_dir():
        raise DatabaseUnusable(
            f"{path} is a directory, not a database file: set DATABASE_URL to a file path, "
            f"e.g. sqlite:///{file / 'ludotheque.db'}"
        )
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatabaseUnusable(
            f"cannot create the folder {file.parent} for the database ({exc.strerror}): "
            "create it, or set DATABASE_URL to a writable place"
        ) from exc
    if not file.exists():
        return
    try:
        with file.open("rb") as handle:
            header = handle.read(100)
        size = file.stat().st_size
    except OSError as exc:
        raise DatabaseUnusable(
            f"cannot read {path} ({exc.strerror}): make it readable by the bot's user"
        ) from exc
    if size == 0:
        return  # SQLite makes an empty file a new database
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        raise DatabaseUnusable(
            f"{path} is not a SQLite database (its header is wrong: a text file, a zeroed or a "
            "foreign file): restore a backup, or move it away to start with an empty database"
        )
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    # The page count in the header is valid when the change counter matches "valid-for";
    # with a non-empty WAL the file may legitimately lag behind it until a checkpoint.
    wal = Path(path + "-wal")
    wal_size = wal.stat().st_size if wal.exists() else 0
    if header[24:28] == header[92:96] and pages and not wal_size and size < pages * page_size:
        raise DatabaseUnusable(
            f"{path} is truncated ({size} bytes where its header announces "
            f"{pages * page_size}): restore a backup, or salvage what is left with "
            f"`sqlite3 {path} .recover`"
        )


def _unusable(path: str, exc: BaseException) -> DatabaseUnusable:
    """The one-line refusal for an error met while opening the database."""
    error = exc if isinstance(exc, StorageError) else (
        storage_error(exc) if isinstance(exc, sqlite3.Error) else None
    )
    folder = Path(path).parent
    if isinstance(error, StorageBusy):
        message = (
            f"{path} is locked by another process (still locked after "
            f"{BUSY_TIMEOUT_MS / 1000:g} s): stop the other bot or program using it, then "
            "start again"
        )
    elif isinstance(error, StorageReadOnly):
        message = (
            f"{path} is read-only (the file, its folder {folder} or the filesystem cannot be "
            "written): make them writable by the bot's user, or mount the volume read-write"
        )
    elif isinstance(error, StorageFull):
        message = f"the disk holding {path} is full: free some space, then start again"
    elif isinstance(error, StorageCorrupt):
        message = (
            f"{path} is corrupt ({_sqlite_words(exc)}): restore a backup, or salvage what is "
            f"left with `sqlite3 {path} .recover`"
        )
    elif isinstance(exc, sqlite3.Error) and error_code(exc) == SQLITE_CANTOPEN:
        if not os.access(folder, os.W_OK):
            message = (
                f"cannot open {path}: its folder {folder} is read-only (SQLite creates "
                f"{Path(path).name}-wal and -shm next to the database): make it writable by "
                "the bot's user, or mount the volume read-write"
            )
        else:
            message = (
                f"cannot open {path} ({exc}): check that the path is right and readable by "
                "the bot's user"
            )
    else:
        message = (
            f"{path} cannot be used ({_sqlite_words(exc)}): restore a backup, or move it "
            "away to start with an empty database"
        )
    return DatabaseUnusable(message)


def _sqlite_words(exc: BaseException) -> str:
    cause = exc.__cause__ if isinstance(exc, StorageError) and exc.__cause__ else exc
    return " ".join(str(cause).split())
