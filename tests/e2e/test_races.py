"""Races: double clicks, the same /move twice, a /move racing a button, both players at once,
double Accept and Start. Exactly one wins; every other gets a private reason."""

from __future__ import annotations

import random

import pytest

from storage import ChallengeStatus
from tests.e2e.helpers import (
    actor_for,
    bot_of,
    challenge_and_accept,
    latest_board,
    said,
    simultaneously,
)
from tests.e2e.test_grabuge_game import GAME_SEED, TINY_PNG, _first_enabled


@pytest.fixture
def quick_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seats and cards from a fixed seed; tiny pictures (the race is what matters)."""
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(GAME_SEED))
    monkeypatch.setattr("bot.painter.render", lambda *args, **kwargs: TINY_PNG)


def answered(result) -> bool:
    """The interaction got an answer (a message, an edit or a deferral)."""
    return result.acknowledged



async def test_a_double_click_on_a_column_plays_once(env, world, quick_boards) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob,
                                                 game="grabuge")
    board = latest_board(thread)
    mover = actor_for(session, world.alice, world.bob)
    label = _first_enabled(board)
    before = session.ply

    results = await simultaneously(env, lambda: mover.click(board, label=label),
                                   lambda: mover.click(board, label=label))

    assert all(answered(r) for r in results)
    assert sum("out of date" in said(r) for r in results) == 1, [said(r) for r in results]
    log = await bot_of(env).db.moves(session.id)
    players = [m for m in log[before:] if m.kind.value == "player"]
    assert len(players) == 1


@pytest.mark.parametrize("game", ["qawale", "graps", "kraut_ruben", "grabuge", "granat"])
async def test_the_same_typed_move_sent_twice_at_once_is_played_once(
    env, world, quick_boards, game: str
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob,
                                                 game=game)
    mover = actor_for(session, world.alice, world.bob)
    move = str(session.state.legal_moves()[0])
    before = session.ply

    results = await simultaneously(env, lambda: mover.slash(thread, "move", notation=move),
                                   lambda: mover.slash(thread, "move", notation=move))

    assert all(answered(r) and r.ephemeral for r in results)
    texts = [said(r) for r in results]
    assert sum("Played" in t for t in texts) == 1, texts
    log = await bot_of(env).db.moves(session.id)
    assert sum(m.kind.value == "player" for m in log[before:]) == 1


async def test_a_typed_move_racing_a_button_plays_once(env, world, quick_boards) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob,
                                                 game="grabuge")
    board = latest_board(thread)
    mover = actor_for(session, world.alice, world.bob)
    move = str(session.state.legal_moves()[0])
    before = session.ply

    results = await simultaneously(
        env, lambda: mover.click(board, label=_first_enabled(board)),
        lambda: mover.slash(thread, "move", notation=move))

    assert all(answered(r) for r in results)
    log = await bot_of(env).db.moves(session.id)
    assert sum(m.kind.value == "player" for m in log[before:]) == 1


async def test_both_players_at_once_only_the_mover_plays(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    other = world.bob if mover is world.alice else world.alice

    results = await simultaneously(env, lambda: mover.slash(thread, "move", notation="a1:NES"),
                                   lambda: other.slash(thread, "move", notation="d4:SSW"))

    assert all(answered(r) and r.ephemeral for r in results)
    assert "Played" in said(results[0])
    assert "while you were typing" in said(results[1])
    assert [m.move for m in await bot_of(env).db.moves(session.id)] == ["a1:NES"]


async def test_a_double_accept_starts_one_game(env, world) -> None:
    challenge = await world.alice.slash(world.channel, "challenge", game="qawale",
                                        opponent=world.bob)
    message = challenge.response.message

    results = await simultaneously(env, lambda: world.bob.click(message, label="Accept"),
                                   lambda: world.bob.click(message, label="Accept"))

    assert all(answered(r) for r in results)
    assert len(world.channel.threads) == 1
    stored = await bot_of(env).db.get_challenge(1)
    assert stored is not None and stored.status is ChallengeStatus.ACCEPTED
    assert len(await bot_of(env).db.running_games()) == 1


async def test_a_double_start_of_a_table_starts_one_game(env, world) -> None:
    table = await world.alice.slash(world.channel, "lobby", game="qawale")
    message = table.response.message
    await world.bob.click(message, label="Join")

    results = await simultaneously(env, lambda: world.alice.click(message, label="Start"),
                                   lambda: world.alice.click(message, label="Start"))

    assert all(answered(r) for r in results)
    assert len(await bot_of(env).db.running_games()) == 1


async def test_a_challenge_accepted_elsewhere_meanwhile_starts_no_second_game(env, world) -> None:
    # Another shard process (or this one before a restart) stores the Accept first, while
    # this one opens the game's thread: storing the game must then fail whole.
    posted = await world.alice.slash(world.channel, "challenge", game="qawale",
                                     opponent=world.bob)
    db = bot_of(env).db
    real_create_game = db.create_game

    async def accepted_elsewhere_first(**fields):
        assert await db.close_challenge(fields["accepting"], ChallengeStatus.ACCEPTED)
        return await real_create_game(**fields)

    db.create_game = accepted_elsewhere_first
    answer = await world.bob.click(posted.response.message, label="Accept")
    assert "This challenge was already accepted." in said(answer)
    assert await db.running_game_in(world.channel.id) is None
    assert not world.channel.threads, "the thread opened for it was deleted"
