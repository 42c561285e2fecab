"""`/settings`: what each member chooses for themselves, and the server's language."""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.deadlines import DeadlineService
from bot.errors import Refusal
from bot.languages import Languages
from bot.replies import Interaction
from i18n import N_, Language, _

ON_OFF = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
LANGUAGE_NAMES = {Language.EN: "English", Language.FR: "Français"}
"""Each language in its own words."""
LANGUAGES = [app_commands.Choice(name=name, value=language.value)
             for language, name in LANGUAGE_NAMES.items()]
SERVER_WRITES_IN = {
    Language.EN: N_("This server's boards and messages are in English."),
    Language.FR: N_("This server's boards and messages are in French."),
}


class PlayerSettings(commands.Cog):
    """A member's own settings, and the server's language for those who manage it."""

    def __init__(self, deadlines: DeadlineService, languages: Languages) -> None:
        self.deadlines = deadlines
        self.languages = languages

    @app_commands.command(name="settings", description=N_(
        "Your settings: turn reminders by DM; the server's language"))
    @app_commands.describe(
        dm_reminders=N_("Get a DM when your time to move runs low (default on)"),
        language=N_("The language of boards and messages in this server (Manage Server)"))
    @app_commands.choices(dm_reminders=ON_OFF, language=LANGUAGES)
    async def settings(self, interaction: Interaction, dm_reminders: str | None = None,
                       language: str | None = None) -> None:
        """Change a setting, or show them all."""
        user = interaction.user.id
        if language is not None:
            await self._set_language(interaction, Language(language))
        if dm_reminders is not None:
            await self.deadlines.set_dm_reminders(user, dm_reminders == "on")
        on = await self.deadlines.dm_reminders(user)
        lines = []
        if dm_reminders is not None or language is not None:
            lines.append(_("Saved."))
        lines.append(_("DM reminders are on: when your time to move runs low, I DM you too.")
                     if on else
                     _("DM reminders are off: reminders are only posted in the game's thread."))
        if interaction.guild_id is not None:
            server = await self.languages.of_server(interaction.guild_id)
            lines.append(_(SERVER_WRITES_IN[server]))
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    async def _set_language(self, interaction: Interaction, language: Language) -> None:
        """Choose the server's language: for members who may manage the server."""
        permissions = interaction.permissions
        if interaction.guild_id is None:
            raise Refusal(_("The language is a server's setting: use it in a server."))
        if not permissions.manage_guild:
            raise Refusal(_("Only members who can manage this server choose its language."))
        await self.languages.set_server(interaction.guild_id, language)
