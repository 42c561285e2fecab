"""Granat: what the search knows of the game."""

from __future__ import annotations

from ai.game import GameAI


class GranatAI(GameAI):
    """Granat with the default search knowledge (to be tuned)."""

    game_id = "granat"
