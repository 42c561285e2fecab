"""`/settings`: what each member chooses for themselves, and the server's language and clock
for new games."""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.challenges import ChallengeService
from bot.clock import clock_spec
from bot.cogs.options import CLOCK_CHOICES
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
    """A member's own settings, and the server's language and clock for those who manage it."""

    def __init__(self, deadlines: DeadlineService, languages: Languages,
                 challenges: ChallengeService) -> None:
        self.deadlines = deadlines
        self.languages = languages
        self.challenges = challenges

    @app_commands.command(name="settings", description=N_(
        "Your settings: turn reminders by DM; the server's language and clock"))
    @app_commands.describe(
        dm_reminders=N_("Get a DM when your time to move runs low (default on)"),
        language=N_("The language of boards and messages in this server (Manage Server)"),
        clock=N_("The clock of new games here when a challenge picks none (Manage Server)"))
    @app_commands.choices(dm_reminders=ON_OFF, language=LANGUAGES, clock=CLOCK_CHOICES)
    async def settings(self, interaction: Interaction, dm_reminders: str | None = None,
                       language: str | None = None, clock: str | None = None) -> None:
        """Change a setting, or show them all."""
        user = interaction.user.id
        if language is not None:
            self._check_manager(interaction, _("The language is a server's setting: use it in "
                                               "a server."),
                                _("Only members who can manage this server choose its "
                                  "language."))
        if clock is not None:
            self._check_manager(interaction, _("The clock of new games is a server's setting: "
                                               "use it in a server."),
                                _("Only members who can manage this server choose its clock."))
        if language is not None and interaction.guild_id is not None:
            await self.languages.set_server(interaction.guild_id, Language(language))
        if clock is not None and interaction.guild_id is not None:
            await self.challenges.set_server_clock(interaction.guild_id, clock)
        if dm_reminders is not None:
            await self.deadlines.set_dm_reminders(user, dm_reminders == "on")
        on = await self.deadlines.dm_reminders(user)
        lines = []
        if dm_reminders is not None or language is not None or clock is not None:
            lines.append(_("Saved."))
        lines.append(_("DM reminders are on: when your time to move runs low, I DM you too.")
                     if on else
                     _("DM reminders are off: reminders are only posted in the game's thread."))
        if interaction.guild_id is not None:
            server = await self.languages.of_server(interaction.guild_id)
            lines.append(_(SERVER_WRITES_IN[server]))
            server_clock = clock_spec(await self.challenges.server_clock(interaction.guild_id))
            lines.append(_("New games here get this clock unless their challenge picks "
                           "another: {clock}.").format(clock=server_clock.text))
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @staticmethod
    def _check_manager(interaction: Interaction, outside_a_server: str, not_allowed: str) -> None:
        """Refuse a server's setting outside a server, or to a member who cannot manage it."""
        if interaction.guild_id is None:
            raise Refusal(outside_a_server)
        if not interaction.permissions.manage_guild:
            raise Refusal(not_allowed)
