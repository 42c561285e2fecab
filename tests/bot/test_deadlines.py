"""What the timers do, against an in-memory database and a fake Discord: reminders that
still apply, Discord failures during reminders and archiving, stale timers."""

from __future__ import annotations

from datetime import timedelta

import discord
import pytest

from bot.deadlines import DeadlineService
from bot.errors import Refusal
from bot.publisher import Problem, PublishFailed
from bot.session_manager import SessionManager
from engines import GAMES
from storage import Database, GameStatus, Seat, Timer, TimerEvent
from tests.bot.fakes import ALICE, BOB, FakePublisher, manager


@pytest.fixture(autouse=True)
def quick_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board picture does not matter here: skip the rendering."""
    monkeypatch.setattr("bot.painter.render", lambda *args, **kwargs: b"png")


async def clocked_game(db: Database, sessions: SessionManager, *, thread: bool = True):
    """A live-clock Qawale game in a thread of its own, its board posted and clock running."""
    record = await db.create_game(
        game="qawale", guild_id=1, channel_id=5, parent_id=4 if thread else None,
        seats=[Seat(0, ALICE, "Alice"), Seat(1, BOB, "Bob")], options={}, rng_seed=7,
        state=GAMES["qawale"].new_state(2).dump(), now=discord.utils.utcnow(), clock="live")
    return await sessions.start(record)


def timer(session, event: TimerEvent, *, ply: int | None = None) -> Timer:
    seat = session.state.current_player
    return Timer(1, session.id, event, discord.utils.utcnow(),
                 session.ply if ply is None else ply, seat)


async def test_a_reminder_pings_in_the_thread_and_sends_a_dm_with_the_board(
    db: Database, publisher: FakePublisher
) -> None:
    sessions = manager(db, publisher)
    session = await clocked_game(db, sessions)
    await DeadlineService(db, sessions, publisher).remind(timer(session, TimerEvent.HALF_TIME))
    mover = session.record.user_at(session.state.current_player)
    assert f"<@{mover}>" in publisher.texts()[-1] and "half your time" in publisher.texts()[-1]
    [(user, dm)] = publisher.dms
    assert user == mover and str(session.record.board_message_id) in dm


async def test_a_reminder_for_a_move_already_played_says_nothing(
    db: Database, publisher: FakePublisher
) -> None:
    sessions = manager(db, publisher)
    session = await clocked_game(db, sessions)
    posts = len(publisher.posts)
    await DeadlineService(db, sessions, publisher).remind(
        timer(session, TimerEvent.LAST_CALL, ply=session.ply - 1))
    await DeadlineService(db, sessions, publisher).time_out(
        timer(session, TimerEvent.TIMEOUT, ply=session.ply - 1))
    assert len(publisher.posts) == posts and publisher.dms == []


async def test_a_reminder_discord_could_not_post_is_tried_again_but_a_forbidden_one_is_not(
    db: Database, publisher: FakePublisher
) -> None:
    sessions = manager(db, publisher)
    session = await clocked_game(db, sessions)
    service = DeadlineService(db, sessions, publisher)
    publisher.fail_posts = True
    with pytest.raises(PublishFailed):  # the timer loop retries it a minute later
        await service.remind(timer(session, TimerEvent.HALF_TIME))
    publisher.post_problem = Problem.MISSING_PERMISSIONS
    await service.remind(timer(session, TimerEvent.HALF_TIME))
    assert len(publisher.dms) == 1, "the DM still goes out"


async def test_closed_dms_and_turned_off_dms_leave_only_the_ping(
    db: Database, publisher: FakePublisher
) -> None:
    sessions = manager(db, publisher)
    session = await clocked_game(db, sessions)
    service = DeadlineService(db, sessions, publisher)
    mover = session.record.user_at(session.state.current_player)
    publisher.closed_dms.add(mover)
    await service.remind(timer(session, TimerEvent.HALF_TIME))
    publisher.closed_dms.clear()
    await service.set_dm_reminders(mover, False)
    await service.remind(timer(session, TimerEvent.LAST_CALL))
    assert publisher.dms == [] and not await service.dm_reminders(mover)
    assert sum("⏰" in text for text in publisher.texts()) == 2


async def test_a_finished_games_thread_is_closed_but_not_a_channel_or_a_running_game(
    db: Database, publisher: FakePublisher
) -> None:
    sessions = manager(db, publisher)
    in_thread = await clocked_game(db, sessions)
    service = DeadlineService(db, sessions, publisher)
    await service.archive(timer(in_thread, TimerEvent.ARCHIVE))
    assert publisher.closed_threads == [], "still running"
    await in_thread.resign(ALICE)
    await service.archive(timer(in_thread, TimerEvent.ARCHIVE))
    assert publisher.closed_threads == [in_thread.record.channel_id]
    in_channel = await clocked_game(db, sessions, thread=False)
    await in_channel.resign(ALICE)
    await service.archive(timer(in_channel, TimerEvent.ARCHIVE))
    assert publisher.closed_threads == [in_thread.record.channel_id]


async def test_archiving_retries_when_discord_is_down_and_gives_up_when_forbidden(
    db: Database, publisher: FakePublisher
) -> None:
    sessions = manager(db, publisher)
    session = await clocked_game(db, sessions)
    await session.resign(BOB)
    service = DeadlineService(db, sessions, publisher)
    publisher.fail_posts = True
    with pytest.raises(PublishFailed):
        await service.archive(timer(session, TimerEvent.ARCHIVE))

    class Forbidden(FakePublisher):
        async def close_thread(self, channel_id: int) -> None:
            raise PublishFailed("Missing Permissions", Problem.MISSING_PERMISSIONS)

    await DeadlineService(db, sessions, Forbidden()).archive(timer(session, TimerEvent.ARCHIVE))


async def test_the_end_of_a_game_schedules_the_archive_of_its_thread(
    db: Database, publisher: FakePublisher
) -> None:
    sessions = SessionManager(db, {}, publisher, archive_after=timedelta(minutes=15))
    sessions.uis = manager(db, publisher).uis
    session = await clocked_game(db, sessions)
    await session.resign(ALICE)
    assert session.record.status is GameStatus.FINISHED
    [archive] = await db.timers_of(session.id)
    assert archive.event is TimerEvent.ARCHIVE
    assert archive.due_at - session.record.finished_at == timedelta(minutes=15)


async def test_keeping_waiting_is_refused_before_the_time_is_up(
    db: Database, publisher: FakePublisher
) -> None:
    sessions = manager(db, publisher)
    session = await clocked_game(db, sessions)
    absent = session.state.current_player
    other = session.record.user_at(1 - absent)
    with pytest.raises(Refusal, match="still has time"):
        await session.keep_waiting(other, session.ply)
