"""`/privacy`: what the bot keeps about a member, and forgetting it on their request."""

from __future__ import annotations

import logging

import discord

from bot.errors import Refusal
from bot.languages import Languages
from bot.publisher import Post, Publisher, PublishFailed
from bot.session_manager import SessionManager
from i18n import _, ngettext, use_language
from storage import CancelledChallenge, Database

log = logging.getLogger(__name__)

FORGET = "forget"
"""The `/privacy forget:` choice that forgets the member."""


class PrivacyService:
    """A member's data: shown to them, forgotten when they ask."""

    def __init__(self, db: Database, sessions: SessionManager, languages: Languages,
                 publisher: Publisher) -> None:
        self.db = db
        self.sessions = sessions
        self.languages = languages
        self.publisher = publisher

    async def summary(self, user_id: int) -> discord.Embed:
        """What is kept about the member, why, and how to be forgotten (privately)."""
        data = await self.db.member_data(user_id)
        lines = [
            _("Your Discord id and display name in each game you played, with your moves: "
              "{games}. They make your opponents' histories and replays.").format(
                games=ngettext("{n} game", "{n} games", data.games).format(n=data.games)),
            _("Your ratings and their history, in {games}.").format(
                games=ngettext("{n} rated game", "{n} rated games", data.rated_games).format(
                    n=data.rated_games)),
            _("Your settings (DM reminders, challenges, your Discord language for DMs): "
              "{kept}.").format(kept=_("kept") if data.settings else _("none")),
            _("Your waiting challenges and tables: {n}.").format(n=data.waiting_challenges),
            _("Your name and place in tournaments: {n}.").format(n=data.tournaments),
            _("Your times away (`/away`), kept a year to count the days: {n}.").format(
                n=data.absences),
            _("The members you block (`/block`): {n}.").format(n=data.blocks),
            "",
            _("**`/privacy forget:`** forgets you for good: in every game you played, your "
              "name becomes “Forgotten player” and your account is no longer linked; your "
              "ratings, their history, your settings, times away and blocks are deleted; "
              "your waiting challenges are cancelled. Your opponents' games stay whole. It "
              "cannot be undone."),
        ]
        if data.running:
            lines.append(ngettext(
                "⚠️ You have {n} game in progress: finish, resign or abort it first.",
                "⚠️ You have {n} games in progress: finish, resign or abort them first.",
                data.running).format(n=data.running))
        tournaments = await self.db.running_tournaments_of(user_id)
        if tournaments:  # its next rounds would pair them: forgetting waits for its end
            lines.append(ngettext(
                "⚠️ You play in {n} tournament still in progress: forgetting you waits for "
                "its end.",
                "⚠️ You play in {n} tournaments still in progress: forgetting you waits for "
                "their end.", tournaments).format(n=tournaments))
        return discord.Embed(title=_("🔒 What Ludothèque keeps about you"),
                             description="\n".join(lines), colour=discord.Colour.dark_grey())

    async def forget(self, user_id: int) -> str:
        """Forget the member (never while a game of theirs runs); what to tell them."""
        forgotten = await self.db.forget_member(user_id)  # refused while a game runs
        if forgotten is None:
            running = (await self.db.member_data(user_id)).running
            if not running and await self.db.running_tournaments_of(user_id):
                raise Refusal(_("You play in a tournament still in progress: its next rounds "
                                "would pair you. Ask again once it is over. Nothing was "
                                "forgotten yet."))
            running = running or 1
            raise Refusal(ngettext(
                "You have {n} game in progress: finish, resign or abort it first, then ask "
                "again. Nothing was forgotten yet.",
                "You have {n} games in progress: finish, resign or abort them first, then ask "
                "again. Nothing was forgotten yet.", running).format(n=running))
        self.sessions.let_go_games_of(user_id)
        self.languages.forget_member(user_id)
        self.sessions.absences.forget(user_id)
        for challenge in forgotten.cancelled:
            await self._close(challenge)
        log.info("a member asked to be forgotten: done")  # never their id: that is the point
        return _("🔒 Done: you are forgotten. Your games now show “Forgotten player”; your "
                 "ratings, their history and your settings are deleted. If you play again, "
                 "you start afresh.")

    async def _close(self, challenge: CancelledChallenge) -> None:
        """Say on a cancelled challenge's message that it was cancelled, without the names
        or buttons it showed (best effort: the challenge is cancelled all the same)."""
        if challenge.message_id is None:
            return
        with use_language(await self.languages.of_server(challenge.guild_id)):
            embed = discord.Embed(description=_("This challenge was cancelled."),
                                  colour=discord.Colour.dark_grey())
        try:
            await self.publisher.edit(challenge.channel_id, challenge.message_id,
                                      Post(embed=embed))
        except PublishFailed:
            log.info("could not close a challenge cancelled by forgetting a member")
