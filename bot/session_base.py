"""The core of a game session: its state, the one path that stores moves, the boards.

Every action follows the same order: load, lock, apply (on a copy), store, then announce.
A move is committed to the database before anyone hears of it, so a crash between the two
loses nothing: the next start re-announces from storage. A session gets what it needs (the
database, its game's controls, a publisher) and never the Discord client. What only some
games use (draw offers, the turn clock, hints and take-backs) is in the mixins that
`bot.sessions.GameSession` puts together.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

import discord
from discord.utils import escape_markdown

from bot.absences import Absences
from bot.ai_players import DEFAULT_LEVEL, Thinker, ai_seed, ai_user_id, is_ai, level_of, shown_name
from bot.automatic import AnyState, automatic_steps
from bot.board import (
    board_post,
    draw_board,
    game_title,
    last_shown_move,
    message_link,
    why_no_board,
)
from bot.clock import clock_spec, turn_timers, utcnow
from bot.draw_offers import DrawOutcome, outcome_text
from bot.errors import GameOver, NotAPlayer, NotYourTurn, Refusal, StaleBoard
from bot.games.base import LEFT, GameUI, Notice, PrivateNote, Turn, marked_title
from bot.games.common import leaves_instead_of_resigning
from bot.languages import Languages
from bot.metrics import AI_SECONDS, BOARD_SECONDS, GAMES_FINISHED, MOVES, timed
from bot.painter import Painter, ThreadPainter
from bot.publisher import InteractionPublisher, Post, Problem, Publisher, PublishFailed
from bot.ratings import new_bests, server_scope
from bot.replies import stored_move
from bot.takebacks import TakebackOutcome, request_outcome_text
from engines import GAMES, EndReason, Result
from i18n import N_, Language, _, use_language
from storage import (
    Database,
    GameRecord,
    GameStatus,
    MoveKind,
    NewMove,
    NewTimer,
    RatingChange,
    StaleGame,
    TimerEvent,
)

log = logging.getLogger(__name__)

MEND_DELAYS = (10.0, 30.0, 120.0, 600.0)
"""Seconds between tries to post a board Discord did not take (then the next start does)."""

THINKING_NOTICE_AFTER = 1.0
"""Seconds of AI thinking after which the thread shows that it is typing."""

STAND_IN_LEVEL = DEFAULT_LEVEL
"""The AI level that takes the seat of a player who left or ran out of time."""

ALL_PLAYERS = N_("all its players")
"""`GameSession.abort(by=ALL_PLAYERS)`: every player agreed (said in the server's language)."""


def earliest_due(timers: Sequence[NewTimer]) -> datetime | None:
    """When the first of `timers` is due."""
    return min((timer.due_at for timer in timers), default=None)


def only_others_left(turn: Turn, seat: int) -> bool:
    """True when all `turn` did was hand the seats of others than `seat` to the AI."""
    return all(move.kind is MoveKind.LEAVE and move.seat != seat for move in turn.moves)


class SessionBase:
    """A running (or just finished) game held in memory, with its lock: the state, storing,
    announcing, the AI's turns and the boards (`GameSession` adds the rest)."""

    def __init__(self, record: GameRecord, state: AnyState, *, db: Database, ui: GameUI[Any],
                 publisher: Publisher, thinker: Thinker | None = None,
                 painter: Painter | None = None,
                 languages: Languages | None = None,
                 absences: Absences | None = None,
                 archive_after: timedelta | None = None,
                 timers_changed: Callable[[datetime | None], None] = lambda _: None,
                 game_ended: Callable[[GameRecord], None] = lambda _: None) -> None:
        self._record = record
        self._state = state
        self.db = db
        self.ui = ui
        self.publisher = publisher
        self.thinker = thinker
        self.painter = painter or ThreadPainter()
        self.languages = languages or Languages(db)
        self.absences = absences or Absences(db)
        self.archive_after = archive_after
        """How long a finished game's thread stays open; None: it is never archived."""
        self.timers_changed = timers_changed
        """Called once new timers are stored, so the timer loop wakes for an earlier one."""
        self.game_ended = game_ended
        """Called once the game is over (finished and announced, or aborted): a tournament
        waits for its games."""
        self._ai_task: asyncio.Task[None] | None = None
        self._board_for: int | None = None
        """The seat whose turn the posted board shows (in memory: after a restart the next
        action posts a new board)."""
        self._timeout_choice: int | None = None
        """The message offering the choices of a timeout, while they are open (in memory: after
        a restart its buttons still refuse, they are just not removed)."""
        self._draw_message: int | None = None
        """The message of the standing draw offer, edited once it ends (in memory: after a
        restart its buttons still answer, and refuse once the offer is gone)."""
        self._draw_declined: dict[int, int] = {}
        """Seat → the ply at which its draw offer was declined: no new offer before a move."""
        self._offer_ended: tuple[int, DrawOutcome] | None = None
        """The seat whose offer the turn being stored ended, and how, for `_announce` to say
        so on the offer's message."""
        self._takeback_asked: tuple[int, int, int] | None = None
        """The ply, asking seat and message of the standing take-back request (in memory:
        after a restart its buttons still answer, and lapse once a move is played)."""
        self._hint: tuple[int, asyncio.Future[str]] | None = None
        """The ply of the last hint asked and its thinking: asking again (or clicking twice)
        waits for the same one instead of taking another worker."""
        self.lock = asyncio.Lock()
        self._mender: asyncio.Task[None] | None = None
        self._shown_since: int | None = record.board_message_id
        """A snowflake from when the current position was first shown (its board's id):
        a typed command created before it was sent against an older position."""

    # -- what the UI reads ----------------------------------------------------------------

    @property
    def idle(self) -> bool:
        """True when nothing is under way: no move, no AI thinking, no board being mended, no
        timeout choice on display (so the session may be let go and loaded again)."""
        busy = (self.lock.locked() or self._timeout_choice is not None
                or (self._ai_task is not None and not self._ai_task.done())
                or (self._mender is not None and not self._mender.done()))
        return not busy

    @property
    def record(self) -> GameRecord:
        """The stored game: seats, options, status, board message."""
        return self._record

    @property
    def state(self) -> AnyState:
        """The engine state as stored."""
        return self._state

    @property
    def id(self) -> int:
        """The game id."""
        return self._record.id

    @property
    def ply(self) -> int:
        """How many moves are logged; components carry it to detect stale boards."""
        return self._record.ply

    @property
    def is_over(self) -> bool:
        """True once the game has a result (or was aborted)."""
        return self._record.status is not GameStatus.RUNNING

    async def draw(self, view: Mapping[str, object], highlight: str | None, *,
                   preview: bool = False) -> bytes:
        """The picture of `view` with the players' names, from the painter."""
        with timed(BOARD_SECONDS, self._record.game):
            return await self.painter.paint(view, highlight, preview=preview, names=self.names)

    @property
    def names(self) -> list[str]:
        """Display names by seat (an AI seat's in the current language: `🤖 IA (Moyen)`)."""
        return [shown_name(seat.user_id, seat.display_name) for seat in self._record.seats]

    @property
    def title(self) -> str:
        """`Qawale · Alice vs Bob` (`🏆 Qawale · Alice vs Bob` in a tournament), also the
        thread's name."""
        return game_title(self._record.game, self.names,
                          tournament=self._record.tournament_id is not None)

    def result(self) -> Result | None:
        """The stored result (resignations included), or None while running."""
        data = self._record.result
        return Result.from_dict(data) if data else None

    def player_seat(self, user_id: int, expected_ply: int | None) -> int:
        """The seat of `user_id` in this running game, from an up-to-date board; otherwise
        raise a Refusal."""
        if self.is_over:
            raise GameOver(_("This game is over."))
        if expected_ply is not None and expected_ply != self.ply:
            raise StaleBoard(self.stale_text())
        seat = self._record.seat_of(user_id)
        if seat is None:
            raise NotAPlayer(self.not_playing_text())
        return seat

    def seat_to_act(self, user_id: int, *, expected_ply: int | None = None) -> int:
        """The seat `user_id` plays if they may act now; otherwise raise a Refusal."""
        seat = self.player_seat(user_id, expected_ply)
        if self._record.seats[seat].stand_in is not None:
            raise Refusal(_("You left this game: 🤖 the AI plays your seat until the end."))
        mover = self._state.current_player
        if mover != seat:
            if mover is not None and mover >= 0:
                raise NotYourTurn(_("It is {name}'s turn, not yours.").format(
                    name=escape_markdown(self.names[mover])))
            raise NotYourTurn(_("It is nobody's turn, not yours."))
        return seat

    def not_playing_text(self) -> str:
        """What a member without a seat hears when they try to act."""
        return _("You are not playing in {title}.").format(title=marked_title(self))

    def stale_text(self) -> str:
        """Why a component of an older board does nothing, with where to go instead."""
        link = None if self.board_behind else self.board_link()
        if link:
            return _("This board is out of date: a move was played since. Use the latest "
                     "board: {link}").format(link=link)
        return _("This board is out of date: a move was played since. Use `/board` to see "
                 "it.")

    def board_link(self) -> str | None:
        """A link to the live board message, when known."""
        if self._record.board_message_id is None:
            return None
        return message_link(self._record.guild_id, self._record.channel_id,
                            self._record.board_message_id)

    def over_text(self) -> str:
        """What a click on a finished game's controls hears."""
        result = self.result()
        if result is None:
            return _("This game is over.")
        return _("This game is over. {result}").format(result=self.ui.result_text(self, result))

    # -- actions -------------------------------------------------------------------------

    async def play(self, user_id: int, move: str, *, expected_ply: int | None = None,
                   sent_as: int | None = None,
                   interaction: discord.Interaction[Any] | None = None) -> Turn:
        """Apply a player's move, then every automatic step after it; store, then announce.

        `expected_ply` binds a click to the board it was drawn for. `sent_as` (the snowflake
        of a typed command) binds a typed move to the board its author could see: a command
        sent before the current position was shown is stale, so the same `/move` arriving
        twice is played once. Raises a Refusal or IllegalMove (nothing changed) when the
        move may not be made. The `interaction` that made the move (answered already) shows
        its boards, sparing the bot's rate limit (see `InteractionPublisher`).
        """
        async with self.lock:
            if sent_as is not None and self._shown_since is not None \
                    and sent_as < self._shown_since:
                raise StaleBoard(_("A move was played while you were typing yours: look at "
                                   "the new board, then play again."))
            seat = self.seat_to_act(user_id, expected_ply=expected_ply)
            via = None if interaction is None else InteractionPublisher(interaction,
                                                                        self.publisher)
            return await self._apply(seat, user_id, move, via)

    async def _apply(self, seat: int, actor: int, move: str,
                     via: Publisher | None = None) -> Turn:
        """Play `move` for `seat` (the lock is held), then the automatic steps; store, announce."""
        work = self._state.clone()
        applied = work.apply(move)  # IllegalMove leaves self.state untouched
        moves = [NewMove(seat, actor, MoveKind.PLAYER, str(applied))]
        moves += automatic_steps(work, self._record, self.ply + 1, self.ui)
        turn = Turn(moves, work)
        await self._store(turn, work.result())
        stored_move.set(str(applied))
        return await self._announce(turn, via)

    async def _close_offer(self, offerer: int, outcome: DrawOutcome,
                           via: Publisher | None = None) -> None:
        """Say on the offer's message how it ended, without its buttons (best effort)."""
        message, self._draw_message = self._draw_message, None
        if message is None:
            return
        with use_language(await self.public_language()):
            text = outcome_text(self, offerer, outcome)
        await self._close_notice(message, text, via)

    # -- who is still there --------------------------------------------------------------

    def is_ai_seat(self, seat: int) -> bool:
        """True when the AI plays `seat`: an AI player, or a stand-in for one who left."""
        player = self._record.seats[seat]
        return player.stand_in is not None or is_ai(player.user_id)

    def present_seats(self, *, besides: int | None = None) -> list[int]:
        """Seats still played by a person (other than `besides`)."""
        return [s.seat for s in self._record.seats
                if s.seat != besides and not self.is_ai_seat(s.seat)]

    async def resign(self, user_id: int) -> Turn:
        """The user gives up: every other seat wins; in a game of 3 or more where someone else
        still plays, the AI takes the seat instead and the game goes on."""
        async with self.lock:
            if self.is_over:
                raise GameOver(_("This game is already over."))
            seat = self._record.seat_of(user_id)
            if seat is None:
                raise NotAPlayer(self.not_playing_text())
            if self._record.seats[seat].stand_in is not None:
                raise Refusal(_("You already left this game: 🤖 the AI plays your seat."))
            if leaves_instead_of_resigning(self._record):  # as the prompt and button say
                return await self._hand_to_ai(seat, LEFT, unrated=False)
            winners = [s for s in range(self._state.num_players) if s != seat]
            turn = Turn([NewMove(seat, user_id, MoveKind.RESIGN, "resign")], self._state)
            await self._store(turn, Result(winners, None, EndReason.RESIGNED))
            return await self._announce(turn)

    async def _close_request(self, message: int, asker: int, outcome: TakebackOutcome,
                             via: Publisher | None = None) -> None:
        """Say on the request's message how it ended, without its buttons (best effort)."""
        with use_language(await self.public_language()):
            text = request_outcome_text(self, asker, outcome)
        await self._close_notice(message, text, via)

    async def _close_notice(self, message: int, text: str, via: Publisher | None) -> None:
        """Put `text` in place of an offer's or a request's message and its buttons (best
        effort: what it offered has ended all the same)."""
        try:
            await (via or self.publisher).edit(self._record.channel_id, message,
                                               Post(content=text))
        except PublishFailed:
            log.info("game %s: could not close the notice %s", self.id, message)

    async def _hand_to_ai(self, seat: int, why: str, *, unrated: bool) -> Turn:
        """Give `seat` to the AI for the rest of the game (the lock is held); log it, announce."""
        user = self._record.user_at(seat)
        turn = Turn([NewMove(seat, user, MoveKind.LEAVE, why)], self._state)
        await self._store(turn, None, stand_ins={seat: STAND_IN_LEVEL}, unrated=unrated)
        return await self._announce(turn)

    def _turn_clock(self, state: AnyState, ply: int, now: datetime,
                    stand_ins: Mapping[int, str] | None = None,
                    ) -> tuple[datetime | None, list[NewTimer]]:
        """The deadline and timers of the move at `ply` (none for the AI, or a finished game)."""
        seat = state.current_player
        if state.is_over() or seat is None or seat < 0:
            return None, []
        if self.is_ai_seat(seat) or seat in (stand_ins or {}):
            return None, []
        return turn_timers(self._record.clock, ply, seat, self.turn_starts(seat, now))

    def _clock_running_on(self, seat: int, ply: int, now: datetime,
                          ) -> tuple[datetime | None, list[NewTimer]]:
        """The current deadline of `seat`, with its timers moved to `ply`: those still to
        come, and the timeout even if due (it has not acted yet, as `seat` still moves)."""
        deadline = self._record.deadline
        per_move = clock_spec(self._record.clock).per_move
        if deadline is None or per_move is None:
            return None, []
        kept, timers = turn_timers(self._record.clock, ply, seat, deadline - per_move)
        return kept, [timer for timer in timers
                      if timer.event is TimerEvent.TIMEOUT or timer.due_at > now]

    def turn_starts(self, seat: int, now: datetime) -> datetime:
        """When the time of `seat`'s move begun at `now` starts: when its member is back if
        they are away and the clock waits for them (`/away`), else now."""
        if not clock_spec(self._record.clock).waits_for_absent:
            return now
        return self.absences.until(self._record.user_at(seat), now) or now

    async def abort_voters(self) -> set[int]:
        """The players who asked to abort this game (stored: a restart keeps them)."""
        return await self.db.abort_votes(self.id)

    def abort_missing(self, voters: set[int]) -> list[int]:
        """The seats whose agreement to abort is missing (the AI agrees by itself)."""
        return [s.seat for s in self._record.seats
                if s.user_id not in voters and not self.is_ai_seat(s.seat)]

    async def ask_to_abort(self, user_id: int) -> list[int]:
        """Record a player's wish to abort; the seats whose agreement is still missing."""
        await self.db.add_abort_vote(self.id, user_id)
        return self.abort_missing(await self.abort_voters())

    async def abort(self, by: str) -> None:
        """Cancel the game (no result, no rating): store it, post a notice, retire the board.

        `by` is who aborted it: a member's mention, or `ALL_PLAYERS`; the notice is written in
        the server's language."""
        async with self.lock:
            if self.is_over:
                raise GameOver(_("This game is already over."))
            if not await self.db.abort_game(self.id, now=utcnow()):
                await self._reload()  # it ended meanwhile (another process, or a race)
                raise GameOver(_("This game is already over."))
            self._record.status = GameStatus.ABORTED
            channel = self._record.channel_id
            with use_language(await self.public_language()):
                if by == ALL_PLAYERS:
                    notice = _("🛑 **{title}** was aborted by all its players. It counts for "
                               "no rating.").format(title=marked_title(self))
                else:
                    notice = _("🛑 **{title}** was aborted by {by}. It counts for no "
                               "rating.").format(title=marked_title(self), by=by)
            try:
                await self.publisher.post(channel, Post(notice))
            except PublishFailed:
                log.exception("game %s: could not announce the abort", self.id)
            if self._record.board_message_id is not None:
                await self._retire(self._record.board_message_id)
            self.game_ended(self._record)

    async def advance(self) -> Turn | None:
        """Play pending chance outcomes and forced moves (after a start or a restart)."""
        async with self.lock:
            if self.is_over:
                return None
            work = self._state.clone()
            moves = automatic_steps(work, self._record, self.ply, self.ui)
            if not moves:
                return None
            turn = Turn(moves, work)
            await self._store(turn, work.result())
            return await self._announce(turn)

    async def repost(self) -> str:
        """Post the live board again at the bottom of the thread; return its link.

        Raises a Refusal saying why when Discord does not take it (a missing permission...).
        """
        async with self.lock:
            try:
                message_id = await self.post_board(repost=True)
            except PublishFailed as failure:
                if failure.problem is Problem.CHANNEL_GONE:
                    await self._abort_orphan()
                    raise GameOver(_("This game's thread was deleted, so the game was "
                                     "aborted.")) from failure
                if self.board_behind:
                    self.mend_later()
                where = f"<#{self._record.channel_id}>"
                text = why_no_board(failure, where)
                raise Refusal(text[0].upper() + text[1:]) from failure
        return message_link(self._record.guild_id, self._record.channel_id, message_id)

    async def _store(self, turn: Turn, result: Result | None, *,
                     stand_ins: Mapping[int, str] | None = None, unrated: bool = False) -> None:
        """Commit the turn, guarded by the ply it was computed from; then adopt it.

        The same write gives the next move its deadline and timers (or, at the end, the
        timer that archives the thread), hands seats to the AI and unrates the game.
        """
        now = utcnow()
        new_ply = self.ply + len(turn.moves)
        mover = self._state.current_player
        deadline: datetime | None
        timers: list[NewTimer]
        if result is not None:
            deadline, timers = None, []
        elif mover is not None and turn.state.current_player == mover \
                and only_others_left(turn, mover) and self._record.deadline is not None:
            # Someone else left: not a new decision for the player to move, whose time runs on.
            deadline, timers = self._clock_running_on(mover, new_ply, now)
        else:
            deadline, timers = self._turn_clock(turn.state, new_ply, now, stand_ins)
        if result is not None and self.archive_after is not None \
                and self._record.parent_id is not None:  # only the game's own thread
            timers = [NewTimer(TimerEvent.ARCHIVE, now + self.archive_after, new_ply)]
        state = turn.state.dump()  # once: the stored and the held record are the same
        offer = self._record.draw_offer
        # An offer lapses when the other player decides instead of answering, when a seat
        # goes to the AI, and at the end.
        ends_offer = offer is not None and (result is not None or bool(stand_ins) or any(
            move.kind is MoveKind.PLAYER and move.seat != offer for move in turn.moves))
        try:
            ply = await self.db.record_moves(
                self.id, self.ply, turn.moves, state,
                result=dict(result.to_dict()) if result else None, now=now,
                deadline=deadline, timers=timers, stand_ins=stand_ins, unrated=unrated,
                to_move=turn.state.current_player, clear_draw_offer=ends_offer,
            )
        except StaleGame as error:  # someone else wrote this game: reload, refuse
            await self._reload()
            raise StaleBoard(self.stale_text()) from error
        self._state = turn.state
        self._count(turn, result)
        self._record.ply = ply
        self._record.updated_at = now
        self._record.state = state
        self._record.deadline = deadline
        if ends_offer and offer is not None:  # (ends_offer implies an offer: for mypy)
            self._record.draw_offer = None
            self._offer_ended = (offer, DrawOutcome.LAPSED if result is None
                                 else DrawOutcome.ENDED)
        for seat, level in (stand_ins or {}).items():
            self._record.seats[seat] = replace(self._record.seats[seat], stand_in=level)
        if unrated:
            self._record.rated = False
        if result is not None:
            self._record.status = GameStatus.FINISHED
            self._record.result = dict(result.to_dict())
            self._record.finished_at = now
        if timers:
            self.timers_changed(earliest_due(timers))

    def _count(self, turn: Turn, result: Result | None) -> None:
        """Count the stored decisions and the end, for the operator's metrics."""
        game = self._record.game
        for move in turn.moves:
            if move.kind is MoveKind.PLAYER:
                by_ai = move.user_id is not None and is_ai(move.user_id)
                MOVES.labels(game, "ai" if by_ai else "member").inc()
        if result is not None:
            GAMES_FINISHED.labels(game, result.reason.value).inc()

    async def catch_up(self, ply: int) -> None:
        """A control was drawn for `ply`, beyond what this process knows: another process
        (sharing the database) played since this one loaded the game, so read it again."""
        if ply > self.ply:
            async with self.lock:
                await self._reload()

    async def _reload(self) -> None:
        fresh = await self.db.get_game(self.id)
        if fresh is not None:
            self._record = fresh
            self._state = GAMES[fresh.game].load(fresh.state)

    # -- announcing ------------------------------------------------------------------------

    @property
    def board_behind(self) -> bool:
        """True when the thread's board does not show the stored position."""
        return self._record.status is not GameStatus.ABORTED and (
            self._record.board_message_id is None or self._record.board_ply != self.ply)

    async def _announce(self, turn: Turn, via: Publisher | None = None) -> Turn:
        """Post the new board and what the game adds (the move is stored already).

        Discord failing must not undo a stored move: the board is posted again later (or
        the game is aborted when its thread is gone), and the mover hears what happened.
        """
        note = None
        if self._timeout_choice is not None:  # the absent player came back: no choice left
            await self._retire(self._timeout_choice)
            self._timeout_choice = None
        if self._offer_ended is not None:  # (an agreed draw closed its offer already)
            (offerer, outcome), self._offer_ended = self._offer_ended, None
            await self._close_offer(offerer, outcome)
        if self._takeback_asked is not None and self._takeback_asked[0] != self.ply:
            (_ply, asker, request), self._takeback_asked = self._takeback_asked, None
            await self._close_request(request, asker, TakebackOutcome.LAPSED)
        language = await self.public_language()
        try:
            self._shown_since = await self.show_turn(turn, via)
        except PublishFailed as failure:
            # No board to date the position by: "now" will do.
            self._shown_since = discord.utils.time_snowflake(utcnow(), high=True)
            log.warning("game %s: could not announce ply %s: %s", self.id, self.ply, failure)
            note = await self._board_failed(failure)
        if self._record.status is not GameStatus.ABORTED:
            with use_language(language):
                notices = self.ui.after_announce(self, turn)
            for notice in notices:
                await self._deliver(notice, language)
        self.schedule_ai()
        if self._record.status is GameStatus.FINISHED:
            self.game_ended(self._record)
        return replace(turn, note=note) if note else turn

    # -- the AI's turns ----------------------------------------------------------------------

    def ai_to_move(self) -> bool:
        """True when an AI seat must decide now."""
        seat = self._state.current_player
        return (self.thinker is not None and not self.is_over and seat is not None
                and seat >= 0 and self.is_ai_seat(seat))

    def _ai_of(self, seat: int) -> tuple[int, str]:
        """Who the AI at `seat` is (its id in the log) and its level."""
        player = self._record.seats[seat]
        if player.stand_in is not None:
            return ai_user_id(player.stand_in, seat), player.stand_in
        return player.user_id, level_of(player.user_id)

    def schedule_ai(self) -> None:
        """Let the AI play in the background when it is its turn (one task at a time)."""
        running = self._ai_task is not None and not self._ai_task.done()
        if not self.ai_to_move() or (running and self._ai_task is not asyncio.current_task()):
            return
        self._ai_task = asyncio.create_task(self._ai_turn(), name=f"ai-turn-{self.id}")

    async def _ai_turn(self) -> None:
        """Think off the event loop (a typing notice if it takes a moment), then play."""
        assert self.thinker is not None
        ply, seat = self.ply, self._state.current_player
        assert seat is not None
        actor, level = self._ai_of(seat)
        thinking = asyncio.ensure_future(self.thinker.choose(
            self._record.game, self._state.dump(), level, ai_seed(self._record.rng_seed, ply)))
        try:
            with timed(AI_SECONDS, self._record.game, level):
                done, _pending = await asyncio.wait({thinking}, timeout=THINKING_NOTICE_AFTER)
                if not done:
                    await self._typing()
                try:
                    move = await thinking
                except Exception:  # a bug in the AI for this position, a worker gone
                    log.exception("game %s: the AI could not think at ply %s: it plays a "
                                  "random legal move instead", self.id, ply)
                    move = self._fallback_move(ply)
            async with self.lock:
                if self.is_over or self.ply != ply:
                    # The game moved on meanwhile (a take-back, a player who left, an abort):
                    # this move is stale, but the AI may be to move again. Only this task can
                    # start that turn, as `schedule_ai` leaves a thinking task alone.
                    self.schedule_ai()
                    return
                await self._apply(seat, actor, move)
        except (StaleBoard, GameOver, NotYourTurn):
            self.schedule_ai()  # as above: the game moved on while the AI thought
            return
        except Exception:
            log.exception("game %s: the AI could not play ply %s", self.id, ply)
        finally:
            # Stopped while thinking (the game's thread deleted, the bot closing): the worker
            # need not finish a move nobody will play.
            thinking.cancel()

    def _fallback_move(self, ply: int) -> str:
        """A legal move drawn from the game's seed: a game never waits on an AI that failed."""
        rng = random.Random(ai_seed(self._record.rng_seed, ply) + ":fallback")
        return str(rng.choice(self._state.legal_moves()))

    async def _typing(self) -> None:
        try:
            await self.publisher.typing(self._record.channel_id)
        except PublishFailed:
            log.info("game %s: could not show that the AI is thinking", self.id)

    def stop_ai(self) -> None:
        """Cancel the AI's thinking (the bot is closing; the next start resumes it)."""
        if self._ai_task is not None:
            self._ai_task.cancel()

    async def _board_failed(self, failure: PublishFailed) -> str:
        """React to a board Discord did not take; what to tell the player who moved."""
        where = f"<#{self._record.channel_id}>"
        if failure.problem is Problem.CHANNEL_GONE:
            await self._abort_orphan()
            return _("This game's thread was deleted, so the game was aborted; it counts for "
                     "no rating.")
        self.mend_later()
        return _("Your move stands, but {reason}").format(reason=why_no_board(failure, where))

    async def home_deleted(self) -> bool:
        """Its thread (or channel) was deleted, or the bot left its server: abort the game,
        unrated, and stop what it had running; True if this ended it."""
        async with self.lock:
            if self.is_over:
                return False
            self.stop_ai()
            self.stop_mending()
            await self._abort_orphan()
            return self.is_over

    async def _abort_orphan(self) -> None:
        """The game's thread is gone: end the game unrated rather than leave it running."""
        if await self.db.abort_game(self.id, now=utcnow()):
            self._record.status = GameStatus.ABORTED
            log.warning("game %s: its thread or server is gone; aborted", self.id)
            self.game_ended(self._record)

    def mend_later(self) -> None:
        """Try to post the board again after a while, until the thread shows it."""
        if self._mender is None or self._mender.done():
            self._mender = asyncio.create_task(self._mend_with_backoff(),
                                               name=f"mend-board-{self.id}")

    async def _mend_with_backoff(self) -> None:
        for delay in MEND_DELAYS:
            await asyncio.sleep(delay)
            if await self.mend_board():
                return
        log.warning("game %s: board still behind after %d tries; the next start or /board "
                    "will post it", self.id, len(MEND_DELAYS))

    async def mend_board(self) -> bool:
        """Post the board again if the thread's one is behind; True once it is current."""
        async with self.lock:
            if not self.board_behind:
                return True
            try:
                self._shown_since = await self.post_board()
            except PublishFailed as failure:
                if failure.problem is Problem.CHANNEL_GONE:
                    await self._abort_orphan()
                    return True
                log.info("game %s: board still not posted: %s", self.id, failure)
                return False
            return True

    def stop_mending(self) -> None:
        """Cancel a pending retry (the bot is closing; the next start reconciles)."""
        if self._mender is not None:
            self._mender.cancel()

    async def _deliver(self, notice: Notice | PrivateNote, language: Language) -> None:
        """Post a notice (written in the server's `language`), or DM private information in
        its member's language (in the thread, in the server's, if their DMs are closed)."""
        channel = self._record.channel_id
        try:
            if isinstance(notice, Notice):
                await self.publisher.post(channel, Post(embed=notice.embed))
                return
            try:
                with use_language(await self.languages.of_member(notice.user_id)):
                    text = notice.text()
                await self.publisher.direct_message(notice.user_id, text)
            except PublishFailed:
                log.info("game %s: could not DM %s", self.id, notice.user_id)
                with use_language(language):
                    fallback = notice.fallback()
                await self.publisher.post(channel, Post(
                    fallback, mentions=discord.AllowedMentions(users=True)))
        except PublishFailed:
            log.exception("game %s: could not deliver a notice", self.id)

    def addressee(self) -> int | None:
        """The person a board is for: the seat to move if a person plays it, else None."""
        seat = self._state.current_player
        if self.is_over or seat is None or seat < 0 or self.is_ai_seat(seat):
            return None
        return seat

    async def show_turn(self, turn: Turn, via: Publisher | None = None) -> int:
        """Show a stored action: edit the board in place while its person is still the one
        to act (or an AI is), so a turn has one board and one ping; post a new board once
        the turn passes to another person, or at the end. Returns a snowflake dating the
        position."""
        board = self._record.board_message_id
        addressee = self.addressee()
        actor = next((m.seat for m in turn.moves if m.seat is not None), None)
        # The same person goes on with their turn, or an AI plays, or others only left while
        # the same person is to move: the board stays.
        same_turn = not self.is_over and self._board_for is not None and (
            addressee is None or addressee == actor == self._board_for
            or (addressee == self._board_for and only_others_left(turn, addressee)))
        if board is not None and same_turn and \
                self._record.board_ply == self.ply - len(turn.moves):
            try:
                await self._edit_board(board, self._board_for, via)
                # Commands sent from now on see this position (an edit has no new id).
                return discord.utils.time_snowflake(utcnow(), high=True)
            except PublishFailed as failure:
                if failure.problem is not Problem.MESSAGE_GONE:
                    raise
        return await self.post_board(addressee if addressee is not None else actor, via=via)

    async def _board_content(self, seat: int | None, *, repost: bool = False) -> Post:
        """The board for `seat`: what it has not seen since its last turn, and the picture,
        in the server's language."""
        shown: Sequence[NewMove] = []
        decisions = 0
        if seat is not None:
            log_moves, decisions = await self.db.turn_log(self.id, seat)
            taken_back = [i for i, m in enumerate(log_moves) if m.kind is MoveKind.TAKEBACK]
            if taken_back:  # what came before a take-back is no longer on the board
                log_moves = log_moves[taken_back[-1]:]
            shown = [NewMove(m.seat, m.user_id, m.kind, m.move) for m in log_moves]
        changes = await self.rating_changes()
        bests = await self.db.bests_before(self.id, server_scope(self._record.guild_id)) \
            if changes else {}
        seats = [(s.user_id, name) for s, name in zip(self._record.seats, self.names,
                                                        strict=True)]
        with use_language(await self.public_language()):
            png = await draw_board(self, last_shown_move(shown))
            return board_post(self, self.ui, shown, png, decisions=decisions,
                              show_options=repost or decisions == 0, rating_changes=changes,
                              best_names=new_bests(seats, changes, bests))

    async def rating_changes(self) -> Mapping[int, RatingChange]:
        """What this game did to its players' ratings on its server, by rated id: nothing
        while it runs, when it counts for no rating, or until it is rated."""
        if self._record.status is not GameStatus.FINISHED or not self._record.rated:
            return {}
        return await self.db.rating_changes(self.id, server_scope(self._record.guild_id))

    async def public_language(self) -> Language:
        """The language of the game's public messages and pictures: its server's."""
        return await self.languages.of_server(self._record.guild_id)

    async def _edit_board(self, message_id: int, seat: int | None,
                          via: Publisher | None = None) -> None:
        post = await self._board_content(seat)
        await (via or self.publisher).edit(self._record.channel_id, message_id, post)
        await self.db.set_board_message(self.id, message_id, self.ply)
        self._record.board_ply = self.ply

    async def post_board(self, seat: int | None = None, *, repost: bool = False,
                         via: Publisher | None = None) -> int:
        """Post the current board for `seat` (default: the person to move) with its live
        components; retire the previous board's (through `via` when given)."""
        seat = self.addressee() if seat is None else seat
        if seat is None:  # an AI to move, or the end: the last person who acted
            seat = self._board_for
        if seat is None and self.is_over:  # the final board, after a restart
            seat = await self._last_actor()
        post = await self._board_content(seat, repost=repost)
        previous = self._record.board_message_id
        message_id = await (via or self.publisher).post(self._record.channel_id, post)
        await self.db.set_board_message(self.id, message_id, self.ply)
        self._record.board_message_id = message_id
        self._record.board_ply = self.ply
        self._board_for = seat
        if previous is not None:
            await self._retire(previous, via)
        return message_id

    async def _last_actor(self) -> int | None:
        """The seat of the last move in the log made by a seat (not chance)."""
        seats = [m.seat for m in await self.db.moves(self.id) if m.seat is not None]
        return next((seat for seat in reversed(seats) if seat >= 0), None)

    async def _retire(self, message_id: int, via: Publisher | None = None) -> None:
        """Strip the components from a superseded board (best effort: the ply check remains)."""
        try:
            await (via or self.publisher).remove_components(self._record.channel_id, message_id)
        except PublishFailed:
            log.info("game %s: could not retire board message %s", self.id, message_id)
