"""Qawale in Discord: pick a stack from a select, then sow it: the whole sowing from one menu,
or step by step with buttons (steps without a choice are taken for the player)."""

from __future__ import annotations

import io

import discord

from bot.components import GameAction, GameButton, GameSelect
from bot.errors import UnknownAction
from bot.games.base import AUTOCOMPLETE_LIMIT, BoardItem, GameUI, Table, plural
from bot.games.common import close_panel, play_from_panel
from bot.replies import Interaction
from engines import EndReason, IllegalMove, Result
from engines.qawale import Direction, QawaleMove, QawaleState, parse_notation, path_cells
from storage import MoveKind, NewMove

PEBBLE_WORDS = {"n": "neutral", "0": "🔵", "1": "🟠"}
ARROWS = {Direction.N: "⬆️", Direction.S: "⬇️", Direction.W: "⬅️", Direction.E: "➡️"}
PREVIEW_FILENAME = "preview.png"
SELECT_LIMIT = 25
"""Discord's limit of options in one select."""
LABEL_LIMIT = 100
"""Discord's limit on a select option's label and description."""


def _clip(text: str, limit: int = LABEL_LIMIT) -> str:
    """`text` cut to Discord's limit with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def with_forced_steps(state: QawaleState, move: QawaleMove) -> QawaleMove:
    """`move` extended by every next step that has a single legal direction."""
    while len(steps := state.next_steps(move)) == 1:
        move = QawaleMove(move.cell, (*move.path, steps[0]))
    return move


def last_choice(state: QawaleState, move: QawaleMove) -> QawaleMove | None:
    """What Undo goes back to: the sowing just before its last step that had a choice (the
    steps taken for the player go with it); None when no step was chosen."""
    for length in range(len(move.path) - 1, -1, -1):
        partial = QawaleMove(move.cell, move.path[:length])
        if len(state.next_steps(partial)) > 1:
            return partial
    return None


def completions(state: QawaleState, move: QawaleMove, most: int) -> list[QawaleMove]:
    """The complete sowings that extend `move`, at most `most` of them (the search stops
    there: a tall stack has hundreds)."""
    found: list[QawaleMove] = []

    def walk(partial: QawaleMove) -> None:
        steps = state.next_steps(partial)
        if not steps:
            found.append(partial)
            return
        for step in steps:
            if len(found) >= most:
                return
            walk(QawaleMove(partial.cell, (*partial.path, step)))

    walk(move)
    return found


class QawaleUI(GameUI[QawaleState]):
    """Board: a select of the stacks. Composer (private): a menu of whole sowings, direction
    buttons, Undo, Confirm."""

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
        return " · ".join(f"{self.seat_badges[s]} {table.names[s]}: {plural(n, 'pebble')} left"
                          for s, n in enumerate(stocks))

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
                f"**{parsed.cell}** and sowed {plural(len(parsed.path), 'step')}: {steps} "
                f"(`{move.move}`)")

    # -- the board ----------------------------------------------------------------

    def board_items(self, table: Table[QawaleState]) -> list[BoardItem]:
        state = table.state
        cells = state.stack_cells()
        if len(cells) == 1:  # never a menu of one entry
            return [GameButton(table.id, table.ply, "stack", str(cells[0]),
                               label=f"Sow {cells[0]}", emoji="🪨",
                               style=discord.ButtonStyle.primary, row=0)]
        options = []
        for cell in cells:
            stack = state.stacks[cell]
            top = PEBBLE_WORDS[stack[-1]]
            options.append(discord.SelectOption(
                label=f"{cell}: {plural(len(stack), 'pebble')}, top {top}",
                value=str(cell),
                description=f"Add yours, then sow {plural(len(stack) + 1, 'step')}",
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
            move = self._partial(table, f"{values[0] if values else arg}:")
            content, view, image = await self._composer(table, move)
            await interaction.response.send_message(content, view=view, file=image, ephemeral=True)
        elif action == "step":
            table.seat_to_act(interaction.user.id, expected_ply=act.ply)
            move = self._partial(table, arg)
            content, view, image = await self._composer(table, move)
            await interaction.response.edit_message(content=content, view=view, attachments=[image])
        elif action == "sow":
            await play_from_panel(interaction, table, values[0], act.ply)
        elif action == "play":
            await play_from_panel(interaction, table, arg, act.ply)
        elif action == "cancel":
            await close_panel(interaction,
                              "Move cancelled: pick a stack on the board to start again.")
        else:
            raise UnknownAction(f"This Qawale control is no longer in use ({action!r}).")

    def _partial(self, table: Table[QawaleState], text: str) -> QawaleMove:
        """Read a partial sowing, check each step so far is legal, and take every step that
        has a single legal direction (no tap for a step without a choice)."""
        state = table.state
        move = parse_notation(text)
        if not state.stacks[move.cell]:
            raise IllegalMove(f"{move.cell} is empty: a pebble may only go on a stack")
        for index, direction in enumerate(move.path):
            if direction not in state.next_steps(QawaleMove(move.cell, move.path[:index])):
                raise IllegalMove(f"step {index + 1} ({direction.name}) is not possible here")
        return with_forced_steps(state, move)

    def _sowing_select(self, table: Table[QawaleState], move: QawaleMove) -> GameSelect | None:
        """Every complete sowing that extends `move`, when there are 2 to 25: one pick plays
        it (each option says where the pebbles land)."""
        state = table.state
        endings = completions(state, move, SELECT_LIMIT + 1)
        if not 1 < len(endings) <= SELECT_LIMIT:
            return None
        pebbles = [*state.stacks[move.cell], str(state.current_player)]
        options = []
        for ending in endings:
            steps = "".join(ARROWS[d] for d in ending.path)
            landing = " · ".join(f"{cell} {PEBBLE_WORDS[pebble]}" for pebble, cell
                                 in zip(pebbles, path_cells(ending), strict=True))
            options.append(discord.SelectOption(label=_clip(f"{ending} {steps}"),
                                                value=str(ending), description=_clip(landing)))
        return GameSelect(table.id, table.ply, "sow", options=options, row=0,
                          placeholder="Play a whole sowing at once…")

    async def _composer(
        self, table: Table[QawaleState], move: QawaleMove
    ) -> tuple[str, discord.ui.View, discord.File]:
        """The private message that builds a move: preview image, a menu of the whole
        sowings when they fit, directions, Undo, Confirm."""
        state = table.state
        seat = state.current_player
        pebbles = [*state.stacks[move.cell], str(seat)]
        needed, done = len(pebbles), len(move.path)
        sequence = ", ".join(PEBBLE_WORDS[p] for p in pebbles)
        lines = [f"**Sowing from {move.cell}**: {plural(needed, 'pebble')}, bottom first: "
                 f"{sequence}."]
        view = discord.ui.View(timeout=None)
        sowings = self._sowing_select(table, move)
        if done < needed:
            lines.append(f"Step {done + 1} of {needed}: the next pebble is "
                         f"{PEBBLE_WORDS[pebbles[done]]}. Choose a direction (steps with a "
                         "single way are taken for you).")
            if sowings is not None:
                lines.append("Or pick the whole sowing from the menu: it is played at once.")
                view.add_item(sowings)
        else:
            lines.append(f"All {needed} steps chosen: **Confirm** to play `{move}`.")
        legal = state.next_steps(move)
        for direction in (Direction.N, Direction.S, Direction.W, Direction.E):
            view.add_item(GameButton(
                table.id, table.ply, "step", f"{move}{direction.name}",
                label=direction.word.capitalize(), emoji=ARROWS[direction], row=1,
                style=discord.ButtonStyle.primary, disabled=direction not in legal))
        undo = last_choice(state, move)
        view.add_item(GameButton(table.id, table.ply, "step", str(undo or move),
                                 label="Undo step", emoji="↩️", row=2, disabled=undo is None))
        view.add_item(GameButton(table.id, table.ply, "play", str(move), label="Confirm",
                                 emoji="✅", style=discord.ButtonStyle.success, row=2,
                                 disabled=done < needed))
        view.add_item(GameButton(table.id, table.ply, "cancel", "", label="Cancel",
                                 emoji="✖️", row=2, style=discord.ButtonStyle.secondary))
        png = await table.draw(state.view(seat), str(move), preview=True)
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
