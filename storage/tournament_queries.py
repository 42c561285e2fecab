"""Round-robin tournaments: started from their table, their games, their rounds."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from storage.base import DatabaseBase, dumps
from storage.models import (
    ChallengeStatus,
    GameStatus,
    TournamentGame,
    TournamentPlayer,
    TournamentRecord,
    TournamentStatus,
)
from storage.rows import parse_time, seats_of
from storage.sql import Executor, Row


def as_tournament(row: Row, players: list[TournamentPlayer]) -> TournamentRecord:
    """A `tournaments` row and its players as a tournament."""
    return TournamentRecord(
        id=row["id"], table_id=row["table_id"], game=row["game"], guild_id=row["guild_id"],
        channel_id=row["channel_id"], message_id=row["message_id"], host_id=row["host_id"],
        options=json.loads(row["options"]), clock=row["clock"], casual=bool(row["casual"]),
        legs=row["legs"], round=row["round"], status=TournamentStatus(row["status"]),
        created_at=datetime.fromisoformat(row["created_at"]),
        finished_at=parse_time(row["finished_at"]), players=players)


async def _read_tournament(sql: Executor, tournament_id: int) -> TournamentRecord | None:
    row = await sql.fetchrow("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
    if row is None:
        return None
    players = [TournamentPlayer(r["position"], r["user_id"], r["name"], r["withdrawn_in"],
                                r["place"])
               for r in await sql.fetch(
                   "SELECT position, user_id, name, withdrawn_in, place FROM tournament_players "
                   "WHERE tournament_id = ? ORDER BY position", (tournament_id,))]
    return as_tournament(row, players)


async def running_tournaments_count(sql: Executor, user_id: int) -> int:
    """How many tournaments still being played count `user_id` among their players."""
    row = await sql.fetchrow(
        """SELECT COUNT(*) AS n FROM tournament_players p
           JOIN tournaments t ON t.id = p.tournament_id
           WHERE p.user_id = ? AND t.status = ?""", (user_id, TournamentStatus.RUNNING.value))
    assert row is not None  # an aggregate gives one row
    return int(row["n"])


class TournamentQueries(DatabaseBase):
    """Tournaments and the games of their rounds."""

    async def start_tournament(
        self, *, table_id: int, game: str, guild_id: int | None, channel_id: int,
        message_id: int | None, host_id: int, players: list[tuple[int, str]],
        options: dict[str, Any], clock: str, casual: bool, now: datetime, legs: int = 1,
    ) -> TournamentRecord | None:
        """Close the table `table_id` and start its tournament, `players` in draw order, at
        round 1: one transaction. None when the table was no longer open (a second Start)."""

        async def write(sql: Executor) -> TournamentRecord | None:
            closed = await sql.execute(
                "UPDATE challenges SET status = ? WHERE id = ? AND status = ?",
                (ChallengeStatus.ACCEPTED.value, table_id, ChallengeStatus.PENDING.value))
            if closed.rowcount != 1:
                return None
            row = await sql.fetchrow(
                """INSERT INTO tournaments (table_id, game, guild_id, channel_id, message_id,
                                            host_id, options, clock, casual, legs, round,
                                            status, created_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?) RETURNING id""",
                (table_id, game, guild_id, channel_id, message_id, host_id, dumps(options),
                 clock, int(casual), legs, TournamentStatus.RUNNING.value, now.isoformat()))
            assert row is not None  # RETURNING gives the new row's id
            tournament_id = int(row["id"])
            await sql.executemany(
                "INSERT INTO tournament_players (tournament_id, position, user_id, name) "
                "VALUES (?, ?, ?, ?)",
                [(tournament_id, position, uid, name)
                 for position, (uid, name) in enumerate(players)])
            return await _read_tournament(sql, tournament_id)

        return await self.write(write)

    async def get_tournament(self, tournament_id: int) -> TournamentRecord | None:
        """The tournament with this id, with its players, or None."""
        return await self._read(lambda sql: _read_tournament(sql, tournament_id))

    async def tournament_of_game(self, game_id: int) -> int | None:
        """The tournament a game belongs to, or None for a game of its own."""
        rows = await self._fetch(
            "SELECT tournament_id FROM tournament_games WHERE game_id = ?", (game_id,))
        return int(rows[0]["tournament_id"]) if rows else None

    async def running_tournaments(self) -> list[int]:
        """The ids of the tournaments still being played, oldest first."""
        rows = await self._fetch("SELECT id FROM tournaments WHERE status = ? ORDER BY id",
                                 (TournamentStatus.RUNNING.value,))
        return [int(row["id"]) for row in rows]

    async def tournament_games(self, tournament_id: int) -> list[TournamentGame]:
        """Every game of a tournament so far, by round then id, without their states."""

        async def read(sql: Executor) -> list[TournamentGame]:
            rows = await sql.fetch(
                """SELECT g.id, tg.round, g.channel_id, g.status, g.result
                   FROM tournament_games tg JOIN games g ON g.id = tg.game_id
                   WHERE tg.tournament_id = ? ORDER BY tg.round, g.id""", (tournament_id,))
            seats = await seats_of(sql, [row["id"] for row in rows])
            return [TournamentGame(
                game_id=row["id"], round=row["round"], channel_id=row["channel_id"],
                player_ids=tuple(seat.user_id for seat in seats[row["id"]]),
                status=GameStatus(row["status"]),
                result=json.loads(row["result"]) if row["result"] else None) for row in rows]

        return await self._read(read)

    async def next_tournament_round(self, tournament_id: int, finished_round: int) -> bool:
        """Move a running tournament from `finished_round` to the next; False when another
        call did it first."""
        written = await self._write(
            "UPDATE tournaments SET round = ? WHERE id = ? AND round = ? AND status = ?",
            (finished_round + 1, tournament_id, finished_round, TournamentStatus.RUNNING.value))
        return written.rowcount == 1

    async def finish_tournament(self, tournament_id: int, now: datetime,
                                places: Mapping[int, int] | None = None) -> bool:
        """Mark a running tournament finished with its players' final `places` (by user
        id), in one transaction; False when it was not running."""

        async def write(sql: Executor) -> bool:
            written = await sql.execute(
                "UPDATE tournaments SET status = ?, finished_at = ? WHERE id = ? AND status = ?",
                (TournamentStatus.FINISHED.value, now.isoformat(), tournament_id,
                 TournamentStatus.RUNNING.value))
            if written.rowcount != 1:
                return False
            await sql.executemany(
                "UPDATE tournament_players SET place = ? WHERE tournament_id = ? AND user_id = ?",
                [(place, tournament_id, uid) for uid, place in (places or {}).items()])
            return True

        return await self.write(write)

    async def tournaments_of(self, user_id: int, guild_id: int | None) -> tuple[int, int]:
        """How many tournaments `user_id` finished on a server, and how many they won (first
        place, shared or not)."""
        rows = await self._fetch(
            """SELECT COUNT(*) AS played,
                      COALESCE(SUM(CASE WHEN p.place = 1 THEN 1 ELSE 0 END), 0) AS won
               FROM tournament_players p JOIN tournaments t ON t.id = p.tournament_id
               WHERE p.user_id = ? AND t.guild_id = ? AND t.status = ?""",
            (user_id, guild_id, TournamentStatus.FINISHED.value))
        return int(rows[0]["played"]), int(rows[0]["won"])

    async def tournaments_playing(self, user_id: int, guild_id: int) -> list[TournamentRecord]:
        """The server's tournaments in progress in which `user_id` still plays (not
        withdrawn), the oldest first."""

        async def read(sql: Executor) -> list[TournamentRecord]:
            rows = await sql.fetch(
                """SELECT t.id FROM tournament_players p
                   JOIN tournaments t ON t.id = p.tournament_id
                   WHERE p.user_id = ? AND p.withdrawn_in IS NULL AND t.guild_id = ?
                     AND t.status = ? ORDER BY t.id""",
                (user_id, guild_id, TournamentStatus.RUNNING.value))
            found = [await _read_tournament(sql, row["id"]) for row in rows]
            return [tournament for tournament in found if tournament is not None]

        return await self._read(read)

    async def withdraw_from_tournament(self, tournament_id: int, user_id: int) -> int | None:
        """Withdraw a player from a running tournament in its current round; that round, or
        None when they were not playing in it (or had withdrawn already, or it is over)."""

        async def write(sql: Executor) -> int | None:
            row = await sql.fetchrow("SELECT round FROM tournaments WHERE id = ? AND status = ?",
                                     (tournament_id, TournamentStatus.RUNNING.value))
            if row is None:
                return None
            written = await sql.execute(
                "UPDATE tournament_players SET withdrawn_in = ? WHERE tournament_id = ? AND "
                "user_id = ? AND withdrawn_in IS NULL", (row["round"], tournament_id, user_id))
            return int(row["round"]) if written.rowcount == 1 else None

        return await self.write(write)

    async def cancel_tournament(self, tournament_id: int, now: datetime) -> bool:
        """Cancel a running tournament (by its host or a moderator, or its channel is gone);
        False when it was not running."""
        written = await self._write(
            "UPDATE tournaments SET status = ?, finished_at = ? WHERE id = ? AND status = ?",
            (TournamentStatus.CANCELLED.value, now.isoformat(), tournament_id,
             TournamentStatus.RUNNING.value))
        return written.rowcount == 1

    async def cancel_tournaments_on_server(self, guild_id: int, now: datetime) -> list[int]:
        """Cancel a server's running tournaments (the bot left it); their ids."""
        return await self._cancel_where("guild_id", guild_id, now)

    async def cancel_tournaments_in_channel(self, channel_id: int, now: datetime) -> list[int]:
        """Cancel the running tournaments played from a deleted channel; their ids."""
        return await self._cancel_where("channel_id", channel_id, now)

    async def _cancel_where(self, column: str, value: int, now: datetime) -> list[int]:
        """Cancel the running tournaments whose `column` is `value` (a fixed column name)."""
        rows = await self.write(lambda sql: sql.fetch(
            f"UPDATE tournaments SET status = ?, finished_at = ? WHERE {column} = ? AND "
            "status = ? RETURNING id", (TournamentStatus.CANCELLED.value, now.isoformat(), value,
                                        TournamentStatus.RUNNING.value)))
        return sorted(int(row["id"]) for row in rows)

    async def server_tournaments(self, guild_id: int) -> tuple[int, int]:
        """How many tournaments a server has in progress, and how many it finished."""
        rows = await self._fetch(
            """SELECT COALESCE(SUM(CASE WHEN status = ? THEN 1 ELSE 0 END), 0) AS running,
                      COALESCE(SUM(CASE WHEN status = ? THEN 1 ELSE 0 END), 0) AS finished
               FROM tournaments WHERE guild_id = ?""",
            (TournamentStatus.RUNNING.value, TournamentStatus.FINISHED.value, guild_id))
        return int(rows[0]["running"]), int(rows[0]["finished"])

    async def running_tournaments_of(self, user_id: int) -> int:
        """How many tournaments still being played count `user_id` among their players."""
        return await self._read(lambda sql: running_tournaments_count(sql, user_id))
