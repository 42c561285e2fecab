"""A move made with a board control costs no bot-token call: Discord counts those against
the bot's global limit (50 per second), its interactions' calls it does not."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from simcord.http.client import FakeHTTPClient

from tests.e2e.helpers import actor_for, challenge_and_accept, control_labels, latest_board
from tests.e2e.test_grabuge_game import GAME_SEED, TINY_PNG, _first_enabled


@pytest.fixture
def bot_token_writes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every write the bot sends with its token (interaction webhooks excluded)."""
    writes: list[str] = []
    real = FakeHTTPClient.request

    async def counted(self, route, **kwargs):
        if route.method != "GET":
            writes.append(f"{route.method} {route.path}")
        return await real(self, route, **kwargs)

    monkeypatch.setattr(FakeHTTPClient, "request", counted)
    yield writes


@pytest.fixture
def quick_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seats and cards from a fixed seed; tiny pictures."""
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(GAME_SEED))
    monkeypatch.setattr("bot.painter.render", lambda *args, **kwargs: TINY_PNG)


async def test_a_move_by_button_posts_the_next_board_without_a_bot_token_call(
    env, world, quick_boards, bot_token_writes: list[str]
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob,
                                                 game="grabuge")
    for _ in range(6):  # several turns: new boards, and boards edited in place
        board = latest_board(thread)
        mover = actor_for(session, world.alice, world.bob)
        bot_token_writes.clear()
        before = session.ply

        await mover.click(board, label=_first_enabled(board))

        assert session.ply > before
        assert bot_token_writes == [], bot_token_writes
        now = latest_board(thread)
        assert thread.history()[-1].id == now.id  # the board is the thread's last message
        if now.id != board.id:
            old = next(m for m in thread.history() if m.id == board.id)
            assert control_labels(old) == []  # the old board's controls are gone
        if session.is_over:
            break


async def test_a_failed_followup_falls_back_to_posting_the_board_with_the_bot_token(
    env, world, quick_boards, bot_token_writes: list[str]
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob,
                                                 game="grabuge")
    env.inject_error("POST", "/webhooks/*", times=1)  # the next followup fails
    while True:  # until a move passes the turn (a new board is posted)
        board = latest_board(thread)
        mover = actor_for(session, world.alice, world.bob)
        bot_token_writes.clear()
        await mover.click(board, label=_first_enabled(board))
        if latest_board(thread).id != board.id:
            break
    assert [w for w in bot_token_writes if w.startswith("POST")] == [
        "POST /channels/{channel_id}/messages"]
    assert latest_board(thread).components, "the new board has its controls"
