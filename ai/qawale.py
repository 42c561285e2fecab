"""Qawale: what the search knows of the game."""

from __future__ import annotations

from ai.game import GameAI


class QawaleAI(GameAI):
    """Qawale with the default search knowledge (to be tuned)."""

    game_id = "qawale"
