"""`/history`'s pages: a forged page of someone with no game here is refused, not shown."""

from __future__ import annotations

import pytest

from bot.errors import Refusal
from bot.games import GAME_UIS
from bot.painter import ThreadPainter
from bot.records import RecordsService


async def test_a_page_of_a_member_without_games_is_refused_but_the_command_answers(db) -> None:
    records = RecordsService(db, GAME_UIS, ThreadPainter())
    embed, view = await records.history(42, "Zoé", guild_id=1)  # the command: their name
    assert embed.description == "Zoé has no finished game on this server yet."
    assert view.children == []
    with pytest.raises(Refusal, match="no such member"):
        await records.history(42, None, guild_id=1, page=3)  # a click names no one
