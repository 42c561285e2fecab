"""Graps in Discord: the bot rolls the die; the player picks a cell from one menu, or a row's
button then the cell's button when more than 25 cells are legal."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.components import GameAction, GameButton, GameSelect
from bot.errors import UnknownAction
from bot.games.base import (
    AUTOCOMPLETE_LIMIT,
    BoardItem,
    GameUI,
    Table,
    marked_names,
    seat_event_text,
)
from bot.games.common import close_panel, play_from_panel, play_now, small_number
from bot.replies import Interaction
from engines import EndReason, IllegalMove, Result
from engines.graps import SIZE, GrapsState
from i18n import N_, _, ngettext
from storage import MoveKind, NewMove

FACE_EMOJI = {"grape": "🍇", "blank": "⚪"}
SIDE_NAMES = (N_("Dark"), N_("Light"))
"""Each seat's side, by the colour of its pawns (translated where shown)."""
SELECT_LIMIT = 25
"""Discord's most options in one select: up to this many legal cells go straight in one."""
BUTTONS_PER_ROW = 5


class GrapsUI(GameUI[GrapsState]):
    """Board: a select of the cells (≤ 25 legal) or a button per row; then a button a cell."""

    game_id = "graps"
    pitch = N_(
        "Grow your vine across a 15×15 vineyard to your opponent's land; grapes prune the "
        "enemy vine."
    )
    rules = N_(
        "**Board.** 15×15. Dark grows from row 1, Light from row 15; each has 45 pawns.\n"
        "**Set-up.** Each player places one grape on their own land row.\n"
        "**Your turn.** The bot rolls your die (one grape face, five blank faces by default):"
        " place a pawn of that face; if it fits nowhere, you pass.\n"
        "• *Blank*: next to (side-on) your own vine, not on your land, never touching an "
        "enemy pawn side-on, never in the 8 cells around an enemy grape.\n"
        "• *Grape*: on your own land, or next to your own vine. A grape **prunes** every "
        "enemy pawn around it; enemy branches cut off from their land die.\n"
        "**Winning.** Place a pawn on your opponent's land. Both stocks empty: the closer "
        "vine wins. A player who can place nothing at all wins too (you must not block your "
        "opponent)."
    )

    def status(self, table: Table[GrapsState]) -> str:
        stocks = table.state.stocks
        return " · ".join(_("{badge} {name} ({side}): {n} in stock").format(
            badge=self.seat_badges[s], name=table.names[s], side=_(SIDE_NAMES[s]), n=n)
            for s, n in enumerate(stocks))

    def result_text(self, table: Table[GrapsState], result: Result) -> str:
        names = marked_names(table)
        if result.reason == EndReason.LAND_REACHED:
            winner = result.winners[0]
            return _("{badge} {name} wins: their vine reached {loser}'s land!").format(
                badge=self.seat_badges[winner], name=names[winner], loser=names[1 - winner])
        if result.reason == EndReason.CLOSEST:
            winner = result.winners[0]
            distances = [table.state.distance(s) for s in (0, 1)]
            return ngettext(
                "Both stocks are empty: {badge} {name} wins, {n} row from the goal against "
                "{other}.",
                "Both stocks are empty: {badge} {name} wins, {n} rows from the goal against "
                "{other}.", distances[winner],
            ).format(badge=self.seat_badges[winner], name=names[winner], n=distances[winner],
                     other=distances[1 - winner])
        if result.reason == EndReason.DRAW:
            return _("Both stocks are empty and both vines are as close to the goal: draw.")
        if result.reason == EndReason.BLOCKADE:
            winner = result.winners[0]
            return _("{loser} left {name} no cell at all: {badge} {name} wins by blockade."
                     ).format(loser=names[1 - winner], name=names[winner],
                              badge=self.seat_badges[winner])
        return super().result_text(table, result)

    # -- the game log ---------------------------------------------------------------------

    def describe(self, table: Table[GrapsState], move: NewMove) -> str:
        return self._line(table, move, roller=None, rolled=None, opening=False)

    def summarize(self, table: Table[GrapsState], moves: Sequence[NewMove]) -> list[str]:
        """One line per placement or pass; a roll joins the move it led to."""
        lines: list[str] = []
        first_ply = table.ply - len(moves)  # the moves are the last ones of the log
        for index, move in enumerate(moves):
            if move.kind is MoveKind.CHANCE:
                # The roller is the seat of the next move, or the player to move now.
                after = next((m for m in moves[index + 1:] if m.seat is not None), None)
                roller = after.seat if after else table.state.current_player
                if after is None:
                    lines.append(self._roll_line(table, roller, move.move))
                continue
            before = moves[index - 1] if index else None
            rolled = (before.move.split(":", 1)[1]
                      if before is not None and before.kind is MoveKind.CHANCE else None)
            opening = first_ply + index < 2  # plies 0 and 1 are the opening grapes
            lines.append(self._line(table, move, roller=move.seat, rolled=rolled,
                                    opening=opening))
        return lines

    def _who(self, table: Table[GrapsState], seat: int | None) -> str:
        if seat is None or seat < 0:
            return "🎲"
        return f"{self.seat_badges[seat]} **{marked_names(table)[seat]}**"

    def _roll_line(self, table: Table[GrapsState], seat: int | None, text: str) -> str:
        face = text.split(":", 1)[-1]
        template = (_("🎲 {who} rolled {emoji} **a grape**.") if face == "grape"
                    else _("🎲 {who} rolled {emoji} **a blank**."))
        return template.format(who=self._who(table, seat), emoji=FACE_EMOJI.get(face, ""))

    def _line(
        self, table: Table[GrapsState], move: NewMove, *, roller: int | None, rolled: str | None,
        opening: bool,
    ) -> str:
        """The log line of one move; `rolled` is the face rolled just before it, if known."""
        if move.kind is MoveKind.CHANCE:
            return self._roll_line(table, roller, move.move)
        who = self._who(table, move.seat)
        event = seat_event_text(who, move)
        if event is not None:
            return event
        if move.move == "pass":
            if rolled:
                template = (_("{who} rolled {emoji} a grape but has no cell for it: pass.")
                            if rolled == "grape" else
                            _("{who} rolled {emoji} a blank but has no cell for it: pass."))
                return template.format(who=who, emoji=FACE_EMOJI.get(rolled, ""))
            return _("{who} has no pawn left in stock: pass.").format(who=who)
        state = table.state
        face = self._face_on(state, move)
        emoji = FACE_EMOJI.get(face or "", "")
        if opening:
            template = _("{who} planted the opening grape on **{cell}**{removal}.")
        elif move.kind is MoveKind.FORCED:
            template = {
                "grape": _("{who} rolled {emoji} a grape: **{cell}** was its only cell, "
                           "placed there{removal}."),
                "blank": _("{who} rolled {emoji} a blank: **{cell}** was its only cell, "
                           "placed there{removal}."),
            }.get(face or "", _("{who} rolled a pawn: **{cell}** was its only cell, "
                                "placed there{removal}."))
        else:
            template = {
                "grape": _("{who} placed {emoji} a grape on **{cell}**{removal}."),
                "blank": _("{who} placed {emoji} a blank on **{cell}**{removal}."),
            }.get(face or "", _("{who} placed a pawn on **{cell}**{removal}."))
        return template.format(who=who, emoji=emoji, cell=move.move,
                               removal=self._removal(table, state, move))

    @staticmethod
    def _face_on(state: GrapsState, move: NewMove) -> str | None:
        """The face of the pawn `move` placed, read from the board (None if since removed)."""
        pawn = state.view(None)["pawns"].get(move.move)
        if pawn is None or pawn["seat"] != move.seat:
            return None
        return str(pawn["face"])

    def _removal(self, table: Table[GrapsState], state: GrapsState, move: NewMove) -> str:
        """`, pruning 🟠 g8, h8 and cutting off 2 more` when this was the last placement."""
        last = state.last_placement
        if not last or last["cell"] != move.move or last["seat"] != move.seat:
            return ""
        if not state.pruned and not state.cut:
            return ""
        badge = self.seat_badges[1 - last["seat"]]
        pruning = cutting = ""
        if state.pruned:
            pruning = _("pruning {badge} {cells}").format(
                badge=badge, cells=", ".join(state.pruned))
        if state.cut:
            count = len(state.cut)
            cutting = ngettext("cutting off {badge} {n} pawn ({cells})",
                               "cutting off {badge} {n} pawns ({cells})", count).format(
                badge=badge, n=count, cells=", ".join(state.cut))
        if pruning and cutting:
            removal = _("{pruning} and {cutting}").format(pruning=pruning, cutting=cutting)
        else:
            removal = pruning or cutting
        if state.options["return_pruned"]:
            removal = _("{removal} (back to the stock)").format(removal=removal)
        return " ✂️ " + removal

    # -- the board ------------------------------------------------------------------------

    def board_items(self, table: Table[GrapsState]) -> list[BoardItem]:
        state = table.state
        face = state.face_to_place
        cells = state.legal_cells()
        if face is None or not cells:
            return []
        emoji = FACE_EMOJI[face.value]
        if len(cells) <= SELECT_LIMIT:
            options = [discord.SelectOption(label=str(cell), value=str(cell), emoji=emoji)
                       for cell in cells]
            placeholder = (_("Place your grape on…") if face.value == "grape"
                           else _("Place your blank on…"))
            return [GameSelect(table.id, table.ply, "cell", options=options, row=0,
                               placeholder=placeholder)]
        # Too many cells for one menu: a button per row, then a button per cell (two taps;
        # a row with one cell plays at once).
        rows = state.legal_cells_by_row()
        buttons: list[BoardItem] = []
        for index, row in enumerate(sorted(rows, reverse=True)):  # row 15 first, as drawn
            cells = rows[row]
            single = len(cells) == 1
            buttons.append(GameButton(
                table.id, table.ply, "cell" if single else "row",
                str(cells[0]) if single else str(row),
                label=str(cells[0]) if single else ngettext(
                    "Row {row} · {n} cell", "Row {row} · {n} cells", len(cells)).format(
                    row=row, n=len(cells)),
                emoji=emoji, style=discord.ButtonStyle.primary,
                row=index // BUTTONS_PER_ROW))
        return buttons

    # -- the composer ---------------------------------------------------------------------

    async def handle(
        self, interaction: Interaction, table: Table[GrapsState], act: GameAction,
        values: list[str],
    ) -> None:
        action, arg = act.action, act.arg
        if action == "row":
            table.seat_to_act(interaction.user.id, expected_ply=act.ply)
            content, view = self._row_picker(table, values[0] if values else arg)
            await interaction.response.send_message(content, view=view, ephemeral=True)
        elif action == "cell":
            await play_now(interaction, table, values[0] if values else arg, act.ply)
        elif action == "place":
            await play_from_panel(interaction, table, arg, act.ply)
        elif action == "cancel":
            await close_panel(interaction,
                              _("Cancelled: choose a row on the board to start again."))
        else:
            raise UnknownAction(_("This Graps control is no longer in use ({action}).")
                                .format(action=repr(action)))

    def _row_picker(self, table: Table[GrapsState], row_text: str) -> tuple[str, discord.ui.View]:
        """The private message with one button per legal cell of the row chosen."""
        state = table.state
        face = state.face_to_place
        row = small_number(row_text, _("row"), SIZE)
        cells = state.legal_cells_by_row().get(row, [])
        if face is None or not cells:
            raise IllegalMove(N_("no legal cell on row {row} now"), row=row_text)
        view = discord.ui.View(timeout=None)
        for index, cell in enumerate(cells):
            view.add_item(GameButton(table.id, table.ply, "place", str(cell),
                                     label=str(cell), emoji=FACE_EMOJI[face.value],
                                     style=discord.ButtonStyle.primary,
                                     row=index // BUTTONS_PER_ROW))
        view.add_item(GameButton(table.id, table.ply, "cancel", "", label=_("Cancel"),
                                 emoji="✖️", style=discord.ButtonStyle.secondary,
                                 row=(len(cells) - 1) // BUTTONS_PER_ROW + 1))
        template = (
            _("**Row {row}**: place your {emoji} grape on which cell? (The green diamonds on "
              "the board are the legal cells.)") if face.value == "grape" else
            _("**Row {row}**: place your {emoji} blank on which cell? (The green diamonds on "
              "the board are the legal cells.)"))
        content = template.format(row=row, emoji=FACE_EMOJI[face.value])
        return content, view

    # -- typing ---------------------------------------------------------------------------

    def autocomplete(self, table: Table[GrapsState], typed: str) -> list[str]:
        state = table.state
        wanted = "".join(typed.split()).lower()
        texts = [str(move) for move in state.legal_moves()]
        # Cells are listed row by row from a1: a player typing "h" wants column h.
        return [t for t in texts if t.startswith(wanted)][:AUTOCOMPLETE_LIMIT]
