"""`/move`, `/board`, `/resign` and `/abort`: acting on the game in this channel or thread."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.components import run_guarded
from bot.errors import Refusal
from bot.games.common import resign_prompt

if TYPE_CHECKING:
    from bot.client import Ludotheque
    from bot.sessions import GameSession

NO_GAME_HERE = ("No game is running in this channel. Each game has its own thread: "
                "use the command there, or start one with `/challenge`.")


class Play(commands.Cog):
    """Typing moves, re-posting the board, resigning."""

    def __init__(self, bot: Ludotheque) -> None:
        self.bot = bot

    async def _session_here(self, interaction: discord.Interaction) -> GameSession:
        session = await self.bot.sessions.in_channel(interaction.channel_id or 0)
        if session is None:
            raise Refusal(NO_GAME_HERE)
        return session

    @app_commands.command(name="move", description="Play a move by typing its notation")
    @app_commands.describe(notation="The move, e.g. b2:NNE for Qawale (suggestions as you type)")
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction, notation: str) -> None:
        """Play a move written in the game's notation."""
        async def play() -> None:
            session = await self._session_here(interaction)
            session.seat_to_act(interaction.user.id)  # refuse before thinking publicly
            await interaction.response.defer(ephemeral=True, thinking=True)
            turn = await session.play(interaction.user.id, notation)
            await interaction.followup.send(f"Played `{turn.moves[0].move}`.", ephemeral=True)
        await run_guarded(interaction, play())

    @move.autocomplete("notation")
    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Legal moves matching what is typed (only for the player to move)."""
        session = await self.bot.sessions.in_channel(interaction.channel_id or 0)
        if session is None or session.is_over:
            return []
        return [app_commands.Choice(name=text, value=text)
                for text in session.ui.autocomplete(session, current)]

    @app_commands.command(name="board", description="Show the current board again")
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction) -> None:
        """Re-post the board (with live controls) at the bottom of the thread."""
        async def repost() -> None:
            session = await self._session_here(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            async with session.lock:
                message = await session.post_board()
            await interaction.followup.send(f"Board posted: {message.jump_url}", ephemeral=True)
        await run_guarded(interaction, repost())

    @app_commands.command(name="resign", description="Resign the game in this thread")
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction) -> None:
        """Ask for a confirmation, then resign."""
        async def ask() -> None:
            session = await self._session_here(interaction)
            if session.record.seat_of(interaction.user.id) is None:
                raise Refusal(f"You are not playing in {session.title}.")
            text, view = resign_prompt(session)
            await interaction.response.send_message(text, view=view, ephemeral=True)
        await run_guarded(interaction, ask())

    @app_commands.command(name="abort", description="Cancel the game in this thread (no rating)")
    @app_commands.guild_only()
    async def abort(self, interaction: discord.Interaction) -> None:
        """A moderator cancels the game at once; players cancel it when all of them ask."""
        async def cancel() -> None:
            session = await self._session_here(interaction)
            if session.is_over:
                raise Refusal("This game is already over.")
            user = interaction.user
            perms = interaction.permissions
            if perms.manage_messages or perms.manage_threads:
                await interaction.response.defer(ephemeral=True, thinking=True)
                await session.abort(by=user.mention)
                await interaction.followup.send(f"{session.title} is aborted.", ephemeral=True)
                return
            if session.record.seat_of(user.id) is None:
                raise Refusal("Only a moderator (Manage Messages or Manage Threads) or the "
                              "players themselves, all together, can abort a game.")
            session.abort_votes.add(user.id)
            missing = [s for s in session.record.seats if s.user_id not in session.abort_votes]
            if missing:
                names = ", ".join(s.display_name for s in missing)
                await interaction.response.send_message(
                    f"{user.mention} asks to abort {session.title}; it ends with no rating "
                    f"once every player agrees with `/abort` (waiting for {names}).",
                    allowed_mentions=discord.AllowedMentions.none())
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            await session.abort(by="all its players")
            await interaction.followup.send(f"{session.title} is aborted.", ephemeral=True)
        await run_guarded(interaction, cancel())
