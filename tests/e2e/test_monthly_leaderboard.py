"""`/leaderboard period:`: this month's and last month's climbers, paged like the all-time board."""

from __future__ import annotations

from datetime import timedelta

import discord

from bot.clock import utcnow
from tests.e2e.helpers import bot_of
from tests.e2e.test_records import _resign_game, resigned_graps_games


def month_text(day) -> str:
    """`January 2026`."""
    return f"{day:%B %Y}"


async def test_this_months_board_ranks_who_gained_most_and_last_months_keeps_it(
    env, world
) -> None:
    await _resign_game(env, world, world.bob, world.alice)
    await _resign_game(env, world, world.bob, world.alice)
    started = utcnow()
    month = await world.carol.slash(world.channel, "leaderboard", game="qawale", period="month")
    embed = month.response.embeds[0]
    assert not month.ephemeral
    assert embed.title == f"📈 Qawale · {month_text(started)} · this server"
    lines = embed.description.splitlines()
    assert lines[0].startswith("**1.** Alice — **+") and "in 2 games · now " in lines[0]
    assert lines[1].startswith("**2.** Bob — **-")
    assert embed.footer.text.startswith("Page 1/1 · 2 players")

    await env.advance_time(timedelta(days=32).total_seconds())
    now = await world.carol.slash(world.channel, "leaderboard", game="qawale", period="month")
    assert f"No rated game of Qawale finished in {month_text(utcnow())}" in \
        now.response.embeds[0].description
    last = await world.carol.slash(world.channel, "leaderboard", game="qawale",
                                   period="last_month")
    assert last.response.embeds[0].description == embed.description
    everywhere = await world.carol.slash(world.channel, "leaderboard", game="qawale",
                                         scope="global", period="last_month")
    assert everywhere.response.embeds[0].title.endswith("· all servers")
    assert "**1.** Alice" in everywhere.response.embeds[0].description


async def test_a_months_board_pages_within_its_month(env, world) -> None:
    now = utcnow()
    await resigned_graps_games(env, world, 12, now)  # 24 players this month: three pages
    first = await world.alice.slash(world.channel, "leaderboard", game="graps", period="month")
    assert first.response.embeds[0].footer.text.startswith("Page 1/3 · 24 players")
    # The month is in the buttons: a click after the month ended still pages the same month.
    await env.advance_time(timedelta(days=40).total_seconds())
    second = await world.alice.click(first.response.message, label="Next")
    embed = second.response.embeds[0]
    assert embed.footer.text.startswith("Page 2/3") and "**11.**" in embed.description
    assert month_text(now) in embed.title


async def test_a_forged_month_is_refused_privately(env, world) -> None:
    forged = discord.ui.View()
    forged.add_item(discord.ui.Button(label="Next", custom_id="lb:qawale:server:1:n:2026-13"))
    await bot_of(env).get_channel(world.channel.id).send(view=forged)
    await env.settle()
    clicked = await world.carol.click(world.channel.history()[-1], label="Next")
    assert clicked.ephemeral and "There is no such month" in clicked.response.content


async def test_a_french_servers_month_is_named_in_french(env) -> None:
    guild = env.create_guild(name="Soirée jeux", preferred_locale="fr")
    channel = guild.create_text_channel("jeux")
    zoe = guild.add_member(env.create_user("zoe", global_name="Zoé"))
    board = await zoe.slash(channel, "leaderboard", game="granat", period="last_month")
    embed = board.response.embeds[0]
    months = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
              "septembre", "octobre", "novembre", "décembre"]
    last = (utcnow().replace(day=1) - timedelta(days=1))
    named = f"{months[last.month - 1]} {last.year}"
    assert embed.title == f"📈 Granat · {named} · ce serveur"
    assert embed.description == f"Aucune partie classée de Granat terminée en {named}."
