"""The vocabulary of the AI: levels, search budgets, what the search asks of a game, and the
helpers every part uses (chance draws, final scores)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from engines import CHANCE, GameState

Level = Literal["easy", "medium", "hard"]

AnyState = GameState[Any, Any]


@dataclass(frozen=True)
class Budget:
    """How much one level searches, per decision (iterations, so play is deterministic)."""

    iterations: int
    rollout_depth: int | None = None
    """Moves a playout runs before `GameAI.evaluate` scores it (None: to the end)."""
    exploration: float = 0.7


class Knowledge(Protocol):
    """What the search asks of a game (`ai.game.GameAI` gives the defaults)."""

    def sample(self, state: AnyState, seat: int, rng: random.Random) -> AnyState:
        """A full state `seat` cannot tell from `state`, hidden information resampled."""
        ...

    def playout_move(self, state: AnyState, rng: random.Random) -> Any:
        """The move a playout makes for the player to move."""
        ...

    def evaluate(self, state: AnyState) -> list[float]:
        """Each seat's expected score in [0, 1] where a playout stops early."""
        ...


def sample_chance(state: AnyState, rng: random.Random) -> Any:
    """A chance outcome drawn with the engine's probabilities."""
    outcomes = state.chance_outcomes()
    return rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]


def rewards(state: AnyState) -> list[float]:
    """Each seat's score for a finished game: winners share 1, everyone else 0."""
    result = state.result()
    seats = state.num_players
    if result is None or not result.winners:
        return [1 / seats] * seats
    share = 1 / len(result.winners)
    return [share if seat in result.winners else 0.0 for seat in range(seats)]


def is_chance(state: AnyState) -> bool:
    """True when a random event must be resolved."""
    return state.current_player == CHANCE
