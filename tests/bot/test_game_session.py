"""GameSession and SessionManager without Discord: an in-memory database, a fake publisher.

These are the failure paths docs/decisions.md promises: a stale write, an announce that
fails, an abort racing the end of a game, a board that cannot be retired, closed DMs.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.errors import GameOver, NotAPlayer, NotYourTurn, StaleBoard
from bot.publisher import Problem
from bot.replies import NOTHING_CHANGED, stored_move, unexpected_text
from engines import EndReason, IllegalMove
from storage import Database, GameStatus, MoveKind
from tests.bot.fakes import ALICE, BOB, CAROL, FakePublisher, manager, new_game
from tests.waiting import eventually

FIRST_MOVE = "a1:NES"
"""A legal first move of Qawale (Alice sits at seat 0)."""


@pytest.fixture(autouse=True)
def quick_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board picture does not matter here: skip the rendering."""
    monkeypatch.setattr("bot.painter.render", lambda *args, **kwargs: b"png")


async def test_a_move_is_stored_then_announced_on_a_new_board(
    db: Database, publisher: FakePublisher
) -> None:
    record = await new_game(db)
    session = await manager(db, publisher).start(record)
    first_board = session.record.board_message_id

    turn = await session.play(ALICE, FIRST_MOVE)

    assert [m.move for m in turn.moves] == [FIRST_MOVE]
    assert [m.move for m in await db.moves(record.id)] == [FIRST_MOVE]
    assert (await db.get_game(record.id)).ply == 1
    boards = publisher.boards()
    assert len(boards) == 2 and "Bob" in (boards[-1].embed.description or "")
    assert publisher.removed == [first_board], "the previous board's controls are retired"


async def test_the_wrong_player_and_an_illegal_move_change_nothing(
    db: Database, publisher: FakePublisher
) -> None:
    session = await manager(db, publisher).start(await new_game(db))
    with pytest.raises(NotYourTurn, match="Alice's turn"):
        await session.play(BOB, FIRST_MOVE)
    with pytest.raises(NotAPlayer):
        await session.play(CAROL, FIRST_MOVE)
    with pytest.raises(IllegalMove):
        await session.play(ALICE, "a1:NN")
    assert await db.moves(session.id) == [] and session.ply == 0
    assert len(publisher.boards()) == 1


async def test_a_move_drawn_for_an_older_board_is_refused(
    db: Database, publisher: FakePublisher
) -> None:
    session = await manager(db, publisher).start(await new_game(db))
    await session.play(ALICE, FIRST_MOVE, expected_ply=0)
    with pytest.raises(StaleBoard, match="out of date"):
        await session.play(BOB, "d4:SWN", expected_ply=0)  # Bob clicks the first board
    assert len(await db.moves(session.id)) == 1


async def test_a_stale_write_is_refused_and_the_session_reloads_what_is_stored(
    db: Database, publisher: FakePublisher
) -> None:
    record = await new_game(db)
    ours = await manager(db, publisher).get(record.id)
    theirs = await manager(db, publisher).get(record.id)  # another process, say
    assert ours is not None and theirs is not None
    await theirs.play(ALICE, FIRST_MOVE)

    with pytest.raises(StaleBoard):
        await ours.play(ALICE, FIRST_MOVE)  # legal on its stale copy, refused at the write

    assert [m.move for m in await db.moves(record.id)] == [FIRST_MOVE]
    assert ours.ply == 1 and ours.state.dump() == theirs.state.dump()
    assert ours.state.current_player == 1, "the reloaded session knows it is Bob's turn"


async def test_an_announce_failure_keeps_the_stored_move_and_board_recovers(
    db: Database, publisher: FakePublisher
) -> None:
    session = await manager(db, publisher).start(await new_game(db))
    publisher.fail_posts = True

    turn = await session.play(ALICE, FIRST_MOVE)

    assert turn.moves[0].move == FIRST_MOVE
    assert [m.move for m in await db.moves(session.id)] == [FIRST_MOVE]
    publisher.fail_posts = False
    link = await session.repost()
    assert link.endswith(str(session.record.board_message_id))
    assert "Bob" in (publisher.boards()[-1].embed.description or "")


async def test_a_board_that_cannot_be_retired_does_not_stop_the_game(
    db: Database, publisher: FakePublisher
) -> None:
    session = await manager(db, publisher).start(await new_game(db))
    publisher.fail_removals = True
    await session.play(ALICE, FIRST_MOVE)
    assert session.ply == 1 and len(publisher.boards()) == 2
    assert publisher.removed == []


async def test_an_abort_racing_the_end_of_the_game_is_refused_and_reloads(
    db: Database, publisher: FakePublisher
) -> None:
    record = await new_game(db)
    ours = await manager(db, publisher).get(record.id)
    theirs = await manager(db, publisher).get(record.id)
    assert ours is not None and theirs is not None
    await theirs.resign(BOB)

    with pytest.raises(GameOver):
        await ours.abort(by="a moderator")

    stored = await db.get_game(record.id)
    assert stored is not None and stored.status is GameStatus.FINISHED
    assert ours.is_over and ours.result() == theirs.result()


async def test_an_abort_is_stored_announced_and_retires_the_board(
    db: Database, publisher: FakePublisher
) -> None:
    session = await manager(db, publisher).start(await new_game(db))
    board = session.record.board_message_id
    await session.abort(by="Carol")
    assert (await db.get_game(session.id)).status is GameStatus.ABORTED
    assert any("aborted by Carol" in text for text in publisher.texts())
    assert publisher.removed == [board]
    with pytest.raises(GameOver):
        await session.abort(by="Carol")


async def test_an_abort_is_stored_even_when_discord_fails(
    db: Database, publisher: FakePublisher
) -> None:
    session = await manager(db, publisher).start(await new_game(db))
    publisher.fail_posts = publisher.fail_removals = True
    await session.abort(by="Carol")
    assert (await db.get_game(session.id)).status is GameStatus.ABORTED


async def test_resigning_ends_the_game_for_every_other_seat(
    db: Database, publisher: FakePublisher
) -> None:
    session = await manager(db, publisher).start(await new_game(db))
    await session.resign(ALICE)
    result = session.result()
    assert result is not None and result.winners == [1]
    assert result.reason is EndReason.RESIGNED
    assert [m.kind for m in await db.moves(session.id)] == [MoveKind.RESIGN]
    with pytest.raises(GameOver):
        await session.resign(BOB)
    with pytest.raises(GameOver):
        await session.play(BOB, FIRST_MOVE)
    assert "This game is over." in session.over_text()


async def test_closed_dms_fall_back_to_a_pointer_in_the_thread(
    db: Database, publisher: FakePublisher
) -> None:
    publisher.closed_dms.add(BOB)
    await manager(db, publisher).start(await new_game(db, "kraut_ruben", 3))
    assert {user for user, _ in publisher.dms} == {ALICE, CAROL}
    assert all("secret contract" in text for _, text in publisher.dms)
    fallbacks = [text for text in publisher.texts() if "could not DM you" in text]
    assert fallbacks == [f"<@{BOB}>, I could not DM you: use the **My contract** button "
                         "under the board to see your contract."]


async def test_pending_automatic_steps_are_played_when_games_resume(
    db: Database, publisher: FakePublisher
) -> None:
    # Le Grabuge deals and plays forced cards before anyone decides.
    record = await new_game(db, "grabuge")
    assert await manager(db, publisher).resume_all() == 1
    moves = await db.moves(record.id)
    assert moves and moves[0].kind is MoveKind.CHANCE
    assert len(publisher.boards()) == 1


async def test_two_first_clicks_share_one_session_and_one_lock(
    db: Database, publisher: FakePublisher
) -> None:
    record = await new_game(db)
    sessions = manager(db, publisher)
    first, second = await asyncio.gather(sessions.get(record.id), sessions.get(record.id))
    assert first is second is not None
    assert await sessions.get(999) is None
    assert await sessions.in_channel(5) is first
    assert await sessions.in_channel(6) is None


async def test_a_first_board_that_cannot_be_posted_leaves_the_game_running(
    db: Database, publisher: FakePublisher
) -> None:
    publisher.fail_posts = True
    session = await manager(db, publisher).start(await new_game(db))
    assert not session.is_over and session.record.board_message_id is None
    assert "/board" in session.stale_text()


async def test_an_unexpected_error_after_the_store_says_the_move_stands(
    db: Database, publisher: FakePublisher
) -> None:
    session = await manager(db, publisher).start(await new_game(db))

    async def play_then_fail() -> str:
        await session.play(ALICE, FIRST_MOVE)
        return unexpected_text()

    async def fail_before() -> str:
        return unexpected_text()

    # Each interaction runs in its own task: what one stored never leaks into another.
    stored, untouched = await asyncio.gather(asyncio.create_task(play_then_fail()),
                                             asyncio.create_task(fail_before()))
    assert f"`{FIRST_MOVE}` was stored" in stored and "/board" in stored
    assert untouched == NOTHING_CHANGED
    assert stored_move.get() is None


async def test_a_board_discord_refused_is_posted_again_later(
    db: Database, publisher: FakePublisher, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.session_base.MEND_DELAYS", (0.01, 0.01, 0.01))
    session = await manager(db, publisher).start(await new_game(db))
    publisher.fail_posts = True
    turn = await session.play(ALICE, FIRST_MOVE)
    assert turn.note is not None and "post it again shortly" in turn.note
    assert session.board_behind
    publisher.fail_posts = False
    await eventually(lambda: not session.board_behind, "the board was posted again")
    stored = await db.get_game(session.id)
    assert stored is not None and stored.board_ply == 1
    assert stored.board_message_id == session.record.board_message_id


async def test_a_missing_permission_is_named_to_the_player(
    db: Database, publisher: FakePublisher
) -> None:
    session = await manager(db, publisher).start(await new_game(db))
    publisher.fail_posts, publisher.post_problem = True, Problem.MISSING_PERMISSIONS
    turn = await session.play(ALICE, FIRST_MOVE)
    assert turn.note is not None
    assert "Your move stands" in turn.note and "Send Messages in Threads" in turn.note
    session.stop_mending()


async def test_a_deleted_thread_aborts_the_game_instead_of_leaving_it_running(
    db: Database, publisher: FakePublisher
) -> None:
    session = await manager(db, publisher).start(await new_game(db))
    publisher.fail_posts, publisher.post_problem = True, Problem.CHANNEL_GONE
    turn = await session.play(ALICE, FIRST_MOVE)
    assert turn.note is not None and "aborted" in turn.note
    stored = await db.get_game(session.id)
    assert stored is not None and stored.status is GameStatus.ABORTED
    assert not session.board_behind  # nothing left to post


async def test_boards_behind_are_posted_when_the_bot_starts(
    db: Database, publisher: FakePublisher
) -> None:
    # A crash between storing a move and posting its board: the next start posts it.
    record = await new_game(db)
    crashed = await manager(db, publisher).start(record)
    publisher.fail_posts = True
    await crashed.play(ALICE, FIRST_MOVE)
    crashed.stop_mending()
    publisher.fail_posts = False

    restarted = FakePublisher()
    assert await manager(db, restarted).resume_all() == 1
    assert len(restarted.boards()) == 1
    stored = await db.get_game(record.id)
    assert stored is not None and stored.board_ply == stored.ply == 1


async def test_a_stale_text_never_links_to_a_board_that_is_behind(
    db: Database, publisher: FakePublisher
) -> None:
    session = await manager(db, publisher).start(await new_game(db))
    assert session.board_link() is not None and session.board_link() in session.stale_text()
    publisher.fail_posts = True
    await session.play(ALICE, FIRST_MOVE)
    session.stop_mending()
    assert "https://" not in session.stale_text() and "/board" in session.stale_text()
