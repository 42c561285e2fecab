"""Every picture the bot posts says what it shows to screen readers (its alt text)."""

from __future__ import annotations

from tests.e2e.helpers import actor_for, challenge_and_accept, latest_board
from tests.e2e.test_records import _resign_game


async def test_a_board_says_whose_turn_it_is_then_how_the_game_ended(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = session.names[session.state.current_player]
    [picture] = latest_board(thread).attachments
    assert picture.description.startswith(f"Board of {session.title}: {mover} to play. ")
    assert "**" not in picture.description
    other = world.bob if actor_for(session, world.alice, world.bob) is world.alice \
        else world.alice
    asked = await other.slash(thread, "resign")
    await other.click(asked.response.message, label="Resign")
    [final] = latest_board(thread).attachments
    name = "Bob" if other is world.bob else "Alice"
    assert f"{name} resigned" in final.description


async def test_the_rules_picture_and_the_rating_chart_say_what_they_show(env, world) -> None:
    rules = await world.alice.slash(world.channel, "rules", game="granat")
    assert rules.response.attachments[0].description == "The starting position of Granat."
    for _ in range(2):
        await _resign_game(env, world, world.bob, world.alice)
    stats = await world.carol.slash(world.channel, "stats", member=world.alice, game="qawale")
    [chart] = stats.response.attachments
    assert chart.description.startswith(
        "Alice's rating in Qawale after each of their last 2 rated games here: from 0.0 to ")


async def test_a_replay_and_its_viewer_say_what_they_show(env, world) -> None:
    game_id = await _resign_game(env, world, world.bob, world.alice)
    replay = await world.carol.slash(world.channel, "replay", game=f"#{game_id}")
    [gif] = replay.response.attachments
    assert gif.description == replay.response.content.replace("**", "")
    assert "Qawale" in gif.description
    viewer = await world.carol.click(replay.response.message, label="Step through")
    [frame] = viewer.response.attachments
    assert frame.description == viewer.response.content.replace("**", "")
