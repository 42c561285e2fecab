"""Storage of ratings: applied once, in the finishing transaction, and read page by page."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from engines import GAMES
from storage import (
    GLOBAL_SCOPE,
    Database,
    GameSummary,
    MoveKind,
    NewMove,
    RatingChange,
    RatingPoint,
    RatingRow,
    Seat,
)

NOW = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)


def count_wins(game: GameSummary, scope: int,
               lookup: Callable[[int], RatingRow | None]) -> list[RatingRow]:
    """A toy rater: one point of mu per win, so the stored rows are easy to predict."""
    assert game.result is not None
    rows = []
    for seat in game.seats:
        row = lookup(seat.user_id) or RatingRow(game.game, scope, seat.user_id,
                                                seat.display_name, 0.0, 0.0)
        won = seat.seat in game.result["winners"]
        rows.append(replace(row, games=row.games + 1, wins=row.wins + won,
                            losses=row.losses + (not won), mu=row.mu + won))
    return rows


async def finish(db: Database, players: list[int], winner: int, *, guild_id: int | None = 1,
                 at: datetime = NOW, game: str = "qawale") -> int:
    """Create and finish a two-player game; `winner` is a seat."""
    state = GAMES[game].new_state(2).dump()
    record = await db.create_game(
        game=game, guild_id=guild_id, channel_id=10, parent_id=5,
        seats=[Seat(i, user, f"P{user}") for i, user in enumerate(players)], options={},
        rng_seed=1, state=state, now=at)
    await db.record_moves(record.id, 0, [NewMove(winner, players[winner], MoveKind.PLAYER, "x")],
                          state, result={"winners": [winner], "reason": "end"}, now=at)
    return record.id


@pytest.fixture
async def rated_db(database_url: str):
    database = await Database.open(database_url, rater=count_wins)
    yield database
    await database.close()


async def test_a_finished_game_is_rated_in_the_transaction_that_finishes_it(rated_db) -> None:
    await finish(rated_db, [100, 200], winner=0)
    rows, total = await rated_db.leaderboard("qawale", GLOBAL_SCOPE, offset=0, limit=10)
    assert total == 2
    assert [(r.player_id, r.wins, r.losses) for r in rows] == [(100, 1, 0), (200, 0, 1)]
    assert await rated_db.unrated_backlog() == 0


async def test_a_rated_game_keeps_its_players_ratings_before_and_after_it_in_each_scope(
    rated_db,
) -> None:
    first = await finish(rated_db, [100, 200], winner=0)
    second = await finish(rated_db, [100, 200], winner=0)
    for scope in (1, GLOBAL_SCOPE):
        # A newcomer has no rating before; the toy rater's rating is the number of wins.
        assert await rated_db.rating_changes(first, scope) == {
            100: RatingChange(100, None, 1.0), 200: RatingChange(200, None, 0.0)}
        assert await rated_db.rating_changes(second, scope) == {
            100: RatingChange(100, 1.0, 2.0), 200: RatingChange(200, 0.0, 0.0)}
    assert await rated_db.rating_changes(first, 2) == {}  # another server's


async def test_a_players_rating_changes_are_read_for_the_games_asked_only(rated_db) -> None:
    first = await finish(rated_db, [100, 200], winner=1)
    second = await finish(rated_db, [300, 100], winner=1)
    await finish(rated_db, [100, 200], winner=0)
    assert await rated_db.rating_changes_of(100, 1, [first, second, 999]) == {
        first: RatingChange(100, None, 0.0), second: RatingChange(100, 0.0, 1.0)}
    assert await rated_db.rating_changes_of(100, 1, []) == {}


async def test_a_players_rating_history_is_their_last_rated_games_of_one_game_in_one_scope(
    rated_db,
) -> None:
    early = await finish(rated_db, [200, 100], winner=1, at=NOW + timedelta(hours=1))
    late = await finish(rated_db, [100, 200], winner=0, at=NOW + timedelta(hours=2))
    await finish(rated_db, [100, 200], winner=0, at=NOW + timedelta(hours=3), game="graps")
    await finish(rated_db, [100, 300], winner=0, at=NOW + timedelta(hours=4), guild_id=2)
    last = await finish(rated_db, [300, 100], winner=0, at=NOW + timedelta(hours=5))

    history = await rated_db.rating_history(100, 1, "qawale", limit=10)
    assert history == [
        RatingPoint(early, NOW + timedelta(hours=1), None, 1.0),
        RatingPoint(late, NOW + timedelta(hours=2), 1.0, 2.0),
        RatingPoint(last, NOW + timedelta(hours=5), 2.0, 2.0)]
    assert [p.game_id for p in await rated_db.rating_history(100, 1, "qawale", limit=2)] == [
        late, last], "the last games, oldest first"
    assert len(await rated_db.rating_history(100, GLOBAL_SCOPE, "qawale", limit=10)) == 4
    assert await rated_db.rating_history(100, 1, "granat", limit=10) == []
    assert await rated_db.rating_history(999, 1, "qawale", limit=10) == []
    assert await rated_db.best_rating(100, 1, "qawale") == history[1], "the first time at 2.0"
    assert await rated_db.best_rating(100, 1, "granat") is None


async def test_a_server_game_counts_on_its_server_and_globally_a_dm_game_only_globally(
    rated_db,
) -> None:
    await finish(rated_db, [100, 200], winner=0, guild_id=1)
    await finish(rated_db, [100, 200], winner=1, guild_id=None)
    server, _ = await rated_db.leaderboard("qawale", 1, offset=0, limit=10)
    everywhere, _ = await rated_db.leaderboard("qawale", GLOBAL_SCOPE, offset=0, limit=10)
    assert {r.player_id: r.games for r in server} == {100: 1, 200: 1}
    assert {r.player_id: r.games for r in everywhere} == {100: 2, 200: 2}


async def test_games_finished_before_the_ratings_table_are_caught_up_once(database_url) -> None:
    url = database_url
    plain = await Database.open(url)  # no rater: as a bot before migration 6 left it
    for day in range(3):
        await finish(plain, [100, 200], winner=day % 2, at=NOW + timedelta(days=day))
    await plain.close()
    database = await Database.open(url, rater=count_wins)
    try:
        assert await database.unrated_backlog() == 3
        assert await database.rate_finished_games() == 3
        assert await database.rate_finished_games() == 0  # never twice
        rows, _ = await database.leaderboard("qawale", GLOBAL_SCOPE, offset=0, limit=10)
        assert {r.player_id: (r.wins, r.losses) for r in rows} == {100: (2, 1), 200: (1, 2)}
        # Caught up oldest first, each game's changes kept as if rated when it finished.
        assert await database.rating_changes(3, GLOBAL_SCOPE) == {
            100: RatingChange(100, 1.0, 2.0), 200: RatingChange(200, 1.0, 1.0)}
    finally:
        await database.close()


async def test_a_failing_rater_never_fails_the_move_and_the_game_is_rated_later(
    database_url, caplog: pytest.LogCaptureFixture,
) -> None:
    broken = True

    def flaky(game: GameSummary, scope: int, lookup: Callable[[int], RatingRow | None]
              ) -> list[RatingRow]:
        if broken:
            raise ValueError("a bug in the rating model")
        return count_wins(game, scope, lookup)

    database = await Database.open(database_url, rater=flaky)
    try:
        with caplog.at_level(logging.ERROR):
            game_id = await finish(database, [100, 200], winner=0)
        record = await database.get_game(game_id)
        assert record is not None and record.result is not None  # the move is stored
        assert "rating a finished game failed" in caplog.text
        assert await database.unrated_backlog() == 1
        assert await database.rating_changes(game_id, GLOBAL_SCOPE) == {}
        broken = False
        assert await database.rate_finished_games() == 1
        assert set(await database.rating_changes(game_id, GLOBAL_SCOPE)) == {100, 200}
        rows, total = await database.leaderboard("qawale", GLOBAL_SCOPE, offset=0, limit=10)
        assert total == 2 and rows[0].player_id == 100
    finally:
        await database.close()


async def test_leaderboard_pages_follow_rating_then_games_then_name(rated_db) -> None:
    # Player 300 wins twice, 100 once, 200 and 400 never (400 played fewer games).
    await finish(rated_db, [300, 200], winner=0)
    await finish(rated_db, [300, 200], winner=0)
    await finish(rated_db, [100, 400], winner=0)
    first, total = await rated_db.leaderboard("qawale", GLOBAL_SCOPE, offset=0, limit=2)
    second, _ = await rated_db.leaderboard("qawale", GLOBAL_SCOPE, offset=2, limit=2)
    assert total == 4
    assert [r.player_id for r in first + second] == [300, 100, 200, 400]


async def test_a_players_ratings_come_with_their_rank_among_everyone(rated_db) -> None:
    await finish(rated_db, [300, 200], winner=0)
    await finish(rated_db, [100, 400], winner=0)
    await finish(rated_db, [300, 100], winner=0)
    [(row, rank, players)] = await rated_db.player_ratings(100, GLOBAL_SCOPE)
    assert (row.wins, row.losses, rank, players) == (1, 1, 2, 4)
    assert await rated_db.player_ratings(999, GLOBAL_SCOPE) == []


async def test_a_months_climbers_are_ranked_by_the_rating_their_games_that_month_gave(
    rated_db,
) -> None:
    october, november, december = (datetime(2026, month, 1, tzinfo=UTC) for month in (10, 11, 12))
    for _ in range(2):
        await finish(rated_db, [100, 200], winner=0, at=october + timedelta(days=19))
    await finish(rated_db, [100, 200], winner=1, at=november)  # the very first instant counts
    await finish(rated_db, [300, 100], winner=0, at=november + timedelta(days=9))
    await finish(rated_db, [100, 300], winner=0, at=december)  # the next month's
    await finish(rated_db, [400, 500], winner=0, at=november + timedelta(days=3), guild_id=2)
    await finish(rated_db, [100, 200], winner=0, at=november, game="granat")

    climbers, total = await rated_db.climbers("qawale", 1, november, december, guild_id=1,
                                              offset=0, limit=10)
    assert total == 3
    assert [(c.player_id, c.gain, c.games) for c in climbers] == [
        (200, 1.0, 1), (300, 1.0, 1), (100, 0.0, 2)]
    assert [c.rating for c in climbers] == [1.0, 1.0, 3.0], "their rating now, December too"
    page, total = await rated_db.climbers("qawale", GLOBAL_SCOPE, november, december,
                                          guild_id=None, offset=1, limit=2)
    assert total == 5 and [c.player_id for c in page] == [300, 400]
    none, total = await rated_db.climbers("graps", 1, november, december, guild_id=1,
                                          offset=0, limit=10)
    assert (none, total) == ([], 0)


async def test_the_best_before_a_game_counts_only_the_games_of_its_kind_finished_earlier(
    rated_db,
) -> None:
    first = await finish(rated_db, [100, 200], winner=0, at=NOW)
    await finish(rated_db, [100, 200], winner=0, at=NOW + timedelta(hours=1))
    await finish(rated_db, [100, 300], winner=0, at=NOW + timedelta(hours=1), game="granat")
    third = await finish(rated_db, [100, 200], winner=1, at=NOW + timedelta(hours=2))
    later = await finish(rated_db, [100, 200], winner=0, at=NOW + timedelta(hours=3))
    assert await rated_db.bests_before(first, 1) == {}, "nobody had played before"
    assert await rated_db.bests_before(third, 1) == {100: (2.0, 2), 200: (0.0, 2)}
    assert await rated_db.bests_before(later, GLOBAL_SCOPE) == {100: (2.0, 3), 200: (1.0, 3)}


async def test_the_ratings_of_some_players_are_read_for_seeding(rated_db) -> None:
    await finish(rated_db, [100, 200], winner=0)
    await finish(rated_db, [100, 300], winner=0, game="graps")
    rows, _total = await rated_db.leaderboard("qawale", 1, offset=0, limit=10)
    expected = {row.player_id: row.rating for row in rows}
    assert await rated_db.ratings_of("qawale", 1, [100, 200, 400]) == expected
    assert set(expected) == {100, 200}, "a player without a rating is left out"
