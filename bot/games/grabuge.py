"""Le Grabuge in Discord: the bot plays every forced card; buttons ask only the real choices.

A real choice is where to keep a card that cannot go on the tableau (`keep N`) or which
reserve card to play when several can go (`reserve N`): one button per reserve column,
labelled with its last card, right under the board. Everything else (cards turned, forced
plays) is applied by the table and summed up here, turn by turn, from the engine's log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.components import GameAction, GameButton
from bot.errors import UnknownAction
from bot.games.base import AUTOCOMPLETE_LIMIT, BoardItem, GameUI, Table, marked_names
from bot.games.common import play_now, small_number
from bot.replies import Interaction
from engines import EndReason, IllegalMove, Result
from engines.grabuge import (
    GRABUGE,
    RANK_OF,
    RESERVE_COLUMNS,
    GrabugeState,
    card_label,
    no_pile_shows,
    parse_notation,
)
from i18n import N_, _, ngettext
from storage import MoveKind, NewMove

SUMMARY_LIMIT = 3300
"""Characters of turn summary per board: the embed description holds 4096, and the options,
the prompt, the scores and the 'to play' line need the rest."""

LINE_LIMIT = 900
"""Characters of one turn's line before it is cut (a long 8-deck cascade)."""

ACTIONS = {"keep": "keep", "reserve": "reserve"}
"""Component actions, each the engine move it plays with the column as argument."""

SEAT_ENDINGS = (MoveKind.RESIGN, MoveKind.DRAW)
"""Logged moves that end the game from a seat, outside the engine's turns (said as such)."""


@dataclass
class _Segment:
    """The events of one turn that belong to the action being summed up."""

    turn: int
    seat: int | None
    events: list[dict[str, Any]] = field(default_factory=list)
    partial: bool = False
    """True when the turn began before this action (the line then continues it)."""


class GrabugeUI(GameUI[GrabugeState]):
    """Board: one button per reserve column when there is a choice; everything else is forced."""

    game_id = "grabuge"
    pitch = N_(
        "A 19th-century two-player patience: build shared piles from Ace to King and win them"
        " with the King."
    )
    rules = N_(
        "**Material.** Two 52-card decks (4, 6 or 8 with the `decks` option). Each player has"
        " a talon and a grabuge of 8 cards, top card face up, and up to 4 reserve columns.\n"
        "**Piles.** Start with an Ace, build up one rank at a time, suits ignored. Whoever "
        "plays the King wins the pile (a *paquet*).\n"
        "**Your turn.** First play every card you can from your grabuge (it always comes "
        "first), then from your reserve. Then turn four cards from your talon: each one that "
        "can go on a pile must; the others go on your reserve columns, where you choose.\n"
        "When your talon is empty, your grabuge becomes your talon.\n"
        "**Score.** Paquets won, +2 for the first to empty their grabuge (before it became a "
        "talon), +1 per five cards fewer left at the end. Most paquets wins."
    )

    # -- texts -----------------------------------------------------------------------------

    def _who(self, table: Table[GrabugeState], seat: int) -> str:
        return f"{self.seat_badge(seat)} **{marked_names(table)[seat]}**"

    def status(self, table: Table[GrabugeState]) -> str:
        state = table.state
        parts = []
        for seat in (0, 1):
            grabuge = _("→ talon") if state.grabuge_became_talon[seat] else \
                str(state.grabuge_count(seat))
            parts.append(_("{badge} {name}: talon {talon}, grabuge {grabuge}, {paquets}").format(
                badge=self.seat_badges[seat], name=table.names[seat], talon=state.talon[seat],
                grabuge=grabuge, paquets=paquets_text(state.paquets(seat))))
        piles = len(state.piles)
        return " · ".join(parts) + " · " + ngettext("{n} pile", "{n} piles", piles).format(
            n=piles)

    def result_text(self, table: Table[GrabugeState], result: Result) -> str:
        if result.reason == EndReason.PAQUETS and result.scores:
            winner = result.winners[0]
            won, lost = int(result.scores[winner]), int(result.scores[1 - winner])
            return ngettext("{badge} {name} wins, {won} paquet to {lost}!",
                            "{badge} {name} wins, {won} paquets to {lost}!", won).format(
                badge=self.seat_badge(winner), name=marked_names(table)[winner], won=won,
                lost=lost)
        if result.reason == EndReason.DRAW and result.scores:
            each = int(result.scores[0])
            return ngettext("Draw: {n} paquet each.", "Draw: {n} paquets each.", each).format(
                n=each)
        return super().result_text(table, result)

    def describe(self, table: Table[GrabugeState], move: NewMove) -> str:
        if move.seat is None or move.kind in SEAT_ENDINGS:
            return super().describe(table, move)
        try:
            parsed = parse_notation(move.move)
        except IllegalMove:
            return super().describe(table, move)
        column = getattr(parsed, "column", None)
        template = {"keep": N_("{who} kept the card just turned on reserve column {column}."),
                    "reserve": N_("{who} played the last card of reserve column {column}."),
                    "grabuge": N_("{who} played the grabuge's top card."),
                    "pass": N_("{who} had nothing at all to do and passed."),
                    "drawn": N_("{who} played the card just turned.")}.get(move.move.split()[0])
        if template is None:
            return f"{self._who(table, move.seat)} {move.move}."
        return _(template).format(who=self._who(table, move.seat), column=column)

    def summarize(self, table: Table[GrabugeState], moves: Sequence[NewMove]) -> list[str]:
        """The action's turns, one line each, from the engine log; then scores or the prompt."""
        state = table.state
        played = [m for m in moves if m.kind not in SEAT_ENDINGS]
        lines = [self.describe(table, m) for m in moves if m.kind in SEAT_ENDINGS]
        if played:
            lines = self._turn_lines(table, state, played) + lines
        lines = _fit(lines, SUMMARY_LIMIT)
        if table.result() is None and not state.is_over():
            lines.append(self._prompt(table, state))
        elif state.is_over():
            lines += self._score_lines(table, state)
        return lines

    def _turn_lines(
        self, table: Table[GrabugeState], state: GrabugeState, moves: Sequence[NewMove]
    ) -> list[str]:
        segments, missing = _segments(state, moves)
        lines = []
        if missing:
            set_up = _set_up_replayed(state, missing)
            lines.append(self._head_line(table, missing) if set_up is None
                         else self._setup_line(table, set_up))
        for segment in segments:
            line = self._segment_line(table, segment)
            if line:
                lines.append(_cut(line, LINE_LIMIT))
        return lines

    def _head_line(self, table: Table[GrabugeState], moves: Sequence[NewMove]) -> str:
        """Moves whose log has rolled away (an action over three turns): told from notation."""
        seat = next((m.seat for m in moves if m.seat is not None), None)
        items, card = [], None
        for move in moves:
            if move.kind is MoveKind.CHANCE:
                card = move.move[5:] if move.move.startswith("card:") else None
                continue
            kind, _space, column = move.move.partition(" ")
            label = card_label(card) if card and kind in ("drawn", "keep") else _("a card")
            template = {"drawn": N_("{card} played"), "keep": N_("{card} → column {column}"),
                        "grabuge": N_("a card from the grabuge"),
                        "pass": N_("passed"),
                        "reserve": N_("a card from column {column}")}.get(kind)
            items.append(_(template).format(card=label, column=column) if template
                         else move.move)
            card = None
        who = self._who(table, seat) if seat is not None else "🎲"
        return _cut(_("{who}: {items}.").format(who=who, items=", ".join(items)),
                    LINE_LIMIT) if items else ""

    def _segment_line(self, table: Table[GrabugeState], segment: _Segment) -> str:
        if segment.seat is None:
            return self._setup_line(table, segment.events)
        clauses: list[str] = []
        items: list[tuple[str, str]] = []  # (group key, text) of the current clause
        crowns: list[str] = []
        extra: list[str] = []
        draw_prefix = ""

        def flush() -> None:
            nonlocal items, draw_prefix
            if items:
                compact = bool(draw_prefix) or (segment.partial and not clauses)
                clauses.append(draw_prefix + _join_items(items, compact))
            elif draw_prefix:
                clauses.append(draw_prefix.rstrip(": "))
            items, draw_prefix = [], ""

        for event in segment.events:
            kind = event["event"]
            if kind == "played":
                label = card_label(event["card"]) + ("👑" if event.get("crowned") else "")
                if event.get("crowned"):
                    crowns.append(card_label(event["card"]))
                source = event["from"]
                key = f"reserve {event.get('column')}" if source == "reserve" else source
                items.append((key, label))
            elif kind == "kept":
                items.append((f"kept {event['column']}", card_label(event["card"])))
            elif kind == "drew":
                flush()
                draw_prefix = _("drew {n}: ").format(n=event["count"])
            elif kind == "grabuge_to_talon":
                flush()
                cards = event["cards"]
                clauses.append(ngettext("the grabuge became the talon ({n} card)",
                                        "the grabuge became the talon ({n} cards)",
                                        cards).format(n=cards))
            elif kind == "grabuge_emptied":
                extra.append(_("emptied the grabuge first: **+2 paquets**") if event["bonus"]
                             else _("the grabuge is empty"))
            elif kind == "passed":
                extra.append(_("nothing at all to do: passed"))
            elif kind == "skipped":
                extra.append(_("({who} had nothing to do: turn skipped)").format(
                    who=self._who(table, event["seat"])))
        flush()
        if crowns:
            count = len(crowns)
            clauses.append(ngettext("crowned a pile with {cards} (**+{n} paquet**)",
                                    "crowned {n} piles with {cards} (**+{n} paquets**)",
                                    count).format(n=count, cards=", ".join(crowns)))
        clauses += extra
        if not clauses:
            return ""
        seat = segment.seat
        head = (_("{who} (continued): {clauses}.") if segment.partial
                else _("{who}'s turn: {clauses}."))
        return head.format(who=self._who(table, seat), clauses="; ".join(clauses))

    def _setup_line(self, table: Table[GrabugeState], events: Sequence[Mapping[str, Any]]) -> str:
        shown: dict[int, list[str]] = {0: [], 1: []}
        aces: dict[int, list[str]] = {0: [], 1: []}
        first = ""
        for event in events:
            if event["event"] == "turned":
                shown[event["seat"]].append(event["card"])
            elif event["event"] == "played":
                aces[event["seat"]].append(card_label(event["card"]))
            elif event["event"] == "first":
                first = (_("{who} starts (higher card).") if event["by"] == "cards"
                         else _("{who} starts (equal cards: the coin said so).")).format(
                    who=self._who(table, event["seat"]))
        parts = []
        for seat in (0, 1):
            tops = [c for c in shown[seat] if RANK_OF[c] != 1]
            who = self._who(table, seat)
            shows = (_("{who}'s grabuge shows **{card}**").format(who=who, card=card_label(
                tops[-1])) if tops else _("{who}'s grabuge shows no card").format(who=who))
            if aces[seat]:
                shows = _("{shows} ({aces} to the tableau)").format(
                    shows=shows, aces=", ".join(aces[seat]))
            parts.append(shows)
        return _("Set-up: {grabuges}. {first}").format(grabuges=", ".join(parts), first=first)

    def _prompt(self, table: Table[GrabugeState], state: GrabugeState) -> str:
        """What the player to move must choose now."""
        seat = state.current_player
        if seat is None or seat < 0:
            return ""
        who = self._who(table, seat)
        if state.decision() == "keep" and state.drawn:
            card = state.drawn
            why = no_pile_shows(card)
            text = (ngettext("{who} turned **{card}**: it cannot go on the tableau ({why}). "
                             "Choose a reserve column for it ({n} more to turn).",
                             "{who} turned **{card}**: it cannot go on the tableau ({why}). "
                             "Choose a reserve column for it ({n} more to turn).", state.hand)
                    if state.hand else
                    _("{who} turned **{card}**: it cannot go on the tableau ({why}). Choose a "
                      "reserve column for it (last of the four)."))
            return text.format(who=who, card=card_label(card), n=state.hand,
                               why=_(why.template).format(**why.params))
        cards = ", ".join(
            f"**{card_label(state.reserves[seat][group[0] - 1][-1])}** "
            f"({columns_text(group, lower=True)})"
            for group in column_groups(state, seat, "reserve"))
        return _("{who}: several reserve cards can go: {cards}. Choose which to play.").format(
            who=who, cards=cards)

    def _score_lines(self, table: Table[GrabugeState], state: GrabugeState) -> list[str]:
        lines = [_("**Paquets:**")]
        for seat in (0, 1):
            crowned = state.crowned[seat]
            bonus = state.paquets(seat) - crowned - state.leftover_paquets[seat]
            left = state.unplayed_cards(seat)
            won = ngettext("{n} pile won", "{n} piles won", crowned).format(n=crowned)
            cards = ngettext("{n} card left", "{n} cards left", left).format(n=left)
            lines.append(_("{who}: **{total}** = {won} + {bonus} grabuge bonus + {leftover} for "
                           "leftover cards ({left})").format(
                who=self._who(table, seat), total=state.paquets(seat), won=won, bonus=bonus,
                leftover=state.leftover_paquets[seat], left=cards))
        return lines

    # -- the board ---------------------------------------------------------------------------

    def board_items(self, table: Table[GrabugeState]) -> list[BoardItem]:
        state = table.state
        seat = state.current_player
        decision = state.decision()
        if seat is None or seat < 0 or decision not in ACTIONS:
            return []
        style = (discord.ButtonStyle.success if decision == "reserve"
                 else discord.ButtonStyle.primary)
        items: list[BoardItem] = []
        for group in column_groups(state, seat, decision):
            column = state.reserves[seat][group[0] - 1]
            last = card_label(column[-1]) if column else _("empty")
            items.append(GameButton(table.id, table.ply, decision, str(group[0]),
                                    label=f"{columns_text(group)} ({last})", style=style,
                                    row=0))
        return items

    def obvious_move(self, state: GrabugeState) -> str | None:
        """Keep or play on any column of the one group there is: the outcomes are the same.

        Columns holding the same ranks in the same order are interchangeable: no rule looks
        at a column's number (the engine only names them), and suits never matter for play
        (piles build on ranks, suits ignored). Keeping the card on one of them, or playing
        the last card of one, gives the same game up to swapping those columns.
        """
        seat = state.current_player
        decision = state.decision()
        if seat is None or seat < 0 or decision not in ACTIONS:
            return None
        groups = column_groups(state, seat, decision)
        return f"{ACTIONS[decision]} {groups[0][0]}" if len(groups) == 1 else None

    async def handle(
        self, interaction: Interaction, table: Table[GrabugeState], act: GameAction,
        values: list[str],
    ) -> None:
        action, arg = act.action, act.arg
        if action in ACTIONS:
            small_number(arg, N_("reserve column"), RESERVE_COLUMNS)
        if action not in ACTIONS:
            raise UnknownAction(_("This Le Grabuge control is no longer in use ({action}).")
                                .format(action=repr(action)))
        # The table posts the new board (and retires this one): nothing else to say.
        await play_now(interaction, table, f"{ACTIONS[action]} {arg}", act.ply)

    # -- typing ------------------------------------------------------------------------------

    def autocomplete(self, table: Table[GrabugeState], typed: str) -> list[str]:
        state = table.state
        if state.current_player is None or state.current_player < 0:
            return []
        wanted = " ".join(typed.lower().split())
        texts = [str(move) for move in state.legal_moves()]
        return [t for t in texts if t.startswith(wanted)
                or t.replace(" ", "").startswith(wanted.replace(" ", ""))][:AUTOCOMPLETE_LIMIT]


def column_groups(state: GrabugeState, seat: int, decision: str) -> list[list[int]]:
    """The columns a `keep` or `reserve` choice may name, grouped when interchangeable
    (the same ranks in the same order), in column order."""
    numbers = (state.playable_columns(seat) if decision == "reserve"
               else list(range(1, RESERVE_COLUMNS + 1)))
    groups: dict[tuple[int, ...], list[int]] = {}
    for number in numbers:
        ranks = tuple(RANK_OF[card] for card in state.reserves[seat][number - 1])
        groups.setdefault(ranks, []).append(number)
    return list(groups.values())


def columns_text(numbers: Sequence[int], *, lower: bool = False) -> str:
    """`Column 2`, `Column 2 or 3`, `Column 2, 3 or 4` (`column 2…` within a sentence)."""
    if len(numbers) == 1:
        template = N_("column {n}") if lower else N_("Column {n}")
        return _(template).format(n=numbers[0])
    template = N_("column {some} or {last}") if lower else N_("Column {some} or {last}")
    return _(template).format(some=", ".join(map(str, numbers[:-1])), last=numbers[-1])


# -- reading the engine's log --------------------------------------------------------------------


def _tied(event: Mapping[str, Any], previous: Sequence[Mapping[str, Any]]) -> bool:
    """True when `event` is the trace of one logged move (a player, forced or chance move)."""
    kind = event["event"]
    if kind == "turned":
        # The grabuge-turned-talon's face-up card is turned without a move.
        return not (len(previous) >= 2 and previous[-1]["event"] == "drew"
                    and previous[-2]["event"] == "grabuge_to_talon")
    if kind == "played":
        return bool(event["from"] != "setup")
    if kind == "first":
        return bool(event["by"] == "coin")
    return kind in ("kept", "passed")


def _segments(
    state: GrabugeState, moves: Sequence[NewMove]
) -> tuple[list[_Segment], list[NewMove]]:
    """The turns of the action made of `moves`, and its first moves whose log rolled away.

    The engine keeps the current and the previous turn's log. Each move leaves exactly one
    "tied" event, so counting them back from the end finds where the action began.
    """
    logs = [log for log in (state.previous_log, state.log) if log]
    flat: list[tuple[int, dict[str, Any]]] = []  # (log index, event)
    tied_at: list[int] = []
    events_so_far: list[dict[str, Any]] = []
    for index, log in enumerate(logs):
        for event in log["events"]:
            if _tied(event, events_so_far):
                tied_at.append(len(flat))
            events_so_far.append(event)
            flat.append((index, event))
    if len(tied_at) >= len(moves):
        start, missing = (tied_at[-len(moves)] if moves else len(flat)), []
    else:
        start, missing = 0, list(moves[: len(moves) - len(tied_at)])
    segments: list[_Segment] = []
    for position in range(start, len(flat)):
        index, event = flat[position]
        log = logs[index]
        if not segments or segments[-1].turn != log["turn"]:
            # The action began inside this turn when the turn has earlier events.
            partial = position == start > 0 and flat[position - 1][0] == index
            segments.append(_Segment(log["turn"], log["seat"], partial=partial))
        segments[-1].events.append(event)
    return segments, missing


def _set_up_replayed(
    state: GrabugeState, missing: Sequence[NewMove]
) -> list[dict[str, Any]] | None:
    """The set-up's events, replayed from its moves, when its log has rolled away before the
    game's first board (the first player's whole turn was forced); None otherwise.

    The engine keeps two turns' logs; a first board that comes after a forced first turn
    would otherwise not say how the grabuges were turned and who started, and why.
    """
    oldest = state.previous_log or state.log
    if oldest["turn"] != 1:  # the moves that rolled away are not the set-up's
        return None
    fresh = GRABUGE.new_state(2, state.options)
    try:
        for move in missing:
            fresh.apply(parse_notation(move.move))
    except IllegalMove:  # not the whole set-up after all: told from notation instead
        return None
    set_up = next((log for log in (fresh.previous_log, fresh.log)
                   if log is not None and log["turn"] == 0), None)
    return None if set_up is None else list(set_up["events"])


def _join_items(items: Sequence[tuple[str, str]], compact: bool) -> str:
    """`A♥, 2♣ from the grabuge, 7♠ → column 2`: consecutive cards of one source merged.

    Outside a draw of four, a cascade starts with its verb: `played 5♠ from column 3`.
    """
    groups: list[tuple[str, list[str]]] = []
    for key, text in items:
        if groups and groups[-1][0] == key:
            groups[-1][1].append(text)
        else:
            groups.append((key, [text]))
    words = []
    for key, cards in groups:
        joined = ", ".join(cards)
        column = key.split()[-1]
        if key == "drawn":
            template = N_("{card} played")
        elif key.startswith("kept"):
            template = N_("{card} → column {column}")
        elif key == "grabuge":
            template = N_("{cards} from the grabuge")
        else:
            template = N_("{cards} from column {column}")
        words.append(_(template).format(card=joined, cards=joined, column=column))
    text = ", ".join(words)
    # A cascade reads "played A♥, 2♣ from the grabuge, 5♠ from column 3".
    return text if compact or groups[0][0] in ("drawn", "kept") else _("played {cards}").format(
        cards=text)


def _cut(line: str, limit: int) -> str:
    """`line` cut at a comma before `limit` characters, with an ellipsis."""
    if len(line) <= limit:
        return line
    cut = line.rfind(", ", 0, limit - 2)
    return line[: cut if cut > 0 else limit - 2] + ", …"


def _fit(lines: list[str], limit: int) -> list[str]:
    """Keep the first line and as many of the last as fit; say how many turns were left out."""
    if sum(len(line) + 1 for line in lines) <= limit:
        return lines
    kept_tail: list[str] = []
    room = limit - len(lines[0]) - 60
    for line in reversed(lines[1:]):
        if len(line) + 1 > room:
            break
        kept_tail.insert(0, line)
        room -= len(line) + 1
    left_out = len(lines) - 1 - len(kept_tail)
    return [lines[0], ngettext("*… {n} more turn of automatic play …*",
                               "*… {n} more turns of automatic play …*", left_out).format(
                                   n=left_out), *kept_tail]


def paquets_text(count: int) -> str:
    """`1 paquet`, `3 paquets`."""
    return ngettext("{n} paquet", "{n} paquets", count).format(n=count)
