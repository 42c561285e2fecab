"""`standing_moves`: the log without what was taken back, whatever the chain of take-backs."""

from __future__ import annotations

from datetime import UTC, datetime

from storage import MoveKind, MoveRecord, standing_moves

NOW = datetime(2026, 11, 27, tzinfo=UTC)


def log(*lines: tuple[MoveKind, str]) -> list[MoveRecord]:
    """A move log of these (kind, move) lines, numbered from ply 1."""
    return [MoveRecord(ply, 0, 100, kind, move, NOW)
            for ply, (kind, move) in enumerate(lines, start=1)]


P, T = MoveKind.PLAYER, MoveKind.TAKEBACK


def test_a_log_without_take_backs_stands_whole() -> None:
    moves = log((P, "a"), (MoveKind.CHANCE, "b"), (P, "c"))
    assert standing_moves(moves) == moves


def test_a_take_back_drops_the_lines_after_the_one_it_names() -> None:
    moves = log((P, "a"), (P, "b"), (P, "c"), (T, "1"), (P, "d"))
    assert [m.move for m in standing_moves(moves)] == ["a", "1", "d"]


def test_a_second_take_back_can_go_behind_the_first() -> None:
    moves = log((P, "a"), (P, "b"), (P, "c"), (T, "2"), (T, "1"), (P, "d"), (P, "e"),
                (T, "6"))
    assert [m.move for m in standing_moves(moves) if m.kind is P] == ["a", "d"]
