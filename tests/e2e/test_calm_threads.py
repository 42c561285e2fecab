"""Calm threads: a whole game of each game played through the bot posts one public board and
one "your turn" ping per turn; the steps of a turn edit that board in place."""

from __future__ import annotations

import random

import pytest

from storage import MoveKind
from tests.e2e.helpers import actor_for, bot_of

BOARD_FOOTER = "Game #"


@pytest.mark.parametrize(("game", "players"), [
    ("qawale", 2), ("graps", 2), ("grabuge", 2), ("granat", 2), ("kraut_ruben", 3)])
async def test_a_whole_game_posts_one_board_and_one_ping_per_turn(
    env, world, quick_boards, game: str, players: int
) -> None:
    people = [world.alice, world.bob, world.carol][:players]
    opponents = {f"opponent{i + 1}" if i else "opponent": member
                 for i, member in enumerate(people[1:])}
    challenge = await world.alice.slash(world.channel, "challenge", game=game, clock="none",
                                        **opponents)
    for member in people[1:]:
        await member.click(challenge.response.message, label="Accept")
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None
    rng = random.Random(game)
    turns, last = 1, actor_for(session, *people)
    while not session.is_over:
        mover = actor_for(session, *people)
        if mover is not last:
            turns, last = turns + 1, mover
        await env.advance_time(0.001)  # commands are milliseconds apart, as in real life
        played = await mover.slash(thread, "move",
                                   notation=str(rng.choice(session.state.legal_moves())))
        assert "Played" in (played.response.content or ""), played.response.content

    messages = thread.history()
    boards = [m for m in messages if m.embeds and (m.embeds[0].footer.text or "")
              .startswith(BOARD_FOOTER)]
    assert len(boards) == turns + 1, "one board per turn, and the final board"
    pings = [m for m in messages if "your turn" in (m.content or "")]
    assert len(pings) == turns, "one ping per turn"
    assert all(not board.components for board in boards[:-1]), "finished turns lose controls"
    log = await bot_of(env).db.moves(session.id)
    decisions = sum(move.kind is MoveKind.PLAYER for move in log)
    assert f"move {decisions} ·" in (boards[-1].embeds[0].footer.text or ""), \
        "move numbers count decisions, not automatic steps"
