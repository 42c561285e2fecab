"""A bot stopped at any moment of a move, then started again: every thread shows the stored
position, and every stored log replays to the stored state.

The stop is a task cancelled after a random delay (seeded) while several games play at once,
which interrupts the session anywhere: before the write, inside the transaction, between
the write and the board, while posting. The storage-level SIGKILL drill is in
tests/storage/test_crash_drill.py.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.session_manager import SessionManager
from engines import GAMES
from storage import Database, GameStatus, MoveKind
from tests.bot.fakes import FakePublisher, manager, new_game

RESTARTS = 30
GAMES_AT_ONCE = 3


@pytest.fixture(autouse=True)
def slow_enough_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """A picture takes a little while, as a real one does, so stops land while drawing."""
    monkeypatch.setattr("bot.painter.render", lambda *args, **kwargs: b"png")


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """A database file that outlives each 'process'."""
    database = await Database.open(f"sqlite:///{tmp_path / 'crash.db'}")
    yield database
    await database.close()


async def play_some(sessions: SessionManager, game_ids: list[int], rng: random.Random) -> None:
    """Each game's player to move plays random legal moves, all games at once."""
    async def one(game_id: int) -> None:
        for _ in range(3):
            session = await sessions.get(game_id)
            assert session is not None
            if session.is_over:
                return
            seat = session.state.current_player
            move = rng.choice(session.state.legal_moves())
            await session.play(session.record.user_at(seat), str(move), expected_ply=session.ply)

    await asyncio.gather(*(one(game_id) for game_id in game_ids))


async def test_after_a_stop_at_any_moment_every_board_and_log_is_current(db: Database) -> None:
    rng = random.Random(2026)
    kinds = ["qawale", "graps", "qawale"][:GAMES_AT_ONCE]
    playing = [(await new_game(db, game, seed=i)).id for i, game in enumerate(kinds)]
    every_game = list(playing)
    boards_behind = replay_mismatches = 0
    for restart in range(RESTARTS):
        publisher = FakePublisher()
        sessions = manager(db, publisher)
        await sessions.resume_all()
        for game_id in playing:
            session = await sessions.get(game_id)
            assert session is not None
            boards_behind += session.board_behind and not session.is_over
        work = asyncio.create_task(play_some(sessions, playing, rng))
        await asyncio.sleep(rng.uniform(0, 0.02))
        work.cancel()  # the process stops here
        await asyncio.gather(work, return_exceptions=True)
        sessions.close()
        # What the stopped task had already handed to SQLite's thread still runs (a real
        # crash would drop it instead): queue one more write behind it, then look.
        async with db.transaction() as tx:
            await tx.execute("UPDATE games SET id = id WHERE 0")
        for game_id in every_game:  # finished games too: a stop may land on the last move
            record = await db.get_game(game_id)
            assert record is not None
            state = GAMES[record.game].new_state(len(record.seats), record.options)
            for move in await db.moves(record.id):
                if move.kind is not MoveKind.RESIGN:
                    state.apply(move.move)
            replay_mismatches += state.dump() != record.state
        # A finished game gives way to a new one of its kind: the stops keep landing on
        # moves, however fast the machine plays.
        for slot, game_id in enumerate(playing):
            record = await db.get_game(game_id)
            assert record is not None
            if record.status is not GameStatus.RUNNING:
                playing[slot] = (await new_game(db, kinds[slot], seed=100 + restart)).id
                every_game.append(playing[slot])
    assert boards_behind == 0
    assert replay_mismatches == 0
    played = [record.ply for record in [await db.get_game(game_id) for game_id in every_game]
              if record is not None]
    # How far the games get depends on the machine's load (the stops are real-time delays);
    # half a move per restart on average shows the stops did not all land before any write.
    assert sum(played) > RESTARTS // 2, "the games really moved on between the stops"
