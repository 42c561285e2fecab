"""`/away` end to end, on simcord's virtual clock: a member away has their Daily and Relaxed
games wait for them (no reminder, no timeout, the whole time once back), Live games do not,
nobody may challenge them meanwhile, and the days away are counted over a year."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.absences import ALLOWANCE_PERIOD
from bot.clock import WAITING_CLOCKS
from tests.e2e.helpers import bot_of, latest_board, speaking
from tests.e2e.test_challenge_menu import MENU
from tests.e2e.test_clock import LIVE, choice_message, live_game, roles, texts
from tests.e2e.test_restart import restart

DAY = 24 * 3600
"""Seconds in a day, the Daily clock's time per move."""


def seconds_left(env, session) -> float:
    """Seconds until the deadline of the turn."""
    return (session.record.deadline - env.now()).total_seconds()


async def wait(env, seconds: float) -> None:
    """Let `seconds` of virtual time pass, a day at a time: the timer loop looks again every
    hour, and simcord gives each advance a few real seconds to settle."""
    while seconds > 0:
        step = min(seconds, DAY)
        await env.advance_time(step)
        seconds -= step


async def game_with_one_away(env, world, *, away: str, days: int, clock: str = "daily"):
    """A game of Alice and Bob in which the player to move (`away="mover"`) or the other one
    went away for `days`: the thread, the session, the member to move and the other."""
    thread, session = await live_game(env, world, clock=clock)
    mover, other = roles(session, world)
    await (mover if away == "mover" else other).slash(world.channel, "away on", days=days)
    await env.settle()
    return thread, session, mover, other


def name_of(session, member) -> str:
    """The member's name as the game shows it."""
    return session.names[session.record.seat_of(member.id)]


def board_text(thread) -> str:
    return latest_board(thread).embeds[0].description or ""


async def test_a_daily_game_waits_for_the_player_to_move_while_they_are_away(
    env, world
) -> None:
    thread, session = await live_game(env, world, clock="daily")
    mover, _ = roles(session, world)
    board = latest_board(thread)
    answer = await mover.slash(world.channel, "away on", days=7)
    assert answer.ephemeral and "You are away until" in answer.response.content
    assert "23 days away left" in answer.response.content
    assert "1 of your games in progress waits for you." in answer.response.content
    await env.settle()
    assert seconds_left(env, session) == pytest.approx(8 * DAY, abs=5), \
        "the whole day starts when they are back"
    assert latest_board(thread).id == board.id, "the board was edited in place, no new ping"
    assert f"{name_of(session, mover)} is away" in board_text(thread)

    await wait(env, 7 * DAY + 11 * 3600)
    assert not any("⏰" in text for text in texts(thread)), "no reminder while away"
    await wait(env, 2 * 3600)  # half the day after coming back
    assert any("half your time" in text for text in texts(thread))
    await wait(env, 12 * 3600)
    assert choice_message(thread) is not None, "once back, the time runs out as usual"


async def test_a_turn_that_comes_while_the_player_is_away_starts_when_they_are_back(
    env, world
) -> None:
    thread, session, mover, other = await game_with_one_away(env, world, away="other", days=3)
    assert seconds_left(env, session) == pytest.approx(DAY, abs=5), "not their turn: unchanged"
    await wait(env, 3600)
    await mover.slash(thread, "move", notation=str(session.state.legal_moves()[0]))
    assert session.record.user_at(session.state.current_player) == other.id
    assert seconds_left(env, session) == pytest.approx(3 * DAY - 3600 + DAY, abs=5)
    assert f"{name_of(session, other)} is away" in board_text(thread)


async def test_coming_back_early_starts_the_whole_time_at_once(env, world) -> None:
    thread, session, mover, _ = await game_with_one_away(env, world, away="mover", days=10)
    await wait(env, 2 * DAY)
    back = await mover.slash(world.channel, "away off")
    assert back.ephemeral and "Welcome back" in back.response.content
    await env.settle()
    assert seconds_left(env, session) == pytest.approx(DAY, abs=5)
    assert "is away" not in board_text(thread)
    again = await mover.slash(world.channel, "away off")
    assert "You are not away" in again.response.content
    assert "28 days left" in again.response.content, "two days taken of thirty"


async def test_a_player_away_may_still_play_and_their_opponents_clock_runs_as_usual(
    env, world
) -> None:
    thread, session, mover, other = await game_with_one_away(env, world, away="mover", days=5)
    await wait(env, 3600)
    await mover.slash(thread, "move", notation=str(session.state.legal_moves()[0]))
    assert session.record.user_at(session.state.current_player) == other.id
    assert seconds_left(env, session) == pytest.approx(DAY, abs=5)
    assert "is away" not in board_text(thread)
    await wait(env, 3600)
    await other.slash(thread, "move", notation=str(session.state.legal_moves()[0]))
    assert seconds_left(env, session) == pytest.approx(5 * DAY - 2 * 3600 + DAY, abs=5), \
        "still away: the next turn waits for them again"


async def test_live_games_do_not_wait_for_a_player_away(env, world) -> None:
    thread, session, _, _ = await game_with_one_away(env, world, away="mover", days=7,
                                                     clock="live")
    assert seconds_left(env, session) == pytest.approx(LIVE, abs=5)
    await wait(env, LIVE + 1)
    assert choice_message(thread) is not None


async def test_nobody_can_challenge_a_member_away(env, world) -> None:
    await world.bob.slash(world.channel, "away on", days=5)
    refused = await world.alice.slash(world.channel, "challenge", game="qawale",
                                      opponent=world.bob)
    assert refused.ephemeral
    assert "Bob is away until" in refused.response.content
    assert "/lobby" in refused.response.content
    await world.bob.slash(world.channel, "away off")
    accepted = await world.alice.slash(world.channel, "challenge", game="qawale",
                                       opponent=world.bob)
    assert not accepted.ephemeral


async def test_the_days_away_are_counted_over_twelve_months(env, world) -> None:
    settings = await world.alice.slash(world.channel, "settings")
    assert "You are away" not in settings.response.content
    first = await world.alice.slash(world.channel, "away on", days=14)
    assert "games in progress" not in first.response.content, "she has none"
    settings = await world.alice.slash(world.channel, "settings")
    assert "You are away until" in settings.response.content
    await wait(env, 14 * DAY + 60)
    await world.alice.slash(world.channel, "away on", days=14)
    await wait(env, 14 * DAY + 60)
    refused = await world.alice.slash(world.channel, "away on", days=3)
    assert refused.ephemeral and "You have 2 days away left" in refused.response.content
    assert (await world.alice.slash(world.channel, "away on", days=2)).ephemeral
    await wait(env, 2 * DAY + 60)
    none_left = await world.alice.slash(world.channel, "away on", days=1)
    assert "no days away left" in none_left.response.content
    await wait(env, ALLOWANCE_PERIOD.total_seconds())
    renewed = await world.alice.slash(world.channel, "away on", days=14)
    assert "You are away until" in renewed.response.content, "a year later, days again"


async def test_going_away_again_replaces_the_time_away(env, world) -> None:
    _, session, mover, _ = await game_with_one_away(env, world, away="mover", days=10,
                                                    clock="relaxed")
    await mover.slash(world.channel, "away on", days=2)
    await env.settle()
    assert seconds_left(env, session) == pytest.approx(2 * DAY + 3 * DAY, abs=5)


async def test_a_restart_keeps_who_is_away(env, world, database_url) -> None:
    thread, session = await live_game(env, world, clock="daily")
    mover, other = roles(session, world)
    await other.slash(world.channel, "away on", days=4)
    await restart(env, database_url)
    resumed = await bot_of(env).sessions.get(session.id)
    await mover.slash(thread, "move", notation=str(resumed.state.legal_moves()[0]))
    resumed = await bot_of(env).sessions.get(session.id)
    assert seconds_left(env, resumed) == pytest.approx(5 * DAY, abs=5)


async def test_an_absence_stored_by_another_process_reaches_this_ones_games(env, world) -> None:
    """Another bot process (another shard) took the `/away`: this one hears of it through
    the timers it stored, and its game of the member waits."""
    thread, session = await live_game(env, world, clock="daily")
    mover, _ = roles(session, world)
    now = env.now()
    await bot_of(env).db.go_away(mover.id, now, now + timedelta(days=6), WAITING_CLOCKS,
                                 forget_before=now - ALLOWANCE_PERIOD)
    await wait(env, 3600)  # this process's timer loop looks again within the hour
    assert seconds_left(env, session) == pytest.approx(6 * DAY - 3600 + DAY, abs=5)
    assert f"{name_of(session, mover)} is away" in board_text(thread)


async def test_a_reminder_due_while_away_sets_the_clock_instead(env, world) -> None:
    """A change this process never heard of (its cache is stale): the turn's own timer reads
    the absence again before reminding, and waits."""
    thread, session = await live_game(env, world, clock="daily")
    mover, _ = roles(session, world)
    now = env.now()
    await bot_of(env).db.go_away(mover.id, now, now + timedelta(days=3), [],
                                 forget_before=now - ALLOWANCE_PERIOD)  # stored no timer
    await wait(env, DAY / 2 + 60)
    assert not any("half your time" in text for text in texts(thread))
    assert seconds_left(env, session) == pytest.approx(3 * DAY - DAY / 2 - 60 + DAY, abs=5)


async def test_privacy_lists_the_times_away_and_forgetting_deletes_them(env, world) -> None:
    await world.carol.slash(world.channel, "away on", days=1)
    summary = await world.carol.slash(world.channel, "privacy")
    assert "times away" in summary.response.embeds[0].description
    assert "kept a year to count the days: 1" in summary.response.embeds[0].description
    await world.carol.slash(world.channel, "privacy", forget="forget")
    assert await bot_of(env).db.away_until([world.carol.id], env.now()) == {}
    summary = await world.carol.slash(world.channel, "privacy")
    assert "kept a year to count the days: 0" in summary.response.embeds[0].description


async def test_going_away_once_out_of_time_is_too_late(env, world) -> None:
    thread, session = await live_game(env, world, clock="daily")
    absent, present = roles(session, world)
    await wait(env, DAY + 60)
    choice = choice_message(thread)
    await absent.slash(world.channel, "away on", days=7)
    await env.settle()
    await present.click(choice, label="Claim the win")
    assert session.is_over and session.record.result["reason"] == "timeout"


async def test_a_french_server_and_member_hear_of_the_absence_in_french(
    env, soiree, monkeypatch
) -> None:
    result = await soiree.alice.slash(soiree.channel, "challenge", game="qawale",
                                      opponent=soiree.bob, clock="daily")
    await soiree.bob.click(result.response.message, label="Accepter")
    thread = soiree.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    mover, _ = roles(session, soiree)
    speaking(monkeypatch, "fr", mover)
    answer = await mover.slash(soiree.channel, "away on", days=2)
    assert "Vous êtes absent jusqu’au" in answer.response.content
    await env.settle()
    assert f"{name_of(session, mover)} est absent : son temps part à son retour" in \
        board_text(thread)


async def test_my_games_says_until_when_the_member_is_away(env, world) -> None:
    await live_game(env, world, clock="daily")
    await world.alice.slash(world.channel, "away on", days=3)
    mine = await world.alice.slash(world.channel, "mygames")
    [field] = mine.response.embeds[0].fields
    assert field.name == "🏖️ You are away" and "`/away off`" in field.value
    theirs = await world.bob.slash(world.channel, "mygames")
    assert theirs.response.embeds[0].fields == []


async def test_the_member_menu_says_at_once_that_a_member_is_away(env, world) -> None:
    await world.bob.slash(world.channel, "away on", days=2)
    menu = await world.alice.context_menu(world.channel, MENU, world.bob)
    assert menu.ephemeral and menu.response.content.startswith("Bob is away until"), \
        "refused before a game is picked"


async def test_the_clock_waits_even_when_discord_refuses_to_edit_the_board(env, world) -> None:
    thread, session = await live_game(env, world, clock="daily")
    mover, _ = roles(session, world)
    env.inject_error("PATCH", f"/channels/{thread.id}/messages/*", times=1)
    await mover.slash(world.channel, "away on", days=3)
    await env.settle()
    assert seconds_left(env, session) == pytest.approx(4 * DAY, abs=5), "stored all the same"
    stored = await bot_of(env).db.get_game(session.id)
    assert stored.deadline == session.record.deadline
    await wait(env, 60)  # the board is mended shortly
    assert f"{name_of(session, mover)} is away" in board_text(thread)
