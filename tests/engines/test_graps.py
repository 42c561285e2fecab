"""Graps rules, one test per rule, on small positions built with `from_position`."""

from __future__ import annotations

import json
import math
import random

import pytest

from engines import CHANCE, IllegalMove, graps
from engines.graps import (
    GRAPS,
    GRID,
    PASS,
    Face,
    GrapsState,
    Place,
    Roll,
    parse_notation,
)
from tests.engines.conformance import check_state, pick

EMPTY_ROW = "." * 15


def position(*groups: str, seat: int = 0, phase: str = "blank", stocks=(30, 30)) -> str:
    """A position string from groups like "X h1" or "x h2 h3": a piece char, then its cells."""
    grid = [["."] * 15 for _ in range(15)]
    for group in groups:
        char, *names = group.split()
        for name in names:
            cell = GRID.parse(name)
            grid[cell.row][cell.col] = char
    rows = ["".join(grid[row]) for row in reversed(range(15))]
    return f"{'/'.join(rows)} {seat} {phase} {stocks[0]} {stocks[1]}"


def state(*groups: str, options: dict | None = None, **fields) -> GrapsState:
    """The state of `position(*groups, **fields)`."""
    return GRAPS.from_position(position(*groups, **fields), options)


def column(letter: str, first: int, last: int) -> str:
    """Cell names of one column from row `first` to row `last`, e.g. "h2 h3 h4"."""
    step = 1 if last >= first else -1
    return " ".join(f"{letter}{row}" for row in range(first, last + step, step))


def names(cells) -> list[str]:
    return [str(cell) for cell in cells]


def at(game: GrapsState, name: str) -> str:
    """The position-string character on a cell."""
    cell = GRID.parse(name)
    return game.board[cell.row * 15 + cell.col]


def reason_of(game: GrapsState, move: str) -> str:
    before = game.dump()
    with pytest.raises(IllegalMove) as error:
        game.apply(move)
    assert game.dump() == before
    return str(error.value)


# -- setup -----------------------------------------------------------------------------------------


def test_the_game_starts_on_an_empty_board_with_dark_setting_up() -> None:
    game = GRAPS.new_state(2)
    assert game.position() == f"{'/'.join([EMPTY_ROW] * 15)} 0 setup 45 45"
    assert game.current_player == 0
    assert names(game.legal_cells()) == [f"{c}1" for c in "abcdefghijklmno"]


def test_each_player_places_an_opening_grape_on_their_land_without_a_roll() -> None:
    game = GRAPS.new_state(2)
    game.apply("h1")
    assert at(game, "h1") == "X"
    assert game.current_player == 1 and game.view(None)["phase"] == "setup"
    assert names(game.legal_cells()) == [f"{c}15" for c in "abcdefghijklmno"]
    game.apply("c15")
    assert at(game, "c15") == "O"
    assert game.stocks == [44, 44]
    assert game.current_player == CHANCE and game.to_move == 0
    assert game.position().endswith(" 0 roll 44 44")


def test_the_opening_grape_may_not_leave_the_land() -> None:
    game = GRAPS.new_state(2)
    assert "own land, row 1" in reason_of(game, "h2")
    game.apply("h1")
    assert "own land, row 15" in reason_of(game, "h14")
    assert "no die is rolled" in reason_of(game, "roll:grape")


# -- the die ---------------------------------------------------------------------------------------


def test_the_die_is_a_chance_node_with_one_grape_face_by_default() -> None:
    game = state("X h1", "O h15", phase="roll")
    assert game.current_player == CHANCE
    outcomes = {str(move): p for move, p in game.chance_outcomes()}
    assert outcomes == pytest.approx({"roll:grape": 1 / 6, "roll:blank": 5 / 6})
    assert "must be rolled first" in reason_of(game, "h2")
    game.apply("roll:blank")
    assert game.current_player == 0 and game.view(0)["face"] == "blank"
    game.apply("h2")
    assert at(game, "h2") == "x"


@pytest.mark.parametrize("faces", [1, 2, 3, 4, 5])
def test_the_grape_faces_option_sets_the_odds_of_the_die(faces: int) -> None:
    game = state("X h1", "O h15", phase="roll", options={"grape_faces": faces})
    outcomes = {str(move): p for move, p in game.chance_outcomes()}
    assert outcomes["roll:grape"] == pytest.approx(faces / 6)
    assert outcomes["roll:blank"] == pytest.approx((6 - faces) / 6)
    assert math.isclose(sum(outcomes.values()), 1.0)


@pytest.mark.parametrize("faces", [0, 6, True, "2"])
def test_the_grape_faces_option_allows_one_to_five(faces) -> None:
    with pytest.raises(ValueError, match="grape_faces"):
        GRAPS.new_state(2, options={"grape_faces": faces})


def test_the_rolled_grape_is_placed_grape_side_up() -> None:
    game = state("X h1", "O h15", phase="roll")
    game.apply("roll:grape")
    assert game.view(0)["face"] == "grape"
    assert "already shows a grape" in reason_of(game, "roll:blank")
    game.apply("h2")
    assert at(game, "h2") == "X"
    assert game.view(None)["last_placement"] == {"seat": 0, "cell": "h2", "face": "grape"}


# -- blanks ----------------------------------------------------------------------------------------


def test_a_blank_must_touch_one_of_your_pawns_side_on() -> None:
    game = state("X h1", "x h2 h3", "O h15")
    assert "touches none of Dark's pawns side-on" in reason_of(game, "i4")  # diagonal to h3
    assert "touches none" in reason_of(game, "c7")
    game.apply("h4")
    assert at(game, "h4") == "x"


def test_a_blank_may_never_go_on_your_own_land() -> None:
    game = state("X h1", "O h15")
    assert "own land (row 1)" in reason_of(game, "g1")
    assert names(game.legal_cells()) == ["h2"]
    light = state("X h1", "O h15", seat=1)
    assert "own land (row 15)" in reason_of(light, "i15")


def test_a_blank_may_not_touch_an_enemy_pawn_side_on() -> None:
    game = state("X h1", "x h2 h3", "O h15", "o h5")
    assert reason_of(game, "h4") == "h4 touches a light vine side-on (at h5)"


def test_a_blank_may_touch_an_enemy_blank_at_a_corner() -> None:
    game = state("X h1", "x h2 h3", "O h15", "o i5")
    assert Place(GRID.parse("h4")) in game.legal_moves()
    game.apply("h4")
    assert at(game, "h4") == "x" and at(game, "i5") == "o"


def test_a_blank_may_not_enter_the_protected_zone_of_an_enemy_grape() -> None:
    corner = state("X h1", "x h2 h3", "O h15", "O i5")
    assert reason_of(corner, "h4") == (
        "h4 is in the protected zone of the light grape on i5: only a grape may go there"
    )
    side = state("X h1", "x h2 h3", "O h15", "O g4")
    assert "touches a light vine side-on (at g4)" in reason_of(side, "h4")
    beyond = state("X h1", "x h2 h3", "O h15", "O j5")
    assert Place(GRID.parse("h4")) in beyond.legal_moves()


def test_the_legal_blank_cells_meet_all_four_conditions() -> None:
    game = state("X h1", "x h2 h3", "O g5", "o j3")
    # g1, i1: own land; i3: touches j3; h4: next to the grape on g5 (corner).
    assert names(game.legal_cells()) == ["g2", "i2", "g3"]


# -- grapes ----------------------------------------------------------------------------------------


def test_a_grape_may_go_anywhere_on_your_land_starting_a_new_vine() -> None:
    game = state("X h1", "x h2", "O h15", phase="grape")
    legal = names(game.legal_cells())
    assert {f"{c}1" for c in "abcdefgijklmno"} <= set(legal)
    game.apply("a1")
    assert at(game, "a1") == "X"


def test_a_grape_may_go_side_on_next_to_one_of_your_pawns() -> None:
    game = state("X h1", "x h2 h3", "O h15", phase="grape")
    assert set(names(game.legal_cells())) - {f"{c}1" for c in "abcdefgijklmno"} == {
        "g2", "i2", "g3", "i3", "h4",
    }
    assert reason_of(game, "i4") == (
        "i4 is neither on Dark's land (row 1) nor side-on next to one of Dark's pawns: "
        "a grape must be one or the other"
    )
    game.apply("h4")
    assert at(game, "h4") == "X"


def test_a_grape_may_enter_a_protected_zone_and_touch_an_enemy() -> None:
    blank = state("X h1", "x h2 h3", "O h15", "O i5")
    assert "protected zone" in reason_of(blank, "h4")
    game = state("X h1", "x h2 h3", "O h15", "O i5", "o h5", phase="grape")
    game.apply("h4")
    assert at(game, "h4") == "X"
    assert at(game, "i5") == "." and at(game, "h5") == "."  # both pruned by the new grape


def test_an_occupied_cell_is_refused() -> None:
    game = state("X h1", "x h2", "O h15", phase="grape")
    assert reason_of(game, "h2") == "h2 is already taken by a dark blank"
    assert reason_of(game, "h15") == "h15 is already taken by a light grape"


# -- pruning ---------------------------------------------------------------------------------------

EIGHT_NEIGHBOURS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]


@pytest.mark.parametrize("face", ["x", "X"])
@pytest.mark.parametrize(("dcol", "drow"), EIGHT_NEIGHBOURS)
def test_a_grape_prunes_an_enemy_pawn_on_each_of_its_eight_neighbours(
    dcol: int, drow: int, face: str
) -> None:
    target = GRID.parse("h8")
    enemy = str(target.step(dcol, drow))
    link = "g8" if (dcol, drow) == (0, 1) else "h9"  # Light's pawn the grape grows from
    game = state("X h1", f"{face} {enemy}", "O h15", f"o {link}", seat=1, phase="grape")
    game.apply("h8")
    assert at(game, enemy) == "."
    assert game.view(None)["last_removed"]["pruned"] == [enemy]
    assert at(game, link) == "o" and at(game, "h1") == "X"


def test_a_grape_prunes_all_enemy_pawns_around_it_grapes_included() -> None:
    game = state(
        "X h1", f"x {column('h', 2, 6)}",
        "X g7 i7 i8", "x h7 g8 g9 i9",
        "O h15", f"o {column('h', 14, 9)}",
        seat=1, phase="grape",
    )
    game.apply("h8")
    around = ["g7", "h7", "i7", "g8", "i8", "g9", "i9"]
    assert game.view(None)["last_removed"]["pruned"] == around
    assert all(at(game, name) == "." for name in around)
    assert all(at(game, f"h{row}") in "xX" for row in range(1, 7))  # still linked: kept
    assert game.view(None)["last_removed"]["cut"] == []
    assert game.view(None)["last_removed"]["faces"]["i8"] == "grape"


def test_a_grape_never_prunes_its_own_pawns() -> None:
    game = state("X h1", "x h2 h3 g3 i3", "O h15", "o h5", phase="grape")
    game.apply("h4")
    assert all(at(game, name) == "x" for name in ("h3", "g3", "i3"))
    assert at(game, "h5") == "."
    assert game.view(None)["last_removed"]["pruned"] == ["h5"]


def test_a_blank_prunes_nothing() -> None:
    game = state("X h1", "x h2 h3", "O h15", "o i5")
    game.apply("h4")
    assert at(game, "i5") == "o"
    assert game.view(None)["last_removed"] == {"owner": None, "pruned": [], "cut": [], "faces": {}}


CUT_BRANCH = ("X h1", f"x {column('h', 2, 10)}", "x i10 j10 k10", "O h15", "o h14 h13 h12")


def test_a_branch_cut_from_its_land_dies() -> None:
    game = state(*CUT_BRANCH, seat=1, phase="grape")
    game.apply("h11")
    removed = game.view(None)["last_removed"]
    assert removed["owner"] == 0
    assert removed["pruned"] == ["h10", "i10"]
    assert removed["cut"] == ["j10", "k10"]
    assert names(game.pruned_cells()) == ["h10", "i10"]
    assert names(game.cut_cells()) == ["j10", "k10"]
    assert at(game, "j10") == "." and at(game, "k10") == "."
    assert all(at(game, f"h{row}") in "xX" for row in range(1, 10))


def test_a_branch_linked_to_the_land_through_another_path_survives() -> None:
    second_root = ("X k1", f"x {column('k', 2, 9)}")
    game = state(*CUT_BRANCH, *second_root, seat=1, phase="grape", stocks=(20, 30))
    game.apply("h11")
    removed = game.view(None)["last_removed"]
    assert removed["pruned"] == ["h10", "i10"]
    assert removed["cut"] == []
    assert at(game, "j10") == "x" and at(game, "k10") == "x"


def test_pruning_the_root_kills_the_whole_vine() -> None:
    game = state("X h1", f"x {column('h', 2, 6)}", "O h15", "o f2", seat=1, phase="grape")
    game.apply("g2")
    removed = game.view(None)["last_removed"]
    assert removed["pruned"] == ["h1", "h2", "h3"]
    assert removed["cut"] == ["h4", "h5", "h6"]
    assert game.view(None)["on_board"][0] == 0


def test_removed_pawns_leave_the_game_by_default() -> None:
    game = state(*CUT_BRANCH, seat=1, phase="grape", stocks=(20, 30))
    game.apply("h11")
    assert game.stocks == [20, 29]
    assert game.view(None)["out_of_game"][0] == 45 - 20 - 9


def test_the_return_pruned_option_gives_removed_pawns_back_to_their_owner() -> None:
    options = {"return_pruned": True}
    game = state(*CUT_BRANCH, seat=1, phase="grape", stocks=(20, 30), options=options)
    game.apply("h11")
    assert game.stocks == [24, 29]  # 2 pruned + 2 cut come back
    assert game.view(None)["out_of_game"][0] == 45 - 24 - 9


# -- winning on the opponent's land ----------------------------------------------------------------


def test_placing_a_blank_on_the_opponent_land_wins() -> None:
    game = state("X c1", f"x {column('c', 2, 14)}", "O m15")
    game.apply("c15")
    result = game.result()
    assert result is not None and result.winners == [0] and result.reason == "land_reached"
    assert game.is_over() and game.legal_moves() == []
    assert game.position().split()[1:3] == ["0", "over"]
    assert reason_of(game, "d1") == "the game is over"


def test_placing_a_grape_on_the_opponent_land_wins_after_pruning() -> None:
    game = state(
        "X c1", f"x {column('c', 2, 14)}", "O d15", "o d14 d13 d12", "O m15", phase="grape"
    )
    game.apply("c15")
    assert game.result().winners == [0] and game.result().reason == "land_reached"
    removed = game.view(None)["last_removed"]
    assert removed["pruned"] == ["d14", "d15"]
    assert removed["cut"] == ["d12", "d13"]
    assert at(game, "m15") == "O"


@pytest.mark.parametrize("face", ["blank", "grape"])
def test_light_wins_by_placing_either_face_on_row_1(face: str) -> None:
    game = state("X c1", "O m15", f"o {column('m', 14, 2)}", seat=1, phase="roll")
    game.apply(f"roll:{face}")
    game.apply("m1")
    assert at(game, "m1") == ("o" if face == "blank" else "O")
    assert game.result().winners == [1] and game.result().reason == "land_reached"


# -- passing ---------------------------------------------------------------------------------------


def test_a_player_passes_when_the_rolled_blank_fits_nowhere() -> None:
    game = state("X h1", "O i3", "O a15", phase="roll")
    game.apply("roll:blank")
    assert game.legal_moves() == [PASS] and game.must_pass()
    assert game.view(0)["must_pass"] is True and game.view(0)["legal_cells"] == []
    assert "protected zone" in reason_of(game, "h2")
    game.apply("pass")
    assert game.current_player == CHANCE and game.to_move == 1
    assert game.stocks == [30, 30]


def test_the_pass_on_a_rolled_face_without_cell_is_one_switchable_decision(monkeypatch) -> None:
    monkeypatch.setattr(graps, "ROLLED_FACE_WITHOUT_CELL_PASSES", False)
    game = state("X h1", "O i3", "O a15", phase="roll")
    game.apply("roll:blank")
    assert game.view(0)["face"] == "grape" and PASS not in game.legal_moves()


def test_a_player_passes_when_the_rolled_grape_fits_nowhere() -> None:
    full_land = " ".join(f"{c}1" for c in "abcdefghijklmno")
    row_two = " ".join(f"{c}2" for c in "abcdefghijklmno")
    game = state(f"X {full_land}", f"o {row_two}", "O h15", phase="grape", stocks=(30, 20))
    assert game.legal_moves() == [PASS]
    game.apply("pass")
    assert game.to_move == 1


def test_passing_is_refused_while_the_rolled_face_fits_somewhere() -> None:
    game = state("X h1", "x h2 h3", "O h15")
    assert reason_of(game, "pass") == "Dark cannot pass: the blank can go on g2 (and 4 other cells)"


def test_a_player_with_an_empty_stock_passes_without_rolling() -> None:
    game = state("X h1", "x h2", "O h15", phase="roll", stocks=(0, 5))
    assert game.current_player == 0
    assert game.legal_moves() == [PASS]
    assert "stock is empty" in reason_of(game, "h3")
    assert "stock is empty" in reason_of(game, "roll:blank")
    game.apply("pass")
    assert game.current_player == CHANCE and game.to_move == 1


# -- total blockade --------------------------------------------------------------------------------

BLOCKED_DARK = (
    "X " + " ".join(f"{c}1" for c in "abcdefghijklmno"),
    "o " + " ".join(f"{c}2" for c in "abcdefghijklmno"),
    "O h15",
)


def test_a_totally_blocked_player_wins_and_ends_the_game() -> None:
    game = state(*BLOCKED_DARK, seat=1, phase="blank", stocks=(30, 20))
    assert game.is_totally_blocked(0) and not game.is_totally_blocked(1)
    game.apply("a3")  # Light's move; Dark's turn then starts without a free cell
    result = game.result()
    assert result is not None and result.winners == [0] and result.reason == "blockade"
    assert game.position().split()[1:3] == ["0", "over"]


def test_the_blockade_is_checked_before_the_roll() -> None:
    game = state(*BLOCKED_DARK, seat=0, phase="roll", stocks=(30, 20))
    assert game.is_over() and game.result().reason == "blockade"
    assert game.result().winners == [0]


def test_no_cell_for_a_blank_alone_is_no_blockade(monkeypatch) -> None:
    game = state("X h1", "O i3", "O a15", phase="roll")
    assert game.placement_cells(0, Face.BLANK) == []
    assert not game.is_totally_blocked(0)
    assert game.current_player == CHANCE
    monkeypatch.setattr(graps, "BLOCKADE_FACES_BOTH", False)  # the other reading, one switch
    assert game.is_totally_blocked(0)


# -- end on empty stocks ---------------------------------------------------------------------------

RACE = ("X c1", f"x {column('c', 2, 8)}", "O m15", f"o {column('m', 14, 9)}")


@pytest.mark.parametrize(
    ("extra", "cell", "winners", "reason"),
    [
        ((), "l9", [0], "closest"),  # Light stays 8 rows away, Dark 7
        ((), "m8", [0, 1], "draw"),  # both 7 rows away
        (("o m8",), "m7", [1], "closest"),  # Light 6 rows away
    ],
)
def test_when_both_stocks_are_empty_the_closer_player_wins(
    extra: tuple[str, ...], cell: str, winners: list[int], reason: str
) -> None:
    game = state(*RACE, *extra, seat=1, phase="blank", stocks=(0, 1))
    assert game.distance(0) == 7 and not game.is_over()
    game.apply(cell)
    result = game.result()
    assert result is not None and result.winners == winners and result.reason == reason
    assert game.view(None)["distances"][0] == 7


def test_the_game_goes_on_while_one_stock_is_not_empty() -> None:
    game = state(*RACE, seat=1, phase="blank", stocks=(1, 1))
    game.apply("l9")
    assert not game.is_over() and game.current_player == CHANCE


def test_a_player_without_pawns_counts_fifteen_rows() -> None:
    game = state("O h15", seat=1, phase="roll", stocks=(0, 0))
    assert game.distance(0) == 15 and game.distance(1) == 14
    assert game.result().winners == [1] and game.result().reason == "closest"


# -- notation --------------------------------------------------------------------------------------


def test_notation_is_read_case_insensitively_with_spaces() -> None:
    assert parse_notation(" H7 ") == Place(GRID.parse("h7"))
    assert parse_notation("ROLL : Grape") == Roll(Face.GRAPE)
    assert parse_notation(" Pass ") == PASS
    assert [str(m) for m in (Place(GRID.parse("o15")), Roll(Face.BLANK), PASS)] == [
        "o15", "roll:blank", "pass",
    ]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("zz99", "not a Graps move"),
        ("", "not a Graps move"),
        ("roll:purple", "not a face of the die"),
        ("p3", "off the board"),
        ("a16", "off the board"),
    ],
)
def test_unreadable_moves_are_refused_with_a_reason(text: str, reason: str) -> None:
    game = state("X h1", "O h15")
    assert reason in reason_of(game, text)


# -- positions, dumps and views --------------------------------------------------------------------


def test_the_position_string_round_trips() -> None:
    text = position("X h1", "x h2 i2", "O c15", "o c14", seat=1, phase="grape", stocks=(41, 43))
    assert GRAPS.from_position(text).position() == text
    assert text.split("/")[0] == "..O............"
    assert text.split("/")[14].startswith(".......X.......")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (position("X h1").replace(" blank", " purple"), "not a phase"),
        (position("X h1").replace(" 0 blank", " 2 blank"), "seat must be 0 or 1"),
        (position("X h1").replace("X", "Z"), "board cells"),
        (position("X h1").replace("/", "", 1), "15 rows of 15"),
        (position("X h1", stocks=(45, 30)), "more than 45"),
        (position("X h1", stocks=("-1", 30)), "whole numbers"),
        (position("X h1").rsplit(" ", 1)[0], "5 fields"),
    ],
)
def test_from_position_checks_the_syntax_and_the_counts(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GRAPS.from_position(text)


@pytest.mark.parametrize(
    ("groups", "seat", "stocks", "winners", "reason"),
    [
        (("X c1", "x c15"), 0, (5, 5), [0], "land_reached"),
        (("O m15", "o m1"), 1, (5, 5), [1], "land_reached"),
        (("X c1", "O m15"), 1, (0, 0), [0, 1], "draw"),
        (("X c1", "x c2", "O m15"), 1, (0, 0), [0], "closest"),
        (BLOCKED_DARK, 0, (30, 20), [0], "blockade"),
    ],
)
def test_an_over_position_gives_back_its_result(groups, seat, stocks, winners, reason) -> None:
    text = position(*groups, seat=seat, phase="over", stocks=stocks)
    game = GRAPS.from_position(text)
    assert game.is_over() and game.position() == text
    assert game.result().winners == winners and game.result().reason == reason


def test_dump_and_load_keep_what_the_last_grape_removed() -> None:
    game = state(*CUT_BRANCH, seat=1, phase="grape")
    game.apply("h11")
    data = json.loads(json.dumps(game.dump()))
    loaded = GRAPS.load(data)
    assert loaded.dump() == game.dump()
    assert loaded.view(0)["last_removed"] == game.view(0)["last_removed"]


def test_the_view_is_the_same_for_every_seat_and_complete() -> None:
    game = state(*CUT_BRANCH, seat=1, phase="grape")
    game.apply("h11")
    view = game.view(None)
    assert view == game.view(0) == game.view(1)
    assert view["game"] == "graps" and view["position"] == game.position()
    assert view["pawns"]["h11"] == {"seat": 1, "face": "grape"}
    assert view["last_placement"] == {"seat": 1, "cell": "h11", "face": "grape"}
    assert view["land_rows"] == [1, 15] and view["seat_names"] == ["Dark", "Light"]
    assert "g10" in view["protected_zones"][1] and view["stocks"] == [30, 29]
    json.dumps(view)


def test_legal_cells_by_row_groups_the_current_placement() -> None:
    game = state("X h1", "x h2 h3", "O g5", "o j3")
    assert {row: names(cells) for row, cells in game.legal_cells_by_row().items()} == {
        2: ["g2", "i2"],
        3: ["g3"],
    }


def linked_everywhere(game: GrapsState) -> bool:
    """The invariant of graps.md: every pawn is joined side to side to its owner's land."""
    pawns = {seat: set(game._pawn_indexes(seat)) for seat in (0, 1)}
    return all(game.linked_indexes(seat) == pawns[seat] for seat in (0, 1))


@pytest.mark.parametrize("options", [{}, {"grape_faces": 5, "return_pruned": True}])
def test_every_pawn_stays_linked_to_its_land_after_every_move(options: dict) -> None:
    for seed in range(4):
        rng = random.Random(seed)
        game = GRAPS.new_state(2, options)
        while not game.is_over():
            game.apply(pick(game, rng))
            assert linked_everywhere(game), game.position()


# -- the contract ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options", [{"return_pruned": True}, {"grape_faces": 5, "return_pruned": True}]
)
def test_conformance_playout_with_options(options: dict) -> None:
    rng = random.Random(7)
    game = GRAPS.new_state(2, options)
    for _ in range(2_000):
        check_state(GRAPS, game, rng)
        if game.is_over():
            return
        game.apply(pick(game, rng))
    raise AssertionError("the game did not end")
