"""What the timers do: remind the player to move, act when their time runs out, and close a
finished game's thread. The timer loop (`bot.timers`) calls these when a timer is due."""

from __future__ import annotations

import logging

import discord

from bot.clock import clock_spec
from bot.games.base import marked_title
from bot.publisher import Post, Problem, Publisher, PublishFailed
from bot.session_manager import SessionManager
from bot.sessions import GameSession
from bot.timers import Action
from i18n import N_, _, use_language
from storage import Database, GameStatus, Timer, TimerEvent

log = logging.getLogger(__name__)

DM_OFF_HINT = N_("Turn these DMs off with `/settings dm_reminders:off`.")


class DeadlineService:
    """Reminders, timeouts and archiving, each checked against the game as it is now."""

    def __init__(self, db: Database, sessions: SessionManager, publisher: Publisher) -> None:
        self.db = db
        self.sessions = sessions
        self.publisher = publisher
        self.absences = sessions.absences

    async def set_dm_reminders(self, user_id: int, wanted: bool) -> None:
        """Turn a member's turn reminders by DM on or off."""
        await self.db.set_dm_reminders(user_id, wanted)

    async def dm_reminders(self, user_id: int) -> bool:
        """Whether the member gets turn reminders by DM."""
        return await self.db.dm_reminders(user_id)

    def actions(self) -> dict[TimerEvent, Action]:
        """The action of each timer event, for the timer loop."""
        return {TimerEvent.HALF_TIME: self.remind, TimerEvent.LAST_CALL: self.remind,
                TimerEvent.TIMEOUT: self.time_out, TimerEvent.ARCHIVE: self.archive,
                TimerEvent.AWAY: self.away_changed}

    async def _waiting_on(self, timer: Timer) -> GameSession | None:
        """The session if its game still waits for the timer's seat at the timer's ply."""
        session = await self.sessions.get(timer.game_id)
        if session is None or session.is_over or session.ply != timer.ply \
                or timer.seat is None or session.state.current_player != timer.seat:
            return None
        return session

    async def away_changed(self, timer: Timer) -> None:
        """A player of the game went away or came back: learn it (another process may have
        stored it), and set their turn's clock again if it is their turn."""
        session = await self.sessions.get(timer.game_id)
        if session is None or session.is_over or timer.seat is None:
            return
        await self.absences.refresh(session.record.user_at(timer.seat))
        await session.absence_changed(timer.seat)

    async def _away(self, session: GameSession, seat: int) -> bool:
        """Whether the player to move is away and their clock waits for them: then their
        turn's clock is set again instead (a change this process had not heard of yet),
        unless their time had already run out."""
        user = session.record.user_at(seat)
        if not clock_spec(session.record.clock).waits_for_absent \
                or await self.absences.refresh(user) is None:
            return False
        return await session.absence_changed(seat)

    async def remind(self, timer: Timer) -> None:
        """Ping the player to move in the thread, and by DM unless they turned that off."""
        session = await self._waiting_on(timer)
        deadline = session.record.deadline if session is not None else None
        if session is None or deadline is None or timer.seat is None:
            return
        if await self._away(session, timer.seat):
            return
        user = session.record.user_at(timer.seat)
        when = discord.utils.format_dt(deadline, "R")
        half_time = timer.event is TimerEvent.HALF_TIME
        with use_language(await session.public_language()):
            if half_time:
                text = _("⏰ {mention}, it is your turn in **{title}**: half your time is gone, "
                         "your time runs out {when}.")
            else:
                text = _("⏰ {mention}, it is your turn in **{title}**: last call, your time "
                         "runs out {when}.")
            text = text.format(mention=f"<@{user}>", title=marked_title(session),
                               when=when)
        try:
            await self.publisher.post(session.record.channel_id,
                                      Post(text, mentions=discord.AllowedMentions(users=True)))
        except PublishFailed as failure:
            if failure.problem is Problem.TRANSIENT:
                raise  # the timer loop tries again shortly
            log.info("game %s: could not post a reminder: %s", session.id, failure)
        if not await self.db.dm_reminders(user):
            return
        link = session.board_link()
        with use_language(await session.languages.of_member(user)):
            if half_time:
                dm = _("⏰ Your turn in **{title}**: half your time is gone, your time runs out "
                       "{when}.")
            else:
                dm = _("⏰ Your turn in **{title}**: last call, your time runs out {when}.")
            lines = [dm.format(title=marked_title(session), when=when)]
            if link:
                lines.append(_("The board: {link}").format(link=link))
            lines.append(f"-# {_(DM_OFF_HINT)}")
        try:
            await self.publisher.direct_message(user, "\n".join(lines))
        except PublishFailed as failure:  # closed DMs: the ping in the thread is enough
            log.info("game %s: could not DM a reminder to %s: %s", session.id, user, failure)

    async def time_out(self, timer: Timer) -> None:
        """The player to move ran out of time: the session decides what happens."""
        session = await self._waiting_on(timer)
        if session is not None and timer.seat is not None \
                and not await self._away(session, timer.seat):
            await session.time_out(timer.seat, timer.ply)

    async def archive(self, timer: Timer) -> None:
        """Archive and lock a finished game's thread (unless a new game runs in it)."""
        record = await self.db.get_game(timer.game_id)
        if record is None or record.status is GameStatus.RUNNING or record.parent_id is None:
            return
        if await self.db.running_game_in(record.channel_id) is not None:
            return
        session = await self.sessions.get(record.id)
        if session is not None and session.board_behind:
            # The last chance to show the final board (its retries gave up): once locked,
            # nobody could ask for it with `/board`.
            await session.mend_board()
        try:
            await self.publisher.close_thread(record.channel_id)
        except PublishFailed as failure:
            if failure.problem is Problem.TRANSIENT:
                raise
            log.info("game %s: could not archive its thread: %s", record.id, failure)
