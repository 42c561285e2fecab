"""What a server has played, for `/serverstats`: each game's finished games (ever and this
month) and games in progress, the members who finished a game this month and the most active
of them; aborted games, AI seats and other servers left out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engines import GAMES
from storage import Database, GameActivity, GameRecord, Seat

MONTH = datetime(2026, 11, 1, tzinfo=UTC)
ALICE, BOB, CAROL, AI = 100, 200, 300, -1001


async def played(db: Database, game: str, players: tuple[int, int], *, finished: datetime | None,
                 guild_id: int = 1) -> GameRecord:
    """A game between `players`, started a day before `finished` and finished then (still
    running when `finished` is None)."""
    start = (finished or MONTH + timedelta(days=20)) - timedelta(days=1)
    record = await db.create_game(
        game=game, guild_id=guild_id, channel_id=10, parent_id=5,
        seats=[Seat(0, players[0], "P0"), Seat(1, players[1], "P1")], options={}, rng_seed=1,
        state=GAMES[game].new_state(2).dump(), now=start)
    if finished is not None:
        await db.record_moves(record.id, 0, [], {}, now=finished,
                              result={"winners": [0], "scores": None, "reason": "resign"})
    return record


async def test_a_servers_activity_by_game_this_month_and_its_most_active_members(
        db: Database) -> None:
    first = await played(db, "qawale", (ALICE, BOB), finished=MONTH - timedelta(days=10))
    await played(db, "qawale", (ALICE, BOB), finished=MONTH + timedelta(days=2))
    await played(db, "qawale", (ALICE, CAROL), finished=MONTH + timedelta(days=3))
    await played(db, "graps", (ALICE, AI), finished=MONTH + timedelta(days=4))
    await played(db, "graps", (BOB, CAROL), finished=None)  # in progress
    aborted = await played(db, "granat", (BOB, CAROL), finished=None)
    assert await db.abort_game(aborted.id, now=MONTH + timedelta(days=5))
    await played(db, "qawale", (BOB, CAROL), finished=MONTH + timedelta(days=5), guild_id=2)

    activity = await db.server_activity(1, list(GAMES), MONTH)
    assert activity.games == [GameActivity("graps", 1, 1, 1), GameActivity("qawale", 3, 2, 0)]
    assert activity.players_since == 3  # Alice, Bob, Carol; not the AI
    assert activity.most_active == [(ALICE, 3), (CAROL, 1), (BOB, 1)]  # ties: latest first
    assert activity.first_game == first.created_at


async def test_a_server_that_never_played(db: Database) -> None:
    activity = await db.server_activity(7, list(GAMES), MONTH)
    assert (activity.games, activity.players_since, activity.most_active,
            activity.first_game) == ([], 0, [], None)
