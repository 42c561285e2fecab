"""The board message: picture, caption, whose turn, and the live components."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from typing import Any

import discord

from bot.ai_players import is_ai
from bot.components import GameButton
from bot.games.base import GameUI, Table, describe_options
from bot.publisher import Post
from renderers import render
from storage import MoveKind, MoveRecord, NewMove

BOARD_FILENAME = "board.png"
EMBED_DESCRIPTION_LIMIT = 4096
"""Discord's limit on an embed's description."""


def last_shown_move(moves: Sequence[NewMove | MoveRecord]) -> str | None:
    """The move to highlight: the last one a player made (or the bot made for them)."""
    for move in reversed(moves):
        if move.kind in (MoveKind.PLAYER, MoveKind.FORCED):
            return move.move
    return None


async def draw_board(table: Table[Any], highlight: str | None) -> bytes:
    """The board as PNG bytes, drawn from the spectator's view off the event loop."""
    return await asyncio.to_thread(render, table.state.view(None), highlight, names=table.names)


def mention(table: Table[Any], seat: int) -> str:
    """A mention of the member at `seat` (an AI seat is named: it has no account)."""
    user_id = table.record.user_at(seat)
    return table.names[seat] if is_ai(user_id) else f"<@{user_id}>"


def board_post(
    table: Table[Any], ui: GameUI[Any], moves: Sequence[NewMove], png: bytes
) -> Post:
    """The board after `moves`: the turn's log, whose turn it is, the picture, the controls."""
    lines = ui.summarize(table, moves)
    first_board = table.ply == len(moves)  # automatic set-up steps may come before it
    if (first_board or not moves) and table.record.options:  # the first board, reposts
        lines.insert(0, f"*Options: {describe_options(ui.game, table.record.options)}*")
    result = table.result()
    mover = table.state.current_player
    if result is not None:
        lines.append(f"**{ui.result_text(table, result)}**")
        content = " ".join(mention(table, s) for s in range(len(table.names)))
    else:
        lines.append(f"{ui.seat_badge(mover)} **{table.names[mover]}** to play.")
        content = f"{mention(table, mover)}, your turn."
    description = "\n".join(line for line in lines if line)
    if len(description) > EMBED_DESCRIPTION_LIMIT:
        description = "…" + description[-(EMBED_DESCRIPTION_LIMIT - 1):]
    embed = discord.Embed(title=table.title, description=description,
                          colour=ui.colour(result, mover))
    embed.set_image(url=f"attachment://{BOARD_FILENAME}")
    embed.set_footer(text=f"Game #{table.id} · move {table.ply} · {ui.status(table)}")
    view = discord.ui.View(timeout=None)
    if result is None:
        for item in ui.board_items(table):
            view.add_item(item)
        view.add_item(GameButton(table.id, None, "resign", label="Resign",
                                 style=discord.ButtonStyle.secondary, emoji="🏳️", row=4))
    return Post(content=content, embed=embed,
                files=[discord.File(io.BytesIO(png), filename=BOARD_FILENAME)], view=view,
                mentions=discord.AllowedMentions(users=True))
