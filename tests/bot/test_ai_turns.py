"""The AI's turns inside a session: thinking off the loop, a typing notice, and a game that
moves on while it thinks."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
from datetime import UTC, datetime

import pytest

import ai
from bot.ai_players import ProcessThinker, ai_name, ai_seed, ai_user_id
from bot.games import GAME_UIS
from bot.session_manager import SessionManager
from bot.sessions import GameSession
from engines import GAMES
from storage import Database, GameStatus, MoveKind, Seat
from tests.bot.fakes import ALICE, FakePublisher
from tests.waiting import eventually


class SlowThinker:
    """Answers a fixed choice after a delay, or fails."""

    def __init__(self, delay: float = 0.0, fail: bool = False) -> None:
        self.delay, self.fail, self.calls, self.answered = delay, fail, 0, 0
        self.stopped = 0

    async def choose(self, game_id: str, dump: dict[str, object], level: str, seed: str) -> str:
        self.calls += 1
        try:
            await asyncio.sleep(self.delay)
            if self.fail:
                raise RuntimeError("the worker died")
            state = GAMES[game_id].load(dump)
            return str(state.legal_moves()[0])
        except asyncio.CancelledError:
            self.stopped += 1
            raise
        finally:
            self.answered += 1

    def close(self) -> None:
        return None


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """No pictures, and a short wait before the typing notice."""
    monkeypatch.setattr("bot.painter.render", lambda *args, **kwargs: b"png")
    monkeypatch.setattr("bot.session_base.THINKING_NOTICE_AFTER", 0.01)


async def ai_first_game(db: Database) -> int:
    """A Qawale game where the AI (seat 0) moves first."""
    record = await db.create_game(
        game="qawale", guild_id=1, channel_id=5, parent_id=None,
        seats=[Seat(0, ai_user_id("easy", 0), ai_name("easy")), Seat(1, ALICE, "Alice")],
        options={}, rng_seed=3, state=GAMES["qawale"].new_state(2).dump(),
        now=datetime(2026, 11, 25, tzinfo=UTC))
    return record.id


async def test_a_slow_ai_shows_that_it_is_typing_then_plays(db: Database) -> None:
    publisher, thinker = FakePublisher(), SlowThinker(delay=0.05)
    sessions = SessionManager(db, GAME_UIS, publisher, thinker)
    game = await db.get_game(await ai_first_game(db))
    assert game is not None
    session = await sessions.start(game)
    await eventually(lambda: any(board.content == f"<@{ALICE}>, your turn."
                                 for board in publisher.boards()), "the AI's move is shown")
    assert publisher.typed == [5]
    assert session.ply == 1 and session.state.current_player == 1
    board = publisher.boards()[-1]
    assert board.embed is not None and "AI (Easy)" in (board.embed.description or "")


async def test_a_failing_ai_is_logged_and_plays_a_legal_move_drawn_from_the_seed(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    sessions = SessionManager(db, GAME_UIS, FakePublisher(), SlowThinker(fail=True))
    game = await db.get_game(await ai_first_game(db))
    assert game is not None
    with caplog.at_level(logging.ERROR, logger="bot.session_base"):
        session = await sessions.start(game)
        await eventually(lambda: session.ply == 1, "the AI played all the same")
    assert any("the AI could not think" in r.getMessage() for r in caplog.records)
    [move] = await db.moves(session.id)
    assert move.user_id == session.record.user_at(0) and move.kind is MoveKind.PLAYER
    assert session.state.current_player == 1, "the game goes on: the human is to move"


async def started_thinking(db: Database, thinker: SlowThinker
                           ) -> tuple[SessionManager, GameSession]:
    """The sessions, and a game whose AI (seat 0) has started thinking about its first move."""
    sessions = SessionManager(db, GAME_UIS, FakePublisher(), thinker)
    game = await db.get_game(await ai_first_game(db))
    assert game is not None
    session = await sessions.start(game)
    await eventually(lambda: thinker.calls == 1, "the AI started thinking")
    return sessions, session


async def test_a_resignation_while_the_ai_thinks_ends_the_game_cleanly(db: Database) -> None:
    thinker = SlowThinker(delay=0.05)
    sessions, session = await started_thinking(db, thinker)
    await session.resign(ALICE)
    await eventually(lambda: thinker.answered == 1, "the AI answered")
    await asyncio.sleep(0.05)  # what the session would do with that answer, it would do now
    stored = await db.get_game(session.id)
    assert stored is not None and stored.status is GameStatus.FINISHED and stored.ply == 1
    assert thinker.calls == 1
    sessions.close()


async def test_an_ai_stopped_while_it_thinks_stops_thinking(db: Database) -> None:
    thinker = SlowThinker(delay=30)
    sessions, session = await started_thinking(db, thinker)
    assert await session.home_deleted()  # its thread was deleted: the game is aborted
    await eventually(lambda: thinker.stopped == 1, "the thinking was stopped")
    stored = await db.get_game(session.id)
    assert stored is not None and stored.status is GameStatus.ABORTED and stored.ply == 0
    sessions.close()


async def test_the_process_pool_computes_the_same_move_as_the_ai_in_process() -> None:
    state = GAMES["qawale"].new_state(2)
    thinker = ProcessThinker(1)
    try:
        move = await thinker.choose("qawale", state.dump(), "easy", ai_seed(3, 0))
    finally:
        thinker.close()
    expected = ai.choose_move(state, "easy", rng=random.Random(ai_seed(3, 0)))
    assert move == str(expected)


async def test_an_ai_worker_that_dies_is_replaced_and_the_move_computed_again() -> None:
    state = GAMES["qawale"].new_state(2)
    thinker = ProcessThinker(1)
    try:
        first = await thinker.choose("qawale", state.dump(), "easy", ai_seed(3, 0))
        [dead] = thinker.pids()
        os.kill(dead, signal.SIGKILL)  # out of memory, say
        await asyncio.sleep(0.2)
        again = await thinker.choose("qawale", state.dump(), "easy", ai_seed(3, 0))
        assert again == first
        assert dead not in thinker.pids()
    finally:
        thinker.close()
