"""Backups of the bot's SQLite database: taken on a schedule while the bot runs, and at once
with `python -m bot.backups`.

The schedule follows the newest backup in the folder, not the process: a bot restarted every
night still backs up once a day, and one started with no backup takes one at once. A
PostgreSQL database is backed up by its server's tools (`pg_dump`), not here.

Restoring: stop the bot, copy a backup over the database file (and delete the `-wal` and
`-shm` files next to it, if any), start the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from dotenv import load_dotenv

from bot.clock import utcnow
from bot.config import Settings
from storage import StorageError, sqlite_path
from storage.backups import back_up, backups_of, last_backup_time

log = logging.getLogger(__name__)

RETRY_AFTER = timedelta(hours=1)
"""How long after a failed backup the next try comes."""

PG_DUMP_ADVICE = ("This bot's database is PostgreSQL: back it up with PostgreSQL's own tools, "
                  "e.g. `pg_dump --format=custom --file=ludotheque.dump DATABASE_URL`.")


@dataclass(frozen=True)
class BackupPlan:
    """What to back up, where, and how many backups to keep."""

    database: Path
    folder: Path
    keep: int

    @classmethod
    def of(cls, settings: Settings) -> BackupPlan | None:
        """The plan for a SQLite file database; None for PostgreSQL or an in-memory one."""
        if not settings.database_url.startswith("sqlite:///"):
            return None
        path = sqlite_path(settings.database_url)
        if path == ":memory:":
            return None
        database = Path(path)
        folder = Path(settings.backup_dir) if settings.backup_dir else database.parent / "backups"
        return cls(database, folder, settings.backups_kept)

    def take(self, now: datetime) -> Path:
        """Back up now (blocking: a thread's work); the backup's path."""
        return back_up(self.database, self.folder, taken=now, keep=self.keep)


class BackupSchedule:
    """Backs up the database every `every` while the bot runs (off the event loop)."""

    def __init__(self, plan: BackupPlan, every: timedelta, *,
                 now: Callable[[], datetime] = utcnow,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.plan = plan
        self.every = every
        self._now = now
        self._sleep = sleep
        self._failed_at: datetime | None = None
        self._task: asyncio.Task[None] | None = None

    def next_due(self) -> datetime:
        """When the next backup is due: `every` after the newest one (now if there is none),
        or `RETRY_AFTER` after a failed try."""
        if self._failed_at is not None:
            return self._failed_at + RETRY_AFTER
        last = last_backup_time(self.plan.database, self.plan.folder)
        return self._now() if last is None else last + self.every

    async def run_once(self) -> Path | None:
        """Take a backup now; its path, or None when it failed (logged, retried later)."""
        now = self._now()
        try:
            path = await asyncio.to_thread(self.plan.take, now)
        except (StorageError, OSError) as error:  # OSError: the folder, renaming, deleting
            self._failed_at = now
            log.error("database backup failed: %s; next try in %s", error, RETRY_AFTER)
            return None
        self._failed_at = None
        log.info("database backed up to %s (%d KiB; %d backup(s) kept)", path,
                 path.stat().st_size // 1024, len(backups_of(self.plan.database, self.plan.folder)))
        return path

    async def _run(self) -> None:
        while True:
            wait = (self.next_due() - self._now()).total_seconds()
            if wait > 0:
                await self._sleep(wait)
                continue  # look again: the clock may have jumped, another backup appeared
            await self.run_once()

    def start(self) -> None:
        """Start backing up in the background (once)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    def close(self) -> None:
        """Stop the schedule (a copy under way finishes in its thread, or leaves no file)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None


def backup_schedule(settings: Settings) -> BackupSchedule | None:
    """The schedule `settings` ask for; None when backups are off or not ours to take."""
    plan = BackupPlan.of(settings)
    if settings.backup_every is None:
        return None
    if plan is None:
        if not settings.database_url.startswith("sqlite"):
            log.info("no scheduled backups: %s", PG_DUMP_ADVICE)
        return None
    return BackupSchedule(plan, settings.backup_every)


def main(argv: list[str] | None = None) -> int:
    """`python -m bot.backups`: back up the database of DATABASE_URL now; the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m bot.backups",
        description="Back up the bot's SQLite database now (the bot may be running).")
    parser.add_argument("--to", help="the folder (default: BACKUP_DIR, else a backups folder "
                        "next to the database)")
    arguments = parser.parse_args(argv)
    load_dotenv()
    try:
        settings = Settings.from_env()
    except ValueError as error:
        print(f"Cannot back up: {error}.", file=sys.stderr)
        return 1
    plan = BackupPlan.of(settings)
    if plan is None:
        print(PG_DUMP_ADVICE if not settings.database_url.startswith("sqlite")
              else "Cannot back up an in-memory database.", file=sys.stderr)
        return 2
    if arguments.to:
        plan = BackupPlan(plan.database, Path(arguments.to), plan.keep)
    try:
        path = plan.take(utcnow())
    except (StorageError, OSError) as error:
        print(f"Cannot back up: {error}", file=sys.stderr)
        return 1
    kept = len(backups_of(plan.database, plan.folder))
    print(f"Backed up {plan.database} to {path} ({path.stat().st_size // 1024} KiB); "
          f"{kept} backup(s) kept there (BACKUPS_KEPT={plan.keep}).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
