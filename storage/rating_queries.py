"""Ratings: the leaderboards, each player's rating history and each game's rating changes."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from storage.base import DatabaseBase
from storage.models import Climber, GameStatus, RatingChange, RatingPoint, RatingRow
from storage.rating_writes import RATING_BATCH, TO_RATE, apply_ratings
from storage.rows import as_climber, as_rating, as_rating_change, as_rating_point
from storage.sql import Executor, Values


class RatingQueries(DatabaseBase):
    """Leaderboards and rating histories, read from the ratings kept as games finish."""

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

    async def ratings_of(self, game: str, scope: int,
                         player_ids: Sequence[int]) -> dict[int, float]:
        """The displayed rating in `game` and `scope` of those of `player_ids` who have one."""
        rows = await self._fetch(
            """SELECT player_id, rating FROM ratings WHERE game = ? AND scope = ?
               AND player_id IN (SELECT value FROM json_each(?))""",
            (game, scope, Values(list(player_ids))))
        return {int(row["player_id"]): float(row["rating"]) for row in rows}


RANK_ORDER = "rating DESC, games DESC, sort_name, player_id"
"""Leaderboard order: rating, then games played, then name (the `ratings_by_rank` index)."""
