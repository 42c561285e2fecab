"""Taps per decision, counted as a player counts them: a button is one tap, a menu two (open
it, pick). Each game plays typical decisions through the bot's own components, and the count
is compared with the issue's targets; the count the old controls needed for the same
decisions is printed next to it (`pytest -s`)."""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence

import discord
import pytest

from engines import CHANCE
from engines.kraut_ruben import Phase
from engines.qawale import parse_notation
from tests.e2e.helpers import (
    TINY_PNG,
    actor_for,
    challenge_and_accept,
    composer_path,
    latest_board,
)
from tests.e2e.test_grabuge_game import _buttons
from tests.e2e.test_granat_game import options_of, select_holding
from tests.e2e.test_graps_game import place_with_components, plan, start_game
from tests.e2e.test_kraut_ruben_game import custom_ids, labels, select_values
from tests.e2e.test_kraut_ruben_game import start_game as start_kraut


class Taps:
    """An actor whose clicks and menu picks are counted (a button 1, a menu 2)."""

    def __init__(self) -> None:
        self.count = 0

    async def click(self, actor, message, **kwargs):
        self.count += 1
        return await actor.click(message, **kwargs)

    async def select(self, actor, message, values, **kwargs):
        self.count += 2
        return await actor.select(message, values, **kwargs)


def report(game: str, new: Sequence[int], old: Sequence[int]) -> None:
    """Print the counts for the report: median and range, now and with the old controls."""
    print(f"\n{game}: {len(new)} decisions, taps now median {statistics.median(new)} "
          f"({min(new)}–{max(new)}), old controls median {statistics.median(old)} "
          f"({min(old)}–{max(old)})")


@pytest.fixture(autouse=True)
def _tiny_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Taps are about controls: skip drawing the pictures (boards and previews alike)."""
    monkeypatch.setattr("bot.painter.render", lambda *args, **kwargs: TINY_PNG)


async def test_qawale_takes_at_most_four_taps_per_typical_decision(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    rng = random.Random(7)
    taps_now, taps_old = [], []
    while not session.is_over:
        actor = actor_for(session, world.alice, world.bob)
        move = str(rng.choice(session.state.legal_moves()))
        parsed = parse_notation(move)
        taps = Taps()
        composer = await taps.select(actor, latest_board(thread), [str(parsed.cell)])
        message = composer.response.message
        while True:
            if move in options_of(message):  # the whole sowing from the menu
                played = await taps.select(actor, message, [move])
                break
            path = composer_path(message)
            if path == move:
                played = await taps.click(actor, message, label="Confirm")
                break
            done = len(parse_notation(path).path)
            step = await taps.click(actor, message,
                                    label=parsed.path[done].word.capitalize())
            message = step.response.message
        assert f"Played `{move}`" in played.response.content
        taps_now.append(taps.count)
        taps_old.append(2 + len(parsed.path) + 1)  # stack menu, one tap a step, Confirm
    report("Qawale", taps_now, taps_old)
    assert statistics.median(taps_now) <= 4
    assert all(t <= 4 for t in taps_now[:6])  # the opening's short sowings: always 4


async def test_granat_takes_at_most_three_taps_per_decision(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob,
                                                 game="granat")
    rng = random.Random(5)
    taps_now, taps_old = [], []
    for _ in range(16):
        if session.is_over:
            break
        actor = actor_for(session, world.alice, world.bob)
        state = session.state
        legal = state.legal_moves()
        move = str(rng.choice(legal))
        board = latest_board(thread)
        taps = Taps()
        assert move in options_of(board)  # every move of a typical position is on the board
        composer = await taps.select(actor, board, [move], custom_id=select_holding(board, move))
        played = await taps.click(actor, composer.response.message, label="Confirm")
        assert f"Played `{move}`" in played.response.content
        taps_now.append(taps.count)
        start = next(m.start for m in legal if str(m) == move)
        # Old: the pawn menu, the pawn's move menu unless it had one move, Confirm.
        taps_old.append(2 + (2 if len(state.moves_of(start)) > 1 else 0) + 1)
    report("Granat", taps_now, taps_old)
    assert max(taps_now) <= 3


async def test_graps_takes_at_most_two_taps_per_decision(env, world) -> None:
    thread, session = await start_game(env, world, grape_faces=5)
    session.record.rng_seed = 0  # a game that crowds: rows of buttons are met too
    players = (world.alice, world.bob)
    taps_now, taps_old = [], []
    while not session.is_over and len(taps_now) < 40:
        state = session.state
        cells = len(state.legal_cells())
        taps_now.append(await place_with_components(actor_for(session, *players),
                                                    latest_board(thread), plan(state)))
        taps_old.append(2 if cells <= 25 else 3)  # a cell menu, or a row menu then a button
    report("Graps", taps_now, taps_old)
    assert max(taps_now) <= 2 and max(taps_old) == 3


async def kraut_step(actor, board: discord.Message, taps: Taps) -> None:
    """One action on a Kraut & Rüben board, the way a player does it (never a take)."""
    found = labels(board)
    if "Draw a tile" in found:
        await taps.click(actor, board, label="Draw a tile")
    elif any(label.startswith("Where does") for label in found):
        await taps.select(actor, board, [select_values(board)[-1]])
    elif custom_ids(board, "place"):
        await taps.click(actor, board, custom_id=custom_ids(board, "place")[-1])
    elif custom_ids(board, "garden"):
        panel = await taps.click(actor, board, custom_id=custom_ids(board, "garden")[0])
        await taps.select(actor, panel.response.message,
                          [select_values(panel.response.message)[0]])
    else:
        await taps.click(actor, board, label="End turn")


async def test_kraut_and_ruben_takes_at_most_three_taps_per_turn(env, world) -> None:
    thread, session = await start_kraut(env, world.channel, world.alice, world.bob)
    players = (world.alice, world.bob)
    taps_now, taps_old = [], []
    for _ in range(30):
        if session.is_over:
            break
        actor = actor_for(session, *players)
        taps, old = Taps(), 0
        while not session.is_over and \
                session.record.user_at(session.state.current_player) == actor.id:
            state = session.state
            if state.phase is Phase.PLACE:  # old: one bed menu, or garden then bed menus
                old += 2 if len(state.placements()) <= 25 else 4
            else:  # Draw (beside the mole) or End turn: one button, then and now
                old += 1
            await kraut_step(actor, latest_board(thread), taps)
        taps_now.append(taps.count)
        taps_old.append(old)
    report("Kraut & Rüben", taps_now, taps_old)
    assert statistics.median(taps_now) <= 3 and max(taps_now) <= 4


async def test_le_grabuge_asks_only_real_choices(env, world) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob,
                                                 game="grabuge")
    asked = merged = 0
    while not session.is_over and asked < 60:
        state = session.state
        assert state.current_player != CHANCE
        buttons = _buttons(latest_board(thread))
        decision = state.decision()
        options = len(state.playable_columns()) if decision == "reserve" else 4
        assert 2 <= len(buttons) <= options
        merged += options - len(buttons)
        actor = actor_for(session, world.alice, world.bob)
        await actor.click(latest_board(thread), label=buttons[-1].label)
        asked += 1
    print(f"\nLe Grabuge: {asked} questions, each one tap; {merged} equivalent buttons merged")
    assert merged > 0
