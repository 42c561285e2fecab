"""Playing the AI through the bot: challenge the bot itself, or seat AI players at a table."""

from __future__ import annotations

import asyncio
import random

import pytest

import ai
from bot.ai_players import ThreadThinker, ai_name, is_ai, level_of
from bot.client import Ludotheque, create_bot
from bot.config import Settings
from storage import GameStatus, MoveKind
from tests.e2e.helpers import bot_of, latest_board, said, the_bot
from tests.e2e.test_restart import restart


async def test_challenging_the_bot_starts_a_game_against_the_ai_at_once(env, world) -> None:
    result = await world.alice.slash(world.channel, "challenge", game="qawale",
                                     opponent=the_bot(env, world), level="easy")
    assert not result.ephemeral
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None
    ai_seat = next(s for s in session.record.seats if is_ai(s.user_id))
    assert level_of(ai_seat.user_id) == "easy" and "AI" in ai_seat.display_name
    assert session.state.current_player != ai_seat.seat, "the AI played its turn by itself"
    board = latest_board(thread)
    assert board.components


async def play_against_the_ai(env, session, thread, human, rng: random.Random) -> None:
    """The member types random legal moves with /move; the AI answers by itself."""
    while not session.is_over:
        seat = session.state.current_player
        assert session.record.user_at(seat) == human.id, "the AI left its turn unplayed"
        move = rng.choice(session.state.legal_moves())
        # Real commands are milliseconds apart; simcord's clock stands still between them,
        # and a command from the very millisecond a position was shown counts as older.
        await env.advance_time(0.001)
        played = await human.slash(thread, "move", notation=str(move))
        assert "Played" in (played.response.content or ""), played.response.content


@pytest.fixture
def simcord_bot(database_url: str) -> Ludotheque:
    """The bot thinking in a worker process, as `python -m bot` does: the AI's search then
    also runs outside the test process's coverage tracer, which slows it fourfold."""
    return create_bot(Settings(database_url=database_url, ai_workers=1))


THINKING_SETTLE_TIMEOUT = 60.0
"""Seconds simcord waits for the bot to settle while an AI thinks."""

GAMES = ["qawale", "graps", "grabuge", "granat", "kraut_ruben"]


@pytest.mark.parametrize("level", ai.LEVELS)
@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_game_against_each_level_is_recorded_and_rated(
    env, world, quick_boards, game: str, level: str
) -> None:
    # A hard decision takes about a second alone, several on a loaded machine: let the bot
    # settle for longer than simcord's default 5 s while the AI thinks.
    env.settle_timeout = THINKING_SETTLE_TIMEOUT
    await world.alice.slash(world.channel, "challenge", game=game,
                            opponent=the_bot(env, world), level=level)
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None
    assert {level_of(s.user_id) for s in session.record.seats if is_ai(s.user_id)} == {level}
    await play_against_the_ai(env, session, thread, world.alice, random.Random(game))

    stored = await bot_of(env).db.get_game(session.id)
    assert stored is not None and stored.status is GameStatus.FINISHED
    log = await bot_of(env).db.moves(session.id)
    ai_moves = [m for m in log if m.user_id is not None and is_ai(m.user_id)
                and m.kind is MoveKind.PLAYER]
    assert ai_moves, "the AI chose moves of its own"
    board = await world.alice.slash(world.channel, "leaderboard", game=game)
    assert ai_name(level) in (board.response.embeds[0].description or "")
    history = await world.alice.slash(world.channel, "history")
    assert f"#{session.id}" in (history.response.embeds[0].description or "")


async def test_an_ai_to_move_before_a_restart_plays_after_it(
    env, world, quick_boards, database_url
) -> None:
    await world.alice.slash(world.channel, "challenge", game="qawale",
                            opponent=the_bot(env, world), level="easy")
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None
    human = world.alice.id
    # Hold the AI back, as if the bot stopped while it was thinking.
    session.thinker = None
    await world.alice.slash(thread, "move", notation=str(session.state.legal_moves()[0]))
    stopped_at = session.ply

    await restart(env, database_url)

    resumed = await bot_of(env).sessions.get(session.id)
    assert resumed is not None and resumed.ply == stopped_at + 1
    assert resumed.record.user_at(resumed.state.current_player) == human
    assert "move " + str(resumed.ply) in (latest_board(thread).embeds[0].footer.text or "")


async def test_a_member_alone_fills_a_table_with_ai_players(env, world, quick_boards) -> None:
    table = await world.alice.slash(world.channel, "lobby", game="kraut_ruben")
    message = table.response.message
    refused = await world.bob.click(message, label="+ Easy AI")
    assert refused.ephemeral and "Only" in refused.response.content
    for label in ("+ Easy AI", "+ Medium AI", "+ Easy AI"):
        await world.alice.click(message, label=label)
    removed = await world.alice.click(message, label="− AI")
    assert not removed.ephemeral
    started = await world.alice.click(message, label="Start")
    assert not started.ephemeral
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None and len(session.record.seats) == 3
    ais = [s for s in session.record.seats if is_ai(s.user_id)]
    assert sorted(level_of(s.user_id) for s in ais) == ["easy", "medium"]
    assert len({s.user_id for s in session.record.seats}) == 3
    assert session.record.user_at(session.state.current_player) == world.alice.id


async def test_the_bot_and_people_together_are_sent_to_a_table(env, world) -> None:
    result = await world.alice.slash(world.channel, "challenge", game="kraut_ruben",
                                     opponent=the_bot(env, world), opponent2=world.bob)
    assert result.ephemeral and "/lobby" in result.response.content
    assert await bot_of(env).db.running_games() == []


async def test_a_table_refuses_what_it_cannot_seat(env, world) -> None:
    table = await world.alice.slash(world.channel, "lobby", game="qawale")
    message = table.response.message
    await world.alice.click(message, label="+ Hard AI")
    full = await world.alice.click(message, label="+ Easy AI")
    assert full.ephemeral and "full" in full.response.content
    late = await world.bob.click(message, label="Join")
    assert late.ephemeral and "full" in late.response.content


class SlowThinker:
    """The AI as tests run it, answering only after `seconds` of virtual time: a busy pool."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.inner = ThreadThinker()

    async def choose(self, game_id: str, dump: dict[str, object], level: str, seed: str) -> str:
        await asyncio.sleep(self.seconds)
        return await self.inner.choose(game_id, dump, level, seed)

    def close(self) -> None:
        """Nothing to stop."""


async def play_random(env, thread, who, session, rng: random.Random) -> None:
    """`who` plays a random legal move by typing it."""
    await env.advance_time(0.001)
    played = await who.slash(thread, "move", notation=str(rng.choice(session.state.legal_moves())))
    assert "Played" in said(played), said(played)


async def test_a_take_back_while_the_ai_thinks_lets_it_answer_the_new_move(env, world) -> None:
    await world.alice.slash(world.channel, "challenge", game="qawale",
                            opponent=the_bot(env, world), level="easy", rated="no")
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    session.thinker = SlowThinker(30.0)
    rng = random.Random(3)
    await play_random(env, thread, world.alice, session, rng)
    taken = await world.alice.click(latest_board(thread), label="Take back")
    assert not session.is_ai_seat(session.state.current_player), said(taken)
    await play_random(env, thread, world.alice, session, rng)  # the AI thinks on the old move
    answered_at = session.ply + 1
    await env.advance_time(120)
    assert session.ply >= answered_at, "the AI answered the move played after the take-back"
    assert session.record.user_at(session.state.current_player) == world.alice.id


async def test_a_member_leaving_while_the_ai_thinks_leaves_the_game_going(
    env, world, quick_boards
) -> None:
    bot_of(env).sessions.thinker = SlowThinker(30.0)
    table = await world.alice.slash(world.channel, "lobby", game="kraut_ruben")
    await world.bob.click(table.response.message, label="Join")
    await world.alice.click(table.response.message, label="+ Easy AI")
    await world.alice.click(table.response.message, label="Start")
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    people = {world.alice.id: world.alice, world.bob.id: world.bob}
    rng = random.Random(1)
    while not session.is_ai_seat(session.state.current_player):
        mover = people[session.record.user_at(session.state.current_player)]
        await play_random(env, thread, mover, session, rng)
    thinking_at = session.ply
    prompt = await world.bob.slash(thread, "resign")
    await world.bob.click(prompt.response.message, label="Leave")  # the AI takes Bob's seat
    await env.advance_time(600)
    assert session.ply > thinking_at + 1 or session.is_over, "the AIs played on after Bob left"
    assert not session.is_ai_seat(session.state.current_player) or session.is_over


class BrokenThinker:
    """An AI that fails at every position: a bug, a worker that died."""

    async def choose(self, game_id: str, dump: dict[str, object], level: str, seed: str) -> str:
        raise RuntimeError("the AI broke")

    def close(self) -> None:
        """Nothing to stop."""


async def test_an_ai_that_fails_to_think_still_plays_a_legal_move(env, world, caplog) -> None:
    bot_of(env).sessions.thinker = BrokenThinker()
    await world.alice.slash(world.channel, "challenge", game="graps",
                            opponent=the_bot(env, world), level="hard")
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    rng = random.Random(9)
    for _turn in range(3):  # whoever starts, the AI has answered at least twice
        assert session.record.user_at(session.state.current_player) == world.alice.id
        await play_random(env, thread, world.alice, session, rng)
    ai_moves = [m for m in await bot_of(env).db.moves(session.id)
                if m.user_id is not None and is_ai(m.user_id) and m.kind is MoveKind.PLAYER]
    assert len(ai_moves) >= 2, "the game went on, the AI playing a random legal move"
    assert "the AI could not think" in caplog.text
