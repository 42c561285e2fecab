"""Challenges end to end: listing games, rules, challenging, answering, expiry, refusals."""

from __future__ import annotations

import discord
import pytest

from bot.challenges import CHALLENGE_TIMEOUT
from bot.games import GAME_UIS
from bot.guide import start_view
from renderers import render
from storage import ChallengeStatus
from tests.e2e.helpers import bot_of, challenge_and_accept, latest_board, said


async def test_games_lists_all_five_with_players_and_a_pitch(env, world) -> None:
    result = await world.alice.slash(world.channel, "games")
    fields = {f.name: f.value for f in result.response.embeds[0].fields}
    assert len(fields) == 5
    assert "Qawale (2 players)" in fields
    assert "Kraut & Rüben (2–5 players)" in fields
    assert all(value for value in fields.values())


async def test_games_marks_a_game_without_discord_controls_as_coming_soon(
    env, world, monkeypatch
) -> None:
    monkeypatch.delitem(GAME_UIS, "granat")
    result = await world.alice.slash(world.channel, "games")
    names = [f.name for f in result.response.embeds[0].fields]
    assert "Granat (2 players) · *coming soon*" in names
    assert "Qawale (2 players)" in names


async def test_rules_shows_a_readable_summary_over_the_starting_position(env, world) -> None:
    result = await world.alice.slash(world.channel, "rules", game="qawale")
    embed = result.response.embeds[0]
    assert embed.title.startswith("Qawale")
    assert "bottom pebble first" in embed.description
    assert embed.image.url == "attachment://start.png"
    [attachment] = result.response.attachments
    assert attachment.filename == "start.png"
    assert await attachment.read() == render(start_view("qawale")), "the game as it starts"


async def test_challenge_posts_accept_and_decline_for_the_opponent(env, world) -> None:
    result = await world.alice.slash(world.channel, "challenge", game="qawale", opponent=world.bob)
    message = result.response.message
    assert world.bob.mention in message.content
    assert "expires" in message.embeds[0].description
    assert "10 minutes" in message.embeds[0].description
    labels = [c.label for row in message.components for c in row.children]
    assert labels == ["Accept", "Decline"]


async def test_challenging_yourself_is_refused_privately(env, world) -> None:
    result = await world.alice.slash(world.channel, "challenge", game="qawale",
                                     opponent=world.alice)
    assert result.ephemeral
    assert "yourself" in result.response.content


async def test_challenging_a_bot_is_refused_privately(env, world) -> None:
    robot = world.guild.add_member(env.create_user("robot", bot=True))
    result = await world.alice.slash(world.channel, "challenge", game="qawale", opponent=robot)
    assert result.ephemeral and "bot" in result.response.content


async def test_a_game_not_playable_yet_is_refused_as_coming_soon(env, world, monkeypatch) -> None:
    monkeypatch.delitem(GAME_UIS, "granat")
    result = await world.alice.slash(world.channel, "challenge", game="granat", opponent=world.bob)
    assert result.ephemeral
    assert "Granat is coming soon" in result.response.content


async def test_only_the_challenged_member_can_accept(env, world) -> None:
    result = await world.alice.slash(world.channel, "challenge", game="qawale", opponent=world.bob)
    by_carol = await world.carol.click(result.response.message, label="Accept")
    assert by_carol.ephemeral and "Only Bob can answer" in by_carol.response.content
    by_alice = await world.alice.click(result.response.message, label="Accept")
    assert by_alice.ephemeral and "your own challenge" in by_alice.response.content
    assert world.channel.threads == []


async def test_decline_closes_the_challenge_without_a_game(env, world) -> None:
    result = await world.alice.slash(world.channel, "challenge", game="qawale", opponent=world.bob)
    await world.bob.click(result.response.message, label="Decline")
    message = world.channel.history()[-1]
    assert "Bob declined" in message.embeds[0].description
    assert message.components == []
    assert world.channel.threads == []
    [challenge] = [await bot_of(env).db.get_challenge(1)]
    assert challenge.status is ChallengeStatus.DECLINED


async def test_the_challenger_can_withdraw_with_decline(env, world) -> None:
    result = await world.alice.slash(world.channel, "challenge", game="qawale", opponent=world.bob)
    await world.alice.click(result.response.message, label="Decline")
    assert "Alice withdrew" in world.channel.history()[-1].embeds[0].description


async def test_an_unanswered_challenge_expires_after_ten_minutes(env, world) -> None:
    result = await world.alice.slash(world.channel, "challenge", game="qawale", opponent=world.bob)
    message_id = result.response.message.id
    await env.advance_time(CHALLENGE_TIMEOUT.total_seconds() - 5)
    assert (await bot_of(env).db.get_challenge(1)).status is ChallengeStatus.PENDING
    await env.advance_time(10)
    expired = next(m for m in world.channel.history() if m.id == message_id)
    assert "expired" in expired.embeds[0].description
    assert expired.components == []
    assert (await bot_of(env).db.get_challenge(1)).status is ChallengeStatus.EXPIRED


async def test_accept_opens_a_thread_with_the_board_and_whose_turn(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    assert thread.name in ("Qawale · Alice vs Bob", "Qawale · Bob vs Alice")
    board = latest_board(thread)
    first = session.record.user_at(0)
    assert board.content == f"<@{first}>, your turn."
    assert board.attachments[0].filename == "board.png"
    assert board.embeds[0].image.url == "attachment://board.png"
    [accepted] = [m for m in world.channel.history() if m.embeds and "accepted" in
                  (m.embeds[0].description or "")]
    assert thread.mention in accepted.embeds[0].description
    assert accepted.components == []
    assert {s.user_id for s in session.record.seats} == {world.alice.id, world.bob.id}


async def test_a_second_game_in_a_busy_thread_is_refused(env, world) -> None:
    thread, _ = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    result = await world.carol.slash(thread, "challenge", game="qawale", opponent=world.alice)
    assert result.ephemeral
    assert "already running" in result.response.content


async def test_without_thread_permission_the_game_runs_in_the_channel(env, world) -> None:
    me = world.guild.me
    channel = world.guild.create_text_channel(
        "no-threads", overwrites={me: discord.PermissionOverwrite(create_public_threads=False)})
    result = await world.alice.slash(channel, "challenge", game="qawale", opponent=world.bob)
    await world.bob.click(result.response.message, label="Accept")
    assert channel.threads == []
    assert latest_board(channel).attachments
    second = await world.carol.slash(channel, "challenge", game="qawale", opponent=world.bob)
    assert second.ephemeral and "already running" in second.response.content


async def test_without_send_permission_a_challenge_is_refused_with_the_missing_permission(
    env, world
) -> None:
    me = world.guild.me
    channel = world.guild.create_text_channel(
        "read-only", overwrites={me: discord.PermissionOverwrite(
            send_messages=False, create_public_threads=False)})
    result = await world.alice.slash(channel, "challenge", game="qawale", opponent=world.bob)
    assert result.ephemeral
    # Discord takes Embed Links and Attach Files away with Send Messages.
    refusal = result.response.content
    assert "I need the Send Messages, Embed Links, Attach Files permissions" in refusal
    assert "(Create Public Threads too" in refusal


async def test_game_options_are_shown_on_the_challenge_and_the_first_board(env, world) -> None:
    result = await world.alice.slash(world.channel, "challenge", game="qawale",
                                     opponent=world.bob, double_line=False)
    fields = {field.name: field.value for field in result.response.embeds[0].fields}
    assert "a double line is won by the sower: no" in fields["Options"]
    assert fields["Clock"] == "Daily: 24 hours per move"
    await world.bob.click(result.response.message, label="Accept")
    thread = world.channel.threads[-1]
    assert "a double line is won by the sower: no" in latest_board(thread).embeds[0].description
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session.state.options == {"mover_wins_double_line": False}


async def test_an_option_of_another_game_is_refused(env, world) -> None:
    result = await world.alice.slash(world.channel, "challenge", game="qawale",
                                     opponent=world.bob, decks=4)
    assert result.ephemeral
    assert "is an option of Le Grabuge, not of Qawale" in result.response.content


async def test_a_channel_the_bot_cannot_see_is_refused_naming_view_channel(env, world) -> None:
    hidden = world.guild.create_text_channel(
        "hidden", overwrites={world.guild.me: discord.PermissionOverwrite(view_channel=False)})
    for command, options in (("challenge", {"opponent": world.bob}), ("lobby", {})):
        result = await world.alice.slash(hidden, command, game="qawale", **options)
        assert result.ephemeral
        # Discord reads every other permission as off there: granting them would not help.
        assert "I need the View Channel permission there" in result.response.content


@pytest.mark.parametrize("command", ["challenge", "lobby"])
async def test_a_challenge_or_table_discord_would_not_post_is_not_kept(
    env, world, command
) -> None:
    options = {"opponent": world.bob} if command == "challenge" else {}
    env.inject_error("POST", "/interactions/*", times=1)  # Discord fails the answer: a 500
    failed = await world.alice.slash(world.channel, command, game="qawale", **options)
    assert "nothing was posted. Try again in a moment." in said(failed)
    assert await bot_of(env).db.pending_challenges() == [], "none left that nobody can see"
    again = await world.alice.slash(world.channel, command, game="qawale", **options)
    assert not again.ephemeral, "the retry is not refused by the one that failed"


async def test_a_rematch_discord_would_not_post_is_not_kept(env, world) -> None:
    thread, _session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    prompt = await world.alice.click(latest_board(thread), label="Resign")
    await world.alice.click(prompt.response.message, label="Resign")
    env.inject_error("POST", f"/channels/{world.channel.id}/messages", times=1)  # a 500
    failed = await world.bob.click(latest_board(thread), label="Rematch")
    assert "nothing was posted. Try again in a moment." in said(failed)
    assert await bot_of(env).db.pending_challenges() == []
    again = await world.bob.click(latest_board(thread), label="Rematch")
    assert "Rematch offered" in said(again), "not refused as offered already"
