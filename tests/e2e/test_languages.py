"""French and English: a member's private answers follow their own Discord client."""

from __future__ import annotations

import logging

from bot.games.qawale import QawaleUI
from bot.records import RecordsService
from tests.e2e.helpers import actor_for, challenge_and_accept, latest_board, speaking


async def test_a_french_client_gets_its_private_answers_in_french(
    env, world, monkeypatch, allowed_errors
) -> None:
    allowed_errors.append(RuntimeError)
    speaking(monkeypatch, "fr", world.alice)

    async def broken(*args: object) -> None:
        raise RuntimeError("the stats table is on fire")

    monkeypatch.setattr(RecordsService, "stats", broken)
    french = await world.alice.slash(world.channel, "stats")
    english = await world.bob.slash(world.channel, "stats")
    assert french.ephemeral and "Quelque chose s’est mal passé" in french.response.content
    assert "Something went wrong on my side" in english.response.content


async def test_a_french_client_clicking_a_button_hears_french(env, world, monkeypatch, caplog) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    speaking(monkeypatch, "fr", mover)

    async def broken(*args: object) -> None:
        raise KeyError("stack")

    monkeypatch.setattr(QawaleUI, "handle", broken)
    with caplog.at_level(logging.ERROR, logger="bot.replies"):
        answer = await mover.select(latest_board(thread), ["a1"])
    assert answer.ephemeral and "rien n’a changé" in answer.response.content
