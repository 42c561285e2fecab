"""Between two people, ↩️ Take back asks: the request is posted in the thread with Accept and
Decline for the opponent, and stands until they answer, the asker withdraws it, or the
opponent plays instead."""

from __future__ import annotations

import pytest

from bot.errors import Refusal
from storage import MoveKind
from tests.e2e.helpers import actor_for, bot_of, latest_board, said, simultaneously
from tests.e2e.test_restart import restart


async def casual_qawale(env, world):
    """Alice and Bob's casual Qawale: its thread and session."""
    posted = await world.alice.slash(world.channel, "challenge", game="qawale",
                                     opponent=world.bob, rated="no")
    await world.bob.click(posted.response.message, label="Accept")
    thread = world.channel.threads[-1]
    return thread, await bot_of(env).sessions.in_channel(thread.id)


async def one_move(env, world, thread, session):
    """The player to move plays; who played, who answers, and the position before."""
    mover = actor_for(session, world.alice, world.bob)
    other = world.bob if mover is world.alice else world.alice
    before = session.state.dump()
    await env.advance_time(0.001)
    move = session.ui.autocomplete(session, "")[0]
    played = await mover.slash(thread, "move", notation=move)
    assert "Played" in played.response.content, played.response.content
    return mover, other, before, move


def request_of(thread):
    """The latest take-back request posted in the thread."""
    return next(m for m in reversed(thread.history()) if "asks to take back" in m.content)


def now_reads(thread, message) -> str:
    """What `message` says now (after edits)."""
    return next(m for m in thread.history() if m.id == message.id).content


async def test_the_opponent_accepts_and_the_asker_plays_again(env, world) -> None:
    thread, session = await casual_qawale(env, world)
    asker, other, before, move = await one_move(env, world, thread, session)

    await asker.click(latest_board(thread), label="Take back")
    request = request_of(thread)
    assert f"asks to take back their move `{move}`" in request.content
    assert f"<@{other.id}>" in request.content
    await other.click(request, label="Accept")

    assert session.state.dump() == before
    assert session.record.user_at(session.state.current_player) == asker.id
    closed = next(m for m in thread.history() if m.id == request.id)
    assert "agreed" in closed.content and "took their move back" in closed.content
    assert not closed.components
    assert (await bot_of(env).db.moves(session.id))[-1].kind is MoveKind.TAKEBACK


async def test_declined_or_withdrawn_nothing_changes(env, world) -> None:
    thread, session = await casual_qawale(env, world)
    asker, other, _before, _move = await one_move(env, world, thread, session)
    after = session.state.dump()

    await asker.click(latest_board(thread), label="Take back")
    first = request_of(thread)
    await other.click(first, label="Decline")
    assert "declined" in now_reads(thread, first)
    await asker.click(latest_board(thread), label="Take back")
    second = request_of(thread)
    assert second.id != first.id, "asked again after a decline: a new request"
    await asker.click(second, label="Decline")
    assert "withdrew" in now_reads(thread, second)

    assert session.state.dump() == after


async def test_the_asker_cannot_accept_and_a_spectator_cannot_answer(env, world) -> None:
    thread, session = await casual_qawale(env, world)
    asker, _other, _before, _move = await one_move(env, world, thread, session)
    await asker.click(latest_board(thread), label="Take back")
    request = request_of(thread)

    own = await asker.click(request, label="Accept")
    watcher = await world.carol.click(request, label="Accept")
    again = await asker.click(latest_board(thread), label="Take back")

    assert own.ephemeral and "This is your own request" in said(own)
    assert watcher.ephemeral and "You are not playing" in said(watcher)
    assert "Your request stands" in said(again)


async def test_playing_instead_turns_the_request_down(env, world) -> None:
    thread, session = await casual_qawale(env, world)
    asker, _other, _before, _move = await one_move(env, world, thread, session)
    await asker.click(latest_board(thread), label="Take back")
    request = request_of(thread)

    await one_move(env, world, thread, session)  # the other plays their own move

    assert "lapsed" in now_reads(thread, request)
    assert not next(m for m in thread.history() if m.id == request.id).components


async def test_only_the_last_mover_may_ask(env, world) -> None:
    thread, session = await casual_qawale(env, world)
    _asker, other, _before, _move = await one_move(env, world, thread, session)
    with pytest.raises(Refusal, match="only before"):
        await session.take_back(other.id)


async def test_a_request_is_answered_after_a_restart(env, world, database_url) -> None:
    thread, session = await casual_qawale(env, world)
    asker, other, before, _move = await one_move(env, world, thread, session)
    await asker.click(latest_board(thread), label="Take back")

    await restart(env, database_url)

    await other.click(request_of(thread), label="Accept")
    resumed = await bot_of(env).sessions.in_channel(thread.id)
    assert resumed.state.dump() == before


async def test_a_double_accept_takes_one_move_back(env, world) -> None:
    thread, session = await casual_qawale(env, world)
    await one_move(env, world, thread, session)
    after_first = session.state.dump()
    asker, other, _before, _move = await one_move(env, world, thread, session)
    await asker.click(latest_board(thread), label="Take back")
    request = request_of(thread)

    await simultaneously(env, lambda: other.click(request, label="Accept"),
                         lambda: other.click(request, label="Accept"))

    assert session.state.dump() == after_first
    log = await bot_of(env).db.moves(session.id)
    assert [m.kind for m in log].count(MoveKind.TAKEBACK) == 1


async def test_a_request_discord_will_not_post_changes_nothing_and_says_so(env, world) -> None:
    thread, session = await casual_qawale(env, world)
    asker, _other, _before, _move = await one_move(env, world, thread, session)
    env.inject_error("POST", "/webhooks/*", times=1)
    env.inject_error("POST", f"/channels/{thread.id}/messages", times=1)

    refused = await asker.click(latest_board(thread), label="Take back")

    assert "Discord would not take your request in this thread" in said(refused)
    assert not [m for m in thread.history() if "asks to take back" in m.content]
    await asker.click(latest_board(thread), label="Take back")  # it may ask again
    assert request_of(thread)
