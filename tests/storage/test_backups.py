"""Backups of a SQLite database while the bot uses it: whole, sound, committed moves only,
the newest few kept, nothing half-written left behind."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engines import GAMES
from storage import (
    MIGRATIONS,
    Database,
    DatabaseUnusable,
    GameRecord,
    Migration,
    Seat,
    StorageError,
)
from storage.backups import PARTIAL_SUFFIX, back_up, backups_of, last_backup_time

NOW = datetime(2026, 11, 27, 3, 15, tzinfo=UTC)


async def new_game(db: Database, channel_id: int) -> GameRecord:
    """A stored Qawale game in channel `channel_id`."""
    return await db.create_game(
        game="qawale", guild_id=1, channel_id=channel_id, parent_id=5,
        seats=[Seat(0, 100, "Alice"), Seat(1, 200, "Bob")], options={}, rng_seed=42,
        state=GAMES["qawale"].new_state(2).dump(), now=NOW)


@pytest.fixture
async def running(tmp_path: Path) -> Database:
    """A bot's SQLite database, open (in WAL mode) while the tests back it up."""
    database = await Database.open(f"sqlite:///{tmp_path / 'ludotheque.db'}")
    yield database  # type: ignore[misc]
    await database.close()


async def test_a_backup_taken_while_the_bot_runs_holds_every_stored_game(
        running: Database, tmp_path: Path) -> None:
    games = [await new_game(running, channel) for channel in (10, 11, 12)]
    backup = await asyncio.to_thread(back_up, tmp_path / "ludotheque.db", tmp_path / "backups",
                                     taken=NOW, keep=7)
    assert backup == tmp_path / "backups" / "ludotheque-20261127-031500.db"
    copy = await Database.open(f"sqlite:///{backup}")
    try:
        for game in games:
            restored = await copy.get_game(game.id)
            assert restored is not None and restored.state == game.state
    finally:
        await copy.close()


async def test_a_write_not_yet_committed_is_not_in_the_backup(
        running: Database, tmp_path: Path) -> None:
    stored = await new_game(running, 10)
    async with running.transaction() as sql:
        await sql.execute("UPDATE games SET channel_id = 99 WHERE id = ?", (stored.id,))
        # The bot is mid-write: the backup copies the last committed state, and does not wait.
        backup = await asyncio.to_thread(back_up, tmp_path / "ludotheque.db",
                                         tmp_path / "backups", taken=NOW, keep=7)
    with sqlite3.connect(backup) as copy:
        assert copy.execute("SELECT channel_id FROM games").fetchall() == [(10,)]
    assert (await running.get_game(stored.id)).channel_id == 99  # type: ignore[union-attr]


async def test_a_backup_is_one_sound_file_that_needs_no_wal(
        running: Database, tmp_path: Path) -> None:
    await new_game(running, 10)
    backup = back_up(tmp_path / "ludotheque.db", tmp_path / "backups", taken=NOW, keep=7)
    with sqlite3.connect(backup) as copy:
        assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        assert copy.execute("PRAGMA quick_check").fetchone() == ("ok",)
    assert sorted(path.name for path in backup.parent.iterdir()) == [backup.name]


async def test_only_the_newest_backups_are_kept_and_other_files_are_left_alone(
        running: Database, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "ludotheque-notes.db").write_text("mine")  # not a backup's name
    for hours in range(4):
        back_up(tmp_path / "ludotheque.db", folder, taken=NOW + timedelta(hours=hours), keep=2)
    kept = backups_of(tmp_path / "ludotheque.db", folder)
    assert [path.name for path in kept] == ["ludotheque-20261127-051500.db",
                                            "ludotheque-20261127-061500.db"]
    assert (folder / "ludotheque-notes.db").read_text() == "mine"
    assert last_backup_time(tmp_path / "ludotheque.db", folder) == NOW + timedelta(hours=3)


async def test_a_backup_cut_off_by_a_stop_is_cleared_by_the_next(
        running: Database, tmp_path: Path) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    cut_off = folder / f"ludotheque-20261126-031500.db{PARTIAL_SUFFIX}"
    cut_off.write_bytes(b"SQLite format 3\0 and then nothing")
    assert last_backup_time(tmp_path / "ludotheque.db", folder) is None
    back_up(tmp_path / "ludotheque.db", folder, taken=NOW, keep=7)
    assert not cut_off.exists()
    assert len(backups_of(tmp_path / "ludotheque.db", folder)) == 1


def test_a_missing_database_is_not_backed_up(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="no database at"):
        back_up(tmp_path / "gone.db", tmp_path / "backups", taken=NOW, keep=7)
    assert not (tmp_path / "backups").exists()


async def test_a_folder_that_cannot_be_made_is_named_and_leaves_nothing(
        running: Database, tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    with pytest.raises(StorageError, match="cannot create the backup folder"):
        back_up(tmp_path / "ludotheque.db", blocked / "backups", taken=NOW, keep=7)


async def test_a_damaged_database_gives_no_backup(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(b"SQLite format 3\0" + b"\xff" * 4000)
    with pytest.raises(StorageError, match="cannot back up"):
        back_up(damaged, tmp_path / "backups", taken=NOW, keep=7)
    assert list((tmp_path / "backups").iterdir()) == []


async def test_a_backup_completes_while_the_bot_writes_without_pause(
        running: Database, tmp_path: Path) -> None:
    async with running.transaction() as sql:  # some megabytes: a copy of many pages
        await sql.execute("CREATE TABLE ballast (data BLOB)")
        for _ in range(40):
            await sql.execute("INSERT INTO ballast VALUES (?)", (b"x" * 200_000,))
    game = await new_game(running, 10)
    copying = asyncio.create_task(asyncio.to_thread(
        back_up, tmp_path / "ludotheque.db", tmp_path / "backups", taken=NOW, keep=7))
    writes = 0
    while not copying.done():  # a move stored every millisecond or so, all along the copy
        async with running.transaction() as sql:
            await sql.execute("UPDATE games SET channel_id = ? WHERE id = ?", (writes, game.id))
        writes += 1
        await asyncio.sleep(0.001)
    backup = await asyncio.wait_for(copying, timeout=30)
    with sqlite3.connect(backup) as copy:
        assert copy.execute("PRAGMA quick_check").fetchone() == ("ok",)
        assert copy.execute("SELECT COUNT(*) FROM ballast").fetchone() == (40,)


UPGRADE = Migration(MIGRATIONS[-1].version + 1, "a new column",
                    ("ALTER TABLE games ADD COLUMN note TEXT DEFAULT 'kept'",))
"""The migration a new version of the bot brings."""


async def test_an_upgrade_first_keeps_a_copy_of_the_database_as_it_was(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ludotheque.db'}"
    old = await Database.open(url)
    game = await new_game(old, 10)
    await old.close()
    upgraded = await Database.open(url, migrations=(*MIGRATIONS, UPGRADE))
    await upgraded.close()
    [copy] = (tmp_path / "backups").iterdir()
    assert copy.name.startswith(f"ludotheque-before-upgrade-from-v{MIGRATIONS[-1].version}-")
    with sqlite3.connect(copy) as kept:
        assert kept.execute("SELECT MAX(version) FROM schema_version").fetchone() == (
            MIGRATIONS[-1].version,)
        assert kept.execute("SELECT id FROM games").fetchall() == [(game.id,)]
    # Not one of the scheduled backups: never counted, never deleted by their rotation.
    assert backups_of(tmp_path / "ludotheque.db", tmp_path / "backups") == []


async def test_a_new_database_or_one_already_up_to_date_is_not_copied(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ludotheque.db'}"
    for _ in range(2):
        await (await Database.open(url)).close()
    assert not (tmp_path / "backups").exists()


async def test_no_upgrade_happens_without_its_copy(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ludotheque.db'}"
    await (await Database.open(url)).close()
    (tmp_path / "backups").write_text("a file where the folder would go")
    with pytest.raises(DatabaseUnusable, match="was not upgraded, since no copy of it could"):
        await Database.open(url, migrations=(*MIGRATIONS, UPGRADE))
    again = await Database.open(url)  # still at the old schema, and usable
    assert await again.schema_version() == MIGRATIONS[-1].version
    await again.close()
