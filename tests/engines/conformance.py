"""Contract checks every engine must pass; `test_conformance.py` runs them over GAMES."""

from __future__ import annotations

import json
import math
import random
from typing import Any

from engines import CHANCE, Game, GameState, IllegalMove

MAX_PLIES = 20_000
"""A playout longer than this is taken for a game that never ends."""

GARBAGE_MOVES = ("", "   ", "??", "zz99", "pass pass", "a0", "roll:purple", "e8>>>", "1:2:3:4")


def pick(state: GameState, rng: random.Random) -> Any:
    """A move for the current decision: a chance outcome drawn by its probability."""
    if state.current_player == CHANCE:
        outcomes = state.chance_outcomes()
        return rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
    return rng.choice(state.legal_moves())


def check_state(game: Game, state: GameState, rng: random.Random) -> None:
    """Every per-position promise of the contract, on one state."""
    # views and dumps are JSON-safe
    for seat in [None, *range(state.num_players)]:
        json.dumps(state.view(seat))
    dump = state.dump()
    assert json.loads(json.dumps(dump)) == dump, "dump() must survive JSON unchanged"
    # load round trip
    loaded = game.load(json.loads(json.dumps(dump)))
    assert loaded.dump() == dump, "load(dump()) must give the same dump()"
    assert loaded.current_player == state.current_player
    assert [str(m) for m in loaded.legal_moves()] == [str(m) for m in state.legal_moves()]
    if hasattr(state, "position"):
        assert game.from_position(state.position(), state.options).position() == state.position()
    if state.is_over():
        result = state.result()
        assert result is not None and state.legal_moves() == []
        assert result.winners and all(0 <= w < state.num_players for w in result.winners)
        assert isinstance(result.reason, str) and result.reason
        assert result.scores is None or len(result.scores) == state.num_players
        with_raised(state, "a move after the end", lambda s: s.apply("a1"))
        return
    assert state.result() is None
    moves = state.legal_moves()
    assert moves, "legal_moves() must never be empty before the end"
    if state.current_player == CHANCE:
        outcomes = state.chance_outcomes()
        assert math.isclose(sum(p for _, p in outcomes), 1.0), "chance probabilities sum to 1"
        assert all(p > 0 for _, p in outcomes)
        assert sorted(map(str, (o for o, _ in outcomes))) == sorted(map(str, moves))
    else:
        assert 0 <= state.current_player < state.num_players
    # illegal input changes nothing
    for garbage in GARBAGE_MOVES:
        if garbage not in {str(m) for m in moves}:
            with_raised(state, f"garbage {garbage!r}", lambda s, g=garbage: s.apply(g))
    # notation round trip and clone independence
    move = rng.choice(moves)
    by_text, by_object = state.clone(), state.clone()
    by_text.apply(str(move))
    by_object.apply(move)
    assert by_text.dump() == by_object.dump(), f"apply({str(move)!r}) must equal apply(move)"
    assert state.dump() == dump, "changing a clone must not change the original"


def with_raised(state: GameState, what: str, action: Any) -> None:
    """`action(state)` must raise IllegalMove (a ValueError) and leave dump() unchanged."""
    before = state.dump()
    try:
        action(state)
    except IllegalMove as error:
        assert isinstance(error, ValueError)
        assert str(error), f"{what}: IllegalMove needs a reason a player can read"
    else:
        raise AssertionError(f"{what} was accepted")
    assert state.dump() == before, f"{what} changed the state"


def playout(game: Game, num_players: int, seed: int, check_every: int = 1) -> GameState:
    """Play random moves to the end, checking the contract along the way."""
    rng = random.Random(seed)
    state = game.new_state(num_players)
    for ply in range(MAX_PLIES):
        if ply % check_every == 0 or state.is_over():
            check_state(game, state, rng)
        if state.is_over():
            return state
        state.apply(pick(state, rng))
    raise AssertionError(f"{game.id} did not end within {MAX_PLIES} plies")
