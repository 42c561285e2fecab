"""The Graps AI: legal, reproducible, never rolling the die; its fast board true to the engine."""

from __future__ import annotations

import random

import pytest

import ai
from ai.base import is_chance, sample_chance
from ai.graps import race_cost
from ai.graps_board import Board, phase_face
from engines.graps import GRAPS, GrapsState, Place
from tests.engines.test_graps import position


def random_decisions(games: int, seed: int) -> list[GrapsState]:
    """Positions where a player decides, from random games (the set-up included)."""
    rng = random.Random(seed)
    found: list[GrapsState] = []
    for _ in range(games):
        state = GRAPS.new_state(2)
        while not state.is_over():
            if is_chance(state):
                state.apply(sample_chance(state, rng))
                continue
            found.append(state.clone())
            state.apply(rng.choice(state.legal_moves()))
    return found


def index(move: Place) -> int:
    """The flat index of a placement's cell."""
    return move.cell.row * 15 + move.cell.col


@pytest.mark.parametrize("level", ai.LEVELS)
def test_every_level_returns_a_legal_move_on_random_positions(level: str) -> None:
    positions = random_decisions(2, seed=11)
    assert any(state.phase.value == "setup" for state in positions)
    for number, state in enumerate(positions[::20] if level == "hard" else positions[::3]):
        move = ai.choose_move(state, level, rng=random.Random(number))
        assert move in state.legal_moves()


@pytest.mark.parametrize("level", ai.LEVELS)
def test_the_same_seed_gives_the_same_move(level: str) -> None:
    for state in random_decisions(1, seed=5)[10:60:25]:
        first = ai.choose_move(state, level, rng=random.Random(42))
        again = ai.choose_move(state.clone(), level, rng=random.Random(42))
        assert first == again


def test_a_die_roll_is_never_the_ais_choice() -> None:
    state = GRAPS.new_state(2)
    state.apply(state.legal_moves()[7])
    state.apply(state.legal_moves()[7])
    assert is_chance(state)
    for level in ai.LEVELS:
        with pytest.raises(ValueError, match="die roll"):
            ai.choose_move(state, level, rng=random.Random(0))


def test_hard_reaches_the_opponents_land_when_it_can_in_one_move() -> None:
    dark_vine = " ".join(f"h{row}" for row in range(2, 15))
    state = GrapsState.game.from_position(position("X h1", f"x {dark_vine}", "O c15",
                                                   "o c14 c13 c12 c11 c10"))
    assert isinstance(state, GrapsState)
    move = ai.choose_move(state, "hard", rng=random.Random(1))
    assert str(move) == "h15"


def test_hard_spends_its_grape_on_the_enemy_vine_about_to_win() -> None:
    # Light's blank on c1 would win next turn: a grape near its tip (b1, d1, d3...) stops it.
    light_vine = " ".join(f"c{row}" for row in range(2, 15))
    state = GrapsState.game.from_position(position("X h1", "x h2 h3", "x g3 f3 e3",
                                                   "O c15", f"o {light_vine}", phase="grape"))
    move = ai.choose_move(state, "hard", rng=random.Random(1))
    board = Board.from_state(state)
    board.place(0, index(move), grape=True)
    assert not [cell for cell in board.blank_cells(1) if cell < 15]


def test_the_fast_board_plays_exactly_like_the_engine() -> None:
    rng = random.Random(3)
    for _ in range(4):
        state = GRAPS.new_state(2, {"return_pruned": rng.random() < 0.5})
        while not state.is_over():
            if is_chance(state):
                state.apply(sample_chance(state, rng))
                continue
            board, seat, grape = Board.from_state(state), state.current_player, phase_face(state)
            assert seat is not None
            legal = [index(m) for m in state.legal_moves() if isinstance(m, Place)]
            if state.phase.value in ("blank", "grape"):
                assert legal == (board.grape_cells(seat) if grape else board.blank_cells(seat))
            move = rng.choice(state.legal_moves())
            state.apply(move)
            if isinstance(move, Place) and grape is not None:
                board.place(seat, index(move), grape)
                if state.phase.value != "setup":
                    board.end_turn(seat)
                assert board.cells == Board.from_state(state).cells
                assert board.stocks == state.stocks
                result = state.result()
                if result is not None:
                    expected = result.winners[0] if len(result.winners) == 1 else -1
                    assert board.winner == expected


def test_the_race_cost_counts_the_blanks_a_straight_vine_still_needs() -> None:
    state = GrapsState.game.from_position(position("X h1", "x h2 h3 h4", "O a15"))
    assert isinstance(state, GrapsState)
    board = Board.from_state(state)
    assert race_cost(board, 0) == 2 * 11  # rows 5 to 15
