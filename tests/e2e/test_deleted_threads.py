"""A moderator deletes a game's thread, or the channel holding it: the game ends at once,
unrated, rather than waiting in `/mygames` and `/live` for a move no one can make; its
clock and the AI stop, and a restart does not bring it back. The challenges and tables
waiting there are cancelled, so that they no longer hold their hosts back."""

from __future__ import annotations

from storage import ChallengeStatus, GameStatus
from tests.e2e.helpers import bot_of, challenge_and_accept, said, the_bot
from tests.e2e.test_clock import LIVE, live_game
from tests.e2e.test_restart import restart

HOUR = 3600


async def stored_status(env, session) -> GameStatus:
    """The game's status as the database has it."""
    record = await bot_of(env).db.get_game(session.id)
    assert record is not None
    return record.status


async def test_deleting_a_games_thread_aborts_the_game_unrated(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    _other_thread, other = await challenge_and_accept(env, world.channel, world.alice,
                                                      world.carol, game="graps")
    env.backend.delete_channel(thread.id)
    await env.settle()
    assert await stored_status(env, session) is GameStatus.ABORTED
    assert await stored_status(env, other) is GameStatus.RUNNING, "only that thread's game"
    mine = await world.alice.slash(world.channel, "mygames")
    assert f"#{session.id} " not in mine.response.embeds[0].description
    assert f"#{other.id} " in mine.response.embeds[0].description
    live = await world.carol.slash(world.channel, "live")
    assert f"#{session.id} " not in live.response.embeds[0].description


async def test_deleting_a_channel_aborts_the_games_of_its_threads(env, world) -> None:
    elsewhere = world.guild.create_text_channel("more-games")
    _thread, here = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    _thread2, there = await challenge_and_accept(env, elsewhere, world.alice, world.bob)
    env.backend.delete_channel(elsewhere.id)
    await env.settle()
    assert await stored_status(env, there) is GameStatus.ABORTED
    assert await stored_status(env, here) is GameStatus.RUNNING


async def test_the_clock_of_a_deleted_game_never_fires(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    env.backend.delete_channel(thread.id)
    await env.settle()
    posted = len(world.channel.history())
    await env.advance_time(3 * 24 * 3600)  # well past the Daily clock's deadline
    assert await stored_status(env, session) is GameStatus.ABORTED
    assert len(world.channel.history()) == posted, "no notice about a game that is gone"


async def test_a_game_against_the_ai_stops_with_its_thread_and_stays_stopped_on_restart(
        env, world, database_url) -> None:
    await world.alice.slash(world.channel, "challenge", game="qawale",
                            opponent=the_bot(env, world), level="easy")
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    ply = session.ply
    env.backend.delete_channel(thread.id)
    await env.settle()
    assert await stored_status(env, session) is GameStatus.ABORTED
    await restart(env, database_url)
    record = await bot_of(env).db.get_game(session.id)
    assert record.status is GameStatus.ABORTED and record.ply <= ply + 1
    assert await bot_of(env).db.running_games() == []


async def challenge_status(env, challenge_id: int) -> ChallengeStatus:
    """The challenge's (or table's) status as the database has it."""
    record = await bot_of(env).db.get_challenge(challenge_id)
    assert record is not None
    return record.status


async def test_a_challenge_left_in_a_deleted_channel_no_longer_stops_the_next_one(
        env, world) -> None:
    doomed = world.guild.create_text_channel("doomed")
    first = await world.alice.slash(doomed, "challenge", game="qawale", opponent=world.bob)
    assert not first.ephemeral, said(first)
    env.backend.delete_channel(doomed.id)
    await env.settle()
    assert await challenge_status(env, 1) is ChallengeStatus.CANCELLED
    again = await world.alice.slash(world.channel, "challenge", game="qawale",
                                    opponent=world.bob)
    assert not again.ephemeral, said(again)


async def test_a_challenge_left_in_a_deleted_thread_is_cancelled(env, world) -> None:
    thread, _session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    prompt = await world.alice.slash(thread, "resign")
    await world.alice.click(prompt.response.message, label="Resign")
    posted = await world.alice.slash(thread, "challenge", game="graps", opponent=world.bob)
    assert not posted.ephemeral, said(posted)
    waiting = await bot_of(env).db.waiting_challenges_of(world.alice.id, env.now())
    assert [c.channel_id for c in waiting] == [thread.id]
    env.backend.delete_channel(thread.id)
    await env.settle()
    assert await challenge_status(env, waiting[0].id) is ChallengeStatus.CANCELLED
    assert await bot_of(env).db.waiting_challenges_of(world.alice.id, env.now()) == []


async def test_a_scheduled_tournament_in_a_deleted_channel_neither_blocks_nor_starts(
        env, world) -> None:
    doomed = world.guild.create_text_channel("doomed")
    posted = await world.alice.slash(doomed, "tournament", game="qawale", clock="live",
                                     starts_in=24)
    assert not posted.ephemeral, said(posted)
    for member in (world.bob, world.carol):
        await member.click(posted.response.message, label="Join")
    env.backend.delete_channel(doomed.id)
    await env.settle()
    assert await challenge_status(env, 1) is ChallengeStatus.CANCELLED
    again = await world.alice.slash(world.channel, "tournament", game="qawale", clock="live")
    assert not again.ephemeral, said(again)
    await env.advance_time(24 * HOUR + 5)
    assert await bot_of(env).db.get_tournament(1) is None, "its time came and went: no start"


async def test_a_thread_deleted_unnoticed_ends_its_two_player_game_when_the_time_runs_out(
    env, world
) -> None:
    thread, session = await live_game(env, world)
    # Deleted while the bot was away (no event): Discord answers "Unknown Channel" from now.
    env.inject_error("POST", f"/channels/{thread.id}/messages", status=404, code=10003,
                     message="Unknown Channel", times=None)
    await env.advance_time(LIVE + 1)
    assert await stored_status(env, session) is GameStatus.ABORTED
    assert await bot_of(env).db.timers_of(session.id) == [], "nothing left to fire"
