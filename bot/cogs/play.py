"""`/move`, `/board`, `/resign` and `/abort`: acting on the game in this channel or thread."""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import escape_markdown

from bot.board import mention
from bot.challenges import ChallengeService
from bot.draw_offers import DrawAction
from bot.errors import GameOver, NoGameHere, Refusal
from bot.games.base import marked_title
from bot.games.common import played_text, require_player, resign_prompt
from bot.replay import and_join
from bot.replies import Interaction
from bot.session_manager import SessionManager
from bot.sessions import GameSession
from bot.tournaments import TournamentService
from i18n import N_, _, ngettext, use_language

log = logging.getLogger(__name__)

NO_GAME_HERE = N_("No game is running in this channel. Each game has its own thread: "
                  "use the command there, or start one with `/challenge`.")

NOTATION_LIMIT = 100
"""The longest notation `/move` reads (the longest real move is far shorter)."""

MEMBER_CHECK_SECONDS = 1.5
"""How long `/abort` waits for Discord to say whether a player is still a member."""


class Play(commands.Cog):
    """Typing moves, re-posting the board, resigning, aborting."""

    def __init__(self, sessions: SessionManager,
                 tournaments: TournamentService | None = None,
                 challenges: ChallengeService | None = None) -> None:
        self.sessions = sessions
        self.tournaments = tournaments
        """Cancels the tournaments of a deleted channel (their rounds have nowhere to go)."""
        self.challenges = challenges
        """Cancels the challenges and tables waiting in a deleted channel or thread."""

    async def _session_here(self, interaction: Interaction) -> GameSession:
        channel = interaction.channel_id or 0
        session = await self.sessions.in_channel(channel)
        if session is not None:
            return session
        if await self.sessions.game_ended_in(channel):  # the game's own thread, after the end
            raise GameOver(_("This game is already over."))
        raise NoGameHere(_(NO_GAME_HERE))

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A moderator deleted a game's thread: its game ends at once, unrated, instead of
        waiting in `/mygames` and `/live` for a move that can never be shown."""
        await self._home_deleted(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted, and its threads with it: their games end, unrated, and the
        challenges and tables waiting there are cancelled."""
        await self._home_deleted(channel.id)

    async def _home_deleted(self, channel_id: int) -> None:
        if self.challenges is not None:  # before a scheduled table's timer starts it there
            cancelled = await self.challenges.channel_deleted(channel_id)
            if cancelled:
                log.info("%d challenge(s) cancelled: channel %s was deleted", cancelled,
                         channel_id)
        if self.tournaments is not None:  # before the games: aborted, they open no round
            await self.tournaments.channel_deleted(channel_id)
        aborted = await self.sessions.channel_deleted(channel_id)
        if aborted:
            log.info("%d game(s) aborted: channel %s was deleted", aborted, channel_id)

    @app_commands.command(name="move", description=N_("Play a move by typing its notation"))
    @app_commands.describe(notation=N_("The move, e.g. b2:NNE for Qawale (suggestions as you "
                                       "type)"))
    @app_commands.guild_only()
    async def move(
        self, interaction: Interaction,
        notation: app_commands.Range[str, 1, NOTATION_LIMIT],
    ) -> None:
        """Play a move written in the game's notation."""
        # Acknowledge first: a slow or locked database must not cost the 3 s Discord gives.
        await interaction.response.defer(ephemeral=True, thinking=True)
        session = await self._session_here(interaction)
        turn = await session.play(interaction.user.id, notation, sent_as=interaction.id)
        await interaction.followup.send(played_text(turn), ephemeral=True)

    @move.autocomplete("notation")
    async def move_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Legal moves matching what is typed (only for the player to move)."""
        try:
            session = await self.sessions.in_channel(interaction.channel_id or 0)
            if session is None or session.is_over:
                return []
            seat = session.state.current_player
            if seat is None or seat < 0 or session.record.user_at(seat) != interaction.user.id:
                return []  # a list of moves they cannot play would only mislead them
            texts = session.ui.autocomplete(session, current[:NOTATION_LIMIT])
        except Exception:  # suggestions are a convenience: never an error for the player
            log.exception("autocomplete of %r failed", current[:NOTATION_LIMIT])
            return []
        return [app_commands.Choice(name=text[:100], value=text[:100]) for text in texts]

    @app_commands.command(name="board", description=N_("Show the current board again"))
    @app_commands.guild_only()
    async def board(self, interaction: Interaction) -> None:
        """Re-post the board (with live controls) at the bottom of the thread; or the final
        board of the game that ended here, if it was never shown."""
        channel = interaction.channel_id or 0
        session = await self.sessions.in_channel(channel) \
            or await self.sessions.final_board_behind_in(channel)
        if session is None:
            raise NoGameHere(_(NO_GAME_HERE))
        await interaction.response.defer(ephemeral=True, thinking=True)
        link = await session.repost()
        await interaction.followup.send(_("Board posted: {link}").format(link=link),
                                        ephemeral=True)

    @app_commands.command(name="resign", description=N_("Resign the game in this thread"))
    @app_commands.guild_only()
    async def resign(self, interaction: Interaction) -> None:
        """Ask for a confirmation, then resign."""
        session = await self._session_here(interaction)
        require_player(session, interaction.user.id)
        text, view = resign_prompt(session)
        await interaction.response.send_message(text, view=view, ephemeral=True)

    @app_commands.command(name="draw",
                          description=N_("Offer a draw, or accept the one you were offered"))
    @app_commands.guild_only()
    async def draw(self, interaction: Interaction) -> None:
        """Offer a draw in this thread's game, as its board's button does (two people only)."""
        session = await self._session_here(interaction)
        session.draw_seat(interaction.user.id, DrawAction.OFFER)  # refuse before answering
        await interaction.response.defer(thinking=True)  # public: the offer is the answer
        await session.offer_draw(interaction.user.id, interaction)

    @app_commands.command(name="abort",
                          description=N_("Cancel the game in this thread (no rating)"))
    @app_commands.guild_only()
    async def abort(self, interaction: Interaction) -> None:
        """A moderator cancels the game at once; players cancel it when all of them ask."""
        session = await self._session_here(interaction)
        if session.is_over:
            raise GameOver(_("This game is already over."))
        user = interaction.user
        perms = interaction.permissions
        if perms.manage_messages or perms.manage_threads:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await session.abort(by=user.mention)
            await interaction.followup.send(_("{title} is aborted.").format(
                title=marked_title(session)), ephemeral=True)
            return
        if session.record.seat_of(user.id) is None:
            raise Refusal(_("Only a moderator (Manage Messages or Manage Threads) or the "
                            "players themselves, all together, can abort a game."))
        asked = await session.abort_voters()
        # A player who left the server cannot agree: their agreement is not needed.
        voters = asked | await departed_players(interaction.guild, session, besides=user.id)
        if user.id in voters:
            missing = session.abort_missing(voters)
            names = and_join([escape_markdown(session.names[s]) for s in missing])
            raise Refusal(ngettext(
                "You already asked: still waiting for {names} to agree with `/abort` (they "
                "were told).",
                "You already asked: still waiting for {names} to agree with `/abort` (they "
                "were told).", len(missing)).format(names=names))
        last = not session.abort_missing(voters | {user.id})
        # Answer before writing: the last agreement privately (the abort notice is public).
        await interaction.response.defer(ephemeral=last, thinking=True)
        missing = [seat for seat in await session.ask_to_abort(user.id)
                   if session.record.user_at(seat) not in voters]
        with use_language(await session.public_language()):  # public: the server's language
            request = abort_request_text(session, user.mention, missing, first=not asked)
            everyone = _("all its players")
        if missing:
            # The players whose agreement is missing are pinged once, with the first request.
            await interaction.followup.send(
                request, allowed_mentions=discord.AllowedMentions(users=not asked))
            return
        await session.abort(by=everyone)
        await interaction.followup.send(_("{title} is aborted.").format(
            title=marked_title(session)), ephemeral=True)


async def departed_players(guild: discord.Guild | None, session: GameSession, *,
                           besides: int) -> set[int]:
    """The game's players who are no longer members of the server (asked of Discord at once,
    within `MEMBER_CHECK_SECONDS`: the bot does not follow who leaves, and the command must
    answer within Discord's 3 seconds); a player Discord does not tell about counts as
    present."""
    if guild is None:
        return set()

    async def gone(user_id: int) -> bool:
        try:
            await asyncio.wait_for(guild.fetch_member(user_id), MEMBER_CHECK_SECONDS)
        except discord.NotFound:
            return True
        except (discord.HTTPException, TimeoutError):
            log.info("could not check whether %s is still on the server", user_id)
        return False

    # The member asking, AI seats and members Discord told the bot about are here.
    unknown = [seat.user_id for seat in session.record.seats
               if seat.user_id != besides and not session.is_ai_seat(seat.seat)
               and guild.get_member(seat.user_id) is None]
    answers = await asyncio.gather(*(gone(user_id) for user_id in unknown))
    return {user_id for user_id, left in zip(unknown, answers, strict=True) if left}


def abort_request_text(session: GameSession, who: str, missing: list[int], *,
                       first: bool) -> str:
    """The public request to abort: the first one names the players who must agree."""
    if first:
        asked = " ".join(mention(session, seat) for seat in missing)
        return _("🛑 {who} asks to abort **{title}**: it ends with no rating once every player "
                 "agrees. {asked}, to agree, use `/abort` here.").format(
                     who=who, title=marked_title(session), asked=asked)
    names = and_join([escape_markdown(session.names[seat]) for seat in missing])
    return _("🛑 {who} agrees to abort **{title}**; still waiting for {names}.").format(
        who=who, title=marked_title(session), names=names)

