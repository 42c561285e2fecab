"""Sessions in memory: the recently used ones; idle ones are let go and load again on demand,
and a start loads only the games that need something done."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.ai_players import ai_user_id
from bot.challenges import ChallengeService
from bot.games import GAME_UIS
from bot.session_manager import IDLE_SESSION_SECONDS, SessionManager
from engines import GAMES
from storage import ChallengeStatus, Database, Seat
from tests.bot.fakes import ALICE, BOB, NOW, FakePublisher, manager, new_game
from tests.waiting import eventually


@pytest.fixture(autouse=True)
def quick_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board picture does not matter here: skip the rendering."""
    monkeypatch.setattr("bot.painter.render", lambda *args, **kwargs: b"png")


async def test_the_least_recently_used_idle_session_is_let_go_and_loads_again(
    db: Database, publisher: FakePublisher
) -> None:
    sessions = SessionManager(db, GAME_UIS, publisher, capacity=2)
    first = await sessions.start(await new_game(db))
    await first.play(ALICE, "a1:NES")
    second = await sessions.start(await new_game(db))
    await sessions.get(first.id)  # used again: the second is now the oldest
    third = await sessions.start(await new_game(db))

    assert len(sessions) == 2
    reloaded = await sessions.get(second.id)
    assert reloaded is not second  # it was let go...
    assert reloaded is not None and reloaded.ply == second.ply  # ...and comes back whole
    assert (await sessions.get(third.id)) is not None
    again = await sessions.get(first.id)
    assert again is not None and again.ply == 1
    await again.play(BOB, str(again.state.legal_moves()[0]))  # it plays on
    assert (await db.get_game(first.id)).ply == 2


async def test_a_session_in_the_middle_of_a_move_is_never_let_go(
    db: Database, publisher: FakePublisher
) -> None:
    sessions = SessionManager(db, GAME_UIS, publisher, capacity=1)
    busy = await sessions.start(await new_game(db))
    async with busy.lock:
        newer = await sessions.start(await new_game(db))
        assert busy.id in sessions and newer.id not in sessions  # the idle one went
        assert await sessions.get(busy.id) is busy


async def test_a_typed_move_older_than_a_reloaded_board_is_still_refused(
    db: Database, publisher: FakePublisher
) -> None:
    sessions = SessionManager(db, GAME_UIS, publisher, capacity=1)
    game = await sessions.start(await new_game(db))
    board = game.record.board_message_id
    assert board is not None
    await sessions.start(await new_game(db))  # the first is let go
    reloaded = await sessions.get(game.id)
    assert reloaded is not None and reloaded is not game
    with pytest.raises(Exception, match="while you were typing"):
        await reloaded.play(ALICE, "a1:NES", sent_as=board - 1)


async def test_a_start_loads_only_the_games_that_need_something_done(
    db: Database, publisher: FakePublisher
) -> None:
    first = manager(db, publisher)
    waiting = await first.start(await new_game(db))  # a person to move, board current
    stale = await first.start(await new_game(db))
    await db.set_board_message(stale.id, stale.record.board_message_id, None)
    state = GAMES["qawale"].new_state(2)
    ai_game = await db.create_game(
        game="qawale", guild_id=1, channel_id=7, parent_id=None, now=NOW,
        seats=[Seat(0, ai_user_id("easy", 0), "AI"), Seat(1, BOB, "Bob")], options={},
        rng_seed=3, state=state.dump(), to_move=state.current_player)
    await db.set_board_message(ai_game.id, 99, 0)

    restarted = manager(db, publisher)
    assert await restarted.resume_all() == 2
    assert waiting.id not in restarted
    assert stale.id in restarted and ai_game.id in restarted
    assert (await restarted.get(waiting.id)) is not None  # loads on demand
    restarted.close()


async def test_a_process_resumes_only_the_games_of_its_own_shards(
    db: Database, publisher: FakePublisher
) -> None:
    first = manager(db, publisher)
    stale = await first.start(await new_game(db))
    await db.set_board_message(stale.id, stale.record.board_message_id, None)
    other_process = manager(db, publisher)
    assert await other_process.resume_all(owns=lambda guild_id: guild_id != 1) == 0
    assert stale.id not in other_process
    mine = manager(db, publisher)
    assert await mine.resume_all(owns=lambda guild_id: guild_id == 1) == 1
    assert stale.id in mine
    mine.close()


async def test_a_process_expires_only_the_challenges_of_its_own_shards(
    db: Database, publisher: FakePublisher
) -> None:
    overdue = {guild: await db.create_challenge(
        game="qawale", guild_id=guild, channel_id=5, challenger_id=ALICE, opponent_ids=[BOB],
        player_names={ALICE: "Alice", BOB: "Bob"}, options={}, now=NOW - timedelta(hours=1),
        expires_at=NOW - timedelta(minutes=50)) for guild in (1, 2)}
    other_process = ChallengeService(db, manager(db, publisher), GAME_UIS, publisher)
    await other_process.resume(owns=lambda guild_id: guild_id == 2)
    mine, theirs = overdue[2], overdue[1]

    async def expired() -> bool:  # an overdue challenge expires at once
        return (await db.get_challenge(mine.id)).status is ChallengeStatus.EXPIRED
    await eventually(expired, "this process's overdue challenge expired")
    assert (await db.get_challenge(theirs.id)).status is ChallengeStatus.PENDING
    other_process.cancel_timers()


class Clock:
    """The sessions' clock, moved on by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    """A clock standing still until a test moves it."""
    return Clock()


async def test_a_session_left_idle_for_ten_minutes_is_let_go_and_loads_again(
    db: Database, publisher: FakePublisher, clock: Clock
) -> None:
    sessions = SessionManager(db, GAME_UIS, publisher, clock=clock)
    quiet = await sessions.start(await new_game(db))
    clock.now += IDLE_SESSION_SECONDS / 2
    busy = await sessions.start(await new_game(db))
    clock.now += IDLE_SESSION_SECONDS / 2 + 1
    await sessions.get(busy.id)  # any use lets the long-unused sessions go

    assert quiet.id not in sessions and busy.id in sessions
    again = await sessions.get(quiet.id)
    assert again is not None and again is not quiet and again.ply == quiet.ply
    await again.play(ALICE, "a1:NES")  # it plays on
    assert (await db.get_game(quiet.id)).ply == 1


async def test_a_session_in_the_middle_of_something_is_kept_however_long_unused(
    db: Database, publisher: FakePublisher, clock: Clock
) -> None:
    sessions = SessionManager(db, GAME_UIS, publisher, clock=clock)
    thinking = await sessions.start(await new_game(db))
    async with thinking.lock:  # a move under way
        clock.now += IDLE_SESSION_SECONDS * 3
        await sessions.start(await new_game(db))
        assert thinking.id in sessions
