"""Replays: a stored game's positions rebuilt from its move log, drawn as an animated GIF."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engines import GAMES
from renderers import render
from renderers.animation import MAX_FRAMES, animate, sample_indices
from storage import GameRecord, MoveKind, MoveRecord


@dataclass(frozen=True)
class Position:
    """One frame of a replay: the spectator's view after a move, and the move to highlight."""

    view: dict[str, Any]
    highlight: str | None


def replay_positions(record: GameRecord, moves: Sequence[MoveRecord]) -> list[Position]:
    """The start position, then the position after each logged move (resignations skipped)."""
    state = GAMES[record.game].new_state(len(record.seats), options=record.options or None)
    positions = [Position(state.view(None), None)]
    for move in moves:
        if not move.kind.changes_the_board:
            continue
        state.apply(move.move)
        shown = move.move if move.kind in (MoveKind.PLAYER, MoveKind.FORCED) else None
        positions.append(Position(state.view(None), shown))
    return positions


def replay_gif(
    record: GameRecord, moves: Sequence[MoveRecord], *, max_frames: int = MAX_FRAMES
) -> bytes:
    """The game as a looping GIF (long games sampled to `max_frames`, the end held)."""
    positions = replay_positions(record, moves)
    names = [seat.display_name for seat in record.seats]
    frames = [render(positions[i].view, positions[i].highlight, names=names)
              for i in sample_indices(len(positions), max_frames)]
    return animate(frames)
