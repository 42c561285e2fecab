"""Le Grabuge in Discord: forced play summed up, column buttons for the real choices."""

from __future__ import annotations

import random

import discord
import pytest

from bot.games.base import plural
from bot.games.grabuge import column_groups
from engines import grabuge as grabuge_engine
from engines.grabuge import card_label
from storage import GameStatus, MoveKind
from tests.e2e.helpers import (
    TINY_PNG,
    actor_for,
    bot_of,
    challenge_and_accept,
    control_labels,
    latest_board,
)

GAME_SEED = 68
"""Seats and card seed for the whole game: short, and it meets both kinds of choice (with the
clicks below)."""



def _buttons(message: discord.Message) -> list[discord.ui.Button]:
    return [c for row in message.components for c in row.children
            if isinstance(c, discord.Button) and (c.label or "").startswith("Column")]


def _first_enabled(message: discord.Message) -> str:
    return next(b.label for b in _buttons(message) if not b.disabled)


async def _open_game(env, world):
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob,
                                                 game="grabuge")
    return thread, session


async def _open_seeded_game(env, world, monkeypatch: pytest.MonkeyPatch, seed: int):
    """A game whose seats and cards come from `seed`, its boards left undrawn (the renderer
    has its own tests, and drawing every board would only slow these down)."""
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(seed))
    monkeypatch.setattr("bot.painter.render", lambda *args, **kwargs: TINY_PNG)
    return await _open_game(env, world)


async def test_a_whole_game_is_played_to_the_end_with_the_column_buttons(
    env, world, monkeypatch: pytest.MonkeyPatch
) -> None:
    thread, session = await _open_seeded_game(env, world, monkeypatch, GAME_SEED)
    reserve_choices = clicks = turns = 0
    while not session.is_over:
        board = latest_board(thread)
        state = session.state
        mover = actor_for(session, world.alice, world.bob)
        buttons = _buttons(board)
        groups = column_groups(state, state.current_player, state.decision())
        # One button per kind of column: interchangeable columns share one, and a choice
        # with a single kind is made by the bot (obvious_move), so never fewer than two.
        assert len(buttons) == len(groups) >= 2
        assert not any(b.disabled for b in buttons)
        if state.decision() == "reserve":
            reserve_choices += 1
            assert sorted(n for group in groups for n in group) == state.playable_columns()
            assert "several reserve cards can go" in board.embeds[0].description
        else:
            assert state.decision() == "keep"
            assert f"turned **{card_label(state.drawn)}**" in board.embeds[0].description
        # Reserve: the first column offered; keep: kinds of column in turn.
        label = buttons[0].label if state.decision() == "reserve" \
            else buttons[clicks % len(buttons)].label
        posted = len(thread.history())
        await mover.click(board, label=label)
        clicks += 1
        if session.is_over or actor_for(session, world.alice, world.bob) is not mover:
            # The turn passed: one new board (and its one ping), forced plays summed up on it.
            assert len(thread.history()) == posted + 1
            assert latest_board(thread).id != board.id
            turns += 1
        else:  # the same player goes on: the same board, edited in place
            assert len(thread.history()) == posted
            assert latest_board(thread).id == board.id
    assert reserve_choices > 0
    boards = [m for m in thread.history()
              if m.embeds and "Game #" in (m.embeds[0].footer.text or "")]
    assert len(boards) == turns + 1, "one public board per turn"
    final = latest_board(thread)
    text = final.embeds[0].description
    state = session.state
    result = session.result()
    assert result is not None and result.scores == [state.paquets(0), state.paquets(1)]
    assert control_labels(final) == ["Rematch"]
    assert "**Paquets:**" in text and " won + " in text and "for leftover cards" in text
    if len(result.winners) == 1:
        winner = result.winners[0]
        assert f"{session.names[winner]} wins, {plural(state.paquets(winner), 'paquet')}" in text
    else:
        assert "Draw:" in text
    assert len(text) <= 4096
    stored = await bot_of(env).db.get_game(session.id)
    assert stored.status is GameStatus.FINISHED
    log = await bot_of(env).db.moves(session.id)
    chosen = [m.move.split()[0] for m in log if m.kind is MoveKind.PLAYER]
    assert set(chosen) <= {"keep", "reserve"}
    assert any(m.kind is MoveKind.FORCED for m in log)
    assert any(m.kind is MoveKind.FORCED and m.move.startswith("keep") for m in log)


SET_UP_SHOWN_SEED = 0
"""A deal whose first real choice comes in the first turn: the first board shows the set-up."""

FORCED_FIRST_TURN_SEED = 108
"""A deal (about one in a hundred) whose first player's whole first turn is forced: the first
board comes after it, when the engine's log of the set-up has rolled away (it keeps two
turns')."""


async def test_forced_play_is_summed_up_in_the_board_message(
    env, world, monkeypatch: pytest.MonkeyPatch
) -> None:
    thread, session = await _open_seeded_game(env, world, monkeypatch, SET_UP_SHOWN_SEED)
    first = latest_board(thread).embeds[0].description
    assert "\nSet-up: " in first and "starts (" in first
    assert "Choose" in first  # the prompt of the first real choice
    mover = actor_for(session, world.alice, world.bob)
    await mover.click(latest_board(thread), label=_first_enabled(latest_board(thread)))
    text = latest_board(thread).embeds[0].description
    assert "(continued): " in text or "'s turn: " in text
    assert "→ column" in text
    assert "`card:" not in text  # chance cards are told as cards, not as notation


async def test_a_wholly_forced_first_turn_is_told_on_the_first_board(
    env, world, monkeypatch: pytest.MonkeyPatch
) -> None:
    thread, session = await _open_seeded_game(env, world, monkeypatch, FORCED_FIRST_TURN_SEED)
    lines = latest_board(thread).embeds[0].description.split("\n")
    seat = session.state.current_player
    starter, mover = session.names[1 - seat], session.names[seat]
    # The set-up, though the engine's log of it rolled away during the first player's turn.
    set_up = next(line for line in lines if line.startswith("Set-up: "))
    assert f"**{starter}** starts (" in set_up and f"**{mover}**'s grabuge shows " in set_up
    # The first player's turn, played by the bot, then the second's up to its first choice.
    turns = [line for line in lines if "'s turn: drew 4: " in line]
    assert [starter in turns[0], mover in turns[1]] == [True, True]
    assert "→ column 1" in turns[0]  # its one card kept, in the only kind of column
    assert any(f"**{mover}** turned " in line and "Choose" in line for line in lines)


PASSING_SEED = 9
"""A deal in which, clicking the first column each time, a player once has nothing to do."""


async def test_without_skipped_turns_an_idle_players_pass_is_played_and_told(
    env, world, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(grabuge_engine, "SKIP_EMPTY_TURNS", False)
    thread, session = await _open_seeded_game(env, world, monkeypatch, PASSING_SEED)
    while not session.is_over:
        mover = actor_for(session, world.alice, world.bob)
        await mover.click(latest_board(thread), label=_first_enabled(latest_board(thread)))
    log = await bot_of(env).db.moves(session.id)
    passes = [move for move in log if move.move == "pass"]
    # The bot plays the pass for the idle player (never a button), and the board says so.
    assert [move.kind for move in passes] == [MoveKind.FORCED]
    idle = session.names[passes[0].seat]
    told = [line for message in thread.history() if message.embeds
            for line in (message.embeds[0].description or "").split("\n")
            if "nothing at all to do: passed" in line]
    assert told and all(f"**{idle}**'s turn: " in line for line in told)


async def test_the_decks_option_is_chosen_on_the_challenge(env, world) -> None:
    result = await world.alice.slash(world.channel, "challenge", game="grabuge",
                                     opponent=world.bob, decks=8)
    assert not result.ephemeral
    assert "decks of 52 cards: 8" in result.response.embeds[0].fields[0].value
    await world.bob.click(result.response.message, label="Accept")
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session.state.options == {"decks": 8}
    board = latest_board(thread)
    assert "decks of 52 cards: 8" in board.embeds[0].description
    # Every card of 8 decks is somewhere: with a player, on the tableau, or in a crowned
    # pile. (The talons' size depends on how many forced or needless plays came before a
    # real choice.)
    state = session.state
    on_tableau = sum(len(pile["cards"]) for pile in state.piles) + 13 * sum(state.crowned)
    assert state.unplayed_cards(0) + state.unplayed_cards(1) + on_tableau == 8 * 52
    assert min(state.talon) > 104  # far more than two decks' 52 cards a player
    assert board.attachments[0].filename == "board.png"


async def test_the_opponent_and_a_spectator_are_refused(env, world) -> None:
    thread, session = await _open_game(env, world)
    mover = actor_for(session, world.alice, world.bob)
    waiting = world.bob if mover is world.alice else world.alice
    board = latest_board(thread)
    label = _first_enabled(board)
    refused = await waiting.click(board, label=label)
    assert refused.ephemeral
    assert f"It is {mover.name.capitalize()}'s turn, not yours." in refused.response.content
    spectator = await world.carol.click(board, label=label)
    assert spectator.ephemeral and "not playing" in spectator.response.content
    typed = await waiting.slash(thread, "move", notation="keep 1")
    assert typed.ephemeral and "turn, not yours" in typed.response.content
    assert latest_board(thread).id == board.id and session.ply == (await _ply(env, session))


async def _ply(env, session) -> int:
    return len(await bot_of(env).db.moves(session.id))


async def test_an_illegal_typed_move_gets_the_engine_reason(env, world) -> None:
    thread, session = await _open_game(env, world)
    mover = actor_for(session, world.alice, world.bob)
    before = session.state.dump()
    result = await mover.slash(thread, "move", notation="keep 5")
    assert result.ephemeral and "only 4 reserve columns" in result.response.content
    if session.state.decision() == "keep":
        result = await mover.slash(thread, "move", notation="drawn")
        assert "cannot go on the tableau" in result.response.content
    result = await mover.slash(thread, "move", notation="shuffle")
    assert "is not a Grabuge move" in result.response.content
    assert session.state.dump() == before


async def test_a_typed_move_and_its_autocomplete(env, world) -> None:
    thread, session = await _open_game(env, world)
    mover = actor_for(session, world.alice, world.bob)
    legal = [str(m) for m in session.state.legal_moves()]
    choices = await mover.autocomplete(thread, "move", "notation", legal[0][:2])
    values = [c["value"] for c in choices]
    assert values and set(values) <= set(legal)
    played = await mover.slash(thread, "move", notation=legal[-1].upper())
    assert played.ephemeral and f"Played `{legal[-1]}`" in played.response.content
    log = await bot_of(env).db.moves(session.id)
    assert any(m.kind is MoveKind.PLAYER and m.move == legal[-1] for m in log)
