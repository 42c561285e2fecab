"""Qawale in Discord: pick a stack from a select, then sow it step by step with buttons."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING

import discord

from bot.components import GameButton, GameSelect
from bot.games.base import AUTOCOMPLETE_LIMIT, GameUI
from bot.games.common import close_panel, play_from_panel
from engines import IllegalMove, Result
from engines.qawale import Direction, QawaleMove, QawaleState, parse_notation
from renderers import render
from storage import MoveKind, NewMove

if TYPE_CHECKING:
    from bot.sessions import GameSession

PEBBLE_WORDS = {"n": "neutral", "0": "🔵", "1": "🟠"}
ARROWS = {Direction.N: "⬆️", Direction.S: "⬇️", Direction.W: "⬅️", Direction.E: "➡️"}
PREVIEW_FILENAME = "preview.png"


class QawaleUI(GameUI):
    """Board: a select of the stacks. Composer (private): direction buttons, Undo, Confirm."""

    game_id = "qawale"

    def status(self, session: GameSession) -> str:
        stocks = session.state.stocks  # type: ignore[attr-defined]
        return " · ".join(f"{self.seat_badges[s]} {n} pebbles left" for s, n in enumerate(stocks))

    def result_text(self, session: GameSession, result: Result) -> str:
        if result.reason == "line":
            winner = result.winners[0]
            return f"{session.names[winner]} wins with four {self.seat_badges[winner]} in a line!"
        if result.reason == "draw":
            return "Draw: all 16 pebbles are placed and nobody showed a line."
        return super().result_text(session, result)

    def describe(self, session: GameSession, move: NewMove) -> str:
        if move.kind is not MoveKind.PLAYER or move.seat is None:
            return super().describe(session, move)
        parsed = parse_notation(move.move)
        steps = " ".join(ARROWS[d] for d in parsed.path)
        return (f"{self.seat_badge(move.seat)} **{session.names[move.seat]}** put a pebble on "
                f"**{parsed.cell}** and sowed {len(parsed.path)}: {steps} (`{move.move}`)")

    # -- the board ----------------------------------------------------------------

    def board_items(self, session: GameSession) -> list[discord.ui.Item]:
        state: QawaleState = session.state  # type: ignore[assignment]
        options = []
        for cell in state.stack_cells():
            stack = state.stacks[cell]
            top = PEBBLE_WORDS[stack[-1]]
            options.append(discord.SelectOption(
                label=f"{cell}: {len(stack)} pebble{'s' * (len(stack) > 1)}, top {top}",
                value=str(cell),
                description=f"Add yours, then sow {len(stack) + 1} steps",
            ))
        return [GameSelect(session.id, session.ply, "stack", options=options,
                           placeholder="Choose a stack to sow…", row=0)]

    # -- the composer ----------------------------------------------------------------

    async def handle(
        self, interaction: discord.Interaction, session: GameSession, action: str, arg: str,
        values: list[str],
    ) -> None:
        if action == "stack":
            session.seat_to_act(interaction.user.id)
            move = self._partial(session, f"{values[0]}:")
            content, view, image = await self._composer(session, move)
            await interaction.response.send_message(content, view=view, file=image, ephemeral=True)
        elif action == "step":
            session.seat_to_act(interaction.user.id)
            move = self._partial(session, arg)
            content, view, image = await self._composer(session, move)
            await interaction.response.edit_message(content=content, view=view, attachments=[image])
        elif action == "play":
            await play_from_panel(interaction, session, arg)
        elif action == "cancel":
            await close_panel(interaction,
                              "Move cancelled: pick a stack on the board to start again.")
        else:
            raise IllegalMove(f"unknown Qawale action {action!r}")

    def _partial(self, session: GameSession, text: str) -> QawaleMove:
        """Read a partial sowing and check each step so far is legal."""
        state: QawaleState = session.state  # type: ignore[assignment]
        move = parse_notation(text)
        if not state.stacks[move.cell]:
            raise IllegalMove(f"{move.cell} is empty: a pebble may only go on a stack")
        for index, direction in enumerate(move.path):
            if direction not in state.next_steps(QawaleMove(move.cell, move.path[:index])):
                raise IllegalMove(f"step {index + 1} ({direction.name}) is not possible here")
        return move

    async def _composer(
        self, session: GameSession, move: QawaleMove
    ) -> tuple[str, discord.ui.View, discord.File]:
        """The private message that builds a move: preview image, directions, Undo, Confirm."""
        state: QawaleState = session.state  # type: ignore[assignment]
        seat = state.current_player
        pebbles = [*state.stacks[move.cell], str(seat)]
        needed, done = len(pebbles), len(move.path)
        sequence = ", ".join(PEBBLE_WORDS[p] for p in pebbles)
        lines = [f"**Sowing from {move.cell}**: {needed} pebbles, bottom first: {sequence}."]
        if done < needed:
            lines.append(f"Step {done + 1} of {needed}: the next pebble is "
                         f"{PEBBLE_WORDS[pebbles[done]]}. Choose a direction.")
        else:
            lines.append(f"All {needed} steps chosen: **Confirm** to play `{move}`.")
        legal = state.next_steps(move)
        view = discord.ui.View(timeout=None)
        for direction in (Direction.N, Direction.S, Direction.W, Direction.E):
            view.add_item(GameButton(
                session.id, session.ply, "step", f"{move}{direction.name}",
                label=direction.word.capitalize(), emoji=ARROWS[direction], row=0,
                style=discord.ButtonStyle.primary, disabled=direction not in legal))
        undo = QawaleMove(move.cell, move.path[:-1])
        view.add_item(GameButton(session.id, session.ply, "step", str(undo), label="Undo step",
                                 emoji="↩️", row=1, disabled=not move.path))
        view.add_item(GameButton(session.id, session.ply, "play", str(move), label="Confirm",
                                 emoji="✅", style=discord.ButtonStyle.success, row=1,
                                 disabled=done < needed))
        view.add_item(GameButton(session.id, session.ply, "cancel", "", label="Cancel",
                                 emoji="✖️", row=1, style=discord.ButtonStyle.secondary))
        png = await asyncio.to_thread(render, state.view(seat), str(move), preview=True,
                                      names=session.names)
        return "\n".join(lines), view, discord.File(io.BytesIO(png), filename=PREVIEW_FILENAME)

    # -- typing ------------------------------------------------------------------------

    def autocomplete(self, session: GameSession, typed: str) -> list[str]:
        state: QawaleState = session.state  # type: ignore[assignment]
        wanted = "".join(typed.split()).lower()
        moves = state.legal_moves()
        if len(wanted) >= 2:
            try:  # only the stack typed: no need to list the others
                moves = state.legal_moves_from(parse_notation(wanted[:2] + ":").cell)
            except IllegalMove:
                moves = []
        texts = [str(m) for m in moves]
        return [t for t in texts if t.lower().startswith(wanted)
                or t.lower().replace(":", "").startswith(wanted)][:AUTOCOMPLETE_LIMIT]
