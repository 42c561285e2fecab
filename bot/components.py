"""Buttons and selects that survive restarts: every one is keyed by ids in its custom_id.

Nothing lives in memory between clicks: a click names the game (or challenge), the board
version (ply) it was drawn for, an action and its argument; the handler rebuilds what it
needs from storage. This is discord.py's DynamicItem pattern (examples/views/dynamic_counter).
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import Refusal
from engines import IllegalMove

if TYPE_CHECKING:
    from bot.client import Ludotheque

log = logging.getLogger(__name__)

_GAME_TEMPLATE = r"lg:(?P<game>\d+):(?P<ply>\d+|x):(?P<action>[a-z_]+):(?P<arg>.*)"
_SELECT_TEMPLATE = r"ls:(?P<game>\d+):(?P<ply>\d+|x):(?P<action>[a-z_]+)"
_CHALLENGE_TEMPLATE = r"lc:(?P<challenge>\d+):(?P<answer>accept|decline)"


def game_custom_id(prefix: str, game_id: int, ply: int | None, action: str, arg: str = "") -> str:
    """`lg:12:5:step:b2:NN`: game 12, board at ply 5 (`x`: any ply), action, argument."""
    tail = f":{arg}" if prefix == "lg" else ""
    custom_id = f"{prefix}:{game_id}:{'x' if ply is None else ply}:{action}{tail}"
    if len(custom_id) > 100:  # Discord's limit
        raise ValueError(f"custom_id too long: {custom_id}")
    return custom_id


async def tell(interaction: discord.Interaction, text: str) -> None:
    """Answer privately, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def run_guarded(interaction: discord.Interaction, action: Any) -> None:
    """Run a handler; a Refusal or an illegal move becomes a private message."""
    try:
        await action
    except (Refusal, IllegalMove) as error:
        await tell(interaction, str(error))


async def dispatch_game_action(
    interaction: discord.Interaction, game_id: int, ply: int | None, action: str, arg: str,
    values: list[str],
) -> None:
    """Route a game component to its game's controls, after the checks every game shares."""
    bot: Ludotheque = interaction.client  # type: ignore[assignment]
    session = await bot.sessions.get(game_id)
    if session is None:
        await tell(interaction, "This game no longer exists.")
        return
    if session.is_over:
        result = session.result()
        ending = f" {session.ui.result_text(session, result)}" if result else ""
        await tell(interaction, f"This game is over.{ending}")
        return
    if ply is not None and ply != session.ply:
        await tell(interaction, session.stale_text())
        return
    from bot.games.common import handle_common

    if await handle_common(interaction, session, action, arg):
        return
    await run_guarded(interaction, session.ui.handle(interaction, session, action, arg, values))


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=_GAME_TEMPLATE):
    """A button of a game: on a board, or in a player's private move composer."""

    def __init__(self, game_id: int, ply: int | None, action: str, arg: str = "", **button: Any):
        super().__init__(discord.ui.Button(
            custom_id=game_custom_id("lg", game_id, ply, action, arg), **button))
        self.game_id, self.ply, self.action, self.arg = game_id, ply, action, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> GameButton:
        ply = None if match["ply"] == "x" else int(match["ply"])
        return cls(int(match["game"]), ply, match["action"], match["arg"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch_game_action(interaction, self.game_id, self.ply, self.action, self.arg, [])


class GameSelect(discord.ui.DynamicItem[discord.ui.Select], template=_SELECT_TEMPLATE):
    """A select menu of a game (its options are the choices of one decision)."""

    def __init__(self, game_id: int, ply: int | None, action: str, **select: Any):
        super().__init__(discord.ui.Select(
            custom_id=game_custom_id("ls", game_id, ply, action), **select))
        self.game_id, self.ply, self.action = game_id, ply, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> GameSelect:
        ply = None if match["ply"] == "x" else int(match["ply"])
        return cls(int(match["game"]), ply, match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
        await dispatch_game_action(interaction, self.game_id, self.ply, self.action, "", values)


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button], template=_CHALLENGE_TEMPLATE):
    """Accept or Decline on a challenge message."""

    def __init__(self, challenge_id: int, answer: str, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"lc:{challenge_id}:{answer}", **button))
        self.challenge_id, self.answer = challenge_id, answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ChallengeButton:
        return cls(int(match["challenge"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Ludotheque = interaction.client  # type: ignore[assignment]
        await run_guarded(interaction, bot.challenges.answer(interaction, self.challenge_id,
                                                              self.answer))
