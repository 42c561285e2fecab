"""Challenges: open one to named members (or the AI), and accept or decline it; who a member
blocks (`/block`); with tables (`bot.tables`), rematches (`bot.rematches`) and what they
share (`bot.challenge_base`), the one service that starts games between members."""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord.utils import escape_markdown

from bot.ai_players import DEFAULT_LEVEL, LEVEL_NAMES, ai_name, ai_user_id
from bot.challenge_base import host_channel, name_at, names_among, seats_title, write_budget
from bot.challenge_posts import CHALLENGE_TIMEOUT
from bot.clock import utcnow
from bot.errors import Refusal
from bot.rematches import RematchMixin
from bot.replay import and_join
from bot.replies import Interaction
from bot.tables import TablesMixin
from engines import GAMES
from i18n import _, ngettext, use_language

MOST_BLOCKS = 100
"""How many members one member may block (`/block`): plenty for safety, bounded storage."""


class ChallengeService(TablesMixin, RematchMixin):
    """Opens challenges, answers them and expires them (timers rebuilt after a restart)."""

    async def open(
        self,
        interaction: Interaction,
        game_id: str,
        opponents: discord.Member | Sequence[discord.Member],
        options: dict[str, object] | None = None,
        level: str = DEFAULT_LEVEL,
        clock: str | None = None,
        casual: bool = False,
    ) -> None:
        """Post a challenge with Accept and Decline, or refuse privately with the reason.

        Several opponents may be named for a game of more than two players; the game starts
        once every one of them has accepted, and any Decline cancels it. Naming the bot
        itself starts a game against the AI (at `level`) at once. A `casual` game counts
        for no rating.
        """
        challenger = interaction.user
        channel = host_channel(interaction, "challenges")
        entry = self._playable_entry(game_id)
        invited = [opponents] if isinstance(opponents, discord.Member) else list(opponents)
        me = interaction.client.user
        if me is not None and any(o.id == me.id for o in invited):
            if len(invited) > 1:
                raise Refusal(_("To play with people and the AI together, open a table with "
                                "`/lobby` and add AI players there."))
            await self.start_against_ai(interaction, game_id, level, options or {}, clock,
                                        casual=casual)
            return
        for opponent in invited:
            if opponent.id == challenger.id:
                raise Refusal(_("You cannot challenge yourself: pick another member."))
            if opponent.bot:
                raise Refusal(_("{name} is a bot and cannot play. Challenge a person.").format(
                    name=escape_markdown(opponent.display_name)))
        if len({o.id for o in invited}) != len(invited):
            raise Refusal(_("You named the same member twice: name each opponent once."))
        game = GAMES[game_id]
        players = len(invited) + 1
        if players > game.max_players:
            if game.max_players == 2:
                raise Refusal(_("{game} is a game for 2 players: challenge one opponent "
                                "only.").format(game=entry.name))
            raise Refusal(_("{game} takes at most {players} players: challenge up to "
                            "{opponents} opponents.").format(
                                game=entry.name, players=game.max_players,
                                opponents=game.max_players - 1))
        if players < game.min_players:
            raise Refusal(_("{game} needs at least {players} players: name {opponents} "
                            "opponents, or open a table with `/lobby`.").format(
                                game=entry.name, players=game.min_players,
                                opponents=game.min_players - 1))
        refusing = await self.db.refusing_challenges([o.id for o in invited])
        if refusing:
            raise Refusal(ngettext(
                "{names} takes no challenges (their `/settings`). Open a table with `/lobby` "
                "instead: anyone who wants to play can join it.",
                "{names} take no challenges (their `/settings`). Open a table with `/lobby` "
                "instead: anyone who wants to play can join it.", len(refusing)).format(
                    names=names_among(invited, refusing)))
        await self.check_may_challenge(challenger.id, invited)
        resolved = self.resolve_options(game_id, options or {})
        await self.check_can_host(channel)
        time_control = await self.clock_for(channel.guild.id, clock)

        now = utcnow()
        await self.check_not_flooding(challenger.id, now, invited=invited)
        names = {challenger.id: challenger.display_name}
        names.update({o.id: o.display_name for o in invited})
        async with write_budget():
            challenge = await self.db.create_challenge(
                game=game_id, guild_id=channel.guild.id, channel_id=channel.id,
                challenger_id=challenger.id, opponent_ids=[o.id for o in invited],
                player_names=names, options=resolved, now=now,
                expires_at=now + CHALLENGE_TIMEOUT, clock=time_control, casual=casual,
            )
        embed, view = await self._shown(challenge)
        async with self.cancelled_unless_posted(challenge):
            await interaction.response.send_message(
                content=" ".join(o.mention for o in invited), embed=embed, view=view,
                allowed_mentions=discord.AllowedMentions(users=True),
            )
            message = await interaction.original_response()
        await self.db.set_challenge_message(challenge.id, message.id)
        self._schedule(challenge)

    async def block(self, member_id: int, blocked: discord.abc.User) -> None:
        """`/block`: `blocked` may no longer challenge the member, join their tables or offer
        them a rematch (then `unseat` takes them out of the member's open tables). Raises a
        Refusal saying why nothing changed."""
        if blocked.id == member_id:
            raise Refusal(_("You cannot block yourself."))
        if blocked.bot:
            raise Refusal(_("{name} is a bot: it never challenges anyone.").format(
                name=escape_markdown(blocked.display_name)))
        if await self.db.block(member_id, blocked.id, utcnow(), most=MOST_BLOCKS):
            return
        if blocked.id in await self.db.blocked_by(member_id):
            raise Refusal(_("You already block {member}.").format(member=blocked.mention))
        raise Refusal(_("You already block {most} members: unblock one with `/unblock` "
                        "first.").format(most=MOST_BLOCKS))

    async def unblock(self, member_id: int, blocked: discord.abc.User) -> None:
        """`/unblock`: let a blocked member challenge the member again (a Refusal if they
        were not blocked)."""
        if not await self.db.unblock(member_id, blocked.id):
            raise Refusal(_("You do not block {member}.").format(member=blocked.mention))

    async def blocked_by(self, member_id: int) -> list[int]:
        """The members this one blocks, the latest first."""
        return await self.db.blocked_by(member_id)

    async def answer(
        self, interaction: Interaction, challenge_id: int, answer: str
    ) -> None:
        """Accept or Decline clicked."""
        async with self._locks[challenge_id]:  # a double click must not start two games
            challenge = await self._pending(challenge_id)
            user = interaction.user.id
            invited = challenge.opponent_ids
            waiting = [uid for uid in invited if uid not in challenge.accepted_ids]
            waiting_names = and_join([escape_markdown(name_at(challenge, uid)) for uid in waiting])
            if answer == "decline" and user in (*invited, challenge.challenger_id):
                await self._decline(interaction, challenge, user)
            elif user not in invited:
                if user == challenge.challenger_id:
                    raise Refusal(_("You cannot accept your own challenge: waiting for "
                                    "{names}. Click Decline to withdraw it.").format(
                                        names=waiting_names))
                everyone = and_join([escape_markdown(name_at(challenge, uid)) for uid in invited])
                raise Refusal(ngettext("Only {names} can answer this challenge.",
                                       "Only {names} can answer this challenge.",
                                       len(invited)).format(names=everyone))
            elif user in challenge.accepted_ids:
                raise Refusal(_("You already accepted: waiting for {names}.").format(
                    names=waiting_names))
            else:
                challenge.accepted_ids.append(user)
                if len(challenge.accepted_ids) < len(invited):
                    await interaction.response.defer()  # answer before writing
                    await self.db.update_challenge_players(
                        challenge.id, opponent_ids=invited, player_names=challenge.player_names,
                        accepted_ids=challenge.accepted_ids)
                    embed, view = await self._shown(challenge)
                    await interaction.edit_original_response(embed=embed, view=view)
                else:
                    await self._accept(interaction, challenge)


    async def channel_deleted(self, channel_id: int) -> int:
        """A channel or thread was deleted: cancel the challenges and tables waiting in it
        (their buttons are gone with it, and they would block their hosts, e.g. one waiting
        challenge to the same member, five open tables); how many."""
        cancelled = await self.db.cancel_challenges_in_channel(channel_id)
        for challenge_id in cancelled:
            self._cancel_timer(challenge_id)
        return len(cancelled)

    async def start_against_ai(
        self, interaction: Interaction, game_id: str, level: str, options: dict[str, object],
        clock: str | None = None, *, casual: bool = False,
    ) -> None:
        """A member against the AI: no one to wait for, the game starts at once."""
        channel = host_channel(interaction, "games")
        self._playable_entry(game_id)
        game = GAMES[game_id]
        if game.min_players > 2:
            raise Refusal(_("{game} needs at least {players} players: open a table with "
                            "`/lobby` and add AI players there.").format(
                                game=game.name, players=game.min_players))
        resolved = self.resolve_options(game_id, options)
        await self.check_can_host(channel)
        await self.check_ai_games(interaction.user.id, channel.guild.id)
        time_control = await self.clock_for(channel.guild.id, clock)
        await interaction.response.defer()
        players = [(interaction.user.id, interaction.user.display_name),
                   (ai_user_id(level, 0), ai_name(level))]
        record, home = await self._create_game(channel, game_id, players, resolved,
                                               time_control, casual=casual)
        with use_language(await self.server_language(channel.guild.id)):
            where = home.mention if home.id != channel.id else _("this channel")
            title = seats_title(record.game, record.seats)
            embed = discord.Embed(
                description=_("🤖 **{title}** is on in {where}: you play against the AI "
                              "({level}).").format(title=escape_markdown(title), where=where,
                                                   level=_(LEVEL_NAMES[level])),
                colour=discord.Colour.green())
        await interaction.edit_original_response(content=None, embed=embed)
        await self.sessions.start(record)

