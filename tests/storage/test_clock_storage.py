"""Storage of turn clocks: deadlines and timers written with the move, stand-ins, settings."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engines import GAMES
from storage import Database, MoveKind, NewMove, NewTimer, Seat, Shards, StaleGame, TimerEvent
from tests.storage.test_database import NOW, _new_game


def turn(ply: int, seat: int, start=NOW) -> list[NewTimer]:
    return [NewTimer(TimerEvent.HALF_TIME, start + timedelta(minutes=2), ply, seat),
            NewTimer(TimerEvent.TIMEOUT, start + timedelta(minutes=5), ply, seat)]


async def test_a_move_replaces_the_turn_timers_and_deadline_in_its_own_write(db: Database) -> None:
    game = await _new_game(db)
    assert await db.set_turn_clock(game.id, 0, NOW + timedelta(minutes=5), turn(0, 0))
    later = NOW + timedelta(minutes=1)
    await db.record_moves(game.id, 0, [NewMove(0, 100, MoveKind.PLAYER, "x")], {"s": 1},
                          result=None, now=later, deadline=later + timedelta(minutes=5),
                          timers=turn(1, 1, later))
    timers = await db.timers_of(game.id)
    assert [(t.event, t.ply, t.seat) for t in timers] == [
        (TimerEvent.HALF_TIME, 1, 1), (TimerEvent.TIMEOUT, 1, 1)]
    stored = await db.get_game(game.id)
    assert stored is not None and stored.deadline == later + timedelta(minutes=5)


async def test_a_stale_move_leaves_the_timers_as_they_were(db: Database) -> None:
    game = await _new_game(db)
    await db.set_turn_clock(game.id, 0, NOW + timedelta(minutes=5), turn(0, 0))
    with pytest.raises(StaleGame):
        await db.record_moves(game.id, 3, [NewMove(0, 100, MoveKind.PLAYER, "x")], {},
                              result=None, now=NOW, timers=turn(4, 1))
    assert {t.ply for t in await db.timers_of(game.id)} == {0}


async def test_a_clock_for_an_old_ply_is_not_set(db: Database) -> None:
    game = await _new_game(db)
    assert not await db.set_turn_clock(game.id, 7, NOW, turn(7, 0))
    assert await db.timers_of(game.id) == []


async def test_the_next_timer_is_the_earliest_of_every_game(db: Database) -> None:
    first, second = await _new_game(db, 10), await _new_game(db, 11)
    await db.set_turn_clock(first.id, 0, NOW, turn(0, 0, NOW + timedelta(hours=1)))
    await db.set_turn_clock(second.id, 0, NOW, turn(0, 0))
    due = await db.next_timer()
    assert due is not None and (due.game_id, due.event) == (second.id, TimerEvent.HALF_TIME)
    assert due.due_at == NOW + timedelta(minutes=2)
    assert await db.drop_timer(due.id) and not await db.drop_timer(due.id)
    await db.postpone_timer((await db.timers_of(second.id))[0].id, NOW + timedelta(days=1))
    after = await db.next_timer()
    assert after is not None and after.game_id == first.id


async def test_an_archive_timer_survives_the_next_turn(db: Database) -> None:
    game = await _new_game(db)
    await db.add_timer(game.id, NewTimer(TimerEvent.ARCHIVE, NOW, 0))
    await db.set_turn_clock(game.id, 0, None, [])
    assert [t.event for t in await db.timers_of(game.id)] == [TimerEvent.ARCHIVE]


async def test_a_seat_handed_to_the_ai_and_an_unrated_game_are_stored_with_the_move(
    db: Database,
) -> None:
    game = await _new_game(db)
    await db.record_moves(game.id, 0, [NewMove(1, 200, MoveKind.LEAVE, "timeout")], {},
                          result=None, now=NOW, stand_ins={1: "medium"}, unrated=True)
    stored = await db.get_game(game.id)
    assert stored is not None and not stored.rated
    assert [s.stand_in for s in stored.seats] == [None, "medium"]


async def test_abort_votes_count_each_player_once(db: Database) -> None:
    game = await _new_game(db)
    assert await db.add_abort_vote(game.id, 100)
    assert not await db.add_abort_vote(game.id, 100)
    assert await db.abort_votes(game.id) == {100}


async def test_a_draw_offer_stands_through_the_offerers_move_and_lapses_with_the_others(
    db: Database,
) -> None:
    game = await _new_game(db)
    assert await db.set_draw_offer(game.id, 0, 0)
    await db.record_moves(game.id, 0, [NewMove(0, 100, MoveKind.PLAYER, "a1:N")], {},
                          result=None, now=NOW)
    stored = await db.get_game(game.id)
    assert stored is not None and stored.draw_offer == 0, "the offerer's own move keeps it"
    await db.record_moves(game.id, 1, [NewMove(1, 200, MoveKind.PLAYER, "a2:N")], {},
                          result=None, now=NOW, clear_draw_offer=True)
    stored = await db.get_game(game.id)
    assert stored is not None and stored.draw_offer is None


async def test_a_draw_offer_on_a_board_that_moved_on_is_not_stored(db: Database) -> None:
    game = await _new_game(db)
    await db.record_moves(game.id, 0, [NewMove(0, 100, MoveKind.PLAYER, "a1:N")], {},
                          result=None, now=NOW)
    assert not await db.set_draw_offer(game.id, 0, 1)
    stored = await db.get_game(game.id)
    assert stored is not None and stored.draw_offer is None
    assert await db.set_draw_offer(game.id, 1, 1)
    assert await db.set_draw_offer(game.id, 1, None), "withdrawn"
    stored = await db.get_game(game.id)
    assert stored is not None and stored.draw_offer is None


async def test_dm_reminders_are_on_until_a_member_turns_them_off(db: Database) -> None:
    assert await db.dm_reminders(100)
    await db.set_dm_reminders(100, False)
    assert not await db.dm_reminders(100)
    await db.set_dm_reminders(100, True)
    assert await db.dm_reminders(100)


async def test_a_servers_clock_for_new_games_is_kept_beside_its_language(db: Database) -> None:
    assert await db.server_clock(1) is None
    await db.set_server_language(1, "fr")
    await db.set_server_clock(1, "live")
    await db.set_server_clock(2, "relaxed")
    await db.set_server_clock(1, "none")
    assert (await db.server_clock(1), await db.server_clock(2)) == ("none", "relaxed")
    assert await db.server_language(1) == "fr", "setting the clock keeps the language"
    await db.set_server_language(2, "en")
    assert await db.server_clock(2) == "relaxed", "and setting the language keeps the clock"


async def test_a_servers_lobby_role_is_set_and_unset_beside_its_other_settings(
    db: Database,
) -> None:
    assert await db.server_lobby_role(1) is None
    await db.set_server_clock(1, "live")
    await db.set_server_lobby_role(1, 1_300_000_000_000_000_123)
    await db.set_server_lobby_role(2, 7)
    assert await db.server_lobby_role(1) == 1_300_000_000_000_000_123
    assert await db.server_clock(1) == "live", "setting the role keeps the clock"
    await db.set_server_lobby_role(1, None)
    assert (await db.server_lobby_role(1), await db.server_lobby_role(2)) == (None, 7)
    assert await db.server_clock(1) == "live"


async def test_a_process_finds_only_the_timers_of_its_own_shards_servers(db: Database) -> None:
    state = GAMES["qawale"].new_state(2)
    games = {}
    for shard in (0, 1):  # a real server id: a timestamp above bit 22, its shard below
        guild = (1_300_000_000_000 << 22) + (shard << 22)
        games[shard] = await db.create_game(
            game="qawale", guild_id=guild, channel_id=10 + shard, parent_id=5,
            seats=[Seat(0, 100, "Alice"), Seat(1, 200, "Bob")], options={}, rng_seed=42,
            state=state.dump(), now=NOW)
    assert Shards(2, (1,)).owns(games[1].guild_id) and not Shards(2, (1,)).owns(games[0].guild_id)
    await db.add_timer(games[0].id, NewTimer(TimerEvent.TIMEOUT, NOW, 0, 0))
    await db.add_timer(games[1].id, NewTimer(TimerEvent.TIMEOUT, NOW + timedelta(hours=1), 0, 0))
    first, second = await db.next_timer(Shards(2, (0,))), await db.next_timer(Shards(2, (1,)))
    assert first is not None and first.game_id == games[0].id
    assert second is not None and second.game_id == games[1].id
    both = await db.next_timer(Shards(2, (0, 1)))
    assert both is not None and both.game_id == games[0].id
    assert await db.next_timer(Shards(4, (3,))) is None
