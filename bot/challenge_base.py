"""What challenges and tables share: the checks before one is posted, the game an accepted
one starts, and expiry after ten minutes (`ChallengeService` puts the kinds together)."""

from __future__ import annotations

import asyncio
import logging
import random
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Collection, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final, Protocol

import discord
from discord.utils import escape_markdown

from bot.ai_players import ai_user_id, is_ai, level_of, shown_name
from bot.board import game_title, message_link
from bot.challenge_posts import challenge_buttons, challenge_embed, open_minutes
from bot.clock import DEFAULT_CLOCK, Clock, utcnow
from bot.errors import Refusal
from bot.games.base import GameUI
from bot.languages import Languages
from bot.publisher import (
    POST_PERMISSIONS,
    POST_PERMISSIONS_IN_THREADS,
    THREAD_ARCHIVE_MINUTES,
    THREAD_PERMISSIONS,
    Post,
    Publisher,
    PublishFailed,
    missing_permissions,
    permission_name,
    permission_names,
)
from bot.replay import and_join
from bot.replies import Interaction
from bot.round_robin import MIN_PLAYERS
from bot.session_manager import SessionManager
from bot.tournaments import TournamentService
from engines import GAMES
from i18n import N_, Language, _, ngettext, use_language
from storage import (
    ChallengeClosed,
    ChallengeRecord,
    ChallengeStatus,
    Database,
    GameRecord,
    Seat,
    StorageBusy,
)

log = logging.getLogger(__name__)



MOST_WAITING: Final = 5
"""Challenges and tables one member may have waiting for an answer at once (each pings)."""

MOST_AI_GAMES: Final = 5
"""Games against the AI alone one member may play on a server at once (each is a thread)."""

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


HEADS_UP = timedelta(minutes=10)
"""How long before a tournament starts by itself its players are called."""

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


def unposted_text(missing: tuple[str, ...]) -> str:
    """Why a challenge, table or rematch was not posted (and so not kept)."""
    if missing:
        return _("Discord refused my post: I need the {permissions} permission there. Ask a "
                 "moderator, then try again.").format(permissions=permission_names(missing))
    return _("Discord did not take my post just now, so nothing was posted. Try again in a "
             "moment.")


def name_at(challenge: ChallengeRecord, user_id: int) -> str:
    """A player's name at a challenge or table as shown: the AI's in the current language
    (its stored name is the English one)."""
    return shown_name(user_id, challenge.name_of(user_id))


def seats_title(game_id: str, seats: Sequence[Seat]) -> str:
    """`Qawale · Alice vs 🤖 IA (Facile)`: a game's title with its seats' names as shown, in
    the current language."""
    return game_title(game_id, [shown_name(seat.user_id, seat.display_name) for seat in seats])


def clock_name(clock: str) -> str:
    """A known time control's name; a Refusal for anything else (a modified client)."""
    try:
        return Clock(clock).value
    except ValueError:
        known = ", ".join(c.value for c in Clock)
        raise Refusal(_("There is no clock {clock}: choose one of {known}.").format(
            clock=repr(clock[:20]), known=known)) from None


class Invitee(Protocol):
    """Someone challenged: a member, or a seat of a finished game (its stored name)."""

    @property
    def id(self) -> int:
        """Their user id."""

    @property
    def display_name(self) -> str:
        """Their name as shown."""


@dataclass(frozen=True)
class SeatInvitee:
    """A player of a finished game invited again (a rematch), by their stored name."""

    id: int
    display_name: str


def names_among(invited: Sequence[Invitee], ids: Collection[int]) -> str:
    """`Alice and Bob`: the names of those `invited` whose ids are among `ids`, escaped."""
    return and_join([escape_markdown(o.display_name) for o in invited if o.id in ids])


class ChallengeBase:
    """What every kind of challenge shares: the checks before one is posted, its message,
    its answer, the game it starts, and its expiry (timers rebuilt after a restart)."""

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
        self._heads_up: dict[int, asyncio.Task[None]] = {}
        """Tournament tables that start by themselves → the call before their start."""
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._rematch_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        """Finished game → the lock its Rematch clicks take in turn (game ids, apart from the
        challenge ids of `_locks`)."""

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

    async def check_may_challenge(self, challenger_id: int,
                                  invited: Sequence[Invitee]) -> None:
        """Refuse a challenge to members who block the challenger (`/block`) or are away
        (`/away`): before a game is even picked from the member menu."""
        ids = [o.id for o in invited]
        blocking = await self.db.blocking(challenger_id, ids)
        if blocking:
            raise Refusal(_("You cannot challenge {names}.").format(
                names=names_among(invited, blocking)))
        away = await self.db.away_until(ids, utcnow())
        if away:
            raise Refusal(ngettext(
                "{names} is away until {date} (`/away`): challenge them once they are back, "
                "or open a table with `/lobby`.",
                "{names} are away until {date} (`/away`): challenge them once they are back, "
                "or open a table with `/lobby`.", len(away)).format(
                    names=names_among(invited, away),
                    date=discord.utils.format_dt(max(away.values()), "D")))

    async def check_not_flooding(self, member_id: int, now: datetime, *,
                                 invited: Sequence[Invitee] = (),
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
                                    name=escape_markdown(named[0].display_name),
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

    @asynccontextmanager
    async def cancelled_unless_posted(self, challenge: ChallengeRecord) -> AsyncIterator[None]:
        """Cancel a challenge or table just stored if its post fails: nobody could see or
        answer it, yet it would block its member's next challenges until it expired (and,
        its timer set only once posted, it would never expire)."""
        try:
            yield
        except (discord.HTTPException, PublishFailed) as failure:
            await self.db.close_challenge(challenge.id, ChallengeStatus.CANCELLED)
            missing = failure.missing if isinstance(failure, PublishFailed) else ()
            raise Refusal(unposted_text(missing)) from failure

    async def check_can_host(self, channel: HostChannel) -> None:
        """Refuse when a game could not start here: permissions, or a game already running."""
        me = channel.guild.me
        perms = channel.permissions_for(me)
        if self.starts_in_thread(channel):
            return
        needed = (POST_PERMISSIONS_IN_THREADS if isinstance(channel, discord.Thread)
                  else POST_PERMISSIONS)
        missing = missing_permissions(perms, needed)
        if missing:
            raise Refusal(ngettext(
                "I cannot run a game in {channel}: I need the {permissions} permission there. "
                "Ask a moderator to grant it ({threads} too, so each game gets its own "
                "thread), or challenge in another channel.",
                "I cannot run a game in {channel}: I need the {permissions} permissions "
                "there. Ask a moderator to grant them ({threads} too, so each game gets its "
                "own thread), or challenge in another channel.", len(missing)).format(
                    channel=channel.mention, permissions=permission_names(missing),
                    threads=permission_name("create_public_threads")))
        running = await self.db.running_game_in(channel.id)
        if running is not None:
            raise Refusal(_(
                "A game is already running in {channel} ({title}). Only one game runs per "
                "channel or thread: finish it first, or challenge in another channel.").format(
                    channel=channel.mention,
                    title=escape_markdown(seats_title(running.game, running.seats))))

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
        if utcnow() >= challenge.expires_at:  # its timer has not fired yet
            if await self._time_is_up(challenge.id):
                raise Refusal(_("This tournament has already started."))
            raise Refusal(_("This challenge has expired. Send a new one with `/challenge`."))
        return challenge

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
                                   name=escape_markdown(name_at(challenge, user)),
                                   game=GAMES[challenge.game].name)
        await interaction.edit_original_response(content=None, embed=embed, view=None)

    async def _accept(self, interaction: Interaction, challenge: ChallengeRecord) -> None:
        """Everyone is in: draw the seats, open the game's thread and start it."""
        channel = host_channel(interaction, "games")
        await self.check_can_host(channel)  # permissions may have changed in ten minutes
        await interaction.response.defer()
        order = challenge.seating or challenge.player_ids
        players = [(uid, challenge.name_of(uid)) for uid in order]
        # The game is stored and the challenge closed in one transaction: a restart between
        # the two would have let a second Accept start a second game.
        record, home = await self._create_game(channel, challenge.game, players,
                                               challenge.options, challenge.clock,
                                               draw_seats=challenge.seating is None,
                                               casual=challenge.casual,
                                               accepting=challenge.id)
        self._cancel_timer(challenge.id)
        if challenge.is_lobby:
            who, name = N_("{name} started the table!"), challenge.challenger_id
        elif len(challenge.opponent_ids) == 1:
            who, name = N_("{name} accepted!"), challenge.opponent_ids[0]
        else:
            who, name = N_("Everyone accepted!"), challenge.challenger_id
        with use_language(await self.server_language(challenge.guild_id)):
            where = home.mention if home.id != channel.id else _("this channel")
            title = seats_title(record.game, record.seats)
            started = _("**{title}** is on in {where}.").format(title=escape_markdown(title),
                                                               where=where)
            said = _(who).format(name=escape_markdown(name_at(challenge, name)))
            embed = discord.Embed(description=f"✅ {said} {started}",
                                  colour=discord.Colour.green())
        await interaction.edit_original_response(content=None, view=None, embed=embed)
        await self.sessions.start(record)

    async def _create_game(
        self, channel: HostChannel, game_id: str, players: list[tuple[int, str]],
        options: dict[str, object], clock: str, *, draw_seats: bool = True,
        casual: bool = False, rematch_of: int | None = None, accepting: int | None = None,
    ) -> tuple[GameRecord, HostChannel]:
        """Draw the seats, open the game's thread (or use the channel) and store the game,
        the rematch of the finished game `rematch_of`, or the game of the challenge
        `accepting` (closed in the same write; a Refusal when it was answered meanwhile).

        AI players get their seat's own id here (`ai_user_id`), once the seats are drawn.
        """
        if draw_seats:
            random.SystemRandom().shuffle(players)  # seats are drawn at random
        seats = [Seat(index, ai_user_id(level_of(uid), index) if is_ai(uid) else uid, name)
                 for index, (uid, name) in enumerate(players)]
        # A thread's name is set once, for everyone: in the server's language.
        with use_language(await self.server_language(channel.guild.id)):
            title = seats_title(game_id, seats)
        home = await self._home(channel, title)
        state = GAMES[game_id].new_state(len(seats), options)
        try:
            record = await self.db.create_game(
                game=game_id, guild_id=channel.guild.id, channel_id=home.id,
                parent_id=channel.id if home.id != channel.id else None, seats=seats,
                options=options, rng_seed=random.SystemRandom().getrandbits(63),
                state=state.dump(), now=utcnow(), clock=clock, to_move=state.current_player,
                casual=casual, rematch_of=rematch_of, accepting=accepting,
            )
        except ChallengeClosed:
            if home.id != channel.id:  # the thread opened for a game that will not be
                with suppress(discord.HTTPException):
                    await home.delete()
            raise Refusal(_("This challenge was already accepted.")) from None
        return record, home

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
        if challenge.auto_start and delay > HEADS_UP.total_seconds():
            self._heads_up[challenge.id] = asyncio.create_task(
                self._call_before_start(challenge.id, delay - HEADS_UP.total_seconds()))

    async def _call_before_start(self, table_id: int, delay: float) -> None:
        """A while before a tournament starts by itself, ping its players (and tell the
        channel, so that latecomers may still join)."""
        await asyncio.sleep(delay)
        self._heads_up.pop(table_id, None)
        table = await self.db.get_challenge(table_id)
        if table is None or table.status is not ChallengeStatus.PENDING \
                or table.message_id is None:
            return
        link = message_link(table.guild_id, table.channel_id, table.message_id)
        players = " ".join(f"<@{uid}>" for uid in table.player_ids)
        with use_language(await self.server_language(table.guild_id)):
            text = _("⏰ The {game} tournament starts {when}: {players}, be there! Not in yet? "
                     "Join it: {link}").format(
                game=GAMES[table.game].name, when=discord.utils.format_dt(table.expires_at, "R"),
                players=players, link=link)
        try:
            await self.publisher.post(table.channel_id, Post(
                text, mentions=discord.AllowedMentions(users=True)))
        except PublishFailed:
            log.info("table %s: could not call its players before the start", table_id)

    async def _expire_after(self, challenge_id: int, delay: float) -> None:
        await asyncio.sleep(max(delay, 0))
        self._timers.pop(challenge_id, None)
        async with self._locks[challenge_id]:  # not while someone clicks it
            await self._time_is_up(challenge_id)

    def _cancel_timer(self, challenge_id: int) -> None:
        for timers in (self._timers, self._heads_up):
            timer = timers.pop(challenge_id, None)
            if timer is not None and timer is not asyncio.current_task():
                timer.cancel()

    def cancel_timers(self) -> None:
        """Stop every expiry timer (the bot is closing; they are rebuilt at the next start)."""
        for challenge_id in list(self._timers) + list(self._heads_up):
            self._cancel_timer(challenge_id)

    async def server_left(self, guild_id: int) -> int:
        """The bot left a server: cancel its waiting challenges and tables (nobody there can
        answer them any more, and they would count against their hosts' limits); how many."""
        cancelled = await self.db.cancel_challenges_on_server(guild_id)
        for challenge_id in cancelled:
            self._cancel_timer(challenge_id)
        return len(cancelled)

    async def _time_is_up(self, challenge_id: int) -> bool:
        """A pending challenge's time is up (its lock held): a tournament's table set to
        start by itself starts if enough players joined (True); anything else expires."""
        table = await self.db.get_challenge(challenge_id)
        if table is not None and table.auto_start and table.status is \
                ChallengeStatus.PENDING and len(table.player_ids) >= MIN_PLAYERS:
            await self.tournaments.start(table)
            return True
        await self.expire(challenge_id)
        return False

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
            if challenge.is_tournament and challenge.auto_start:
                text = _("⌛ This {game} tournament did not start: fewer than {n} players had "
                         "joined by its time.").format(game=game, n=MIN_PLAYERS)
            elif challenge.is_tournament:
                text = _("⌛ This {game} tournament expired: it was not started within "
                         "{minutes} minutes.").format(game=game, minutes=minutes)
            elif challenge.is_lobby:
                text = _("⌛ This {game} table expired: it was not started within {minutes} "
                         "minutes.").format(game=game, minutes=minutes)
            else:
                silent = [escape_markdown(name_at(challenge, uid)) for uid in challenge.opponent_ids
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

