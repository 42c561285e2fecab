"""The steps a game takes by itself: chance outcomes drawn from the game's seed, forced moves
and moves whose choice cannot matter, played until someone has a real choice."""

from __future__ import annotations

import random
from typing import Any

from bot.games.base import GameUI
from engines import CHANCE, GameState
from storage import GameRecord, MoveKind, NewMove

MAX_AUTOMATIC_STEPS = 10_000
"""Chance outcomes and forced moves applied in a row before giving up (a safety net)."""

AnyState = GameState[Any, Any]


def chance_rng(seed: int, ply: int) -> random.Random:
    """The RNG for the random event at `ply`: one per ply, so a replay needs only the seed."""
    return random.Random(f"{seed}:{ply}")


def sample_outcome(state: AnyState, rng: random.Random) -> Any:
    """Draw a chance outcome with its engine-given probability."""
    outcomes = state.chance_outcomes()
    return rng.choices([o for o, _p in outcomes], weights=[p for _o, p in outcomes])[0]


def automatic_steps(work: AnyState, record: GameRecord, ply: int,
                    ui: GameUI[Any] | None = None) -> list[NewMove]:
    """Play chance outcomes (drawn from the game's seed), forced moves and moves whose choice
    cannot matter (`GameUI.obvious_move`) until a real choice.

    The outcome at each ply comes from `chance_rng(seed, ply)`, so the same seed and the same
    player moves always give the same game: a replay needs only the log, or the seed.
    """
    moves: list[NewMove] = []
    for _step in range(MAX_AUTOMATIC_STEPS):
        if work.is_over():
            return moves
        player = work.current_player
        if player == CHANCE:
            outcome = sample_outcome(work, chance_rng(record.rng_seed, ply + len(moves)))
            work.apply(outcome)
            moves.append(NewMove(None, None, MoveKind.CHANCE, str(outcome)))
            continue
        legal = work.legal_moves()
        if player is None:
            return moves
        obvious = str(legal[0]) if len(legal) == 1 else (
            ui.obvious_move(work) if ui is not None else None)
        if obvious is None:
            return moves
        applied = work.apply(obvious)
        moves.append(NewMove(player, record.user_at(player), MoveKind.FORCED, str(applied)))
    raise RuntimeError(f"game {record.id}: more than {MAX_AUTOMATIC_STEPS} automatic steps")
