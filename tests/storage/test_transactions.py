"""One transaction per write, isolated: no game's commit or rollback reaches another game's write.

Named after the reproductions of "Nothing lost, nothing stale": (a) a crash while one game was
half-way through `record_moves` left `games.ply = 1` with no row in `moves` (another game's
commit had carried the UPDATE); (b) a rolled-back UPDATE kept its INSERT, and the game's next
move failed on `UNIQUE constraint failed: moves.game_id, moves.ply` for good.
"""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import pytest

from engines import GAMES
from storage import (
    Database,
    GameRecord,
    MoveKind,
    NewMove,
    Seat,
    StorageBusy,
    StorageFull,
    StorageReadOnly,
)

NOW = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
async def db(path: Path) -> AsyncIterator[Database]:
    database = await Database.open(f"sqlite:///{path}")
    yield database
    await database.close()


async def _new_game(db: Database, channel_id: int = 10) -> GameRecord:
    return await db.create_game(
        game="qawale", guild_id=1, channel_id=channel_id, parent_id=5,
        seats=[Seat(0, 100, "Alice"), Seat(1, 200, "Bob")], options={}, rng_seed=42,
        state=GAMES["qawale"].new_state(2).dump(), now=NOW,
    )


def _move(text: str = "a1:NNE", seat: int = 0) -> NewMove:
    return NewMove(seat, 100 + 100 * seat, MoveKind.PLAYER, text)


async def _play(db: Database, game: GameRecord, ply: int, *moves: NewMove) -> int:
    return await db.record_moves(game.id, ply, list(moves), {"ply": ply + len(moves)},
                                 result=None, now=NOW)


async def _stored(db: Database, game: GameRecord) -> tuple[int, list[int]]:
    """The stored ply and the plies of the stored log."""
    record = await db.get_game(game.id)
    assert record is not None
    return record.ply, [m.ply for m in await db.moves(game.id)]


def _crash_image(path: Path, into: Path) -> Path:
    """Copy the database and its WAL as a crash at this moment would leave them."""
    into.mkdir()
    for suffix in ("", "-wal"):
        if Path(f"{path}{suffix}").exists():
            shutil.copyfile(f"{path}{suffix}", into / f"{path.name}{suffix}")
    return into / path.name


async def test_a_crash_mid_write_leaves_no_ply_without_its_move(
    db: Database, path: Path, tmp_path: Path
) -> None:
    a, b = await _new_game(db, 10), await _new_game(db, 11)
    updated, resume = asyncio.Event(), asyncio.Event()

    async def half_of_record_moves() -> None:
        # Game a's write, stopped between its UPDATE and its INSERT.
        async with db.transaction() as tx:
            await tx.execute("UPDATE games SET ply = 1 WHERE id = ?", (a.id,))
            updated.set()
            await resume.wait()
            await tx.execute(
                "INSERT INTO moves (game_id, ply, kind, move, created_at) VALUES (?, 1, ?, ?, ?)",
                (a.id, "player", "a1:NNE", NOW.isoformat()),
            )

    writer_a = asyncio.create_task(half_of_record_moves())
    await updated.wait()
    writer_b = asyncio.create_task(_play(db, b, 0, _move()))
    await asyncio.sleep(0.05)
    assert not writer_b.done()  # b waits for a's transaction instead of committing it
    assert await _stored(db, a) == (0, [])  # readers never see a's uncommitted UPDATE

    crashed = await Database.open(f"sqlite:///{_crash_image(path, tmp_path / 'crash')}")
    try:
        assert await _stored(crashed, a) == (0, [])
        assert await _stored(crashed, b) == (0, [])
    finally:
        await crashed.close()

    writer_a.cancel()  # the crash of a's write: it is rolled back as a whole
    with pytest.raises(asyncio.CancelledError):
        await writer_a
    assert await writer_b == 1
    assert await _stored(db, a) == (0, [])
    assert await _stored(db, b) == (1, [1])
    assert await _play(db, a, 0, _move()) == 1
    assert await _play(db, b, 1, _move("a4:SSE", 1)) == 2
    assert await _stored(db, a) == (1, [1]) and await _stored(db, b) == (2, [1, 2])


async def test_a_rolled_back_write_keeps_none_of_its_rows_and_the_next_move_works(
    db: Database,
) -> None:
    a, b = await _new_game(db, 10), await _new_game(db, 11)
    unbindable = NewMove(1, 200, MoveKind.PLAYER, cast(str, object()))
    failing = _play(db, a, 0, _move(), unbindable)  # UPDATE and first INSERT pass, then it fails
    results = await asyncio.gather(failing, _play(db, b, 0, _move()), return_exceptions=True)
    assert isinstance(results[0], sqlite3.Error) and results[1] == 1
    assert await _stored(db, a) == (0, [])
    assert await _stored(db, b) == (1, [1])
    # No UNIQUE constraint failure: the failed write left no row behind.
    assert await _play(db, a, 0, _move()) == 1
    assert await _play(db, b, 1, _move("a4:SSE", 1)) == 2
    assert await _stored(db, a) == (1, [1]) and await _stored(db, b) == (2, [1, 2])


async def test_a_primary_key_violation_rolls_back_the_whole_write(db: Database) -> None:
    a, b = await _new_game(db, 10), await _new_game(db, 11)
    async with db.transaction() as tx:  # a stray log row at ply 2 (as main's bug left them)
        await tx.execute(
            "INSERT INTO moves (game_id, ply, kind, move, created_at) VALUES (?, 2, ?, ?, ?)",
            (a.id, "player", "x", NOW.isoformat()),
        )
    results = await asyncio.gather(_play(db, a, 0, _move(), _move("a4:SSE", 1)),
                                   _play(db, b, 0, _move()), return_exceptions=True)
    assert isinstance(results[0], sqlite3.IntegrityError) and results[1] == 1
    assert await _stored(db, a) == (0, [2])  # neither the UPDATE nor the row at ply 1
    assert await _stored(db, b) == (1, [1])


@pytest.mark.parametrize("yields", [0, 1, 2, 3])
async def test_a_cancelled_write_is_all_or_nothing_and_spares_the_other_game(
    db: Database, yields: int
) -> None:
    a, b = await _new_game(db, 10), await _new_game(db, 11)
    writer_a = asyncio.create_task(_play(db, a, 0, _move(), _move("a4:SSE", 1)))
    writer_b = asyncio.create_task(_play(db, b, 0, _move()))
    for _ in range(yields):
        await asyncio.sleep(0)
    writer_a.cancel()
    done = await asyncio.gather(writer_a, writer_b, return_exceptions=True)
    assert isinstance(done[0], asyncio.CancelledError) and done[1] == 1
    # Cancelled before its COMMIT, the write is rolled back; after it, it is whole.
    ply, logged = await _stored(db, a)
    assert (ply, logged) in ((0, []), (2, [1, 2]))
    assert await _stored(db, b) == (1, [1])
    assert await _play(db, a, ply, _move("b1:N")) == ply + 1


async def test_many_games_writing_at_once_each_keep_their_log(db: Database) -> None:
    games = [await _new_game(db, 10 + i) for i in range(8)]

    async def play(game: GameRecord) -> None:
        for ply in range(10):
            await _play(db, game, ply, _move(f"m{ply}"))

    await asyncio.gather(*(play(game) for game in games))
    for game in games:
        assert await _stored(db, game) == (10, list(range(1, 11)))


async def test_writes_of_one_task_inside_a_transaction_commit_together(db: Database) -> None:
    game = await _new_game(db)
    with pytest.raises(RuntimeError, match="after"):
        async with db.transaction():
            await _play(db, game, 0, _move())
            await db.set_board_message(game.id, 555, 1)
            raise RuntimeError("after both writes")
    stored = await db.get_game(game.id)
    assert stored is not None and (stored.ply, stored.board_message_id) == (0, None)
    async with db.transaction():
        await _play(db, game, 0, _move())
        await db.set_board_message(game.id, 555, 1)
    stored = await db.get_game(game.id)
    assert stored is not None and (stored.ply, stored.board_ply) == (1, 1)


async def test_an_in_memory_database_isolates_writes_too() -> None:
    db = await Database.open("sqlite:///:memory:")
    try:
        a = await _new_game(db)
        updated, resume = asyncio.Event(), asyncio.Event()

        async def slow() -> None:
            async with db.transaction() as tx:
                await tx.execute("UPDATE games SET ply = 7 WHERE id = ?", (a.id,))
                updated.set()
                await resume.wait()
                raise RuntimeError("rolled back")

        task = asyncio.create_task(slow())
        await updated.wait()
        reader = asyncio.create_task(db.get_game(a.id))
        await asyncio.sleep(0.02)
        assert not reader.done()  # it waits for the write rather than read it half-done
        resume.set()
        with pytest.raises(RuntimeError):
            await task
        record = await reader
        assert record is not None and record.ply == 0
    finally:
        await db.close()


# -- typed errors -------------------------------------------------------------------------


async def test_a_write_locked_by_another_process_fails_within_the_interaction_window(
    db: Database, path: Path
) -> None:
    game = await _new_game(db)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        started = time.monotonic()
        with pytest.raises(StorageBusy, match="locked by another process"):
            await _play(db, game, 0, _move())
        assert time.monotonic() - started < 3
        assert await _stored(db, game) == (0, [])  # reads go on while the lock is held
    finally:
        other.close()
    assert await _play(db, game, 0, _move()) == 1


async def test_a_write_to_a_read_only_database_says_so(db: Database) -> None:
    # Tests run as root, which ignores file permissions: SQLite's query_only gives the very
    # error (SQLITE_READONLY, "attempt to write a readonly database") a read-only file does.
    game = await _new_game(db)
    await db._db.execute("PRAGMA query_only = ON")
    with pytest.raises(StorageReadOnly, match="read-only") as raised:
        await _play(db, game, 0, _move())
    assert "readonly database" in str(raised.value.__cause__)
    await db._db.execute("PRAGMA query_only = OFF")
    assert await _play(db, game, 0, _move()) == 1


async def test_a_full_database_says_so_and_stores_nothing(db: Database) -> None:
    game = await _new_game(db)
    cursor = await db._db.execute("PRAGMA page_count")
    row = await cursor.fetchone()
    assert row is not None
    await db._db.execute(f"PRAGMA max_page_count = {row[0]}")
    big: dict[str, Any] = {"filler": "x" * 200_000}
    with pytest.raises(StorageFull, match="full"):
        await db.record_moves(game.id, 0, [_move()], big, result=None, now=NOW)
    assert await _stored(db, game) == (0, [])
