"""A whole Qawale game in Discord, with components, typed moves and every refusal."""

from __future__ import annotations

import asyncio

import discord

from engines.qawale import parse_notation
from storage import GameStatus, MoveKind
from tests.e2e.helpers import (
    actor_for,
    bot_of,
    challenge_and_accept,
    control_labels,
    latest_board,
    play_with_components,
    said,
)

WINNING_GAME = ["d1:NNW", "a1:ENW", "a4:SEN", "b4:SW", "b3:SEE", "c2:NW", "c3:SWW"]
"""Seven plies after which the first player shows four in a line; every step of them has a
choice of direction, so the helper clicks one direction per step (steps without a choice
are taken by the composer itself)."""


async def test_a_whole_game_played_with_components_to_a_win(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    first = actor_for(session, world.alice, world.bob)
    for move in WINNING_GAME:
        board = latest_board(thread)
        await play_with_components(actor_for(session, world.alice, world.bob), board, move)
        assert latest_board(thread).id != board.id
        assert board.id not in [m.id for m in thread.history() if m.components]  # retired
    final = latest_board(thread)
    assert f"{first.name.capitalize()} wins with four" in final.embeds[0].description
    assert control_labels(final) == ["Rematch"]
    stored = await bot_of(env).db.get_game(session.id)
    assert stored.status is GameStatus.FINISHED
    assert stored.result == {"winners": [0], "scores": None, "reason": "line"}
    log = await bot_of(env).db.moves(session.id)
    assert [m.move for m in log] == WINNING_GAME
    assert all(m.kind is MoveKind.PLAYER for m in log)


async def test_each_board_highlights_the_move_and_names_the_next_player(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    await play_with_components(mover, latest_board(thread), "a1:NES")
    board = latest_board(thread)
    assert "put a pebble on **a1**" in board.embeds[0].description
    nxt = actor_for(session, world.alice, world.bob)
    assert nxt is not mover and board.content == f"{nxt.mention}, your turn."


async def test_the_composer_offers_only_legal_steps(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    composer = await mover.select(latest_board(thread), ["a1"])
    buttons = {c.label: c for row in composer.response.message.components for c in row.children
               if isinstance(c, discord.Button)}
    assert buttons["North"].disabled is False and buttons["East"].disabled is False
    assert buttons["South"].disabled and buttons["West"].disabled  # off the board from a1
    assert buttons["Confirm"].disabled and buttons["Undo step"].disabled
    after_north = await mover.click(composer.response.message, label="North")
    buttons = {c.label: c for row in after_north.response.message.components
               for c in row.children if isinstance(c, discord.Button)}
    assert buttons["South"].disabled  # no stepping straight back
    assert after_north.response.attachments[0].filename == "preview.png"


async def test_undo_step_takes_back_the_last_direction(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    composer = await mover.select(latest_board(thread), ["a1"])
    step = await mover.click(composer.response.message, label="North")
    undone = await mover.click(step.response.message, label="Undo step")
    assert "Step 1 of 3" in undone.response.content


async def test_the_wrong_player_is_refused_privately(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    waiting = world.bob if mover is world.alice else world.alice
    board = latest_board(thread)
    refused = await waiting.select(board, ["a1"])
    assert refused.ephemeral and f"It is {mover.name.capitalize()}'s turn" in \
        refused.response.content
    spectator = await world.carol.select(board, ["a1"])
    assert spectator.ephemeral and "not playing" in spectator.response.content
    typed = await waiting.slash(thread, "move", notation="a1:NES")
    assert typed.ephemeral and "turn, not yours" in typed.response.content
    assert session.ply == 0


async def test_an_illegal_typed_move_gets_the_engine_reason_and_changes_nothing(
    env, world
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    before = session.state.dump()
    result = await mover.slash(thread, "move", notation="b2:NNE")
    assert result.ephemeral
    assert "b2 is empty" in result.response.content
    result = await mover.slash(thread, "move", notation="a1:NN")
    assert "needs 3 steps, not 2" in result.response.content
    assert session.state.dump() == before and session.ply == 0
    assert await bot_of(env).db.moves(session.id) == []


async def test_a_typed_move_is_played_and_announced(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    result = await mover.slash(thread, "move", notation=" A1 : nes ")
    assert result.ephemeral
    assert "Played `a1:NES`" in result.response.content
    assert "(`a1:NES`)" in latest_board(thread).embeds[0].description


async def test_move_autocomplete_suggests_legal_moves_matching_what_is_typed(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    choices = await mover.autocomplete(thread, "move", "notation", "a1:n")
    values = [c["value"] for c in choices]
    assert values and all(v.startswith("a1:N") for v in values)
    assert all(session.state.is_legal(v) for v in values)
    assert "a1:NES" in values


async def test_a_stale_board_component_explains_itself(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    old_board = latest_board(thread)
    first = actor_for(session, world.alice, world.bob)
    composer = await first.select(old_board, ["a1"])
    await first.slash(thread, "move", notation="a1:NES")
    # The first player's composer was drawn for the previous position.
    stale = await first.click(composer.response.message, label="North")
    assert stale.ephemeral and "out of date" in stale.response.content
    assert session.ply == 1


async def test_confirming_a_second_composer_for_the_same_turn_plays_only_once(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    board = latest_board(thread)
    ready = []
    for stack, path in (("a1", ("North", "East", "South")), ("d4", ("South", "South", "West"))):
        message = (await mover.select(board, [stack])).response.message
        for label in path:
            message = (await mover.click(message, label=label)).response.message
        ready.append(message)
    await mover.click(ready[0], label="Confirm")
    second = await mover.click(ready[1], label="Confirm")
    assert second.ephemeral and "out of date" in second.response.content
    assert [m.move for m in await bot_of(env).db.moves(session.id)] == ["a1:NES"]


async def test_two_simultaneous_moves_apply_only_one(env, world) -> None:
    _, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover_id = session.record.user_at(0)
    outcomes = await asyncio.gather(
        session.play(mover_id, "a1:NES", expected_ply=0),
        session.play(mover_id, "d4:SSW", expected_ply=0),
        return_exceptions=True,
    )
    assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
    assert len(await bot_of(env).db.moves(session.id)) == 1


async def test_board_reposts_the_current_board_with_live_controls(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    first_board = latest_board(thread)
    result = await world.carol.slash(thread, "board")
    assert result.ephemeral
    board = latest_board(thread)
    assert board.id != first_board.id and board.components
    mover = actor_for(session, world.alice, world.bob)
    await play_with_components(mover, board, "a1:NES")
    assert session.ply == 1


async def test_commands_outside_a_game_channel_say_where_to_go(env, world) -> None:
    result = await world.alice.slash(world.channel, "move", notation="a1:NES")
    assert result.ephemeral and "No game is running in this channel" in result.response.content


async def test_resign_asks_for_confirmation_then_the_opponent_wins(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    asked = await world.bob.slash(thread, "resign")
    assert asked.ephemeral and "Resign" in asked.response.content
    kept = await world.bob.click(asked.response.message, label="Keep playing")
    assert "Game on" in kept.response.content and not session.is_over
    asked = await world.bob.slash(thread, "resign")
    await world.bob.click(asked.response.message, label="Resign")
    final = latest_board(thread)
    assert "Bob resigned: Alice wins." in final.embeds[0].description
    assert control_labels(final) == ["Rematch"]
    assert session.result().winners == [session.record.seat_of(world.alice.id)]


async def test_a_spectator_cannot_resign(env, world) -> None:
    thread, _ = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    result = await world.carol.slash(thread, "resign")
    assert result.ephemeral and "not playing" in result.response.content


async def composer_left_open(env, world):
    """The mover opens a stack's composer, then the other player resigns: the mover and the
    composer's answer."""
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    other = world.bob if mover is world.alice else world.alice
    composer = await mover.select(latest_board(thread), ["a1"])
    asked = await other.slash(thread, "resign")
    await other.click(asked.response.message, label="Resign")
    return mover, composer


async def test_components_of_a_finished_game_explain_it_is_over(env, world) -> None:
    mover, composer = await composer_left_open(env, world)
    late = await mover.click(composer.response.message, label="North")
    assert late.ephemeral and "This game is over" in late.response.content
    assert "resigned" in late.response.content


async def test_a_step_with_a_single_direction_is_taken_and_undone_with_its_choice(
    env, world
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    await actor_for(session, world.alice, world.bob).slash(thread, "move", notation="a1:NES")
    mover = actor_for(session, world.alice, world.bob)
    composer = await mover.select(latest_board(thread), ["a2"])  # one neutral pebble: 2 steps
    south = await mover.click(composer.response.message, label="South")
    # From a1, coming from the north, only east is left: taken without a tap.
    assert "All 2 steps chosen: **Confirm** to play `a2:SE`" in south.response.content
    undone = await mover.click(south.response.message, label="Undo step")
    assert "Step 1 of 2" in undone.response.content  # back before South, the last choice
    again = await mover.click(undone.response.message, label="South")
    confirmed = await mover.click(again.response.message, label="Confirm")
    assert "Played `a2:SE`" in confirmed.response.content


async def test_a_whole_sowing_is_picked_from_one_menu_and_played_at_once(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    composer = await mover.select(latest_board(thread), ["a1"])
    menu = next(c for row in composer.response.message.components for c in row.children
                if isinstance(c, discord.SelectMenu))
    sowings = {o.value: o for o in menu.options}
    assert set(sowings) == {str(m) for m in session.state.legal_moves_from(
        parse_notation("a1:").cell)}
    assert sowings["a1:NES"].description == "a2 neutral · b2 neutral · b1 🔵"  # seat 0 moves
    played = await mover.select(composer.response.message, ["a1:NES"])
    assert "Played `a1:NES`" in played.response.content
    assert [m.move for m in await bot_of(env).db.moves(session.id)] == ["a1:NES"]


async def test_commands_in_a_finished_games_thread_say_it_is_over(env, world) -> None:
    thread, _session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    asked = await world.alice.slash(thread, "resign")
    await world.alice.click(asked.response.message, label="Resign")
    for command, options in (("move", {"notation": "a1:N"}), ("resign", {}), ("draw", {}),
                             ("abort", {})):
        await env.advance_time(0.001)
        late = await world.bob.slash(thread, command, **options)
        assert late.ephemeral and late.response.content == "This game is already over.", command
    elsewhere = await world.bob.slash(world.channel, "resign")
    assert "No game is running in this channel" in elsewhere.response.content


async def test_a_panel_still_closes_with_cancel_once_the_game_is_over(env, world) -> None:
    mover, composer = await composer_left_open(env, world)
    closed = await mover.click(composer.response.message, label="Cancel")
    panel = composer.response.message
    assert panel.content.startswith("Move cancelled"), said(closed)
    assert not panel.components, "nothing left on the panel to click"
