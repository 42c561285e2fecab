"""Qawale in Discord: pick a stack from a select, then sow it step by step with buttons."""

from __future__ import annotations

import asyncio
import io

import discord

from bot.components import GameAction, GameButton, GameSelect
from bot.errors import UnknownAction
from bot.games.base import AUTOCOMPLETE_LIMIT, BoardItem, GameUI, Table
from bot.games.common import close_panel, play_from_panel
from bot.replies import Interaction
from engines import EndReason, IllegalMove, Result
from engines.qawale import Direction, QawaleMove, QawaleState, parse_notation
from renderers import render
from storage import MoveKind, NewMove

PEBBLE_WORDS = {"n": "neutral", "0": "🔵", "1": "🟠"}
ARROWS = {Direction.N: "⬆️", Direction.S: "⬇️", Direction.W: "⬅️", Direction.E: "➡️"}
PREVIEW_FILENAME = "preview.png"


class QawaleUI(GameUI[QawaleState]):
    """Board: a select of the stacks. Composer (private): direction buttons, Undo, Confirm."""

    game_id = "qawale"
    pitch = (
        "Drop a pebble on a stack, sow the whole stack across the board, show four of your "
        "colour in a line."
    )
    rules = (
        "**Board.** 4×4 cells, columns a–d, rows 1–4. Two neutral (beige) pebbles on each "
        "corner to start. Each player has 8 pebbles.\n"
        "**Your turn.**\n"
        "1. Put one of your pebbles on top of any stack (never on an empty cell).\n"
        "2. Pick up that whole stack and sow it, **bottom pebble first**, one pebble per "
        "cell: the first on a cell next to the stack (no diagonals), each next one next to "
        "the previous.\n"
        "3. You may never step straight back to the cell you just left; loops are fine.\n"
        "**Winning.** Show four pebbles of your colour *on top of stacks* in a row, a column "
        "or a long diagonal, once the sowing is over. A line of your opponent's colour makes "
        "*them* win. A line for both: the sower wins. All 16 pebbles placed and no line: a "
        "draw.\n"
        "**Notation.** `b2:NNE` = put on b2, sow north, north, east."
    )

    def status(self, table: Table[QawaleState]) -> str:
        stocks = table.state.stocks
        return " · ".join(f"{self.seat_badges[s]} {n} pebbles left" for s, n in enumerate(stocks))

    def result_text(self, table: Table[QawaleState], result: Result) -> str:
        if result.reason == EndReason.LINE:
            winner = result.winners[0]
            return f"{table.names[winner]} wins with four {self.seat_badges[winner]} in a line!"
        if result.reason == EndReason.DRAW:
            return "Draw: all 16 pebbles are placed and nobody showed a line."
        return super().result_text(table, result)

    def describe(self, table: Table[QawaleState], move: NewMove) -> str:
        if move.kind is not MoveKind.PLAYER or move.seat is None:
            return super().describe(table, move)
        parsed = parse_notation(move.move)
        steps = " ".join(ARROWS[d] for d in parsed.path)
        return (f"{self.seat_badge(move.seat)} **{table.names[move.seat]}** put a pebble on "
                f"**{parsed.cell}** and sowed {len(parsed.path)}: {steps} (`{move.move}`)")

    # -- the board ----------------------------------------------------------------

    def board_items(self, table: Table[QawaleState]) -> list[BoardItem]:
        state = table.state
        options = []
        for cell in state.stack_cells():
            stack = state.stacks[cell]
            top = PEBBLE_WORDS[stack[-1]]
            options.append(discord.SelectOption(
                label=f"{cell}: {len(stack)} pebble{'s' * (len(stack) > 1)}, top {top}",
                value=str(cell),
                description=f"Add yours, then sow {len(stack) + 1} steps",
            ))
        return [GameSelect(table.id, table.ply, "stack", options=options,
                           placeholder="Choose a stack to sow…", row=0)]

    # -- the composer ----------------------------------------------------------------

    async def handle(
        self, interaction: Interaction, table: Table[QawaleState], act: GameAction,
        values: list[str],
    ) -> None:
        action, arg = act.action, act.arg
        if action == "stack":
            table.seat_to_act(interaction.user.id, expected_ply=act.ply)
            move = self._partial(table, f"{values[0]}:")
            content, view, image = await self._composer(table, move)
            await interaction.response.send_message(content, view=view, file=image, ephemeral=True)
        elif action == "step":
            table.seat_to_act(interaction.user.id, expected_ply=act.ply)
            move = self._partial(table, arg)
            content, view, image = await self._composer(table, move)
            await interaction.response.edit_message(content=content, view=view, attachments=[image])
        elif action == "play":
            await play_from_panel(interaction, table, arg, act.ply)
        elif action == "cancel":
            await close_panel(interaction,
                              "Move cancelled: pick a stack on the board to start again.")
        else:
            raise UnknownAction(f"This Qawale control is no longer in use ({action!r}).")

    def _partial(self, table: Table[QawaleState], text: str) -> QawaleMove:
        """Read a partial sowing and check each step so far is legal."""
        state = table.state
        move = parse_notation(text)
        if not state.stacks[move.cell]:
            raise IllegalMove(f"{move.cell} is empty: a pebble may only go on a stack")
        for index, direction in enumerate(move.path):
            if direction not in state.next_steps(QawaleMove(move.cell, move.path[:index])):
                raise IllegalMove(f"step {index + 1} ({direction.name}) is not possible here")
        return move

    async def _composer(
        self, table: Table[QawaleState], move: QawaleMove
    ) -> tuple[str, discord.ui.View, discord.File]:
        """The private message that builds a move: preview image, directions, Undo, Confirm."""
        state = table.state
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
                table.id, table.ply, "step", f"{move}{direction.name}",
                label=direction.word.capitalize(), emoji=ARROWS[direction], row=0,
                style=discord.ButtonStyle.primary, disabled=direction not in legal))
        undo = QawaleMove(move.cell, move.path[:-1])
        view.add_item(GameButton(table.id, table.ply, "step", str(undo), label="Undo step",
                                 emoji="↩️", row=1, disabled=not move.path))
        view.add_item(GameButton(table.id, table.ply, "play", str(move), label="Confirm",
                                 emoji="✅", style=discord.ButtonStyle.success, row=1,
                                 disabled=done < needed))
        view.add_item(GameButton(table.id, table.ply, "cancel", "", label="Cancel",
                                 emoji="✖️", row=1, style=discord.ButtonStyle.secondary))
        png = await asyncio.to_thread(render, state.view(seat), str(move), preview=True,
                                      names=table.names)
        return "\n".join(lines), view, discord.File(io.BytesIO(png), filename=PREVIEW_FILENAME)

    # -- typing ------------------------------------------------------------------------

    def autocomplete(self, table: Table[QawaleState], typed: str) -> list[str]:
        state = table.state
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
