"""`/leaderboard`, `/stats`, `/serverstats`, `/history`, `/mygames`, `/live`, `/replay` and
`/about`: what the stored games tell."""

from __future__ import annotations

import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.board import alt_text
from bot.clock import utcnow
from bot.cogs.choices import GAME_CHOICES
from bot.guide import about_embed, bot_version, invite_url
from bot.in_progress import watchable_homes
from bot.languages import Languages
from bot.ratings import month_key
from bot.records import CHOICE_TEXT_LIMIT, RecordsService
from bot.replies import Interaction
from i18n import N_, Language, _, current_language, use_language

log = logging.getLogger(__name__)

SCOPE_CHOICES = [app_commands.Choice(name=N_("This server"), value="server"),
                 app_commands.Choice(name=N_("All servers"), value="global")]
PERIOD_CHOICES = [app_commands.Choice(name=N_("All time"), value="all"),
                  app_commands.Choice(name=N_("This month: who climbed most"), value="month"),
                  app_commands.Choice(name=N_("Last month: who climbed most"), value="last_month")]
MONTHS_BACK = {"month": 0, "last_month": 1}
"""How many months before the current one each monthly period shows."""


async def public_language(interaction: Interaction) -> Language:
    """The language of an answer everyone in the channel reads: the server's (the member's
    own when the bot keeps no languages, as in a bare test client)."""
    languages = getattr(interaction.client, "languages", None)
    if isinstance(languages, Languages):
        return await languages.of_server(interaction.guild_id)
    return current_language()


class Records(commands.Cog):
    """Ratings, leaderboards, history and replays."""

    def __init__(self, records: RecordsService) -> None:
        self.records = records

    @app_commands.command(name="leaderboard", description=N_("The best players of a game"))
    @app_commands.describe(game=N_("Which game"),
                           scope=N_("This server (default) or all servers"),
                           period=N_("All time (default), or who gained most rating in a month"))
    @app_commands.choices(game=GAME_CHOICES, scope=SCOPE_CHOICES, period=PERIOD_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: Interaction, game: str, scope: str = "server",
                          period: str = "all") -> None:
        """Show the top players with rating, games and wins, or a month's climbers, ten a page
        (in public: in the server's language)."""
        back = MONTHS_BACK.get(period)
        month = "" if back is None else month_key(utcnow(), back)
        with use_language(await public_language(interaction)):
            embed, view = await self.records.leaderboard(game, scope, interaction.guild_id, 0,
                                                         month)
        await interaction.response.send_message(embed=embed, view=view)

    @app_commands.command(name="stats", description=N_("A member's ratings and results"))
    @app_commands.describe(member=N_("Whose stats (default: yours)"),
                           versus=N_("Another member: results against each other"),
                           game=N_("One game only, with the rating's chart"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def stats(self, interaction: Interaction, member: discord.User | None = None,
                    versus: discord.User | None = None, game: str | None = None) -> None:
        """Rating, games, wins, draws and streaks per game on this server; with `game`, that
        game only, with the chart of the rating; with `versus`, the two members' results
        against each other (in `game` only, if given)."""
        whose = member or interaction.user
        quiet = discord.AllowedMentions.none()
        with use_language(await public_language(interaction)):
            if versus is not None:
                embed = await self.records.head_to_head(whose, versus, interaction.guild_id,
                                                        game)
            elif game is None:
                embed = await self.records.stats(whose, interaction.guild_id)
            else:
                # The chart is drawn by the painter, which may have boards in hand: answer
                # Discord at once, as /replay does, and post the stats when drawn.
                await interaction.response.defer()
                embed, chart = await self.records.game_stats(whose, interaction.guild_id, game)
                if chart is None:
                    await interaction.followup.send(embed=embed, allowed_mentions=quiet)
                else:
                    await interaction.followup.send(embed=embed, file=chart,
                                                    allowed_mentions=quiet)
                return
        await interaction.response.send_message(embed=embed, allowed_mentions=quiet)

    @app_commands.command(name="about", description=N_(
        "The bot: its games, what it has seen, and a link to add it to a server"))
    async def about(self, interaction: Interaction) -> None:
        """Privately: the games, the bot's totals, since when it runs, its version, and an
        **Add to a server** link."""
        embed = about_embed(await self.records.totals(), self.records.started, bot_version())
        view = discord.ui.View()
        if interaction.client.application_id is not None:
            view.add_item(discord.ui.Button(label=_("Add to a server"), emoji="➕",
                                            url=invite_url(interaction.client.application_id)))
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    @app_commands.command(name="serverstats",
                          description=N_("What this server plays: games, and who played most "
                                         "this month"))
    @app_commands.guild_only()
    async def serverstats(self, interaction: Interaction) -> None:
        """Each game's finished games (ever and this month) and games in progress, the games
        not played yet, and the month's most active members (in public: the server's
        language)."""
        guild = interaction.guild
        name = guild.name if guild is not None else "?"
        with use_language(await public_language(interaction)):
            embed = await self.records.server_stats(interaction.guild_id or 0, name)
        await interaction.response.send_message(embed=embed,
                                                allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="history", description=N_("A member's latest games"))
    @app_commands.describe(member=N_("Whose games (default: yours)"),
                           game=N_("One game only (default: all)"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def history(self, interaction: Interaction, member: discord.User | None = None,
                      game: str = "") -> None:
        """The last games with opponents, result, date and game id (for `/replay`), ten a
        page with Newer and Older; of one game only with `game`."""
        whose = member or interaction.user
        with use_language(await public_language(interaction)):
            embed, view = await self.records.history(whose.id, whose.display_name,
                                                     interaction.guild_id, 0, game)
        await interaction.response.send_message(embed=embed, view=view)

    @app_commands.command(name="mygames",
                          description=N_("Your games in progress, those waiting for you first"))
    @app_commands.guild_only()
    async def mygames(self, interaction: Interaction) -> None:
        """Privately: the member's games in progress here, with links to their boards."""
        embed = await self.records.running(interaction.user, interaction.guild_id)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="live",
                          description=N_("Games being played on this server now, to watch"))
    @app_commands.describe(game=N_("One game only (default: all)"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def live(self, interaction: Interaction, game: str = "") -> None:
        """Privately: the server's games in progress in the channels the member can see, the
        latest move first, with links to their boards."""
        guild, member = interaction.guild, interaction.user
        homes = (watchable_homes(guild, member)
                 if guild is not None and isinstance(member, discord.Member) else [])
        embed = await self.records.live(interaction.guild_id or 0, homes, game or None)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="replay", description=N_("Watch a game again, as an animation"))
    @app_commands.describe(game=N_("One of your games (type to search), or any game's id"))
    @app_commands.guild_only()
    async def replay(
        self, interaction: Interaction, game: app_commands.Range[str, 1, CHOICE_TEXT_LIMIT]
    ) -> None:
        """Post the game's decisions as an animated GIF, with a button to step through them."""
        record = await self.records.find_replay(game, interaction.user.id, interaction.guild_id)
        await interaction.response.defer(thinking=True)
        with use_language(await public_language(interaction)):
            replay = await self.records.replay(record)
        await interaction.followup.send(
            replay.caption, file=discord.File(io.BytesIO(replay.gif), filename=replay.filename,
                                              description=alt_text(replay.caption)),
            view=replay.view, allowed_mentions=discord.AllowedMentions.none())

    @replay.autocomplete("game")
    async def replay_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The member's latest games on this server matching what is typed, newest first."""
        try:
            found = await self.records.replay_choices(
                interaction.user.id, interaction.guild_id, current[:CHOICE_TEXT_LIMIT])
        except Exception:  # suggestions are a convenience: never an error for the member
            log.exception("autocomplete of /replay %r failed", current[:CHOICE_TEXT_LIMIT])
            return []
        return [app_commands.Choice(name=name, value=value) for name, value in found]
