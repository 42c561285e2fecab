"""Times away in storage: who is away now, the absences counted for the allowance, going
away twice, coming back, and the timers that reach each game's process. On both backends."""

from __future__ import annotations

from datetime import timedelta

from engines import GAMES
from storage import Database, Seat, TimerEvent
from tests.storage.test_ratings_storage import NOW

ALICE, BOB = 10**17 + 1, 10**17 + 2
CORRESPONDENCE = ("daily", "relaxed")
YEAR_AGO = NOW - timedelta(days=365)


async def game_with_clock(db: Database, clock: str) -> int:
    record = await db.create_game(
        game="qawale", guild_id=1, channel_id=1000 + len(clock), parent_id=10,
        seats=[Seat(0, ALICE, "Alice"), Seat(1, BOB, "Bob")], options={}, rng_seed=1,
        state=GAMES["qawale"].new_state(2, {}).dump(), now=NOW, clock=clock)
    return record.id


async def test_a_member_is_away_until_their_return_and_no_longer(db) -> None:
    await db.go_away(ALICE, NOW, NOW + timedelta(days=3), CORRESPONDENCE,
                     forget_before=YEAR_AGO)
    assert await db.away_until([ALICE, BOB], NOW + timedelta(days=1)) == {
        ALICE: NOW + timedelta(days=3)}
    assert await db.everyone_away(NOW) == {ALICE: NOW + timedelta(days=3)}
    assert await db.away_until([ALICE], NOW + timedelta(days=3)) == {}, "back by then"


async def test_coming_back_early_ends_the_absence_and_counts_only_the_days_taken(db) -> None:
    await db.go_away(ALICE, NOW, NOW + timedelta(days=10), CORRESPONDENCE,
                     forget_before=YEAR_AGO)
    back = NOW + timedelta(days=2)
    assert await db.come_back(ALICE, back, CORRESPONDENCE)
    assert not await db.come_back(ALICE, back, CORRESPONDENCE), "not away any more"
    assert await db.away_until([ALICE], back) == {}
    [absence] = await db.absences_since(ALICE, YEAR_AGO)
    assert absence.days_taken(YEAR_AGO, NOW + timedelta(days=30)) == 2.0


async def test_going_away_again_replaces_the_absence_in_progress(db) -> None:
    await db.go_away(ALICE, NOW, NOW + timedelta(days=10), CORRESPONDENCE,
                     forget_before=YEAR_AGO)
    later = NOW + timedelta(days=1)
    await db.go_away(ALICE, later, later + timedelta(days=2), CORRESPONDENCE,
                     forget_before=YEAR_AGO)
    await db.go_away(ALICE, later, later + timedelta(days=3), CORRESPONDENCE,
                     forget_before=YEAR_AGO)  # a double click: the last one stands
    assert await db.away_until([ALICE], later) == {ALICE: later + timedelta(days=3)}
    taken = [a.days_taken(YEAR_AGO, later + timedelta(days=30))
             for a in await db.absences_since(ALICE, YEAR_AGO)]
    assert taken == [1.0, 3.0]


async def test_absences_over_a_year_ago_are_deleted_at_the_next(db) -> None:
    await db.go_away(ALICE, NOW, NOW + timedelta(days=5), CORRESPONDENCE,
                     forget_before=YEAR_AGO)
    next_year = NOW + timedelta(days=400)
    await db.go_away(ALICE, next_year, next_year + timedelta(days=1), CORRESPONDENCE,
                     forget_before=next_year - timedelta(days=365))
    assert len(await db.absences_since(ALICE, NOW - timedelta(days=1))) == 1


async def test_going_away_stores_one_timer_for_each_running_game_whose_clock_waits(
    db,
) -> None:
    daily = await game_with_clock(db, "daily")
    live = await game_with_clock(db, "live")
    for _ in range(2):  # twice: still one timer a game
        await db.go_away(ALICE, NOW, NOW + timedelta(days=3), CORRESPONDENCE,
                         forget_before=YEAR_AGO)
    timers = await db.timers_of(daily)
    assert [(t.event, t.seat, t.due_at) for t in timers] == [(TimerEvent.AWAY, 0, NOW)]
    assert await db.timers_of(live) == []
    await db.drop_timer(timers[0].id)
    await db.come_back(ALICE, NOW + timedelta(hours=1), CORRESPONDENCE)
    assert [t.event for t in await db.timers_of(daily)] == [TimerEvent.AWAY]


async def test_forgetting_a_member_deletes_their_absences(db) -> None:
    await db.go_away(BOB, NOW, NOW + timedelta(days=3), CORRESPONDENCE,
                     forget_before=YEAR_AGO)
    assert (await db.member_data(BOB)).absences == 1
    assert await db.forget_member(BOB) is not None
    assert await db.absences_since(BOB, YEAR_AGO) == []
    assert (await db.member_data(BOB)).absences == 0
