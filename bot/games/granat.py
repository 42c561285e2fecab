"""Granat in Discord: pick the move itself from the board's menus (a pawn first only when the
moves overflow four menus), then Confirm it in a private composer that previews it."""

from __future__ import annotations

import io
from collections.abc import Sequence

import discord

from bot.components import GameAction, GameButton, GameSelect
from bot.errors import Refusal, UnknownAction
from bot.games.base import AUTOCOMPLETE_LIMIT, BoardItem, GameUI, Table, marked_names
from bot.games.common import close_panel, play_from_panel
from bot.replies import Interaction
from engines import EndReason, IllegalMove, Result, Why
from engines.granat import (
    GranatMove,
    GranatState,
    MoveKind,
    description_why,
    is_linked,
    parse_cell,
    parse_notation,
)
from i18n import N_, _, ngettext
from storage import MoveKind as LogKind
from storage import NewMove

PREVIEW_FILENAME = "preview.png"
SELECT_LIMIT = 25
"""Discord's limit of options in one select."""
PICK_ACTIONS = ("pick", "pick_b", "pick_c", "pick_d")
"""One action per move select of the composer (custom_ids must differ within a message)."""
MOVE_ACTIONS = ("move", "move_b", "move_c", "move_d")
"""One action per move select on the board (row 4 holds the resign button)."""
KIND_ORDER = {MoveKind.CAPTURE: 0, MoveKind.LOSE_MARBLE: 1, MoveKind.PLAIN: 2, MoveKind.MARBLE: 3}


def said(why: Why) -> str:
    """An engine's words (a move's description) in the current language."""
    return _(why.template).format(**why.params) if why.params else _(why.template)


def _clip(text: str, limit: int = 100) -> str:
    """Discord caps labels and descriptions at 100 characters."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class GranatUI(GameUI[GranatState]):
    """Board: menus of every legal move (or of the pawns). Composer (private): the move, its
    preview, Confirm, and the same menus to change one's mind."""

    game_id = "granat"
    takebacks = True
    pitch = N_(
        "A draughts-like duel on a diagonal lattice: slow neutral pawns, fast garnet pawns "
        "and a powerful garnet cell."
    )
    rules = N_(
        "**Board.** A diagonal lattice of 68 cells, Red on rows 1–3, Blue on rows 13–15, and "
        "the garnet cell e8 in the centre, reached only from d8, f8, e7 and e9. Four yellow "
        "lines cross the board corner to corner; every other line is black. Your half is "
        "your 7 rows; row 8 and e8 count as the opponent's half.\n"
        "**Neutral pawns** step forward one cell along a line, or jump forward over their own"
        " pawns (several jumps in a row). A neutral pawn on the opponent's back row never "
        "moves again as a neutral (no step, no capture), but it may still receive a marble.\n"
        "**Garnet pawns** (the corner pawns, carrying a marble) slide any distance along one "
        "line, forwards or backwards, over empty cells only.\n"
        "**Handing a marble on** (a move): the garnet pawn gives its marble to one of your "
        "neutral pawns, which becomes the garnet pawn. When both pawns stand in your own "
        "half, anywhere goes; if either stands in the opponent's half, they must be joined "
        "by a line.\n"
        "**Captures are mandatory** (choose freely among them): jump an enemy pawn onto the "
        "empty cell beyond. A neutral pawn jumps a pawn next to it and must go on capturing "
        "while it can, in any direction. A garnet pawn crosses any number of empty cells "
        "along a line, jumps one enemy pawn and lands just beyond it. After a jump along a "
        "yellow line it must go on while it can, along yellow lines only; after a jump along "
        "a black line it may stop, or go straight on along the same line.\n"
        "**Garnet cell e8.** A neutral pawn on e8 (either side's) turns every yellow line "
        "black for both players while it stays. A garnet pawn arriving on e8 makes all its "
        "side's pawns immune during the opponent's next move; on its owner's next turn the "
        "marble must leave e8 (move off or hand it on; if it cannot, it is lost: `e8>`), and "
        "it may come back one turn later at the earliest.\n"
        "**End.** Capture every enemy pawn, or leave your opponent without a move. Draw when "
        "no neutral pawn is left, or after 40 moves in a row without a capture or a neutral "
        "move. Lost both garnet pawns? You may stop (`/resign`).\n"
        "**Notation.** `c3-d4` step or slide, `c3xe5xc7` capture, `a1>c3` marble handed on."
    )
    seat_badges = ("🔴", "🔵")  # the renderer draws seat 0 red, seat 1 blue (granat.md)
    seat_colours = (discord.Colour.from_rgb(215, 38, 61), discord.Colour.from_rgb(29, 79, 168))

    # -- texts ---------------------------------------------------------------------------

    def status(self, table: Table[GranatState]) -> str:
        state = table.state
        view = state.view(None)
        parts = [ngettext("{badge} {name}: {n} pawn ({garnets} garnet)",
                          "{badge} {name}: {n} pawns ({garnets} garnet)", p["pawns"]).format(
            badge=self.seat_badges[p["seat"]], name=table.names[p["seat"]], n=p["pawns"],
            garnets=p["garnet_pawns"]) for p in view["players"]]
        parts.append(_("quiet moves {count}/{limit}").format(
            count=view["quiet_moves"], limit=view["quiet_moves_for_draw"]))
        return " · ".join(parts)

    def who(self, table: Table[GranatState], seat: int) -> str:
        """`🔴 **Alice**`: the badge and name of a seat."""
        return f"{self.seat_badge(seat)} **{marked_names(table)[seat]}**"

    def describe(self, table: Table[GranatState], move: NewMove) -> str:
        state = table.state
        if move.seat is None or not move.kind.changes_the_board:  # chance, seat events
            if move.kind is LogKind.RESIGN and move.seat is not None \
                    and state.may_stop_early(move.seat):
                return _("{who} stopped the game, having lost both garnet pawns.").format(
                    who=self.who(table, move.seat))
            return super().describe(table, move)
        words = state.last_description if move.move == state.last_move else None
        return self._played(table, move, said(description_why(words)) if words else None)

    def _played(self, table: Table[GranatState], move: NewMove, words: str | None) -> str:
        """`🔴 **Ann** played `c3-d4` (the only legal move): neutral pawn c3 steps to d4.`"""
        assert move.seat is not None
        forced = move.kind is LogKind.FORCED
        if words:
            template = (_("{who} played {move} (the only legal move): {words}.") if forced
                        else _("{who} played {move}: {words}."))
        else:
            template = (_("{who} played {move} (the only legal move).") if forced
                        else _("{who} played {move}."))
        return template.format(who=self.who(table, move.seat), move=f"`{move.move}`",
                               words=words)

    def summarize(self, table: Table[GranatState], moves: Sequence[NewMove]) -> list[str]:
        """One line per move; a move followed by others (a forced reply) is told from its
        notation and the board now, as the state only keeps the last move's words."""
        lines = []
        for index, move in enumerate(moves):
            seat, words = move.seat, None
            if index < len(moves) - 1 and move.kind in (LogKind.PLAYER, LogKind.FORCED):
                words = past_words(table.state, moves, index)
            if words is None or seat is None:
                lines.append(self.describe(table, move))
                continue
            lines.append(self._played(table, move, words))
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
            lines.append((_("🛡️ {who}'s garnet pawn on e8 protects every Red pawn during this "
                            "move.") if protected == 0 else
                          _("🛡️ {who}'s garnet pawn on e8 protects every Blue pawn during this "
                            "move.")).format(who=self.who(table, protected)))
        if state.must_leave_garnet_cell():
            lines.append(_("💎 {who}'s garnet pawn on e8 must leave now (move off or hand the "
                           "marble on).").format(who=self.who(table, mover)))
        if state.capture_due():
            lines.append(_("⚔️ {who} must capture this move.").format(who=self.who(table, mover)))
        if not state.yellow_lines_active():
            lines.append(_("⬛ A neutral pawn stands on e8: the yellow lines count as black."))
        for seat in (0, 1):
            if state.may_stop_early(seat):
                lines.append((_("{who} (Red) has lost both garnet pawns and may stop: "
                                "`/resign`.") if seat == 0 else
                              _("{who} (Blue) has lost both garnet pawns and may stop: "
                                "`/resign`.")).format(who=self.who(table, seat)))
        return lines

    def result_text(self, table: Table[GranatState], result: Result) -> str:
        names = marked_names(table)
        state = table.state
        if result.reason == EndReason.RESIGNED:
            loser = next(s for s in (0, 1) if s not in result.winners)
            winner_name = names[1 - loser]
            template = (_("{loser} stopped after losing both garnet pawns: {badge} {winner} "
                          "wins.") if state.may_stop_early(loser)
                        else _("{loser} resigned: {badge} {winner} wins."))
            return template.format(loser=names[loser], badge=self.seat_badge(1 - loser),
                                   winner=winner_name)
        if result.reason in (EndReason.TIMEOUT, EndReason.AGREED):
            return super().result_text(table, result)
        if len(result.winners) == 1:
            winner = result.winners[0]
            loser = 1 - winner
            whys = {
                EndReason.CAPTURED_ALL: (N_("{badge} {name} wins: every Red pawn is taken!"),
                                         N_("{badge} {name} wins: every Blue pawn is taken!")),
                EndReason.NO_MOVES: (N_("{badge} {name} wins: Red has no legal move!"),
                                     N_("{badge} {name} wins: Blue has no legal move!")),
            }.get(result.reason)
            template = _(whys[loser]) if whys else _("{badge} {name} wins: {reason}!")
            return template.format(badge=self.seat_badge(winner), name=names[winner],
                                   reason=result.reason)
        if all(p is None or p.garnet for p in state.board):
            return _("Draw: no neutral pawn is left on either side.")
        return _("Draw: 40 moves in a row without a capture or a neutral pawn moving.")

    # -- the board ----------------------------------------------------------------------------

    def board_items(self, table: Table[GranatState]) -> list[BoardItem]:
        state = table.state
        moves = self.offered(state, None)
        mover = state.current_player or 0
        name = table.names[mover]
        if moves is not None:  # the moves themselves, without a pawn menu
            placeholder = (_("{name} must capture: choose the capture…") if state.capture_due()
                           else _("{name}, choose your move…")).format(name=name)
            return self._move_selects(table, state, moves, MOVE_ACTIONS, None, placeholder)
        options = []
        for cell in state.movable_pawns()[:SELECT_LIMIT]:
            pawn = state.pawn_at(cell)
            pawn_moves = state.moves_of(cell)
            kind = _("garnet pawn") if pawn and pawn.garnet else _("neutral pawn")
            captures = sum(1 for m in pawn_moves if m.kind is MoveKind.CAPTURE)
            detail = (ngettext("{n} capture", "{n} captures", captures).format(n=captures)
                      if captures else ngettext("{n} move", "{n} moves", len(pawn_moves)).format(
                          n=len(pawn_moves)))
            options.append(discord.SelectOption(
                label=_clip(f"{cell} · {kind}"), value=str(cell),
                emoji="💎" if pawn and pawn.garnet else None, description=_clip(detail)))
        placeholder = (_("{name} must capture: choose the pawn…") if state.capture_due()
                       else _("{name}, choose a pawn to move…")).format(name=name)
        return [GameSelect(table.id, table.ply, "pawn", options=options,
                           placeholder=placeholder, row=0)]

    @staticmethod
    def offered(state: GranatState, pawn: str | None) -> list[GranatMove] | None:
        """The moves one set of menus offers, captures first: every legal move when they fit
        in the menus a message holds (`pawn` None), else the moves of `pawn`; None when the
        board must ask for a pawn first."""
        legal = sorted(state.legal_moves(), key=lambda m: KIND_ORDER[m.kind])
        if pawn is None:
            return legal if len(chunked(legal)) <= len(MOVE_ACTIONS) else None
        return [m for m in legal if str(m.start) == pawn]

    def _move_selects(
        self, table: Table[GranatState], state: GranatState, moves: Sequence[GranatMove],
        actions: Sequence[str], chosen: GranatMove | None, placeholder: str,
    ) -> list[BoardItem]:
        """`moves` in menus of at most 25, a pawn's moves kept together where they fit, one
        action per menu (custom_ids must differ within a message)."""
        chunks = chunked(moves)
        items: list[BoardItem] = []
        for row, (action, chunk) in enumerate(zip(actions, chunks, strict=False)):
            options = [discord.SelectOption(
                label=_clip(str(m)), value=str(m), default=m == chosen,
                description=_clip(said(state.describe_why(m)))) for m in chunk]
            pawns = list(dict.fromkeys(str(m.start) for m in chunk))
            text = placeholder if len(chunks) == 1 else ngettext(
                "{n} pawn: {cells}", "{n} pawns: {cells}", len(pawns)).format(
                    n=len(pawns), cells=", ".join(pawns))
            items.append(GameSelect(table.id, table.ply, action, options=options,
                                    placeholder=_clip(text, 150), row=row))
        return items

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
            moves = self.offered(state, cell) or []
            if not moves:
                raise Refusal(_("The pawn on {cell} has no legal move now.").format(cell=cell))
            chosen = moves[0] if len(moves) == 1 else None
            content, view, image = await self._composer(table, moves, chosen)
            await interaction.response.send_message(content, view=view,
                                                    files=[image] if image else [],
                                                    ephemeral=True)
        elif action in MOVE_ACTIONS:
            table.seat_to_act(interaction.user.id, expected_ply=act.ply)
            move = self._legal(state, values[0])
            content, view, image = await self._composer(table, self._menu_of(state, move), move)
            await interaction.response.send_message(content, view=view,
                                                    files=[image] if image else [],
                                                    ephemeral=True)
        elif action in PICK_ACTIONS:
            table.seat_to_act(interaction.user.id, expected_ply=act.ply)
            move = self._legal(state, values[0])
            content, view, image = await self._composer(table, self._menu_of(state, move), move)
            await interaction.response.edit_message(content=content, view=view,
                                                    attachments=[image] if image else [])
        elif action == "play":
            await play_from_panel(interaction, table, arg, act.ply)
        elif action == "cancel":
            await close_panel(interaction, _("Move cancelled: choose again on the board."))
        else:
            raise UnknownAction(_("This Granat control is no longer in use ({action}).").format(
                action=repr(action)))

    def _menu_of(self, state: GranatState, move: GranatMove) -> list[GranatMove]:
        """The moves the composer offers next to `move`: the board's, or its pawn's."""
        return self.offered(state, None) or self.offered(state, str(move.start)) or [move]

    @staticmethod
    def _legal(state: GranatState, text: str) -> GranatMove:
        """The legal move written `text` (IllegalMove with the engine's reason otherwise)."""
        return state.clone().apply(text)  # a copy: only the check matters here

    async def _composer(
        self, table: Table[GranatState], moves: Sequence[GranatMove], chosen: GranatMove | None
    ) -> tuple[str, discord.ui.View, discord.File | None]:
        """The private message that builds a move: the moves, a preview, Confirm."""
        state = table.state
        lines = []
        if chosen is None:
            pawn = state.pawn_at(moves[0].start)
            count = len(moves)
            lines.append((ngettext("**Your garnet pawn on {cell}**: {n} legal move. Choose one "
                                   "from the menu.",
                                   "**Your garnet pawn on {cell}**: {n} legal moves. Choose one "
                                   "from the menu.", count) if pawn and pawn.garnet else
                          ngettext("**Your neutral pawn on {cell}**: {n} legal move. Choose one "
                                   "from the menu.",
                                   "**Your neutral pawn on {cell}**: {n} legal moves. Choose one "
                                   "from the menu.", count)).format(cell=moves[0].start, n=count))
        else:
            lines.append(_("**{move}**: {words}.").format(move=chosen,
                                                         words=said(state.describe_why(chosen))))
            lines.append(_("Check the preview, then **Confirm**."))
        if state.capture_due():
            lines.append(_("A capture is due, so only captures are offered."))
        view = discord.ui.View(timeout=None)
        if len(moves) > 1:  # never a menu of one entry
            for item in self._move_selects(table, state, moves, PICK_ACTIONS, chosen,
                                           _("Choose another move…") if chosen else
                                           _("Choose a move…")):
                view.add_item(item)
        if len(moves) > SELECT_LIMIT * len(PICK_ACTIONS):
            lines.append(_("More moves than the menus can hold: type the others with `/move`."))
        if chosen is not None:
            view.add_item(GameButton(table.id, table.ply, "play", str(chosen),
                                     label=_("Confirm"), emoji="✅", row=4,
                                     style=discord.ButtonStyle.success))
        view.add_item(GameButton(table.id, table.ply, "cancel", "", label=_("Cancel"),
                                 emoji="✖️", row=4, style=discord.ButtonStyle.secondary))
        image = None
        if chosen is not None:
            png = await table.draw(state.view(None), str(chosen), preview=True)
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


def chunked(moves: Sequence[GranatMove]) -> list[list[GranatMove]]:
    """`moves` cut into menus of at most 25, keeping each pawn's moves in one menu where they
    fit, pawns in board order and captures first within a pawn."""
    by_pawn: dict[str, list[GranatMove]] = {}
    for move in moves:
        by_pawn.setdefault(str(move.start), []).append(move)
    chunks: list[list[GranatMove]] = []
    for pawn_moves in by_pawn.values():
        if chunks and len(chunks[-1]) + len(pawn_moves) <= SELECT_LIMIT:
            chunks[-1] += pawn_moves
            continue
        chunks += [pawn_moves[i:i + SELECT_LIMIT]
                   for i in range(0, len(pawn_moves), SELECT_LIMIT)]
    return chunks


def past_words(state: GranatState, moves: Sequence[NewMove], index: int) -> str | None:
    """Words for `moves[index]`, which later moves followed: from its notation (captures are
    geometry) and the board now, naming the pawn's kind only when no later move touched the
    cell it went to. None for what cannot be read as a move."""
    try:
        move = parse_notation(moves[index].move)
        touched = set()
        for later in moves[index + 1:]:
            if later.seat is None:
                continue
            after = parse_notation(later.move)
            touched |= {*after.cells, *state.captured_cells(after)}
        taken = state.captured_cells(move)
    except IllegalMove:
        return None
    if move.kind is MoveKind.LOSE_MARBLE:
        return _("the garnet pawn on e8 could not leave the garnet cell: its marble is lost")
    cells = {"start": move.start, "end": move.end}
    if move.kind is MoveKind.MARBLE:
        return _("garnet pawn {start} hands its marble to {end}").format(**cells)
    pawn = None if move.end in touched else state.pawn_at(move.end)
    garnet = pawn.garnet if pawn is not None and pawn.seat == moves[index].seat else None
    if move.kind is MoveKind.CAPTURE:
        template = {True: N_("garnet pawn {start} captures {count}: {taken} (landing on {end})"),
                    False: N_("neutral pawn {start} captures {count}: {taken} (landing on "
                              "{end})"),
                    None: N_("pawn {start} captures {count}: {taken} (landing on {end})")}[garnet]
        return _(template).format(**cells, count=len(taken), taken=", ".join(map(str, taken)))
    if garnet:
        return _("garnet pawn {start} slides to {end}").format(**cells)
    if garnet is False and len(move.cells) == 2 and is_linked(move.start, move.end):
        return _("neutral pawn {start} steps to {end}").format(**cells)
    if garnet is False:
        count = len(move.cells) - 1
        return ngettext("neutral pawn {start} jumps over {n} own pawn to {end}",
                        "neutral pawn {start} jumps over {n} own pawns to {end}", count).format(
            **cells, n=count)
    return _("pawn {start} moves to {end}").format(**cells)
