"""Replays: a stored game's positions rebuilt from its move log, drawn as a GIF or one by one.

A replay shows every decision: the start position, then one position per move a player
chose, numbered. The bot's automatic steps (chance outcomes, forced moves) are merged into
the decision they follow, as the live board showed them; so the last position is always
the final one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.ai_players import shown_name
from bot.painter import draw_replay
from engines import GAMES, EndReason
from i18n import _, current_language, ngettext
from renderers.animation import MAX_WIDTH, FittedAnimation
from storage import GameRecord, GameStatus, MoveKind, MoveRecord, standing_moves

SHOWN_KINDS = (MoveKind.PLAYER, MoveKind.FORCED)
"""Moves written on a frame and highlighted; chance outcomes are never written (a card drawn
may be secret)."""


@dataclass(frozen=True)
class Position:
    """One position of a replay: the spectator's view, the move to highlight, what led here."""

    view: dict[str, Any]
    highlight: str | None
    number: int = 0
    """The decision this position follows (0: the start)."""
    move: str = ""
    """`Alice: b2:NNE`, and any forced moves after it (empty at the start)."""


def replay_positions(record: GameRecord, moves: Sequence[MoveRecord]) -> list[Position]:
    """The start position, then the position after each logged move that stands
    (resignations and what was taken back skipped)."""
    state = GAMES[record.game].new_state(len(record.seats), options=record.options or None)
    positions = [Position(state.view(None), None)]
    for move in standing_moves(moves):
        if not move.kind.changes_the_board:
            continue
        state.apply(move.move)
        shown = move.move if move.kind in SHOWN_KINDS else None
        positions.append(Position(state.view(None), shown))
    return positions


def _name(record: GameRecord, seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(record.seats):
        return "?"
    player = record.seats[seat]
    return shown_name(player.user_id, player.display_name)


def _described(record: GameRecord, decision: MoveRecord, automatic: Sequence[MoveRecord]) -> str:
    """`Alice: b2:NNE`, then `· Bob (forced): j14` for each forced move that followed."""
    parts = [f"{_name(record, decision.seat)}: {decision.move}"]
    parts += [_("{name} (forced): {move}").format(name=_name(record, m.seat), move=m.move)
              for m in automatic if m.kind is MoveKind.FORCED]
    return " · ".join(parts)


def decision_groups(
    moves: Sequence[MoveRecord],
) -> list[tuple[MoveRecord | None, list[MoveRecord]]]:
    """Each player decision that stands (not taken back) with the automatic moves (chance,
    forced) after it; first, the automatic moves before any decision (with None)."""
    groups: list[tuple[MoveRecord | None, list[MoveRecord]]] = [(None, [])]
    for move in standing_moves(moves):
        if not move.kind.changes_the_board:
            continue
        if move.kind is MoveKind.PLAYER:
            groups.append((move, []))
        else:
            groups[-1][1].append(move)
    return groups


def move_list_lines(record: GameRecord, moves: Sequence[MoveRecord]) -> list[str]:
    """`1. Alice: b2:NNE`, one line per decision with the forced moves after it, then how
    the game ended: what a spectator saw, never a chance outcome (a card may be secret)."""
    lines = [f"{number}. {_described(record, decision, automatic)}"
             for number, (decision, automatic) in enumerate(decision_groups(moves))
             if decision is not None]
    return [*lines, outcome_text(record)]


def decision_positions(record: GameRecord, moves: Sequence[MoveRecord]) -> list[Position]:
    """The start, then one position per player decision (numbered from 1).

    Chance outcomes and forced moves are applied with the decision they follow (those
    before the first decision with the start), so the last position is the final one.
    The highlight is the last move a player made or the bot made for them, as on the board.
    """
    state = GAMES[record.game].new_state(len(record.seats), options=record.options or None)
    positions = []
    for number, (decision, automatic) in enumerate(decision_groups(moves)):
        applied = ([] if decision is None else [decision]) + automatic
        for move in applied:
            state.apply(move.move)
        shown = [m.move for m in applied if m.kind in SHOWN_KINDS]
        positions.append(Position(
            state.view(None), shown[-1] if shown else None, number,
            "" if decision is None else _described(record, decision, automatic)))
    return positions


def outcome_text(record: GameRecord) -> str:
    """How the game ended (`Alice won`, `Draw`, `aborted`), or `still running`."""
    if record.status is GameStatus.ABORTED:
        return _("aborted")
    if record.status is GameStatus.RUNNING or record.result is None:
        return _("still running")
    winners = [_name(record, seat) for seat in record.result.get("winners") or []]
    if len(winners) == 1:
        return _("{name} won").format(name=winners[0])
    if winners and len(winners) < len(record.seats):
        return _("{names} won").format(names=and_join(winners))
    if record.result.get("reason") == EndReason.AGREED:
        return _("Draw by agreement")
    return _("Draw")


def and_join(names: Sequence[str]) -> str:
    """`Alice`, `Alice and Bob`, `Alice and Bob and Carol` in the current language."""
    text = names[0] if names else ""
    for name in names[1:]:
        text = _("{first} and {second}").format(first=text, second=name)
    return text


def moves_text(count: int) -> str:
    """`1 move`, `83 moves`."""
    return ngettext("{n} move", "{n} moves", count).format(n=count)


def gif_caption(position: Position, total: int, record: GameRecord) -> str:
    """The strip under a GIF frame: `12. Alice: b2:NNE`, the outcome added on the last."""
    if position.number == 0:
        text = _("Start · {moves}").format(moves=moves_text(total))
    else:
        text = f"{position.number}. {position.move}"
    if position.number == total:
        text += f" · {outcome_text(record)}"
    return text


def viewer_caption(position: Position, total: int, record: GameRecord) -> str:
    """`Move 12 of 83 · Alice: b2:NNE`, the outcome added on the last position."""
    if position.number == 0:
        text = _("Start position · {moves}").format(moves=moves_text(total))
    else:
        text = _("Move {number} of {total} · {move}").format(
            number=position.number, total=total, move=position.move)
    if position.number == total:
        text += f" · {outcome_text(record)}"
    return text


def seat_names(record: GameRecord) -> list[str]:
    """The players' names, by seat."""
    return [shown_name(seat.user_id, seat.display_name) for seat in record.seats]


@dataclass(frozen=True)
class ReplayPictures:
    """What a replay GIF is drawn from, as plain data for a render worker: each decision's
    view and highlight, its caption (in the current language) and the players' names."""

    pictures: list[tuple[dict[str, Any], str | None]]
    captions: list[str]
    names: list[str]


def replay_pictures(record: GameRecord, moves: Sequence[MoveRecord]) -> ReplayPictures:
    """The game's decisions as a GIF's pictures and captions."""
    positions = decision_positions(record, moves)
    total = len(positions) - 1
    return ReplayPictures([(position.view, position.highlight) for position in positions],
                          [gif_caption(position, total, record) for position in positions],
                          seat_names(record))


def replay_gif(
    record: GameRecord, moves: Sequence[MoveRecord], *, max_width: int = MAX_WIDTH,
    max_frames: int | None = None,
) -> bytes:
    """The game as a looping GIF, one captioned frame per decision, the end held.

    `max_frames` samples the decisions (first and last kept): a last resort for a game too
    long to upload whole.
    """
    return fitting_gif(record, moves, limit=None, max_width=max_width,
                       max_frames=max_frames).data


def fitting_gif(
    record: GameRecord, moves: Sequence[MoveRecord], *, limit: int | None,
    max_width: int = MAX_WIDTH, max_frames: int | None = None,
) -> FittedAnimation:
    """The replay GIF at most `limit` bytes, drawn here (see `bot.painter.draw_replay`, which
    the bot runs in a render worker): narrower if need be, sampled only as a last resort."""
    shown = replay_pictures(record, moves)
    return draw_replay(shown.pictures, shown.captions, shown.names, limit=limit,
                       language=current_language().value, max_width=max_width,
                       max_frames=max_frames)
