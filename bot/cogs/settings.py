"""`/settings`: what each member chooses for themselves, and the server's language and clock
for new games; `/away`, when a member's correspondence games wait for them; `/privacy`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.absences import AWAY_MAX_DAYS, Absences
from bot.challenges import ChallengeService
from bot.clock import clock_spec
from bot.cogs.options import CLOCK_CHOICES
from bot.deadlines import DeadlineService
from bot.errors import Refusal
from bot.languages import Languages
from bot.privacy import FORGET, PrivacyService
from bot.publisher import permission_names
from bot.recaps import RecapService
from bot.replies import Interaction
from i18n import N_, Language, _, ngettext

ON_OFF = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
LANGUAGE_NAMES = {Language.EN: "English", Language.FR: "Français"}
"""Each language in its own words."""
LANGUAGES = [app_commands.Choice(name=name, value=language.value)
             for language, name in LANGUAGE_NAMES.items()]
BLOCKS_SHOWN = 40
"""Blocked members listed by name in an answer (the rest are counted): it fits Discord's
2,000 characters."""
SERVER_WRITES_IN = {
    Language.EN: N_("This server's boards and messages are in English."),
    Language.FR: N_("This server's boards and messages are in French."),
}


async def no_choice() -> None:
    """Nothing chosen (outside a server, where no server setting exists)."""
    return None


class PlayerSettings(commands.Cog):
    """A member's own settings, and the server's language and clock for those who manage it."""

    away = app_commands.Group(name="away", description=N_(
        "Away? `on days:` makes your Daily and Relaxed games wait for you; `off` once back"))

    def __init__(self, deadlines: DeadlineService, languages: Languages,
                 challenges: ChallengeService, privacy: PrivacyService,
                 absences: Absences, recaps: RecapService) -> None:
        self.deadlines = deadlines
        self.languages = languages
        self.challenges = challenges
        self.privacy = privacy
        self.absences = absences
        self.recaps = recaps

    @app_commands.command(name="block", description=N_(
        "Stop a member from challenging you, joining your tables or offering you rematches"))
    @app_commands.describe(member=N_("The member to block (they are not told)"))
    async def block(self, interaction: Interaction, member: discord.User) -> None:
        """Block a member (privately)."""
        await self.challenges.block(interaction.user.id, member)
        lines = [_("🚫 {member} can no longer challenge you, join your tables or offer you a "
                   "rematch. They are not told; `/unblock` lets them back.").format(
            member=member.mention)]
        lines.append(self._blocked_line(await self.challenges.blocked_by(interaction.user.id)))
        await interaction.response.send_message(
            "\n".join(lines), ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
        # After the answer: editing the tables they sit at may take longer than Discord waits.
        await self.challenges.unseat(interaction.user.id, member.id)

    @app_commands.command(name="unblock", description=N_(
        "Let a member you blocked challenge you again"))
    @app_commands.describe(member=N_("The member to unblock"))
    async def unblock(self, interaction: Interaction, member: discord.User) -> None:
        """Unblock a member (privately)."""
        await self.challenges.unblock(interaction.user.id, member)
        lines = [_("✅ {member} may challenge you again.").format(member=member.mention)]
        lines.append(self._blocked_line(await self.challenges.blocked_by(interaction.user.id)))
        await interaction.response.send_message(
            "\n".join(lines), ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    @staticmethod
    def _blocked_line(blocked: list[int]) -> str:
        """Whom the member blocks (`blocked`, the latest first), as mentions never pinged."""
        if not blocked:
            return _("You block nobody.")
        shown = " ".join(f"<@{member}>" for member in blocked[:BLOCKS_SHOWN])
        if len(blocked) > BLOCKS_SHOWN:
            shown += " " + _("and {n} more").format(n=len(blocked) - BLOCKS_SHOWN)
        return ngettext("You block {n} member: {members}.", "You block {n} members: "
                        "{members}.", len(blocked)).format(n=len(blocked), members=shown)

    @away.command(name="on", description=N_(
        "Be away: your time to move in Daily and Relaxed games starts when you are back"))
    @app_commands.describe(days=N_("How many days (1 to 14; 30 a year)"))
    async def away_on(self, interaction: Interaction,
                      days: app_commands.Range[int, 1, AWAY_MAX_DAYS]) -> None:
        """Go away for some days (privately)."""
        until, games, left = await self.absences.go_away(interaction.user.id, days)
        lines = [
            _("🏖️ You are away until {date} ({relative}).").format(
                date=discord.utils.format_dt(until, "f"),
                relative=discord.utils.format_dt(until, "R")),
            _("In your Daily and Relaxed games, your time to move starts only when you are "
              "back, and then runs whole. Nobody can challenge you meanwhile. Live games do "
              "not wait."),
            ngettext("{n} of your games in progress waits for you.",
                     "{n} of your games in progress wait for you.", games).format(n=games)
            if games else "",
            _("Back early? `/away off` starts your clocks again."),
            ngettext("You have {n} day away left in the last 12 months.",
                     "You have {n} days away left in the last 12 months.", left).format(n=left),
        ]
        await interaction.response.send_message("\n".join(line for line in lines if line),
                                                ephemeral=True)

    @away.command(name="off", description=N_("Back: your clocks run again"))
    async def away_off(self, interaction: Interaction) -> None:
        """Come back early (privately)."""
        if await self.absences.come_back(interaction.user.id):
            text = _("👋 Welcome back! Your clocks run again: in each game waiting for you, "
                     "your whole time to move starts now.")
        else:
            left = await self.absences.days_left(interaction.user.id)
            text = ngettext(
                "You are not away. `/away on` makes your Daily and Relaxed games wait for you "
                "(up to {most} days at a time; {n} day left in the last 12 months).",
                "You are not away. `/away on` makes your Daily and Relaxed games wait for you "
                "(up to {most} days at a time; {n} days left in the last 12 months).",
                left).format(most=AWAY_MAX_DAYS, n=left)
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="privacy", description=N_(
        "What the bot keeps about you; forget: delete it for good"))
    @app_commands.describe(forget=N_("Forget me for good: it cannot be undone"))
    @app_commands.choices(forget=[app_commands.Choice(name=N_("Forget me for good"),
                                                      value=FORGET)])
    async def privacy_command(self, interaction: Interaction,
                              forget: str | None = None) -> None:
        """Show what is kept about the member, or forget it (privately, anywhere)."""
        if forget == FORGET:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send(await self.privacy.forget(interaction.user.id),
                                            ephemeral=True)
            return
        await interaction.response.send_message(
            embed=await self.privacy.summary(interaction.user.id), ephemeral=True)

    @app_commands.command(name="settings", description=N_(
        "Your settings: DM reminders, challenges; the server's language, clock, table pings, "
        "recap"))
    @app_commands.describe(
        dm_reminders=N_("Get a DM when your time to move runs low (default on)"),
        challenges=N_("off: members cannot challenge you (tables and the AI stay open to you)"),
        language=N_("The language of boards and messages in this server (Manage Server)"),
        clock=N_("The clock of new games here when a challenge picks none (Manage Server)"),
        lobby_role=N_("A role to ping when someone opens a /lobby table (Manage Server)"),
        lobby_ping=N_("off: ping no role when a table opens (Manage Server)"),
        recap_channel=N_("Where to post the month's recap when each month ends (Manage Server)"),
        recap=N_("off: post no monthly recap (Manage Server)"))
    @app_commands.choices(dm_reminders=ON_OFF, challenges=ON_OFF, language=LANGUAGES,
                          clock=CLOCK_CHOICES, lobby_ping=ON_OFF, recap=ON_OFF)
    async def settings(self, interaction: Interaction, dm_reminders: str | None = None,
                       challenges: str | None = None,
                       language: str | None = None, clock: str | None = None,
                       lobby_role: discord.Role | None = None,
                       lobby_ping: str | None = None,
                       recap_channel: discord.TextChannel | None = None,
                       recap: str | None = None) -> None:
        """Change a setting, or show them all."""
        user = interaction.user.id
        if lobby_role is not None or lobby_ping is not None:
            await self._check_lobby_ping(interaction, lobby_role, lobby_ping)
        if recap_channel is not None or recap is not None:
            await self._check_recap(interaction, recap_channel, recap)
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
        if interaction.guild_id is not None and (lobby_role is not None or lobby_ping == "off"):
            await self.challenges.set_lobby_role(interaction.guild_id, lobby_role)
        if interaction.guild_id is not None and (recap_channel is not None or recap == "off"):
            await self.recaps.set_channel(interaction.guild_id,
                                          None if recap_channel is None else recap_channel.id)
        if dm_reminders is not None:
            await self.deadlines.set_dm_reminders(user, dm_reminders == "on")
        if challenges is not None:
            await self.challenges.set_takes_challenges(user, challenges == "on")
        on = await self.deadlines.dm_reminders(user)
        lines = []
        if any(choice is not None for choice in (dm_reminders, challenges, language, clock,
                                                 lobby_role, lobby_ping, recap_channel,
                                                 recap)):
            lines.append(_("Saved."))
        lines.append(_("DM reminders are on: when your time to move runs low, I DM you too.")
                     if on else
                     _("DM reminders are off: reminders are only posted in the game's thread."))
        lines.append(_("Challenges are on: members may challenge you.")
                     if await self.challenges.takes_challenges(user) else
                     _("Challenges are off: nobody can challenge you. Open or join a `/lobby` "
                       "table to play with people."))
        blocked = await self.challenges.blocked_by(user)
        if blocked:
            lines.append(self._blocked_line(blocked))
        until = await self.absences.refresh(user)
        if until is not None:
            lines.append(_("🏖️ You are away until {date}: your Daily and Relaxed games wait "
                           "for you (`/away off` when you are back).").format(
                date=discord.utils.format_dt(until, "f")))
        if interaction.guild_id is not None:
            server = await self.languages.of_server(interaction.guild_id)
            lines.append(_(SERVER_WRITES_IN[server]))
            server_clock = clock_spec(await self.challenges.server_clock(interaction.guild_id))
            lines.append(_("New games here get this clock unless their challenge picks "
                           "another: {clock}.").format(clock=server_clock.text))
            lines += await self._lobby_ping_lines(interaction)
            channel = await self.recaps.channel(interaction.guild_id)
            lines.append(_("Each month's recap goes to <#{channel}> when the month ends.").format(
                channel=channel) if channel is not None else
                _("No monthly recap is posted (`recap_channel:` chooses where)."))
        await interaction.response.send_message("\n".join(lines), ephemeral=True,
                                                allowed_mentions=discord.AllowedMentions.none())

    async def _check_lobby_ping(self, interaction: Interaction, role: discord.Role | None,
                                ping: str | None) -> None:
        """Refuse a role no one can be pinged by, or a contradictory or empty choice."""
        self._check_manager(interaction, _("Table pings are a server's setting: use them in a "
                                           "server."),
                            _("Only members who can manage this server choose who hears of "
                              "new tables."))
        guild = interaction.guild
        await self._check_choice(
            role, ping, both=_("Choose a role to ping, or `lobby_ping:off` to ping none: not "
                               "both."),
            missing=_("Choose the role to ping with `lobby_role:`."),
            current=lambda: self.challenges.lobby_role(guild) if guild is not None
            else no_choice())
        if role is not None and role.is_default():
            raise Refusal(_("Pinging @everyone for every table would tire the whole server: "
                            "choose a role that members who want to play take."))
        if role is not None and role.managed:
            raise Refusal(_("{role} belongs to a bot or an integration: members cannot take "
                            "it. Choose another role.").format(role=role.mention))

    async def _check_recap(self, interaction: Interaction,
                           channel: discord.TextChannel | None, recap: str | None) -> None:
        """Refuse a recap channel the bot may not post in, or a contradictory or empty
        choice."""
        self._check_manager(interaction, _("The monthly recap is a server's setting: use it "
                                           "in a server."),
                            _("Only members who can manage this server choose where its "
                              "monthly recap goes."))
        guild_id = interaction.guild_id
        await self._check_choice(
            channel, recap, both=_("Choose a channel for the recap, or `recap:off` for none: "
                                   "not both."),
            missing=_("Choose the recap's channel with `recap_channel:`."),
            current=lambda: self.recaps.channel(guild_id) if guild_id is not None
            else no_choice())
        if channel is not None:
            perms = channel.permissions_for(channel.guild.me)
            missing = tuple(name for name in ("view_channel", "send_messages", "embed_links")
                            if not getattr(perms, name))
            if missing:
                raise Refusal(_("I cannot post the recap in {channel}: I lack {permissions} "
                                "there.").format(channel=channel.mention,
                                                  permissions=permission_names(missing)))

    async def _lobby_ping_lines(self, interaction: Interaction) -> list[str]:
        """Which role new tables ping, and a warning when the bot may not ping it."""
        role = None if interaction.guild is None else \
            await self.challenges.lobby_role(interaction.guild)
        if role is None:
            return [_("New tables ping no role (`lobby_role:` chooses one).")]
        lines = [_("New tables ping {role}.").format(role=role.mention)]
        if not role.mentionable and not interaction.app_permissions.mention_everyone:
            lines.append(_("⚠️ I may not ping {role} yet: make it mentionable (Server Settings "
                           "→ Roles), or give me the permission to mention all roles.").format(
                role=role.mention))
        return lines

    @staticmethod
    async def _check_choice(chosen: object | None, switch: str | None, *, both: str,
                            missing: str,
                            current: Callable[[], Awaitable[object | None]]) -> None:
        """Refuse a server setting chosen together with its `off` switch, or `on` while
        nothing was ever chosen (`current` reads what is chosen now)."""
        if chosen is not None and switch == "off":
            raise Refusal(both)
        if chosen is None and switch == "on" and await current() is None:
            raise Refusal(missing)

    @staticmethod
    def _check_manager(interaction: Interaction, outside_a_server: str, not_allowed: str) -> None:
        """Refuse a server's setting outside a server, or to a member who cannot manage it."""
        if interaction.guild_id is None:
            raise Refusal(outside_a_server)
        if not interaction.permissions.manage_guild:
            raise Refusal(not_allowed)
