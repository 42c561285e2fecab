"""The board message: which move it highlights."""

from __future__ import annotations

from bot.board import EMBED_DESCRIPTION_LIMIT, fitted_log, last_shown_move
from storage import MoveKind, NewMove


def test_a_forced_reply_does_not_take_the_highlight_of_the_decision_before_it() -> None:
    moves = [NewMove(0, 10, MoveKind.PLAYER, "c3-d4"), NewMove(1, 20, MoveKind.FORCED, "e5xc3")]
    assert last_shown_move(moves) == "c3-d4"


def test_automatic_steps_alone_highlight_the_last_forced_move() -> None:
    moves = [NewMove(None, None, MoveKind.CHANCE, "6"), NewMove(1, 20, MoveKind.FORCED, "pass")]
    assert last_shown_move(moves) == "pass"
    assert last_shown_move([NewMove(None, None, MoveKind.CHANCE, "6")]) is None


def test_a_log_too_long_for_the_board_loses_its_oldest_lines_whole() -> None:
    lines = [f"**Card {n}** played on pile {n % 7}." for n in range(400)] + ["**Bob** to play."]
    description = fitted_log(lines)
    assert len(description) <= EMBED_DESCRIPTION_LIMIT
    shown = description.splitlines()
    assert shown[0] == "…"
    assert shown[1:] == lines[-len(shown) + 1:], "whole lines, the newest kept, in order"
    assert len("\n".join(["…", lines[-len(shown)], *shown[1:]])) > EMBED_DESCRIPTION_LIMIT, \
        "no line left out that would have fitted"


def test_the_options_line_stays_on_top_of_a_log_too_long() -> None:
    lines = ["*Options: decks 8*", *(f"**Card {n}** turned." for n in range(500)), "end"]
    shown = fitted_log(lines, kept_at_top=1).splitlines()
    assert shown[:2] == ["*Options: decks 8*", "…"]
    assert shown[-1] == "end"


def test_a_log_that_fits_is_shown_whole() -> None:
    lines = ["**Alice** played b2.", "**Bob** to play."]
    assert fitted_log(lines) == "**Alice** played b2.\n**Bob** to play."
