"""Lists of games for the records: a member's finished games and games in progress, a
server's live games and activity."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from storage.base import DatabaseBase
from storage.models import (
    GameActivity,
    GameRecord,
    GameStatus,
    GameSummary,
    MonthRecap,
    RunningGame,
    ServerActivity,
    Totals,
    TournamentStatus,
)
from storage.privacy_queries import FORGOTTEN_IDS, FORGOTTEN_NAME
from storage.rows import (
    RUNNING_COLUMNS,
    SUMMARY_COLUMNS,
    as_summary,
    parse_time,
    running_of,
    seats_of,
)
from storage.sql import Executor, Values

FORGOTTEN_SEAT = "(s.user_id BETWEEN ? AND ? AND s.display_name = ?)"
"""A seat of a forgotten member (its id and name, as `shown_name` reads them): counted among
the players, never named (params: `*FORGOTTEN_IDS, FORGOTTEN_NAME`)."""


class GameListQueries(DatabaseBase):
    """Finished games and games in progress, by member or server, for the records."""

    async def finished_games(
        self, game: str | None = None, *, guild_id: int | None = None
    ) -> list[GameRecord]:
        """Finished games (not aborted), oldest result first; of one game and one server."""
        params: list[Any] = [GameStatus.FINISHED.value]
        where = _narrowed("status = ?", params, "", game=game, guild_id=guild_id)
        return await self._games(f"SELECT * FROM games WHERE {where} ORDER BY finished_at, id",
                                 params)

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

    async def totals(self) -> Totals:
        """Games in progress and finished, servers that played and people who did, over the
        whole database (each count reads an index, never the games' rows)."""
        async def read(sql: Executor) -> Totals:
            counts = {}
            for status in (GameStatus.RUNNING, GameStatus.FINISHED):
                row = await sql.fetchrow("SELECT COUNT(*) AS n FROM games WHERE status = ?",
                                         (status.value,))
                counts[status] = int(row["n"]) if row else 0
            servers = await sql.fetchrow(
                "SELECT COUNT(DISTINCT guild_id) AS n FROM games WHERE guild_id IS NOT NULL")
            players = await sql.fetchrow(  # AI seats have negative ids
                "SELECT COUNT(DISTINCT user_id) AS n FROM seats WHERE user_id > 0")
            return Totals(counts[GameStatus.RUNNING], counts[GameStatus.FINISHED],
                          int(servers["n"]) if servers else 0,
                          int(players["n"]) if players else 0)

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
                    AND NOT {FORGOTTEN_SEAT} GROUP BY s.user_id
                    ORDER BY n DESC, latest DESC LIMIT ?""",
                (*params, *FORGOTTEN_IDS, FORGOTTEN_NAME, most))
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

    async def month_recap(self, guild_id: int, since: datetime, until: datetime, *,
                          most: int = 3) -> MonthRecap:
        """What a server finished in [since, until): games by game, players, the `most`
        active."""
        finished = GameStatus.FINISHED.value
        span = (guild_id, finished, since.isoformat(), until.isoformat())

        async def read(sql: Executor) -> MonthRecap:
            games = await sql.fetch(
                """SELECT game, COUNT(*) AS n FROM games WHERE guild_id = ? AND status = ?
                   AND finished_at >= ? AND finished_at < ? GROUP BY game
                   ORDER BY n DESC, game""", span)
            seats = """FROM games g JOIN seats s ON s.game_id = g.id
                       WHERE g.guild_id = ? AND g.status = ? AND g.finished_at >= ?
                       AND g.finished_at < ? AND s.user_id > 0"""
            active = await sql.fetch(
                f"""SELECT s.user_id, COUNT(*) AS n, MAX(g.id) AS latest {seats}
                    AND NOT {FORGOTTEN_SEAT} GROUP BY s.user_id
                    ORDER BY n DESC, latest DESC LIMIT ?""",
                (*span, *FORGOTTEN_IDS, FORGOTTEN_NAME, most))
            players = await sql.fetchrow(f"SELECT COUNT(DISTINCT s.user_id) AS n {seats}", span)
            assert players is not None  # COUNT always gives a row
            won = await sql.fetch(
                """SELECT t.id, t.game, p.name FROM tournaments t
                   JOIN tournament_players p ON p.tournament_id = t.id AND p.place = 1
                   WHERE t.guild_id = ? AND t.status = ? AND t.finished_at >= ?
                   AND t.finished_at < ? ORDER BY t.finished_at, t.id, p.position""",
                (guild_id, TournamentStatus.FINISHED.value, *span[2:]))
            tournaments: dict[int, tuple[str, list[str]]] = {}
            for row in won:
                tournaments.setdefault(int(row["id"]), (str(row["game"]), []))[1].append(
                    str(row["name"]))
            return MonthRecap([(str(row["game"]), int(row["n"])) for row in games],
                              int(players["n"]),
                              [(int(row["user_id"]), int(row["n"])) for row in active],
                              list(tournaments.values()))

        return await self._read(read)


def _ended_games_of(user_id: int, guild_id: int | None,
                    game: str | None = None) -> tuple[str, list[Any]]:
    """The condition (on `games g JOIN seats s`) of a player's games that ended, on a server
    or anywhere, of one game or all, and its parameters."""
    params: list[Any] = [user_id, GameStatus.RUNNING.value]
    where = _narrowed("s.user_id = ? AND g.status != ?", params, "g.", game=game,
                      guild_id=guild_id)
    return where, params


def _narrowed(where: str, params: list[Any], prefix: str, *, game: str | None,
              guild_id: int | None) -> str:
    """`where` narrowed to one game and one server when given (columns of the games table,
    named with `prefix`), their values appended to `params`."""
    for column, value in (("guild_id", guild_id), ("game", game)):
        if value is not None:
            where += f" AND {prefix}{column} = ?"
            params.append(value)
    return where
