"""`/help`, `/games`, `/rules`, `/challenge` and `/lobby`: finding a game and opponents."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai_players import DEFAULT_LEVEL
from bot.challenges import ChallengeService
from bot.cogs.choices import GAME_CHOICES
from bot.cogs.options import engine_options, game_options_command
from bot.components import ShareButton
from bot.guide import games_embed, help_embed, rules_embed, with_start_picture
from bot.painter import Painter
from bot.replies import Interaction
from i18n import N_

CLOCK_HELP = N_("Time per move; when it runs out the others may claim the win (default: this "
                "server's)")
WHICH_GAME = N_("Which game")


def share_view(what: str, game: str = "") -> discord.ui.View:
    """The Share button under a private answer of `/games` or `/rules`."""
    view = discord.ui.View(timeout=None)
    view.add_item(ShareButton(what, game))
    return view


class Lobby(commands.Cog):
    """Finding a game and an opponent."""

    def __init__(self, challenges: ChallengeService, painter: Painter) -> None:
        self.challenges = challenges
        self.painter = painter
        """Draws the starting position under a game's rules."""

    @app_commands.command(name="help", description=N_("What the bot does and its commands"))
    async def help(self, interaction: Interaction) -> None:
        """List the commands privately, by what a member wants to do, in their language."""
        tree = getattr(interaction.client, "tree", None)
        commands_now = tree.get_commands() if isinstance(tree, app_commands.CommandTree) else []
        # Each description as written (English): `help_embed` translates it.
        descriptions = {c.name: c.description for c in commands_now
                        if isinstance(c, app_commands.Command)}
        await interaction.response.send_message(embed=help_embed(descriptions), ephemeral=True)

    @app_commands.command(name="games", description=N_("The games you can play here"))
    async def games(self, interaction: Interaction) -> None:
        """List the games privately, with a Share button that posts the list in the channel."""
        await interaction.response.send_message(embed=games_embed(), view=share_view("games"),
                                                ephemeral=True)

    @app_commands.command(name="rules", description=N_("A summary of a game's rules"))
    @app_commands.describe(game=WHICH_GAME)
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: Interaction, game: str) -> None:
        """Show one game's rules and starting position privately, with a Share button that
        posts them in the channel."""
        embed = rules_embed(game)  # an unknown game is refused before anything is drawn
        # The picture comes from the painter, which may have boards in hand: answer at once.
        await interaction.response.defer(ephemeral=True, thinking=True)
        picture = await with_start_picture(embed, game, self.painter)
        await interaction.followup.send(embed=embed, file=picture, view=share_view("rules", game),
                                        ephemeral=True)

    async def _challenge(
        self,
        interaction: Interaction,
        game: str,
        opponent: discord.Member,
        opponent2: discord.Member | None = None,
        opponent3: discord.Member | None = None,
        opponent4: discord.Member | None = None,
        level: str = DEFAULT_LEVEL,
        clock: str | None = None,
        **options: object,
    ) -> None:
        """Post a challenge the opponents can accept or decline (or play the AI at once)."""
        opponents = [o for o in (opponent, opponent2, opponent3, opponent4) if o is not None]
        await self.challenges.open(interaction, game, opponents, engine_options(game, options),
                                   level=level, clock=clock)

    challenge = game_options_command(
        "challenge", N_("Challenge a member to a game"), _challenge,
        game=WHICH_GAME,
        opponent=N_("Who you challenge"),
        opponent2=N_("A second opponent (games of more than two players)"),
        opponent3=N_("A third opponent"),
        opponent4=N_("A fourth opponent"),
        level=N_("When you challenge me (the bot): the AI's level (default Medium)"),
        clock=CLOCK_HELP,
    )

    async def _lobby(self, interaction: Interaction, game: str, clock: str | None = None,
                     **options: object) -> None:
        """Post a table with Join, Leave and Start; the host starts it when enough joined."""
        await self.challenges.open_lobby(interaction, game, engine_options(game, options),
                                         clock=clock)

    lobby = game_options_command("lobby", N_("Open a table anyone can join"), _lobby,
                                 game=WHICH_GAME, clock=CLOCK_HELP)
