"""Qawale in Discord: pick a stack from a select, then sow it: the whole sowing from one menu,
or step by step with buttons (steps without a choice are taken for the player)."""

from __future__ import annotations

import io

import discord

from bot.components import GameAction, GameButton, GameSelect
from bot.errors import UnknownAction
from bot.games.base import AUTOCOMPLETE_LIMIT, BoardItem, GameUI, Table, marked_names
from bot.games.common import close_panel, play_from_panel
from bot.replies import Interaction
from engines import EndReason, IllegalMove, Result
from engines.qawale import Direction, QawaleMove, QawaleState, parse_notation, path_cells
from i18n import N_, _, ngettext
from storage import MoveKind, NewMove

PEBBLE_WORDS = {"n": N_("neutral"), "0": "🔵", "1": "🟠"}
"""How a pebble is named in texts: a word for the neutral one (translate it with
`pebble_word`), its seat's colour for a player's."""
ARROWS = {Direction.N: "⬆️", Direction.S: "⬇️", Direction.W: "⬅️", Direction.E: "➡️"}
DIRECTION_LABELS = {Direction.N: N_("North"), Direction.S: N_("South"),
                    Direction.W: N_("West"), Direction.E: N_("East")}
"""The direction buttons' labels (the notation letters N, S, E, W never change)."""
PREVIEW_FILENAME = "preview.png"
SELECT_LIMIT = 25
"""Discord's limit of options in one select."""
LABEL_LIMIT = 100
"""Discord's limit on a select option's label and description."""


def pebble_word(pebble: str) -> str:
    """A pebble in the current language: `neutral`, or its seat's colour."""
    return _(PEBBLE_WORDS[pebble]) if pebble == "n" else PEBBLE_WORDS[pebble]


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
    takebacks = True
    pitch = N_(
        "Drop a pebble on a stack, sow the whole stack across the board, show four of your "
        "colour in a line."
    )
    rules = N_(
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
        return " · ".join(
            ngettext("{badge} {name}: {n} pebble left", "{badge} {name}: {n} pebbles left", n)
            .format(badge=self.seat_badges[s], name=table.names[s], n=n)
            for s, n in enumerate(stocks))

    def result_text(self, table: Table[QawaleState], result: Result) -> str:
        if result.reason == EndReason.LINE:
            winner = result.winners[0]
            return _("{name} wins with four {badge} in a line!").format(
                name=marked_names(table)[winner], badge=self.seat_badges[winner])
        if result.reason == EndReason.DRAW:
            return _("Draw: all 16 pebbles are placed and nobody showed a line.")
        return super().result_text(table, result)

    def describe(self, table: Table[QawaleState], move: NewMove) -> str:
        if move.kind is not MoveKind.PLAYER or move.seat is None:
            return super().describe(table, move)
        parsed = parse_notation(move.move)
        steps = " ".join(ARROWS[d] for d in parsed.path)
        count = len(parsed.path)
        return ngettext(
            "{badge} **{name}** put a pebble on **{cell}** and sowed {n} step: {steps} "
            "(`{move}`)",
            "{badge} **{name}** put a pebble on **{cell}** and sowed {n} steps: {steps} "
            "(`{move}`)", count,
        ).format(badge=self.seat_badge(move.seat), name=marked_names(table)[move.seat],
                 cell=parsed.cell, n=count, steps=steps, move=move.move)

    # -- the board ----------------------------------------------------------------

    def board_items(self, table: Table[QawaleState]) -> list[BoardItem]:
        state = table.state
        cells = state.stack_cells()
        if len(cells) == 1:  # never a menu of one entry
            return [GameButton(table.id, table.ply, "stack", str(cells[0]),
                               label=_("Sow {cell}").format(cell=cells[0]), emoji="🪨",
                               style=discord.ButtonStyle.primary, row=0)]
        options = []
        for cell in cells:
            stack = state.stacks[cell]
            top = pebble_word(stack[-1])
            height, steps = len(stack), len(stack) + 1
            options.append(discord.SelectOption(
                label=_clip(ngettext("{cell}: {n} pebble, top {top}",
                                     "{cell}: {n} pebbles, top {top}", height)
                            .format(cell=cell, n=height, top=top)),
                value=str(cell),
                description=_clip(ngettext("Add yours, then sow {n} step",
                                           "Add yours, then sow {n} steps", steps)
                                  .format(n=steps)),
            ))
        return [GameSelect(table.id, table.ply, "stack", options=options,
                           placeholder=_("Choose a stack to sow…"), row=0)]

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
                              _("Move cancelled: pick a stack on the board to start again."))
        else:
            raise UnknownAction(_("This Qawale control is no longer in use ({action}).")
                                .format(action=repr(action)))

    def _partial(self, table: Table[QawaleState], text: str) -> QawaleMove:
        """Read a partial sowing, check each step so far is legal, and take every step that
        has a single legal direction (no tap for a step without a choice)."""
        state = table.state
        move = parse_notation(text)
        if not state.stacks[move.cell]:
            raise IllegalMove(N_("{cell} is empty: a pebble may only go on a stack"),
                              cell=str(move.cell))
        for index, direction in enumerate(move.path):
            if direction not in state.next_steps(QawaleMove(move.cell, move.path[:index])):
                raise IllegalMove(N_("step {step} ({direction}) is not possible here"),
                                  step=index + 1, direction=direction.name)
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
            landing = " · ".join(f"{cell} {pebble_word(pebble)}" for pebble, cell
                                 in zip(pebbles, path_cells(ending), strict=True))
            options.append(discord.SelectOption(label=_clip(f"{ending} {steps}"),
                                                value=str(ending), description=_clip(landing)))
        return GameSelect(table.id, table.ply, "sow", options=options, row=0,
                          placeholder=_("Play a whole sowing at once…"))

    async def _composer(
        self, table: Table[QawaleState], move: QawaleMove
    ) -> tuple[str, discord.ui.View, discord.File]:
        """The private message that builds a move: preview image, a menu of the whole
        sowings when they fit, directions, Undo, Confirm."""
        state = table.state
        seat = state.current_player
        pebbles = [*state.stacks[move.cell], str(seat)]
        needed, done = len(pebbles), len(move.path)
        sequence = ", ".join(pebble_word(p) for p in pebbles)
        lines = [ngettext("**Sowing from {cell}**: {n} pebble, bottom first: {sequence}.",
                          "**Sowing from {cell}**: {n} pebbles, bottom first: {sequence}.",
                          needed).format(cell=move.cell, n=needed, sequence=sequence)]
        view = discord.ui.View(timeout=None)
        sowings = self._sowing_select(table, move)
        if done < needed:
            lines.append(_("Step {step} of {needed}: the next pebble is {pebble}. Choose a "
                           "direction (steps with a single way are taken for you).")
                         .format(step=done + 1, needed=needed, pebble=pebble_word(pebbles[done])))
            if sowings is not None:
                lines.append(_("Or pick the whole sowing from the menu: it is played at once."))
                view.add_item(sowings)
        else:
            lines.append(ngettext("All {n} step chosen: **Confirm** to play `{move}`.",
                                  "All {n} steps chosen: **Confirm** to play `{move}`.", needed)
                         .format(n=needed, move=move))
        legal = state.next_steps(move)
        for direction in (Direction.N, Direction.S, Direction.W, Direction.E):
            view.add_item(GameButton(
                table.id, table.ply, "step", f"{move}{direction.name}",
                label=_(DIRECTION_LABELS[direction]), emoji=ARROWS[direction], row=1,
                style=discord.ButtonStyle.primary, disabled=direction not in legal))
        undo = last_choice(state, move)
        view.add_item(GameButton(table.id, table.ply, "step", str(undo or move),
                                 label=_("Undo step"), emoji="↩️", row=2,
                                 disabled=undo is None))
        view.add_item(GameButton(table.id, table.ply, "play", str(move), label=_("Confirm"),
                                 emoji="✅", style=discord.ButtonStyle.success, row=2,
                                 disabled=done < needed))
        view.add_item(GameButton(table.id, table.ply, "cancel", "", label=_("Cancel"),
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
