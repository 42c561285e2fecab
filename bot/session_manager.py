"""The sessions in memory: loaded from storage on demand, the recently used ones kept, the
idle ones let go; resumed after a start, drained before a stop."""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from bot.absences import Absences
from bot.ai_players import Thinker
from bot.clock import utcnow
from bot.games.base import GameUI
from bot.languages import Languages
from bot.metrics import GAMES_STARTED
from bot.painter import Painter, ThreadPainter
from bot.publisher import Publisher
from bot.sessions import GameSession
from engines import GAMES
from storage import Database, GameRecord, GameStatus

SESSION_CAPACITY = 1000
"""Sessions kept in memory; past it, the least recently used idle ones are let go (their
games stay in storage and load again at the next click)."""

IDLE_SESSION_SECONDS = 600.0
"""A session nobody used for this long is let go too: most live games wait minutes to days
between moves, a held session costs about 9 KiB, and loading it again takes one read."""

FINAL_BOARD_WINDOW = timedelta(days=7)
"""A start posts the final board of a game that ended this recently without showing it (a
crash, or Discord failing); older games may predate the record of the board's ply."""

DRAIN_POLL_SECONDS = 0.02
"""How often a closing bot looks whether the actions in progress have finished."""


class SessionManager:
    """Loads sessions from storage on demand and keeps the recently used ones (one lock per
    game in memory; a ply-guarded write stops a second one anyway)."""

    def __init__(self, db: Database, uis: Mapping[str, GameUI[Any]],
                 publisher: Publisher, thinker: Thinker | None = None, *,
                 painter: Painter | None = None,
                 languages: Languages | None = None,
                 absences: Absences | None = None,
                 archive_after: timedelta | None = None,
                 capacity: int = SESSION_CAPACITY,
                 idle_after: float = IDLE_SESSION_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.db = db
        self.uis = uis
        self.publisher = publisher
        self.thinker = thinker
        self.painter = painter or ThreadPainter()
        self.languages = languages or Languages(db)
        self.absences = absences or Absences(db)
        self.archive_after = archive_after
        self.timers_changed: Callable[[datetime | None], None] = lambda _: None
        """Wakes the timer loop (set by the bot once the loop exists)."""
        self.game_ended: Callable[[GameRecord], None] = lambda _: None
        """Hears every game that ends (set by the bot: tournaments wait for their games)."""
        self.capacity = capacity
        self.idle_after = idle_after
        self._clock = clock
        self._sessions: OrderedDict[int, GameSession] = OrderedDict()
        """Game id → session, the least recently used first."""
        self._used: dict[int, float] = {}
        """Game id → when its session was last used (`clock` seconds)."""
        self._by_channel: dict[int, int] = {}
        """Channel → the game running there, for the sessions in memory (no read per /move)."""
        self._loading = asyncio.Lock()

    async def get(self, game_id: int) -> GameSession | None:
        """The session of this game, loaded from storage if needed."""
        session = self._sessions.get(game_id)
        if session is not None:
            self._touch(game_id)
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
        known = self._sessions.get(self._by_channel.get(channel_id, 0))
        if known is not None and not known.is_over:
            self._touch(known.id)
            return known
        record = await self.db.running_game_in(channel_id)
        return await self.get(record.id) if record else None

    async def final_board_behind_in(self, channel_id: int) -> GameSession | None:
        """The session of the last game of this channel or thread if it finished without
        its final board shown (a crash, or Discord failing longer than the retries)."""
        record = await self.db.last_game_in(channel_id)
        if record is None or record.status is not GameStatus.FINISHED:
            return None
        session = await self.get(record.id)
        return session if session is not None and session.board_behind else None

    async def game_ended_in(self, channel_id: int) -> bool:
        """True when the last game of this channel or thread has ended (its thread stays
        open a while after the end, and a command there should say so)."""
        record = await self.db.last_game_in(channel_id)
        return record is not None and record.status is not GameStatus.RUNNING

    async def channel_deleted(self, channel_id: int) -> int:
        """A channel or thread was deleted: abort the games that ran in it (or in its
        threads, which went with it); how many were aborted."""
        return await self._abort_homeless(await self.db.running_games_under(channel_id))

    async def server_left(self, guild_id: int) -> int:
        """The bot left a server (or was removed from it): abort the games running there,
        which can never be shown again; how many were aborted."""
        return await self._abort_homeless(await self.db.running_games_on_server(guild_id))

    async def _abort_homeless(self, records: Sequence[GameRecord]) -> int:
        """Abort these games, whose thread or server is gone; how many this ended."""
        aborted = 0
        for record in records:
            session = await self.get(record.id)
            if session is not None and await session.home_deleted():
                aborted += 1
        return aborted

    def _adopt(self, record: GameRecord) -> GameSession:
        session = GameSession(record, GAMES[record.game].load(record.state), db=self.db,
                              ui=self.uis[record.game], publisher=self.publisher,
                              thinker=self.thinker, painter=self.painter,
                              languages=self.languages, absences=self.absences,
                              archive_after=self.archive_after,
                              timers_changed=lambda due: self.timers_changed(due),
                              game_ended=lambda record: self.game_ended(record))
        self._sessions[record.id] = session
        if record.status is GameStatus.RUNNING:
            self._by_channel[record.channel_id] = record.id
        self._touch(record.id)
        return session

    def _touch(self, game_id: int) -> None:
        """The session was just used: it goes last in line; the ones left idle go."""
        self._sessions.move_to_end(game_id)
        self._used[game_id] = self._clock()
        self._evict()

    def _evict(self) -> None:
        """Let go the idle sessions unused for `idle_after` seconds, and the least recently
        used idle ones while there are more than `capacity`."""
        unused_since = self._clock() - self.idle_after
        leaving: list[int] = []
        for game_id, session in self._sessions.items():  # the least recently used first
            recent = self._used.get(game_id, unused_since) > unused_since
            if recent and len(self._sessions) - len(leaving) <= self.capacity:
                break  # the rest were used since: they stay
            if session.idle:
                leaving.append(game_id)
        for game_id in leaving:
            self._let_go(game_id)

    def _let_go(self, game_id: int) -> None:
        session = self._sessions.pop(game_id)
        self._used.pop(game_id, None)
        if self._by_channel.get(session.record.channel_id) == game_id:
            del self._by_channel[session.record.channel_id]

    def let_go_games_of(self, user_id: int) -> int:
        """Let go the finished games of `user_id` held in memory (they were forgotten: the
        next click reads them again, under their new name); how many."""
        leaving = [game_id for game_id, session in self._sessions.items()
                   if session.is_over and session.record.seat_of(user_id) is not None]
        for game_id in leaving:
            self._let_go(game_id)
        return len(leaving)

    def __len__(self) -> int:
        """Sessions in memory."""
        return len(self._sessions)

    def __contains__(self, game_id: object) -> bool:
        """True when the game's session is in memory."""
        return game_id in self._sessions

    async def start(self, record: GameRecord) -> GameSession:
        """Open a new game's session, play its automatic first steps and post its board."""
        GAMES_STARTED.labels(record.game).inc()
        session = self._adopt(record)
        await session.start_clock()  # before the board, which shows the deadline
        if await session.advance() is None:
            if not await session.mend_board():
                session.mend_later()
            session.schedule_ai()
        return session

    async def resume_all(self, owns: Callable[[int | None], bool] = lambda guild_id: True
                         ) -> int:
        """After a start: play any automatic step left pending, post every board that is
        behind the stored position (a crash between a move's store and its board, the final
        board of a game that just ended included), start clocks and let the AI move. Only
        the games that need one of these are loaded; the others load at their next click."""
        since = utcnow() - FINAL_BOARD_WINDOW
        records = [record for record in await self.db.games_to_resume(finished_since=since)
                   if owns(record.guild_id)]  # another process runs the other shards
        for record in records:
            session = await self.get(record.id)
            if session is None:
                continue
            await session.start_clock()
            if await session.advance() is None and session.board_behind \
                    and not await session.mend_board():
                session.mend_later()
            session.schedule_ai()  # an AI to move before the stop plays now
        return len(records)

    async def drain(self, within: float) -> int:
        """Wait up to `within` seconds for the actions in progress (a move being stored and
        shown) to finish, as the bot closes; how many games were still busy at the end."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while busy := sum(session.lock.locked() for session in self._sessions.values()):
            if loop.time() >= deadline:
                return busy
            await asyncio.sleep(DRAIN_POLL_SECONDS)
        return 0

    def close(self) -> None:
        """Stop pending board retries (the next start reconciles the boards)."""
        for session in self._sessions.values():
            session.stop_mending()
            session.stop_ai()
