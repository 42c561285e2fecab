"""Typed storage errors: what went wrong with the database, in words an operator can act on.

`Database` turns SQLite's errors into these (see `storage_error`), so the bot can tell a
player "the database is busy, try again" without parsing SQLite's messages. A constraint
violation or a programming error is not converted: that is a bug, not a state of the disk.
"""

from __future__ import annotations

import sqlite3

# SQLite's primary result codes (the low byte of an extended code).
SQLITE_BUSY = 5
SQLITE_LOCKED = 6
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_CORRUPT = 11
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14
SQLITE_NOTADB = 26


class StorageError(Exception):
    """The database could not do what was asked; the message says why and what to do."""

    default_message = "The database failed; see the log for SQLite's own words."

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or self.default_message)

    @property
    def message(self) -> str:
        """The plain-words explanation."""
        return str(self.args[0])


class StorageBusy(StorageError):
    """Another process holds the database's write lock for longer than the busy timeout."""

    default_message = (
        "The database is locked by another process; the write was not stored. "
        "Try again in a moment, and stop any other program using the database file."
    )


class StorageFull(StorageError):
    """The disk (or SQLite's size limit) is full."""

    default_message = (
        "The disk holding the database is full; the write was not stored. "
        "Free some space on it."
    )


class StorageReadOnly(StorageError):
    """The database file, its folder or its filesystem cannot be written."""

    default_message = (
        "The database is read-only (the file, its folder or its filesystem); the write was "
        "not stored. Make it writable by the bot's user."
    )


class StorageCorrupt(StorageError):
    """The file is damaged or is not a SQLite database."""

    default_message = (
        "The database file is damaged (SQLite reports it malformed or not a database). "
        "Stop the bot and restore a backup."
    )


class DatabaseUnusable(StorageError):
    """`Database.open` refused the database; the one-line message says what is wrong."""


def error_code(exc: sqlite3.Error) -> int | None:
    """SQLite's primary result code of an error, guessed from its message if not attached."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF
    text = str(exc).lower()
    for needle, found in (
        ("database is locked", SQLITE_BUSY),
        ("database table is locked", SQLITE_LOCKED),
        ("readonly database", SQLITE_READONLY),
        ("disk is full", SQLITE_FULL),
        ("malformed", SQLITE_CORRUPT),
        ("not a database", SQLITE_NOTADB),
        ("disk i/o error", SQLITE_IOERR),
        ("unable to open database file", SQLITE_CANTOPEN),
    ):
        if needle in text:
            return found
    return None


def storage_error(exc: BaseException) -> StorageError | None:
    """The typed error for a SQLite error about the database itself; None for anything else."""
    if not isinstance(exc, sqlite3.OperationalError | sqlite3.DatabaseError) or isinstance(
        exc, sqlite3.IntegrityError | sqlite3.ProgrammingError | sqlite3.InterfaceError
    ):
        return None
    code = error_code(exc)
    kind: type[StorageError] | None = {
        SQLITE_BUSY: StorageBusy,
        SQLITE_LOCKED: StorageBusy,
        SQLITE_FULL: StorageFull,
        SQLITE_READONLY: StorageReadOnly,
        SQLITE_CORRUPT: StorageCorrupt,
        SQLITE_NOTADB: StorageCorrupt,
    }.get(code or 0)
    if kind is None:
        return None
    return kind(f"{kind.default_message} (SQLite: {exc})")


class ChallengeClosed(Exception):
    """A challenge could not be accepted: it was answered, cancelled or expired meanwhile
    (nothing was written)."""

    def __init__(self, challenge_id: int) -> None:
        super().__init__(f"challenge {challenge_id} is no longer pending")
        self.challenge_id = challenge_id

