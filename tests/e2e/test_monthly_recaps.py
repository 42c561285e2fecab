"""`/settings recap_channel:`: when a month ends, the server hears what it played: the games
finished, who climbed most in each game and who played most. Posted once, even across a
restart; nothing for a quiet month."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import discord
import pytest

import bot.recaps
import bot.timers
from bot.clock import utcnow
from bot.recaps import last_month, month_start
from tests.e2e.helpers import bot_of
from tests.e2e.test_records import _resign_game
from tests.e2e.test_restart import restart
from tests.e2e.test_tournaments import gather, lose, players_of, round_threads

HOUR = 3600.0


@pytest.fixture
def dave(env, world):
    """A member who can manage the server."""
    admins = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(env.create_user("dave", global_name="Dave"), roles=[admins])


@pytest.fixture(autouse=True)
def long_sleeps(monkeypatch) -> None:
    """The timer and recap loops sleep until their next event rather than an hour at most:
    a month of virtual time then passes in a few steps (once each has woken up)."""
    monkeypatch.setattr(bot.timers, "LONGEST_SLEEP", 40 * 24 * HOUR)
    monkeypatch.setattr(bot.recaps, "LONGEST_SLEEP", 40 * 24 * HOUR)


@pytest.fixture
def news(world):
    """The channel where the server wants its recaps."""
    return world.guild.create_text_channel("news")


async def into_next_month(env) -> None:
    """Let virtual time run to an hour into next month."""
    now = utcnow()
    _since, this_month = last_month(now)
    target = month_start(this_month + timedelta(days=32)) + timedelta(hours=1)
    await env.advance_time((target - now).total_seconds())


def recaps(channel) -> list[discord.Message]:
    """The recaps posted in `channel`."""
    return [m for m in channel.history() if m.embeds and m.embeds[0].title
            and m.embeds[0].title.startswith("📅")]


async def test_the_month_that_ended_is_recapped_once_in_the_chosen_channel(
    env, world, dave, news, database_url
) -> None:
    saved = await dave.slash(world.channel, "settings", recap_channel=news)
    assert saved.ephemeral and "Saved." in saved.response.content
    assert f"Each month's recap goes to {news.mention} when the month ends." in \
        saved.response.content
    month = utcnow()
    await _resign_game(env, world, world.bob, world.alice)
    await _resign_game(env, world, world.bob, world.alice)
    assert not recaps(news), "nothing before the month ends"
    await into_next_month(env)
    [recap] = recaps(news)
    embed = recap.embeds[0]
    assert embed.title == f"📅 {month:%B %Y}: what we played"
    lines = embed.description.splitlines()
    assert lines[0] == "**2 games** finished by **2 members**."
    assert lines[2].startswith("**Qawale** · 2 games — 🥇 Alice +")
    assert "Bob" not in lines[2], "only those who gained climb the podium"
    assert lines[-1] == f"Most games: <@{world.alice.id}> (2), <@{world.bob.id}> (2)." or \
        lines[-1] == f"Most games: <@{world.bob.id}> (2), <@{world.alice.id}> (2)."
    assert not env.backend.get_message(news.id, recap.id).ping_user_ids, "nobody is pinged"

    await env.advance_time(24 * HOUR)
    await restart(env, database_url)
    await env.advance_time(2 * HOUR)
    assert len(recaps(news)) == 1, "a month is recapped once, restarts included"


async def test_a_quiet_month_posts_nothing(env, world, dave, news) -> None:
    await dave.slash(world.channel, "settings", recap_channel=news)
    await into_next_month(env)
    assert not recaps(news)


async def test_a_bot_down_when_the_month_ended_posts_the_recap_when_it_is_back(
    env, world, dave, news, database_url, monkeypatch
) -> None:
    await dave.slash(world.channel, "settings", recap_channel=news)
    await _resign_game(env, world, world.bob, world.alice)
    monkeypatch.setattr(bot_of(env).recaps, "start", lambda: None)  # as if it were down
    bot_of(env).recaps.close()
    await into_next_month(env)
    assert not recaps(news)
    monkeypatch.undo()
    await restart(env, database_url)
    assert len(recaps(news)) == 1


async def test_recap_off_stops_the_recaps(env, world, dave, news) -> None:
    await dave.slash(world.channel, "settings", recap_channel=news)
    off = await dave.slash(world.channel, "settings", recap="off")
    assert "No monthly recap is posted" in off.response.content
    await _resign_game(env, world, world.bob, world.alice)
    await into_next_month(env)
    assert not recaps(news)


async def test_only_a_manager_chooses_the_recap_channel_and_only_one_the_bot_can_post_in(
    env, world, dave, news
) -> None:
    member = await world.alice.slash(world.channel, "settings", recap_channel=news)
    assert member.ephemeral and member.response.content == (
        "Only members who can manage this server choose where its monthly recap goes.")
    both = await dave.slash(world.channel, "settings", recap_channel=news, recap="off")
    assert both.response.content == (
        "Choose a channel for the recap, or `recap:off` for none: not both.")
    empty = await dave.slash(world.channel, "settings", recap="on")
    assert empty.response.content == "Choose the recap's channel with `recap_channel:`."
    closed = world.guild.create_text_channel("closed", overwrites={
        world.guild.me: discord.PermissionOverwrite(send_messages=False)})
    refused = await dave.slash(world.channel, "settings", recap_channel=closed)
    assert refused.response.content == (
        f"I cannot post the recap in {closed.mention}: I lack Send Messages, Embed Links "
        "there.")
    assert "No monthly recap is posted" in (
        await dave.slash(world.channel, "settings")).response.content


async def test_a_deleted_recap_channel_is_forgotten(env, world, dave, news) -> None:
    await dave.slash(world.channel, "settings", recap_channel=news)
    await _resign_game(env, world, world.bob, world.alice)
    env.inject_error("POST", f"/channels/{news.id}/messages", status=404, code=10003, times=1)
    await into_next_month(env)
    assert not recaps(news)
    assert await bot_of(env).db.server_recap_channel(world.guild.id) is None


async def test_a_french_server_gets_its_recap_in_french(env, world, dave, news) -> None:
    await dave.slash(world.channel, "settings", recap_channel=news)
    await _resign_game(env, world, world.bob, world.alice)
    await dave.slash(world.channel, "settings", language="fr")
    await into_next_month(env)
    [recap] = recaps(news)
    assert recap.embeds[0].title.endswith(" : ce que nous avons joué")
    assert recap.embeds[0].description.startswith("**1 partie** terminée par **2 membres**.")


async def test_the_recap_names_the_winners_of_the_months_tournaments(
    env, world, dave, news
) -> None:
    await dave.slash(world.channel, "settings", recap_channel=news)
    await gather(world, world.bob, world.carol)
    rank = {world.alice.id: 0, world.bob.id: 1, world.carol.id: 2}
    members = {m.id: m for m in (world.alice, world.bob, world.carol)}
    for _round in (1, 2, 3):
        [thread] = round_threads(env, world, 1)
        await lose(env, thread, members[max(await players_of(env, thread), key=rank.get)])
    await into_next_month(env)
    [recap] = recaps(news)
    assert recap.embeds[0].description.splitlines()[-3] == (
        "🏆 Tournaments won: **Alice** (Qawale).")


async def test_a_busy_month_names_ten_tournaments_and_counts_the_others(
    env, world, dave, news, monkeypatch
) -> None:
    await dave.slash(world.channel, "settings", recap_channel=news)
    await _resign_game(env, world, world.bob, world.alice)
    database = bot_of(env).recaps.db
    real_recap = database.month_recap
    longest_name = "W" * 32  # Discord's longest display name, three winners level each time

    async def busy_month(*args, **kwargs):
        return dataclasses.replace(await real_recap(*args, **kwargs), tournaments=[
            ("granat", [f"{longest_name}{n}"] * 3) for n in range(70)])

    monkeypatch.setattr(database, "month_recap", busy_month)
    await into_next_month(env)
    [recap] = recaps(news)  # posted: 70 tournaments with their winners would not fit
    [line] = [line for line in recap.embeds[0].description.splitlines()
              if line.startswith("🏆 Tournaments won:")]
    assert line.count("(Granat)") == bot.recaps.TOURNAMENTS_NAMED
    assert f"**{longest_name}9** and " in line and f"{longest_name}10*" not in line
    assert line.endswith(" · and 60 more.")


def test_winners_too_many_to_name_in_the_room_left_are_counted_instead() -> None:
    tournaments = [("qawale", ["Alice", "Bob"]), ("graps", ["Carol"]), ("granat", ["Dave"])]
    everyone = bot.recaps.tournaments_line(tournaments, room=4096)
    assert everyone == ("🏆 Tournaments won: **Alice** and **Bob** (Qawale) · **Carol** (Graps)"
                        " · **Dave** (Granat).")
    first_only = "🏆 Tournaments won: **Alice** and **Bob** (Qawale) · and 2 more."
    assert bot.recaps.tournaments_line(tournaments, room=len(everyone) - 1) == (
        "🏆 Tournaments won: **Alice** and **Bob** (Qawale) · **Carol** (Graps) · and 1 more.")
    assert bot.recaps.tournaments_line(tournaments, room=len(first_only)) == first_only
    assert bot.recaps.tournaments_line(tournaments, room=10) == \
        "🏆 Tournaments won: and 3 more."
