"""Joining and leaving servers: a welcome when the bot arrives; when it leaves (or is removed),
the server's games and waiting challenges end, since nothing there can be shown again."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.challenges import ChallengeService
from bot.guide import welcome_embed
from bot.languages import Languages
from bot.session_manager import SessionManager
from i18n import use_language

log = logging.getLogger(__name__)


def welcome_channel(guild: discord.Guild) -> discord.TextChannel | None:
    """Where to greet a server: its system channel (where Discord announces new members), else
    its first text channel, as long as the bot may post an embed there."""
    me = guild.me
    candidates = [guild.system_channel, *guild.text_channels]
    for channel in candidates:
        if channel is None:
            continue
        allowed = channel.permissions_for(me)
        if allowed.view_channel and allowed.send_messages and allowed.embed_links:
            return channel
    return None


class Servers(commands.Cog):
    """What happens when the bot joins or leaves a server."""

    def __init__(self, sessions: SessionManager, challenges: ChallengeService,
                 languages: Languages) -> None:
        self.sessions = sessions
        self.challenges = challenges
        self.languages = languages

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Say once how to start, in the server's language; nothing if it has no channel the
        bot may write in."""
        channel = welcome_channel(guild)
        if channel is None:
            log.info("joined server %s: no channel to greet it in", guild.id)
            return
        with use_language(await self.languages.of_server(guild.id)):
            embed = welcome_embed()
        try:
            await channel.send(embed=embed)
        except discord.HTTPException as error:
            log.info("joined server %s: could not greet it: %s", guild.id, error)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot left or was removed: abort the server's games (unrated) and cancel its
        waiting challenges, rather than leave them to clocks and an AI no one can see."""
        # The tournaments first: their games' ends must not open rounds in a server left.
        tournaments = await self.challenges.tournaments.server_left(guild.id)
        aborted = await self.sessions.server_left(guild.id)
        cancelled = await self.challenges.server_left(guild.id)
        log.info("left server %s: %d game(s) aborted, %d challenge(s) and %d tournament(s) "
                 "cancelled", guild.id, aborted, cancelled, tournaments)
