"""Games in progress: a member's, for `/mygames` (those waiting for them first, nearest
deadline first, then the others), and a server's, for `/live` (in the channels a member
sees, the latest move first); finished games and other servers' games left out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engines import GAMES
from storage import Database, GameRecord, MoveKind, NewMove, Seat

NOW = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
ALICE, BOB, CAROL = 100, 200, 300


async def game(db: Database, players: tuple[int, int], *, to_move: int, guild_id: int = 1,
               deadline_in: timedelta | None = None, started: datetime = NOW,
               kind: str = "qawale", channel_id: int = 10,
               parent_id: int | None = 5) -> GameRecord:
    """A running game (Qawale unless `kind`) between `players`, seat `to_move` to decide."""
    record = await db.create_game(
        game=kind, guild_id=guild_id, channel_id=channel_id, parent_id=parent_id,
        seats=[Seat(0, players[0], "P0"), Seat(1, players[1], "P1")], options={}, rng_seed=1,
        state=GAMES[kind].new_state(2).dump(), now=started, to_move=to_move)
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


async def test_a_servers_live_games_in_the_channels_given_latest_move_first(
        db: Database) -> None:
    older = await game(db, (ALICE, BOB), to_move=0)
    newer = await game(db, (BOB, CAROL), to_move=1, started=NOW + timedelta(minutes=5))
    in_channel = await game(db, (ALICE, CAROL), to_move=0, channel_id=7, parent_id=None,
                            started=NOW + timedelta(minutes=1))
    await game(db, (ALICE, BOB), to_move=0, channel_id=11, parent_id=6)  # a hidden channel
    await game(db, (ALICE, BOB), to_move=0, guild_id=2)
    over = await game(db, (ALICE, BOB), to_move=0, started=NOW + timedelta(minutes=9))
    assert await db.abort_game(over.id, now=NOW + timedelta(minutes=9))
    games, total = await db.live_games(1, [5, 7])
    assert [g.id for g in games] == [newer.id, in_channel.id, older.id]
    assert total == 3
    assert [s.user_id for s in games[0].seats] == [BOB, CAROL]
    assert games[0].to_move == 1


async def test_a_servers_live_games_of_one_game_and_cut_to_the_limit(db: Database) -> None:
    for minutes in range(12):
        await game(db, (ALICE, BOB), to_move=0, kind="graps" if minutes % 3 else "qawale",
                   started=NOW + timedelta(minutes=minutes))
    games, total = await db.live_games(1, [5], game="graps", limit=5)
    assert (len(games), total) == (5, 8)  # counted beyond the five listed
    assert {g.game for g in games} == {"graps"}
    assert games[0].updated_at == NOW + timedelta(minutes=11)
    assert await db.live_games(1, []) == ([], 0)


async def test_games_against_the_ai_are_counted_by_member_and_server(db: Database) -> None:
    ai = -1001
    await game(db, (ALICE, ai), to_move=0)
    await game(db, (ai, ALICE), to_move=0)
    await game(db, (ALICE, ai), to_move=0, guild_id=2)  # another server
    await game(db, (ALICE, BOB), to_move=0)  # people only
    over = await game(db, (ALICE, ai), to_move=0)
    assert await db.abort_game(over.id, now=NOW)
    assert await db.ai_games_of(ALICE, 1) == 2
    assert await db.ai_games_of(BOB, 1) == 0


async def test_the_games_running_in_a_channel_or_its_threads(db: Database) -> None:
    in_thread = await game(db, (ALICE, BOB), to_move=0, channel_id=11, parent_id=5)
    in_channel = await game(db, (ALICE, BOB), to_move=0, channel_id=5, parent_id=None)
    await game(db, (ALICE, BOB), to_move=0, channel_id=12, parent_id=6)  # another channel
    over = await game(db, (ALICE, BOB), to_move=0, channel_id=13, parent_id=5)
    assert await db.abort_game(over.id, now=NOW)
    assert [g.id for g in await db.running_games_under(5)] == [in_thread.id, in_channel.id]
    assert [g.id for g in await db.running_games_under(11)] == [in_thread.id]


async def test_the_games_running_on_a_server(db: Database) -> None:
    first = await game(db, (ALICE, BOB), to_move=0, channel_id=11)
    second = await game(db, (ALICE, CAROL), to_move=1, channel_id=12, kind="graps")
    await game(db, (ALICE, BOB), to_move=0, guild_id=2)  # another server
    over = await game(db, (ALICE, BOB), to_move=0)
    assert await db.abort_game(over.id, now=NOW)
    assert [g.id for g in await db.running_games_on_server(1)] == [first.id, second.id]
    assert await db.running_games_on_server(3) == []


async def test_the_bots_totals_count_games_servers_and_people_not_the_ai(db: Database) -> None:
    await game(db, (ALICE, BOB), to_move=0)
    await game(db, (ALICE, -1001), to_move=0, guild_id=2)  # against the AI, elsewhere
    finished = await game(db, (CAROL, BOB), to_move=0)
    await db.record_moves(finished.id, 0, [NewMove(0, CAROL, MoveKind.RESIGN, "resign")],
                          GAMES["qawale"].new_state(2).dump(), result={"scores": [0, 1]},
                          now=NOW)
    totals = await db.totals()
    assert (totals.running, totals.finished, totals.servers, totals.players) == (2, 1, 2, 3)
