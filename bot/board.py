"""The board message: picture, caption, whose turn, and the live components."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.catalogue import describe_options
from bot.components import GameButton
from renderers import render
from storage import MoveKind, NewMove

if TYPE_CHECKING:
    from bot.sessions import GameSession

BOARD_FILENAME = "board.png"


async def draw_board(session: GameSession, highlight: str | None) -> bytes:
    """The board as PNG bytes, drawn from the spectator's view off the event loop."""
    return await asyncio.to_thread(render, session.state.view(None), highlight,
                                   names=session.names)


def last_shown_move(moves: Sequence[NewMove]) -> str | None:
    """The move to highlight: the last one a player made (or the bot made for them)."""
    for move in reversed(moves):
        if move.kind in (MoveKind.PLAYER, MoveKind.FORCED):
            return move.move
    return None


def board_message(session: GameSession, moves: Sequence[NewMove], png: bytes) -> dict[str, Any]:
    """Keyword arguments for `channel.send` of the board after `moves`."""
    ui = session.ui
    lines = ui.summarize(session, moves)
    first_board = session.ply == len(moves)  # automatic set-up steps may come before it
    if (first_board or not moves) and session.record.options:  # the first board, reposts
        lines.insert(0, f"*Options: {describe_options(session.record.options)}*")
    result = session.result()
    if result is not None:
        lines.append(f"**{ui.result_text(session, result)}**")
        content = " ".join(session.mention(s) for s in range(len(session.names)))
    else:
        mover = session.state.current_player
        lines.append(f"{ui.seat_badge(mover)} **{session.names[mover]}** to play.")
        content = f"{session.mention(mover)}, your turn."
    embed = discord.Embed(
        title=session.title,
        description="\n".join(line for line in lines if line),
        colour=ui.colour(result, session.state.current_player),
    )
    embed.set_image(url=f"attachment://{BOARD_FILENAME}")
    embed.set_footer(text=f"Game #{session.id} · move {session.ply} · {ui.status(session)}")
    view = discord.ui.View(timeout=None)
    if result is None:
        for item in ui.board_items(session):
            view.add_item(item)
        view.add_item(GameButton(session.id, None, "resign", label="Resign",
                                 style=discord.ButtonStyle.secondary, emoji="🏳️", row=4))
    return {
        "content": content,
        "embed": embed,
        "file": discord.File(io.BytesIO(png), filename=BOARD_FILENAME),
        "view": view,
        "allowed_mentions": discord.AllowedMentions(users=True),
    }
