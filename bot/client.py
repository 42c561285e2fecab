"""The Ludothèque bot: storage, sessions, challenges, commands and persistent components."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.challenges import ChallengeService
from bot.cogs.lobby import Lobby
from bot.cogs.play import Play
from bot.cogs.records import Records
from bot.components import ChallengeButton, GameButton, GameSelect, tell
from bot.config import Settings
from bot.sessions import SessionManager
from storage import Database

log = logging.getLogger(__name__)

REQUIRED_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True,
    create_public_threads=True, embed_links=True, attach_files=True, read_message_history=True,
)
"""What the bot needs in a channel to run games there (the invite link asks for these)."""


class Ludotheque(commands.Bot):
    """The bot. Built by `create_bot()`; connects only when run."""

    db: Database
    sessions: SessionManager
    challenges: ChallengeService

    def __init__(self, settings: Settings) -> None:
        # No privileged intent: slash commands and components carry everything we need.
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None)
        self.settings = settings
        self.tree.on_error = self.on_app_command_error
        self._resumed = False

    async def setup_hook(self) -> None:
        """Open storage, register commands and restart-proof components, sync, resume."""
        self.db = await Database.open(self.settings.database_url)
        self.sessions = SessionManager(self, self.db)
        self.challenges = ChallengeService(self)
        self.add_dynamic_items(GameButton, GameSelect, ChallengeButton)
        await self.add_cog(Lobby(self))
        await self.add_cog(Play(self))
        await self.add_cog(Records(self))
        await self._sync_commands()
        await self.challenges.resume()

    async def _sync_commands(self) -> None:
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_ready(self) -> None:
        """Resume running games once (on_ready fires again after reconnects)."""
        if self._resumed:
            return
        self._resumed = True
        count = await self.sessions.resume_all()
        log.info("Ludothèque ready as %s; %d running game(s) resumed", self.user, count)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Unexpected failures: log them, and tell the user something went wrong."""
        log.error("command %s failed", interaction.command, exc_info=error)
        await tell(interaction, "Something went wrong on my side; nothing was changed. "
                                "Please try again.")

    async def close(self) -> None:
        """Stop timers and close the database before disconnecting."""
        if hasattr(self, "challenges"):
            self.challenges.cancel_timers()
        if hasattr(self, "db"):
            await self.db.close()
        await super().close()


def create_bot(settings: Settings | None = None) -> Ludotheque:
    """Build the bot from `settings` (default: the environment) without connecting."""
    return Ludotheque(settings or Settings.from_env())
