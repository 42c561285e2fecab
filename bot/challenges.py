"""Challenges: open one, accept or decline it, and let it expire after ten minutes."""

from __future__ import annotations

import asyncio
import logging
import random
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, Final

import discord

from bot.ai_players import (
    DEFAULT_LEVEL,
    LEVEL_NAMES,
    ai_name,
    ai_user_id,
    is_ai,
    level_of,
)
from bot.board import game_title
from bot.challenge_posts import (
    CHALLENGE_TIMEOUT,
    TOURNAMENT_TABLE_TIMEOUT,
    challenge_buttons,
    challenge_embed,
    open_minutes,
)
from bot.clock import DEFAULT_CLOCK, Clock, utcnow
from bot.errors import NotAPlayer, Refusal
from bot.games.base import GameUI
from bot.languages import Languages
from bot.publisher import (
    THREAD_ARCHIVE_MINUTES,
    THREAD_PERMISSIONS,
    Post,
    Publisher,
    PublishFailed,
    permission_name,
    permission_names,
)
from bot.replay import and_join
from bot.replies import Interaction
from bot.round_robin import LEGS, MAX_PLAYERS, MIN_PLAYERS
from bot.session_manager import SessionManager
from bot.tournaments import TournamentService
from engines import GAMES
from i18n import N_, Language, _, ngettext, use_language
from storage import (
    ChallengeRecord,
    ChallengeStatus,
    Database,
    GameRecord,
    GameStatus,
    Seat,
    StorageBusy,
)

log = logging.getLogger(__name__)

POST_PERMISSIONS = ("send_messages", "embed_links", "attach_files")
IN_THREAD_PERMISSIONS = ("send_messages_in_threads", "embed_links", "attach_files")


MOST_WAITING: Final = 5
"""Challenges and tables one member may have waiting for an answer at once (each pings)."""

MOST_AI_GAMES: Final = 5
"""Games against the AI alone one member may play on a server at once (each is a thread)."""

AI_PLACEHOLDER_BASE = 100
"""Seat numbers of AI players at a table before the seats are drawn (beyond any real seat)."""

ANSWERED = {
    ChallengeStatus.ACCEPTED: N_("This challenge was already accepted."),
    ChallengeStatus.DECLINED: N_("This challenge was already declined."),
    ChallengeStatus.CANCELLED: N_("This challenge was already cancelled."),
    ChallengeStatus.EXPIRED: N_("This challenge has already expired."),
}
"""Why a challenge may no longer be answered."""

HostChannel = discord.TextChannel | discord.Thread
"""Where a game can run: a text channel (usually in a thread of its own) or a thread."""


HOSTED = {
    "challenges": (N_("Challenges are made in a server channel, not in direct messages."),
                   N_("Challenges are made in a text channel or a thread, not here.")),
    "tables": (N_("Tables are opened in a server channel, not in direct messages."),
               N_("Tables are opened in a text channel or a thread, not here.")),
    "games": (N_("Games are played in a server channel, not in direct messages."),
              N_("Games are played in a text channel or a thread, not here.")),
}
"""Why a challenge, a table or a game cannot be made here: in DMs, in another channel."""


def host_channel(interaction: Interaction, what: str) -> HostChannel:
    """The channel of a command that opens `what` (a key of `HOSTED`); a Refusal anywhere
    else."""
    channel = interaction.channel
    in_dms, elsewhere = HOSTED[what]
    if interaction.guild is None or channel is None:
        raise Refusal(_(in_dms))
    if not isinstance(channel, discord.TextChannel | discord.Thread):
        raise Refusal(_(elsewhere))
    return channel


PRE_ANSWER_WRITE_BUDGET = 2.5
"""Seconds a write may take before the interaction is answered (Discord allows 3 s)."""


@asynccontextmanager
async def write_budget() -> AsyncIterator[None]:
    """Bound a write that must happen before the answer (a challenge needs its id for its
    buttons): past the budget it is cancelled, rolled back, and refused as busy."""
    try:
        async with asyncio.timeout(PRE_ANSWER_WRITE_BUDGET):
            yield
    except TimeoutError as error:
        raise StorageBusy() from error


def clock_name(clock: str) -> str:
    """A known time control's name; a Refusal for anything else (a modified client)."""
    try:
        return Clock(clock).value
    except ValueError:
        known = ", ".join(c.value for c in Clock)
        raise Refusal(_("There is no clock {clock}: choose one of {known}.").format(
            clock=repr(clock[:20]), known=known)) from None


class ChallengeService:
    """Opens challenges, answers them and expires them (timers rebuilt after a restart)."""

    def __init__(self, db: Database, sessions: SessionManager, uis: Mapping[str, GameUI[Any]],
                 publisher: Publisher, languages: Languages | None = None,
                 tournaments: TournamentService | None = None) -> None:
        self.db = db
        self.sessions = sessions
        self.uis = uis
        self.publisher = publisher
        self.languages = languages or sessions.languages
        """Challenges and tables are public: written in their server's language."""
        self.tournaments = tournaments or TournamentService(db, sessions, publisher,
                                                            self.languages)
        """Starts a tournament's table once its host clicks Start."""
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._rematches: dict[int, int] = {}
        """Finished game → the rematch challenge offered for it (one at a time)."""

    # -- the server's clock --------------------------------------------------------------

    async def server_clock(self, guild_id: int) -> Clock:
        """The clock a server gives new games (`/settings clock:`), else `DEFAULT_CLOCK`."""
        stored = await self.db.server_clock(guild_id)
        try:
            return Clock(stored) if stored else DEFAULT_CLOCK
        except ValueError:  # a clock a later version stored, and this one lacks
            return DEFAULT_CLOCK

    async def set_server_clock(self, guild_id: int, clock: str) -> None:
        """Choose the clock a server gives new games."""
        await self.db.set_server_clock(guild_id, clock_name(clock))

    async def lobby_role(self, guild: discord.Guild) -> discord.Role | None:
        """The role new tables ping (`/settings lobby_role:`), while it still exists."""
        role_id = await self.db.server_lobby_role(guild.id)
        return None if role_id is None else guild.get_role(role_id)

    async def takes_challenges(self, member_id: int) -> bool:
        """Whether members may challenge this one (yes unless they said no)."""
        return not await self.db.refusing_challenges([member_id])

    async def set_takes_challenges(self, member_id: int, wanted: bool) -> None:
        """`/settings challenges:`: let members challenge this one, or not."""
        await self.db.set_takes_challenges(member_id, wanted)

    async def set_lobby_role(self, guild_id: int, role: discord.Role | None) -> None:
        """Choose the role new tables ping (None: ping nobody)."""
        await self.db.set_server_lobby_role(guild_id, None if role is None else role.id)

    async def clock_for(self, guild_id: int, chosen: str | None) -> str:
        """A new challenge's clock: the one chosen (a Refusal for an unknown one), else its
        server's."""
        return clock_name(chosen) if chosen is not None else await self.server_clock(guild_id)

    # -- opening -----------------------------------------------------------------------

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
                    name=opponent.display_name))
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
                    names=and_join([o.display_name for o in invited if o.id in refusing])))
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
        await interaction.response.send_message(
            content=" ".join(o.mention for o in invited), embed=embed, view=view,
            allowed_mentions=discord.AllowedMentions(users=True),
        )
        message = await interaction.original_response()
        await self.db.set_challenge_message(challenge.id, message.id)
        self._schedule(challenge)

    async def check_not_flooding(self, member_id: int, now: datetime, *,
                                 invited: Sequence[discord.abc.User] = (),
                                 game: str | None = None) -> None:
        """Refuse a challenge to someone the member challenged already, a second table of the
        same game, or more than `MOST_WAITING` challenges and tables at once: each one pings
        its members, so waiting ones must be answered (or expire) first."""
        waiting = await self.db.waiting_challenges_of(member_id, now)
        for challenge in waiting:
            named = [o for o in invited if o.id in challenge.opponent_ids]
            if named and not challenge.is_lobby:
                raise Refusal(_("You already challenged {name}: wait for their answer (your "
                                "challenge expires {relative}), or withdraw it with its "
                                "Decline button.").format(
                                    name=named[0].display_name,
                                    relative=discord.utils.format_dt(challenge.expires_at, "R")))
            if game is not None and challenge.is_lobby and challenge.game == game:
                raise Refusal(_("Your table of {game} is still open in <#{channel}>: start it "
                                "there, wait for players, or close it with Leave.").format(
                                    game=GAMES[game].name, channel=challenge.channel_id))
        if len(waiting) >= MOST_WAITING:
            raise Refusal(_("You have {count} challenges and tables waiting already: wait "
                            "until one is answered or expires (the first {relative}), or "
                            "withdraw one.").format(
                                count=len(waiting),
                                relative=discord.utils.format_dt(waiting[0].expires_at, "R")))

    async def check_ai_games(self, member_id: int, guild_id: int) -> None:
        """Refuse a game against the AI to a member who plays `MOST_AI_GAMES` already here:
        each opens a thread, and the AI would answer a flood of them at once."""
        playing = await self.db.ai_games_of(member_id, guild_id)
        if playing >= MOST_AI_GAMES:
            raise Refusal(_("You play {count} games against the AI here already: finish or "
                            "resign one first (`/mygames` lists them).").format(count=playing))

    async def open_lobby(
        self,
        interaction: Interaction,
        game_id: str,
        options: dict[str, object] | None = None,
        clock: str | None = None,
        casual: bool = False,
        tournament: bool = False,
        legs: int = 1,
    ) -> None:
        """Open a table anyone may join; the host starts it once enough players sat down (a
        `tournament` table starts a round-robin tournament of them, each pair meeting `legs`
        times)."""
        host = interaction.user
        channel = host_channel(interaction, "tables")
        self._playable_entry(game_id)
        resolved = self.resolve_options(game_id, options or {})
        if tournament:  # (its games have threads of their own: a busy channel is fine)
            self.check_can_hold_tournament(channel, game_id)
            if legs not in LEGS:
                raise Refusal(_("Each pair meets once or twice in a tournament, not {legs} "
                                "times.").format(legs=legs))
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
                expires_at=now + (TOURNAMENT_TABLE_TIMEOUT if tournament else CHALLENGE_TIMEOUT),
                kind="tournament" if tournament else "lobby", clock=time_control, casual=casual,
                legs=legs,
            )
        embed, view = await self._shown(lobby)
        role = await self.lobby_role(channel.guild)
        if role is None:
            await interaction.response.send_message(embed=embed, view=view)
        else:  # the members who want to hear of new tables (pinged once: edits do not ping)
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
        missing = tuple(name for name in THREAD_PERMISSIONS if not getattr(perms, name))
        if missing:
            raise Refusal(_("A tournament needs me to open threads here, one per game: I lack "
                            "{permissions} in {channel}.").format(
                                permissions=permission_names(missing), channel=channel.mention))

    def _playable_entry(self, game_id: str) -> GameUI[Any]:
        """The game's controls; refuse an unknown or not yet playable game."""
        ui = self.uis.get(game_id)
        if ui is None:
            if game_id in GAMES:
                ready = ", ".join(ui.name for ui in self.uis.values())
                raise Refusal(_("{game} is coming soon. You can play {ready} today.").format(
                    game=GAMES[game_id].name, ready=ready))
            raise Refusal(_("There is no game called {game}. See `/games`.").format(
                game=repr(game_id)))
        return ui

    @staticmethod
    def resolve_options(game_id: str, options: dict[str, object]) -> dict[str, object]:
        """The game's options with the chosen ones; refuse options of another game."""
        game = GAMES[game_id]
        for name in options:
            if name not in game.option_specs:
                owner = next((GAMES[g].name for g in GAMES if name in GAMES[g].option_specs), "")
                spec = next((GAMES[g].option_specs[name] for g in GAMES
                             if name in GAMES[g].option_specs), None)
                label = _(spec.label) if spec is not None else name
                raise Refusal(_("“{option}” is an option of {owner}, not of {game}.").format(
                    option=label, owner=owner, game=game.name))
        try:
            return game.resolve_options(options)
        except ValueError as error:
            raise Refusal(_("That option cannot be used: {reason}.").format(
                reason=error)) from error

    async def check_can_host(self, channel: HostChannel) -> None:
        """Refuse when a game could not start here: permissions, or a game already running."""
        me = channel.guild.me
        perms = channel.permissions_for(me)
        if self.starts_in_thread(channel):
            return
        needed = IN_THREAD_PERMISSIONS if isinstance(channel, discord.Thread) else POST_PERMISSIONS
        missing = [name for name in needed if not getattr(perms, name)]
        if missing:
            raise Refusal(ngettext(
                "I cannot run a game in {channel}: I need the {permissions} permission there. "
                "Ask a moderator to grant it ({threads} too, so each game gets its own "
                "thread), or challenge in another channel.",
                "I cannot run a game in {channel}: I need the {permissions} permissions "
                "there. Ask a moderator to grant them ({threads} too, so each game gets its "
                "own thread), or challenge in another channel.", len(missing)).format(
                    channel=channel.mention, permissions=permission_names(tuple(missing)),
                    threads=permission_name("create_public_threads")))
        running = await self.db.running_game_in(channel.id)
        if running is not None:
            raise Refusal(_(
                "A game is already running in {channel} ({title}). Only one game runs per "
                "channel or thread: finish it first, or challenge in another channel.").format(
                    channel=channel.mention,
                    title=game_title(running.game, [s.display_name for s in running.seats])))

    @staticmethod
    def starts_in_thread(channel: object) -> bool:
        """True when a game challenged here gets a new public thread of its own."""
        if not isinstance(channel, discord.TextChannel):
            return False
        perms = channel.permissions_for(channel.guild.me)
        return all(getattr(perms, name) for name in THREAD_PERMISSIONS)

    async def server_language(self, guild_id: int | None) -> Language:
        """The language of a server's public messages (challenges, tables, notices)."""
        return await self.languages.of_server(guild_id)

    async def _shown(self, challenge: ChallengeRecord) -> tuple[discord.Embed, discord.ui.View]:
        """The challenge's or table's public message, in its server's language."""
        with use_language(await self.server_language(challenge.guild_id)):
            return (challenge_embed(challenge, self.uis[challenge.game]),
                    challenge_buttons(challenge))

    async def _notice(self, challenge: ChallengeRecord, text: str, colour: discord.Colour,
                      **params: object) -> discord.Embed:
        """A public notice about a challenge (`text` marked with N_), in its server's
        language."""
        with use_language(await self.server_language(challenge.guild_id)):
            return discord.Embed(description=_(text).format(**params), colour=colour)

    # -- answering ---------------------------------------------------------------------

    async def _pending(self, challenge_id: int) -> ChallengeRecord:
        """The challenge if it may still be answered; otherwise a Refusal saying why."""
        challenge = await self.db.get_challenge(challenge_id)
        if challenge is None:
            raise Refusal(_("This challenge no longer exists."))
        if challenge.is_tournament and challenge.status is ChallengeStatus.ACCEPTED:
            raise Refusal(_("This tournament has already started."))
        if challenge.status is not ChallengeStatus.PENDING:
            raise Refusal(_(ANSWERED.get(challenge.status, ANSWERED[ChallengeStatus.EXPIRED])))
        if utcnow() >= challenge.expires_at:
            await self.expire(challenge.id)
            raise Refusal(_("This challenge has expired. Send a new one with `/challenge`."))
        return challenge

    async def answer(
        self, interaction: Interaction, challenge_id: int, answer: str
    ) -> None:
        """Accept or Decline clicked."""
        async with self._locks[challenge_id]:  # a double click must not start two games
            challenge = await self._pending(challenge_id)
            user = interaction.user.id
            invited = challenge.opponent_ids
            waiting = [uid for uid in invited if uid not in challenge.accepted_ids]
            waiting_names = and_join([challenge.name_of(uid) for uid in waiting])
            if answer == "decline" and user in (*invited, challenge.challenger_id):
                await self._decline(interaction, challenge, user)
            elif user not in invited:
                if user == challenge.challenger_id:
                    raise Refusal(_("You cannot accept your own challenge: waiting for "
                                    "{names}. Click Decline to withdraw it.").format(
                                        names=waiting_names))
                everyone = and_join([challenge.name_of(uid) for uid in invited])
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

    async def answer_lobby(
        self, interaction: Interaction, lobby_id: int, action: str
    ) -> None:
        """Join, Leave or Start clicked on an open table."""
        async with self._locks[lobby_id]:
            lobby = await self._pending(lobby_id)
            user = interaction.user
            host = lobby.challenger_id
            game = GAMES[lobby.game]
            most, least = ((MAX_PLAYERS, MIN_PLAYERS) if lobby.is_tournament
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
                lobby.opponent_ids.append(user.id)
                lobby.player_names[user.id] = user.display_name
            elif action.startswith("ai_") or action == "drop_ai":
                if lobby.is_tournament:
                    raise Refusal(_("A tournament is played by members: it has no AI "
                                    "players."))
                if user.id != host:
                    raise Refusal(_("Only {host}, who opened this table, can add or remove AI "
                                    "players.").format(host=lobby.name_of(host)))
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
                        host=lobby.name_of(host)))
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
                    await self.tournaments.start(interaction, lobby)
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

    async def _decline(
        self, interaction: Interaction, challenge: ChallengeRecord, user: int
    ) -> None:
        withdrawn = user == challenge.challenger_id
        status = ChallengeStatus.CANCELLED if withdrawn else ChallengeStatus.DECLINED
        await interaction.response.defer()  # answer before writing
        await self.db.close_challenge(challenge.id, status)
        self._cancel_timer(challenge.id)
        if challenge.is_tournament:
            text = N_("{name} closed the {game} tournament before it started.")
        elif challenge.is_lobby:
            text = N_("{name} closed the {game} table.")
        elif withdrawn:
            text = N_("{name} withdrew the {game} challenge.")
        else:
            text = N_("{name} declined the {game} challenge.")
        embed = await self._notice(challenge, text, discord.Colour.dark_grey(),
                                   name=challenge.name_of(user), game=GAMES[challenge.game].name)
        await interaction.edit_original_response(content=None, embed=embed, view=None)

    async def _accept(self, interaction: Interaction, challenge: ChallengeRecord) -> None:
        """Everyone is in: draw the seats, open the game's thread and start it."""
        channel = host_channel(interaction, "games")
        await self.check_can_host(channel)  # permissions may have changed in ten minutes
        await interaction.response.defer()
        order = challenge.seating or challenge.player_ids
        players = [(uid, challenge.name_of(uid)) for uid in order]
        record, home = await self._create_game(channel, challenge.game, players,
                                               challenge.options, challenge.clock,
                                               draw_seats=challenge.seating is None,
                                               casual=challenge.casual)
        title = game_title(record.game, [seat.display_name for seat in record.seats])
        await self.db.close_challenge(challenge.id, ChallengeStatus.ACCEPTED, record.id)
        self._cancel_timer(challenge.id)
        if challenge.is_lobby:
            who, name = N_("{name} started the table!"), challenge.challenger_id
        elif len(challenge.opponent_ids) == 1:
            who, name = N_("{name} accepted!"), challenge.opponent_ids[0]
        else:
            who, name = N_("Everyone accepted!"), challenge.challenger_id
        with use_language(await self.server_language(challenge.guild_id)):
            where = home.mention if home.id != channel.id else _("this channel")
            started = _("**{title}** is on in {where}.").format(title=title, where=where)
            embed = discord.Embed(
                description=f"✅ {_(who).format(name=challenge.name_of(name))} {started}",
                colour=discord.Colour.green())
        await interaction.edit_original_response(content=None, view=None, embed=embed)
        await self.sessions.start(record)

    async def _create_game(
        self, channel: HostChannel, game_id: str, players: list[tuple[int, str]],
        options: dict[str, object], clock: str, *, draw_seats: bool = True,
        casual: bool = False,
    ) -> tuple[GameRecord, HostChannel]:
        """Draw the seats, open the game's thread (or use the channel) and store the game.

        AI players get their seat's own id here (`ai_user_id`), once the seats are drawn.
        """
        if draw_seats:
            random.SystemRandom().shuffle(players)  # seats are drawn at random
        seats = [Seat(index, ai_user_id(level_of(uid), index) if is_ai(uid) else uid, name)
                 for index, (uid, name) in enumerate(players)]
        title = game_title(game_id, [seat.display_name for seat in seats])
        home = await self._home(channel, title)
        state = GAMES[game_id].new_state(len(seats), options)
        record = await self.db.create_game(
            game=game_id, guild_id=channel.guild.id, channel_id=home.id,
            parent_id=channel.id if home.id != channel.id else None, seats=seats,
            options=options, rng_seed=random.SystemRandom().getrandbits(63),
            state=state.dump(), now=utcnow(), clock=clock, to_move=state.current_player,
            casual=casual,
        )
        return record, home

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
        title = game_title(record.game, [seat.display_name for seat in record.seats])
        with use_language(await self.server_language(channel.guild.id)):
            where = home.mention if home.id != channel.id else _("this channel")
            embed = discord.Embed(
                description=_("🤖 **{title}** is on in {where}: you play against the AI "
                              "({level}).").format(title=title, where=where,
                                                   level=_(LEVEL_NAMES[level])),
                colour=discord.Colour.green())
        await interaction.edit_original_response(content=None, embed=embed)
        await self.sessions.start(record)

    # -- rematch -----------------------------------------------------------------------

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
        offered = self._rematches.get(game_id)
        if offered is not None:
            pending = await self.db.get_challenge(offered)
            if pending is not None and pending.status is ChallengeStatus.PENDING:
                raise Refusal(_("A rematch of this game is already offered: accept or "
                                "decline it there."))
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
        if all(is_ai(uid) for uid in others):
            await self.check_ai_games(user, home.guild.id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            new, where = await self._create_game(home, record.game,
                                                 [(uid, names[uid]) for uid in order],
                                                 record.options, record.clock, draw_seats=False,
                                                 casual=record.casual)
            await interaction.followup.send(
                _("🔁 Rematch on in {where}.").format(where=where.mention), ephemeral=True)
            await self.sessions.start(new)
            return
        now = utcnow()
        async with write_budget():
            challenge = await self.db.create_challenge(
                game=record.game, guild_id=record.guild_id, channel_id=home.id,
                challenger_id=user, opponent_ids=others, player_names=names,
                options=record.options, now=now, expires_at=now + CHALLENGE_TIMEOUT,
                clock=record.clock, seating=order,
                accepted_ids=[uid for uid in others if is_ai(uid)], casual=record.casual)
        await interaction.response.defer(ephemeral=True, thinking=True)
        people = [uid for uid in others if not is_ai(uid)]
        embed, view = await self._shown(challenge)
        with use_language(await self.server_language(challenge.guild_id)):
            content = _("🔁 Rematch! {players}").format(
                players=" ".join(f"<@{uid}>" for uid in people))
        message_id = await self.publisher.post(home.id, Post(
            content=content, embed=embed, view=view,
            mentions=discord.AllowedMentions(users=True)))
        await self.db.set_challenge_message(challenge.id, message_id)
        self._rematches[game_id] = challenge.id
        self._schedule(challenge)
        await interaction.followup.send(
            _("🔁 Rematch offered in {where}: the others accept it there.").format(
                where=home.mention), ephemeral=True)

    async def _home(self, channel: HostChannel, title: str) -> HostChannel:
        """A new public thread for the game, or the channel itself when none can be made."""
        if isinstance(channel, discord.TextChannel) and self.starts_in_thread(channel):
            try:
                return await channel.create_thread(
                    name=title, type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES)
            except discord.HTTPException as error:
                log.warning("could not create a thread in %s: %s", channel, error)
                await self.check_can_host_without_thread(channel)
        return channel

    async def check_can_host_without_thread(self, channel: HostChannel) -> None:
        """After a failed thread: the channel itself must be free."""
        running = await self.db.running_game_in(channel.id)
        if running is not None:
            raise Refusal(_("I could not open a thread for this game, and a game already runs "
                            "in this channel. Try again in another channel."))

    # -- expiry ------------------------------------------------------------------------

    async def resume(self, owns: Callable[[int | None], bool] = lambda guild_id: True) -> None:
        """Rebuild the expiry timers of pending challenges (after a start); only those of
        servers `owns` (another process runs the other shards). Expiring is a guarded write,
        so a challenge two processes both watch still expires once."""
        for challenge in await self.db.pending_challenges():
            if owns(challenge.guild_id):
                self._schedule(challenge)

    def _schedule(self, challenge: ChallengeRecord) -> None:
        delay = (challenge.expires_at - utcnow()).total_seconds()
        self._cancel_timer(challenge.id)
        self._timers[challenge.id] = asyncio.create_task(self._expire_after(challenge.id, delay))

    async def _expire_after(self, challenge_id: int, delay: float) -> None:
        await asyncio.sleep(max(delay, 0))
        self._timers.pop(challenge_id, None)
        await self.expire(challenge_id)

    def _cancel_timer(self, challenge_id: int) -> None:
        timer = self._timers.pop(challenge_id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    def cancel_timers(self) -> None:
        """Stop every expiry timer (the bot is closing; they are rebuilt at the next start)."""
        for challenge_id in list(self._timers):
            self._cancel_timer(challenge_id)

    async def server_left(self, guild_id: int) -> int:
        """The bot left a server: cancel its waiting challenges and tables (nobody there can
        answer them any more, and they would count against their hosts' limits); how many."""
        cancelled = await self.db.cancel_challenges_on_server(guild_id)
        for challenge_id in cancelled:
            self._cancel_timer(challenge_id)
        return len(cancelled)

    async def expire(self, challenge_id: int) -> None:
        """Close a pending challenge as expired and say so on its message."""
        if not await self.db.close_challenge(challenge_id, ChallengeStatus.EXPIRED):
            return
        challenge = await self.db.get_challenge(challenge_id)
        if challenge is None or challenge.message_id is None:
            return
        minutes = open_minutes(challenge)
        game = GAMES[challenge.game].name
        with use_language(await self.server_language(challenge.guild_id)):
            if challenge.is_tournament:
                text = _("⌛ This {game} tournament expired: it was not started within "
                         "{minutes} minutes.").format(game=game, minutes=minutes)
            elif challenge.is_lobby:
                text = _("⌛ This {game} table expired: it was not started within {minutes} "
                         "minutes.").format(game=game, minutes=minutes)
            else:
                silent = [challenge.name_of(uid) for uid in challenge.opponent_ids
                          if uid not in challenge.accepted_ids]
                text = ngettext(
                    "⌛ This {game} challenge expired: {names} did not answer within {minutes} "
                    "minutes.",
                    "⌛ This {game} challenge expired: {names} did not answer within {minutes} "
                    "minutes.", len(silent)).format(
                        game=game, names=and_join(silent), minutes=minutes)
        embed = discord.Embed(description=text, colour=discord.Colour.dark_grey())
        try:
            await self.publisher.edit(challenge.channel_id, challenge.message_id,
                                      Post(embed=embed))
        except PublishFailed:
            log.info("could not mark challenge %s as expired on Discord", challenge_id)
