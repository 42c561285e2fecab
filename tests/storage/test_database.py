"""Storage: migrations from empty and onto an existing database, round trips, restarts."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engines import GAMES
from storage import (
    MIGRATIONS,
    SCHEMA,
    ChallengeStatus,
    Database,
    GameStatus,
    Migration,
    MoveKind,
    NewMove,
    Seat,
    SqliteDatabase,
    StaleGame,
    StorageBusy,
    StorageCorrupt,
    StorageError,
    StorageFull,
    StorageReadOnly,
)
from storage.errors import storage_error

NOW = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)


async def _new_game(db: Database, channel_id: int = 10):
    state = GAMES["qawale"].new_state(2)
    return await db.create_game(
        game="qawale", guild_id=1, channel_id=channel_id, parent_id=5,
        seats=[Seat(0, 100, "Alice"), Seat(1, 200, "Bob")], options={}, rng_seed=42,
        state=state.dump(), now=NOW,
    )


async def test_migrations_build_the_schema_from_an_empty_database(db: Database) -> None:
    assert await db.schema_version() == MIGRATIONS[-1].version
    if isinstance(db, SqliteDatabase):
        assert await db.journal_mode() == "wal"


async def test_a_later_migration_applies_to_an_existing_database_without_losing_games(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    old = await Database.open(url)
    game = await _new_game(old)
    await old.close()

    later = Migration(MIGRATIONS[-1].version + 1, "a new column",
                      ("ALTER TABLE games ADD COLUMN note TEXT DEFAULT 'kept'",))
    upgraded = await Database.open(url, migrations=(*MIGRATIONS, later))
    try:
        assert await upgraded.schema_version() == later.version
        assert (await upgraded.get_game(game.id)).seats == game.seats
        assert await upgraded.migrate((*MIGRATIONS, later)) == []  # each migration runs once
    finally:
        await upgraded.close()


async def test_a_failing_migration_leaves_the_schema_at_the_previous_version(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'broken.db'}"
    broken = Migration(MIGRATIONS[-1].version + 1, "broken",
                       ("CREATE TABLE half_done (x INTEGER)", "ALTER TABLE nowhere ADD x"))
    with pytest.raises(Exception, match="nowhere"):
        await Database.open(url, migrations=(*MIGRATIONS, broken))
    database = await Database.open(url)
    try:
        assert await database.schema_version() == MIGRATIONS[-1].version
        async with database._db.execute(
            "SELECT name FROM sqlite_master WHERE name = 'half_done'"
        ) as cursor:
            assert await cursor.fetchone() is None
    finally:
        await database.close()


async def test_game_round_trip_keeps_seats_options_state_and_seed(db: Database) -> None:
    created = await _new_game(db)
    loaded = await db.get_game(created.id)
    assert loaded == created
    assert loaded.status is GameStatus.RUNNING and loaded.ply == 0
    assert loaded.seat_of(200) == 1 and loaded.seat_of(999) is None
    assert GAMES["qawale"].load(loaded.state).position() == GAMES["qawale"].new_state(2).position()


async def test_moves_and_state_are_committed_together(db: Database) -> None:
    game = await _new_game(db)
    state = GAMES["qawale"].load(game.state)
    state.apply("a1:NNE")
    ply = await db.record_moves(
        game.id, 0, [NewMove(0, 100, MoveKind.PLAYER, "a1:NNE")], state.dump(), result=None,
        now=NOW + timedelta(seconds=5),
    )
    assert ply == 1
    stored = await db.get_game(game.id)
    assert stored.ply == 1 and stored.state == state.dump()
    [move] = await db.moves(game.id)
    assert (move.ply, move.seat, move.user_id, move.kind, move.move) == (
        1, 0, 100, MoveKind.PLAYER, "a1:NNE")


async def test_decisions_taken_back_no_longer_count_and_the_log_keeps_them(
    db: Database,
) -> None:
    game = await _new_game(db)
    log = [NewMove(0, 100, MoveKind.PLAYER, "a1:NNE"), NewMove(1, 200, MoveKind.PLAYER, "x"),
           NewMove(0, 100, MoveKind.PLAYER, "y"), NewMove(1, 200, MoveKind.PLAYER, "z"),
           NewMove(0, 100, MoveKind.TAKEBACK, "2")]  # back to the position after ply 2
    await db.record_moves(game.id, 0, log, game.state, result=None, now=NOW)
    _shown, decisions = await db.turn_log(game.id, 0)
    assert decisions == 2
    again = [NewMove(0, 100, MoveKind.PLAYER, "w"), NewMove(1, 200, MoveKind.PLAYER, "v"),
             NewMove(0, 100, MoveKind.TAKEBACK, "5")]  # plies 6-7 taken back, at 8
    await db.record_moves(game.id, 5, again, game.state, result=None, now=NOW)
    _shown, decisions = await db.turn_log(game.id, 0)
    assert decisions == 2
    assert len(await db.moves(game.id)) == 8


async def test_a_move_computed_from_a_stale_ply_is_never_written(db: Database) -> None:
    game = await _new_game(db)
    move = [NewMove(0, 100, MoveKind.PLAYER, "a1:NNE")]
    await db.record_moves(game.id, 0, move, game.state, result=None, now=NOW)
    with pytest.raises(StaleGame):
        await db.record_moves(game.id, 0, move, game.state, result=None, now=NOW)
    assert len(await db.moves(game.id)) == 1


async def test_finishing_a_game_stores_the_result_and_frees_the_channel(db: Database) -> None:
    game = await _new_game(db, channel_id=77)
    assert (await db.running_game_in(77)).id == game.id
    result = {"winners": [1], "scores": None, "reason": "resigned"}
    await db.record_moves(game.id, 0, [NewMove(0, 100, MoveKind.RESIGN, "resign")], game.state,
                          result=result, now=NOW)
    finished = await db.get_game(game.id)
    assert finished.status is GameStatus.FINISHED and finished.result == result
    assert finished.finished_at == NOW
    assert await db.running_game_in(77) is None
    assert await db.running_games() == []


async def test_running_games_survive_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'restart.db'}"
    first = await Database.open(url)
    game = await _new_game(first)
    await first.set_board_message(game.id, 555)
    await first.close()
    second = await Database.open(url)
    try:
        [resumed] = await second.running_games()
        assert resumed.id == game.id and resumed.board_message_id == 555
    finally:
        await second.close()


async def test_a_challenge_is_answered_only_once(db: Database) -> None:
    challenge = await db.create_challenge(
        game="qawale", guild_id=1, channel_id=10, challenger_id=100, opponent_ids=[200],
        player_names={100: "Alice", 200: "Bob"}, options={}, now=NOW,
        expires_at=NOW + timedelta(minutes=10),
    )
    assert [c.id for c in await db.pending_challenges()] == [challenge.id]
    assert await db.close_challenge(challenge.id, ChallengeStatus.DECLINED)
    assert not await db.close_challenge(challenge.id, ChallengeStatus.ACCEPTED)
    stored = await db.get_challenge(challenge.id)
    assert stored.status is ChallengeStatus.DECLINED and stored.name_of(200) == "Bob"
    assert await db.pending_challenges() == []


async def test_a_members_waiting_challenges_are_theirs_pending_and_not_expired(
        db: Database) -> None:
    async def challenge(by: int, minutes: int, kind: str = "challenge") -> int:
        record = await db.create_challenge(
            game="qawale", guild_id=1, channel_id=10, challenger_id=by, opponent_ids=[200],
            player_names={by: "Alice", 200: "Bob"}, options={}, now=NOW,
            expires_at=NOW + timedelta(minutes=minutes), kind=kind)
        return record.id

    later = await challenge(100, 9)
    table = await challenge(100, 5, kind="lobby")
    await challenge(300, 9)  # someone else's
    await challenge(100, -1)  # expired, its timer not yet run
    answered = await challenge(100, 7)
    assert await db.close_challenge(answered, ChallengeStatus.DECLINED)
    waiting = await db.waiting_challenges_of(100, NOW)
    assert [c.id for c in waiting] == [table, later]  # the first to expire first
    assert waiting[0].is_lobby


async def test_leaving_a_server_cancels_only_its_waiting_challenges(db: Database) -> None:
    async def challenge(guild_id: int, kind: str = "challenge") -> int:
        record = await db.create_challenge(
            game="qawale", guild_id=guild_id, channel_id=10, challenger_id=100,
            opponent_ids=[200], player_names={100: "Alice", 200: "Bob"}, options={}, now=NOW,
            expires_at=NOW + timedelta(minutes=10), kind=kind)
        return record.id

    waiting, table, elsewhere = await challenge(1), await challenge(1, "lobby"), await challenge(2)
    answered = await challenge(1)
    assert await db.close_challenge(answered, ChallengeStatus.DECLINED)
    assert await db.cancel_challenges_on_server(1) == [waiting, table]
    assert [c.id for c in await db.pending_challenges()] == [elsewhere]
    assert (await db.get_challenge(answered)).status is ChallengeStatus.DECLINED
    assert await db.cancel_challenges_on_server(1) == []


async def test_deleting_a_channel_cancels_only_the_challenges_waiting_in_it(
        db: Database) -> None:
    async def challenge(channel_id: int, kind: str = "challenge") -> int:
        record = await db.create_challenge(
            game="qawale", guild_id=1, channel_id=channel_id, challenger_id=100,
            opponent_ids=[200], player_names={100: "Alice", 200: "Bob"}, options={}, now=NOW,
            expires_at=NOW + timedelta(minutes=10), kind=kind)
        return record.id

    waiting, table = await challenge(10), await challenge(10, "tournament")
    elsewhere = await challenge(11)
    answered = await challenge(10)
    assert await db.close_challenge(answered, ChallengeStatus.DECLINED)
    assert await db.cancel_challenges_in_channel(10) == [waiting, table]
    assert [c.id for c in await db.pending_challenges()] == [elsewhere]
    assert (await db.get_challenge(waiting)).status is ChallengeStatus.CANCELLED
    assert (await db.get_challenge(answered)).status is ChallengeStatus.DECLINED
    assert await db.cancel_challenges_in_channel(10) == []


async def test_a_challenge_records_who_joined_and_who_accepted(db: Database) -> None:
    lobby = await db.create_challenge(
        game="kraut_ruben", guild_id=1, channel_id=10, challenger_id=100, opponent_ids=[],
        player_names={100: "Alice"}, options={}, now=NOW,
        expires_at=NOW + timedelta(minutes=10), kind="lobby",
    )
    assert lobby.is_lobby and lobby.accepted_ids == [] and lobby.player_ids == [100]
    assert await db.update_challenge_players(
        lobby.id, opponent_ids=[200, 300], player_names={100: "Alice", 200: "Bob", 300: "Carol"},
        accepted_ids=[300])
    stored = await db.get_challenge(lobby.id)
    assert stored.player_ids == [100, 200, 300] and stored.accepted_ids == [300]
    assert stored.name_of(300) == "Carol"
    await db.close_challenge(lobby.id, ChallengeStatus.CANCELLED)
    assert not await db.update_challenge_players(
        lobby.id, opponent_ids=[], player_names={}, accepted_ids=[])


async def test_an_aborted_game_keeps_no_result_and_leaves_the_rated_games(db: Database) -> None:
    aborted, done = await _new_game(db, channel_id=10), await _new_game(db, channel_id=11)
    await db.record_moves(done.id, 0, [NewMove(0, 100, MoveKind.RESIGN, "resign")], done.state,
                          result={"winners": [1], "scores": None, "reason": "resigned"},
                          now=NOW)
    assert await db.abort_game(aborted.id, now=NOW)
    assert not await db.abort_game(aborted.id, now=NOW)  # only a running game
    assert not await db.abort_game(done.id, now=NOW)
    stored = await db.get_game(aborted.id)
    assert stored.status is GameStatus.ABORTED and stored.result is None
    assert await db.running_game_in(10) is None
    assert [g.id for g in await db.finished_games("qawale", guild_id=1)] == [done.id]
    assert await db.finished_games("qawale", guild_id=2) == []
    assert [g.id for g in await db.games_of(100, guild_id=1)] == [done.id, aborted.id]
    assert await db.games_of(300) == []


async def test_a_players_ended_games_page_newest_first_and_are_counted(db: Database) -> None:
    ended = []
    for day in range(5):
        game = await _new_game(db, channel_id=20 + day)
        await db.record_moves(game.id, 0, [NewMove(0, 100, MoveKind.RESIGN, "resign")],
                              game.state, result={"winners": [1], "reason": "resigned"},
                              now=NOW + timedelta(days=day))
        ended.append(game.id)
    await _new_game(db, channel_id=30)  # still running: neither listed nor counted
    newest_first = ended[::-1]
    assert [g.id for g in await db.games_of(100, guild_id=1, limit=2)] == newest_first[:2]
    assert [g.id for g in await db.games_of(100, guild_id=1, limit=2, offset=2)] == \
        newest_first[2:4]
    assert [g.id for g in await db.games_of(200, limit=2, offset=4)] == newest_first[4:]
    assert await db.count_games_of(100, guild_id=1) == 5
    assert await db.count_games_of(200) == 5
    assert await db.count_games_of(100, guild_id=2) == 0


async def test_the_games_two_players_finished_together_are_read_newest_first(
    db: Database,
) -> None:
    async def finished(seats: list[Seat], guild_id: int, day: int) -> int:
        game = await db.create_game(
            game="kraut_ruben", guild_id=guild_id, channel_id=40 + day, parent_id=None,
            seats=seats, options={}, rng_seed=1, state={}, now=NOW)
        await db.record_moves(game.id, 0, [NewMove(0, seats[0].user_id, MoveKind.RESIGN, "r")],
                              {}, result={"winners": [1], "reason": "resigned"},
                              now=NOW + timedelta(days=day))
        return game.id

    alice, bob = Seat(0, 100, "Alice"), Seat(1, 200, "Bob")
    first = await finished([alice, bob], 1, 0)
    three = await finished([Seat(0, 300, "Carol"), bob, Seat(2, 100, "Alice")], 1, 1)
    await finished([alice, Seat(1, 300, "Carol")], 1, 2)  # Bob was not there
    elsewhere = await finished([Seat(0, 200, "Bob"), Seat(1, 100, "Alice")], 2, 3)
    await _new_game(db, channel_id=99)  # Alice and Bob, still running
    assert [g.id for g in await db.games_between(100, 200, guild_id=1)] == [three, first]
    assert [g.id for g in await db.games_between(200, 100)] == [elsewhere, three, first]
    assert [g.id for g in await db.games_between(100, 200, limit=1)] == [elsewhere]
    assert await db.games_between(100, 999) == []


async def test_the_migrations_build_every_table_and_column_the_code_uses() -> None:
    connection = sqlite3.connect(":memory:")
    for migration in MIGRATIONS:
        for statement in migration.statements:
            connection.execute(statement)
    connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL, applied_at TEXT)")
    tables = {row[0] for row in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
    assert tables == set(SCHEMA)
    for table, columns in SCHEMA.items():
        found = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
        assert found == set(columns), table


async def test_a_board_is_stale_until_its_message_shows_the_stored_ply(db: Database) -> None:
    game, done = await _new_game(db, channel_id=10), await _new_game(db, channel_id=11)
    assert [g.id for g in await db.games_with_stale_boards()] == [game.id, done.id]
    await db.set_board_message(game.id, 555, 0)
    await db.record_moves(done.id, 0, [NewMove(0, 100, MoveKind.RESIGN, "resign")], done.state,
                          result={"winners": [1], "scores": None, "reason": "resigned"}, now=NOW)
    assert await db.games_with_stale_boards() == []  # a finished game has no live board
    await db.record_moves(game.id, 0, [NewMove(0, 100, MoveKind.PLAYER, "a1:NNE")], game.state,
                          result=None, now=NOW)
    [stale] = await db.games_with_stale_boards()
    assert (stale.id, stale.ply, stale.board_message_id, stale.board_ply) == (game.id, 1, 555, 0)
    await db.set_board_message(game.id, 556, 1)
    assert await db.games_with_stale_boards() == []
    await db.set_board_message(game.id, 557)  # posted, but the ply it shows is unknown
    [stale] = await db.games_with_stale_boards()
    assert (stale.board_message_id, stale.board_ply) == (557, None)


async def test_a_start_resumes_recently_finished_games_whose_final_board_was_not_shown(
    db: Database,
) -> None:
    shown, lost, old = [await _new_game(db, channel_id=c) for c in (10, 11, 12)]
    resign = [NewMove(0, 100, MoveKind.RESIGN, "resign")]
    result = {"winners": [1], "scores": None, "reason": "resigned"}
    for game in (shown, lost, old):
        await db.set_board_message(game.id, 555, 0)
    await db.record_moves(shown.id, 0, resign, shown.state, result=result, now=NOW)
    await db.set_board_message(shown.id, 556, 1)
    await db.record_moves(lost.id, 0, resign, lost.state, result=result, now=NOW)
    await db.record_moves(old.id, 0, resign, old.state, result=result,
                          now=NOW - timedelta(days=30))
    assert [g.id for g in await db.games_to_resume(finished_since=NOW - timedelta(days=7))] \
        == [lost.id]
    assert await db.games_to_resume() == [], "running games only, unless asked"
    last = await db.last_game_in(11)
    assert last is not None and last.id == lost.id
    assert await db.last_game_in(99) is None


async def test_a_version_3_database_upgrades_with_unknown_board_plies_and_no_clocks(
    tmp_path: Path,
) -> None:
    path = tmp_path / "v3.db"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE schema_version (version INTEGER NOT NULL, applied_at TEXT)")
    for migration in MIGRATIONS[:3]:
        for statement in migration.statements:
            connection.execute(statement)
        connection.execute("INSERT INTO schema_version VALUES (?, 'then')", (migration.version,))
    connection.execute(
        """INSERT INTO games (game, channel_id, options, rng_seed, state, ply, status,
                              board_message_id, created_at, updated_at)
           VALUES ('qawale', 10, '{}', 1, '{}', 3, 'running', 555, ?, ?)""",
        (NOW.isoformat(), NOW.isoformat()),
    )
    connection.commit()
    connection.close()
    db = await Database.open(f"sqlite:///{path}")
    try:
        assert await db.schema_version() == MIGRATIONS[-1].version
        [game] = await db.games_with_stale_boards()
        assert (game.ply, game.board_message_id, game.board_ply) == (3, 555, None)
        # It was agreed without a clock: it keeps none, and stays rated.
        assert (game.clock, game.deadline, game.rated) == ("none", None, True)
        assert await db.next_timer() is None
    finally:
        await db.close()


@pytest.mark.parametrize(("error", "kind"), [
    (sqlite3.OperationalError("database is locked"), StorageBusy),
    (sqlite3.OperationalError("database or disk is full"), StorageFull),
    (sqlite3.OperationalError("attempt to write a readonly database"), StorageReadOnly),
    (sqlite3.DatabaseError("database disk image is malformed"), StorageCorrupt),
    (sqlite3.DatabaseError("file is not a database"), StorageCorrupt),
    (sqlite3.IntegrityError("UNIQUE constraint failed: moves.game_id, moves.ply"), None),
    (sqlite3.OperationalError("no such table: nowhere"), None),
])
def test_sqlite_errors_about_the_database_become_typed_storage_errors(
    error: sqlite3.Error, kind: type[StorageError] | None
) -> None:
    converted = storage_error(error)
    if kind is None:
        assert converted is None
    else:
        assert type(converted) is kind and isinstance(converted, StorageError)
        assert str(error) in converted.message and converted.message[0].isupper()


async def test_members_who_take_no_challenges_are_found_among_those_named(db: Database) -> None:
    assert await db.refusing_challenges([100, 200]) == []
    await db.set_takes_challenges(200, False)
    await db.set_dm_reminders(300, False)  # a settings row that says nothing of challenges
    await db.set_takes_challenges(400, False)
    assert await db.refusing_challenges([100, 200, 300]) == [200]
    await db.set_takes_challenges(200, True)
    assert await db.refusing_challenges([200, 400]) == [400]
    assert await db.refusing_challenges([]) == []
