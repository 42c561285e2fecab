"""Kraut & Rüben: what the search knows of the game."""

from __future__ import annotations

from ai.game import GameAI


class KrautRubenAI(GameAI):
    """Kraut & Rüben with the default search knowledge (to be tuned)."""

    game_id = "kraut_ruben"
