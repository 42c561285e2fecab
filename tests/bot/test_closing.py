"""Closing the bot (Ctrl-C, or SIGTERM from `docker stop` or systemd): the moves in progress
are stored and shown before the database closes, within a limit, and SIGTERM closes the bot
as Ctrl-C does instead of killing the process mid-move."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.__main__ import serve, settle
from bot.games.base import Turn
from bot.publisher import Post
from bot.session_manager import SessionManager
from bot.sessions import GameSession
from i18n import Language, translations
from storage import Database
from tests.bot.fakes import ALICE, FakePublisher, manager, new_game
from tests.waiting import eventually

ROOT = Path(__file__).resolve().parents[2]
FIRST_MOVE = "a1:NES"


@dataclass
class HeldPublisher(FakePublisher):
    """Once `held`, a post waits until `release` is set: Discord taking its time."""

    held: bool = False
    waiting: int = 0
    release: asyncio.Event = field(default_factory=asyncio.Event)

    async def post(self, channel_id: int, post: Post) -> int:
        """Wait while held, then record the post."""
        if self.held:
            self.waiting += 1
            await self.release.wait()
        return await super().post(channel_id, post)


async def move_being_shown(db: Database) -> tuple[
        SessionManager, GameSession, HeldPublisher, asyncio.Task[Turn]]:
    """A new game whose first move is stored and its board on its way to Discord, held."""
    publisher = HeldPublisher()
    sessions = manager(db, publisher)
    session = await sessions.start(await new_game(db))
    publisher.held = True
    move = asyncio.create_task(session.play(ALICE, FIRST_MOVE))
    await eventually(lambda: publisher.waiting == 1, "the new board is being posted")
    return sessions, session, publisher, move


async def test_closing_waits_for_a_move_being_shown_to_be_posted(db: Database) -> None:
    sessions, session, publisher, move = await move_being_shown(db)

    draining = asyncio.create_task(sessions.drain(within=5))
    await asyncio.sleep(0.05)
    assert not draining.done(), "closing waits while the board is on its way"
    publisher.release.set()

    assert await draining == 0
    assert move.done() and not session.board_behind
    stored = await db.get_game(session.id)
    assert stored is not None and (stored.ply, stored.board_ply) == (1, 1)


async def test_closing_gives_up_on_a_move_stuck_past_the_limit(db: Database) -> None:
    sessions, session, _, move = await move_being_shown(db)

    assert await sessions.drain(within=0.1) == 1, "one game still busy"

    # The move is stored already: the next start posts its board (`board_ply` is behind).
    stored = await db.get_game(session.id)
    assert stored is not None and (stored.ply, stored.board_ply) == (1, 0)
    move.cancel()
    await asyncio.gather(move, return_exceptions=True)


async def test_closing_with_nothing_in_progress_does_not_wait(db: Database) -> None:
    sessions = manager(db, FakePublisher())
    session = await sessions.start(await new_game(db))
    await session.play(ALICE, FIRST_MOVE)
    assert await asyncio.wait_for(sessions.drain(within=60), timeout=5) == 0


SERVED_STUB = """
import asyncio
from bot.__main__ import serve

class StubBot:
    def __init__(self):
        self.closed = asyncio.Event()
    async def __aenter__(self):
        return self
    async def __aexit__(self, *exc):
        print("left", flush=True)
    async def start(self, token):
        print("started", flush=True)
        await self.closed.wait()
    async def close(self):
        print("closing", flush=True)
        self.closed.set()

asyncio.run(serve(StubBot(), "token"))
print("ended", flush=True)
"""


def test_sigterm_closes_the_bot_as_ctrl_c_does() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen([sys.executable, "-c", SERVED_STUB], cwd=ROOT, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as bot:
        assert bot.stdout is not None
        assert bot.stdout.readline().strip() == "started"
        bot.send_signal(signal.SIGTERM)
        out, err = bot.communicate(timeout=30)
    assert bot.returncode == 0, err
    assert out.split() == ["closing", "left", "ended"]


def test_serving_starts_with_every_catalogue_compiled_and_the_start_up_heap_frozen() -> None:
    translations.cache_clear()
    settle()
    assert translations.cache_info().currsize == len(Language)
    assert gc.get_freeze_count() > 10_000  # the modules' objects, out of every collection


async def test_where_signals_cannot_be_handled_the_bot_still_runs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows' event loops raise NotImplementedError for a signal handler: the bot starts
    anyway (Ctrl-C still stops it)."""
    loop = asyncio.get_running_loop()

    def no_signals(*args: object) -> None:
        raise NotImplementedError

    monkeypatch.setattr(loop, "add_signal_handler", no_signals)
    ran: list[str] = []

    class StubBot:
        async def __aenter__(self) -> StubBot:
            return self

        async def __aexit__(self, *exc: object) -> None:
            ran.append("left")

        async def start(self, token: str) -> None:
            ran.append(f"started with {token}")

    await serve(StubBot(), "token")  # type: ignore[arg-type]
    assert ran == ["started with token", "left"]
