"""`/settings`: what each member chooses for themselves."""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.deadlines import DeadlineService
from bot.replies import Interaction

ON_OFF = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]


class PlayerSettings(commands.Cog):
    """A member's own settings."""

    def __init__(self, deadlines: DeadlineService) -> None:
        self.deadlines = deadlines

    @app_commands.command(name="settings", description="Your settings: turn reminders by DM")
    @app_commands.describe(dm_reminders="Get a DM when your time to move runs low (default on)")
    @app_commands.choices(dm_reminders=ON_OFF)
    async def settings(self, interaction: Interaction, dm_reminders: str | None = None) -> None:
        """Change a setting, or show them all."""
        user = interaction.user.id
        if dm_reminders is not None:
            await self.deadlines.set_dm_reminders(user, dm_reminders == "on")
        on = await self.deadlines.dm_reminders(user)
        state = ("on: when your time to move runs low, I DM you too" if on else
                 "off: reminders are only posted in the game's thread")
        changed = "Saved. " if dm_reminders is not None else ""
        await interaction.response.send_message(f"{changed}DM reminders are {state}.",
                                                ephemeral=True)
