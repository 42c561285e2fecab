"""A member's games in progress, for `/mygames`: those waiting for them first, nearest
deadline first, then the others; finished games and other servers' games left out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engines import GAMES
from storage import Database, GameRecord, Seat

NOW = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
ALICE, BOB, CAROL = 100, 200, 300


async def game(db: Database, players: tuple[int, int], *, to_move: int, guild_id: int = 1,
               deadline_in: timedelta | None = None, started: datetime = NOW) -> GameRecord:
    """A running Qawale game between `players`, seat `to_move` to decide."""
    record = await db.create_game(
        game="qawale", guild_id=guild_id, channel_id=10, parent_id=5,
        seats=[Seat(0, players[0], "P0"), Seat(1, players[1], "P1")], options={}, rng_seed=1,
        state=GAMES["qawale"].new_state(2).dump(), now=started, to_move=to_move)
    if deadline_in is not None:
        await db.set_turn_clock(record.id, 0, NOW + deadline_in, [])
    return record


async def test_games_waiting_for_the_member_come_first_nearest_deadline_first(
        db: Database) -> None:
    theirs_later = await game(db, (ALICE, BOB), to_move=0, deadline_in=timedelta(hours=20))
    waiting_for_bob = await game(db, (ALICE, BOB), to_move=1, deadline_in=timedelta(hours=1))
    theirs_soon = await game(db, (BOB, ALICE), to_move=1, deadline_in=timedelta(hours=2))
    theirs_no_clock = await game(db, (ALICE, CAROL), to_move=0)
    games, total, waiting = await db.running_games_of(ALICE, guild_id=1)
    assert [g.id for g in games] == [theirs_soon.id, theirs_later.id, theirs_no_clock.id,
                                     waiting_for_bob.id]
    assert (total, waiting) == (4, 3)
    assert [g.waits_for(ALICE) for g in games] == [True, True, True, False]
    assert games[0].deadline == NOW + timedelta(hours=2)
    assert [s.user_id for s in games[0].seats] == [BOB, ALICE]


async def test_finished_games_and_other_servers_games_are_left_out(db: Database) -> None:
    here = await game(db, (ALICE, BOB), to_move=0)
    await game(db, (ALICE, BOB), to_move=0, guild_id=2)
    aborted = await game(db, (ALICE, BOB), to_move=0)
    assert await db.abort_game(aborted.id, now=NOW)
    await game(db, (BOB, CAROL), to_move=0)
    games, total, waiting = await db.running_games_of(ALICE, guild_id=1)
    assert ([g.id for g in games], total, waiting) == ([here.id], 1, 1)


async def test_a_long_list_is_cut_and_says_how_many_there_are(db: Database) -> None:
    for minutes in range(30):
        await game(db, (ALICE, BOB), to_move=minutes % 2, started=NOW + timedelta(minutes=minutes))
    games, total, waiting = await db.running_games_of(ALICE, guild_id=1, limit=10)
    assert (len(games), total, waiting) == (10, 30, 15)  # counted beyond the ten listed
    assert all(g.waits_for(ALICE) for g in games)
    assert games[0].updated_at == NOW + timedelta(minutes=28)  # the latest move first
