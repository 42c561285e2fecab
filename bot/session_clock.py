"""The turn clock of a session: a timeout, and what the others choose after it."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

import discord
from discord.utils import escape_markdown

from bot.board import timeout_choice_post
from bot.clock import clock_spec, turn_timers, utcnow
from bot.errors import GameOver, NotAPlayer, Refusal, StaleBoard
from bot.games.base import TIMED_OUT, Turn, names_text
from bot.publisher import Problem, PublishFailed
from bot.session_base import SessionBase, earliest_due
from engines import EndReason, Result
from i18n import _, use_language
from storage import MoveKind, NewMove, NewTimer, TimerEvent

log = logging.getLogger(__name__)

CHOICE_RETRY_FIRST = timedelta(minutes=1)
"""How soon a timeout choice Discord did not take is offered again, at first..."""

CHOICE_RETRY_LONGEST = timedelta(hours=1)
"""...then ever later (as long as the deadline is past), at most this much later: a thread
the bot may not post in costs one refused call an hour, and Discord counts those."""


def choice_retry_after(deadline: datetime | None, now: datetime) -> timedelta:
    """How long to wait before offering a timeout choice again: as long as it has been owed,
    between `CHOICE_RETRY_FIRST` and `CHOICE_RETRY_LONGEST` (the waits double, and no count
    need be stored)."""
    owed = now - deadline if deadline is not None else CHOICE_RETRY_FIRST
    return min(max(owed, CHOICE_RETRY_FIRST), CHOICE_RETRY_LONGEST)


class TurnClock(SessionBase):
    """Time running out, claiming the win, letting the AI play, waiting longer."""

    # -- the clock -----------------------------------------------------------------------

    def check_timed_out(self, user_id: int, ply: int) -> int:
        """The absent seat if `user_id` may act on its timeout at `ply`; else a Refusal."""
        if self.is_over:
            raise GameOver(_("This game is over."))
        mover = self._state.current_player
        if ply != self.ply or mover is None or mover < 0:
            raise StaleBoard(_("Too late: the game moved on since (the player came back)."))
        seat = self._record.seat_of(user_id)
        if seat is None or seat == mover or self.is_ai_seat(seat):
            others = [escape_markdown(self.names[s]) for s in self.present_seats(besides=mover)]
            if not others:
                raise NotAPlayer(_("Only the other players may decide this."))
            raise NotAPlayer(_("Only {names} may decide this.").format(names=names_text(others)))
        deadline = self._record.deadline
        if deadline is None:
            raise Refusal(_("{name} still has time.").format(
                name=escape_markdown(self.names[mover])))
        if utcnow() < deadline:
            raise Refusal(_("{name} still has time until {when}.").format(
                name=escape_markdown(self.names[mover]),
                when=discord.utils.format_dt(deadline, "R")))
        return mover

    async def time_out(self, seat: int, ply: int) -> None:
        """The deadline of `seat`'s move at `ply` passed: end, hand over, or let others choose.

        Alone with AIs, the absent player loses on time. In a game of 3 or more the AI takes
        the seat so the others can finish. In a two-player game the opponent chooses (see
        `claim_win`, `let_ai_play`, `keep_waiting`). A stale timeout (the player moved) does
        nothing.
        """
        async with self.lock:
            if self.is_over or self.ply != ply or self._state.current_player != seat:
                return
            deadline = self._record.deadline
            if deadline is None or utcnow() < deadline:
                return  # the clock was given more time ("keep waiting")
            others = self.present_seats(besides=seat)
            if not others:
                await self._end_on_time(seat)
            elif len(self._record.seats) >= 3:
                await self._hand_to_ai(seat, TIMED_OUT, unrated=False)
            else:
                try:
                    await self._post_timeout_choice(seat, others)
                except PublishFailed as failure:
                    await self._choice_failed(seat, failure)

    async def _post_timeout_choice(self, seat: int, others: Sequence[int]) -> None:
        """Post the choices of `seat`'s timeout (the lock is held), retiring the buttons of
        an earlier one; raises PublishFailed when Discord does not take it."""
        with use_language(await self.public_language()):
            post = timeout_choice_post(self, seat, others)
        message = await self.publisher.post(self._record.channel_id, post)
        previous, self._timeout_choice = self._timeout_choice, message
        if previous is not None:
            await self._retire(previous)

    async def _choice_failed(self, seat: int, failure: PublishFailed) -> None:
        """The timeout choice was not posted: abort the game if its thread is gone, else
        store a timer that offers it again later. Stored rather than retried in memory, the
        pending timer survives a restart and is what says the choice is still owed (once
        posted, the choice's message is kept in memory only)."""
        if failure.problem is Problem.CHANNEL_GONE:
            await self._abort_orphan()
            return
        now = utcnow()
        due = now + choice_retry_after(self._record.deadline, now)
        log.warning("game %s: could not offer the timeout choice (%s); trying again at %s",
                    self.id, failure, due)
        await self.db.add_timer(self.id, NewTimer(TimerEvent.TIMEOUT, due, self.ply, seat))
        self.timers_changed(due)

    def timeout_choice_owed(self) -> tuple[int, list[int]] | None:
        """(the absent seat, the others) when a two-player game waits for the others to
        choose what follows a timeout; else None."""
        seat = self._state.current_player
        deadline = self._record.deadline
        if self.is_over or seat is None or seat < 0 or self.is_ai_seat(seat) \
                or deadline is None or utcnow() < deadline or len(self._record.seats) >= 3:
            return None
        others = self.present_seats(besides=seat)
        return (seat, others) if others else None

    async def repost(self) -> str:
        """Post the live board again, then the timeout choice if it is owed: its message may
        have been deleted, or never posted, and the game must not wait for it."""
        link = await super().repost()
        async with self.lock:
            await self.offer_timeout_choice_again()
        return link

    async def offer_timeout_choice_again(self) -> None:
        """Post the timeout choice again at the bottom of the thread if it is owed; best
        effort (the lock is held)."""
        owed = self.timeout_choice_owed()
        if owed is None:
            return
        try:
            await self._post_timeout_choice(*owed)
        except PublishFailed as failure:
            log.info("game %s: could not offer the timeout choice again: %s", self.id, failure)

    async def _end_on_time(self, seat: int) -> Turn:
        winners = [s for s in range(self._state.num_players) if s != seat]
        user = self._record.user_at(seat)
        turn = Turn([NewMove(seat, user, MoveKind.TIMEOUT, "timeout")], self._state)
        await self._store(turn, Result(winners, None, EndReason.TIMEOUT))
        return await self._announce(turn)

    async def claim_win(self, user_id: int, ply: int) -> Turn:
        """The opponent of a player out of time claims the win (rated, reason `timeout`)."""
        async with self.lock:
            return await self._end_on_time(self.check_timed_out(user_id, ply))

    async def let_ai_play(self, user_id: int, ply: int) -> Turn:
        """The AI finishes the game for the player out of time; the game is then not rated."""
        async with self.lock:
            seat = self.check_timed_out(user_id, ply)
            return await self._hand_to_ai(seat, TIMED_OUT, unrated=True)

    async def keep_waiting(self, user_id: int, ply: int) -> datetime | None:
        """Give the player out of time a whole new period; returns the new deadline."""
        async with self.lock:
            seat = self.check_timed_out(user_id, ply)
            deadline, timers = turn_timers(self._record.clock, self.ply, seat, utcnow())
            if not await self.db.set_turn_clock(self.id, self.ply, deadline, timers):
                await self._reload()
                raise StaleBoard(self.stale_text())
            self._record.deadline = deadline
            self.timers_changed(earliest_due(timers))
            try:
                self._shown_since = await self.post_board()  # the board shows the deadline
            except PublishFailed:
                # The board shows the expired deadline: it counts as behind, so it is posted
                # again (as `_show_clock` does).
                await self.db.set_board_message(self.id, self._record.board_message_id, None)
                self._record.board_ply = None
                self.mend_later()
            return deadline

    async def absence_changed(self, seat: int) -> bool:
        """The member at `seat` went away or came back (`/away`, see `bot.absences`): if it is
        their turn and the clock waits for them, their time starts when they are back (or
        now, if they came back early) and runs whole; the board shows it. A turn whose time
        already ran out stays out of time: going away then comes too late. True when the
        turn's clock was set again."""
        async with self.lock:
            spec = clock_spec(self._record.clock)
            deadline = self._record.deadline
            now = utcnow()
            if self.is_over or self._state.current_player != seat or spec.per_move is None \
                    or deadline is None or deadline <= now or self.is_ai_seat(seat):
                return False
            start = self.turn_starts(seat, now)
            if start + spec.per_move == deadline:
                return True  # already so (another change came first)
            if start == now and now + spec.per_move > deadline:
                return False  # back, and this turn never waited: its time runs on as it was
            deadline, timers = turn_timers(self._record.clock, self.ply, seat, start)
            if not await self.db.set_turn_clock(self.id, self.ply, deadline, timers):
                await self._reload()
                return False
            self._record.deadline = deadline
            self.timers_changed(earliest_due(timers))
            await self._show_clock()
            return True

    async def _show_clock(self) -> None:
        """Show the turn's new deadline on its board, edited in place (no new ping); if
        Discord refuses, the board counts as behind, and a new one is posted shortly (or at
        the next start)."""
        board = self._record.board_message_id
        try:
            if board is not None and self._record.board_ply == self.ply:
                await self._edit_board(board, self.addressee())
            else:
                self._shown_since = await self.post_board()
        except PublishFailed:
            await self.db.set_board_message(self.id, board, None)
            self._record.board_ply = None
            self.mend_later()

    async def start_clock(self) -> None:
        """Give the player to move a deadline if the game has a clock and none is set (a new
        game, or one resumed from an older version)."""
        async with self.lock:
            if self.is_over or self._record.deadline is not None:
                return
            deadline, timers = self._turn_clock(self._state, self.ply, utcnow())
            if deadline is None:
                return
            if await self.db.set_turn_clock(self.id, self.ply, deadline, timers):
                self._record.deadline = deadline
                self.timers_changed(earliest_due(timers))
