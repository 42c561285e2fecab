"""`/history game:`: a member's games of one game only, paged within that game."""

from __future__ import annotations

import discord

from storage import MoveKind, NewMove, Seat
from tests.e2e.helpers import bot_of
from tests.e2e.test_records import NOW, _resign_game


async def graps_games_of(env, world, member, count: int) -> None:
    """`count` Graps games `member` won by resignation, each against a new player."""
    db = bot_of(env).db
    for i in range(count):
        game = await db.create_game(
            game="graps", guild_id=world.guild.id, channel_id=900 + i, parent_id=None,
            seats=[Seat(0, member.id, "Alice"), Seat(1, 2000 + i, f"P{i:02}")],
            options={}, rng_seed=1, state={}, now=NOW)
        await db.record_moves(game.id, 0, [NewMove(1, 2000 + i, MoveKind.RESIGN, "resign")], {},
                              result={"winners": [0], "scores": None, "reason": "resigned"},
                              now=NOW)


async def test_history_of_one_game_lists_and_pages_only_that_game(env, world) -> None:
    await graps_games_of(env, world, world.alice, 11)
    qawale = await _resign_game(env, world, world.bob, world.alice)
    everything = await world.carol.slash(world.channel, "history", member=world.alice)
    assert everything.response.embeds[0].footer.text.startswith("Page 1/2 · 12 games")

    first = await world.carol.slash(world.channel, "history", member=world.alice, game="graps")
    embed = first.response.embeds[0]
    assert embed.title == "📜 Alice's latest games of Graps"
    assert embed.footer.text.startswith("Page 1/2 · 11 games")
    assert f"#{qawale}" not in embed.description and "**Qawale**" not in embed.description
    older = await world.bob.click(first.response.message, label="Older")
    page = older.response.embeds[0]
    assert page.footer.text.startswith("Page 2/2") and page.description.count("**Graps**") == 1
    assert page.title.endswith("of Graps")

    none = await world.carol.slash(world.channel, "history", member=world.alice, game="granat")
    assert none.response.embeds[0].description == (
        "Alice has no finished game of Granat on this server yet.")


async def test_a_forged_game_in_a_history_button_is_refused_privately(env, world) -> None:
    forged = discord.ui.View()
    forged.add_item(discord.ui.Button(label="Older",
                                      custom_id=f"lp:{world.alice.id}:1:n:chess"))
    await bot_of(env).get_channel(world.channel.id).send(view=forged)
    await env.settle()
    clicked = await world.carol.click(world.channel.history()[-1], label="Older")
    assert clicked.ephemeral and "There is no such game" in clicked.response.content
