"""`/games`, `/rules`, `/challenge` and `/lobby`: finding a game and opponents."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai_players import DEFAULT_LEVEL
from bot.challenges import ChallengeService
from bot.clock import DEFAULT_CLOCK
from bot.cogs.choices import GAME_CHOICES
from bot.cogs.options import engine_options, game_options_command
from bot.errors import Refusal
from bot.games import GAME_UIS
from bot.games.base import players_text
from bot.replies import Interaction
from engines import GAMES

CLOCK_HELP = "Time per move; when it runs out the others may claim the win (default Daily)"


class Lobby(commands.Cog):
    """Finding a game and an opponent."""

    def __init__(self, challenges: ChallengeService) -> None:
        self.challenges = challenges

    @app_commands.command(name="games", description="The games you can play here")
    async def games(self, interaction: Interaction) -> None:
        """List the games with their players and a one-line pitch."""
        embed = discord.Embed(title="🎲 Ludothèque", colour=discord.Colour.blurple(),
                              description="Challenge someone with `/challenge`; rules with "
                                          "`/rules`.")
        for ui in GAME_UIS.values():
            embed.add_field(name=f"{ui.name} ({ui.players})", value=ui.pitch, inline=False)
        for game_id, game in GAMES.items():
            if game_id not in GAME_UIS:
                embed.add_field(name=f"{game.name} ({players_text(game)}) · *coming soon*",
                                value="Not playable here yet.", inline=False)
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="rules", description="A summary of a game's rules")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: Interaction, game: str) -> None:
        """Show a readable summary of one game's rules."""
        ui = GAME_UIS.get(game)
        if ui is None:
            raise Refusal(f"There is no game called {game[:50]!r}. See `/games`.")
        embed = discord.Embed(title=f"{ui.name} · {ui.players}", description=ui.rules,
                              colour=discord.Colour.blurple())
        await interaction.response.send_message(embed=embed)

    async def _challenge(
        self,
        interaction: Interaction,
        game: str,
        opponent: discord.Member,
        opponent2: discord.Member | None = None,
        opponent3: discord.Member | None = None,
        opponent4: discord.Member | None = None,
        level: str = DEFAULT_LEVEL,
        clock: str = DEFAULT_CLOCK,
        **options: object,
    ) -> None:
        """Post a challenge the opponents can accept or decline (or play the AI at once)."""
        opponents = [o for o in (opponent, opponent2, opponent3, opponent4) if o is not None]
        await self.challenges.open(interaction, game, opponents, engine_options(game, options),
                                   level=level, clock=clock)

    challenge = game_options_command(
        "challenge", "Challenge a member to a game", _challenge,
        game="Which game",
        opponent="Who you challenge",
        opponent2="A second opponent (games of more than two players)",
        opponent3="A third opponent",
        opponent4="A fourth opponent",
        level="When you challenge me (the bot): the AI's level (default Medium)",
        clock=CLOCK_HELP,
    )

    async def _lobby(self, interaction: Interaction, game: str, clock: str = DEFAULT_CLOCK,
                     **options: object) -> None:
        """Post a table with Join, Leave and Start; the host starts it when enough joined."""
        await self.challenges.open_lobby(interaction, game, engine_options(game, options),
                                         clock=clock)

    lobby = game_options_command("lobby", "Open a table anyone can join", _lobby,
                                 game="Which game", clock=CLOCK_HELP)
