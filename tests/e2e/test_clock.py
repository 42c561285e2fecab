"""The turn clock end to end, on simcord's virtual clock: deadlines on the board, reminders,
what happens when the time runs out, leaving a game, restarts, rematches and archiving."""

from __future__ import annotations

import random

import discord
import pytest

from bot.ai_players import is_ai
from storage import GameStatus, MoveKind
from tests.e2e.helpers import (
    actor_for,
    bot_of,
    control_labels,
    latest_board,
    said,
    simultaneously,
    the_bot,
)
from tests.e2e.test_restart import restart

LIVE = 5 * 60
"""Seconds per move of the `live` clock."""


async def live_game(env, world, game: str = "qawale", clock: str = "live"):
    """Alice challenges Bob with a clock, Bob accepts: the thread and the session."""
    result = await world.alice.slash(world.channel, "challenge", game=game,
                                     opponent=world.bob, clock=clock)
    await world.bob.click(result.response.message, label="Accept")
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None
    return thread, session


async def game_against_the_ai(env, world, clock: str):
    """Alice challenges the bot (easy AI) with a clock: the thread and the session."""
    await world.alice.slash(world.channel, "challenge", game="qawale",
                            opponent=the_bot(env, world), level="easy", clock=clock)
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None
    return thread, session


def roles(session, world):
    """(the member to move, the other member)."""
    mover = actor_for(session, world.alice, world.bob)
    return mover, world.bob if mover is world.alice else world.alice


def texts(thread) -> list[str]:
    return [m.content or "" for m in thread.history()]


def choice_message(thread) -> discord.Message:
    """The last 'ran out of time' message with its choices."""
    found = [m for m in thread.history() if "ran out of time" in (m.content or "")
             and m.components]
    assert found, "no timeout choice was posted"
    return found[-1]


async def test_the_board_counts_down_to_the_deadline_of_the_player_to_move(env, world) -> None:
    thread, session = await live_game(env, world)
    deadline = session.record.deadline
    assert deadline is not None
    assert (deadline - env.now()).total_seconds() == pytest.approx(LIVE, abs=2)
    description = latest_board(thread).embeds[0].description or ""
    assert f"<t:{int(deadline.timestamp())}:R>" in description


async def test_a_game_without_a_clock_shows_no_deadline_and_never_times_out(env, world) -> None:
    thread, session = await live_game(env, world, clock="none")
    assert session.record.deadline is None
    assert "Time runs out" not in (latest_board(thread).embeds[0].description or "")
    await env.advance_time(7 * 24 * 3600)
    assert not any("ran out of time" in text for text in texts(thread))
    assert not session.is_over


async def test_the_player_to_move_is_reminded_at_half_time_and_at_the_last_call(
    env, world
) -> None:
    thread, session = await live_game(env, world)
    mover, _ = roles(session, world)
    board = latest_board(thread)
    await env.advance_time(LIVE / 2 - 5)
    assert not any("⏰" in text for text in texts(thread))
    await env.advance_time(10)
    [half] = [text for text in texts(thread) if "half your time" in text]
    assert f"<@{mover.id}>" in half
    [dm] = mover.user.dm_channel.history()
    assert "half your time" in dm.content and str(board.id) in dm.content
    await env.advance_time(LIVE / 2 - 60)  # one minute before the end
    assert sum("half your time" in text for text in texts(thread)) == 1, "reminded once"
    assert any("last call" in text and f"<@{mover.id}>" in text for text in texts(thread))
    assert len(mover.user.dm_channel.history()) == 2


async def test_a_member_who_turned_dm_reminders_off_is_only_pinged_in_the_thread(
    env, world
) -> None:
    thread, session = await live_game(env, world)
    mover, _ = roles(session, world)
    settings = await mover.slash(world.channel, "settings", dm_reminders="off")
    assert settings.ephemeral and "off" in settings.response.content
    await env.advance_time(LIVE / 2 + 5)
    assert any("half your time" in text for text in texts(thread))
    assert mover.user.dm_channel is None or mover.user.dm_channel.history() == []


async def test_a_move_restarts_the_clock_for_the_next_player(env, world) -> None:
    thread, session = await live_game(env, world)
    mover, other = roles(session, world)
    await env.advance_time(LIVE - 30)
    await mover.slash(thread, "move", notation=str(session.state.legal_moves()[0]))
    await env.advance_time(60)  # past the first deadline: nobody is out of time
    assert not any("ran out of time" in text for text in texts(thread))
    assert session.record.user_at(session.state.current_player) == other.id
    assert (session.record.deadline - env.now()).total_seconds() == pytest.approx(LIVE - 60,
                                                                                   abs=2)


async def test_the_opponent_claims_the_win_when_the_time_runs_out(env, world) -> None:
    thread, session = await live_game(env, world)
    absent, present = roles(session, world)
    await env.advance_time(LIVE + 1)
    choice = choice_message(thread)
    assert f"<@{present.id}>" in (choice.content or "")
    assert control_labels(choice)[0] == "Claim the win"
    refused = await absent.click(choice, label="Claim the win")
    assert refused.ephemeral and "Only" in refused.response.content
    spectator = await world.carol.click(choice, label="Claim the win")
    assert spectator.ephemeral

    await present.click(choice, label="Claim the win")
    stored = await bot_of(env).db.get_game(session.id)
    assert stored.status is GameStatus.FINISHED and stored.rated
    assert stored.result["reason"] == "timeout"
    assert stored.result["winners"] == [stored.seat_of(present.id)]
    assert "ran out of time" in (latest_board(thread).embeds[0].description or "")
    assert choice_message_closed(thread)
    history = await present.slash(world.channel, "history")
    assert "won (on time)" in history.response.embeds[0].description


def choice_message_closed(thread) -> bool:
    """True once no timeout choice is left clickable."""
    return not any("ran out of time" in (m.content or "") and m.components
                   for m in thread.history())


async def test_letting_the_ai_play_for_the_absent_player_finishes_the_game_unrated(
    env, world
) -> None:
    thread, session = await live_game(env, world)
    absent, present = roles(session, world)
    await env.advance_time(LIVE + 1)
    choice = choice_message(thread)
    assert control_labels(choice)[1].startswith("Let the AI play for")
    await present.click(choice, label=control_labels(choice)[1])
    stored = await bot_of(env).db.get_game(session.id)
    seat = stored.seat_of(absent.id)
    assert stored.seats[seat].stand_in is not None and not stored.rated
    assert session.record.user_at(session.state.current_player) == present.id, \
        "the AI played the absent player's move at once"
    came_back = await absent.slash(thread, "move", notation="a1:N")
    assert came_back.ephemeral and "the AI plays your seat" in came_back.response.content

    rng = random.Random(5)
    while not session.is_over:
        await present.slash(thread, "move", notation=str(rng.choice(session.state.legal_moves())))
    log = await bot_of(env).db.moves(session.id)
    assert any(m.seat == seat and m.user_id is not None and is_ai(m.user_id) for m in log)
    board = await present.slash(world.channel, "leaderboard", game="qawale")
    assert present.name not in (board.response.embeds[0].description or ""), "not rated"
    history = await present.slash(world.channel, "history")
    assert "unrated" in history.response.embeds[0].description
    assert "Ratings" not in (latest_board(thread).embeds[0].description or "")


async def test_keeping_waiting_gives_another_period_then_asks_again(env, world) -> None:
    thread, session = await live_game(env, world)
    _, present = roles(session, world)
    await env.advance_time(LIVE + 1)
    waited = await present.click(choice_message(thread), label="Keep waiting")
    assert not waited.ephemeral
    assert choice_message_closed(thread)
    assert (session.record.deadline - env.now()).total_seconds() == pytest.approx(LIVE, abs=2)
    shown = latest_board(thread).embeds[0].description or ""
    assert str(int(session.record.deadline.timestamp())) in shown
    await env.advance_time(LIVE + 1)
    assert choice_message(thread) is not None
    assert not session.is_over


async def test_a_player_who_comes_back_before_anyone_chose_simply_plays(env, world) -> None:
    thread, session = await live_game(env, world)
    absent, _ = roles(session, world)
    await env.advance_time(LIVE + 1)
    assert choice_message(thread) is not None
    played = await absent.slash(thread, "move", notation=str(session.state.legal_moves()[0]))
    assert "Played" in played.response.content
    assert choice_message_closed(thread), "the choices are withdrawn"
    assert not session.is_over


async def kraut_ruben_for_three(env, world, clock: str = "live"):
    result = await world.alice.slash(world.channel, "challenge", game="kraut_ruben",
                                     opponent=world.bob, opponent2=world.carol, clock=clock)
    await world.bob.click(result.response.message, label="Accept")
    await world.carol.click(result.response.message, label="Accept")
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None
    return thread, session


async def test_an_absent_player_of_three_is_replaced_by_the_ai_so_the_others_play_on(
    env, world, quick_boards
) -> None:
    thread, session = await kraut_ruben_for_three(env, world)
    absent = actor_for(session, world.alice, world.bob, world.carol)
    seat = session.record.seat_of(absent.id)
    await env.advance_time(LIVE + 1)
    stored = await bot_of(env).db.get_game(session.id)
    assert stored.status is GameStatus.RUNNING and stored.seats[seat].stand_in is not None
    assert stored.rated, "the others' game still counts"
    log = await bot_of(env).db.moves(session.id)
    assert any(m.kind is MoveKind.LEAVE and m.seat == seat for m in log)
    assert any(m.seat == seat and m.kind is MoveKind.PLAYER and is_ai(m.user_id or 0)
               for m in log), "the AI played the seat"
    assert any("ran out of time" in (b.embeds[0].description or "")
               for b in thread.history() if b.embeds)


async def test_leaving_a_game_of_three_hands_the_seat_to_the_ai(env, world, quick_boards) -> None:
    thread, session = await kraut_ruben_for_three(env, world, clock="none")
    prompt = await world.carol.click(latest_board(thread), label="Leave")
    assert prompt.ephemeral and "AI plays your seat" in prompt.response.content
    left = await world.carol.click(prompt.response.message, label="Leave")
    assert "You left" in left.response.content
    stored = await bot_of(env).db.get_game(session.id)
    assert stored.status is GameStatus.RUNNING
    assert stored.seats[stored.seat_of(world.carol.id)].stand_in is not None


async def alone_with_two_ais(env, world):
    """Alice fills a Kraut & Rüben table with an Easy and a Medium AI and starts it."""
    table = await world.alice.slash(world.channel, "lobby", game="kraut_ruben", clock="none")
    for label in ("+ Easy AI", "+ Medium AI", "Start"):
        await world.alice.click(table.response.message, label=label)
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None and len(session.record.seats) == 3
    return thread, session


async def test_alone_with_ais_resigning_is_an_ordinary_resignation(
    env, world, quick_boards
) -> None:
    thread, session = await alone_with_two_ais(env, world)
    assert "Resign" in control_labels(latest_board(thread))
    assert "Leave" not in control_labels(latest_board(thread))
    prompt = await world.alice.slash(thread, "resign")
    assert "Your opponents win" in said(prompt) and "play on" not in said(prompt)
    resigned = await world.alice.click(prompt.response.message, label="Resign")
    assert "You resigned" in said(resigned)
    stored = await bot_of(env).db.get_game(session.id)
    assert stored.status is GameStatus.FINISHED and stored.result["reason"] == "resigned"


async def test_the_last_person_left_among_ais_resigns_instead_of_leaving(
    env, world, quick_boards
) -> None:
    thread, session = await kraut_ruben_for_three(env, world, clock="none")
    for leaver in (world.carol, world.bob):
        prompt = await leaver.click(latest_board(thread), label="Leave")
        await leaver.click(prompt.response.message, label="Leave")
    assert "Resign" in control_labels(latest_board(thread)), "only Alice still plays"
    prompt = await world.alice.slash(thread, "resign")
    assert "play on" not in said(prompt)
    await world.alice.click(prompt.response.message, label="Resign")
    stored = await bot_of(env).db.get_game(session.id)
    assert stored.status is GameStatus.FINISHED and stored.result["reason"] == "resigned"


async def test_a_restart_between_the_reminder_and_the_deadline_still_times_out(
    env, world, database_url
) -> None:
    thread, session = await live_game(env, world)
    _, present = roles(session, world)
    await env.advance_time(LIVE / 2 + 5)
    assert any("half your time" in text for text in texts(thread))

    await restart(env, database_url)

    await env.advance_time(LIVE / 2)
    choice = choice_message(thread)
    assert f"<@{present.id}>" in (choice.content or "")
    assert sum("half your time" in text for text in texts(thread)) == 1


async def test_a_member_gone_from_a_game_against_the_ai_loses_on_time(
    env, world, quick_boards
) -> None:
    _, session = await game_against_the_ai(env, world, clock="live")
    await env.advance_time(LIVE + 1)
    stored = await bot_of(env).db.get_game(session.id)
    assert stored.status is GameStatus.FINISHED and stored.result["reason"] == "timeout"
    assert stored.seat_of(world.alice.id) not in stored.result["winners"]


async def test_a_rematch_offers_the_same_game_with_the_seats_swapped(env, world) -> None:
    thread, session = await live_game(env, world)
    old_seats = [s.user_id for s in session.record.seats]
    prompt = await world.alice.slash(thread, "resign")
    await world.alice.click(prompt.response.message, label="Resign")
    final = latest_board(thread)
    assert control_labels(final) == ["Rematch"]
    stranger = await world.carol.click(final, label="Rematch")
    assert stranger.ephemeral and "Only the players" in stranger.response.content

    offered = await world.bob.click(final, label="Rematch")
    assert offered.ephemeral and "Rematch offered" in offered.response.content
    again = await world.bob.click(final, label="Rematch")
    assert again.ephemeral and "already offered" in again.response.content
    challenge = world.channel.history()[-1]
    assert f"<@{world.alice.id}>" in (challenge.content or "")
    assert any(f.value == "Live: 5 minutes per move" for f in challenge.embeds[0].fields)
    await world.alice.click(challenge, label="Accept")
    rematch = await bot_of(env).sessions.in_channel(world.channel.threads[-1].id)
    assert rematch is not None and rematch.id != session.id
    assert [s.user_id for s in rematch.record.seats] == old_seats[::-1]
    assert rematch.record.clock == "live"


async def resigned(world, thread):
    """Alice resigns the game of `thread`: its final board."""
    prompt = await world.alice.slash(thread, "resign")
    await world.alice.click(prompt.response.message, label="Resign")
    return latest_board(thread)


async def finished_game(env, world):
    """A Live game of Alice and Bob that Alice resigned: its thread and its final board."""
    thread, _ = await live_game(env, world)
    return thread, await resigned(world, thread)


async def test_a_rematch_offered_before_a_restart_is_not_offered_twice(
    env, world, database_url
) -> None:
    _, final = await finished_game(env, world)
    await world.bob.click(final, label="Rematch")
    offer = world.channel.history()[-1]
    await restart(env, database_url)
    for player in (world.bob, world.alice):
        again = await player.click(final, label="Rematch")
        assert again.ephemeral and "already offered" in said(again), said(again)
    assert world.channel.history()[-1].id == offer.id, "no second offer to accept"
    assert len(await bot_of(env).db.pending_challenges()) == 1


async def test_a_rematch_may_be_offered_again_once_the_first_is_declined(env, world) -> None:
    _, final = await finished_game(env, world)
    await world.bob.click(final, label="Rematch")
    await world.alice.click(world.channel.history()[-1], label="Decline")
    again = await world.bob.click(final, label="Rematch")
    assert again.ephemeral and "Rematch offered" in said(again), said(again)


async def test_a_rematch_to_a_member_away_is_refused_as_a_challenge_is(env, world) -> None:
    _, final = await finished_game(env, world)
    await world.bob.slash(world.channel, "away on", days=7)
    challenged = await world.alice.slash(world.channel, "challenge", game="qawale",
                                         opponent=world.bob)
    assert challenged.ephemeral and "Bob is away until" in challenged.response.content
    posts = len(world.channel.history())
    offered = await world.alice.click(final, label="Rematch")
    assert offered.ephemeral and said(offered) == challenged.response.content
    assert len(world.channel.history()) == posts, "Bob is not pinged"
    assert await bot_of(env).db.pending_challenges() == []


async def test_a_finished_games_thread_is_archived_and_locked_after_a_while(env, world) -> None:
    thread, _ = await live_game(env, world, clock="none")
    prompt = await world.alice.slash(thread, "resign")
    await world.alice.click(prompt.response.message, label="Resign")
    channel = bot_of(env).get_channel(thread.id)
    assert isinstance(channel, discord.Thread) and not channel.archived
    await env.advance_time(15 * 60 + 1)
    channel = await bot_of(env).fetch_channel(thread.id)  # archived threads leave the cache
    assert isinstance(channel, discord.Thread) and channel.archived and channel.locked
    assert latest_board(thread).embeds, "the final board stays"


async def test_a_rematch_against_the_ai_starts_at_once_with_the_seats_swapped(
    env, world, quick_boards
) -> None:
    thread, session = await game_against_the_ai(env, world, clock="none")
    old_seats = session.names
    prompt = await world.alice.slash(thread, "resign")
    await world.alice.click(prompt.response.message, label="Resign")
    offered = await world.alice.click(latest_board(thread), label="Rematch")
    assert offered.ephemeral and "Rematch on" in offered.response.content
    rematch = await bot_of(env).sessions.in_channel(world.channel.threads[-1].id)
    assert rematch is not None and rematch.id != session.id
    assert rematch.names == old_seats[::-1]


async def test_a_double_click_on_rematch_against_the_ai_starts_one_game(
    env, world, quick_boards
) -> None:
    thread, _ = await game_against_the_ai(env, world, clock="none")
    final = await resigned(world, thread)
    threads = len(world.channel.threads)
    first, second = await simultaneously(
        env, lambda: world.alice.click(final, label="Rematch"),
        lambda: world.alice.click(final, label="Rematch"))
    assert len(await bot_of(env).db.running_games()) == 1
    assert len(world.channel.threads) == threads + 1
    rematch = world.channel.threads[-1]
    assert "Rematch on" in said(first) and f"<#{rematch.id}>" in said(first)
    assert second.ephemeral and f"<#{rematch.id}>" in said(second), "points to the rematch"


async def test_a_rematch_against_the_ai_is_offered_again_once_the_first_is_over(
    env, world, quick_boards
) -> None:
    thread, _ = await game_against_the_ai(env, world, clock="none")
    final = await resigned(world, thread)
    await world.alice.click(final, label="Rematch")
    rematch = world.channel.threads[-1]
    again = await world.alice.click(final, label="Rematch")
    assert again.ephemeral and f"<#{rematch.id}>" in said(again)
    assert len(await bot_of(env).db.running_games()) == 1

    prompt = await world.alice.slash(rematch, "resign")
    await world.alice.click(prompt.response.message, label="Resign")
    third = await world.alice.click(final, label="Rematch")
    assert "Rematch on" in said(third) and world.channel.threads[-1].id != rematch.id
    assert len(await bot_of(env).db.running_games()) == 1


async def test_a_rematch_against_the_ai_is_not_started_twice_across_a_restart(
    env, world, database_url, quick_boards
) -> None:
    thread, _ = await game_against_the_ai(env, world, clock="none")
    prompt = await world.alice.slash(thread, "resign")
    await world.alice.click(prompt.response.message, label="Resign")
    final = latest_board(thread)
    await world.alice.click(final, label="Rematch")
    rematch = world.channel.threads[-1]
    await restart(env, database_url)
    again = await world.alice.click(final, label="Rematch")
    assert again.ephemeral and f"<#{rematch.id}>" in said(again), said(again)
    assert world.channel.threads[-1].id == rematch.id
    assert len(await bot_of(env).db.running_games()) == 1



async def test_a_timeout_choice_from_before_a_restart_is_too_late_once_the_player_moved(
    env, world, database_url
) -> None:
    thread, session = await live_game(env, world)
    absent, present = roles(session, world)
    await env.advance_time(LIVE + 1)
    choice = choice_message(thread)
    await restart(env, database_url)
    resumed = await bot_of(env).sessions.get(session.id)
    await absent.slash(thread, "move", notation=str(resumed.state.legal_moves()[0]))
    late = await present.click(choice, label="Claim the win")
    assert late.ephemeral and "Too late" in late.response.content
    assert not resumed.is_over


@pytest.mark.parametrize("status,code", [(500, 0), (403, 50013)],
                         ids=["discord-down", "missing-permission"])
async def test_a_timeout_choice_discord_refuses_for_minutes_is_offered_once_it_can_be(
    env, world, status, code
) -> None:
    thread, session = await live_game(env, world)
    _, present = roles(session, world)
    env.inject_error("POST", f"/channels/{thread.id}/messages", status=status, code=code,
                     times=None)
    await env.advance_time(LIVE + 1)
    await env.advance_time(6 * 60)  # longer than the timer loop's five tries
    assert not any("ran out of time" in text for text in texts(thread))
    env.backend.faults.clear()  # Discord is back, or a moderator gave the permission
    await env.advance_time(3600)
    [choice] = [m for m in thread.history() if "ran out of time" in (m.content or "")]
    await present.click(choice, label="Claim the win")
    stored = await bot_of(env).db.get_game(session.id)
    assert stored.status is GameStatus.FINISHED and stored.result["reason"] == "timeout"


async def test_a_timeout_choice_discord_refused_before_a_restart_is_offered_after_it(
    env, world, database_url
) -> None:
    thread, session = await live_game(env, world)
    _, present = roles(session, world)
    env.inject_error("POST", f"/channels/{thread.id}/messages", times=None)
    await env.advance_time(LIVE + 1)
    await env.advance_time(6 * 60)
    env.backend.faults.clear()
    await restart(env, database_url)
    await env.advance_time(3600)
    claimed = await present.click(choice_message(thread), label="Claim the win")
    assert not claimed.ephemeral, said(claimed)
    assert (await bot_of(env).db.get_game(session.id)).status is GameStatus.FINISHED


async def test_a_timeout_choice_shown_before_a_restart_is_not_posted_again(
    env, world, database_url
) -> None:
    thread, _ = await live_game(env, world)
    await env.advance_time(LIVE + 1)
    choice_message(thread)
    await restart(env, database_url)
    await env.advance_time(3600)
    assert sum("ran out of time" in text for text in texts(thread)) == 1


async def test_board_brings_back_a_timeout_choice_a_moderator_deleted(env, world) -> None:
    thread, session = await live_game(env, world)
    _, present = roles(session, world)
    await env.advance_time(LIVE + 1)
    env.backend.delete_message(thread.id, choice_message(thread).id)
    assert choice_message_closed(thread)
    await world.carol.slash(thread, "board")  # anyone may ask for the board
    await present.click(choice_message(thread), label="Claim the win")
    assert (await bot_of(env).db.get_game(session.id)).status is GameStatus.FINISHED


async def test_board_moves_an_open_timeout_choice_down_with_it(env, world) -> None:
    thread, _ = await live_game(env, world)
    await env.advance_time(LIVE + 1)
    first = choice_message(thread)
    await world.carol.slash(thread, "board")
    again = choice_message(thread)
    assert again.id != first.id and latest_board(thread).id < again.id
    [old] = [m for m in thread.history() if m.id == first.id]
    assert not old.components, "one set of buttons at a time"


async def test_keep_waiting_whose_new_board_discord_refuses_shows_the_new_deadline_shortly(
    env, world
) -> None:
    thread, session = await live_game(env, world)
    _, present = roles(session, world)
    await env.advance_time(LIVE + 1)
    env.inject_error("POST", f"/channels/{thread.id}/messages", times=1)
    await present.click(choice_message(thread), label="Keep waiting")
    deadline = str(int(session.record.deadline.timestamp()))
    assert deadline not in (latest_board(thread).embeds[0].description or "")
    await env.advance_time(15)  # the first retry
    assert deadline in (latest_board(thread).embeds[0].description or "")


async def test_someone_else_leaving_does_not_restart_the_time_of_the_player_to_move(
    env, world, quick_boards
) -> None:
    thread, session = await kraut_ruben_for_three(env, world)
    mover = actor_for(session, world.alice, world.bob, world.carol)
    seat = session.record.seat_of(mover.id)
    deadline = session.record.deadline
    await env.advance_time(LIVE - 60)  # the mover has a minute left
    leaver = next(p for p in (world.alice, world.bob, world.carol) if p is not mover)
    board = latest_board(thread)
    pings = sum(f"<@{mover.id}>" in text for text in texts(thread))
    prompt = await leaver.click(board, label="Leave")
    await leaver.click(prompt.response.message, label="Leave")
    assert session.state.current_player == seat
    assert session.record.deadline == deadline
    assert latest_board(thread).id == board.id, "the board is edited in place"
    assert sum(f"<@{mover.id}>" in text for text in texts(thread)) == pings, "no new ping"
    await env.advance_time(61)  # the original deadline
    stored = await bot_of(env).db.get_game(session.id)
    assert stored.seats[seat].stand_in is not None, "the mover ran out of time as before"
