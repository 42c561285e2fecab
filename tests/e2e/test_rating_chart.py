"""`/stats game:`: one game's rating and results, with the chart of the rating after each
rated game; `/stats versus: game:` narrows the head-to-head to that game."""

from __future__ import annotations

import io
import re

from PIL import Image

from tests.e2e.helpers import bot_of, challenge_and_accept
from tests.e2e.test_french_core import french_server_game, last_board


async def resigned(env, world, winner, loser) -> int:
    """A Qawale game `loser` resigns: its id."""
    _thread, session = await challenge_and_accept(env, world.channel, winner, loser)
    await session.resign(loser.id)
    return session.id


async def test_stats_for_one_game_shows_its_rating_and_a_chart_of_each_rated_game(
    env, world
) -> None:
    await resigned(env, world, world.alice, world.bob)
    await resigned(env, world, world.bob, world.alice)
    await resigned(env, world, world.alice, world.bob)
    shown = await world.carol.slash(world.channel, "stats", member=world.alice, game="qawale")
    assert not shown.ephemeral, "stats are posted for everyone, as without a game"
    [embed] = shown.response.embeds
    assert embed.title == "📊 Alice · Qawale · this server"
    assert "3 games · 2 wins · 1 loss" in embed.description
    assert "Rating **" in embed.description and "Streak: 1 win" in embed.description
    rating = float(re.search(r"Rating \*\*(-?[\d.]+)\*\*", embed.description).group(1))
    best = re.search(r"\nBest rating: \*\*(-?[\d.]+)\*\* \(<t:\d+:d>\)", embed.description)
    assert best and float(best.group(1)) >= rating, "the best is at least the rating now"
    assert embed.image.url == "attachment://rating.png"
    assert embed.footer.text == ("Rating after each of the last 3 rated games here, the "
                                 "oldest on the left.")
    [attachment] = shown.response.attachments
    assert attachment.filename == "rating.png"
    chart = Image.open(io.BytesIO(await attachment.read()))
    assert chart.format == "PNG" and chart.size == (800, 420)
    every_game = await world.carol.slash(world.channel, "stats", member=world.alice)
    assert every_game.response.embeds[0].footer.text == (
        "Add game: to see one game's rating over time."), "/stats says where the chart is"


async def test_stats_for_a_game_not_played_yet_says_so_without_a_chart(env, world) -> None:
    await resigned(env, world, world.alice, world.bob)
    shown = await world.alice.slash(world.channel, "stats", game="graps")
    [embed] = shown.response.embeds
    assert embed.description == "Alice has not finished a rated game of Graps on this server yet."
    assert not shown.response.attachments and not embed.image


async def test_stats_versus_in_one_game_counts_only_that_game(env, world) -> None:
    await resigned(env, world, world.alice, world.bob)
    same = await world.alice.slash(world.channel, "stats", versus=world.bob, game="qawale")
    [field] = same.response.embeds[0].fields
    assert field.name == "Qawale · 1 game"
    other = await world.alice.slash(world.channel, "stats", versus=world.bob, game="graps")
    assert other.response.embeds[0].description == (
        "Alice and Bob have not finished a game of Graps together on this server yet.")


async def test_a_french_server_shows_one_games_stats_in_french(env) -> None:
    (alice, bob), thread, _session = await french_server_game(env)
    prompt = await bob.click(last_board(thread), label="Abandonner")
    await bob.click(prompt.response.message, label="Resign")
    shown = await bob.slash(thread, "stats", member=alice, game="qawale")
    [embed] = shown.response.embeds
    assert embed.title == "📊 Alice · Qawale · ce serveur"
    assert embed.footer.text == "Cote après la dernière partie classée ici."
    assert "\nMeilleure cote : **" in embed.description
    assert shown.response.attachments[0].filename == "rating.png"


async def test_games_rated_before_their_changes_were_kept_show_the_stats_without_a_chart(
    env, world
) -> None:
    await resigned(env, world, world.alice, world.bob)
    async with bot_of(env).db.transaction() as tx:  # as migration 9 found older games
        await tx.execute("DELETE FROM rating_changes")
    shown = await world.alice.slash(world.channel, "stats", game="qawale")
    [embed] = shown.response.embeds
    assert "1 game · 1 win" in embed.description
    assert not shown.response.attachments and not embed.image and not embed.footer.text
