"""The queries: games, moves, challenges, timers, settings and ratings, whatever the database.

Each query is a `storage.sql.Work` written once in SQL that SQLite and PostgreSQL both
understand; a backend (`storage.sqlite`, `storage.postgres`) runs it in a transaction or a read
snapshot. `Database.open(url)` picks the backend from the URL's scheme.
"""

from __future__ import annotations

import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, TypeVar

from storage.errors import DatabaseUnusable
from storage.migrations import MIGRATIONS, SCHEMA, Migration
from storage.models import (
    ALL_SHARDS,
    TURN_EVENTS,
    ChallengeRecord,
    ChallengeStatus,
    Climber,
    GameActivity,
    GameRecord,
    GameStatus,
    GameSummary,
    MoveKind,
    MoveRecord,
    NewTimer,
    RatingChange,
    RatingPoint,
    RatingRow,
    RunningGame,
    Seat,
    ServerActivity,
    Shards,
    Timer,
)
from storage.rating_writes import RATING_BATCH, TO_RATE, Rater, apply_ratings, rate_safely
from storage.rows import (
    RUNNING_COLUMNS,
    SUMMARY_COLUMNS,
    as_challenge,
    as_climber,
    as_move,
    as_rating,
    as_rating_change,
    as_rating_point,
    as_record,
    as_summary,
    as_timer,
    parse_time,
    running_of,
    seats_of,
)
from storage.sql import Executor, Row, Transaction, Values, Work, Written

DEFAULT_DATABASE_URL = "sqlite:///data/ludotheque.db"

ServerSetting = Literal["language", "default_clock", "lobby_role"]
"""A column of `server_settings` (a literal: it is written into the SQL)."""
LOG = logging.getLogger(__name__)
T = TypeVar("T")
Connect = Callable[[str, Sequence[Migration], "Rater | None"], Awaitable["Database"]]
"""Opens a database of one backend: URL, migrations, rater."""

_BACKENDS: dict[str, Connect] = {}


def register_backend(scheme: str, connect: Connect) -> None:
    """Make `Database.open` take URLs of `scheme` (each backend module registers itself)."""
    _BACKENDS[scheme] = connect


COPY_BATCH = 500
"""Games read at a time when a database is copied."""

@dataclass(frozen=True)
class NewMove:
    """A move to append to the log."""

    seat: int | None
    user_id: int | None
    kind: MoveKind
    move: str


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _timer_rows(game_id: int, timers: Sequence[NewTimer]) -> list[tuple[Any, ...]]:
    return [(game_id, t.event.value, t.due_at.timestamp(), t.ply, t.seat) for t in timers]


async def _replace_turn(sql: Executor, game_id: int, deadline: datetime | None,
                        timers: Sequence[NewTimer]) -> None:
    """Set the turn's deadline and swap the game's turn timers for `timers` (same transaction)."""
    await sql.execute("UPDATE games SET deadline = ? WHERE id = ?",
                      (deadline.isoformat() if deadline else None, game_id))
    await sql.execute(
        "DELETE FROM timers WHERE game_id = ? AND event IN (SELECT value FROM json_each(?))",
        (game_id, Values([event.value for event in TURN_EVENTS])))
    await sql.executemany(
        "INSERT INTO timers (game_id, event, due_at, ply, seat) VALUES (?, ?, ?, ?, ?)",
        _timer_rows(game_id, timers))


class Database(ABC):
    """All reads and writes of games, moves, challenges and ratings, written once for every
    backend (`storage.sqlite`, `storage.postgres`): a backend runs the works."""

    def __init__(self, *, rater: Rater | None = None) -> None:
        self._rater = rater

    @classmethod
    async def open(
        cls,
        url: str = DEFAULT_DATABASE_URL,
        migrations: Sequence[Migration] = MIGRATIONS,
        *,
        rater: Rater | None = None,
    ) -> Database:
        """Connect to the database `url` names (`sqlite:///…` or `postgresql://…`), check it
        and bring its schema up to date.

        With a `rater`, a game's result goes into the ratings table in the transaction that
        finishes it (see `rate_finished_games` for the ones finished before). Raises
        `DatabaseUnusable`, whose one-line message says what is wrong and what to do.
        """
        scheme = url.split("://", 1)[0] if "://" in url else "sqlite"
        connect = _BACKENDS.get(scheme.split("+")[0])
        if connect is None:
            known = ", ".join(f"{name}://" for name in sorted(_BACKENDS))
            raise DatabaseUnusable(f"unsupported DATABASE_URL {url.split('://')[0]!r}: use "
                                   f"one of {known}")
        return await connect(url, migrations, rater)

    @abstractmethod
    async def close(self) -> None:
        """Close the connections (after the write in progress, if any)."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """A write transaction: all or nothing; this task's writes within it join it."""

    @abstractmethod
    async def write(self, work: Work[T]) -> T:
        """Run `work` as one whole write transaction."""

    @abstractmethod
    async def _read(self, work: Work[T]) -> T:
        """Run a read in one snapshot of the last committed state."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The last migration applied (0 for an empty database)."""

    @abstractmethod
    async def migrate(self, migrations: Sequence[Migration] = MIGRATIONS) -> list[int]:
        """Apply every migration newer than the schema, each in its own transaction."""

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> Written:
        """Run one write statement in its own transaction (one round trip)."""
        return await self.write(lambda executor: executor.execute(sql, params))

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self._read(lambda executor: executor.fetch(sql, params))

    # -- copying a whole database ---------------------------------------------------------

    async def copy_from(self, source: Database, *, batch: int = COPY_BATCH) -> dict[str, int]:
        """Copy every row of `source` into this database, which must be empty and at the same
        schema version; in one transaction (all or nothing). The rows copied, by table.

        Games are read `batch` at a time with their seats, moves, timers and abort votes,
        so a large history never sits in memory whole.
        """
        version, theirs = await self.schema_version(), await source.schema_version()
        if version != theirs:
            raise DatabaseUnusable(f"the two databases are at schema versions {theirs} and "
                                   f"{version}: open both with this version first")
        if await self._fetch("SELECT 1 FROM games LIMIT 1"):
            raise DatabaseUnusable("the target database already holds games: copy into an "
                                   "empty one")
        counts = dict.fromkeys(COPIED_TABLES, 0)

        def inserting(table: str, rows: Sequence[Row]) -> Work[None]:
            return lambda sql: _insert(sql, table, rows, counts)

        async with self.transaction() as tx:  # reads from the source between the writes
            last = 0
            while games := await source._fetch(
                    f"SELECT {_columns('games')} FROM games WHERE id > ? ORDER BY id LIMIT ?",
                    (last, batch)):
                last = int(games[-1]["id"])
                ids = Values([int(row["id"]) for row in games])
                await tx.run(inserting("games", games))
                for table in GAME_TABLES:
                    rows = await source._fetch(
                        f"SELECT {_columns(table)} FROM {table} WHERE game_id IN "
                        "(SELECT value FROM json_each(?))", (ids,))
                    await tx.run(inserting(table, rows))
            for table in OTHER_TABLES:
                await tx.run(inserting(table, await source._fetch(
                    f"SELECT {_columns(table)} FROM {table}")))
            await tx.run(_follow_copied_ids)
        return counts

    # -- games ----------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        game: str,
        guild_id: int | None,
        channel_id: int,
        parent_id: int | None,
        seats: Iterable[Seat],
        options: dict[str, Any],
        rng_seed: int,
        state: dict[str, Any],
        now: datetime,
        clock: str = "none",
        to_move: int | None = None,
    ) -> GameRecord:
        """Insert a running game with its seats, in one transaction; returns it with its id.

        `to_move` is the seat to decide (see `games_to_resume`); None when unknown."""
        stamp = now.isoformat()
        seat_rows = [(s.seat, s.user_id, s.display_name) for s in seats]

        async def insert(sql: Executor) -> int:
            row = await sql.fetchrow(
                """INSERT INTO games (game, guild_id, channel_id, parent_id, options, rng_seed,
                                      state, ply, status, created_at, updated_at, clock,
                                      to_move)
                   VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?) RETURNING id""",
                (game, guild_id, channel_id, parent_id, _dumps(options), rng_seed,
                 _dumps(state), GameStatus.RUNNING.value, stamp, stamp, clock, to_move),
            )
            assert row is not None  # RETURNING gives the new row's id
            game_id = int(row["id"])
            await sql.executemany(
                "INSERT INTO seats (game_id, seat, user_id, display_name) VALUES (?, ?, ?, ?)",
                [(game_id, *row) for row in seat_rows],
            )
            return game_id

        game_id = await self.write(insert)
        record = await self.get_game(game_id)
        assert record is not None
        return record

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id, or None."""
        found = await self._games("SELECT * FROM games WHERE id = ?", (game_id,))
        return found[0] if found else None

    async def running_game_in(self, channel_id: int) -> GameRecord | None:
        """The game running in this channel or thread, if any."""
        found = await self._games(
            "SELECT * FROM games WHERE channel_id = ? AND status = ? ORDER BY id DESC LIMIT 1",
            (channel_id, GameStatus.RUNNING.value),
        )
        return found[0] if found else None

    async def running_games_under(self, channel_id: int) -> list[GameRecord]:
        """The games running in this channel or thread, or in a thread of this channel."""
        return await self._games(
            "SELECT * FROM games WHERE status = ? AND (channel_id = ? OR parent_id = ?) "
            "ORDER BY id", (GameStatus.RUNNING.value, channel_id, channel_id))

    async def running_games_on_server(self, guild_id: int) -> list[GameRecord]:
        """The games running on a server."""
        return await self._games(
            "SELECT * FROM games WHERE guild_id = ? AND status = ? ORDER BY id",
            (guild_id, GameStatus.RUNNING.value))

    async def running_games(self) -> list[GameRecord]:
        """Every game still running."""
        return await self._games(
            "SELECT * FROM games WHERE status = ? ORDER BY id", (GameStatus.RUNNING.value,)
        )

    async def games_to_resume(self) -> list[GameRecord]:
        """Running games a start must act on: a board behind the stored position, a clock
        not started, an AI (or a chance event) to move, or a seat to move not known. The
        others wait in storage until someone plays them."""
        return await self._games(
            """SELECT * FROM games g WHERE g.status = ? AND (
                   g.board_ply IS NULL OR g.board_ply != g.ply
                   OR (g.clock != 'none' AND g.deadline IS NULL)
                   OR g.to_move IS NULL OR g.to_move < 0
                   OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id
                              AND s.seat = g.to_move
                              AND (s.user_id < 0 OR s.stand_in IS NOT NULL)))
               ORDER BY g.id""",
            (GameStatus.RUNNING.value,),
        )

    async def games_with_stale_boards(self) -> list[GameRecord]:
        """Running games whose posted board does not show the stored ply (or may not)."""
        return await self._games(
            """SELECT * FROM games WHERE status = ? AND (board_ply IS NULL OR board_ply != ply)
               ORDER BY id""",
            (GameStatus.RUNNING.value,),
        )

    async def record_moves(
        self,
        game_id: int,
        expected_ply: int,
        moves: Sequence[NewMove],
        state: dict[str, Any],
        *,
        result: Mapping[str, Any] | None,
        now: datetime,
        deadline: datetime | None = None,
        timers: Sequence[NewTimer] = (),
        stand_ins: Mapping[int, str] | None = None,
        unrated: bool = False,
        to_move: int | None = None,
        clear_draw_offer: bool = False,
    ) -> int:
        """Append moves and store the new state in one transaction; returns the new ply.

        Raises `StaleGame` when the stored ply is not `expected_ply`, so a move computed from
        an out-of-date state is never written. The guarded UPDATE and the log rows go to the
        writer's thread in one round trip; any failure rolls back both. The same transaction
        sets the next turn's `deadline` and replaces the game's turn timers with `timers`
        (an ARCHIVE timer among them is added), hands the seats in `stand_ins` to the AI, and
        with `unrated` takes the game out of the ratings. `to_move` is the seat to decide next;
        `clear_draw_offer` withdraws a standing draw offer (its receiver moved, or the game ended).
        """
        stamp = now.isoformat()
        status = GameStatus.FINISHED if result is not None else GameStatus.RUNNING
        new_ply = expected_ply + len(moves)
        update = (_dumps(state), new_ply, status.value, _dumps(result) if result else None,
                  stamp, stamp if result is not None else None,
                  None if result is not None else to_move, int(clear_draw_offer), game_id,
                  expected_ply, GameStatus.RUNNING.value)
        rows = [(game_id, expected_ply + i + 1, m.seat, m.user_id, m.kind.value, m.move, stamp)
                for i, m in enumerate(moves)]

        async def write(sql: Executor) -> None:
            written = await sql.execute(
                """UPDATE games SET state = ?, ply = ?, status = ?, result = ?, updated_at = ?,
                                     finished_at = ?, to_move = ?,
                                     draw_offer = CASE WHEN ? = 1 THEN NULL ELSE draw_offer END
                   WHERE id = ? AND ply = ? AND status = ?""",
                update,
            )
            if written.rowcount != 1:
                raise StaleGame(f"game {game_id} is no longer at ply {expected_ply}")
            await sql.executemany(
                """INSERT INTO moves (game_id, ply, seat, user_id, kind, move, created_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?)""",
                rows,
            )
            await _replace_turn(sql, game_id, deadline, timers)
            await sql.executemany(
                "UPDATE seats SET stand_in = ? WHERE game_id = ? AND seat = ?",
                [(level, game_id, seat) for seat, level in (stand_ins or {}).items()])
            if unrated:
                await sql.execute("UPDATE games SET rated = 0 WHERE id = ?", (game_id,))
            if result is not None and self._rater is not None:
                await rate_safely(sql, self._rater)

        await self.write(write)
        return new_ply

    async def set_turn_clock(self, game_id: int, ply: int, deadline: datetime | None,
                             timers: Sequence[NewTimer]) -> bool:
        """Give the turn at `ply` its deadline and timers (replacing the game's turn timers);
        False when the game is no longer running at that ply."""

        async def write(sql: Executor) -> bool:
            current = await sql.fetchrow(
                "SELECT 1 FROM games WHERE id = ? AND ply = ? AND status = ?",
                (game_id, ply, GameStatus.RUNNING.value))
            if current is None:
                return False
            await _replace_turn(sql, game_id, deadline, timers)
            return True

        return await self.write(write)

    async def next_timer(self, shards: Shards = ALL_SHARDS) -> Timer | None:
        """The timer due first among the games of servers on `shards`, or None."""
        condition, params = shards.condition("g.guild_id")
        rows = await self._fetch(
            f"""SELECT t.* FROM timers t JOIN games g ON g.id = t.game_id
                WHERE {condition} ORDER BY t.due_at, t.id LIMIT 1""", params)
        return as_timer(rows[0]) if rows else None

    async def timers_of(self, game_id: int) -> list[Timer]:
        """A game's pending timers, the first due first."""
        rows = await self._fetch("SELECT * FROM timers WHERE game_id = ? ORDER BY due_at, id",
                                 (game_id,))
        return [as_timer(row) for row in rows]

    async def claim_timer(self, timer_id: int, now: datetime, until: datetime) -> bool:
        """Take a timer that is due at `now` to fire it: its due time moves to `until` (a
        lease), so no other process fires it meanwhile, and it fires again after `until` if
        this one never drops it (a crash). False when it is no longer due (another process
        claimed it first, or it was replaced or dropped)."""
        written = await self._write(
            "UPDATE timers SET due_at = ? WHERE id = ? AND due_at <= ?",
            (until.timestamp(), timer_id, now.timestamp()))
        return written.rowcount == 1

    async def drop_timer(self, timer_id: int) -> bool:
        """Forget a timer once it has fired; False if it was already gone (fired elsewhere)."""
        written = await self._write("DELETE FROM timers WHERE id = ?", (timer_id,))
        return written.rowcount == 1

    async def postpone_timer(self, timer_id: int, due_at: datetime) -> None:
        """Try a timer again later (its action failed), counting the attempt."""
        await self._write("UPDATE timers SET due_at = ?, attempts = attempts + 1 WHERE id = ?",
                          (due_at.timestamp(), timer_id))

    async def add_timer(self, game_id: int, timer: NewTimer) -> None:
        """Store one timer (an archive after the end, say)."""
        await self._write(
            "INSERT INTO timers (game_id, event, due_at, ply, seat) VALUES (?, ?, ?, ?, ?)",
            _timer_rows(game_id, [timer])[0])

    async def set_draw_offer(self, game_id: int, ply: int, seat: int | None) -> bool:
        """Make `seat`'s draw offer the standing one (None: withdraw it) while the game is
        running at `ply`; False when it moved on meanwhile."""
        written = await self._write(
            "UPDATE games SET draw_offer = ? WHERE id = ? AND ply = ? AND status = ?",
            (seat, game_id, ply, GameStatus.RUNNING.value))
        return written.rowcount == 1

    # -- abort votes and player settings ------------------------------------------------

    async def add_abort_vote(self, game_id: int, user_id: int) -> bool:
        """Record that a player asks to abort; False if they had asked already."""
        written = await self._write(
            "INSERT INTO abort_votes (game_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
            (game_id, user_id))
        return written.rowcount == 1

    async def abort_votes(self, game_id: int) -> set[int]:
        """The players who asked to abort the game."""
        rows = await self._fetch("SELECT user_id FROM abort_votes WHERE game_id = ?", (game_id,))
        return {int(row["user_id"]) for row in rows}

    async def dm_reminders(self, user_id: int) -> bool:
        """Whether the member wants turn reminders by DM (yes unless they turned them off)."""
        rows = await self._fetch("SELECT dm_reminders FROM player_settings WHERE user_id = ?",
                                 (user_id,))
        return bool(rows[0]["dm_reminders"]) if rows else True

    async def set_dm_reminders(self, user_id: int, wanted: bool) -> None:
        """Turn a member's DM reminders on or off."""
        await self._write(
            """INSERT INTO player_settings (user_id, dm_reminders) VALUES (?, ?)
               ON CONFLICT (user_id) DO UPDATE SET dm_reminders = excluded.dm_reminders""",
            (user_id, int(wanted)))

    async def server_language(self, guild_id: int) -> str | None:
        """The language a server chose (`/settings language:`), or None."""
        return await self._server_setting(guild_id, "language")

    async def set_server_language(self, guild_id: int, language: str) -> None:
        """Remember a server's language."""
        await self._set_server_setting(guild_id, "language", language)

    async def server_clock(self, guild_id: int) -> str | None:
        """The clock a server gives new games when a challenge picks none, or None."""
        return await self._server_setting(guild_id, "default_clock")

    async def set_server_clock(self, guild_id: int, clock: str) -> None:
        """Remember a server's clock for new games."""
        await self._set_server_setting(guild_id, "default_clock", clock)

    async def server_lobby_role(self, guild_id: int) -> int | None:
        """The role a server pings when a table opens, or None."""
        stored = await self._server_setting(guild_id, "lobby_role")
        return int(stored) if stored else None

    async def set_server_lobby_role(self, guild_id: int, role_id: int | None) -> None:
        """Choose the role a server pings when a table opens (None: ping nobody)."""
        await self._set_server_setting(guild_id, "lobby_role",
                                       None if role_id is None else str(role_id))

    async def _server_setting(self, guild_id: int, column: ServerSetting) -> str | None:
        """One of a server's settings, or None when it never chose it."""
        rows = await self._fetch(f"SELECT {column} FROM server_settings WHERE guild_id = ?",
                                 (guild_id,))
        return str(rows[0][0]) if rows and rows[0][0] else None

    async def _set_server_setting(self, guild_id: int, column: ServerSetting,
                                  value: str | None) -> None:
        """Set one of a server's settings (None: unset it), keeping the others."""
        await self._write(
            f"""INSERT INTO server_settings (guild_id, {column}) VALUES (?, ?)
                ON CONFLICT (guild_id) DO UPDATE SET {column} = excluded.{column}""",
            (guild_id, value))

    async def member_locale(self, user_id: int) -> str | None:
        """A member's last known Discord locale, or None."""
        rows = await self._fetch("SELECT locale FROM player_settings WHERE user_id = ?",
                                 (user_id,))
        return str(rows[0][0]) if rows and rows[0][0] else None

    async def set_member_locale(self, user_id: int, locale: str) -> None:
        """Remember a member's Discord locale (their DMs are written in its language)."""
        await self._write(
            """INSERT INTO player_settings (user_id, locale) VALUES (?, ?)
               ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale""",
            (user_id, locale))

    async def abort_game(self, game_id: int, *, now: datetime) -> bool:
        """Mark a running game aborted (it counts for no rating); False if it was not running."""
        stamp = now.isoformat()
        written = await self._write(
            """UPDATE games SET status = ?, updated_at = ?, finished_at = ?
               WHERE id = ? AND status = ?""",
            (GameStatus.ABORTED.value, stamp, stamp, game_id, GameStatus.RUNNING.value),
        )
        return written.rowcount == 1

    async def finished_games(
        self, game: str | None = None, *, guild_id: int | None = None
    ) -> list[GameRecord]:
        """Finished games (not aborted), oldest result first; of one game and one server."""
        sql = "SELECT * FROM games WHERE status = ?"
        params: list[Any] = [GameStatus.FINISHED.value]
        if game is not None:
            sql += " AND game = ?"
            params.append(game)
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        return await self._games(sql + " ORDER BY finished_at, id", params)

    async def games_after(self, game_id: int, limit: int) -> list[GameRecord]:
        """Up to `limit` games with ids above `game_id`, by id (to go through them all)."""
        return await self._games("SELECT * FROM games WHERE id > ? ORDER BY id LIMIT ?",
                                 (game_id, limit))

    async def games_of(
        self, user_id: int, *, guild_id: int | None = None, game: str | None = None,
        limit: int = 10, offset: int = 0,
    ) -> list[GameSummary]:
        """A player's latest games that ended (finished or aborted), of one `game` or all,
        newest first, from the `offset`-th on."""
        where, params = _ended_games_of(user_id, guild_id, game)
        query = f"""SELECT {SUMMARY_COLUMNS} FROM games g JOIN seats s ON s.game_id = g.id
                    WHERE {where}
                    ORDER BY COALESCE(g.finished_at, g.updated_at) DESC, g.id DESC
                    LIMIT ? OFFSET ?"""

        async def read(sql: Executor) -> list[GameSummary]:
            rows = await sql.fetch(query, [*params, limit, offset])
            seats = await seats_of(sql, [row["id"] for row in rows])
            return [as_summary(row, seats[row["id"]]) for row in rows]

        return await self._read(read)

    async def games_between(
        self, first: int, second: int, *, guild_id: int | None = None, limit: int = 10_000
    ) -> list[GameSummary]:
        """The finished games two players both sat in (on a server or anywhere), newest
        first, up to `limit`."""
        where = "g.status = ?"
        params: list[Any] = [GameStatus.FINISHED.value]
        if guild_id is not None:
            where += " AND g.guild_id = ?"
            params.append(guild_id)
        query = f"""SELECT {SUMMARY_COLUMNS} FROM games g
                    WHERE g.id IN (SELECT game_id FROM seats WHERE user_id = ?)
                      AND g.id IN (SELECT game_id FROM seats WHERE user_id = ?) AND {where}
                    ORDER BY g.finished_at DESC, g.id DESC LIMIT ?"""

        async def read(sql: Executor) -> list[GameSummary]:
            rows = await sql.fetch(query, [first, second, *params, limit])
            seats = await seats_of(sql, [row["id"] for row in rows])
            return [as_summary(row, seats[row["id"]]) for row in rows]

        return await self._read(read)

    async def count_games_of(self, user_id: int, *, guild_id: int | None = None,
                             game: str | None = None) -> int:
        """How many games (of one `game` or all) a player played that ended (finished or
        aborted)."""
        where, params = _ended_games_of(user_id, guild_id, game)
        rows = await self._fetch(
            f"SELECT COUNT(*) AS n FROM games g JOIN seats s ON s.game_id = g.id WHERE {where}",
            params)
        return int(rows[0]["n"])

    async def running_games_of(
        self, user_id: int, *, guild_id: int | None = None, limit: int = 25
    ) -> tuple[list[RunningGame], int, int]:
        """Up to `limit` of a player's games in progress, those waiting for them first (the
        nearest deadline first), then the others (the latest move first); how many games
        they have in progress in all, and how many of those wait for them."""
        where = "s.user_id = ? AND g.status = ?"
        params: list[Any] = [user_id, GameStatus.RUNNING.value]
        if guild_id is not None:
            where += " AND g.guild_id = ?"
            params.append(guild_id)
        query = f"""SELECT {RUNNING_COLUMNS}
                    FROM games g JOIN seats s ON s.game_id = g.id WHERE {where}
                    ORDER BY CASE WHEN g.to_move = s.seat THEN 0 ELSE 1 END,
                             CASE WHEN g.deadline IS NULL THEN 1 ELSE 0 END, g.deadline,
                             g.updated_at DESC, g.id DESC
                    LIMIT ?"""

        async def read(sql: Executor) -> tuple[list[RunningGame], int, int]:
            rows = await sql.fetch(query, [*params, limit])
            counts = await sql.fetchrow(
                "SELECT COUNT(*) AS n, SUM(CASE WHEN g.to_move = s.seat THEN 1 ELSE 0 END) "
                f"AS waiting FROM games g JOIN seats s ON s.game_id = g.id WHERE {where}",
                params)
            assert counts is not None  # COUNT always gives one row
            return (await running_of(sql, rows), int(counts["n"]),
                    int(counts["waiting"] or 0))

        return await self._read(read)

    async def ai_games_of(self, user_id: int, guild_id: int) -> int:
        """How many games a member plays against the AI on a server now: games in progress
        with an AI seat from the start (a seat handed to the AI does not count)."""
        rows = await self._fetch(
            """SELECT COUNT(*) AS n FROM seats s JOIN games g ON g.id = s.game_id
               WHERE s.user_id = ? AND g.status = ? AND g.guild_id = ?
               AND EXISTS (SELECT 1 FROM seats a WHERE a.game_id = g.id AND a.user_id < 0)""",
            (user_id, GameStatus.RUNNING.value, guild_id))
        return int(rows[0]["n"])

    async def live_games(
        self, guild_id: int, homes: Sequence[int], *, game: str | None = None, limit: int = 25
    ) -> tuple[list[RunningGame], int]:
        """Up to `limit` of the games in progress on a server whose home (the channel that
        holds the game's thread, or the game's own channel) is one of `homes`, of `game` only
        when given, the latest move first; and how many such games there are in all."""
        where = ("g.guild_id = ? AND g.status = ? AND COALESCE(g.parent_id, g.channel_id) IN "
                 "(SELECT value FROM json_each(?))")
        params: list[Any] = [guild_id, GameStatus.RUNNING.value, Values(list(homes))]
        if game is not None:
            where += " AND g.game = ?"
            params.append(game)

        async def read(sql: Executor) -> tuple[list[RunningGame], int]:
            rows = await sql.fetch(
                f"SELECT {RUNNING_COLUMNS} FROM games g WHERE {where} "
                "ORDER BY g.updated_at DESC, g.id DESC LIMIT ?", [*params, limit])
            count = await sql.fetchrow(f"SELECT COUNT(*) AS n FROM games g WHERE {where}",
                                       params)
            assert count is not None  # COUNT always gives one row
            return await running_of(sql, rows), int(count["n"])

        return await self._read(read)

    # -- ratings --------------------------------------------------------------------------

    async def rate_finished_games(self) -> int:
        """Put every finished game not yet rated into the ratings table, oldest first, in
        batches of `RATING_BATCH` per transaction; the number rated (0 without a rater)."""
        rater, done = self._rater, 0
        if rater is None:
            return 0
        while True:
            count = await self.write(lambda sql: apply_ratings(sql, rater))
            done += count
            if count < RATING_BATCH:
                return done

    async def unrated_backlog(self) -> int:
        """Finished games whose result is not in the ratings table yet."""
        rows = await self._fetch(f"SELECT COUNT(*) AS n FROM games WHERE {TO_RATE}")
        return int(rows[0]["n"])

    async def leaderboard(
        self, game: str, scope: int, *, offset: int, limit: int
    ) -> tuple[list[RatingRow], int]:
        """One page of a leaderboard, best first, and how many players it ranks."""

        async def read(sql: Executor) -> tuple[list[RatingRow], int]:
            rows = await sql.fetch(
                f"""SELECT * FROM ratings WHERE game = ? AND scope = ?
                    ORDER BY {RANK_ORDER} LIMIT ? OFFSET ?""",
                (game, scope, limit, offset))
            total = await sql.fetchrow(
                "SELECT COUNT(*) AS n FROM ratings WHERE game = ? AND scope = ?", (game, scope))
            assert total is not None  # COUNT always gives a row
            return [as_rating(row) for row in rows], int(total["n"])

        return await self._read(read)

    async def climbers(
        self, game: str, scope: int, since: datetime, until: datetime, *, guild_id: int | None,
        offset: int, limit: int,
    ) -> tuple[list[Climber], int]:
        """One page of the players whose rating in `game` and `scope` rose most over the games
        finished in [since, until), and how many players such games rate. `guild_id` narrows
        the games read to one server's (the server scope's games; None: every server's)."""
        where = """FROM rating_changes c JOIN games g ON g.id = c.game_id
                   WHERE g.game = ? AND g.status = ? AND g.finished_at >= ?
                   AND g.finished_at < ? AND c.scope = ?"""
        params: tuple[Any, ...] = (game, GameStatus.FINISHED.value, since.isoformat(),
                                   until.isoformat(), scope)
        if guild_id is not None:
            where += " AND g.guild_id = ?"
            params += (guild_id,)

        async def read(sql: Executor) -> tuple[list[Climber], int]:
            rows = await sql.fetch(
                f"""SELECT m.player_id, m.gain, m.games, r.name, r.mu, r.sigma
                    FROM (SELECT c.player_id,
                                 SUM(c.rating_after - COALESCE(c.rating_before, 0)) AS gain,
                                 COUNT(*) AS games {where} GROUP BY c.player_id) m
                    JOIN ratings r ON r.game = ? AND r.scope = ? AND r.player_id = m.player_id
                    ORDER BY m.gain DESC, m.games DESC, m.player_id LIMIT ? OFFSET ?""",
                (*params, game, scope, limit, offset))
            total = await sql.fetchrow(
                f"SELECT COUNT(DISTINCT c.player_id) AS n {where}", params)
            assert total is not None  # COUNT always gives a row
            return [as_climber(row) for row in rows], int(total["n"])

        return await self._read(read)

    async def server_activity(self, guild_id: int, games: Sequence[str], since: datetime, *,
                              most: int = 3) -> ServerActivity:
        """What a server has played of `games`: each one's finished games (ever and since
        `since`) and games in progress; the members who finished a game since `since`, and
        the `most` who finished the most of them; when its first game began.

        Every count is a range of the games_by_server index (no game row is read): a server
        of 100,000 games takes milliseconds, where one grouped query took a tenth of a second.
        """
        finished, running = GameStatus.FINISHED.value, GameStatus.RUNNING.value
        kinds = Values(list(games))

        async def read(sql: Executor) -> ServerActivity:
            counts: dict[tuple[str, str], int] = {}
            for status in (finished, running):
                for game in games:
                    row = await sql.fetchrow(
                        "SELECT COUNT(*) AS n FROM games WHERE guild_id = ? AND status = ? "
                        "AND game = ?", (guild_id, status, game))
                    counts[status, game] = int(row["n"]) if row else 0
            recent_rows = await sql.fetch(
                """SELECT game, COUNT(*) AS n FROM games WHERE guild_id = ? AND status = ?
                   AND game IN (SELECT value FROM json_each(?)) AND finished_at >= ?
                   GROUP BY game""", (guild_id, finished, kinds, since.isoformat()))
            recent_games = {row["game"]: int(row["n"]) for row in recent_rows}
            recent = """FROM games g JOIN seats s ON s.game_id = g.id
                        WHERE g.guild_id = ? AND g.status = ?
                        AND g.game IN (SELECT value FROM json_each(?)) AND g.finished_at >= ?
                        AND s.user_id > 0"""
            params = (guild_id, finished, kinds, since.isoformat())
            active = await sql.fetch(
                f"""SELECT s.user_id, COUNT(*) AS n, MAX(g.id) AS latest {recent}
                    GROUP BY s.user_id ORDER BY n DESC, latest DESC LIMIT ?""",
                (*params, most))
            players = await sql.fetchrow(f"SELECT COUNT(DISTINCT s.user_id) AS n {recent}",
                                         params)
            assert players is not None  # COUNT always gives a row
            # The first game stored is the first begun.
            began = await sql.fetchrow(
                """SELECT created_at FROM games WHERE id = (SELECT MIN(id) FROM games
                   WHERE guild_id = ? AND status IN (?, ?))""", (guild_id, finished, running))
            return ServerActivity(
                games=[GameActivity(game, counts[finished, game], recent_games.get(game, 0),
                                    counts[running, game])
                       for game in sorted(games)
                       if counts[finished, game] or counts[running, game]],
                players_since=int(players["n"]),
                most_active=[(int(row["user_id"]), int(row["n"])) for row in active],
                first_game=parse_time(str(began["created_at"])) if began else None)

        return await self._read(read)

    async def rating_changes(self, game_id: int, scope: int) -> dict[int, RatingChange]:
        """What a finished game did to its players' ratings in `scope`, by rated id: empty
        while it is not rated yet, when it counts for nothing, or when it was rated before
        changes were kept."""
        rows = await self._fetch(
            "SELECT * FROM rating_changes WHERE game_id = ? AND scope = ?", (game_id, scope))
        return {int(row["player_id"]): as_rating_change(row) for row in rows}

    async def bests_before(self, game_id: int, scope: int) -> dict[int, tuple[float, int]]:
        """For each player `game_id` rated in `scope` who had played its game there before:
        their best rating over those earlier games, and how many they were (from the changes
        kept), by rated id."""
        rows = await self._fetch(
            """SELECT c.player_id, MAX(p.rating_after) AS best, COUNT(*) AS games
               FROM rating_changes c
               JOIN games f ON f.id = c.game_id
               JOIN rating_changes p ON p.player_id = c.player_id AND p.scope = c.scope
               JOIN games g ON g.id = p.game_id
               WHERE c.game_id = ? AND c.scope = ? AND g.game = f.game
                 AND (g.finished_at < f.finished_at
                      OR (g.finished_at = f.finished_at AND g.id < f.id))
               GROUP BY c.player_id""",
            (game_id, scope))
        return {int(row["player_id"]): (float(row["best"]), int(row["games"])) for row in rows}

    async def rating_changes_of(self, player_id: int, scope: int,
                                game_ids: Sequence[int]) -> dict[int, RatingChange]:
        """A player's rating change in `scope` in each of `game_ids` that has one, by game."""
        rows = await self._fetch(
            """SELECT * FROM rating_changes WHERE player_id = ? AND scope = ?
               AND game_id IN (SELECT value FROM json_each(?))""",
            (player_id, scope, Values(list(game_ids))))
        return {int(row["game_id"]): as_rating_change(row) for row in rows}

    async def rating_history(self, player_id: int, scope: int, game: str, *,
                             limit: int) -> list[RatingPoint]:
        """A player's rating after each of their last `limit` rated games of `game` in
        `scope`, in the order they were rated (games rated before changes were kept have
        none)."""
        rows = await self._fetch(
            """SELECT c.game_id, c.rating_before, c.rating_after, g.finished_at
               FROM rating_changes c JOIN games g ON g.id = c.game_id
               WHERE c.player_id = ? AND c.scope = ? AND g.game = ?
               ORDER BY g.finished_at DESC, g.id DESC LIMIT ?""",
            (player_id, scope, game, limit))
        return [as_rating_point(row) for row in reversed(rows)]

    async def best_rating(self, player_id: int, scope: int, game: str) -> RatingPoint | None:
        """The rated game of `game` in `scope` that left a player with their highest rating
        (the earliest such game on a tie), or None when no change of theirs was kept."""
        rows = await self._fetch(
            """SELECT c.game_id, c.rating_before, c.rating_after, g.finished_at
               FROM rating_changes c JOIN games g ON g.id = c.game_id
               WHERE c.player_id = ? AND c.scope = ? AND g.game = ?
               ORDER BY c.rating_after DESC, g.finished_at, g.id LIMIT 1""",
            (player_id, scope, game))
        return as_rating_point(rows[0]) if rows else None

    async def player_ratings(self, player_id: int, scope: int) -> list[tuple[RatingRow, int, int]]:
        """A player's rating in each game of `scope`, with their rank (1 is best) and the
        number of players ranked there."""
        rows = await self._fetch(
            """SELECT r.*,
                   (SELECT COUNT(*) FROM ratings o WHERE o.game = r.game AND o.scope = r.scope
                      AND (o.rating > r.rating OR (o.rating = r.rating AND (o.games > r.games
                      OR (o.games = r.games AND (o.sort_name < r.sort_name
                      OR (o.sort_name = r.sort_name AND o.player_id < r.player_id))))))) AS ahead,
                   (SELECT COUNT(*) FROM ratings o WHERE o.game = r.game AND o.scope = r.scope)
                      AS players
               FROM ratings r WHERE r.player_id = ? AND r.scope = ? ORDER BY r.game""",
            (player_id, scope))
        return [(as_rating(row), int(row["ahead"]) + 1, int(row["players"])) for row in rows]

    async def set_board_message(
        self, game_id: int, message_id: int | None, ply: int | None = None
    ) -> None:
        """Remember the board message that carries the game's live components, and the ply it
        shows (None: unknown, so the board counts as stale), in one write."""
        await self._write(
            "UPDATE games SET board_message_id = ?, board_ply = ? WHERE id = ?",
            (message_id, ply, game_id),
        )

    async def turn_log(self, game_id: int, seat: int) -> tuple[list[MoveRecord], int]:
        """What `seat` has not seen on a board of its own, and the number of decisions so far.

        The moves since `seat`'s last decision before its current turn (which began after
        the last decision of anyone else): every move of the others since it last played,
        then its own moves of this turn.
        """
        player = MoveKind.PLAYER.value

        async def read(sql: Executor) -> tuple[list[MoveRecord], int]:
            counts = await sql.fetchrow(
                """SELECT (SELECT COUNT(*) FROM moves WHERE game_id = ? AND kind = ?) AS decisions,
                          (SELECT COALESCE(MAX(ply), 0) FROM moves WHERE game_id = ?
                           AND kind = ? AND seat = ? AND ply <= (
                               SELECT COALESCE(MAX(ply), 0) FROM moves WHERE game_id = ?
                               AND kind = ? AND seat != ?)) AS since""",
                (game_id, player, game_id, player, seat, game_id, player, seat))
            assert counts is not None  # a SELECT of two subqueries gives one row
            rows = await sql.fetch(
                "SELECT * FROM moves WHERE game_id = ? AND ply > ? ORDER BY ply",
                (game_id, counts["since"]))
            return [as_move(row) for row in rows], int(counts["decisions"])

        return await self._read(read)

    async def moves(self, game_id: int) -> list[MoveRecord]:
        """The game's move log, in order."""
        rows = await self._fetch("SELECT * FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
        return [as_move(row) for row in rows]

    async def _games(self, query: str, params: Sequence[Any]) -> list[GameRecord]:
        """Records for the game rows `query` selects, their seats read in the same snapshot."""

        async def read(sql: Executor) -> list[GameRecord]:
            rows = await sql.fetch(query, params)
            seats = await seats_of(sql, [row["id"] for row in rows])
            return [as_record(row, seats[row["id"]]) for row in rows]

        return await self._read(read)

    # -- challenges ---------------------------------------------------------------------

    async def create_challenge(
        self,
        *,
        game: str,
        guild_id: int | None,
        channel_id: int,
        challenger_id: int,
        opponent_ids: list[int],
        player_names: dict[int, str],
        options: dict[str, Any],
        now: datetime,
        expires_at: datetime,
        kind: str = "challenge",
        clock: str = "daily",
        seating: list[int] | None = None,
        accepted_ids: list[int] | None = None,
    ) -> ChallengeRecord:
        """Insert a pending challenge (or, with kind `lobby`, an open table)."""
        rows = await self.write(lambda sql: sql.fetch(
            """INSERT INTO challenges (game, guild_id, channel_id, challenger_id, opponent_ids,
                                       player_names, options, status, created_at, expires_at,
                                       kind, clock, seating, accepted_ids)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id""",
            (game, guild_id, channel_id, challenger_id, _dumps(opponent_ids),
             _dumps({str(k): v for k, v in player_names.items()}), _dumps(options),
             ChallengeStatus.PENDING.value, now.isoformat(), expires_at.isoformat(), kind,
             clock, None if seating is None else _dumps(seating), _dumps(accepted_ids or []))))
        challenge_id = int(rows[0]["id"])  # RETURNING gives the new row's id
        record = await self.get_challenge(challenge_id)
        assert record is not None
        return record

    async def get_challenge(self, challenge_id: int) -> ChallengeRecord | None:
        """The challenge with this id, or None."""
        rows = await self._fetch("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        return as_challenge(rows[0]) if rows else None

    async def pending_challenges(self) -> list[ChallengeRecord]:
        """Every challenge still waiting for an answer."""
        rows = await self._fetch(
            "SELECT * FROM challenges WHERE status = ? ORDER BY id",
            (ChallengeStatus.PENDING.value,),
        )
        return [as_challenge(row) for row in rows]

    async def waiting_challenges_of(self, challenger_id: int,
                                    now: datetime) -> list[ChallengeRecord]:
        """The member's challenges and tables still waiting for an answer at `now`, the one
        that expires first first."""
        rows = await self._fetch(
            """SELECT * FROM challenges WHERE status = ? AND challenger_id = ?
               AND expires_at > ? ORDER BY expires_at, id""",
            (ChallengeStatus.PENDING.value, challenger_id, now.isoformat()),
        )
        return [as_challenge(row) for row in rows]

    async def cancel_challenges_on_server(self, guild_id: int) -> list[int]:
        """Cancel a server's challenges and tables still waiting; their ids."""
        rows = await self.write(lambda sql: sql.fetch(
            "UPDATE challenges SET status = ? WHERE guild_id = ? AND status = ? RETURNING id",
            (ChallengeStatus.CANCELLED.value, guild_id, ChallengeStatus.PENDING.value)))
        return sorted(int(row["id"]) for row in rows)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows the challenge."""
        await self._write(
            "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
        )

    async def update_challenge_players(
        self,
        challenge_id: int,
        *,
        opponent_ids: list[int],
        player_names: dict[int, str],
        accepted_ids: list[int],
    ) -> bool:
        """Record who is invited or joined, and who accepted; False if no longer pending."""
        written = await self._write(
            """UPDATE challenges SET opponent_ids = ?, player_names = ?, accepted_ids = ?
               WHERE id = ? AND status = ?""",
            (_dumps(opponent_ids), _dumps({str(k): v for k, v in player_names.items()}),
             _dumps(accepted_ids), challenge_id, ChallengeStatus.PENDING.value),
        )
        return written.rowcount == 1

    async def close_challenge(
        self, challenge_id: int, status: ChallengeStatus, game_id: int | None = None
    ) -> bool:
        """Move a pending challenge to `status`; False if it was no longer pending."""
        written = await self._write(
            "UPDATE challenges SET status = ?, game_id = ? WHERE id = ? AND status = ?",
            (status.value, game_id, challenge_id, ChallengeStatus.PENDING.value),
        )
        return written.rowcount == 1


def _ended_games_of(user_id: int, guild_id: int | None,
                    game: str | None = None) -> tuple[str, list[Any]]:
    """The condition (on `games g JOIN seats s`) of a player's games that ended, on a server
    or anywhere, of one game or all, and its parameters."""
    where, params = "s.user_id = ? AND g.status != ?", [user_id, GameStatus.RUNNING.value]
    if guild_id is not None:
        where += " AND g.guild_id = ?"
        params.append(guild_id)
    if game is not None:
        where += " AND g.game = ?"
        params.append(game)
    return where, params


class StaleGame(RuntimeError):
    """The stored game moved on (or ended) since the state a write was computed from."""


GAME_TABLES = ("seats", "moves", "timers", "abort_votes", "rating_changes")
"""Tables whose rows belong to a game (copied with it)."""

OTHER_TABLES = ("challenges", "player_settings", "server_settings", "ratings")
"""Tables copied whole, after the games."""

COPIED_TABLES = ("games", *GAME_TABLES, *OTHER_TABLES)
"""Every table `copy_from` copies (`schema_version` is each database's own)."""


def _columns(table: str) -> str:
    """The columns of `table`, as the code knows them."""
    return ", ".join(SCHEMA[table])


async def _follow_copied_ids(sql: Executor) -> None:
    """Make the next ids follow the copied ones (PostgreSQL's identities do not by themselves;
    SQLite's AUTOINCREMENT does)."""
    if sql.dialect != "postgresql":
        return
    for table in ("games", "challenges", "timers"):
        await sql.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                          f"(SELECT COALESCE(MAX(id), 0) + 1 FROM {table}), false)")


async def _insert(sql: Executor, table: str, rows: Sequence[Row], counts: dict[str, int]) -> None:
    """Insert rows read with `_columns(table)`."""
    if not rows:
        return
    columns = SCHEMA[table]
    await sql.executemany(
        f"INSERT INTO {table} ({', '.join(columns)}) "
        f"VALUES ({', '.join('?' for _ in columns)})",
        [tuple(row[column] for column in columns) for row in rows])
    counts[table] += len(rows)


RANK_ORDER = "rating DESC, games DESC, sort_name, player_id"
"""Leaderboard order: rating, then games played, then name (the `ratings_by_rank` index)."""
