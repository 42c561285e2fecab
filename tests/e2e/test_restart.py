"""Restart safety: games and challenges survive the bot stopping and starting again."""

from __future__ import annotations

import asyncio

from bot.client import create_bot
from bot.config import Settings
from storage import ChallengeStatus, GameStatus
from tests.e2e.helpers import (
    actor_for,
    bot_of,
    challenge_and_accept,
    compose,
    control_labels,
    hold_boards,
    latest_board,
    play_with_components,
    said,
    unsettled,
)
from tests.e2e.test_qawale_game import WINNING_GAME


async def restart(env, database_url: str) -> None:
    """Stop the bot and start a brand-new one on the same database."""
    old = bot_of(env)
    await env.restart_bot(create_bot(Settings(database_url=database_url)))
    await old.close()


async def test_a_game_resumes_after_a_restart_and_finishes_with_the_old_boards_components(
    env, world, database_url
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    players = (world.alice, world.bob)
    for move in WINNING_GAME[:3]:
        await play_with_components(actor_for(session, *players), latest_board(thread), move)
    board_before = latest_board(thread)

    await restart(env, database_url)

    resumed = await bot_of(env).sessions.get(session.id)
    assert resumed is not session and resumed.ply == 3
    assert resumed.state.dump() == session.state.dump()
    # The board posted before the restart still works.
    await play_with_components(actor_for(resumed, *players), board_before, WINNING_GAME[3])
    for move in WINNING_GAME[4:]:
        await play_with_components(actor_for(resumed, *players), latest_board(thread), move)
    final = await bot_of(env).db.get_game(session.id)
    assert final.status is GameStatus.FINISHED and final.result["reason"] == "line"
    assert [m.move for m in await bot_of(env).db.moves(session.id)] == WINNING_GAME


async def test_a_composer_opened_before_a_restart_still_works(env, world, database_url) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    composer = await mover.select(latest_board(thread), ["a1"])
    await restart(env, database_url)
    message = composer.response.message
    for label in ("North", "East", "South"):
        message = (await mover.click(message, label=label)).response.message
    confirmed = await mover.click(message, label="Confirm")
    assert "Played `a1:NES`" in confirmed.response.content
    assert (await bot_of(env).db.get_game(session.id)).ply == 1


async def test_a_pending_challenge_can_be_accepted_after_a_restart(
    env, world, database_url
) -> None:
    result = await world.alice.slash(world.channel, "challenge", game="qawale", opponent=world.bob)
    await restart(env, database_url)
    await world.bob.click(result.response.message, label="Accept")
    assert len(world.channel.threads) == 1
    assert latest_board(world.channel.threads[0]).components


async def test_a_pending_challenge_still_expires_after_a_restart(env, world, database_url) -> None:
    await world.alice.slash(world.channel, "challenge", game="qawale", opponent=world.bob)
    await env.advance_time(300)
    await restart(env, database_url)
    await env.advance_time(301)
    assert (await bot_of(env).db.get_challenge(1)).status is ChallengeStatus.EXPIRED


async def test_closing_the_bot_lets_a_move_in_progress_post_its_board_first(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    composer = await compose(mover, latest_board(thread), WINNING_GAME[0])
    bot = bot_of(env)
    # The board is held in the painter, so the stop comes while the move is being shown.
    painting, release = hold_boards(bot)
    with unsettled(env):  # the click is sent; the bot is not waited for
        await mover.click(composer, label="Confirm")
    await asyncio.wait_for(painting.wait(), timeout=10)

    closing = asyncio.ensure_future(bot.close())  # SIGTERM or Ctrl-C
    await asyncio.sleep(0.05)
    assert not closing.done(), "the bot waits for the move in progress"
    release.set()
    await asyncio.wait_for(closing, timeout=10)

    board = latest_board(thread)
    assert "move 1" in (board.embeds[0].footer.text or ""), "its board was posted before closing"


async def final_move_board_refused(env, world, times: int | None):
    """A Qawale game up to its winning move, whose board Discord refuses (`times` posts, or
    until told otherwise): the thread, the session and the board left showing."""
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    for move in WINNING_GAME[:-1]:
        await play_with_components(actor_for(session, world.alice, world.bob),
                                   latest_board(thread), move)
    stale = latest_board(thread)
    env.inject_error("POST", f"/channels/{thread.id}/messages", times=times)
    await actor_for(session, world.alice, world.bob).slash(thread, "move",
                                                           notation=WINNING_GAME[-1])
    assert (await bot_of(env).db.get_game(session.id)).status is GameStatus.FINISHED
    assert latest_board(thread).id == stale.id, "the winning move is stored, its board not"
    return thread, session, stale


def shows_the_end(board, stale) -> bool:
    """True when `board` is the final one (the winning move, the result and Rematch) and
    `stale` lost its controls."""
    shown = board.embeds[0].description or ""
    return (board.id != stale.id and control_labels(board) == ["Rematch"]
            and f"`{WINNING_GAME[-1]}`" in shown and "wins with four" in shown
            and not stale.components)


async def test_a_final_board_lost_in_a_crash_is_posted_at_the_next_start(
    env, world, database_url
) -> None:
    thread, _, stale = await final_move_board_refused(env, world, times=1)
    await restart(env, database_url)  # before the board's first retry
    [stale] = [m for m in thread.history() if m.id == stale.id]
    assert shows_the_end(latest_board(thread), stale)


async def test_board_shows_a_final_board_discord_refused_longer_than_the_retries(
    env, world
) -> None:
    thread, _, stale = await final_move_board_refused(env, world, times=None)
    await env.advance_time(800)  # every retry refused
    env.backend.faults.clear()
    shown = await world.carol.slash(thread, "board")
    assert "Board posted" in said(shown), said(shown)
    [stale] = [m for m in thread.history() if m.id == stale.id]
    assert shows_the_end(latest_board(thread), stale)


async def test_a_final_board_still_missing_is_posted_before_the_thread_is_archived(
    env, world
) -> None:
    thread, _, stale = await final_move_board_refused(env, world, times=None)
    await env.advance_time(800)  # every retry refused
    env.backend.faults.clear()
    await env.advance_time(15 * 60)  # the thread is archived and locked
    [stale] = [m for m in thread.history() if m.id == stale.id]
    assert shows_the_end(latest_board(thread), stale)
