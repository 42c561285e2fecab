"""Granat: one test per rule of shared/rules/granat.md, built from small positions."""

from __future__ import annotations

import json

import pytest

from engines import granat
from engines.base import EndReason, IllegalMove
from engines.granat import (
    CELLS,
    END_CHECKS,
    GARNET_CELL,
    GRANAT,
    LINKS,
    START_POSITION,
    YELLOW_LINKS,
    GranatMove,
    GranatState,
    MoveKind,
    board_geometry,
    in_own_half,
    parse_cell,
)
from engines.grid import Cell


def at(text: str) -> GranatState:
    """A state from a position string."""
    state = GRANAT.from_position(text)
    assert isinstance(state, GranatState)
    return state


def moves(state: GranatState) -> list[str]:
    """The legal moves' notation, sorted."""
    return sorted(str(move) for move in state.legal_moves())


def refusal(state: GranatState, move: str) -> str:
    """The reason an illegal move is refused (the state must not change)."""
    before = state.dump()
    with pytest.raises(IllegalMove) as error:
        state.apply(move)
    assert state.dump() == before
    return str(error.value)


def cells(*names: str) -> set[Cell]:
    return {parse_cell(name) for name in names}


# -- the board --------------------------------------------------------------------------------


def test_board_has_68_lattice_cells_and_the_garnet_cell() -> None:
    lattice = {c for c in CELLS if (c.col + 1 + c.row + 1) % 2 == 0}
    assert len(lattice) == 68
    assert set(CELLS) - lattice == {GARNET_CELL} and str(GARNET_CELL) == "e8"
    for row in range(15):
        row_cells = sorted(str(c) for c in lattice if c.row == row)
        letters = "acegi" if row % 2 == 0 else "bdfh"
        assert row_cells == sorted(f"{letter}{row + 1}" for letter in letters)


def test_last_three_rows_on_each_side_hold_fourteen_cells() -> None:
    assert sum(1 for c in CELLS if c.row <= 2) == 14
    assert sum(1 for c in CELLS if c.row >= 12) == 14


def test_lines_are_every_diagonal_step_plus_the_garnet_cell_links() -> None:
    diagonal = {
        frozenset((a, b))
        for a in CELLS
        for b in CELLS
        if a != GARNET_CELL != b and abs(a.col - b.col) == 1 and abs(a.row - b.row) == 1
    }
    garnet_links = {pair for pair in LINKS if GARNET_CELL in pair}
    assert diagonal | garnet_links == LINKS
    linked = {c for pair in garnet_links for c in pair} - {GARNET_CELL}
    assert linked == cells("d8", "f8", "e7", "e9")
    straight = {tuple(map(str, line)) for line in granat.STRAIGHT_LINES if GARNET_CELL in line}
    assert straight == {("d8", "e8", "f8"), ("e7", "e8", "e9")}


def test_yellow_lines_are_the_four_corner_diagonals_crossing_at_e5_h8_e11_b8() -> None:
    yellow_cells: dict[Cell, int] = {}
    for line in granat.YELLOW_LINES:
        for name in line.split():
            yellow_cells[parse_cell(name)] = yellow_cells.get(parse_cell(name), 0) + 1
    assert {c for c, n in yellow_cells.items() if n > 1} == cells("e5", "h8", "e11", "b8")
    assert len(YELLOW_LINKS) == 32 and YELLOW_LINKS <= LINKS
    colours = [link["colour"] for link in board_geometry()["links"]]
    assert colours.count("yellow") == 32 and colours.count("black") == len(LINKS) - 32


def test_start_position_red_moves_first_with_garnet_pawns_on_the_corners() -> None:
    state = GRANAT.new_state(2)
    assert state.position() == START_POSITION
    assert state.current_player == 0
    garnets = {(p["cell"], p["seat"]) for p in state.view(None)["pawns"] if p["garnet"]}
    assert garnets == {("a1", 0), ("i1", 0), ("a15", 1), ("i15", 1)}
    assert [p["pawns"] for p in state.view(None)["players"]] == [14, 14]


def test_own_half_is_seven_rows_and_the_middle_row_belongs_to_neither() -> None:
    for seat, rows in ((0, range(1, 8)), (1, range(9, 16))):
        assert all(in_own_half(seat, c) == (c.row + 1 in rows) for c in CELLS)
    for name in ("b8", "d8", "e8", "f8", "h8"):
        assert not in_own_half(0, parse_cell(name)) and not in_own_half(1, parse_cell(name))


# -- neutral pawns ----------------------------------------------------------------------------


def test_neutral_pawn_steps_one_cell_forward_along_a_line() -> None:
    assert moves(at("0 R:c3 B:e13")) == ["c3-b4", "c3-d4"]
    assert moves(at("1 R:c3 B:e13")) == ["e13-d12", "e13-f12"]
    state = at("0 R:c3 B:e13")
    assert "goes backward" in refusal(state, "c3-b2")
    assert "neither a step along a line" in refusal(state, "c3-c5")
    assert "no pawn on d4 to jump over" in refusal(state, "c3-e5")


def test_forward_link_into_the_garnet_cell_counts_as_forward() -> None:
    assert "e7-e8" in moves(at("0 R:e7 B:a13"))
    assert "e9-e8" in moves(at("1 R:a3 B:e9"))
    state = at("0 R:d8 B:a13")
    assert moves(state) == ["d8-c9", "d8-e9"]
    assert "sideways" in refusal(state, "d8-e8")


def test_neutral_pawn_jumps_over_own_pawns_several_times_forward() -> None:
    state = at("0 R:c3,d4,f6 B:a13")
    assert {"c3-e5", "c3-e5-g7"} <= set(moves(state))
    state.apply("c3-e5-g7")
    assert state.pawn_at("g7") is not None and state.pawn_at("c3") is None
    assert "e7-e9" in moves(at("0 R:e7,e8 B:a13"))  # over e8 along the forward link
    assert "holds an enemy pawn" in refusal(at("0 R:c3,b4 B:e5,d4,a13"), "c3-e5")


def test_jumps_over_own_pawns_go_forward_only() -> None:
    state = at("0 R:c5,d4 B:a13")
    assert "c5-e3" not in moves(state)
    assert "goes backward" in refusal(state, "c5-e3")


def test_plain_step_is_not_combined_with_jumps() -> None:
    state = at("0 R:c3,e5 B:a13")
    assert "c3-d4" in moves(state) and "c3-d4-f6" not in moves(state)
    assert "cannot be combined" in refusal(state, "c3-d4-f6")
    assert "step cannot follow jumps" in refusal(at("0 R:c3,d4 B:a13"), "c3-e5-f6")


def test_neutral_pawn_on_the_opponent_back_row_can_no_longer_move() -> None:
    state = at("0 R:c15,e13 B:a1")
    assert state.moves_of("c15") == []
    assert "can no longer move" in refusal(state, "c15-b14")
    capture = at("0 R:c15,a3 B:d14,a13")
    assert moves(capture) == ["a3-b4"]
    assert "can no longer capture" in refusal(capture, "c15xe13")


def test_capture_chain_goes_on_after_reaching_the_opponent_back_row() -> None:
    state = at("0 R:c13 B:d14,f14,a1")
    assert moves(state) == ["c13xe15xg13"]
    assert "must go on" in refusal(state, "c13xe15")


def test_stuck_neutral_pawn_can_still_receive_a_marble() -> None:
    state = at("0 R:b14*,c15 B:a1")
    assert "b14>c15" in moves(state)
    state.apply("b14>c15")
    stuck_now_garnet = state.pawn_at("c15")
    assert stuck_now_garnet is not None and stuck_now_garnet.garnet


# -- garnet pawns -----------------------------------------------------------------------------


def test_garnet_pawn_slides_any_distance_forward_or_backward_on_one_line() -> None:
    state = at("0 R:e5* B:a13")
    ends = ["f6", "g7", "h8", "i9", "d6", "c7", "b8", "a9", "f4", "g3", "h2", "i1", "d4", "c3"]
    expected = {f"e5-{end}" for end in [*ends, "b2", "a1"]}
    assert set(moves(state)) == expected
    assert "a garnet pawn moves along one straight line" in refusal(state, "e5-f6-g7")
    assert "not on one straight line" in refusal(state, "e5-f8")


def test_garnet_pawn_never_passes_over_pawns() -> None:
    own = at("0 R:e5*,g7 B:a13")
    assert "e5-f6" in moves(own) and "e5-h8" not in moves(own)
    assert "never passes over its own pawns" in refusal(own, "e5-h8")
    enemy = at("0 R:e5*,g7 B:c3,b2,a13")
    assert "e5-d4" in moves(enemy)
    assert "only to capture it" in refusal(enemy, "e5-a1")


def test_garnet_pawn_uses_the_garnet_cell_links_like_any_line() -> None:
    assert {"e7-e8", "e7-e9"} <= set(moves(at("0 R:e7* B:a13")))
    assert {"d8-e8", "d8-f8"} <= set(moves(at("0 R:d8* B:a13")))


def test_garnet_cell_is_entered_and_left_only_through_its_links() -> None:
    state = at("0 R:d6* B:a13")
    assert not any(GARNET_CELL in move.cells for move in state.legal_moves())
    assert "only through its links" in refusal(state, "d6-e8")


# -- marbles ------------------------------------------------------------------------------------


def test_marble_passes_to_any_own_pawn_inside_the_own_half() -> None:
    state = at("0 R:a1*,i3,g5,d8 B:a13")
    assert {"a1>i3", "a1>g5"} <= set(moves(state))
    assert "a1>d8" not in moves(state)


def test_marble_in_the_opponent_half_needs_a_line_between_the_pawns() -> None:
    state = at("0 R:c7*,d8,a9 B:a13")
    assert "c7>d8" in moves(state)  # c7 is home, d8 on the middle row: joined, so allowed
    assert "not joined by a line" in refusal(state, "c7>a9")
    blue = at("1 R:a1 B:i15*,h8,b10")
    assert "i15>b10" in moves(blue) and "i15>h8" not in moves(blue)


def test_marble_makes_the_receiver_garnet_and_the_giver_neutral() -> None:
    state = at("0 R:a1*,i3 B:a13 5")
    state.apply("a1>i3")
    giver, receiver = state.pawn_at("a1"), state.pawn_at("i3")
    assert giver is not None and not giver.garnet
    assert receiver is not None and receiver.garnet
    assert state.quiet == 6


def test_marble_goes_only_from_a_garnet_pawn_to_an_own_neutral_pawn() -> None:
    state = GRANAT.new_state(2)
    assert "Blue's" in refusal(state, "a1>e13")
    assert "already a garnet pawn" in refusal(state, "a1>i1")
    assert "only a garnet pawn hands on" in refusal(state, "c3>e3")
    assert "no pawn on e5" in refusal(state, "a1>e5")


# -- captures -----------------------------------------------------------------------------------


def test_capture_is_mandatory() -> None:
    state = at("0 R:c3,a1* B:d4,a13")
    assert moves(state) == ["c3xe5"]
    assert "capturing is mandatory" in refusal(state, "c3-b4")
    assert "capturing is mandatory" in refusal(state, "a1>c3")


def test_player_chooses_freely_among_captures_with_no_majority_rule() -> None:
    state = at("0 R:c3,g3 B:d4,h4,h6,a13")
    assert moves(state) == ["c3xe5", "g3xi5xg7"]
    state.apply("c3xe5")
    assert state.last_captured == ["d4"]


def test_captured_pawns_leave_the_board_at_once() -> None:
    # the garnet pawn turns straight back and passes e5 (just emptied) and c3 (its start)
    state = at("0 R:c3* B:e5,b2,a13")
    assert moves(state) == ["c3xa1xf6", "c3xf6xa1"]
    state.apply("c3xf6xa1")
    assert state.pawn_at("e5") is None and state.pawn_at("b2") is None
    assert state.last_captured == ["e5", "b2"]


def test_neutral_pawn_captures_only_an_adjacent_pawn() -> None:
    state = at("0 R:c3 B:e5,a13")
    assert not state.capture_due()
    assert "too long" in refusal(state, "c3xf6")


def test_neutral_capture_chain_changes_direction_and_goes_backward() -> None:
    assert moves(at("0 R:c3 B:d4,f4,a13")) == ["c3xe5xg3"]
    loop = at("0 R:c3 B:d4,f4,f2,d2,a13")
    assert moves(loop) == ["c3xe1xg3xe5xc3", "c3xe5xg3xe1xc3"]


def test_neutral_capture_chain_must_continue_while_it_can() -> None:
    state = at("0 R:c3 B:d4,f4,a13")
    assert "the capture must go on" in refusal(state, "c3xe5")


def test_garnet_pawn_captures_from_a_distance_landing_just_beyond() -> None:
    assert moves(at("0 R:e1* B:b4,a13")) == ["e1xa5"]
    state = at("0 R:a1* B:c3,a13")
    assert moves(state) == ["a1xd4"]
    assert "lands on the cell just after it" in refusal(state, "a1xe5")
    assert not at("0 R:a1* B:d4,e5,a13").capture_due()  # the cell beyond must be empty


def test_yellow_capture_must_continue_and_may_turn_onto_another_yellow_line() -> None:
    state = at("0 R:a1* B:d4,d6,a13")
    assert moves(state) == ["a1xe5xc7"]
    assert "must go on while it can" in refusal(state, "a1xe5")


def test_yellow_capture_may_turn_straight_back() -> None:
    assert "c3xf6xa1" in moves(at("0 R:c3* B:e5,b2,a13"))


def test_yellow_capture_may_not_continue_along_a_black_line() -> None:
    state = at("0 R:a1* B:b2,b4,a13")
    assert moves(state) == ["a1xc3"]
    assert "may only go on along a yellow line" in refusal(state, "a1xc3xa5")


def test_black_capture_may_stop_or_go_straight_on() -> None:
    assert moves(at("0 R:e1* B:d2,b4,a13")) == ["e1xc3", "e1xc3xa5"]


def test_black_capture_may_not_turn() -> None:
    state = at("0 R:e1* B:d2,b4,d4,a13")
    assert moves(state) == ["e1xc3", "e1xc3xa5"]
    assert "turns" in refusal(state, "e1xc3xe5")


# -- the garnet cell ----------------------------------------------------------------------------


def test_pawn_on_the_garnet_cell_is_captured_from_a_link_to_the_opposite_link() -> None:
    assert moves(at("0 R:e7,d8 B:e8,a13")) == ["d8xf8", "e7xe9"]
    assert moves(at("0 R:e7* B:e8,a13")) == ["e7xe9"]


@pytest.mark.parametrize("neutral_side", ["R", "B"])
def test_neutral_pawn_on_the_garnet_cell_turns_yellow_lines_black(neutral_side: str) -> None:
    red, blue = ("a1*,e8", "d4,d6,a13") if neutral_side == "R" else ("a1*", "d4,d6,e8,a13")
    state = at(f"0 R:{red} B:{blue}")
    assert not state.yellow_lines_active() and not state.yellow_lines_active(1)
    assert moves(state) == ["a1xe5"]  # black now: it may stop, and may not turn at e5
    assert "turns" in refusal(state, "a1xe5xc7")


def test_garnet_pawn_arriving_on_the_garnet_cell_protects_its_side() -> None:
    assert moves(at("1 R:e7*,c5 B:d6,a13")) == ["d6xb4", "d6xf8"]
    state = at("0 R:e7*,c5 B:d6,a13")
    state.apply("e7-e8")
    assert state.protected_seat() == 0
    assert state.view(None)["garnet_cell"]["status"] == "protecting"
    assert moves(state) == ["a13-b12", "d6-e5"]
    assert "protected this move" in refusal(state, "d6xb4")


def test_garnet_pawn_arriving_by_marble_on_the_garnet_cell_protects_its_side() -> None:
    state = at("0 R:e7*,e8,c5 B:d6,a13")
    state.apply("e7>e8")
    assert state.protected_seat() == 0 and not state.capture_due()
    assert "protected during the next move" in (state.last_description or "")


def test_garnet_marble_must_leave_the_garnet_cell_before_any_capture() -> None:
    state = at("0 R:e7*,c5 B:d6,a13")
    state.apply("e7-e8")
    state.apply("a13-b12")
    assert state.must_leave_garnet_cell()
    assert state.view(None)["garnet_cell"]["status"] == "must_leave"
    assert moves(state) == ["e8-d8", "e8-e7", "e8-e9", "e8-f8"]  # c5xe7 waits
    assert "must leave the garnet cell" in refusal(state, "c5xe7")
    state.apply("e8-e7")
    assert state.pawn_at("e8") is None and state.protected_seat() is None


def test_garnet_cell_duty_may_be_met_by_handing_the_marble_on() -> None:
    state = at("0 R:e8*,e7 B:a13")
    assert moves(state) == ["e8-d8", "e8-e9", "e8-f8", "e8>e7"]
    state.apply("e8>e7")
    left = state.pawn_at("e8")
    assert left is not None and not left.garnet and not state.yellow_lines_active()


def test_stranded_marble_on_the_garnet_cell_is_lost() -> None:
    state = at("0 R:e8*,a1 B:d8,f8,e7,e9,a13")
    assert moves(state) == ["e8>"]
    state.apply("e8>")
    left = state.pawn_at("e8")
    assert left is not None and left.seat == 0 and not left.garnet
    assert "can still leave" in refusal(at("0 R:e8*,a1 B:a13"), "e8>")
    assert "only played when" in refusal(at("0 R:a1,c3 B:a13"), "e8>")


def test_garnet_pawn_may_come_back_on_the_garnet_cell_on_its_owners_following_turn() -> None:
    state = at("0 R:e8*,a3 B:a13,c13")
    state.apply("e8-e7")
    state.apply("a13-b12")
    assert "e7-e8" in moves(state)
    state.apply("e7-e8")
    assert state.protected_seat() == 0


# -- the end ------------------------------------------------------------------------------------


def test_player_with_no_pawn_left_loses() -> None:
    state = at("0 R:c3 B:d4")
    state.apply("c3xe5")
    result = state.result()
    assert result is not None and result.winners == [0] and result.reason == "captured_all"
    assert state.current_player is None and state.legal_moves() == []


def test_player_with_no_legal_move_loses() -> None:
    state = at("0 R:c5 B:a1")
    state.apply("c5-d6")
    result = state.result()
    assert result is not None and result.winners == [0] and result.reason == "no_moves"
    assert at("1 R:c5 B:a1").result() == result


def test_draw_when_no_neutral_pawn_is_left() -> None:
    state = at("0 R:a1* B:c3,i15*")
    state.apply("a1xd4")
    result = state.result()
    assert result is not None and result.winners == [0, 1] and result.reason == "draw"


def test_neutral_pawns_stuck_on_the_back_row_still_count_as_neutral() -> None:
    state = at("0 R:a1*,c15 B:c3,i15*")
    state.apply("a1xd4")
    assert not state.is_over()


def test_draw_after_40_moves_without_capture_or_neutral_move() -> None:
    slide = at("0 R:a1*,c3 B:a13,i15* 39")
    slide.apply("a1-b2")
    assert slide.result() is not None and slide.result().reason == "draw"
    marble = at("0 R:a1*,c3 B:a13,i15* 39")
    marble.apply("a1>c3")
    assert marble.result() is not None and marble.result().winners == [0, 1]
    step = at("0 R:a1*,c3 B:a13,i15* 39")
    step.apply("c3-d4")
    assert not step.is_over() and step.quiet == 0
    capture = at("0 R:c3 B:d4,a13 39")
    capture.apply("c3xe5")
    assert not capture.is_over() and capture.quiet == 0
    counting = at("0 R:a1*,c3 B:a13,i15* 7")
    counting.apply("a1-b2")
    assert counting.quiet == 8 and counting.position().endswith(" 8")


def test_end_checks_run_in_the_rules_order() -> None:
    assert END_CHECKS == ("no_pawns", "no_neutrals", "quiet_moves", "no_moves")
    last = at("0 R:a1* B:c3")  # no pawn left beats no neutral pawn left
    last.apply("a1xd4")
    assert last.result() is not None and last.result().reason == "captured_all"
    quiet = at("0 R:a3*,c5 B:a1 39")  # 40 quiet moves beats Blue having no move
    quiet.apply("a3-b4")
    assert quiet.result() is not None and quiet.result().reason == "draw"


def test_player_who_lost_both_garnet_pawns_may_stop_early() -> None:
    start = GRANAT.new_state(2)
    assert not start.may_stop_early(0) and not start.may_stop_early(1)
    state = at("0 R:c3,e3 B:a15*,a13")
    assert state.may_stop_early(0) and not state.may_stop_early(1)
    assert [p["may_stop_early"] for p in state.view(1)["players"]] == [True, False]
    assert EndReason.RESIGNED == "resigned"  # the reason the bot records for a resignation


# -- notation and positions ---------------------------------------------------------------------


def test_notation_is_read_case_insensitively_with_spaces_around_separators() -> None:
    state = GRANAT.new_state(2)
    assert state.parse_move(" C3 - D4 ") == GranatMove(MoveKind.PLAIN, (Cell(2, 2), Cell(3, 3)))
    assert str(state.parse_move("A1 > C3")) == "a1>c3"
    assert str(state.parse_move("c3 X e5 x G7")) == "c3xe5xg7"
    assert str(state.parse_move("E8 >")) == "e8>"
    assert all(str(state.parse_move(str(m))) == str(m) for m in state.legal_moves())


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("pass", "no passing"),
        ("", "empty"),
        ("b1-c2", "not a cell of the board"),
        ("j3-k4", "off the board"),
        ("c3-d4xe5", "mixes"),
        ("a1>c3>e5", "several '>'"),
        ("c3>", "only the marble on the garnet cell"),
        ("c3", "not a Granat move"),
        ("zz99", "not a Granat move"),
        ("zz9-a1", "not a cell (write"),
    ],
)
def test_unreadable_notation_is_refused_with_a_reason(text: str, words: str) -> None:
    assert words in refusal(GRANAT.new_state(2), text)


def test_position_string_round_trip_and_default_quiet_count() -> None:
    state = at("1 R:c3,a1* B:d4,a13")
    assert state.position() == "1 R:a1*,c3 B:a13,d4 0"
    assert at(state.position()).position() == state.position()
    assert at("0 r:a1* b:a13 12").quiet == 12


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("2 R:a1 B:a13", "seat"),
        ("0 R:a1 B:a13 x", "whole number"),
        ("0 B:a1 R:a13", "must start with R:"),
        ("0 R:b1 B:a13", "not a cell"),
        ("0 R:a1,a1 B:a13", "two pawns"),
        ("0 R:a1*,c1*,e1* B:a13", "3 garnet pawns"),
        ("0 R: B:", "empty"),
        ("0 R:a1", "a Granat position is"),
        (START_POSITION.replace("R:a1*", "R:a5,a1*"), "15 pawns"),
    ],
)
def test_position_parser_checks_syntax_and_counts(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        GRANAT.from_position(text)


# -- helpers for the Discord UI and the renderer ----------------------------------------------


def test_movable_pawns_are_only_the_capturing_pawns_when_a_capture_is_due() -> None:
    start = GRANAT.new_state(2)
    assert [str(c) for c in start.movable_pawns()] == [
        "a1", "i1", "b2", "d2", "f2", "h2", "a3", "c3", "e3", "g3", "i3"
    ]
    state = at("0 R:a1*,c3,g5 B:d4,a13")
    assert [str(c) for c in state.movable_pawns()] == ["c3"]
    assert state.view(0)["capture_due"] is True


def test_moves_of_one_pawn() -> None:
    state = GRANAT.new_state(2)
    assert [str(m) for m in state.moves_of("c3")] == ["c3-d4", "c3-b4"]
    assert len(state.moves_of(parse_cell("a1"))) == 12  # its marble to every neutral pawn
    assert state.moves_of("c1") == []


def test_describe_move_in_plain_words() -> None:
    state = at("0 R:c3,d4,f6,a1* B:a13,e13")
    assert state.describe_move("c3-b4") == "neutral pawn c3 steps to b4"
    assert state.describe_move("c3-e5-g7") == (
        "neutral pawn c3 jumps over 2 own pawns (d4, f6) to g7"
    )
    assert state.describe_move("a1>f6") == "garnet pawn a1 hands its marble to f6"
    chain = at("0 R:c3* B:e5,b2*,a13")
    assert chain.describe_move("c3xf6xa1") == (
        "garnet pawn c3 captures 2: e5, b2 (landing on a1; a garnet pawn)"
    )
    assert at("0 R:e7* B:a13").describe_move("e7-e8") == (
        "garnet pawn e7 slides to e8: Red's pawns are protected during the next move"
    )
    with pytest.raises(IllegalMove):
        state.describe_move("c3-c5")


def test_view_has_what_a_renderer_needs_and_is_the_same_for_everyone() -> None:
    state = at("0 R:e7*,c15,a1 B:e8,a13*")
    view = state.view(0)
    assert view == state.view(1) == state.view(None)
    json.dumps(view)
    assert view["game"] == "granat" and view["current_player"] == 0 and view["result"] is None
    assert view["position"] == state.position()
    assert view["garnet_cell"] == {
        "cell": "e8",
        "links": ["d8", "f8", "e7", "e9"],
        "occupant": {"seat": 1, "colour": "blue", "garnet": False},
        "status": "neutral",
    }
    assert view["yellow_lines_active"] is False
    stuck = next(p for p in view["pawns"] if p["cell"] == "c15")
    assert stuck == {"cell": "c15", "col": 2, "row": 14, "seat": 0, "colour": "red",
                     "garnet": False, "stuck": True}
    geometry = board_geometry()
    assert len(geometry["cells"]) == 69 and geometry["garnet_cell"] == "e8"
    json.dumps(geometry)


def test_dump_and_load_keep_the_last_move() -> None:
    state = at("0 R:c3 B:d4,f4,a13")
    state.apply("c3xe5xg3")
    copy = GRANAT.load(json.loads(json.dumps(state.dump())))
    assert copy.dump() == state.dump()
    assert copy.view(None)["last_captured"] == ["d4", "f4"]
    assert copy.view(None)["last_move_description"] == (
        "neutral pawn c3 captures 2: d4, f4 (landing on g3)"
    )


# -- switching the [decision] constants changes the rule ----------------------------------------


def test_majority_rule_constant_keeps_only_the_longest_captures(monkeypatch) -> None:
    monkeypatch.setattr(granat, "CAPTURE_MAJORITY_RULE", True)
    assert moves(at("0 R:c3,g3 B:d4,h4,h6,a13")) == ["g3xi5xg7"]


def test_no_moves_constant_can_make_a_blocked_player_draw(monkeypatch) -> None:
    monkeypatch.setattr(granat, "NO_MOVES_LOSES", False)
    result = at("1 R:c5 B:a1").result()
    assert result is not None and result.winners == [0, 1]


def test_neutral_chain_constant_can_let_a_chain_stop(monkeypatch) -> None:
    monkeypatch.setattr(granat, "NEUTRAL_CHAIN_MUST_CONTINUE", False)
    assert moves(at("0 R:c3 B:d4,f4,a13")) == ["c3xe5", "c3xe5xg3"]


def staying_after_a_capture(monkeypatch) -> GranatState:
    """With the duty first off: Red's garnet pawn arrives on e8, then Red captures elsewhere
    instead of leaving, so the pawn stays there with Blue to move."""
    monkeypatch.setattr(granat, "GARNET_CELL_DUTY_FIRST", False)
    state = at("0 R:e7*,c5 B:d6,f8,g9,a13")
    state.apply("e7-e8")
    state.apply("a13-b12")
    state.apply("c5xe7")  # a capture instead of leaving e8: only legal with the constant off
    return state


def test_with_the_duty_first_off_a_garnet_pawn_protects_on_arrival_only(monkeypatch) -> None:
    monkeypatch.setattr(granat, "GARNET_CELL_DUTY_FIRST", False)
    state = at("0 R:e7*,c5 B:d6,f8,g9,a13")
    state.apply("e7-e8")
    assert state.protected_seat() == 0 and not state.capture_due()
    state.apply("a13-b12")
    assert moves(state) == ["c5xe7"]
    state.apply("c5xe7")
    assert state.pawn_at("e8") is not None and state.protected_seat() is None
    assert state.view(None)["garnet_cell"]["status"] == "staying"
    assert moves(state) == ["f8xd6", "f8xd8xf6"]  # the pawn staying on e8 can be taken too


def test_with_stranded_marbles_kept_a_garnet_pawn_protects_on_arrival_only(monkeypatch) -> None:
    monkeypatch.setattr(granat, "STRANDED_MARBLE_IS_LOST", False)
    state = at("0 R:e7*,a1 B:c3,d8,f8,e9,g9,c9,a13")
    state.apply("e7-e8")
    assert state.protected_seat() == 0 and not state.capture_due()
    state.apply("g9-e7")  # every link of e8 is now Blue's: the marble is stranded
    assert moves(state) == ["a1-b2"]
    assert not state.must_leave_garnet_cell(), "the duty lapses: nobody is told to leave"
    assert state.view(None)["garnet_cell"]["status"] == "staying"
    state.apply("a1-b2")
    assert state.pawn_at("e8") is not None and state.protected_seat() is None
    assert moves(state) == ["c3xa1"]


def test_dump_and_load_keep_a_garnet_pawn_staying_on_the_garnet_cell_unprotected(
    monkeypatch,
) -> None:
    state = staying_after_a_capture(monkeypatch)
    copy = GRANAT.load(json.loads(json.dumps(state.dump())))
    assert copy.dump() == state.dump()
    assert copy.protected_seat() is None and moves(copy) == moves(state)
    # The position string's fixed notation cannot say it: read alone, the pawn just arrived.
    assert at(state.position()).protected_seat() == 0


def test_old_dump_without_the_arrival_flag_loads_reading_the_position(monkeypatch) -> None:
    arrived = at("0 R:e7*,c5 B:d6,a13")
    arrived.apply("e7-e8")
    dump = arrived.dump()
    assert "garnet_arrived" not in dump["state"]  # default-rule dumps are as they always were
    assert GRANAT.load(dump).protected_seat() == 0
    old = staying_after_a_capture(monkeypatch).dump()
    del old["state"]["garnet_arrived"]
    assert GRANAT.load(old).protected_seat() == 0  # as the position string reads it


# -- perft: move counts to a fixed depth ------------------------------------------------------


def perft(state: GranatState, depth: int) -> int:
    """Leaf count of the move tree to `depth` plies (a finished game counts as one leaf)."""
    legal = state.legal_moves()
    if depth == 1:
        return len(legal)
    total = 0
    for move in legal:
        child = state.clone()
        child.apply(move)
        total += 1 if child.is_over() else perft(child, depth - 1)
    return total


def test_perft_from_the_start_position() -> None:
    # Hand count of the 38 first moves for Red:
    #  - steps: a3-b4, c3-b4, c3-d4, e3-d4, e3-f4, g3-f4, g3-h4, i3-h4 = 8 (row 1 and row 2
    #    pawns have their forward cells taken);
    #  - jumps over an own row-3 pawn from row 2: b2-d4, d2-b4, d2-f4, f2-d4, f2-h4, h2-f4 = 6
    #    (b2 over a3 and h2 over i3 would leave the board; row-1 pawns land on taken cells);
    #  - a1 and i1 are walled in by b2 and h2, so no slide; each hands its marble to any of
    #    the 12 neutral pawns, all in Red's half: 2 x 12 = 24. Total 8 + 6 + 24 = 38.
    # No first move brings a pawn within reach of the other side (rows 1-4 vs 12-15), so
    # Blue also has 38 replies after each: depth 2 is 38 x 38 = 1444.
    start = GRANAT.new_state(2)
    assert perft(start, 1) == 38
    assert perft(start, 2) == 38 * 38
    assert perft(start, 3) == 57912  # from this engine (regression value)


OPENINGS = {
    "marbles": (["a1>c3", "i15>e13"], [44, 1935]),
    "race": (["c3-d4", "g13-f12", "d4-e5", "f12-e11", "e5-f6", "e11-d10"], [39, 1521]),
    "yellow_capture": (
        ["c3-d4", "g13-f12", "a3-b4", "f12-e11", "b2-a3", "e11-d10", "d4-c5", "d10-c9",
         "a1-e5", "c9-b8"],
        [1, 35],
    ),
}
"""Fixed openings and the perft counts (depth 1, 2) this engine gives after them."""


@pytest.mark.parametrize("name", list(OPENINGS))
def test_perft_after_fixed_openings(name: str) -> None:
    opening, counts = OPENINGS[name]
    state = GRANAT.new_state(2)
    for move in opening:
        state.apply(move)
    assert [perft(state, depth) for depth in range(1, len(counts) + 1)] == counts
    if name == "yellow_capture":
        assert moves(state) == ["e5xa9"]  # the garnet pawn must take b8 along the yellow line
