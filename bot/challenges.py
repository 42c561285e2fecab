"""Challenges: open one, accept or decline it, and let it expire after ten minutes."""

from __future__ import annotations

import asyncio
import logging
import random
from collections import defaultdict
from datetime import timedelta
from typing import TYPE_CHECKING

import discord

from bot.catalogue import CATALOGUE, OPTION_LABELS, describe_options
from bot.components import ChallengeButton
from bot.errors import Refusal
from bot.sessions import game_title
from engines import GAMES
from storage import ChallengeRecord, ChallengeStatus, Seat

if TYPE_CHECKING:
    from bot.client import Ludotheque

log = logging.getLogger(__name__)

CHALLENGE_TIMEOUT = timedelta(minutes=10)
"""How long a challenged member has to answer."""

THREAD_ARCHIVE_MINUTES = 1440
"""A game thread with no message for a day is archived by Discord (a move revives it)."""

POST_PERMISSIONS = ("send_messages", "embed_links", "attach_files")
IN_THREAD_PERMISSIONS = ("send_messages_in_threads", "embed_links", "attach_files")
THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads", "embed_links",
                      "attach_files")


def _permission_names(names: list[str]) -> str:
    return ", ".join(name.replace("_", " ").title() for name in names)


class ChallengeService:
    """Opens challenges, answers them and expires them (timers rebuilt after a restart)."""

    def __init__(self, bot: Ludotheque) -> None:
        self.bot = bot
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    # -- opening -----------------------------------------------------------------------

    async def open(
        self,
        interaction: discord.Interaction,
        game_id: str,
        opponent: discord.Member,
        options: dict[str, object] | None = None,
    ) -> None:
        """Post a challenge with Accept and Decline, or refuse privately with the reason."""
        from bot.games import PLAYABLE

        challenger = interaction.user
        channel = interaction.channel
        if interaction.guild is None or channel is None:
            raise Refusal("Challenges are made in a server channel, not in direct messages.")
        entry = CATALOGUE.get(game_id)
        if entry is None:
            raise Refusal(f"There is no game called {game_id!r}. See `/games`.")
        if game_id not in PLAYABLE:
            ready = ", ".join(CATALOGUE[g].name for g in PLAYABLE)
            raise Refusal(f"{entry.name} is coming soon. You can play {ready} today.")
        if opponent.id == challenger.id:
            raise Refusal("You cannot challenge yourself: pick another member.")
        if opponent.bot:
            raise Refusal(f"{opponent.display_name} is a bot and cannot play. Challenge a person.")
        resolved = self.resolve_options(game_id, options or {})
        await self.check_can_host(channel)

        now = discord.utils.utcnow()
        challenge = await self.bot.db.create_challenge(
            game=game_id, guild_id=interaction.guild.id, channel_id=channel.id,
            challenger_id=challenger.id, opponent_ids=[opponent.id],
            player_names={challenger.id: challenger.display_name,
                          opponent.id: opponent.display_name},
            options=resolved, now=now, expires_at=now + CHALLENGE_TIMEOUT,
        )
        await interaction.response.send_message(
            content=opponent.mention, embed=self._embed(challenge), view=self._buttons(challenge),
            allowed_mentions=discord.AllowedMentions(users=True),
        )
        message = await interaction.original_response()
        await self.bot.db.set_challenge_message(challenge.id, message.id)
        self._schedule(challenge)

    @staticmethod
    def resolve_options(game_id: str, options: dict[str, object]) -> dict[str, object]:
        """The game's options with the chosen ones; refuse options of another game."""
        game = GAMES[game_id]
        for name in options:
            if name not in game.option_specs:
                owner = next((GAMES[g].name for g in GAMES if name in GAMES[g].option_specs), "")
                label = OPTION_LABELS.get(name, name)
                raise Refusal(f"“{label}” is an option of {owner}, not of {game.name}.")
        try:
            return game.resolve_options(options)
        except ValueError as error:
            raise Refusal(f"That option cannot be used: {error}.") from error

    async def check_can_host(self, channel: discord.abc.GuildChannel | discord.Thread) -> None:
        """Refuse when a game could not start here: permissions, or a game already running."""
        me = channel.guild.me
        perms = channel.permissions_for(me)
        if self.starts_in_thread(channel):
            return
        needed = IN_THREAD_PERMISSIONS if isinstance(channel, discord.Thread) else POST_PERMISSIONS
        missing = [name for name in needed if not getattr(perms, name)]
        if missing:
            raise Refusal(
                f"I cannot run a game in {channel.mention}: I need the "
                f"{_permission_names(missing)} permission there. Ask a moderator to grant it "
                f"(Create Public Threads too, so each game gets its own thread), or challenge "
                f"in another channel.")
        running = await self.bot.db.running_game_in(channel.id)
        if running is not None:
            raise Refusal(
                f"A game is already running in {channel.mention} "
                f"({game_title(running.game, [s.display_name for s in running.seats])}). "
                "Only one game runs per channel or thread: finish it first, or challenge "
                "in another channel.")

    @staticmethod
    def starts_in_thread(channel: object) -> bool:
        """True when a game challenged here gets a new public thread of its own."""
        if not isinstance(channel, discord.TextChannel):
            return False
        perms = channel.permissions_for(channel.guild.me)
        return all(getattr(perms, name) for name in THREAD_PERMISSIONS)

    def _embed(self, challenge: ChallengeRecord) -> discord.Embed:
        entry = CATALOGUE[challenge.game]
        opponent = challenge.opponent_ids[0]
        expires = discord.utils.format_dt(challenge.expires_at, "R")
        embed = discord.Embed(
            title=f"⚔️ {entry.name} challenge",
            description=(
                f"<@{challenge.challenger_id}> challenges <@{opponent}> to **{entry.name}**.\n"
                f"*{entry.pitch}*\n\n"
                f"<@{opponent}>, accept or decline: this challenge expires {expires} "
                f"(after {int(CHALLENGE_TIMEOUT.total_seconds() // 60)} minutes)."
            ),
            colour=discord.Colour.gold(),
        )
        if challenge.options:
            embed.add_field(name="Options", value=describe_options(challenge.options))
        return embed

    @staticmethod
    def _buttons(challenge: ChallengeRecord) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        view.add_item(ChallengeButton(challenge.id, "accept", label="Accept", emoji="✅",
                                      style=discord.ButtonStyle.success))
        view.add_item(ChallengeButton(challenge.id, "decline", label="Decline", emoji="✖️",
                                      style=discord.ButtonStyle.danger))
        return view

    # -- answering ---------------------------------------------------------------------

    async def answer(
        self, interaction: discord.Interaction, challenge_id: int, answer: str
    ) -> None:
        """Accept or Decline clicked."""
        async with self._locks[challenge_id]:  # a double click must not start two games
            challenge = await self.bot.db.get_challenge(challenge_id)
            if challenge is None:
                raise Refusal("This challenge no longer exists.")
            if challenge.status is not ChallengeStatus.PENDING:
                raise Refusal(f"This challenge was already {challenge.status.value}.")
            if discord.utils.utcnow() >= challenge.expires_at:
                await self.expire(challenge.id)
                raise Refusal("This challenge has expired. Send a new one with `/challenge`.")
            user = interaction.user.id
            opponent = challenge.opponent_ids[0]
            if answer == "decline" and user in (opponent, challenge.challenger_id):
                await self._decline(interaction, challenge, withdrawn=user != opponent)
            elif user != opponent:
                who = challenge.name_of(opponent)
                if user == challenge.challenger_id:
                    raise Refusal(f"You cannot accept your own challenge: waiting for {who}. "
                                  "Click Decline to withdraw it.")
                raise Refusal(f"Only {who} can answer this challenge.")
            else:
                await self._accept(interaction, challenge)

    async def _decline(
        self, interaction: discord.Interaction, challenge: ChallengeRecord, *, withdrawn: bool
    ) -> None:
        status = ChallengeStatus.CANCELLED if withdrawn else ChallengeStatus.DECLINED
        await self.bot.db.close_challenge(challenge.id, status)
        self._cancel_timer(challenge.id)
        name = CATALOGUE[challenge.game].name
        text = (f"{challenge.name_of(challenge.challenger_id)} withdrew the {name} challenge."
                if withdrawn else
                f"{challenge.name_of(challenge.opponent_ids[0])} declined the {name} challenge.")
        await interaction.response.edit_message(
            content=None, embed=discord.Embed(description=text, colour=discord.Colour.dark_grey()),
            view=None)

    async def _accept(self, interaction: discord.Interaction, challenge: ChallengeRecord) -> None:
        channel = interaction.channel
        await self.check_can_host(channel)  # permissions may have changed in ten minutes
        await interaction.response.defer()
        user_ids = [challenge.challenger_id, *challenge.opponent_ids]
        random.SystemRandom().shuffle(user_ids)  # seats are drawn at random
        names = [challenge.name_of(uid) for uid in user_ids]
        title = game_title(challenge.game, names)
        home = await self._home(channel, title)
        game = GAMES[challenge.game]
        record = await self.bot.db.create_game(
            game=challenge.game, guild_id=challenge.guild_id, channel_id=home.id,
            parent_id=channel.id if home.id != channel.id else None,
            seats=[Seat(i, uid, name) for i, (uid, name) in enumerate(zip(user_ids, names,
                                                                          strict=True))],
            options=challenge.options,
            rng_seed=random.SystemRandom().getrandbits(63),
            state=game.new_state(len(user_ids), challenge.options).dump(),
            now=discord.utils.utcnow(),
        )
        await self.bot.db.close_challenge(challenge.id, ChallengeStatus.ACCEPTED, record.id)
        self._cancel_timer(challenge.id)
        where = home.mention if home.id != channel.id else "this channel"
        await interaction.edit_original_response(
            content=None, view=None,
            embed=discord.Embed(
                description=f"✅ {challenge.name_of(challenge.opponent_ids[0])} accepted! "
                            f"**{title}** is on in {where}.",
                colour=discord.Colour.green()))
        await self.bot.sessions.start(record)

    async def _home(self, channel: discord.abc.Messageable, title: str) -> discord.abc.Messageable:
        """A new public thread for the game, or the channel itself when none can be made."""
        if self.starts_in_thread(channel):
            try:
                return await channel.create_thread(  # type: ignore[union-attr]
                    name=title, type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES)
            except discord.HTTPException as error:
                log.warning("could not create a thread in %s: %s", channel, error)
                await self.check_can_host_without_thread(channel)
        return channel

    async def check_can_host_without_thread(self, channel: discord.abc.Messageable) -> None:
        """After a failed thread: the channel itself must be free."""
        running = await self.bot.db.running_game_in(channel.id)  # type: ignore[attr-defined]
        if running is not None:
            raise Refusal("I could not open a thread for this game, and a game already runs "
                          "in this channel. Try again in another channel.")

    # -- expiry ------------------------------------------------------------------------

    async def resume(self) -> None:
        """Rebuild the expiry timers of pending challenges (after a start)."""
        for challenge in await self.bot.db.pending_challenges():
            self._schedule(challenge)

    def _schedule(self, challenge: ChallengeRecord) -> None:
        delay = (challenge.expires_at - discord.utils.utcnow()).total_seconds()
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

    async def expire(self, challenge_id: int) -> None:
        """Close a pending challenge as expired and say so on its message."""
        if not await self.bot.db.close_challenge(challenge_id, ChallengeStatus.EXPIRED):
            return
        challenge = await self.bot.db.get_challenge(challenge_id)
        if challenge is None or challenge.message_id is None:
            return
        name = challenge.name_of(challenge.opponent_ids[0])
        embed = discord.Embed(
            description=f"⌛ This {CATALOGUE[challenge.game].name} challenge expired: {name} "
                        f"did not answer within {int(CHALLENGE_TIMEOUT.total_seconds() // 60)} "
                        "minutes.",
            colour=discord.Colour.dark_grey())
        try:
            channel = self.bot.get_channel(challenge.channel_id) or await self.bot.fetch_channel(
                challenge.channel_id)
            await channel.get_partial_message(challenge.message_id).edit(  # type: ignore[union-attr]
                content=None, embed=embed, view=None)
        except discord.HTTPException:
            log.info("could not mark challenge %s as expired on Discord", challenge_id)

