"""💡 Hint, under the board of a casual game: the player to move privately gets the move the
Hard AI would play from their seat, a picture of the board after it, and **Play it**. A rated
game is played unaided: it has no such button, and a forged click is refused."""

from __future__ import annotations

import random

import pytest

import ai
from bot.ai_players import HINT_LEVEL, hint_seed
from bot.components import UNKNOWN_CONTROL, GameButton
from bot.errors import Refusal
from storage import MoveKind
from tests.e2e.helpers import (
    actor_for,
    bot_of,
    challenge_and_accept,
    control_labels,
    latest_board,
    speaking,
)
from tests.e2e.test_ai_games import THINKING_SETTLE_TIMEOUT
from tests.e2e.test_hostile_input import forge
from tests.e2e.test_restart import restart


@pytest.fixture(autouse=True)
def time_to_think(env) -> None:
    """A hint is the Hard AI thinking (about a second alone, several on a loaded machine
    under coverage): let the bot settle for longer than simcord's default 5 s."""
    env.settle_timeout = THINKING_SETTLE_TIMEOUT


async def casual_game(env, world, game: str = "qawale"):
    """Alice challenges Bob to a casual game, Bob accepts: its thread and session."""
    posted = await world.alice.slash(world.channel, "challenge", game=game,
                                     opponent=world.bob, rated="no")
    await world.bob.click(posted.response.message, label="Accept")
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None and session.record.casual
    return thread, session


def expected_hint(session) -> str:
    """The Hard AI's move for the player to move, thought as the bot thinks it."""
    state = session.state.clone()
    seed = hint_seed(session.record.rng_seed, session.ply)
    return str(ai.choose_move(state, HINT_LEVEL, rng=random.Random(seed)))


async def first_decision(env, game_id: int) -> str:
    """The first move a player chose in the game, as stored."""
    moves = await bot_of(env).db.moves(game_id)
    return next(m.move for m in moves if m.kind is MoveKind.PLAYER)


async def test_the_player_to_move_gets_the_ais_move_privately_and_plays_it(env, world) -> None:
    thread, session = await casual_game(env, world)
    mover = actor_for(session, world.alice, world.bob)
    board = latest_board(thread)
    assert "Hint" in control_labels(board)
    wanted, ply, posted = expected_hint(session), session.ply, len(thread.history())

    asked = await mover.click(board, label="Hint")

    assert asked.ephemeral
    hint = asked.response.message
    assert f"would play `{wanted}`" in hint.content
    assert "🤖 AI (Hard)" in hint.content
    assert [a.filename for a in hint.attachments] == ["hint.png"]
    assert len(thread.history()) == posted, "nothing is posted in the thread"
    assert session.ply == ply, "a hint plays nothing by itself"

    played = await mover.click(hint, label="Play it")

    assert played.response.content.startswith(f"Played `{wanted}`.")
    assert session.ply > ply
    assert await first_decision(env, session.id) == wanted


async def test_asking_twice_gives_the_same_hint(env, world) -> None:
    thread, session = await casual_game(env, world, game="graps")
    mover = actor_for(session, world.alice, world.bob)
    first = await mover.click(latest_board(thread), label="Hint")
    again = await mover.click(latest_board(thread), label="Hint")
    assert first.response.content == again.response.content


async def test_a_hint_is_only_for_the_player_to_move(env, world) -> None:
    thread, session = await casual_game(env, world)
    mover = actor_for(session, world.alice, world.bob)
    waiting = world.bob if mover is world.alice else world.alice
    board = latest_board(thread)

    not_yours = await waiting.click(board, label="Hint")
    spectator = await world.carol.click(board, label="Hint")

    assert not_yours.ephemeral
    assert not_yours.response.content == f"It is {mover.name.capitalize()}'s turn, not yours."
    assert spectator.ephemeral
    assert spectator.response.content.startswith("You are not playing in Qawale")


async def test_a_hint_of_an_older_position_cannot_be_played(env, world) -> None:
    thread, session = await casual_game(env, world)
    mover = actor_for(session, world.alice, world.bob)
    hint = (await mover.click(latest_board(thread), label="Hint")).response.message
    await mover.slash(thread, "move", notation=session.ui.autocomplete(session, "")[0])
    ply = session.ply

    late = await mover.click(hint, label="Play it")

    assert late.ephemeral
    assert "out of date" in late.response.content
    assert session.ply == ply


async def test_a_rated_game_is_played_unaided(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    assert "Hint" not in control_labels(latest_board(thread))
    mover = actor_for(session, world.alice, world.bob)
    forged = GameButton(session.id, None, "hint").item.custom_id

    refused = await forge(mover, latest_board(thread),
                          {"custom_id": forged, "component_type": 2})

    assert refused.ephemeral
    assert refused.response.content == UNKNOWN_CONTROL  # not a button of that board
    with pytest.raises(Refusal) as asked_anyway:
        await session.hint(mover.id)
    assert str(asked_anyway.value) == ("Hints are for casual games only: a rated game is "
                                       "played unaided.")


@pytest.mark.parametrize("game", ["grabuge", "kraut_ruben", "granat"])
async def test_a_hint_is_given_and_played_in_every_game(env, world, game: str) -> None:
    thread, session = await casual_game(env, world, game=game)
    mover = actor_for(session, world.alice, world.bob)
    wanted = expected_hint(session)
    hint = (await mover.click(latest_board(thread), label="Hint")).response.message
    assert f"would play `{wanted}`" in hint.content
    played = await mover.click(hint, label="Play it")
    assert played.response.content.startswith(f"Played `{wanted}`.")


async def test_a_french_client_reads_the_hint_in_french(env, world, monkeypatch) -> None:
    thread, session = await casual_game(env, world)
    mover = actor_for(session, world.alice, world.bob)
    speaking(monkeypatch, "fr", mover)
    hint = (await mover.click(latest_board(thread), label="Hint")).response.message
    assert "🤖 IA (Difficile)" in hint.content
    assert control_labels(hint) == ["Jouer ce coup"]


async def test_play_it_still_plays_the_hint_after_a_restart(env, world, database_url) -> None:
    thread, session = await casual_game(env, world)
    mover = actor_for(session, world.alice, world.bob)
    wanted = expected_hint(session)
    hint = (await mover.click(latest_board(thread), label="Hint")).response.message

    await restart(env, database_url)  # the hint kept in memory is gone: it is thought again

    played = await mover.click(hint, label="Play it")
    assert played.response.content.startswith(f"Played `{wanted}`.")
    resumed = await bot_of(env).sessions.in_channel(thread.id)
    assert await first_decision(env, resumed.id) == wanted
