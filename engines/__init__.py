"""Pure rule engines for the five games, behind one contract (see shared/rules/README.md)."""

from __future__ import annotations

from engines.base import CHANCE, Game, GameState, IllegalMove, Result
from engines.qawale import QAWALE

GAMES: dict[str, Game] = {game.id: game for game in (QAWALE,)}
"""Every game with an engine, by id."""

__all__ = ["CHANCE", "GAMES", "Game", "GameState", "IllegalMove", "Result"]
