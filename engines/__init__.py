"""Pure rule engines for the five games, behind one contract (see shared/rules/README.md)."""

from __future__ import annotations

from typing import Any

from engines.base import (
    CHANCE,
    N_,
    EndReason,
    Game,
    GameState,
    IllegalMove,
    Result,
    ResultDict,
    Why,
)
from engines.grabuge import GRABUGE
from engines.granat import GRANAT
from engines.graps import GRAPS
from engines.kraut_ruben import KRAUT_RUBEN
from engines.qawale import QAWALE

GAMES: dict[str, Game[GameState[Any, Any]]] = {
    game.id: game for game in (GRAPS, KRAUT_RUBEN, GRABUGE, QAWALE, GRANAT)
}
"""Every game with an engine, by id."""

__all__ = [
    "CHANCE",
    "GAMES",
    "N_",
    "EndReason",
    "Game",
    "GameState",
    "IllegalMove",
    "Result",
    "ResultDict",
    "Why",
]
