"""The bot backs up its SQLite database on a schedule that survives restarts, retries a
failed backup, leaves PostgreSQL to pg_dump, and `python -m bot.backups` takes one at once."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.backups import RETRY_AFTER, BackupPlan, BackupSchedule, backup_schedule, main
from bot.config import Settings
from storage import Database
from storage.backups import backups_of

START = datetime(2026, 11, 27, 3, 0, tzinfo=UTC)
DAY = timedelta(hours=24)


class FakeClock:
    """A wall clock that moves only when the schedule sleeps; it stops the schedule once it
    has slept `sleeps` times."""

    def __init__(self, sleeps: int) -> None:
        self.now = START
        self.slept: list[float] = []
        self.sleeps = sleeps
        self.done = asyncio.Event()

    def time(self) -> datetime:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += timedelta(seconds=seconds)
        if len(self.slept) >= self.sleeps:
            self.done.set()
            await asyncio.Event().wait()  # the schedule waits here until it is closed


async def stored_database(folder: Path) -> Path:
    """A migrated SQLite database file in `folder`."""
    path = folder / "ludotheque.db"
    database = await Database.open(f"sqlite:///{path}")
    await database.close()
    return path


async def run_schedule(schedule: BackupSchedule, clock: FakeClock) -> None:
    """Let the schedule run until the fake clock stops it."""
    schedule.start()
    await asyncio.wait_for(clock.done.wait(), timeout=30)
    schedule.close()


async def test_a_bot_with_no_backup_takes_one_at_once_then_one_a_day(tmp_path: Path) -> None:
    database = await stored_database(tmp_path)
    clock = FakeClock(sleeps=3)
    schedule = BackupSchedule(BackupPlan(database, tmp_path / "backups", keep=7), DAY,
                              now=clock.time, sleep=clock.sleep)
    await run_schedule(schedule, clock)
    names = [path.name for path in backups_of(database, tmp_path / "backups")]
    assert names == ["ludotheque-20261127-030000.db", "ludotheque-20261128-030000.db",
                     "ludotheque-20261129-030000.db"]
    assert clock.slept == [DAY.total_seconds()] * 3


async def test_a_restarted_bot_keeps_the_schedule_of_the_last_backup(tmp_path: Path) -> None:
    database = await stored_database(tmp_path)
    plan = BackupPlan(database, tmp_path / "backups", keep=7)
    plan.take(START - timedelta(hours=20))  # taken by the process before the restart
    clock = FakeClock(sleeps=1)
    await run_schedule(BackupSchedule(plan, DAY, now=clock.time, sleep=clock.sleep), clock)
    assert clock.slept == [timedelta(hours=4).total_seconds()]
    assert len(backups_of(database, plan.folder)) == 1  # none taken early


async def test_a_failed_backup_is_logged_and_tried_again_an_hour_later(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    database = tmp_path / "ludotheque.db"  # not there yet: the backup fails
    clock = FakeClock(sleeps=1)
    schedule = BackupSchedule(BackupPlan(database, tmp_path / "backups", keep=7), DAY,
                              now=clock.time, sleep=clock.sleep)
    with caplog.at_level(logging.ERROR, logger="bot.backups"):
        await run_schedule(schedule, clock)
    assert "database backup failed: there is no database at" in caplog.text
    assert clock.slept == [RETRY_AFTER.total_seconds()]
    await stored_database(tmp_path)
    assert await schedule.run_once() is not None  # the next try works
    assert schedule.next_due() == clock.now + DAY


def test_backups_are_scheduled_for_a_sqlite_file_only(tmp_path: Path) -> None:
    file = Settings(database_url=f"sqlite:///{tmp_path / 'bot.db'}", backup_every=DAY)
    schedule = backup_schedule(file)
    assert schedule is not None and schedule.plan.folder == tmp_path / "backups"
    assert schedule.every == DAY
    elsewhere = Settings(database_url=f"sqlite:///{tmp_path / 'bot.db'}", backup_every=DAY,
                         backup_dir=str(tmp_path / "safe"), backups_kept=3)
    assert backup_schedule(elsewhere).plan == BackupPlan(  # type: ignore[union-attr]
        tmp_path / "bot.db", tmp_path / "safe", 3)
    assert backup_schedule(Settings(database_url="postgresql://u@h/db", backup_every=DAY)) is None
    assert backup_schedule(Settings(database_url="sqlite:///:memory:", backup_every=DAY)) is None
    assert backup_schedule(Settings(database_url=file.database_url, backup_every=None)) is None


def test_backups_are_daily_and_seven_are_kept_unless_told_otherwise() -> None:
    default = Settings.from_env({})
    assert (default.backup_every, default.backups_kept, default.backup_dir) == (DAY, 7, None)
    told = Settings.from_env({"BACKUP_HOURS": "6", "BACKUPS_KEPT": "28", "BACKUP_DIR": "/safe"})
    assert (told.backup_every, told.backups_kept, told.backup_dir) == (
        timedelta(hours=6), 28, "/safe")
    assert Settings.from_env({"BACKUP_HOURS": "0"}).backup_every is None


@pytest.mark.parametrize(("name", "value"), [("BACKUP_HOURS", "daily"), ("BACKUPS_KEPT", "0"),
                                             ("BACKUPS_KEPT", "-1")])
def test_a_backup_setting_that_is_not_a_count_is_refused(name: str, value: str) -> None:
    with pytest.raises(ValueError, match=name):
        Settings.from_env({name: value})


async def test_python_m_bot_backups_takes_one_now_and_says_where(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = await stored_database(tmp_path)
    monkeypatch.setattr("bot.backups.load_dotenv", lambda: False)  # a developer's .env
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")
    assert main([]) == 0
    said = capsys.readouterr().out
    [backup] = backups_of(database, tmp_path / "backups")
    assert f"Backed up {database} to {backup}" in said and "1 backup(s) kept" in said
    with sqlite3.connect(backup) as copy:
        assert copy.execute("PRAGMA quick_check").fetchone() == ("ok",)
    assert main(["--to", str(tmp_path / "elsewhere")]) == 0
    assert len(backups_of(database, tmp_path / "elsewhere")) == 1


def test_python_m_bot_backups_points_postgresql_to_pg_dump(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("bot.backups.load_dotenv", lambda: False)
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot@localhost/ludotheque")
    assert main([]) == 2
    assert "pg_dump" in capsys.readouterr().err


def test_python_m_bot_backups_says_in_one_line_why_it_cannot(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("bot.backups.load_dotenv", lambda: False)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'never-started.db'}")
    assert main([]) == 1
    assert capsys.readouterr().err.strip() == (
        f"Cannot back up: there is no database at {tmp_path / 'never-started.db'} to back up")


async def test_a_backup_folder_the_bot_cannot_write_in_is_logged_not_fatal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    database = await stored_database(tmp_path)
    schedule = BackupSchedule(BackupPlan(database, tmp_path / "backups", keep=7), DAY)

    def refused(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "replace", refused)  # the rename that names the backup
    with caplog.at_level(logging.ERROR, logger="bot.backups"):
        assert await schedule.run_once() is None
    assert "database backup failed: [Errno 13] Permission denied" in caplog.text
    assert list((tmp_path / "backups").iterdir()) == []  # the partial copy is gone
