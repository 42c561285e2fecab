"""`/help`: every command, by what a member wants to do, privately, in their language."""

from __future__ import annotations

import re

import discord

from bot.guide import HELP_SECTIONS
from tests.e2e.helpers import bot_of, speaking


def listed_commands(embed) -> list[str]:
    """The command names the help's fields list, in order."""
    return [name for field in embed.fields for name in re.findall(r"^`/(\w+)`", field.value,
                                                                  re.MULTILINE)]


def typed_commands(env) -> list:
    """The bot's slash commands (its member menu is not typed: `/help` says it in words)."""
    return bot_of(env).tree.get_commands(type=discord.AppCommandType.chat_input)


async def test_help_lists_every_command_of_the_bot_once_privately(env, world) -> None:
    result = await world.alice.slash(world.channel, "help")
    assert result.ephemeral
    embed = result.response.embeds[0]
    registered = sorted(c.name for c in typed_commands(env))
    assert sorted(listed_commands(embed)) == registered
    assert [f.name for f in embed.fields] == [
        "Start a game", "During a game", "Your games and records", "Settings"]
    assert "`/challenge` · Challenge a member to a game" in embed.fields[0].value
    assert "→ **Apps** → **Challenge to a game**" in embed.fields[0].value, "the member menu"
    assert "`rated:` **Casual** plays for no rating" in embed.fields[0].value
    assert "**📖 Rules** (the rules, privately, for anyone)" in embed.fields[1].value
    assert "in a casual game, **💡 Hint**" in embed.fields[1].value
    assert "in Qawale or Granat **↩️ Take back** (the opponent is asked" in embed.fields[1].value
    assert "Qawale, Graps, Kraut & Rüben, Le Grabuge, Granat" in embed.description
    assert len(embed) <= 6000 and all(len(f.value) <= 1024 for f in embed.fields)


async def test_every_command_has_its_place_in_the_help(env) -> None:
    placed = [name for _section, names in HELP_SECTIONS for name in names]
    assert len(placed) == len(set(placed))
    assert sorted(placed) == sorted(c.name for c in typed_commands(env))


async def test_help_speaks_the_members_language(env, world, monkeypatch) -> None:
    speaking(monkeypatch, "fr", world.alice)
    result = await world.alice.slash(world.channel, "help")
    embed = result.response.embeds[0]
    assert embed.fields[0].name == "Commencer une partie"
    assert "`/challenge` · Défier un membre à un jeu" in embed.fields[0].value
    assert embed.title == "🎲 Ludothèque · aide"
