"""The AI's name on a French server: `🤖 IA (Facile)` in every public place (threads, start
messages, tables, leaderboards, the monthly recap), while its stored name stays English, so
an English server still reads `🤖 AI (Easy)`."""

from __future__ import annotations

import discord
import pytest

import bot.recaps
import bot.timers
from tests.e2e.conftest import World
from tests.e2e.helpers import bot_of, latest_board, the_bot
from tests.e2e.test_monthly_recaps import HOUR, into_next_month, recaps

FRENCH_AI = "🤖 IA (Facile)"
ENGLISH_AI = "🤖 AI (Easy)"


async def lost_to_the_ai(env, world: World):
    """Alice challenges the easy AI and resigns at once: the game's thread and session."""
    await world.alice.slash(world.channel, "challenge", game="qawale",
                            opponent=the_bot(env, world), level="easy")
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None
    await session.resign(world.alice.id)
    return thread, session


def fresh(message: discord.Message, channel) -> discord.Message:
    """`message` as it is now in `channel` (after the bot edited it)."""
    return next(m for m in channel.history() if m.id == message.id)


async def test_a_french_game_against_the_ai_names_it_in_french_in_its_thread_and_start(
    env, soiree
) -> None:
    result = await soiree.alice.slash(soiree.channel, "challenge", game="qawale",
                                      opponent=the_bot(env, soiree), level="easy")
    thread = soiree.channel.threads[-1]
    assert FRENCH_AI in thread.name and "Alice" in thread.name
    start = result.response.embeds[0].description
    assert start.startswith("🤖 **Qawale · ") and "commence dans" in start
    assert FRENCH_AI in start and ENGLISH_AI not in start, start


async def test_a_french_table_names_its_ai_in_french_when_seated_and_when_started(
    env, soiree, quick_boards
) -> None:
    table = await soiree.alice.slash(soiree.channel, "lobby", game="qawale")
    message = table.response.message
    await soiree.alice.click(message, label="+ IA Facile")
    seated = fresh(message, soiree.channel).embeds[0].description
    assert f"2. {FRENCH_AI}" in seated and ENGLISH_AI not in seated, seated
    started = await soiree.alice.click(message, label="Lancer")
    text = started.response.embeds[0].description
    assert text.startswith("✅ Alice a lancé la table ! **Qawale · ")
    assert FRENCH_AI in text and ENGLISH_AI not in text, text
    assert FRENCH_AI in soiree.channel.threads[-1].name


async def test_a_french_leaderboard_names_the_ai_in_french_all_time_and_this_month(
    env, soiree
) -> None:
    await lost_to_the_ai(env, soiree)
    board = await soiree.carol.slash(soiree.channel, "leaderboard", game="qawale")
    assert board.response.embeds[0].description.startswith(f"**1.** {FRENCH_AI} — **")
    month = await soiree.carol.slash(soiree.channel, "leaderboard", game="qawale",
                                     period="month")
    assert month.response.embeds[0].description.startswith(f"**1.** {FRENCH_AI} — **+")


async def test_an_english_server_still_names_an_ai_beaten_on_a_french_one_in_english(
    env, world, soiree
) -> None:
    await lost_to_the_ai(env, soiree)
    board = await world.carol.slash(world.channel, "leaderboard", game="qawale",
                                    scope="global")
    assert board.response.embeds[0].description.startswith(f"**1.** {ENGLISH_AI} — **")


async def test_a_rematch_against_the_ai_on_a_french_server_names_its_thread_in_french(
    env, soiree, quick_boards
) -> None:
    thread, _session = await lost_to_the_ai(env, soiree)
    threads = len(soiree.channel.threads)
    await soiree.alice.click(latest_board(thread), label="Revanche")
    assert len(soiree.channel.threads) == threads + 1
    assert FRENCH_AI in soiree.channel.threads[-1].name


@pytest.fixture
def long_sleeps(monkeypatch) -> None:
    """The timer and recap loops sleep until their next event: a month passes in a few steps."""
    monkeypatch.setattr(bot.timers, "LONGEST_SLEEP", 40 * 24 * HOUR)
    monkeypatch.setattr(bot.recaps, "LONGEST_SLEEP", 40 * 24 * HOUR)


async def test_a_french_monthly_recap_puts_the_ai_on_its_podium_in_french(
    env, soiree, long_sleeps
) -> None:
    admins = soiree.guild.create_role("Admins",
                                      permissions=discord.Permissions(manage_guild=True))
    dave = soiree.guild.add_member(env.create_user("dave", global_name="Dave"), roles=[admins])
    news = soiree.guild.create_text_channel("nouvelles")
    await dave.slash(soiree.channel, "settings", recap_channel=news)
    await lost_to_the_ai(env, soiree)
    await into_next_month(env)
    [recap] = recaps(news)
    podium = next(line for line in recap.embeds[0].description.splitlines()
                  if line.startswith("**Qawale**"))
    assert f"🥇 {FRENCH_AI} +" in podium and ENGLISH_AI not in podium, podium
