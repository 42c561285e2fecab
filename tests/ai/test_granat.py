"""The Granat AI: legal and reproducible moves, a fast board that agrees with the engine, and
a hard level that sees obvious material."""

from __future__ import annotations

import random

import pytest

import ai
from ai import granat_fast as fast
from engines.granat import GRANAT, GranatState, parse_cell


def at(text: str) -> GranatState:
    """A state from a position string."""
    state = GRANAT.from_position(text)
    assert isinstance(state, GranatState)
    return state


def random_positions(count: int, seed: int) -> list[GranatState]:
    """Running positions from random games, a few moves apart, captures due among them."""
    rng = random.Random(seed)
    positions: list[GranatState] = []
    while len(positions) < count:
        state = GRANAT.new_state(2)
        while not state.is_over() and len(positions) < count:
            if rng.random() < 0.15 or state.capture_due():
                positions.append(state.clone())
            state.apply(rng.choice(state.legal_moves()))
    return positions


CAPTURE_DUE = [
    "0 R:c3,a1* B:d4,a13",
    "0 R:c3,g3 B:d4,h4,h6,a13",
    "0 R:a1* B:d4,d6,a13",
    "1 R:c3,e5,a1* B:d6,f6,a15*",
]


@pytest.mark.parametrize(("level", "count"), [("easy", 30), ("medium", 12), ("hard", 1)])
def test_every_level_returns_a_legal_move_on_random_positions(level: str, count: int) -> None:
    positions = random_positions(count, seed=5)
    assert level == "hard" or any(state.capture_due() for state in positions)
    for number, state in enumerate(positions):
        move = ai.choose_move(state, level, rng=random.Random(number))
        assert move in state.legal_moves()


@pytest.mark.parametrize("level", ["easy", "medium"])
@pytest.mark.parametrize("position", CAPTURE_DUE)
def test_every_level_captures_when_a_capture_is_mandatory(level: str, position: str) -> None:
    state = at(position)
    assert state.capture_due()
    move = ai.choose_move(state, level, rng=random.Random(1))
    assert move in state.legal_moves() and "x" in str(move)


@pytest.mark.parametrize("level", ai.LEVELS)
def test_same_seed_gives_the_same_move(level: str) -> None:
    for state in random_positions(1 if level == "hard" else 3, seed=9):
        first = ai.choose_move(state, level, rng=random.Random(42))
        again = ai.choose_move(state.clone(), level, rng=random.Random(42))
        assert first == again


def test_fast_board_agrees_with_the_engine_over_random_playouts() -> None:
    rng = random.Random(2024)
    for _ in range(8):
        state = GRANAT.new_state(2)
        while True:
            board, seat, quiet = fast.from_state(state)
            moves = fast.legal_moves(board, seat)
            expected = None
            if state.is_over():
                result = state.result()
                assert result is not None
                expected = 0.5 if len(result.winners) > 1 else float(seat in result.winners)
            assert fast.outcome(board, seat, quiet, moves) == expected
            if state.is_over():
                break
            engine_moves = {fast.key_of(move): move for move in state.legal_moves()}
            keys = [(kind, path) for kind, path, _ in moves]
            assert len(keys) == len(set(keys)) and set(keys) == set(engine_moves)
            move = rng.choice(moves)
            after, after_quiet = fast.play(board, seat, quiet, move)
            state.apply(engine_moves[(move[0], move[1])])
            assert fast.from_state(state) == (after, 1 - seat, after_quiet)


def test_fast_board_reads_the_garnet_cell_duty_and_protection() -> None:
    # Red's garnet pawn on e8 must leave; Blue's on e8 protects Blue from Red's captures.
    leaving = at("0 R:e8*,c3 B:e9,a15")
    board, seat, _ = fast.from_state(leaving)
    assert {fast.key_of(m) for m in leaving.legal_moves()} == {
        (kind, path) for kind, path, _ in fast.legal_moves(board, seat)}
    protected = at("0 R:e7,c3 B:e8*,a15")
    board, seat, _ = fast.from_state(protected)
    assert all(kind != fast.CAPTURE for kind, _, _ in fast.legal_moves(board, seat))
    board, seat, _ = fast.from_state(at("0 R:e7,c3 B:e8,a15"))  # a neutral: no protection
    e7, e9 = fast.INDEX[parse_cell("e7")], fast.INDEX[parse_cell("e9")]
    assert [path for _, path, _ in fast.legal_moves(board, seat)] == [(e7, e9)]


def test_hard_takes_the_capture_that_wins_more_pawns() -> None:
    state = at("0 R:c3,g3,a1 B:d4,h4,h6,a15,c15")
    assert str(ai.choose_move(state, "hard", rng=random.Random(0))) == "g3xi5xg7"


def test_hard_does_not_leave_a_pawn_to_a_garnet_capture() -> None:
    # c1-d2 would let the garnet pawn on h6 take d2 along g5-f4-e3, landing on c1.
    state = at("0 R:c1,e1,g1 B:d14,h6*,a15,c15")
    assert str(ai.choose_move(state, "hard", rng=random.Random(0))) != "c1-d2"


def test_hard_prefers_taking_a_garnet_pawn() -> None:
    # c3 may take the garnet pawn on b4 or the neutral pawn on d4.
    state = at("0 R:c3,e1* B:d4,b4*,a15,c15")
    assert str(ai.choose_move(state, "hard", rng=random.Random(0))) == "c3xa5"
