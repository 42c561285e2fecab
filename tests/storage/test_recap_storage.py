"""A server's monthly recap in storage: where it goes, which month it last told, claimed once
however many processes look; and what the server finished in a month."""

from __future__ import annotations

from datetime import timedelta

from storage import Database, MonthRecap
from tests.storage.test_server_activity import AI, ALICE, BOB, CAROL, MONTH, played


async def test_a_recap_channel_is_due_once_a_month_and_claimed_once(db: Database) -> None:
    await db.set_server_recap_channel(1, 55, "2026-10")
    assert await db.server_recap_channel(1) == 55
    assert await db.recaps_due("2026-10") == [], "the month before the choice is not told"
    assert await db.recaps_due("2026-11") == [(1, 55)]
    assert await db.claim_recap(1, "2026-11")
    assert not await db.claim_recap(1, "2026-11"), "a second process finds it claimed"
    assert await db.recaps_due("2026-11") == []
    assert await db.recaps_due("2026-12") == [(1, 55)]


async def test_a_server_without_a_recap_channel_is_never_due(db: Database) -> None:
    await db.set_server_recap_channel(1, 55, "2026-10")
    await db.set_server_recap_channel(1, None, "2026-10")
    assert await db.server_recap_channel(1) is None
    assert await db.recaps_due("2026-12") == []
    assert not await db.claim_recap(1, "2026-12")


async def test_a_months_recap_counts_its_finished_games_and_most_active_members(
        db: Database) -> None:
    await played(db, "qawale", (ALICE, BOB), finished=MONTH - timedelta(days=1))  # before
    await played(db, "qawale", (ALICE, BOB), finished=MONTH + timedelta(days=2))
    await played(db, "qawale", (ALICE, CAROL), finished=MONTH + timedelta(days=3))
    await played(db, "graps", (ALICE, AI), finished=MONTH + timedelta(days=4))
    await played(db, "graps", (BOB, CAROL), finished=None)  # in progress
    await played(db, "qawale", (BOB, CAROL), finished=MONTH + timedelta(days=5), guild_id=2)
    await played(db, "granat", (BOB, CAROL), finished=MONTH + timedelta(days=30))  # after
    recap = await db.month_recap(1, MONTH, MONTH + timedelta(days=30), most=2)
    assert recap == MonthRecap([("qawale", 2), ("graps", 1)], 3, [(ALICE, 3), (CAROL, 1)])


async def test_a_months_recap_names_the_winners_of_its_tournaments(db: Database) -> None:
    since, until = MONTH, MONTH + timedelta(days=30)
    for finished, winners in ((MONTH + timedelta(days=3), [ALICE]),
                              (MONTH - timedelta(days=3), [BOB]),  # the month before
                              (MONTH + timedelta(days=9), [BOB, CAROL])):
        table = await db.create_challenge(
            game="graps", guild_id=1, channel_id=5, challenger_id=ALICE,
            opponent_ids=[BOB, CAROL], player_names={}, options={}, now=finished,
            expires_at=finished + timedelta(minutes=30), kind="tournament")
        tournament = await db.start_tournament(
            table_id=table.id, game="graps", guild_id=1, channel_id=5, message_id=None,
            host_id=ALICE, players=[(ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")],
            options={}, clock="live", casual=False, now=finished - timedelta(hours=2))
        assert tournament is not None
        places = {uid: 1 if uid in winners else 3 for uid in (ALICE, BOB, CAROL)}
        assert await db.finish_tournament(tournament.id, finished, places)
    recap = await db.month_recap(1, since, until)
    assert recap.tournaments == [("graps", ["Alice"]), ("graps", ["Bob", "Carol"])]
