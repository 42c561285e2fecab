"""↩️ Take back, under the board of a casual Qawale or Granat game against the AI: the member's
last move and the AI's reply are undone, it is their turn again in the position before it.
The log keeps both, marked as taken back: the footer, `/replay` and a restart see the game
as it stands. Rated games and games with chance have no take-backs; between two people, the
opponent is asked (`test_takeback_requests.py`)."""

from __future__ import annotations

import random

import pytest

from bot.components import UNKNOWN_CONTROL, GameButton
from bot.errors import Refusal
from storage import MoveKind
from tests.e2e.helpers import (
    bot_of,
    challenge_and_accept,
    control_labels,
    latest_board,
    said,
    simultaneously,
    the_bot,
)
from tests.e2e.test_hostile_input import forge
from tests.e2e.test_restart import restart

MOVE_LIST_SEED = 1
"""Seats and AI seed of the move-list test: a game that lasts past its moves."""


async def against_the_ai(env, world, game: str = "qawale", rated: str = "no"):
    """Alice plays the easy AI (casual unless said): the game's thread and session, at
    Alice's turn (the AI opens by itself when it sits first)."""
    await world.alice.slash(world.channel, "challenge", game=game,
                            opponent=the_bot(env, world), level="easy", rated=rated)
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None
    assert session.record.user_at(session.state.current_player) == world.alice.id
    return thread, session


async def alice_plays(env, world, thread, session, rng: random.Random) -> str:
    """Alice types a random legal move; the AI answers by itself. The move played."""
    move = str(rng.choice(session.state.legal_moves()))
    await env.advance_time(0.001)  # a command from the very millisecond of a board is older
    played = await world.alice.slash(thread, "move", notation=move)
    assert "Played" in (played.response.content or ""), played.response.content
    return move


def footer_move(thread) -> int:
    """The move number in the latest board's footer."""
    footer = latest_board(thread).embeds[0].footer.text
    return int(footer.split(" · move ", 1)[1].split(" ", 1)[0])


@pytest.mark.parametrize("game", ["qawale", "granat"])
async def test_taking_back_returns_to_the_position_before_the_members_last_move(
    env, world, game: str
) -> None:
    thread, session = await against_the_ai(env, world, game)
    rng = random.Random(game)
    await alice_plays(env, world, thread, session, rng)
    before_second = session.state.dump()
    number = footer_move(thread)
    await alice_plays(env, world, thread, session, rng)
    assert "Take back" in control_labels(latest_board(thread))

    await world.alice.click(latest_board(thread), label="Take back")

    assert session.state.dump() == before_second
    assert session.record.user_at(session.state.current_player) == world.alice.id
    board = latest_board(thread)
    assert "↩️" in board.embeds[0].description and "took their last move back" in \
        board.embeds[0].description
    assert footer_move(thread) == number, "the taken-back decisions no longer count"
    log = await bot_of(env).db.moves(session.id)
    assert log[-1].kind is MoveKind.TAKEBACK, "the log keeps what happened"

    await alice_plays(env, world, thread, session, rng)  # and the game goes on
    assert footer_move(thread) == number + 2


async def test_the_move_list_of_the_finished_game_shows_only_what_stands(
    env, world, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The game's seed fixes the AI's replies: with a drawn one, the AI sometimes won within
    # the moves below and the board had no Take back left to click.
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(MOVE_LIST_SEED))
    thread, session = await against_the_ai(env, world)
    rng = random.Random(3)
    for _ in range(3):
        await alice_plays(env, world, thread, session, rng)
    await world.alice.click(latest_board(thread), label="Take back")
    await world.alice.click(latest_board(thread), label="Take back")  # and once more
    await alice_plays(env, world, thread, session, rng)
    standing = footer_move(thread)
    prompt = await world.alice.click(latest_board(thread), label="Resign")
    await world.alice.click(prompt.response.message, label="Resign")

    _content, text = await bot_of(env).records.move_list(session.id, world.guild.id)

    numbered = [line for line in text.decode().splitlines() if line[:1].isdigit()]
    assert len(numbered) == standing
    log = await bot_of(env).db.moves(session.id)
    assert len([m for m in log if m.kind is MoveKind.PLAYER]) > standing


async def test_a_take_back_survives_a_restart(env, world, database_url) -> None:
    thread, session = await against_the_ai(env, world)
    rng = random.Random(5)
    await alice_plays(env, world, thread, session, rng)
    await alice_plays(env, world, thread, session, rng)
    await world.alice.click(latest_board(thread), label="Take back")
    taken_back_to = session.state.dump()

    await restart(env, database_url)

    resumed = await bot_of(env).sessions.in_channel(thread.id)
    assert resumed.state.dump() == taken_back_to
    await alice_plays(env, world, thread, resumed, rng)  # and it plays on
    assert resumed.ply > session.ply


async def test_nothing_to_take_back_before_the_first_move(env, world) -> None:
    _thread, session = await against_the_ai(env, world)
    with pytest.raises(Refusal) as refused:
        await session.take_back(world.alice.id)
    assert str(refused.value) == "You have no move to take back yet."


async def test_no_take_back_in_a_rated_game_or_with_chance(env, world) -> None:
    thread, session = await against_the_ai(env, world, rated="yes")
    rng = random.Random(7)
    await alice_plays(env, world, thread, session, rng)
    assert "Take back" not in control_labels(latest_board(thread))
    forged = GameButton(session.id, session.ply, "take_back").item.custom_id
    refused = await forge(world.alice, latest_board(thread),
                          {"custom_id": forged, "component_type": 2})
    assert refused.ephemeral and refused.response.content == UNKNOWN_CONTROL
    with pytest.raises(Refusal, match="only in a casual game of Qawale or Granat, against"):
        await session.take_back(world.alice.id)

    _graps_thread, graps = await against_the_ai(env, world, game="graps")
    with pytest.raises(Refusal, match="Qawale or Granat"):
        await graps.take_back(world.alice.id)


async def test_a_spectator_cannot_take_back(env, world) -> None:
    thread, session = await against_the_ai(env, world)
    await alice_plays(env, world, thread, session, random.Random(9))
    ply = session.ply
    refused = await world.carol.click(latest_board(thread), label="Take back")
    assert refused.ephemeral
    assert refused.response.content.startswith("You are not playing in Qawale")
    assert session.ply == ply


async def test_a_rated_game_between_people_has_no_take_back_button(env, world) -> None:
    thread, _session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    assert "Take back" not in control_labels(latest_board(thread))


async def test_a_french_server_reads_the_take_back_in_french(env, soiree) -> None:
    thread, session = await against_the_ai(env, soiree)
    await alice_plays(env, soiree, thread, session, random.Random(11))
    assert "Reprendre" in control_labels(latest_board(thread))
    await soiree.alice.click(latest_board(thread), label="Reprendre")
    assert "a repris son dernier coup" in latest_board(thread).embeds[0].description


async def test_a_double_click_takes_one_move_back(env, world) -> None:
    thread, session = await against_the_ai(env, world)
    rng = random.Random(13)
    await alice_plays(env, world, thread, session, rng)
    after_first = session.state.dump()
    await alice_plays(env, world, thread, session, rng)
    board = latest_board(thread)

    first, second = await simultaneously(
        env, lambda: world.alice.click(board, label="Take back"),
        lambda: world.alice.click(board, label="Take back"))

    assert session.state.dump() == after_first, "one move taken back, not two"
    log = await bot_of(env).db.moves(session.id)
    assert [m.kind for m in log].count(MoveKind.TAKEBACK) == 1
    told = said(first) + said(second)
    assert "out of date" in told
