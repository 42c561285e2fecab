"""The games playable in Discord: one line per game, in the order `/games` lists them."""

from __future__ import annotations

from typing import Any

from bot.games.base import GameUI
from bot.games.grabuge import GrabugeUI
from bot.games.granat import GranatUI
from bot.games.graps import GrapsUI
from bot.games.kraut_ruben import KrautRubenUI
from bot.games.qawale import QawaleUI

GAME_UIS: dict[str, GameUI[Any]] = {
    ui.game_id: ui
    for ui in (
        QawaleUI(),
        GrapsUI(),
        KrautRubenUI(),
        GrabugeUI(),
        GranatUI(),
    )
}
"""Each playable game's controls, by engine id."""

__all__ = ["GAME_UIS", "GameUI"]
