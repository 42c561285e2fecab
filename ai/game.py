"""One game's knowledge for the search: the defaults fit a game of perfect information."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from ai.base import AnyState, Budget
from ai.mcts import search


class GameAI:
    """One game's knowledge for the search; the defaults fit a game of perfect information.

    Subclasses override `sample` when the game hides information, and may give better
    playout moves and evaluations than random play.
    """

    game_id: ClassVar[str] = ""
    budgets: ClassVar[dict[str, Budget]] = {
        "easy": Budget(iterations=24, rollout_depth=20),
        "medium": Budget(iterations=200),
        "hard": Budget(iterations=1000),
    }

    def choose_move(self, state: AnyState, level: str, rng: random.Random) -> Any:
        """The move at `level`: the shared search with this game's budget by default.

        A game may override it (its own fast representation, an opening book...), keeping
        the contract: legal, deterministic for (state, level, rng), honest.
        """
        return search(state, self, self.budgets[level], rng)

    def sample(self, state: AnyState, seat: int, rng: random.Random) -> AnyState:
        """A full state the seat cannot tell from `state`: hidden information resampled.

        Perfect information: a copy. A game that hides something must build the copy from
        what `seat` may see only (its view), never read the hidden parts of `state`.
        """
        return state.clone()

    def playout_move(self, state: AnyState, rng: random.Random) -> Any:
        """The move a playout makes for the player to move (uniformly random by default)."""
        return rng.choice(state.legal_moves())

    def evaluate(self, state: AnyState) -> list[float]:
        """Each seat's expected score in [0, 1] for a position a playout stopped at."""
        return [0.5] * state.num_players
