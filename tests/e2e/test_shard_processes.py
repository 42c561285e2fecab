"""Several bot processes on one PostgreSQL database (issue #18): two shard processes play
at once; a click on one process races a move stored by the other and the database decides;
a process killed mid-move leaves the other serving its servers, and resumes its own games
when it starts again."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Future
from typing import Any

import discord
import pytest

from bot.client import Services, build_services
from bot.config import Settings
from bot.errors import StaleBoard
from bot.publisher import DiscordPublisher
from bot.ratings import rate_game
from bot.sessions import GameSession
from storage import Database, GameStatus
from tests.e2e.helpers import (
    actor_for,
    bot_of,
    challenge_and_accept,
    compose,
    hold_boards,
    latest_board,
    play_with_components,
    said,
    simultaneously,
    the_bot,
    unsettled,
)
from tests.e2e.processes import STEP_TIMEOUT, BotProcess, Table
from tests.e2e.test_ai_games import GAMES, play_against_the_ai
from tests.e2e.test_qawale_game import WINNING_GAME
from tests.postgres_server import fresh_database


@pytest.fixture
def database_url(postgres_admin: str) -> str:
    """A new PostgreSQL database (the bot under test and the other process share it)."""
    return asyncio.run(fresh_database(postgres_admin, f"t_{uuid.uuid4().hex}"))


@pytest.fixture
async def other_process(env, database_url: str) -> AsyncIterator[Services]:
    """A second bot process on the same database: its own connections, memory and locks;
    it reaches the same (simulated) Discord by REST, as every process of a bot does."""
    db = await Database.open(database_url, rater=rate_game)
    services = build_services(db, DiscordPublisher(bot_of(env)),
                              Settings(database_url=database_url), lambda guild_id: None)
    yield services
    services.sessions.close()
    services.timers.close()
    await db.close()


def told_privately(result: Any, text: str) -> bool:
    """The interaction's author alone read `text` (in its answer or a private follow-up)."""
    private = result.ephemeral or (result.followups
                                   and all(m.flags.ephemeral for m in result.followups))
    return bool(private) and text in said(result)


def another_move(session: GameSession, move: str) -> str:
    """A legal move other than `move` for the player to move."""
    return next(str(m) for m in session.state.legal_moves() if str(m) != move)


async def two_moves_ready(env, world, other_process: Services) -> tuple[
        Any, GameSession, Any, discord.Message, GameSession, str]:
    """A new game whose first mover composed WINNING_GAME[0] up to Confirm here, and the
    game as the other process loaded it, with another move for the same player."""
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    composer = await compose(mover, latest_board(thread), WINNING_GAME[0])
    elsewhere = await other_process.sessions.get(session.id)
    assert elsewhere is not None and elsewhere is not session
    return thread, session, mover, composer, elsewhere, another_move(elsewhere,
                                                                     WINNING_GAME[0])


async def test_a_click_after_the_other_process_stored_a_move_is_refused_then_the_game_goes_on(
    env, world, other_process: Services
) -> None:
    thread, session, mover, composer, elsewhere, theirs = await two_moves_ready(
        env, world, other_process)
    await elsewhere.play(mover.id, theirs)  # stored and announced by the other process

    late = await mover.click(composer, label="Confirm")

    assert told_privately(late, "out of date")
    db = bot_of(env).db
    assert [m.move for m in await db.moves(session.id)] == [theirs]
    # This process read the game again: the other player plays on the other's board here.
    replier = actor_for(session, world.alice, world.bob)
    assert replier is not mover
    reply = str(session.state.legal_moves()[0])
    await play_with_components(replier, latest_board(thread), reply)
    assert [m.move for m in await db.moves(session.id)] == [theirs, reply]


async def test_a_board_posted_by_the_other_process_plays_here(
    env, world, other_process: Services
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    first = actor_for(session, world.alice, world.bob)
    elsewhere = await other_process.sessions.get(session.id)
    assert elsewhere is not None
    await elsewhere.play(first.id, WINNING_GAME[0])
    assert session.ply == 0, "this process has not seen the move yet"

    second = next(actor for actor in (world.alice, world.bob) if actor is not first)
    await play_with_components(second, latest_board(thread), WINNING_GAME[1])

    assert session.ply == 2
    assert [m.move for m in await bot_of(env).db.moves(session.id)] == WINNING_GAME[:2]


async def test_a_click_racing_a_move_on_the_other_process_is_played_once(
    env, world, other_process: Services
) -> None:
    thread, session, mover, composer, elsewhere, theirs = await two_moves_ready(
        env, world, other_process)

    racing = asyncio.ensure_future(elsewhere.play(mover.id, theirs))
    [click] = await simultaneously(env, lambda: mover.click(composer, label="Confirm"))
    [other] = await asyncio.gather(racing, return_exceptions=True)

    stored = [m.move for m in await bot_of(env).db.moves(session.id)]
    assert stored in ([WINNING_GAME[0]], [theirs]), stored
    if stored == [theirs]:  # the other process won: the click hears why, privately
        assert told_privately(click, "out of date")
    else:  # the click won: the other process reloads and refuses
        assert isinstance(other, StaleBoard), other
        assert elsewhere.ply == 1
    replier = actor_for(session, world.alice, world.bob)
    assert replier is not mover
    await play_with_components(replier, latest_board(thread),
                               str(session.state.legal_moves()[0]))
    assert len(await bot_of(env).db.moves(session.id)) == 2


# -- two shard processes, each with its own Discord ------------------------------------------


def at_once(*steps: tuple[BotProcess, Callable[[], Awaitable[Any]]]) -> list[Any]:
    """Start steps on their processes together; their results once all are done."""
    futures: list[Future[Any]] = [process.submit(step) for process, step in steps]
    return [future.result(STEP_TIMEOUT) for future in futures]


def play_on(process: BotProcess, table: Table, session_id: int,
            moves: list[str]) -> Callable[[], Awaitable[None]]:
    """Play `moves` in a game of `process` with the controls of its latest board."""
    async def play() -> None:
        session = await process.bot.sessions.get(session_id)
        assert session is not None
        thread = table.channel.threads[-1]
        for move in moves:
            await play_with_components(actor_for(session, table.alice, table.bob),
                                       latest_board(thread), move)
    return play


def stored_game(process: BotProcess, game_id: int) -> tuple[GameStatus, int, int | None]:
    """A game's status, ply and the ply its board shows, as the database has them."""
    async def read() -> tuple[GameStatus, int, int | None]:
        record = await process.bot.db.get_game(game_id)
        assert record is not None
        return record.status, record.ply, record.board_ply
    return process.run(read)


def test_two_shard_processes_play_at_once_and_a_killed_one_resumes_its_games(
    database_url: str,
) -> None:
    first, second = BotProcess("first", database_url, 0), BotProcess("second", database_url, 1)
    try:
        first.start()
        second.start()
        tables = {first: first.open_table(), second: second.open_table()}
        ids = {member.id for table in tables.values() for member in (table.alice, table.bob)}
        assert len(ids) == 4, "each process's Discord has its own members"

        def start(process: BotProcess) -> Callable[[], Awaitable[int]]:
            async def challenge() -> int:
                table = tables[process]
                _, session = await challenge_and_accept(process.env, table.channel,
                                                        table.alice, table.bob)
                return session.id
            return challenge

        games = dict(zip((first, second), at_once((first, start(first)),
                                                  (second, start(second))), strict=True))
        at_once(*((process, play_on(process, tables[process], games[process],
                                    WINNING_GAME[:3])) for process in (first, second)))

        # The first process dies at the worst moment: the move stored, its board not posted.
        # Its board is held in the painter (where the work between the two lies), so the
        # moment is reached every time, however fast the machine.
        async def confirm_then_die() -> tuple[int, int | None]:
            session = await first.bot.sessions.get(games[first])
            assert session is not None
            table = tables[first]
            mover = actor_for(session, table.alice, table.bob)
            composer = await compose(mover, latest_board(table.channel.threads[-1]),
                                     WINNING_GAME[3])
            painting, _ = hold_boards(first.bot)  # never released: the process dies first
            assert first.env is not None
            with unsettled(first.env):  # the click is sent; the bot is not waited for
                await mover.click(composer, label="Confirm")
            await asyncio.wait_for(painting.wait(), STEP_TIMEOUT)
            record = await first.bot.db.get_game(session.id)
            assert record is not None
            return record.ply, record.board_ply
        at_death = first.run(confirm_then_die)
        first.kill()
        assert at_death == (4, 3), "killed between the move's store and its board"

        # The second process serves its own server meanwhile, to the end of its game.
        second.run(play_on(second, tables[second], games[second], WINNING_GAME[3:]))
        assert stored_game(second, games[second])[0] is GameStatus.FINISHED

        first.start_again()
        status, ply, board_ply = stored_game(first, games[first])
        assert (status, ply) == (GameStatus.RUNNING, 4)
        assert board_ply == 4, "the restarted process posted the board the crash left behind"
        first.run(play_on(first, tables[first], games[first], WINNING_GAME[4:]))
        assert stored_game(first, games[first])[0] is GameStatus.FINISHED

        # Both games count on the shared leaderboard, read from either process.
        async def global_leaderboard() -> str:
            table = tables[first]
            result = await table.alice.slash(table.channel, "leaderboard", game="qawale",
                                             scope="global")
            return str(result.response.embeds[0].description)
        board = first.run(global_leaderboard)
        assert board.count("**") >= 8 and "**4.**" in board, board
    finally:
        for process in (first, second):
            process.stop()


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_to_the_end_on_two_shard_processes_at_once(
    database_url: str, quick_boards: None, game: str
) -> None:
    processes = [BotProcess("first", database_url, 0), BotProcess("second", database_url, 1)]
    try:
        for process in processes:
            process.start()
        tables = {process: process.open_table() for process in processes}

        def whole_game(process: BotProcess) -> Callable[[], Awaitable[int]]:
            async def play() -> int:
                env, table = process.env, tables[process]
                assert env is not None
                await table.alice.slash(table.channel, "challenge", game=game,
                                        opponent=the_bot(env, table), level="easy")
                session = await process.bot.sessions.in_channel(table.channel.threads[-1].id)
                assert session is not None
                await play_against_the_ai(env, session, table.channel.threads[-1], table.alice,
                                          random.Random(f"{game}-{process.name}"))
                return session.id
            return play

        games = at_once(*((process, whole_game(process)) for process in processes))
        for process, game_id in zip(processes, games, strict=True):
            assert stored_game(process, game_id)[0] is GameStatus.FINISHED
    finally:
        for process in processes:
            process.stop()
