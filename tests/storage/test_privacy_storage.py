"""Forgetting a member: their seats pass to a forgotten id, their own data goes, nobody else's
game changes; never while a game of theirs runs. On both backends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from engines import GAMES
from storage import GLOBAL_SCOPE, ChallengeStatus, Database, Seat
from storage.privacy_queries import FORGOTTEN_NAME, is_forgotten
from tests.storage.test_ratings_storage import NOW, count_wins, finish

ALICE, BOB, CAROL = 10**17 + 1, 10**17 + 2, 10**17 + 3


@pytest.fixture
async def rated_db(database_url: str) -> AsyncIterator[Database]:
    """A database of each backend whose finished games are rated (one point a win)."""
    database = await Database.open(database_url, rater=count_wins)
    yield database
    await database.close()


async def test_a_forgotten_member_leaves_their_games_whole_and_takes_their_data(
    rated_db,
) -> None:
    db = rated_db
    game_id = await finish(db, [ALICE, BOB], winner=1)
    await db.set_dm_reminders(ALICE, False)
    waiting = await db.create_challenge(
        game="qawale", guild_id=1, channel_id=10, challenger_id=CAROL, opponent_ids=[ALICE],
        player_names={CAROL: "Carol", ALICE: "Alice"}, options={}, now=NOW,
        expires_at=NOW + timedelta(minutes=10))
    before = await db.member_data(ALICE)
    assert (before.games, before.running, before.rated_games, before.waiting_challenges,
            before.settings) == (1, 0, 1, 1, True)

    done = await db.forget_member(ALICE)

    assert done is not None and is_forgotten(done.new_id)
    forgotten = done.new_id
    assert [(c.channel_id, c.guild_id) for c in done.cancelled] == [(10, 1)]
    record = await db.get_game(game_id)
    assert [(s.user_id, s.display_name) for s in record.seats] == [
        (forgotten, FORGOTTEN_NAME), (BOB, f"P{BOB}")]
    assert {m.user_id for m in await db.moves(game_id)} <= {forgotten, BOB, None}
    rows, _count = await db.leaderboard("qawale", GLOBAL_SCOPE, offset=0, limit=10)
    assert [row.player_id for row in rows] == [BOB], "the opponent keeps their rating"
    after = await db.member_data(ALICE)
    assert (after.games, after.rated_games, after.waiting_challenges, after.settings) == (
        0, 0, 0, False)
    challenge = await db.get_challenge(waiting.id)
    assert challenge.status is ChallengeStatus.CANCELLED
    assert challenge.opponent_ids == [forgotten]
    assert challenge.player_names == {CAROL: "Carol", forgotten: FORGOTTEN_NAME}


async def test_two_forgotten_members_get_two_ids(rated_db) -> None:
    await finish(rated_db, [ALICE, BOB], winner=0)
    first = await rated_db.forget_member(ALICE)
    second = await rated_db.forget_member(BOB)
    assert first is not None and second is not None and first.new_id != second.new_id


async def test_nobody_is_forgotten_while_a_game_of_theirs_runs(rated_db) -> None:
    running = await rated_db.create_game(
        game="qawale", guild_id=1, channel_id=11, parent_id=5,
        seats=[Seat(0, ALICE, "Alice"), Seat(1, BOB, "Bob")], options={}, rng_seed=1,
        state=GAMES["qawale"].new_state(2).dump(), now=NOW)
    assert (await rated_db.member_data(ALICE)).running == 1

    assert await rated_db.forget_member(ALICE) is None

    record = await rated_db.get_game(running.id)
    assert record.seats[0].user_id == ALICE
