"""Every board in play has a Rules button: anyone (a spectator too) gets the game's rules
privately, in their own language, without leaving the thread."""

from __future__ import annotations

from bot.games import GAME_UIS
from tests.e2e.helpers import challenge_and_accept, control_labels, latest_board, speaking
from tests.e2e.test_casual_games import resign


async def test_a_spectator_reads_the_rules_privately_from_the_board(env, world) -> None:
    thread, _session = await challenge_and_accept(env, world.channel, world.alice, world.bob,
                                                  game="granat")
    board = latest_board(thread)
    assert control_labels(board)[-1] == "Rules"
    posted = len(thread.history())

    shown = await world.carol.click(board, label="Rules")

    assert shown.ephemeral
    embed = shown.response.embeds[0]
    assert embed.title.startswith("Granat · ")
    assert embed.description == GAME_UIS["granat"].rules
    assert len(thread.history()) == posted, "nothing posted in the thread"


async def test_the_rules_come_in_the_clickers_language(env, world, monkeypatch) -> None:
    speaking(monkeypatch, "fr", world.carol)
    thread, _session = await challenge_and_accept(env, world.channel, world.alice, world.bob)

    shown = await world.carol.click(latest_board(thread), label="Rules")

    assert shown.ephemeral
    assert shown.response.embeds[0].title == "Qawale · 2 joueurs"


async def test_a_finished_games_board_has_no_rules_button(env, world) -> None:
    thread, _session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    await resign(world.bob, thread)
    assert control_labels(latest_board(thread)) == ["Rematch"]
