"""`/games`, `/rules` and `/challenge`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.catalogue import CATALOGUE
from bot.components import run_guarded

if TYPE_CHECKING:
    from bot.client import Ludotheque

GAME_CHOICES = [app_commands.Choice(name=entry.name, value=entry.id)
                for entry in CATALOGUE.values()]


class Lobby(commands.Cog):
    """Finding a game and an opponent."""

    def __init__(self, bot: Ludotheque) -> None:
        self.bot = bot

    @app_commands.command(name="games", description="The games you can play here")
    async def games(self, interaction: discord.Interaction) -> None:
        """List the five games with their players and a one-line pitch."""
        from bot.games import PLAYABLE

        embed = discord.Embed(title="🎲 Ludothèque", colour=discord.Colour.blurple(),
                              description="Challenge someone with `/challenge`; rules with "
                                          "`/rules`.")
        for entry in CATALOGUE.values():
            status = "" if entry.id in PLAYABLE else " · *coming soon*"
            embed.add_field(name=f"{entry.name} ({entry.players}){status}", value=entry.pitch,
                            inline=False)
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="rules", description="A summary of a game's rules")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        """Show a readable summary of one game's rules."""
        entry = CATALOGUE[game]
        embed = discord.Embed(title=f"{entry.name} · {entry.players}", description=entry.rules,
                              colour=discord.Colour.blurple())
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="challenge", description="Challenge a member to a game")
    @app_commands.describe(game="Which game", opponent="Who you challenge")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def challenge(
        self, interaction: discord.Interaction, game: str, opponent: discord.Member
    ) -> None:
        """Post a challenge the opponent can accept or decline."""
        await run_guarded(interaction, self.bot.challenges.open(interaction, game, opponent))
