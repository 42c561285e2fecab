"""The games playable in Discord, by engine id; the others are listed as coming soon."""

from __future__ import annotations

from bot.games.base import GameUI
from bot.games.grabuge import GrabugeUI
from bot.games.granat import GranatUI
from bot.games.graps import GrapsUI
from bot.games.kraut_ruben import KrautRubenUI
from bot.games.qawale import QawaleUI

PLAYABLE: dict[str, GameUI] = {
    ui.game_id: ui for ui in (QawaleUI(), GrapsUI(), GranatUI(), GrabugeUI(), KrautRubenUI())
}

__all__ = ["PLAYABLE", "GameUI"]
