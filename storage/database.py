"""The SQLite database (aiosqlite, WAL mode): connection, migrations and queries."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import aiosqlite

from storage.migrations import MIGRATIONS, Migration
from storage.models import (
    ChallengeRecord,
    ChallengeStatus,
    GameRecord,
    GameStatus,
    MoveKind,
    MoveRecord,
    Seat,
)

DEFAULT_DATABASE_URL = "sqlite:///data/ludotheque.db"


def sqlite_path(url: str) -> str:
    """The file path in a `sqlite:///relative.db` or `sqlite:////absolute.db` URL (or a path)."""
    if url.startswith("sqlite:///"):
        return url.removeprefix("sqlite:///")
    if "://" in url:
        raise ValueError(f"only sqlite:/// database URLs are supported, not {url!r}")
    return url


@dataclass(frozen=True)
class NewMove:
    """A move to append to the log."""

    seat: int | None
    user_id: int | None
    kind: MoveKind
    move: str


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


class Database:
    """All reads and writes of games, moves and challenges; one connection per bot."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection

    @classmethod
    async def open(
        cls, url: str = DEFAULT_DATABASE_URL, migrations: Sequence[Migration] = MIGRATIONS
    ) -> Database:
        """Connect, switch to WAL and bring the schema up to date."""
        path = sqlite_path(url)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path)
        connection.row_factory = aiosqlite.Row
        database = cls(connection)
        for pragma in ("journal_mode=WAL", "foreign_keys=ON", "busy_timeout=5000"):
            await database._write(f"PRAGMA {pragma}")
        await database.migrate(migrations)
        return database

    async def close(self) -> None:
        """Close the connection."""
        await self._db.close()

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Cursor:
        """Run one statement and close its cursor (an open one blocks the next commit)."""
        cursor = await self._db.execute(sql, params)
        await cursor.close()
        return cursor

    # -- schema -------------------------------------------------------------------------

    async def schema_version(self) -> int:
        """The last migration applied (0 for an empty database)."""
        await self._write(
            "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, applied_at TEXT)"
        )
        async with self._db.execute("SELECT MAX(version) FROM schema_version") as cursor:
            row = await cursor.fetchone()
        # MAX() always gives one row; its value is NULL while no migration is applied.
        return int(row[0]) if row is not None and row[0] is not None else 0

    async def migrate(self, migrations: Sequence[Migration] = MIGRATIONS) -> list[int]:
        """Apply every migration newer than the schema; returns the versions applied."""
        applied = []
        current = await self.schema_version()
        await self._db.commit()
        for migration in sorted(migrations, key=lambda m: m.version):
            if migration.version <= current:
                continue
            try:
                # sqlite3 autocommits DDL unless a transaction is opened explicitly.
                await self._write("BEGIN")
                for statement in migration.statements:
                    await self._write(statement)
                await self._write(
                    "INSERT INTO schema_version (version, applied_at) VALUES (?, datetime('now'))",
                    (migration.version,),
                )
                await self._db.commit()
            except Exception:
                await self._db.rollback()
                raise
            applied.append(migration.version)
        return applied

    async def journal_mode(self) -> str:
        """SQLite's journal mode (`wal` once opened)."""
        async with self._db.execute("PRAGMA journal_mode") as cursor:
            row = await cursor.fetchone()
        if row is None:
            raise RuntimeError("PRAGMA journal_mode gave no row")
        return str(row[0])

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
    ) -> GameRecord:
        """Insert a running game with its seats; returns it with its new id."""
        stamp = now.isoformat()
        cursor = await self._write(
            """INSERT INTO games (game, guild_id, channel_id, parent_id, options, rng_seed, state,
                                  ply, status, created_at, updated_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)""",
            (game, guild_id, channel_id, parent_id, _dumps(options), rng_seed, _dumps(state),
             GameStatus.RUNNING.value, stamp, stamp),
        )
        game_id = cursor.lastrowid
        assert game_id is not None  # set by every successful INSERT
        await (await self._db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, display_name) VALUES (?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.display_name) for s in seats],
        )).close()
        await self._db.commit()
        record = await self.get_game(game_id)
        assert record is not None
        return record

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id, or None."""
        async with self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cursor:
            row = await cursor.fetchone()
        return await self._game(row) if row else None

    async def running_game_in(self, channel_id: int) -> GameRecord | None:
        """The game running in this channel or thread, if any."""
        async with self._db.execute(
            "SELECT * FROM games WHERE channel_id = ? AND status = ? ORDER BY id DESC LIMIT 1",
            (channel_id, GameStatus.RUNNING.value),
        ) as cursor:
            row = await cursor.fetchone()
        return await self._game(row) if row else None

    async def running_games(self) -> list[GameRecord]:
        """Every game still running."""
        async with self._db.execute(
            "SELECT * FROM games WHERE status = ? ORDER BY id", (GameStatus.RUNNING.value,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [await self._game(row) for row in rows]

    async def record_moves(
        self,
        game_id: int,
        expected_ply: int,
        moves: Sequence[NewMove],
        state: dict[str, Any],
        *,
        result: Mapping[str, Any] | None,
        now: datetime,
    ) -> int:
        """Append moves and store the new state in one transaction; returns the new ply.

        Raises `StaleGame` when the stored ply is not `expected_ply`, so a move computed from
        an out-of-date state is never written.
        """
        stamp = now.isoformat()
        status = GameStatus.FINISHED if result is not None else GameStatus.RUNNING
        new_ply = expected_ply + len(moves)
        try:
            cursor = await self._write(
                """UPDATE games SET state = ?, ply = ?, status = ?, result = ?, updated_at = ?,
                                     finished_at = ?
                   WHERE id = ? AND ply = ? AND status = ?""",
                (_dumps(state), new_ply, status.value, _dumps(result) if result else None, stamp,
                 stamp if result is not None else None, game_id, expected_ply,
                 GameStatus.RUNNING.value),
            )
            if cursor.rowcount != 1:
                raise StaleGame(f"game {game_id} is no longer at ply {expected_ply}")
            await (await self._db.executemany(
                """INSERT INTO moves (game_id, ply, seat, user_id, kind, move, created_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?)""",
                [(game_id, expected_ply + i + 1, m.seat, m.user_id, m.kind.value, m.move, stamp)
                 for i, m in enumerate(moves)],
            )).close()
            await self._db.commit()
        except BaseException:
            await self._db.rollback()
            raise
        return new_ply

    async def abort_game(self, game_id: int, *, now: datetime) -> bool:
        """Mark a running game aborted (it counts for no rating); False if it was not running."""
        stamp = now.isoformat()
        cursor = await self._write(
            """UPDATE games SET status = ?, updated_at = ?, finished_at = ?
               WHERE id = ? AND status = ?""",
            (GameStatus.ABORTED.value, stamp, stamp, game_id, GameStatus.RUNNING.value),
        )
        await self._db.commit()
        return cursor.rowcount == 1

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
        async with self._db.execute(sql + " ORDER BY finished_at, id", params) as cursor:
            rows = await cursor.fetchall()
        return await self._games(rows)

    async def games_of(
        self, user_id: int, *, guild_id: int | None = None, limit: int = 10
    ) -> list[GameRecord]:
        """A player's latest games that ended (finished or aborted), newest first."""
        sql = """SELECT g.* FROM games g JOIN seats s ON s.game_id = g.id
                 WHERE s.user_id = ? AND g.status != ?"""
        params: list[Any] = [user_id, GameStatus.RUNNING.value]
        if guild_id is not None:
            sql += " AND g.guild_id = ?"
            params.append(guild_id)
        sql += " ORDER BY COALESCE(g.finished_at, g.updated_at) DESC, g.id DESC LIMIT ?"
        params.append(limit)
        async with self._db.execute(sql, params) as cursor:
            rows = await cursor.fetchall()
        return await self._games(rows)

    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the board message that carries the game's live components."""
        await self._write(
            "UPDATE games SET board_message_id = ? WHERE id = ?", (message_id, game_id)
        )
        await self._db.commit()

    async def moves(self, game_id: int) -> list[MoveRecord]:
        """The game's move log, in order."""
        async with self._db.execute(
            "SELECT * FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [
            MoveRecord(row["ply"], row["seat"], row["user_id"], MoveKind(row["kind"]), row["move"],
                       datetime.fromisoformat(row["created_at"]))
            for row in rows
        ]

    async def _games(self, found: Iterable[aiosqlite.Row]) -> list[GameRecord]:
        """Records for many game rows, their seats read in one query."""
        rows = list(found)
        if not rows:
            return []
        ids = [row["id"] for row in rows]
        seats: dict[int, list[Seat]] = {game_id: [] for game_id in ids}
        async with self._db.execute(
            "SELECT game_id, seat, user_id, display_name FROM seats WHERE game_id IN "
            "(SELECT value FROM json_each(?)) ORDER BY game_id, seat", (_dumps(ids),),
        ) as cursor:
            for r in await cursor.fetchall():
                seats[r["game_id"]].append(Seat(r["seat"], r["user_id"], r["display_name"]))
        return [_record(row, seats[row["id"]]) for row in rows]

    async def _game(self, row: aiosqlite.Row) -> GameRecord:
        async with self._db.execute(
            "SELECT seat, user_id, display_name FROM seats WHERE game_id = ? ORDER BY seat",
            (row["id"],),
        ) as cursor:
            rows = await cursor.fetchall()
        seats = [Seat(r["seat"], r["user_id"], r["display_name"]) for r in rows]
        return _record(row, seats)

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
    ) -> ChallengeRecord:
        """Insert a pending challenge (or, with kind `lobby`, an open table)."""
        cursor = await self._write(
            """INSERT INTO challenges (game, guild_id, channel_id, challenger_id, opponent_ids,
                                       player_names, options, status, created_at, expires_at,
                                       kind)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (game, guild_id, channel_id, challenger_id, _dumps(opponent_ids),
             _dumps({str(k): v for k, v in player_names.items()}), _dumps(options),
             ChallengeStatus.PENDING.value, now.isoformat(), expires_at.isoformat(), kind),
        )
        await self._db.commit()
        challenge_id = cursor.lastrowid
        assert challenge_id is not None  # set by every successful INSERT
        record = await self.get_challenge(challenge_id)
        assert record is not None
        return record

    async def get_challenge(self, challenge_id: int) -> ChallengeRecord | None:
        """The challenge with this id, or None."""
        async with self._db.execute(
            "SELECT * FROM challenges WHERE id = ?", (challenge_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return _challenge(row) if row else None

    async def pending_challenges(self) -> list[ChallengeRecord]:
        """Every challenge still waiting for an answer."""
        async with self._db.execute(
            "SELECT * FROM challenges WHERE status = ? ORDER BY id",
            (ChallengeStatus.PENDING.value,),
        ) as cursor:
            rows = await cursor.fetchall()
        return [_challenge(row) for row in rows]

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows the challenge."""
        await self._write(
            "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
        )
        await self._db.commit()

    async def update_challenge_players(
        self,
        challenge_id: int,
        *,
        opponent_ids: list[int],
        player_names: dict[int, str],
        accepted_ids: list[int],
    ) -> bool:
        """Record who is invited or joined, and who accepted; False if no longer pending."""
        cursor = await self._write(
            """UPDATE challenges SET opponent_ids = ?, player_names = ?, accepted_ids = ?
               WHERE id = ? AND status = ?""",
            (_dumps(opponent_ids), _dumps({str(k): v for k, v in player_names.items()}),
             _dumps(accepted_ids), challenge_id, ChallengeStatus.PENDING.value),
        )
        await self._db.commit()
        return cursor.rowcount == 1

    async def close_challenge(
        self, challenge_id: int, status: ChallengeStatus, game_id: int | None = None
    ) -> bool:
        """Move a pending challenge to `status`; False if it was no longer pending."""
        cursor = await self._write(
            "UPDATE challenges SET status = ?, game_id = ? WHERE id = ? AND status = ?",
            (status.value, game_id, challenge_id, ChallengeStatus.PENDING.value),
        )
        await self._db.commit()
        return cursor.rowcount == 1


class StaleGame(RuntimeError):
    """The stored game moved on (or ended) since the state a write was computed from."""


def _challenge(row: aiosqlite.Row) -> ChallengeRecord:
    return ChallengeRecord(
        id=row["id"],
        game=row["game"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        challenger_id=row["challenger_id"],
        opponent_ids=json.loads(row["opponent_ids"]),
        player_names={int(k): v for k, v in json.loads(row["player_names"]).items()},
        options=json.loads(row["options"]),
        message_id=row["message_id"],
        status=ChallengeStatus(row["status"]),
        game_id=row["game_id"],
        created_at=datetime.fromisoformat(row["created_at"]),
        expires_at=datetime.fromisoformat(row["expires_at"]),
        accepted_ids=json.loads(row["accepted_ids"]),
        kind=row["kind"],
    )


def _record(row: aiosqlite.Row, seats: list[Seat]) -> GameRecord:
    return GameRecord(
        id=row["id"],
        game=row["game"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        parent_id=row["parent_id"],
        seats=seats,
        options=json.loads(row["options"]),
        rng_seed=row["rng_seed"],
        state=json.loads(row["state"]),
        ply=row["ply"],
        status=GameStatus(row["status"]),
        result=json.loads(row["result"]) if row["result"] else None,
        board_message_id=row["board_message_id"],
        created_at=datetime.fromisoformat(row["created_at"]),
        updated_at=datetime.fromisoformat(row["updated_at"]),
        finished_at=_time(row["finished_at"]),
    )
