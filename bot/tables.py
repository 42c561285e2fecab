"""Tables anyone may join (`/lobby`), and the tables that gather a tournament's players
(`/tournament`): Join, Leave, AI seats, Start."""

from __future__ import annotations

import logging
from datetime import timedelta

import discord
from discord.utils import escape_markdown

from bot.ai_players import ai_name, ai_user_id, is_ai
from bot.challenge_base import ChallengeBase, HostChannel, host_channel, write_budget
from bot.challenge_posts import (
    CHALLENGE_TIMEOUT,
    START_DELAYS,
    TOURNAMENT_TABLE_TIMEOUT,
    most_in_tournament,
)
from bot.clock import Clock, utcnow
from bot.errors import Refusal
from bot.publisher import (
    THREAD_PERMISSIONS,
    Post,
    PublishFailed,
    missing_permissions,
    permission_names,
)
from bot.replies import Interaction
from bot.round_robin import LEGS, MIN_PLAYERS
from engines import GAMES
from i18n import _, use_language
from storage import ChallengeRecord, ChallengeStatus

log = logging.getLogger(__name__)

AI_PLACEHOLDER_BASE = 100
"""Seat numbers of AI players at a table before the seats are drawn (beyond any real seat)."""


class TablesMixin(ChallengeBase):
    """Open tables: opened, joined and left, and started by their host."""

    async def open_lobby(
        self,
        interaction: Interaction,
        game_id: str,
        options: dict[str, object] | None = None,
        clock: str | None = None,
        casual: bool = False,
        tournament: bool = False,
        legs: int = 1,
        starts_in: timedelta | None = None,
    ) -> None:
        """Open a table anyone may join; the host starts it once enough players sat down (a
        `tournament` table starts a tournament of them: a round robin, each pair meeting
        `legs` times, or a Swiss tournament past 8 players; with `starts_in`, it also starts
        by itself then, if enough players joined)."""
        host = interaction.user
        channel = host_channel(interaction, "tables")
        self._playable_entry(game_id)
        resolved = self.resolve_options(game_id, options or {})
        if tournament:  # (its games have threads of their own: a busy channel is fine)
            self.check_can_hold_tournament(channel, game_id)
            if legs not in LEGS:
                raise Refusal(_("Each pair meets once or twice in a tournament, not {legs} "
                                "times.").format(legs=legs))
        if starts_in is not None and not (tournament and starts_in in START_DELAYS):
            raise Refusal(_("A tournament may start by itself in 1 to 24 hours."))
        await self.check_can_host(channel)
        time_control = await self.clock_for(channel.guild.id, clock)
        if tournament and time_control == Clock.NONE:
            raise Refusal(_("A tournament needs a clock, so that nobody absent holds up a round: "
                            "choose `clock:` Live, Daily or Relaxed."))
        now = utcnow()
        await self.check_not_flooding(host.id, now, game=game_id)
        async with write_budget():
            lobby = await self.db.create_challenge(
                game=game_id, guild_id=channel.guild.id, channel_id=channel.id,
                challenger_id=host.id, opponent_ids=[], player_names={host.id: host.display_name},
                options=resolved, now=now,
                expires_at=now + (starts_in or (TOURNAMENT_TABLE_TIMEOUT if tournament
                                                else CHALLENGE_TIMEOUT)),
                kind="tournament" if tournament else "lobby", clock=time_control, casual=casual,
                legs=legs, auto_start=starts_in is not None,
            )
        embed, view = await self._shown(lobby)
        role = await self.lobby_role(channel.guild)
        async with self.cancelled_unless_posted(lobby):
            if role is None:
                await interaction.response.send_message(embed=embed, view=view)
            else:  # the members who want to hear of new tables (pinged once: edits do not)
                with use_language(await self.server_language(channel.guild.id)):
                    call = (_("📣 {role}: a {game} tournament is open, join in!") if tournament
                            else _("📣 {role}: a table of {game} is open, join in!")).format(
                        role=role.mention, game=GAMES[game_id].name)
                await interaction.response.send_message(
                    call, embed=embed, view=view, allowed_mentions=discord.AllowedMentions(
                        everyone=False, users=False, roles=[role]))
            message = await interaction.original_response()
        await self.db.set_challenge_message(lobby.id, message.id)
        self._schedule(lobby)

    def check_can_hold_tournament(self, channel: HostChannel, game_id: str) -> None:
        """A tournament plays its games side by side, each in its own thread: refuse a
        thread, a channel without thread permissions, or a game not for two players."""
        game = GAMES[game_id]
        if game.min_players > 2:
            raise Refusal(_("{game} needs at least {players} players: its tournaments are not "
                            "played here yet.").format(game=game.name, players=game.min_players))
        if not isinstance(channel, discord.TextChannel):
            raise Refusal(_("Open a tournament in a text channel, not in a thread: each of its "
                            "games gets a thread of its own there."))
        perms = channel.permissions_for(channel.guild.me)
        # Its round calls and standings are posted in the channel itself.
        missing = missing_permissions(perms, ("send_messages", *THREAD_PERMISSIONS))
        if missing:
            raise Refusal(_("A tournament needs me to open threads here, one per game: I lack "
                            "{permissions} in {channel}.").format(
                                permissions=permission_names(missing), channel=channel.mention))


    async def answer_lobby(
        self, interaction: Interaction, lobby_id: int, action: str
    ) -> None:
        """Join, Leave or Start clicked on an open table."""
        async with self._locks[lobby_id]:
            lobby = await self._pending(lobby_id)
            user = interaction.user
            host = lobby.challenger_id
            game = GAMES[lobby.game]
            most, least = ((most_in_tournament(lobby), MIN_PLAYERS) if lobby.is_tournament
                           else (game.max_players, game.min_players))
            if action == "join":
                if user.id == host:
                    raise Refusal(_("You host this table: click Start once enough players "
                                    "have joined."))
                if user.id in lobby.opponent_ids:
                    raise Refusal(_("You are already at this table."))
                if len(lobby.player_ids) >= most:
                    raise Refusal(_("This table is full ({players} players).").format(
                        players=most))
                if await self.db.blocking(user.id, lobby.player_ids):
                    raise Refusal(_("You cannot join this table."))  # never who blocks
                lobby.opponent_ids.append(user.id)
                lobby.player_names[user.id] = user.display_name
            elif action.startswith("ai_") or action == "drop_ai":
                if lobby.is_tournament:
                    raise Refusal(_("A tournament is played by members: it has no AI "
                                    "players."))
                if user.id != host:
                    raise Refusal(_("Only {host}, who opened this table, can add or remove AI "
                                    "players.").format(host=escape_markdown(lobby.name_of(host))))
                self._seat_ai(lobby, action, game.max_players)
            elif action == "leave":
                if user.id == host:
                    await self._decline(interaction, lobby, user.id)
                    return
                if user.id not in lobby.opponent_ids:
                    raise Refusal(_("You are not at this table."))
                lobby.opponent_ids.remove(user.id)
            else:
                if user.id != host:
                    raise Refusal(_("Only {host}, who opened this table, can start it.").format(
                        host=escape_markdown(lobby.name_of(host))))
                if len(lobby.player_ids) < least:
                    if lobby.is_tournament:
                        raise Refusal(_("Waiting for players: a tournament needs at least "
                                        "{players}; {seated} joined.").format(
                                            players=least, seated=len(lobby.player_ids)))
                    raise Refusal(_("Waiting for players: {game} needs at least {players}; "
                                    "{seated} seated.").format(
                                        game=game.name, players=least,
                                        seated=len(lobby.player_ids)))
                if lobby.is_tournament:
                    await self.tournaments.start(lobby, interaction)
                    self._cancel_timer(lobby.id)
                else:
                    await self._accept(interaction, lobby)
                return
            await interaction.response.defer()  # answer before writing
            await self.db.update_challenge_players(
                lobby.id, opponent_ids=lobby.opponent_ids, player_names=lobby.player_names,
                accepted_ids=lobby.accepted_ids)
            embed, view = await self._shown(lobby)
            await interaction.edit_original_response(embed=embed, view=view)

    async def unseat(self, host_id: int, member_id: int) -> None:
        """Take `member_id` out of the open tables `host_id` hosts (the host blocked them),
        their messages updated (best effort: the table is right all the same)."""
        for table in await self.db.waiting_challenges_of(host_id, utcnow()):
            if not table.is_lobby or member_id not in table.opponent_ids:
                continue
            async with self._locks[table.id]:
                current = await self.db.get_challenge(table.id)
                if current is None or current.status is not ChallengeStatus.PENDING \
                        or member_id not in current.opponent_ids:
                    continue  # started or closed meanwhile
                current.opponent_ids.remove(member_id)
                await self.db.update_challenge_players(
                    current.id, opponent_ids=current.opponent_ids,
                    player_names=current.player_names, accepted_ids=current.accepted_ids)
                if current.message_id is None:
                    continue
                embed, view = await self._shown(current)
                try:
                    await self.publisher.edit(current.channel_id, current.message_id,
                                              Post(embed=embed, view=view))
                except PublishFailed:
                    log.info("table %s: could not show a blocked member leaving", current.id)

    @staticmethod
    def _seat_ai(lobby: ChallengeRecord, action: str, max_players: int) -> None:
        """Add an AI player of the level the button names, or remove the last one."""
        seated_ais = [uid for uid in lobby.opponent_ids if is_ai(uid)]
        if action == "drop_ai":
            if not seated_ais:
                raise Refusal(_("There is no AI player at this table."))
            lobby.opponent_ids.remove(seated_ais[-1])
            return
        level = action.removeprefix("ai_")
        if len(lobby.player_ids) >= max_players:
            raise Refusal(_("This table is full ({players} players).").format(
                players=max_players))
        # A placeholder id, unique at the table; the seat's own id is given at the start.
        placeholder = ai_user_id(level, AI_PLACEHOLDER_BASE + len(seated_ais))
        while placeholder in lobby.opponent_ids:
            placeholder -= 1
        lobby.opponent_ids.append(placeholder)
        lobby.player_names[placeholder] = ai_name(level)

