"""The board message: which move it highlights."""

from __future__ import annotations

from bot.board import last_shown_move
from storage import MoveKind, NewMove


def test_a_forced_reply_does_not_take_the_highlight_of_the_decision_before_it() -> None:
    moves = [NewMove(0, 10, MoveKind.PLAYER, "c3-d4"), NewMove(1, 20, MoveKind.FORCED, "e5xc3")]
    assert last_shown_move(moves) == "c3-d4"


def test_automatic_steps_alone_highlight_the_last_forced_move() -> None:
    moves = [NewMove(None, None, MoveKind.CHANCE, "6"), NewMove(1, 20, MoveKind.FORCED, "pass")]
    assert last_shown_move(moves) == "pass"
    assert last_shown_move([NewMove(None, None, MoveKind.CHANCE, "6")]) is None
