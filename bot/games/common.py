"""Component actions every game shares: resigning with a confirmation."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.components import GameButton, run_guarded

if TYPE_CHECKING:
    from bot.sessions import GameSession


def resign_prompt(session: GameSession) -> tuple[str, discord.ui.View]:
    """The private 'are you sure?' with Resign and Keep playing buttons."""
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(session.id, None, "resign_confirm", label="Resign",
                             style=discord.ButtonStyle.danger, emoji="🏳️"))
    view.add_item(GameButton(session.id, None, "resign_cancel", label="Keep playing",
                             style=discord.ButtonStyle.secondary))
    others = "Your opponent wins" if len(session.names) == 2 else "The other players share the win"
    return f"Resign {session.title}? {others} at once.", view


async def play_from_panel(
    interaction: discord.Interaction, session: GameSession, move: str
) -> None:
    """A private panel's last choice: play `move`, then close the panel saying what was played."""
    session.seat_to_act(interaction.user.id, expected_ply=session.ply)
    await interaction.response.defer()
    turn = await session.play(interaction.user.id, move, expected_ply=session.ply)
    await interaction.edit_original_response(
        content=f"Played `{turn.moves[0].move}`.", attachments=[], embed=None, view=None)


async def close_panel(interaction: discord.Interaction, text: str) -> None:
    """Close a private panel (Cancel), leaving `text` in its place."""
    await interaction.response.edit_message(content=text, attachments=[], embed=None, view=None)


async def handle_common(
    interaction: discord.Interaction, session: GameSession, action: str, arg: str
) -> bool:
    """Handle a shared action; False when the action is the game's own."""
    if action == "resign":
        if session.record.seat_of(interaction.user.id) is None:
            await interaction.response.send_message(
                f"You are not playing in {session.title}.", ephemeral=True)
            return True
        text, view = resign_prompt(session)
        await interaction.response.send_message(text, view=view, ephemeral=True)
        return True
    if action == "resign_confirm":
        async def confirm() -> None:
            await session.resign(interaction.user.id)
            await interaction.response.edit_message(content="You resigned.", view=None)
        await run_guarded(interaction, confirm())
        return True
    if action == "resign_cancel":
        await interaction.response.edit_message(content="Game on!", view=None)
        return True
    return False
