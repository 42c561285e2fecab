"""Backups of a SQLite database, taken while the bot runs: consistent copies, checked, kept in
a folder with the newest few.

SQLite's online backup copies the last committed state through a read transaction: in WAL mode
the bot keeps writing meanwhile, and a move half-stored never reaches the copy. The copy is
written under a temporary name, checked (`PRAGMA quick_check`) and only then given its final
name, so a file with a backup's name is always a whole, sound database.
"""

from __future__ import annotations

import contextlib
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from storage.errors import StorageError, storage_error

STAMP_FORMAT = "%Y%m%d-%H%M%S"
"""A backup's time in its file name (UTC): names sort as times do."""

PARTIAL_SUFFIX = ".part"
"""A backup being written: not one yet."""

READ_WAIT_MS = 2000
"""How long the copy waits when the database is briefly locked for reading (WAL recovery
after a crash, a checkpoint that resets the log): readers are otherwise never held up."""

UPGRADE_MARK = "before-upgrade-from-v"
"""In the name of the copy kept before a new version upgrades the schema; the schedule
neither counts nor deletes such copies."""


def backup_name(database: Path, taken: datetime) -> str:
    """`ludotheque-20261127-031500.db` for `ludotheque.db` backed up at 03:15:00 UTC."""
    return f"{database.stem}-{taken.astimezone(UTC).strftime(STAMP_FORMAT)}{database.suffix}"


def taken_at(database: Path, backup: Path) -> datetime | None:
    """When `backup` (a file named by `backup_name`) was taken; None for another file."""
    prefix, suffix = f"{database.stem}-", database.suffix
    name = backup.name
    if not (name.startswith(prefix) and name.endswith(suffix)):
        return None
    try:
        stamp = datetime.strptime(name[len(prefix):len(name) - len(suffix)], STAMP_FORMAT)
    except ValueError:
        return None  # another file that happens to share the prefix
    return stamp.replace(tzinfo=UTC)


def backups_of(database: Path, folder: Path) -> list[Path]:
    """The finished backups of `database` in `folder`, oldest first."""
    if not folder.is_dir():
        return []
    return sorted((path for path in folder.iterdir() if taken_at(database, path) is not None),
                  key=lambda path: path.name)


def last_backup_time(database: Path, folder: Path) -> datetime | None:
    """When the newest backup of `database` in `folder` was taken (UTC), if any."""
    backups = backups_of(database, folder)
    return taken_at(database, backups[-1]) if backups else None


def back_up(database: Path, folder: Path, *, taken: datetime, keep: int) -> Path:
    """Copy `database` (in use or not) into `folder` as of now, check the copy, then delete
    all but the newest `keep` backups; the new backup's path. Blocking: run it in a thread.

    Raises StorageError (the database cannot be read, the folder cannot be written, the
    copy is not sound); no partial file is left behind.
    """
    if not database.is_file():
        raise StorageError(f"there is no database at {database} to back up")
    try:
        source = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
        source.execute(f"PRAGMA busy_timeout = {READ_WAIT_MS}")
    except sqlite3.Error as exc:
        raise _failed(database, exc) from exc
    try:
        final = _write(source, database, folder, backup_name(database, taken))
    finally:
        source.close()
    for old in backups_of(database, folder)[:-keep] if keep > 0 else []:
        old.unlink(missing_ok=True)
    return final


def keep_before_upgrade(connection: sqlite3.Connection, database: Path, version: int,
                        taken: datetime) -> Path:
    """Copy `database`, at schema `version`, through its open `connection` into the
    `backups` folder next to it before new migrations change it; the copy's path. Such a
    copy is kept until deleted by hand (the schedule leaves it alone)."""
    stamp = taken.astimezone(UTC).strftime(STAMP_FORMAT)
    name = f"{database.stem}-{UPGRADE_MARK}{version}-{stamp}{database.suffix}"
    return _write(connection, database, database.parent / "backups", name)


def _write(source: sqlite3.Connection, database: Path, folder: Path, name: str) -> Path:
    """A checked copy of `source` (the database at `database`) as `folder/name`, written
    under a temporary name first; its path."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageError(f"cannot create the backup folder {folder} ({exc.strerror}): "
                           "create it, or set BACKUP_DIR to a writable place") from exc
    final = folder / name
    partial = final.with_name(final.name + PARTIAL_SUFFIX)
    for stale in folder.glob(f"{database.stem}-*{PARTIAL_SUFFIX}"):
        stale.unlink(missing_ok=True)  # a backup cut off by a stop
    try:
        _copy(source, database, partial)
        partial.replace(final)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return final


def _copy(source: sqlite3.Connection, database: Path, target: Path) -> None:
    """A checked copy of `source` (the database at `database`) at `target`."""
    try:
        with contextlib.closing(sqlite3.connect(target)) as copy:
            # In one step: a copy made in steps starts over whenever another connection
            # (the bot's) writes between two of them, so a big database under load might
            # never finish. One step reads one snapshot; in WAL mode the bot writes on.
            source.backup(copy)
            found = [str(row[0]) for row in copy.execute("PRAGMA quick_check")]
            if found != ["ok"]:
                raise StorageError(f"the backup of {database} is not sound (PRAGMA "
                                   f"quick_check: {'; '.join(found)[:160]}): the database "
                                   "itself may be damaged")
            # Keep the copy a single file: a reader opening it must not need a -wal file.
            copy.execute("PRAGMA journal_mode = DELETE").fetchall()
    except sqlite3.Error as exc:
        raise _failed(database, exc) from exc


def _failed(database: Path, exc: sqlite3.Error) -> StorageError:
    """Why a backup of `database` failed, in the storage layer's words."""
    error = storage_error(exc)
    reason = str(error) if error is not None else str(exc)
    return StorageError(f"cannot back up {database}: {reason}")
