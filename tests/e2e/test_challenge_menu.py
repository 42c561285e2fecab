"""Right-click a member → Apps → Challenge to a game: a private game menu, then the challenge."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.ai_players import is_ai, level_of
from bot.client import CatalogueTranslator
from tests.e2e.helpers import bot_of, the_bot

MENU = "Challenge to a game"


def menu_labels(message: discord.Message) -> list[str]:
    """The games offered in the picker's menu."""
    [row] = message.components
    [menu] = row.children
    assert isinstance(menu, discord.SelectMenu)
    return [option.label for option in menu.options]


async def test_a_member_is_challenged_to_the_game_picked_from_their_menu(env, world) -> None:
    asked = await world.alice.context_menu(world.channel, MENU, world.bob)
    assert asked.ephemeral and "Which game do you challenge Bob to?" in asked.response.content
    assert menu_labels(asked.response.message) == [
        "Qawale", "Graps", "Kraut & Rüben", "Le Grabuge", "Granat"]

    picked = await world.alice.select(asked.response.message, ["granat"])
    assert not picked.ephemeral
    challenge = picked.response.message
    assert f"<@{world.bob.id}>" in challenge.content and "Granat" in challenge.embeds[0].title
    await world.bob.click(challenge, label="Accept")
    session = await bot_of(env).sessions.in_channel(world.channel.threads[-1].id)
    assert session is not None and session.record.game == "granat"
    assert {s.user_id for s in session.record.seats} == {world.alice.id, world.bob.id}


async def test_the_bots_own_menu_starts_a_game_against_the_medium_ai(env, world) -> None:
    asked = await world.alice.context_menu(world.channel, MENU, the_bot(env, world))
    await world.alice.select(asked.response.message, ["qawale"])
    session = await bot_of(env).sessions.in_channel(world.channel.threads[-1].id)
    assert session is not None
    [ai_seat] = [s for s in session.record.seats if is_ai(s.user_id)]
    assert level_of(ai_seat.user_id) == "medium"


async def test_challenging_yourself_from_the_menu_is_refused_privately(env, world) -> None:
    asked = await world.alice.context_menu(world.channel, MENU, world.alice)
    assert asked.ephemeral and "You cannot challenge yourself" in asked.response.content


async def test_a_member_who_left_before_the_pick_is_not_challenged(env, world) -> None:
    asked = await world.alice.context_menu(world.channel, MENU, world.carol)
    world.guild.remove_member(world.carol)
    await env.settle()
    picked = await world.alice.select(asked.response.message, ["qawale"])
    assert picked.ephemeral and "no longer on this server" in picked.response.content
    assert world.channel.threads == []


async def test_the_menus_name_is_translated_for_french_clients(env) -> None:
    tree = bot_of(env).tree
    menu = tree.get_command(MENU, type=discord.AppCommandType.user)
    assert isinstance(menu, app_commands.ContextMenu)
    payload = await menu.get_translated_payload(tree, CatalogueTranslator())
    assert payload["name_localizations"]["fr"] == "Défier à un jeu"
    assert len(payload["name_localizations"]["fr"]) <= 32
    challenge = await tree.get_command("challenge").get_translated_payload(
        tree, CatalogueTranslator())
    assert "fr" not in challenge.get("name_localizations", {}), "typed names stay English"
