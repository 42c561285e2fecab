"""`Database.open` refuses an unusable database within seconds, in one line saying what to do.

Each bad file is built for real in tmp_path. Tests run as root, which ignores file modes, so
a read-only file or folder is made immutable (`chattr +i`, which binds root too) when the
filesystem allows it, and with `chmod` when not running as root.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engines import GAMES
from storage import (
    MIGRATIONS,
    Database,
    DatabaseUnusable,
    MoveKind,
    NewMove,
    Seat,
    StorageError,
)

NOW = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)


async def _refusal(path: Path | str) -> str:
    """The refusal's message; checks it is one line, comes fast and leaves no thread behind."""
    threads = threading.active_count()
    started = time.monotonic()
    with pytest.raises(DatabaseUnusable) as raised:
        await Database.open(f"sqlite:///{path}")
    assert time.monotonic() - started < 5
    assert isinstance(raised.value, StorageError)
    message = str(raised.value)
    assert "\n" not in message and ": " in message
    for _ in range(100):  # aiosqlite's threads end once their connection is closed
        if threading.active_count() <= threads:
            break
        time.sleep(0.01)
    assert threading.active_count() <= threads
    return message


async def _real_database(path: Path, games: int = 1, moves: int = 0) -> None:
    db = await Database.open(f"sqlite:///{path}")
    try:
        for i in range(games):
            game = await db.create_game(
                game="qawale", guild_id=1, channel_id=10 + i, parent_id=None,
                seats=[Seat(0, 100, "Alice"), Seat(1, 200, "Bob")], options={}, rng_seed=i,
                state=GAMES["qawale"].new_state(2).dump(), now=NOW,
            )
            if moves:
                await db.record_moves(
                    game.id, 0,
                    [NewMove(p % 2, 100, MoveKind.PLAYER, f"move {p} " * 8) for p in range(moves)],
                    game.state, result=None, now=NOW,
                )
    finally:
        await db.close()  # the last close checkpoints the WAL into the file and removes it


@pytest.fixture
async def good(tmp_path: Path) -> AsyncIterator[Path]:
    path = tmp_path / "games.db"
    await _real_database(path)
    yield path


async def test_a_directory_is_refused(tmp_path: Path) -> None:
    message = await _refusal(tmp_path)
    assert message.startswith(f"{tmp_path} is a directory, not a database file")
    assert "DATABASE_URL" in message


@pytest.mark.parametrize("content", [b"games: none yet\n" * 200, b"\0" * 4096, b"SQLite"])
async def test_a_file_that_is_not_a_sqlite_database_is_refused(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "games.db"
    path.write_bytes(content)
    message = await _refusal(path)
    assert message.startswith(f"{path} is not a SQLite database")
    assert "restore a backup" in message
    assert path.read_bytes() == content  # left as found


async def test_a_truncated_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    await _real_database(path, games=20, moves=50)
    size = path.stat().st_size
    os.truncate(path, size // 2)
    message = await _refusal(path)
    assert message.startswith(f"{path} is truncated ({size // 2} bytes where its header "
                              f"announces {size})")


@pytest.mark.parametrize(("offset", "garbage", "said"), [
    (0, b"\xff" * 4096, "database disk image is malformed"),  # a whole page: SQLite's error
    (1000, bytes(range(256)) * 2, "PRAGMA quick_check: "),  # cells of a page: quick_check's
])
async def test_a_database_damaged_in_the_middle_is_refused(
    tmp_path: Path, offset: int, garbage: bytes, said: str
) -> None:
    path = tmp_path / "games.db"
    await _real_database(path, games=20, moves=50)
    page_size = 4096
    assert path.stat().st_size // page_size > 10
    connection = sqlite3.connect(path)
    # A leaf page of the moves table, full of rows, whatever the indexes take around it.
    leaves = [page for (page,) in connection.execute(
        "SELECT pageno FROM dbstat WHERE name = 'moves' AND pagetype = 'leaf' ORDER BY pageno")]
    connection.close()
    with path.open("r+b") as file:
        file.seek((leaves[len(leaves) // 2] - 1) * page_size + offset)
        file.write(garbage)
    message = await _refusal(path)
    assert message.startswith(f"{path} is corrupt ({said}")
    assert "restore a backup" in message and ".recover" in message


async def test_a_database_without_its_moves_table_is_refused(good: Path) -> None:
    connection = sqlite3.connect(good)
    connection.execute("DROP TABLE moves")
    connection.commit()
    connection.close()
    message = await _refusal(good)
    latest = MIGRATIONS[-1].version
    assert message.startswith(f"table moves is missing from {good} (schema version {latest}): "
                              "restore a backup")


async def test_a_database_without_a_column_is_refused(good: Path) -> None:
    connection = sqlite3.connect(good)
    connection.execute("ALTER TABLE games DROP COLUMN board_ply")
    connection.commit()
    connection.close()
    message = await _refusal(good)
    assert message.startswith(f"column games.board_ply is missing from {good}")


@contextmanager
def _read_only(*paths: Path) -> Iterator[None]:
    """Make files or folders read-only even for root (immutable), or skip the test."""
    if os.geteuid() != 0:
        modes = [p.stat().st_mode for p in paths]
        for p in paths:
            p.chmod(0o555 if p.is_dir() else 0o444)
        try:
            yield
        finally:
            for p, mode in zip(paths, modes, strict=True):
                p.chmod(mode)
        return
    try:
        subprocess.run(["chattr", "+i", *map(str, paths)], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"root cannot make a file read-only here (chattr: {exc})")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", *map(str, paths)], check=True)


async def test_a_read_only_database_file_is_refused(good: Path) -> None:
    with _read_only(good):
        message = await _refusal(good)
    assert message.startswith(f"{good} is read-only (the file, its folder ")
    assert "writable by the bot's user" in message


async def test_a_database_in_a_read_only_folder_is_refused(good: Path) -> None:
    with _read_only(good, good.parent):
        message = await _refusal(good)
    assert message.startswith(f"cannot open {good}: its folder {good.parent} is read-only")


async def test_a_database_locked_by_another_process_is_refused(good: Path) -> None:
    other = sqlite3.connect(good, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        message = await _refusal(good)
    finally:
        other.close()
    assert message.startswith(f"{good} is locked by another process (still locked after 2 s)")
    db = await Database.open(f"sqlite:///{good}")  # fine once the lock is gone
    await db.close()


async def test_a_new_database_another_process_is_writing_to_is_opened_once_it_is_done(
    tmp_path: Path,
) -> None:
    # Two bots starting together on a new database: one is in its first write while the
    # other switches the file to WAL, which SQLite refuses at once instead of waiting.
    path = tmp_path / "games.db"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("CREATE TABLE other_bots_table (a)")
    other.execute("BEGIN IMMEDIATE")
    done = threading.Timer(0.3, other.execute, ["COMMIT"])
    done.start()
    try:
        db = await Database.open(f"sqlite:///{path}")
        await db.close()
    finally:
        done.join()
        other.close()
