"""`/help`, `/games`, `/rules`, `/challenge` and `/lobby`: finding a game and opponents."""

from __future__ import annotations

from datetime import timedelta

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import escape_markdown

from bot.ai_players import DEFAULT_LEVEL
from bot.challenges import ChallengeService
from bot.cogs.choices import GAME_CHOICES
from bot.cogs.options import RATED_HELP, engine_options, game_options_command, is_casual
from bot.components import ChallengePickSelect, ShareButton
from bot.errors import Refusal
from bot.games import GAME_UIS
from bot.games.base import players_text
from bot.guide import games_embed, help_embed, rules_embed, with_start_picture
from bot.painter import Painter
from bot.replies import Interaction
from i18n import N_, _

CLOCK_HELP = N_("Time per move; when it runs out the others may claim the win (default: this "
                "server's)")
WHICH_GAME = N_("Which game")


def game_picker(opponent_id: int) -> discord.ui.View:
    """The private menu of games to challenge a member to (from the member menu)."""
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengePickSelect(
        opponent_id, placeholder=_("Choose a game…"),
        options=[discord.SelectOption(label=ui.name, value=game_id,
                                      description=players_text(ui.game))
                 for game_id, ui in GAME_UIS.items()]))
    return view


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
        self.challenge_menu = app_commands.ContextMenu(
            name=N_("Challenge to a game"), callback=self.challenge_member)
        """Right-click a member → Apps: the client adds it to the command tree."""
        self.challenge_menu.guild_only = True

    async def challenge_member(self, interaction: Interaction, member: discord.Member) -> None:
        """Privately ask which game to challenge `member` to (the bot itself: the AI)."""
        if member.id == interaction.user.id:
            raise Refusal(_("You cannot challenge yourself: pick another member."))
        me = interaction.client.user
        if member.bot and (me is None or member.id != me.id):
            raise Refusal(_("{name} is a bot and cannot play. Challenge a person.").format(
                name=escape_markdown(member.display_name)))
        await self.challenges.check_may_challenge(interaction.user.id, [member])
        await interaction.response.send_message(
            _("Which game do you challenge {name} to? The usual options and this server's "
              "clock apply; `/challenge` chooses others.").format(
                  name=escape_markdown(member.display_name)),
            view=game_picker(member.id), ephemeral=True)

    @app_commands.command(name="help", description=N_("What the bot does and its commands"))
    async def help(self, interaction: Interaction) -> None:
        """List the commands privately, by what a member wants to do, in their language."""
        tree = getattr(interaction.client, "tree", None)
        commands_now = tree.get_commands() if isinstance(tree, app_commands.CommandTree) else []
        # Each description as written (English): `help_embed` translates it.
        descriptions = {c.name: c.description for c in commands_now
                        if isinstance(c, app_commands.Command | app_commands.Group)}
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
        rated: str | None = None,
        **options: object,
    ) -> None:
        """Post a challenge the opponents can accept or decline (or play the AI at once)."""
        opponents = [o for o in (opponent, opponent2, opponent3, opponent4) if o is not None]
        await self.challenges.open(interaction, game, opponents, engine_options(game, options),
                                   level=level, clock=clock, casual=is_casual(rated))

    challenge = game_options_command(
        "challenge", N_("Challenge a member to a game"), _challenge,
        game=WHICH_GAME,
        opponent=N_("Who you challenge"),
        opponent2=N_("A second opponent (games of more than two players)"),
        opponent3=N_("A third opponent"),
        opponent4=N_("A fourth opponent"),
        level=N_("When you challenge me (the bot): the AI's level (default Medium)"),
        clock=CLOCK_HELP,
        rated=RATED_HELP,
    )

    async def _lobby(self, interaction: Interaction, game: str, clock: str | None = None,
                     rated: str | None = None, **options: object) -> None:
        """Post a table with Join, Leave and Start; the host starts it when enough joined."""
        await self.challenges.open_lobby(interaction, game, engine_options(game, options),
                                         clock=clock, casual=is_casual(rated))

    lobby = game_options_command("lobby", N_("Open a table anyone can join"), _lobby,
                                 game=WHICH_GAME, clock=CLOCK_HELP, rated=RATED_HELP)

    async def _tournament(self, interaction: Interaction, game: str, clock: str | None = None,
                          rated: str | None = None, legs: int | None = None,
                          starts_in: int | None = None, **options: object) -> None:
        """Post a tournament's table: members join, the host starts it (3 to 8 players play
        a round robin, 9 to 32 a Swiss tournament), or it starts by itself `starts_in` hours
        later."""
        await self.challenges.open_lobby(
            interaction, game, engine_options(game, options), clock=clock,
            casual=is_casual(rated), tournament=True, legs=legs or 1,
            starts_in=None if starts_in is None else timedelta(hours=starts_in))

    tournament = game_options_command(
        "tournament", N_("Open a tournament: everyone plays everyone, or a Swiss one past 8 "
                         "players"),
        _tournament, game=WHICH_GAME, clock=CLOCK_HELP, rated=RATED_HELP,
        legs=N_("How often each pair meets: once (the default), or twice, seats swapped (up to "
                "8 players)"),
        starts_in=N_("Start by itself then, with whoever joined (default: when the host clicks "
                     "Start)"))
