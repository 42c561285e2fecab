"""Game sessions: the one place where an engine, its storage and Discord meet.

Every action follows the same order: load, lock, apply (on a copy), store, then announce.
A move is committed to the database before anyone hears of it, so a crash between the two
loses nothing: the next start re-announces from storage.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import GameOver, NotAPlayer, NotYourTurn, StaleBoard
from engines import CHANCE, GAMES, GameState, Result
from storage import Database, GameRecord, GameStatus, MoveKind, NewMove, StaleGame

if TYPE_CHECKING:
    from bot.client import Ludotheque
    from bot.games.base import GameUI

log = logging.getLogger(__name__)

MAX_AUTOMATIC_STEPS = 10_000
"""Chance outcomes and forced moves applied in a row before giving up (a safety net)."""


def chance_rng(seed: int, ply: int) -> random.Random:
    """The RNG for the random event at `ply`: one per ply, so a replay needs only the seed."""
    return random.Random(f"{seed}:{ply}")


def sample_outcome(state: GameState, rng: random.Random) -> Any:
    """Draw a chance outcome with its engine-given probability."""
    outcomes = state.chance_outcomes()
    return rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]


@dataclass(frozen=True)
class Turn:
    """What one action changed: the moves logged, in order, and the state after them."""

    moves: list[NewMove]
    state: GameState


class GameSession:
    """A running (or just finished) game held in memory, with its lock."""

    def __init__(self, bot: Ludotheque, record: GameRecord, state: GameState) -> None:
        self.bot = bot
        self.record = record
        self.state = state
        self.lock = asyncio.Lock()
        self.abort_votes: set[int] = set()
        """Players who asked to abort (kept in memory: a restart forgets the votes)."""

    # -- what the UI asks -----------------------------------------------------------

    @property
    def id(self) -> int:
        """The game id."""
        return self.record.id

    @property
    def ply(self) -> int:
        """How many moves are logged; components carry it to detect stale boards."""
        return self.record.ply

    @property
    def ui(self) -> GameUI:
        """The game's Discord controls."""
        from bot.games import PLAYABLE

        return PLAYABLE[self.record.game]

    @property
    def is_over(self) -> bool:
        """True once the game has a result (or was aborted)."""
        return self.record.status is not GameStatus.RUNNING

    @property
    def names(self) -> list[str]:
        """Display names by seat."""
        return [seat.display_name for seat in self.record.seats]

    @property
    def title(self) -> str:
        """`Qawale · Alice vs Bob`, also the thread's name."""
        return game_title(self.record.game, self.names)

    def mention(self, seat: int) -> str:
        """A mention of the user at `seat`."""
        return f"<@{self.record.user_at(seat)}>"

    def result(self) -> Result | None:
        """The stored result (resignations included), or None while running."""
        data = self.record.result
        return Result(list(data["winners"]), data["scores"], data["reason"]) if data else None

    def seat_to_act(self, user_id: int, *, expected_ply: int | None = None) -> int:
        """The seat `user_id` plays if they may act now; otherwise raise a Refusal."""
        if self.is_over:
            raise GameOver("This game is over.")
        if expected_ply is not None and expected_ply != self.ply:
            raise StaleBoard(self.stale_text())
        seat = self.record.seat_of(user_id)
        if seat is None:
            raise NotAPlayer(f"You are not playing in {self.title}.")
        if self.state.current_player != seat:
            mover = self.state.current_player
            whose = self.names[mover] if mover is not None and mover >= 0 else "nobody"
            raise NotYourTurn(f"It is {whose}'s turn, not yours.")
        return seat

    def stale_text(self) -> str:
        """Why a component of an older board does nothing, with where to go instead."""
        link = self.board_link()
        where = f" Use the latest board: {link}" if link else " Use `/board` to see it."
        return f"This board is out of date: a move was played since.{where}"

    def board_link(self) -> str | None:
        """A link to the live board message, when known."""
        if self.record.board_message_id is None:
            return None
        guild = self.record.guild_id or "@me"
        return (f"https://discord.com/channels/{guild}/{self.record.channel_id}/"
                f"{self.record.board_message_id}")

    # -- actions -------------------------------------------------------------------

    async def play(self, user_id: int, move: Any, *, expected_ply: int | None = None) -> Turn:
        """Apply a player's move, then every automatic step after it; store, then announce.

        Raises a Refusal or IllegalMove (nothing changed) when the move may not be made.
        """
        async with self.lock:
            seat = self.seat_to_act(user_id, expected_ply=expected_ply)
            work = self.state.clone()
            applied = work.apply(move)  # IllegalMove leaves self.state untouched
            moves = [NewMove(seat, user_id, MoveKind.PLAYER, str(applied))]
            moves += self._automatic_steps(work, self.ply + 1)
            turn = Turn(moves, work)
            await self._store(turn, work.result())
            await self._announce(turn)
            return turn

    async def resign(self, user_id: int) -> Turn:
        """The user gives up: every other seat wins."""
        async with self.lock:
            if self.is_over:
                raise GameOver("This game is already over.")
            seat = self.record.seat_of(user_id)
            if seat is None:
                raise NotAPlayer(f"You are not playing in {self.title}.")
            winners = [s for s in range(self.state.num_players) if s != seat]
            turn = Turn([NewMove(seat, user_id, MoveKind.RESIGN, "resign")], self.state)
            await self._store(turn, Result(winners, None, "resigned"))
            await self._announce(turn)
            return turn

    async def abort(self, by: str) -> None:
        """Cancel the game (no result, no rating): store it, post a notice, retire the board."""
        async with self.lock:
            if self.is_over:
                raise GameOver("This game is already over.")
            if not await self.bot.db.abort_game(self.id, now=discord.utils.utcnow()):
                fresh = await self.bot.db.get_game(self.id)
                if fresh is not None:
                    self._replace(fresh)
                raise GameOver("This game is already over.")
            self.record.status = GameStatus.ABORTED
            try:
                channel = await self.channel()
                await channel.send(f"🛑 **{self.title}** was aborted by {by}. "
                                   "It counts for no rating.")
                if self.record.board_message_id is not None:
                    await self._retire(channel, self.record.board_message_id)
            except discord.HTTPException:
                log.exception("game %s: could not announce the abort", self.id)

    async def advance(self) -> Turn | None:
        """Play pending chance outcomes and forced moves (after a start or a restart)."""
        async with self.lock:
            if self.is_over:
                return None
            work = self.state.clone()
            moves = self._automatic_steps(work, self.ply)
            if not moves:
                return None
            turn = Turn(moves, work)
            await self._store(turn, work.result())
            await self._announce(turn)
            return turn

    def _automatic_steps(self, work: GameState, ply: int) -> list[NewMove]:
        """Resolve chance nodes and single forced moves on `work`, for the game at `ply`."""
        return automatic_steps(work, self.record, ply)

    async def _store(self, turn: Turn, result: Result | None) -> None:
        try:
            ply = await self.bot.db.record_moves(
                self.id, self.ply, turn.moves, turn.state.dump(),
                result=result.to_dict() if result else None, now=discord.utils.utcnow(),
            )
        except StaleGame as error:  # someone else wrote this game: reload, refuse
            fresh = await self.bot.db.get_game(self.id)
            if fresh is not None:
                self._replace(fresh)
            raise StaleBoard(self.stale_text()) from error
        self.state = turn.state
        self.record.ply = ply
        self.record.state = turn.state.dump()
        if result is not None:
            self.record.status = GameStatus.FINISHED
            self.record.result = result.to_dict()

    def _replace(self, record: GameRecord) -> None:
        self.record = record
        self.state = GAMES[record.game].load(record.state)

    # -- announcing ----------------------------------------------------------------

    async def channel(self) -> discord.abc.Messageable:
        """The thread or channel the game runs in."""
        channel = self.bot.get_channel(self.record.channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(self.record.channel_id)
        return channel  # type: ignore[return-value]

    async def _announce(self, turn: Turn) -> None:
        # The move is already stored: a failure here must not undo it; /board recovers.
        try:
            await self.post_board(turn.moves)
            await self.ui.after_announce(self, turn)
        except discord.HTTPException:
            log.exception("game %s: could not announce ply %s", self.id, self.ply)

    async def post_board(self, moves: Sequence[NewMove] = ()) -> discord.Message:
        """Post the current board with its live components; retire the previous board's."""
        from bot.board import board_message, draw_board, last_shown_move

        shown = list(moves) or [m for m in await self.bot.db.moves(self.id)
                                if m.kind is not MoveKind.RESIGN][-1:]
        png = await draw_board(self, last_shown_move(shown))  # type: ignore[arg-type]
        channel = await self.channel()
        previous = self.record.board_message_id
        message = await channel.send(**board_message(self, moves, png))
        await self.bot.db.set_board_message(self.id, message.id)
        self.record.board_message_id = message.id
        if previous is not None:
            await self._retire(channel, previous)
        return message

    async def _retire(self, channel: discord.abc.Messageable, message_id: int) -> None:
        """Strip the components from a superseded board (best effort: the ply check remains)."""
        try:
            partial = channel.get_partial_message(message_id)  # type: ignore[attr-defined]
            await partial.edit(view=None)
        except (discord.HTTPException, AttributeError):
            log.info("game %s: could not retire board message %s", self.id, message_id)


def automatic_steps(work: GameState, record: GameRecord, ply: int) -> list[NewMove]:
    """Play chance outcomes (drawn from the game's seed) and forced moves until a choice.

    The outcome at each ply comes from `chance_rng(seed, ply)`, so the same seed and the same
    player moves always give the same game: a replay needs only the log, or the seed.
    """
    moves: list[NewMove] = []
    for _ in range(MAX_AUTOMATIC_STEPS):
        if work.is_over():
            return moves
        player = work.current_player
        if player == CHANCE:
            outcome = sample_outcome(work, chance_rng(record.rng_seed, ply + len(moves)))
            work.apply(outcome)
            moves.append(NewMove(None, None, MoveKind.CHANCE, str(outcome)))
            continue
        legal = work.legal_moves()
        if len(legal) != 1:
            return moves
        work.apply(legal[0])
        moves.append(NewMove(player, record.user_at(player), MoveKind.FORCED, str(legal[0])))
    raise RuntimeError(f"game {record.id}: more than {MAX_AUTOMATIC_STEPS} automatic steps")


def game_title(game_id: str, names: Sequence[str]) -> str:
    """`Qawale · Alice vs Bob` (at most 100 characters, Discord's limit for a thread name)."""
    title = f"{GAMES[game_id].name} · {' vs '.join(names)}"
    return title if len(title) <= 100 else title[:99] + "…"


class SessionManager:
    """Loads sessions from storage on demand and keeps one per game (one lock per game)."""

    def __init__(self, bot: Ludotheque, db: Database) -> None:
        self.bot = bot
        self.db = db
        self._sessions: dict[int, GameSession] = {}
        self._loading = asyncio.Lock()

    async def get(self, game_id: int) -> GameSession | None:
        """The session of this game, loaded from storage if needed."""
        session = self._sessions.get(game_id)
        if session is not None:
            return session
        async with self._loading:  # two first clicks must not build two sessions (two locks)
            session = self._sessions.get(game_id)
            if session is None:
                record = await self.db.get_game(game_id)
                if record is None:
                    return None
                session = self._adopt(record)
        return session

    async def in_channel(self, channel_id: int) -> GameSession | None:
        """The session of the game running in this channel or thread."""
        record = await self.db.running_game_in(channel_id)
        return await self.get(record.id) if record else None

    def _adopt(self, record: GameRecord) -> GameSession:
        session = GameSession(self.bot, record, GAMES[record.game].load(record.state))
        self._sessions[record.id] = session
        return session

    async def start(self, record: GameRecord) -> GameSession:
        """Open a new game's session, play its automatic first steps and post its board."""
        session = self._adopt(record)
        if await session.advance() is None:
            await session.post_board()
        return session

    async def resume_all(self) -> int:
        """After a start: load every running game and play any automatic step left pending."""
        records = await self.db.running_games()
        for record in records:
            session = await self.get(record.id)
            if session is not None:
                await session.advance()
        return len(records)
