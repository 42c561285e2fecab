"""Two bot processes on one database: the ply-guarded write decides, nothing is applied twice."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from engines import GAMES
from storage import Database, MoveKind, NewMove, NewTimer, Seat, StaleGame, TimerEvent

NOW = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)


async def test_two_processes_racing_a_move_on_one_game_store_exactly_one(
    database_url: str,
) -> None:
    first = await Database.open(database_url)
    second = await Database.open(database_url)  # another process: its own connections
    try:
        state = GAMES["qawale"].new_state(2).dump()
        game = await first.create_game(
            game="qawale", guild_id=1, channel_id=5, parent_id=None, now=NOW, rng_seed=1,
            seats=[Seat(0, 10, "Alice"), Seat(1, 20, "Bob")], options={}, state=state)

        async def play(db: Database, move: str) -> int:
            return await db.record_moves(game.id, 0, [NewMove(0, 10, MoveKind.PLAYER, move)],
                                         state, result=None, now=NOW)

        results = await asyncio.gather(play(first, "a1:NES"), play(second, "b1:NNE"),
                                       return_exceptions=True)
        assert sorted(type(r).__name__ for r in results) == ["StaleGame", "int"]
        log = await second.moves(game.id)
        assert len(log) == 1 and log[0].move in ("a1:NES", "b1:NNE")
        with pytest.raises(StaleGame):
            await play(first, "c1:NNE")  # a loser that retries at the old ply still loses
    finally:
        await first.close()
        await second.close()


async def test_migrations_run_once_when_two_processes_start_together(database_url: str) -> None:
    opened = await asyncio.gather(Database.open(database_url), Database.open(database_url))
    try:
        versions = [await db.schema_version() for db in opened]
        assert versions[0] == versions[1] > 0
    finally:
        for db in opened:
            await db.close()


async def test_a_due_timer_is_claimed_by_one_process_only(database_url: str) -> None:
    first = await Database.open(database_url)
    second = await Database.open(database_url)
    try:
        state = GAMES["qawale"].new_state(2).dump()
        game = await first.create_game(
            game="qawale", guild_id=1, channel_id=5, parent_id=None, now=NOW, rng_seed=1,
            seats=[Seat(0, 10, "Alice"), Seat(1, 20, "Bob")], options={}, state=state)
        await first.add_timer(game.id, NewTimer(TimerEvent.TIMEOUT, NOW, 0, 0))
        [timer] = await second.timers_of(game.id)
        later = NOW + timedelta(minutes=5)
        claims = await asyncio.gather(first.claim_timer(timer.id, NOW, later),
                                      second.claim_timer(timer.id, NOW, later))
        assert sorted(claims) == [False, True]
        [held] = await first.timers_of(game.id)
        assert held.due_at == later  # if its process dies, it fires again after the lease
        assert not await second.claim_timer(timer.id, NOW + timedelta(minutes=1), later)
        assert await second.claim_timer(timer.id, later, later + timedelta(minutes=5))
    finally:
        await first.close()
        await second.close()
