"""Rematches in storage: the finished game a rematch repeats, so that one rematch at a time
per game holds across restarts (migration 22). On both backends."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from engines import GAMES
from storage import (
    ChallengeClosed,
    ChallengeStatus,
    Database,
    GameRecord,
    MoveKind,
    NewMove,
    Seat,
)
from tests.storage.test_ratings_storage import NOW

ALICE, BOB = 10**17 + 1, 10**17 + 2


async def new_game(db: Database, channel_id: int, *, rematch_of: int | None = None,
                   accepting: int | None = None) -> GameRecord:
    """A running game of Qawale between Alice and Bob (the rematch of a finished game, or
    the game of an accepted challenge)."""
    return await db.create_game(
        game="qawale", guild_id=1, channel_id=channel_id, parent_id=5,
        seats=[Seat(0, ALICE, "Alice"), Seat(1, BOB, "Bob")], options={}, rng_seed=42,
        state=GAMES["qawale"].new_state(2).dump(), now=NOW, rematch_of=rematch_of,
        accepting=accepting)


async def resign(db: Database, game: GameRecord) -> None:
    """Alice resigns the game: it is finished."""
    await db.record_moves(game.id, game.ply, [NewMove(0, ALICE, MoveKind.RESIGN, "resign")],
                          game.state, result={"winners": [1], "reason": "resigned"}, now=NOW)


async def offer_rematch(db: Database, of_game: GameRecord | None) -> int:
    """Bob's rematch of `of_game` (None: a plain challenge), open ten minutes; its id."""
    challenge = await db.create_challenge(
        game="qawale", guild_id=1, channel_id=5, challenger_id=BOB, opponent_ids=[ALICE],
        player_names={ALICE: "Alice", BOB: "Bob"}, options={}, now=NOW,
        expires_at=NOW + timedelta(minutes=10), seating=[BOB, ALICE],
        rematch_of=None if of_game is None else of_game.id)
    return challenge.id


async def test_a_rematch_offer_is_found_while_it_waits_for_an_answer(db: Database) -> None:
    first, second = await new_game(db, 10), await new_game(db, 11)
    await resign(db, first)
    await resign(db, second)
    await offer_rematch(db, None)  # to the same member, but no rematch
    offered = await offer_rematch(db, first)
    found = await db.rematch_offered_for(first.id, NOW)
    assert found is not None and found.id == offered
    assert await db.rematch_offered_for(second.id, NOW) is None
    assert await db.rematch_offered_for(first.id, NOW + timedelta(minutes=10)) is None, \
        "expired, though its timer has not closed it yet"
    assert await db.close_challenge(offered, ChallengeStatus.DECLINED)
    assert await db.rematch_offered_for(first.id, NOW) is None


async def test_a_rematch_game_is_found_while_it_is_played(db: Database) -> None:
    first = await new_game(db, 10)
    await resign(db, first)
    assert await db.running_rematch_of(first.id) is None
    await new_game(db, 12)  # the same players, but no rematch
    rematch = await new_game(db, 11, rematch_of=first.id)
    found = await db.running_rematch_of(first.id)
    assert found is not None and found.id == rematch.id
    await resign(db, rematch)
    assert await db.running_rematch_of(first.id) is None


async def test_a_copied_database_keeps_what_each_rematch_repeats(
    db: Database, tmp_path: Path
) -> None:
    source = await Database.open(f"sqlite:///{tmp_path / 'source.db'}")
    try:
        first = await new_game(source, 10)
        await resign(source, first)
        rematch = await new_game(source, 11, rematch_of=first.id)
        offered = await offer_rematch(source, first)
        await db.copy_from(source)
    finally:
        await source.close()
    found = await db.rematch_offered_for(first.id, NOW)
    assert found is not None and found.id == offered
    running = await db.running_rematch_of(first.id)
    assert running is not None and running.id == rematch.id


async def test_accepting_stores_the_game_and_closes_its_challenge_together(db: Database) -> None:
    offered = await offer_rematch(db, None)
    game = await new_game(db, 11, accepting=offered)
    challenge = await db.get_challenge(offered)
    assert challenge is not None and challenge.status is ChallengeStatus.ACCEPTED
    assert challenge.game_id == game.id


async def test_a_challenge_no_longer_pending_stores_no_game(db: Database) -> None:
    offered = await offer_rematch(db, None)
    await new_game(db, 11, accepting=offered)
    with pytest.raises(ChallengeClosed):
        await new_game(db, 12, accepting=offered)  # a second Accept, after a restart say
    assert await db.running_game_in(12) is None, "nothing of the second game was written"
