"""`/serverstats`: what the server plays, busiest game first, with its games in progress,
the games not played yet and the month's most active members, who are not pinged."""

from __future__ import annotations

from bot.clock import utcnow
from i18n import month_name
from tests.e2e.helpers import challenge_and_accept, the_bot
from tests.e2e.test_server_clock import manager


async def test_server_stats_show_each_game_and_the_months_most_active(env, world) -> None:
    _thread, first = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    await first.resign(world.bob.id)
    _thread, second = await challenge_and_accept(env, world.channel, world.carol, world.alice)
    await second.resign(world.carol.id)
    await challenge_and_accept(env, world.channel, world.bob, world.carol, game="graps")
    await world.alice.slash(world.channel, "challenge", game="granat",
                            opponent=the_bot(env, world), level="easy")

    result = await world.carol.slash(world.channel, "serverstats")
    assert not result.ephemeral
    message = result.response.message
    assert message.mentions == [] and not message.role_mentions
    embed = result.response.embeds[0]
    assert embed.title == "📊 What Board game night plays"
    lines = embed.description.splitlines()
    assert lines[0] == "**Qawale** · 2 games (2 this month)"
    assert lines[1:3] == ["**Granat** · 0 games (0 this month) · 1 in progress",
                          "**Graps** · 0 games (0 this month) · 1 in progress"]
    assert lines[3] == "Not played here yet: Kraut & Rüben, Le Grabuge."
    assert lines[4].startswith("Playing here since <t:")
    [month] = embed.fields
    assert month.name == month_name(utcnow())
    assert month.value == (f"3 members finished a game. Most active: <@{world.alice.id}> (2), "
                           f"<@{world.carol.id}> (1), <@{world.bob.id}> (1).")


async def test_a_server_that_has_not_played_yet_is_told_how_to_start(env, world) -> None:
    result = await world.alice.slash(world.channel, "serverstats")
    assert result.response.embeds[0].description == (
        "No game has been played on this server yet. Start one with /challenge, or open a "
        "table with /lobby.")


async def test_server_stats_speak_the_servers_language(env, world) -> None:
    _thread, game = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    await game.resign(world.bob.id)
    saved = await manager(env, world).slash(world.channel, "settings", language="fr")
    assert saved.ephemeral
    result = await world.carol.slash(world.channel, "serverstats")
    embed = result.response.embeds[0]
    assert embed.title == "📊 Ce que joue Board game night"
    assert embed.description.startswith("**Qawale** · 1 partie (1 ce mois-ci)")
    assert embed.fields[0].value.startswith("2 membres ont terminé une partie.")


async def test_a_forgotten_member_is_not_named_among_the_most_active(env, world) -> None:
    _thread, game = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    await game.resign(world.bob.id)
    forgotten = await world.bob.slash(world.channel, "privacy", forget="forget")
    assert forgotten.ephemeral
    stats = await world.carol.slash(world.channel, "serverstats")
    most_active = stats.response.embeds[0].fields[0].value
    assert f"<@{world.alice.id}>" in most_active and "<@1>" not in most_active
