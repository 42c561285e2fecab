"""`/games`, `/rules` and `/challenge`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.catalogue import CATALOGUE, CHALLENGE_OPTIONS
from bot.components import run_guarded

if TYPE_CHECKING:
    from bot.client import Ludotheque

GAME_CHOICES = [app_commands.Choice(name=entry.name, value=entry.id)
                for entry in CATALOGUE.values()]


class Lobby(commands.Cog):
    """Finding a game and an opponent."""

    def __init__(self, bot: Ludotheque) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Register the tables' Join/Leave/Start buttons (restart-proof, like challenges)."""
        from bot.challenges import LobbyButton

        self.bot.add_dynamic_items(LobbyButton)

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
    @app_commands.describe(
        game="Which game",
        opponent="Who you challenge",
        opponent2="A second opponent (games of more than two players)",
        opponent3="A third opponent",
        opponent4="A fourth opponent",
        grape_faces="Graps: grape faces on each die, 1 to 5 (default 1)",
        return_pruned="Graps: removed pawns go back to their owner's stock (default no)",
        decks="Le Grabuge: how many 52-card decks (default 2)",
        match_games="Kraut & Rüben: one game, or a three-game match with the cup (default 1)",
        double_line="Qawale: a sowing showing both colours' lines is won by the sower "
                    "(default yes; no = draw)",
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        decks=[app_commands.Choice(name=str(n), value=n) for n in (2, 4, 6, 8)],
        match_games=[app_commands.Choice(name="one game", value=1),
                     app_commands.Choice(name="three games and the cup", value=3)],
    )
    @app_commands.guild_only()
    async def challenge(
        self,
        interaction: discord.Interaction,
        game: str,
        opponent: discord.Member,
        opponent2: discord.Member | None = None,
        opponent3: discord.Member | None = None,
        opponent4: discord.Member | None = None,
        grape_faces: app_commands.Range[int, 1, 5] | None = None,
        return_pruned: bool | None = None,
        decks: int | None = None,
        match_games: int | None = None,
        double_line: bool | None = None,
    ) -> None:
        """Post a challenge the opponents can accept or decline."""
        chosen = {"grape_faces": grape_faces, "return_pruned": return_pruned, "decks": decks,
                  "match_games": match_games, "double_line": double_line}
        options = {CHALLENGE_OPTIONS[name]: value for name, value in chosen.items()
                   if value is not None}
        opponents = [o for o in (opponent, opponent2, opponent3, opponent4) if o is not None]
        await run_guarded(interaction,
                          self.bot.challenges.open(interaction, game, opponents, options))

    @app_commands.command(name="lobby", description="Open a table anyone can join")
    @app_commands.describe(
        game="Which game",
        match_games="Kraut & Rüben: one game, or a three-game match with the cup (default 1)",
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        match_games=[app_commands.Choice(name="one game", value=1),
                     app_commands.Choice(name="three games and the cup", value=3)],
    )
    @app_commands.guild_only()
    async def lobby(
        self, interaction: discord.Interaction, game: str, match_games: int | None = None
    ) -> None:
        """Post a table with Join, Leave and Start; the host starts it when enough joined."""
        options = {"match_games": match_games} if match_games is not None else {}
        await run_guarded(interaction,
                          self.bot.challenges.open_lobby(interaction, game, options))
