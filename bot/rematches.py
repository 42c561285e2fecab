"""Rematch: the same game, players, options and clock again, every seat moved one place."""

from __future__ import annotations

import discord

from bot.ai_players import is_ai
from bot.challenge_base import ChallengeBase, SeatInvitee, write_budget
from bot.challenge_posts import CHALLENGE_TIMEOUT
from bot.clock import utcnow
from bot.errors import NotAPlayer, Refusal
from bot.publisher import Post
from bot.replies import Interaction
from i18n import _, use_language
from storage import GameRecord, GameStatus


class RematchMixin(ChallengeBase):
    """Rematches of finished games."""

    async def rematch(self, interaction: Interaction, game_id: int) -> None:
        """Offer the same game, players, options and clock again, rated or casual as it was,
        every seat moved one place (two players swap), in the channel the game was challenged
        from.

        The other people accept it as a challenge; against the AI alone it starts at once.
        """
        record = await self.db.get_game(game_id)
        if record is None:
            raise Refusal(_("This game no longer exists."))
        if record.status is not GameStatus.FINISHED:
            raise Refusal(_("A rematch is offered once a game is over; this one was aborted. "
                            "Start a new one with `/challenge`."))
        user = interaction.user.id
        if record.seat_of(user) is None:
            raise NotAPlayer(_("Only the players of this game can ask for a rematch."))
        against_ai = all(is_ai(seat.user_id) for seat in record.seats if seat.user_id != user)
        # One rematch at a time per game: a second click waits for the first, then finds it
        # in the database (so a restart between the two clicks changes nothing).
        async with self._rematch_locks[game_id]:
            await self._refuse_a_second_rematch(game_id, against_ai)
            await self._rematch(interaction, record, against_ai)

    async def _refuse_a_second_rematch(self, game_id: int, against_ai: bool) -> None:
        """Refuse while this game's rematch waits for an answer, or against the AI, is still
        played; the refusal says where it is."""
        if against_ai:  # the rematch started at once: a game, not a challenge
            started = await self.db.running_rematch_of(game_id)
            if started is not None:
                raise Refusal(_("🔁 Rematch on in {where}.").format(
                    where=f"<#{started.channel_id}>"))
            return
        if await self.db.rematch_offered_for(game_id, utcnow()) is not None:
            raise Refusal(_("A rematch of this game is already offered: accept or "
                            "decline it there."))

    async def _rematch(self, interaction: Interaction, record: GameRecord,
                       against_ai: bool) -> None:
        """Start the rematch against the AI, or offer it to the others (the game's lock held)."""
        user = interaction.user.id
        guild = interaction.guild
        home = guild.get_channel_or_thread(record.parent_id or record.channel_id) \
            if guild is not None else None
        if not isinstance(home, discord.TextChannel | discord.Thread):
            raise Refusal(_("The channel this game was played from is gone: start a new "
                            "game with `/challenge`."))
        await self.check_can_host(home)
        seats = record.seats[1:] + record.seats[:1]
        order = [seat.user_id for seat in seats]
        names = {seat.user_id: seat.display_name for seat in seats}
        names[user] = interaction.user.display_name
        others = [uid for uid in order if uid != user]
        if await self.db.blocking(user, others):
            raise Refusal(_("You cannot offer this rematch."))
        if against_ai:
            await self.check_ai_games(user, home.guild.id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            new, where = await self._create_game(home, record.game,
                                                 [(uid, names[uid]) for uid in order],
                                                 record.options, record.clock, draw_seats=False,
                                                 casual=record.casual, rematch_of=record.id)
            await interaction.followup.send(
                _("🔁 Rematch on in {where}.").format(where=where.mention), ephemeral=True)
            await self.sessions.start(new)
            return
        people = [uid for uid in others if not is_ai(uid)]
        # Refused as any challenge to them would be (away, or too many waiting), but not for
        # `challenges:off`: a rematch follows a game they chose, and is one click to decline.
        invited = [SeatInvitee(uid, names[uid]) for uid in people]
        await self.check_may_challenge(user, invited)
        now = utcnow()
        await self.check_not_flooding(user, now, invited=invited)
        async with write_budget():
            challenge = await self.db.create_challenge(
                game=record.game, guild_id=record.guild_id, channel_id=home.id,
                challenger_id=user, opponent_ids=others, player_names=names,
                options=record.options, now=now, expires_at=now + CHALLENGE_TIMEOUT,
                clock=record.clock, seating=order,
                accepted_ids=[uid for uid in others if is_ai(uid)], casual=record.casual,
                rematch_of=record.id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        embed, view = await self._shown(challenge)
        with use_language(await self.server_language(challenge.guild_id)):
            content = _("🔁 Rematch! {players}").format(
                players=" ".join(f"<@{uid}>" for uid in people))
        async with self.cancelled_unless_posted(challenge):
            message_id = await self.publisher.post(home.id, Post(
                content=content, embed=embed, view=view,
                mentions=discord.AllowedMentions(users=True)))
        await self.db.set_challenge_message(challenge.id, message_id)
        self._schedule(challenge)
        await interaction.followup.send(
            _("🔁 Rematch offered in {where}: the others accept it there.").format(
                where=home.mention), ephemeral=True)
