"""Granat in Discord: pick a pawn from the board's select, then one of its moves in a private
composer that previews the move before Confirm."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence

import discord

from bot.components import GameAction, GameButton, GameSelect
from bot.errors import Refusal, UnknownAction
from bot.games.base import AUTOCOMPLETE_LIMIT, BoardItem, GameUI, Table
from bot.games.common import close_panel, play_from_panel
from bot.replies import Interaction
from engines import EndReason, Result
from engines.granat import GranatMove, GranatState, MoveKind, parse_cell
from renderers import render
from storage import MoveKind as LogKind
from storage import NewMove

PREVIEW_FILENAME = "preview.png"
SELECT_LIMIT = 25
"""Discord's limit of options in one select."""
PICK_ACTIONS = ("pick", "pick_b", "pick_c", "pick_d")
"""One action per move select of the composer (custom_ids must differ within a message)."""
SEAT_WORDS = ("Red", "Blue")
KIND_ORDER = {MoveKind.CAPTURE: 0, MoveKind.LOSE_MARBLE: 1, MoveKind.PLAIN: 2, MoveKind.MARBLE: 3}


def _clip(text: str, limit: int = 100) -> str:
    """Discord caps labels and descriptions at 100 characters."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class GranatUI(GameUI[GranatState]):
    """Board: a select of the pawns that can move. Composer (private): the pawn's moves, a
    preview of the chosen one, Confirm."""

    game_id = "granat"
    pitch = (
        "A draughts-like duel on a diagonal lattice: slow neutral pawns, fast garnet pawns "
        "and a powerful garnet cell."
    )
    rules = (
        "**Board.** A diagonal lattice of 68 cells and the garnet cell e8 in the centre; "
        "yellow lines cross the board corner to corner.\n"
        "**Pawns.** Neutral pawns step forward (and may jump their own pawns). Garnet pawns "
        "slide any distance along a line and can hand their marble to a neutral pawn.\n"
        "**Captures** are mandatory: jump an enemy pawn. Neutral pawns capture in chains in "
        "every direction; garnet pawns chain along yellow lines.\n"
        "**Garnet cell.** A garnet pawn on e8 protects its whole side for one turn, then must"
        " leave.\n"
        "**End.** Capture everything, or leave your opponent without a move. Draw when no "
        "neutral pawn is left, or after 40 moves without a capture or a neutral move. Lost "
        "both garnet pawns? You may stop (`/resign`)."
    )
    seat_badges = ("🔴", "🔵")  # the renderer draws seat 0 red, seat 1 blue (granat.md)
    seat_colours = (discord.Colour.from_rgb(215, 38, 61), discord.Colour.from_rgb(29, 79, 168))

    # -- texts ---------------------------------------------------------------------------

    def status(self, table: Table[GranatState]) -> str:
        state = table.state
        view = state.view(None)
        parts = [f"{self.seat_badges[p['seat']]} {p['pawns']} pawns ({p['garnet_pawns']} garnet)"
                 for p in view["players"]]
        parts.append(f"quiet moves {view['quiet_moves']}/{view['quiet_moves_for_draw']}")
        return " · ".join(parts)

    def who(self, table: Table[GranatState], seat: int) -> str:
        """`🔴 **Alice**`: the badge and name of a seat."""
        return f"{self.seat_badge(seat)} **{table.names[seat]}**"

    def describe(self, table: Table[GranatState], move: NewMove) -> str:
        state = table.state
        if move.seat is None or move.kind is LogKind.RESIGN:
            if move.kind is LogKind.RESIGN and move.seat is not None \
                    and state.may_stop_early(move.seat):
                return (f"{self.who(table, move.seat)} stopped the game, having lost both "
                        "garnet pawns.")
            return super().describe(table, move)
        words = state.last_description if move.move == state.last_move else None
        forced = " (the only legal move)" if move.kind is LogKind.FORCED else ""
        tail = f": {words}" if words else ""
        return f"{self.who(table, move.seat)} played `{move.move}`{forced}{tail}."

    def summarize(self, table: Table[GranatState], moves: Sequence[NewMove]) -> list[str]:
        lines = [self.describe(table, move) for move in moves]
        if table.result() is None:
            lines += self.situation(table)
        return lines

    def situation(self, table: Table[GranatState]) -> list[str]:
        """What the player to move must know: capture due, the garnet cell, early stops."""
        state = table.state
        if state.is_over():
            return []
        lines = []
        mover = state.current_player
        assert mover is not None
        protected = state.protected_seat()
        if protected is not None:
            lines.append(f"🛡️ {SEAT_WORDS[protected]}'s garnet pawn on e8 protects every "
                         f"{SEAT_WORDS[protected]} pawn during this move.")
        if state.must_leave_garnet_cell():
            lines.append(f"💎 {SEAT_WORDS[mover]}'s garnet pawn on e8 must leave now "
                         "(move off or hand the marble on).")
        if state.capture_due():
            lines.append(f"⚔️ {SEAT_WORDS[mover]} must capture this move.")
        if not state.yellow_lines_active():
            lines.append("⬛ A neutral pawn stands on e8: the yellow lines count as black.")
        for seat in (0, 1):
            if state.may_stop_early(seat):
                lines.append(f"{self.seat_badge(seat)} {SEAT_WORDS[seat]} "
                             f"({table.names[seat]}) has lost both garnet pawns and may "
                             "stop: `/resign`.")
        return lines

    def result_text(self, table: Table[GranatState], result: Result) -> str:
        names = table.names
        state = table.state
        if result.reason == EndReason.RESIGNED:
            loser = next(s for s in (0, 1) if s not in result.winners)
            winner_name = names[1 - loser]
            if state.may_stop_early(loser):
                return (f"{names[loser]} stopped after losing both garnet pawns: "
                        f"{self.seat_badge(1 - loser)} {winner_name} wins.")
            return f"{names[loser]} resigned: {self.seat_badge(1 - loser)} {winner_name} wins."
        if result.reason == EndReason.TIMEOUT:
            return super().result_text(table, result)
        if len(result.winners) == 1:
            winner = result.winners[0]
            loser = 1 - winner
            why = {
                EndReason.CAPTURED_ALL: f"every {SEAT_WORDS[loser]} pawn is taken",
                EndReason.NO_MOVES: f"{SEAT_WORDS[loser]} has no legal move",
            }.get(result.reason, result.reason)
            return f"{self.seat_badge(winner)} {names[winner]} wins: {why}!"
        if all(p is None or p.garnet for p in state.board):
            return "Draw: no neutral pawn is left on either side."
        return "Draw: 40 moves in a row without a capture or a neutral pawn moving."

    # -- the board ----------------------------------------------------------------------------

    def board_items(self, table: Table[GranatState]) -> list[BoardItem]:
        state = table.state
        options = []
        for cell in state.movable_pawns()[:SELECT_LIMIT]:
            pawn = state.pawn_at(cell)
            moves = state.moves_of(cell)
            kind = "garnet pawn" if pawn and pawn.garnet else "neutral pawn"
            captures = sum(1 for m in moves if m.kind is MoveKind.CAPTURE)
            detail = (f"{captures} capture{'s' * (captures > 1)}" if captures
                      else f"{len(moves)} move{'s' * (len(moves) > 1)}")
            options.append(discord.SelectOption(
                label=f"{cell} · {kind}", value=str(cell), emoji="💎" if pawn and pawn.garnet
                else None, description=detail))
        mover = SEAT_WORDS[state.current_player or 0]
        placeholder = (f"{mover} must capture: choose the pawn…" if state.capture_due()
                       else f"Choose a {mover} pawn to move…")
        return [GameSelect(table.id, table.ply, "pawn", options=options,
                           placeholder=placeholder, row=0)]

    # -- the composer ------------------------------------------------------------------------

    async def handle(
        self, interaction: Interaction, table: Table[GranatState], act: GameAction,
        values: list[str],
    ) -> None:
        action, arg = act.action, act.arg
        state = table.state
        if action == "pawn":
            table.seat_to_act(interaction.user.id, expected_ply=act.ply)
            cell = str(parse_cell(values[0]))
            moves = state.moves_of(cell)
            if not moves:
                raise Refusal(f"The pawn on {cell} has no legal move now.")
            chosen = moves[0] if len(moves) == 1 else None
            content, view, image = await self._composer(table, cell, chosen)
            files = [image] if image else []
            await interaction.response.send_message(content, view=view, files=files,
                                                    ephemeral=True)
        elif action in PICK_ACTIONS:
            table.seat_to_act(interaction.user.id, expected_ply=act.ply)
            move = self._legal(state, values[0])
            content, view, image = await self._composer(table, str(move.start), move)
            await interaction.response.edit_message(content=content, view=view,
                                                    attachments=[image] if image else [])
        elif action == "play":
            await play_from_panel(interaction, table, arg, act.ply)
        elif action == "cancel":
            await close_panel(interaction,
                              "Move cancelled: pick a pawn on the board to start again.")
        else:
            raise UnknownAction(f"This Granat control is no longer in use ({action!r}).")

    @staticmethod
    def _legal(state: GranatState, text: str) -> GranatMove:
        """The legal move written `text` (IllegalMove with the engine's reason otherwise)."""
        return state.clone().apply(text)  # a copy: only the check matters here

    @staticmethod
    def move_words(state: GranatState, move: GranatMove) -> str:
        """A move in plain words without the pawn's name: "captures 2: e5, g7 (landing on h8)"."""
        words = state.describe_move(move)
        pawn = state.pawn_at(move.start)
        if pawn is not None:
            prefix = f"{'garnet' if pawn.garnet else 'neutral'} pawn {move.start} "
            words = words.removeprefix(prefix)
        return words

    async def _composer(
        self, table: Table[GranatState], cell: str, chosen: GranatMove | None
    ) -> tuple[str, discord.ui.View, discord.File | None]:
        """The private message that builds a move: the pawn's moves, a preview, Confirm."""
        state = table.state
        moves = sorted(state.moves_of(cell), key=lambda m: KIND_ORDER[m.kind])
        pawn = state.pawn_at(cell)
        kind = "garnet pawn" if pawn and pawn.garnet else "neutral pawn"
        lines = [f"**Your {kind} on {cell}**: {len(moves)} legal "
                 f"move{'s' * (len(moves) > 1)}."]
        if state.capture_due():
            lines.append("A capture is due, so only captures are listed.")
        if chosen is None:
            lines.append("Choose a move from the menu.")
        else:
            lines.append(f"**{chosen}**: {self.move_words(state, chosen)}.")
            lines.append("Check the preview, then **Confirm**.")
        view = discord.ui.View(timeout=None)
        chunks = [moves[i:i + SELECT_LIMIT] for i in range(0, len(moves), SELECT_LIMIT)]
        for row, (action, chunk) in enumerate(zip(PICK_ACTIONS, chunks, strict=False)):
            options = [discord.SelectOption(
                label=_clip(str(m)), value=str(m), default=m == chosen,
                description=_clip(self.move_words(state, m))) for m in chunk]
            first, last = chunk[0], chunk[-1]
            placeholder = ("Choose a move…" if len(chunks) == 1
                           else f"Moves {first} … {last}")
            view.add_item(GameSelect(table.id, table.ply, action, options=options,
                                     placeholder=_clip(placeholder, 150), row=row))
        if len(chunks) > len(PICK_ACTIONS):
            lines.append("More moves than the menus can hold: type the others with `/move`.")
        if chosen is not None:
            view.add_item(GameButton(table.id, table.ply, "play", str(chosen),
                                     label="Confirm", emoji="✅", row=4,
                                     style=discord.ButtonStyle.success))
        view.add_item(GameButton(table.id, table.ply, "cancel", "", label="Cancel",
                                 emoji="✖️", row=4, style=discord.ButtonStyle.secondary))
        highlight = str(chosen) if chosen is not None else None
        image = None
        if highlight is not None:
            png = await asyncio.to_thread(render, state.view(None), highlight, preview=True,
                                          names=table.names)
            image = discord.File(io.BytesIO(png), filename=PREVIEW_FILENAME)
        return "\n".join(lines), view, image

    # -- typing --------------------------------------------------------------------------------

    def autocomplete(self, table: Table[GranatState], typed: str) -> list[str]:
        state = table.state
        if state.is_over():
            return []
        wanted = "".join(typed.split()).lower()
        texts = [str(m) for m in sorted(state.legal_moves(), key=lambda m: KIND_ORDER[m.kind])]
        return [t for t in texts if t.startswith(wanted)][:AUTOCOMPLETE_LIMIT]
