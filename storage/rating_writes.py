"""Ratings written as games finish: each finished game's result applied once, through the
bot's rater, in the transaction that finishes it (or later, to catch up)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

from storage.models import GLOBAL_SCOPE, GameSummary, RatingRow
from storage.rows import SUMMARY_COLUMNS, as_rating, as_summary, seats_of
from storage.sql import Executor, Values

LOG = logging.getLogger(__name__)

Rater = Callable[[GameSummary, int, Callable[[int], RatingRow | None]], list[RatingRow]]
"""Rates one finished game in one scope: given the game, the scope and a lookup of the players'
stored rows (None: never rated there), the rows after the game. The bot supplies it (openskill);
storage keeps the rows and applies each finished game exactly once."""

RATING_BATCH = 50
"""Finished games rated per transaction while catching up (a migrated history, say), so the
writer is never held long."""

TO_RATE = "status = 'finished' AND rating_applied = 0"
"""Finished games not yet rated: spelled as the partial index `games_to_rate` is, so SQLite
uses it."""

INSERT_RATING_CHANGE = """
    INSERT INTO rating_changes (game_id, scope, player_id, rating_before, rating_after)
    VALUES (?, ?, ?, ?, ?)"""

UPSERT_RATING = """
    INSERT INTO ratings (game, scope, player_id, name, sort_name, mu, sigma, rating, games,
                         wins, draws, losses, streak, best_streak)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (game, scope, player_id) DO UPDATE SET
        name = excluded.name, sort_name = excluded.sort_name, mu = excluded.mu,
        sigma = excluded.sigma, rating = excluded.rating, games = excluded.games,
        wins = excluded.wins, draws = excluded.draws, losses = excluded.losses,
        streak = excluded.streak, best_streak = excluded.best_streak"""


async def apply_ratings(sql: Executor, rater: Rater) -> int:
    """Rate the oldest `RATING_BATCH` finished games not yet rated (inside a transaction).

    The rater is pure and asks for players' rows by id; which ids (an AI level counts as one
    player) is its business: a first call with nothing stored tells them, one query reads
    them, a second call rates.
    """
    rows = await sql.fetch(
        f"""SELECT {SUMMARY_COLUMNS} FROM games g WHERE {TO_RATE}
            ORDER BY finished_at, id LIMIT ?""", (RATING_BATCH,))
    seats = await seats_of(sql, [row["id"] for row in rows])
    for row in rows:
        game = as_summary(row, seats[row["id"]])
        scopes = [GLOBAL_SCOPE] if game.guild_id is None else [GLOBAL_SCOPE, game.guild_id]
        for scope in scopes:
            wanted: set[int] = set()
            rater(game, scope, partial(_note, wanted))
            stored = {found["player_id"]: as_rating(found) for found in await sql.fetch(
                """SELECT * FROM ratings WHERE game = ? AND scope = ?
                   AND player_id IN (SELECT value FROM json_each(?))""",
                (game.game, scope, Values(sorted(wanted))))}
            after = rater(game, scope, stored.get)
            await sql.executemany(UPSERT_RATING, [
                (rated.game, rated.scope, rated.player_id, rated.name, rated.name.casefold(),
                 rated.mu, rated.sigma, rated.rating, rated.games, rated.wins, rated.draws,
                 rated.losses, rated.streak, rated.best_streak)
                for rated in after])
            await sql.executemany(INSERT_RATING_CHANGE, [
                (game.id, scope, rated.player_id,
                 before.rating if (before := stored.get(rated.player_id)) else None,
                 rated.rating)
                for rated in after])
    await sql.execute(
        "UPDATE games SET rating_applied = 1 WHERE id IN (SELECT value FROM json_each(?))",
        (Values([row["id"] for row in rows]),))
    return len(rows)


def _note(wanted: set[int], player_id: int) -> None:
    """A lookup that only notes which players the rater asks for (nothing stored yet)."""
    wanted.add(player_id)


async def rate_safely(sql: Executor, rater: Rater) -> None:
    """Rate what just finished, without ever failing the move that finished it: a rating
    error rolls back to a savepoint and leaves the game for `rate_finished_games`."""
    await sql.execute("SAVEPOINT rating")
    try:
        await apply_ratings(sql, rater)
    except Exception:
        LOG.exception("rating a finished game failed; it stays in the backlog")
        await sql.execute("ROLLBACK TO SAVEPOINT rating")
    await sql.execute("RELEASE SAVEPOINT rating")
