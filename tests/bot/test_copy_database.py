"""Moving a bot's SQLite database to PostgreSQL: everything copied, every game replays."""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import timedelta
from pathlib import Path

import pytest

from bot.ai_players import ai_name, ai_user_id
from bot.copy_database import main
from bot.games import GAME_UIS
from bot.ratings import rate_game
from bot.session_manager import SessionManager
from engines import GAMES
from storage import GLOBAL_SCOPE, Database, Seat
from tests.bot.fakes import ALICE, BOB, CAROL, NOW, FakePublisher, new_game
from tests.postgres_server import fresh_database


@pytest.fixture(autouse=True)
def quick_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board picture does not matter here: skip the rendering."""
    monkeypatch.setattr("bot.painter.render", lambda *args, **kwargs: b"png")


@pytest.fixture
def postgres_url(postgres_admin: str) -> str:
    """An empty PostgreSQL database."""
    return asyncio.run(fresh_database(postgres_admin, f"t_{uuid.uuid4().hex}"))


async def played_database(path: Path) -> str:
    """A SQLite database with a running game, a finished (rated) one and a clock's timers."""
    url = f"sqlite:///{path}"
    db = await Database.open(url, rater=rate_game)
    sessions = SessionManager(db, GAME_UIS, FakePublisher())
    running = await sessions.start(await new_game(db, clock="daily"))
    for _ in range(3):
        seat = running.state.current_player
        await running.play(running.record.user_at(seat), str(running.state.legal_moves()[0]))
    finished = await sessions.start(await new_game(db, "graps"))
    await finished.resign(ALICE)
    # A casual game against the AI where Alice took her move back: its log holds both.
    state = GAMES["qawale"].new_state(2)
    taken_back = await sessions.start(await db.create_game(
        game="qawale", guild_id=1, channel_id=6, parent_id=None,
        seats=[Seat(0, ALICE, "Alice"), Seat(1, ai_user_id("easy", 1), ai_name("easy"))],
        options={}, rng_seed=3, state=state.dump(), now=NOW, casual=True,
        to_move=state.current_player))
    await taken_back.play(ALICE, str(taken_back.state.legal_moves()[0]))
    await taken_back.take_back(ALICE)
    await db.set_dm_reminders(BOB, False)
    # A tournament with one game of its first round.
    table = await db.create_challenge(
        game="qawale", guild_id=1, channel_id=7, challenger_id=ALICE, opponent_ids=[BOB, CAROL],
        player_names={ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}, options={}, now=NOW,
        expires_at=NOW, kind="tournament")
    tournament = await db.start_tournament(
        table_id=table.id, game="qawale", guild_id=1, channel_id=7, message_id=70,
        host_id=ALICE, players=[(ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")], options={},
        clock="daily", casual=False, now=NOW)
    assert tournament is not None
    await db.create_game(
        game="qawale", guild_id=1, channel_id=8, parent_id=7,
        seats=[Seat(0, ALICE, "Alice"), Seat(1, BOB, "Bob")], options={}, rng_seed=4,
        state=state.dump(), now=NOW, to_move=state.current_player,
        tournament=(tournament.id, 1))
    # Carol is away; Bob blocks Carol.
    await db.go_away(CAROL, NOW, NOW + timedelta(days=3), ["daily"],
                     forget_before=NOW - timedelta(days=365))
    await db.block(BOB, CAROL, NOW, most=10)
    sessions.close()
    await db.close()
    return url


async def test_a_sqlite_database_moves_to_postgresql_and_every_game_replays(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = await played_database(tmp_path / "bot.db")

    assert await asyncio.to_thread(main, [source, postgres_url]) == 0

    said = capsys.readouterr().out
    assert "4 games" in said and "replay identically" in said
    copy = await Database.open(postgres_url)
    try:
        original = await Database.open(source)
        for game_id in (1, 2, 3, 4):
            assert await copy.moves(game_id) == await original.moves(game_id)
            assert (await copy.get_game(game_id)).state == (await original.get_game(game_id)).state
        assert await copy.timers_of(1) == await original.timers_of(1)
        assert await copy.leaderboard("graps", GLOBAL_SCOPE, offset=0, limit=5) == \
            await original.leaderboard("graps", GLOBAL_SCOPE, offset=0, limit=5)
        assert not await copy.dm_reminders(BOB)
        assert await copy.get_tournament(1) == await original.get_tournament(1)
        assert await copy.tournament_games(1) == await original.tournament_games(1)
        assert await copy.away_until([CAROL], NOW) == {CAROL: NOW + timedelta(days=3)}
        assert await copy.absences_since(CAROL, NOW - timedelta(days=1)) == \
            await original.absences_since(CAROL, NOW - timedelta(days=1))
        assert await copy.blocking(CAROL, [ALICE, BOB]) == [BOB]
        fifth = await new_game(copy)  # new ids follow the copied ones
        assert fifth.id == 5
        await original.close()
    finally:
        await copy.close()


async def test_a_copy_into_a_database_that_holds_games_is_refused(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = await played_database(tmp_path / "bot.db")
    assert await asyncio.to_thread(main, [source, postgres_url]) == 0
    assert await asyncio.to_thread(main, [source, postgres_url]) == 2
    assert "already holds games" in capsys.readouterr().err


async def test_a_move_log_that_does_not_lead_to_the_stored_position_fails_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = await played_database(tmp_path / "bot.db")
    broken = await Database.open(source)
    other = await broken.get_game(2)  # a Graps position stored as game 1's
    await broken._write("UPDATE games SET state = ? WHERE id = 1", (json.dumps(other.state),))
    await broken.close()
    target = f"sqlite:///{tmp_path / 'copy.db'}"
    assert await asyncio.to_thread(main, [source, target]) == 1
    assert "do not lead to its stored position" in capsys.readouterr().err
