"""The Qawale AI: legal and reproducible moves, a fast game that agrees with the engine,
and the tactics that decide games (take a win, never hand one over)."""

from __future__ import annotations

import random

import pytest

import ai
from ai.qawale_fast import DRAW, ONGOING, FastQawale, Move, from_engine, to_engine
from engines import GAMES
from engines import qawale as qawale_rules
from engines.qawale import QAWALE, QawaleMove, QawaleState


def new_game(**options: bool) -> QawaleState:
    state = GAMES["qawale"].new_state(2, options or None)
    assert isinstance(state, QawaleState)
    return state


def random_position(seed: int, plies: int) -> QawaleState:
    """The position after up to `plies` random moves (earlier if the game ends first)."""
    rng = random.Random(seed)
    state = new_game()
    fast = FastQawale.from_state(state)
    for _ in range(plies):
        after = [move for move in fast.moves() if _after(fast, move).outcome == ONGOING]
        if not after:
            break
        move = rng.choice(after)
        fast.play(move)
        state.apply(to_engine(move))
    return state


def _after(fast: FastQawale, move: Move) -> FastQawale:
    trial = fast.copy()
    trial.play(move)
    return trial


def wins_at_once(state: QawaleState, move: QawaleMove) -> bool:
    trial = state.clone()
    mover = trial.current_player
    trial.apply(move)
    result = trial.result()
    return result is not None and result.winners == [mover]


def hands_over_a_win(state: QawaleState, move: QawaleMove) -> bool:
    """True when the opponent can win at once after `move` (checked on the fast game)."""
    trial = _after(FastQawale.from_state(state), from_engine(move))
    return trial.outcome == ONGOING and trial.winning_move() is not None


def expected_outcome(state: QawaleState) -> int:
    result = state.result()
    if result is None:
        return ONGOING
    return result.winners[0] if len(result.winners) == 1 else DRAW


def agrees(fast: FastQawale, state: QawaleState) -> None:
    """The fast game and the engine show the same position."""
    twin = FastQawale.from_state(state)
    assert fast.key() == twin.key()
    assert fast.masks == twin.masks
    assert fast.stocks == state.stocks
    assert fast.outcome == expected_outcome(state)
    if not state.is_over():
        assert fast.to_move == state.current_player


# -- the fast representation -----------------------------------------------------------


@pytest.mark.parametrize("midway", [False, True], ids=["lines at the end", "lines midway"])
@pytest.mark.parametrize("double_line_wins", [True, False])
def test_fast_game_agrees_with_engine_on_random_playouts(
    double_line_wins: bool, midway: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(qawale_rules, "CHECK_LINES_DURING_SOWING", midway)
    rng = random.Random(11)
    for _ in range(15):
        state = new_game(mover_wins_double_line=double_line_wins)
        fast = FastQawale.from_state(state)
        while not state.is_over():
            moves = fast.moves()
            assert [str(to_engine(m)) for m in moves] == [str(m) for m in state.legal_moves()]
            win = fast.winning_move()
            # Half the time the winning move, so finished games are checked as well.
            move = win if win is not None and rng.random() < 0.5 else rng.choice(moves)
            state.apply(to_engine(move))
            fast.play(move)
            agrees(fast, state)


@pytest.mark.parametrize("midway", [False, True], ids=["lines at the end", "lines midway"])
def test_winning_move_is_found_exactly_when_one_exists(
    midway: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(qawale_rules, "CHECK_LINES_DURING_SOWING", midway)
    rng = random.Random(5)
    found = 0
    for seed in range(40):
        fast = FastQawale.from_state(random_position(seed, rng.randrange(4, 15)))
        winners = [move for move in fast.moves() if _after(fast, move).outcome == fast.to_move]
        win = fast.winning_move()
        assert (win is None) == (not winners)
        found += win is not None
        if win is not None:
            assert win in winners
    assert found >= 5, "the sample should hold positions with a win"


def test_with_lines_looked_for_midway_a_line_shown_halfway_wins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(qawale_rules, "CHECK_LINES_DURING_SOWING", True)
    # Row 1 shows seat 0's line after the first pebble of d2:SWN; the second covers it.
    state = QAWALE.from_position("111nnnnnnnn,-,-,-/-,-,-,-/-,-,-,01/0,0,0,- 0 4 4")
    assert isinstance(state, QawaleState)
    fast = FastQawale.from_state(state)
    move = from_engine(state.parse_move("d2:SWN"))
    assert fast.winning_move() is not None
    fast.play(move)
    assert fast.outcome == 0


def test_double_line_is_a_draw_when_the_option_says_so() -> None:
    # Seat 0 sows b2 east twice: seat 1's pebble completes column c, seat 0's column d.
    text = "nn,-,1,nn0/-,-,1,0/-,1,-,-/nn,-,1,nn0 0 5 4"
    for wins, outcome in ((True, 0), (False, DRAW)):
        state = QAWALE.from_position(text, {"mover_wins_double_line": wins})
        assert isinstance(state, QawaleState)
        move = state.parse_move("b2:EE")
        fast = FastQawale.from_state(state)
        fast.play(from_engine(move))
        state.apply(move)
        assert fast.outcome == outcome == expected_outcome(state)


def test_engine_moves_round_trip_through_fast_moves() -> None:
    state = random_position(3, 9)
    for move in state.legal_moves():
        assert to_engine(from_engine(move)) == move


# -- the AI ------------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_every_level_returns_a_legal_move_on_random_positions(level: str) -> None:
    for seed in range(12):
        state = random_position(seed, seed)
        move = ai.choose_move(state, level, rng=random.Random(seed))
        assert move in state.legal_moves()


def test_hard_returns_a_legal_move_on_random_positions() -> None:
    for seed in (1, 8):
        state = random_position(seed, 4 + seed)
        move = ai.choose_move(state, "hard", rng=random.Random(seed))
        assert move in state.legal_moves()


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_the_same_seed_gives_the_same_move(level: str) -> None:
    state = random_position(4, 7)
    moves = {str(ai.choose_move(state, level, rng=random.Random(99))) for _ in range(3)}
    assert len(moves) == 1


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_level_takes_an_immediate_win(level: str) -> None:
    for seed in range(60):
        state = random_position(seed, 12)
        if FastQawale.from_state(state).winning_move() is not None:
            move = ai.choose_move(state, level, rng=random.Random(seed))
            assert wins_at_once(state, move)
            return
    pytest.fail("no position with an immediate win in the sample")


def test_hard_never_hands_over_a_win_when_a_safe_move_exists() -> None:
    checked = 0
    for seed in range(100):
        state = random_position(seed, 9)
        if state.is_over() or FastQawale.from_state(state).winning_move() is not None:
            continue
        moves = state.legal_moves()
        if len(moves) > 150:
            continue  # keep the test fast
        unsafe = [hands_over_a_win(state, move) for move in moves]
        if any(unsafe) and not all(unsafe):
            move = ai.choose_move(state, "hard", rng=random.Random(seed))
            assert not hands_over_a_win(state, move)
            checked += 1
            if checked == 2:
                return
    pytest.fail("too few positions with a threat in the sample")


def test_playout_moves_are_legal_even_from_a_tall_stack() -> None:
    state = QAWALE.from_position("-,-,-,-/-,-,1,-/-,1,-,-/nnnnnnnn00,-,-,- 0 6 6")
    assert isinstance(state, QawaleState)
    fast = FastQawale.from_state(state)
    legal = set(fast.moves())
    rng = random.Random(2)
    for _ in range(50):
        move = fast.random_move(rng)
        assert move in legal
        assert state.is_legal(to_engine(move))
