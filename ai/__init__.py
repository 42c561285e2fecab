"""Computer opponents: one search for every game, three levels, honest about hidden cards.

Pure like `engines/`: it imports only the engines and the standard library, and all its
randomness comes from the `rng` it is given, so a move is reproducible.

    import ai
    ai.LEVELS                                            # ("easy", "medium", "hard")
    move = ai.choose_move(state, "hard", rng=random.Random(7))
"""

from __future__ import annotations

import random
from typing import Any

from ai.base import AnyState, Level
from ai.game import GameAI
from ai.grabuge import GrabugeAI
from ai.granat import GranatAI
from ai.graps import GrapsAI
from ai.kraut_ruben import KrautRubenAI
from ai.qawale import QawaleAI

LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")
"""The levels, weakest first."""

GAME_AIS: dict[str, GameAI] = {
    knowledge.game_id: knowledge
    for knowledge in (
        QawaleAI(),
        GrapsAI(),
        KrautRubenAI(),
        GrabugeAI(),
        GranatAI(),
    )
}
"""Each game's knowledge for the search, by engine id: one line per game."""


def game_ai(game_id: str) -> GameAI:
    """The game's search knowledge."""
    return GAME_AIS[game_id]


def choose_move(state: AnyState, level: str, *, rng: random.Random) -> Any:
    """A legal move for `state.current_player` at `level`, from what that seat may see."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    return game_ai(state.game.id).choose_move(state, level, rng)


__all__ = ["LEVELS", "choose_move"]
