"""Errors the discord.py way: refusals answered privately by one handler, Discord failures
that lose nothing, and unexpected errors that get an honest answer and a traceback."""

from __future__ import annotations

import logging

import pytest

from bot.games.qawale import QawaleUI
from bot.records import RecordsService
from storage import GameStatus
from tests.e2e.helpers import (
    actor_for,
    bot_of,
    challenge_and_accept,
    latest_board,
    play_with_components,
    said,
)
from tests.e2e.test_restart import restart


async def test_an_unexpected_error_in_a_command_gets_an_honest_private_answer(
    env, world, monkeypatch, caplog, allowed_errors
) -> None:
    allowed_errors.append(RuntimeError)
    async def broken(*args: object) -> None:
        raise RuntimeError("the stats table is on fire")

    monkeypatch.setattr(RecordsService, "stats", broken)
    with caplog.at_level(logging.ERROR, logger="bot.replies"):
        result = await world.alice.slash(world.channel, "stats")
    assert result.ephemeral
    assert "went wrong on my side; nothing was changed" in result.response.content
    assert any(r.exc_info and "on fire" in str(r.exc_info[1]) for r in caplog.records)


async def test_an_unexpected_error_in_a_button_gets_an_honest_private_answer(
    env, world, monkeypatch, caplog
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)

    async def broken(*args: object) -> None:
        raise KeyError("stack")

    monkeypatch.setattr(QawaleUI, "handle", broken)
    with caplog.at_level(logging.ERROR, logger="bot.replies"):
        answer = await mover.select(latest_board(thread), ["a1"])
    assert answer.ephemeral
    assert "went wrong on my side; nothing was changed" in answer.response.content
    assert any("component ls:" in r.getMessage() for r in caplog.records)


async def test_a_move_stands_when_its_board_cannot_be_posted(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    env.inject_error("POST", f"/channels/{thread.id}/messages", times=1)

    result = await mover.slash(thread, "move", notation="a1:NES")

    assert "Played `a1:NES`" in result.response.content
    stored = await bot_of(env).db.get_game(session.id)
    assert stored is not None and stored.ply == 1
    # /board shows the stored position with live controls.
    other = world.bob if mover is world.alice else world.alice
    reposted = await other.slash(thread, "board")
    assert "Board posted" in reposted.response.content
    assert "move 1" in (latest_board(thread).embeds[0].footer.text or "")


async def test_a_move_whose_confirmation_discord_fails_stands_and_the_player_hears_why(
    env, world, caplog
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    env.inject_error("POST", "/webhooks/*", times=1)  # the "Played" followup

    with caplog.at_level(logging.WARNING, logger="bot.replies"):
        result = await mover.slash(thread, "move", notation="a1:NES")

    assert "Your move `a1:NES` was stored and stands, but Discord did not take my answer " \
        "(error 500)" in said(result)
    stored = await bot_of(env).db.get_game(session.id)
    assert stored is not None and stored.ply == 1
    # An outage, logged as a warning: not a bug of the bot's.
    assert [r.levelno for r in caplog.records if "/move" in r.getMessage()] == [logging.WARNING]


async def test_a_board_whose_controls_cannot_be_removed_is_still_refused_when_clicked(
    env, world
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    first = latest_board(thread)
    env.inject_error("PATCH", f"/channels/{thread.id}/messages/*", times=None)
    await play_with_components(actor_for(session, world.alice, world.bob), first, "a1:NES")
    assert first.components, "Discord refused to strip the old board's controls"
    stale = await actor_for(session, world.alice, world.bob).select(first, ["a1"])
    assert stale.ephemeral and "out of date" in stale.response.content


async def test_an_abort_stands_when_discord_fails_to_show_it(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    env.inject_error("POST", f"/channels/{thread.id}/messages", times=1)
    await world.alice.slash(thread, "abort")
    result = await world.bob.slash(thread, "abort")
    assert result.ephemeral and "aborted" in result.response.content
    stored = await bot_of(env).db.get_game(session.id)
    assert stored is not None and stored.status is GameStatus.ABORTED


@pytest.mark.parametrize("notation", ["", "x" * 101])
async def test_an_empty_or_oversized_typed_move_is_refused_before_the_bot(
    env, world, notation: str
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    with pytest.raises(Exception, match="characters"):
        await mover.slash(thread, "move", notation=notation)
    assert session.ply == 0


async def test_a_missing_permission_is_named_and_the_board_comes_back_once_granted(
    env, world
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    env.inject_error("POST", f"/channels/{thread.id}/messages", status=403, code=50013,
                     message="Missing Permissions", times=1)

    result = await mover.slash(thread, "move", notation="a1:NES")

    assert "Played `a1:NES`" in result.response.content
    assert "I cannot post the board" in result.response.content
    assert "permission" in result.response.content
    await env.advance_time(15)  # the bot tries again on its own
    assert "move 1" in (latest_board(thread).embeds[0].footer.text or "")


async def test_a_deleted_thread_aborts_its_game(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    env.inject_error("POST", f"/channels/{thread.id}/messages", status=404, code=10003,
                     message="Unknown Channel", times=None)

    result = await mover.slash(thread, "move", notation="a1:NES")

    assert "thread was deleted" in result.response.content
    stored = await bot_of(env).db.get_game(session.id)
    assert stored is not None and stored.status is GameStatus.ABORTED
    assert await bot_of(env).db.running_game_in(thread.id) is None


async def test_a_board_lost_in_a_crash_is_posted_when_the_bot_starts_again(
    env, world, database_url
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    stale = latest_board(thread)
    env.inject_error("POST", f"/channels/{thread.id}/messages", times=1)
    await mover.slash(thread, "move", notation="a1:NES")
    assert latest_board(thread).id == stale.id  # the move is stored, its board is not

    await restart(env, database_url)

    board = latest_board(thread)
    assert board.id != stale.id and board.components
    assert "move 1" in (board.embeds[0].footer.text or "")
    retired = next(m for m in thread.history() if m.id == stale.id)
    assert not retired.components, "the outdated board's controls are retired"


async def test_board_names_the_missing_permission_instead_of_failing(env, world) -> None:
    thread, _ = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    env.inject_error("POST", f"/channels/{thread.id}/messages", status=403, code=50013,
                     message="Missing Permissions", times=1)
    result = await world.carol.slash(thread, "board")
    assert result.ephemeral
    assert "I cannot post the board" in result.response.content
    assert "permission" in result.response.content
