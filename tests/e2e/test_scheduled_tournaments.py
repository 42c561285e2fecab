"""`/tournament starts_in:`: a tournament announced ahead that starts by itself at its time
with whoever joined (or says it could not, with too few), even across a restart; its host
may still start it sooner."""

from __future__ import annotations

from storage import ChallengeStatus
from tests.e2e.helpers import bot_of
from tests.e2e.test_restart import restart
from tests.e2e.test_tournaments import open_tournament, tournament_message

HOUR = 3600


async def test_a_tournament_starts_by_itself_at_its_time_with_the_players_at_the_table(
    env, world
) -> None:
    table = await open_tournament(world, starts_in=2)
    description = table.embeds[0].description
    assert "The tournament starts by itself" in description
    assert "the host may click **Start** sooner" in description
    await world.bob.click(table, label="Join")
    await env.advance_time(HOUR)
    await world.carol.click(table, label="Join")
    assert world.channel.threads == [], "not before its time"
    await env.advance_time(HOUR + 5)
    shown = tournament_message(world, table).embeds[0]
    assert "round 1 of 3" in shown.description
    call = world.channel.history()[-1]
    assert call.content.startswith("🏆 **Round 1 of 3** of the Qawale tournament")
    assert len(world.channel.threads) == 1
    late = await world.bob.click(tournament_message(world, table), label="Withdraw")
    assert late.ephemeral, "the table's buttons are the tournament's now"


async def test_a_tournament_with_too_few_players_at_its_time_does_not_start(
    env, world
) -> None:
    table = await open_tournament(world, starts_in=1)
    await world.bob.click(table, label="Join")
    await env.advance_time(HOUR + 5)
    shown = tournament_message(world, table).embeds[0]
    assert "did not start: fewer than 3 players had joined by its time" in shown.description
    stored = (await bot_of(env).db.waiting_challenges_of(world.alice.id, env.now()))
    assert stored == []
    assert world.channel.threads == []


async def test_the_host_may_start_a_scheduled_tournament_sooner(env, world) -> None:
    table = await open_tournament(world, starts_in=4)
    await world.bob.click(table, label="Join")
    await world.carol.click(table, label="Join")
    started = await world.alice.click(table, label="Start")
    assert not started.ephemeral
    assert len(world.channel.threads) == 1
    await env.advance_time(4 * HOUR + 5)
    assert len(world.channel.threads) == 1, "its time passing starts nothing more"


async def test_a_scheduled_tournament_starts_after_a_restart(env, world, database_url) -> None:
    table = await open_tournament(world, starts_in=1)
    await world.bob.click(table, label="Join")
    await world.carol.click(table, label="Join")
    await restart(env, database_url)
    await env.advance_time(HOUR + 5)
    assert "round 1 of 3" in tournament_message(world, table).embeds[0].description
    assert await bot_of(env).db.running_tournaments_of(world.bob.id) == 1


async def test_a_click_after_the_time_but_before_the_timer_starts_it_once(env, world) -> None:
    table = await open_tournament(world, starts_in=1)
    await world.bob.click(table, label="Join")
    await world.carol.click(table, label="Join")
    [record] = await bot_of(env).db.waiting_challenges_of(world.alice.id, env.now())
    challenges = bot_of(env).challenges
    challenges.cancel_timers()  # its timer late (a busy loop): the click comes first
    await env.advance_time(HOUR + 5)
    late = await world.bob.click(table, label="Leave")
    assert late.ephemeral and "already started" in late.response.content
    stored = await bot_of(env).db.get_challenge(record.id)
    assert stored.status is ChallengeStatus.ACCEPTED
    assert len(world.channel.threads) == 1


async def test_a_tournament_may_be_announced_a_day_ahead(env, world) -> None:
    table = await open_tournament(world, starts_in=24)
    assert "<t:" in table.embeds[0].description
    record = (await bot_of(env).db.waiting_challenges_of(world.alice.id, env.now()))[0]
    assert record.auto_start
    assert (record.expires_at - env.now()).total_seconds() == 24 * HOUR


async def test_the_players_are_called_ten_minutes_before_the_start(env, world) -> None:
    table = await open_tournament(world, starts_in=1)
    await world.bob.click(table, label="Join")
    await env.advance_time(HOUR - 11 * 60)
    assert world.channel.history()[-1].id == table.id, "no call yet"
    await env.advance_time(2 * 60)
    call = world.channel.history()[-1]
    assert call.content.startswith("⏰ The Qawale tournament starts <t:")
    assert f"<@{world.alice.id}> <@{world.bob.id}>, be there!" in call.content
    assert str(table.id) in call.content, "a link to join"
    await world.carol.click(table, label="Join")
    await env.advance_time(11 * 60)
    assert "round 1 of 3" in tournament_message(world, table).embeds[0].description


async def test_no_call_once_the_host_started_it(env, world) -> None:
    table = await open_tournament(world, starts_in=1)
    await world.bob.click(table, label="Join")
    await world.carol.click(table, label="Join")
    await world.alice.click(table, label="Start")
    await env.advance_time(HOUR + 60)
    assert not any((m.content or "").startswith("⏰ The Qawale tournament starts")
                   for m in world.channel.history())


async def test_a_call_discord_refuses_does_not_stop_the_start(env, world) -> None:
    table = await open_tournament(world, starts_in=1)
    await world.bob.click(table, label="Join")
    await world.carol.click(table, label="Join")
    env.inject_error("POST", f"/channels/{world.channel.id}/messages", times=1)
    await env.advance_time(HOUR - 9 * 60)
    assert not any((m.content or "").startswith("⏰ The Qawale tournament starts")
                   for m in world.channel.history())
    await env.advance_time(10 * 60)
    assert "round 1 of 3" in tournament_message(world, table).embeds[0].description

