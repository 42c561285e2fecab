"""Blocks in storage: once per pair, at most so many, undone, and which members block one.
On both backends."""

from __future__ import annotations

from datetime import timedelta

from tests.storage.test_ratings_storage import NOW

ALICE, BOB, CAROL, DAN = (10**17 + n for n in range(1, 5))


async def test_a_block_is_stored_once_and_listed_latest_first(db) -> None:
    assert await db.block(ALICE, BOB, NOW, most=10)
    assert not await db.block(ALICE, BOB, NOW, most=10), "already blocked"
    assert await db.block(ALICE, CAROL, NOW + timedelta(minutes=1), most=10)
    assert await db.blocked_by(ALICE) == [CAROL, BOB]
    assert await db.blocked_by(BOB) == []


async def test_no_more_blocks_than_the_most(db) -> None:
    assert await db.block(ALICE, BOB, NOW, most=2)
    assert await db.block(ALICE, CAROL, NOW, most=2)
    assert not await db.block(ALICE, DAN, NOW, most=2)
    assert await db.blocked_by(ALICE) == [BOB, CAROL]


async def test_blocking_finds_who_blocks_a_member_among_others(db) -> None:
    await db.block(ALICE, DAN, NOW, most=10)
    await db.block(CAROL, DAN, NOW, most=10)
    await db.block(BOB, CAROL, NOW, most=10)
    assert await db.blocking(DAN, [ALICE, BOB, CAROL]) == [ALICE, CAROL]
    assert await db.blocking(DAN, [BOB]) == []


async def test_unblocking_undoes_a_block_once(db) -> None:
    await db.block(ALICE, BOB, NOW, most=10)
    assert await db.unblock(ALICE, BOB)
    assert not await db.unblock(ALICE, BOB)
    assert await db.blocking(BOB, [ALICE]) == []


async def test_forgetting_deletes_the_blocks_made_and_keeps_others_blocks_of_them(db) -> None:
    await db.block(ALICE, BOB, NOW, most=10)
    await db.block(CAROL, ALICE, NOW, most=10)
    assert (await db.member_data(ALICE)).blocks == 1
    assert await db.forget_member(ALICE) is not None
    assert await db.blocked_by(ALICE) == []
    assert await db.blocked_by(CAROL) == [ALICE], "Carol's safety: she still blocks that id"
