"""The SQLite backend (aiosqlite, WAL mode): connections, transactions, migrations, checks.

Writes are serialised: each goes through `transaction()` or `write()` (one writer at a time in
the process, `BEGIN IMMEDIATE`, commit on success, rollback as a whole on any exception, a
cancellation included), so one game's commit never carries another game's half-done write.
Reads go through a second, query-only connection that sees the last committed state only (WAL
lets it read while the writer works); an in-memory database has a single connection, and its
reads wait for the writer instead. A query (`storage.sql.Work`) runs on the connection's
thread in one round trip, however many statements it has.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from storage.backups import keep_before_upgrade
from storage.database import Database, register_backend
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
from storage.rating_writes import Rater
from storage.sql import Executor, Row, Values, Work, Written, drive

LOG = logging.getLogger(__name__)
T = TypeVar("T")
ThreadWork = Callable[[sqlite3.Connection], T]
"""Statements run directly on a SQLite connection, on its thread."""

RESTORE = "restore a backup (Backups, in the README, says how)"
"""What to do with a database that cannot be used, among other choices."""

BUSY_TIMEOUT_MS = 2000
"""How long a write waits for another process's lock: a locked write fails (StorageBusy)
within Discord's 3 s interaction window rather than after it."""



def sqlite_path(url: str) -> str:
    """The file path in a `sqlite:///relative.db` or `sqlite:////absolute.db` URL (or a path)."""
    if url.startswith("sqlite:///"):
        return url.removeprefix("sqlite:///")
    if "://" in url:
        raise ValueError(f"only sqlite:/// database URLs are supported, not {url!r}")
    return url


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


class SqliteTransaction:
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


class SqliteDatabase(Database):
    """The SQLite database: one writer connection and one reader (WAL) per bot."""

    def __init__(
        self,
        connection: aiosqlite.Connection,
        reader: aiosqlite.Connection | None = None,
        *,
        path: str = ":memory:",
        rater: Rater | None = None,
    ) -> None:
        super().__init__(rater=rater)
        self._db = connection
        self._reader = reader or connection
        self._path = path
        self._lock = asyncio.Lock()
        self._tx: SqliteTransaction | None = None
        self._owner: asyncio.Task[Any] | None = None

    @classmethod
    async def connect(
        cls,
        url: str,
        migrations: Sequence[Migration] = MIGRATIONS,
        *,
        rater: Rater | None = None,
    ) -> SqliteDatabase:
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
            if not memory:
                await database._keep_before_upgrade(migrations)
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
    async def transaction(self) -> AsyncIterator[SqliteTransaction]:
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
            tx = SqliteTransaction(self._db)
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
                f"{self._path} is corrupt (PRAGMA quick_check: {problem}): {RESTORE}, "
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
                    f"{RESTORE}, or move the file away to start with an empty database"
                )
            for column in wanted:
                if column not in found[table]:
                    raise DatabaseUnusable(
                        f"column {table}.{column} is missing from {self._path} (schema version "
                        f"{version}): {RESTORE}, or move the file away to start with an "
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
                    f"migration, or {RESTORE}"
                ) from exc
        return applied

    async def _keep_before_upgrade(self, migrations: Sequence[Migration]) -> None:
        """Copy a database that has a schema into `backups/` next to it before migrations
        it has not had change that schema: a new version's upgrade can be undone."""
        version = await self.schema_version()
        if version == 0 or all(migration.version <= version for migration in migrations):
            return
        database, taken = Path(self._path), datetime.now(UTC)
        try:
            copy = await _call(self._db, lambda connection: keep_before_upgrade(
                connection, database, version, taken))
        except StorageError as error:
            raise DatabaseUnusable(
                f"{self._path} was not upgraded, since no copy of it could be kept first "
                f"({error})") from error
        LOG.info("schema %d of %s is upgraded; a copy of it as it was: %s", version,
                 self._path, copy)

    async def journal_mode(self) -> str:
        """SQLite's journal mode (`wal` once opened)."""
        rows = await self._fetch("PRAGMA journal_mode")
        if not rows:
            raise RuntimeError("PRAGMA journal_mode gave no row")
        return str(rows[0][0])


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


WAL_SWITCH_PAUSE_S = 0.01
"""The pause between two tries to switch a database to WAL while another process holds it."""


def _set_up_writer(connection: sqlite3.Connection) -> None:
    connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    connection.execute("PRAGMA foreign_keys = ON")
    # Switching to WAL needs the database to itself, and SQLite answers "database is locked"
    # at once, without waiting out the busy timeout, while another connection holds a lock:
    # two processes opening a new database together did fail so. Try until that timeout.
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            connection.execute("PRAGMA journal_mode = WAL").fetchall()
            return
        except sqlite3.OperationalError as exc:
            if not isinstance(storage_error(exc), StorageBusy) or time.monotonic() > deadline:
                raise
        time.sleep(WAL_SWITCH_PAUSE_S)


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
            f"foreign file): {RESTORE}, or move it away to start with an empty database"
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
            f"{pages * page_size}): {RESTORE}, or salvage what is left with "
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
            f"{path} is corrupt ({_sqlite_words(exc)}): {RESTORE}, or salvage what is "
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
            f"{path} cannot be used ({_sqlite_words(exc)}): {RESTORE}, or move it "
            "away to start with an empty database"
        )
    return DatabaseUnusable(message)


def _sqlite_words(exc: BaseException) -> str:
    cause = exc.__cause__ if isinstance(exc, StorageError) and exc.__cause__ else exc
    return " ".join(str(cause).split())



async def _open(url: str, migrations: Sequence[Migration], rater: Rater | None) -> Database:
    return await SqliteDatabase.connect(url, migrations, rater=rater)


register_backend("sqlite", _open)
