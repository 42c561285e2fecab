"""Rule tests for the Qawale engine: one test per rule of shared/rules/qawale.md."""

from __future__ import annotations

import itertools
import json

import pytest

from engines import GAMES, IllegalMove
from engines import qawale as qawale_rules
from engines.grid import Cell
from engines.qawale import QAWALE, Direction, QawaleMove, QawaleState

N, S, E, W = Direction.N, Direction.S, Direction.E, Direction.W
START = "nn,-,-,nn/-,-,-,-/-,-,-,-/nn,-,-,nn 0 8 8"

ALL_LINES = {
    "row 1": ("a1", "b1", "c1", "d1"),
    "row 2": ("a2", "b2", "c2", "d2"),
    "row 3": ("a3", "b3", "c3", "d3"),
    "row 4": ("a4", "b4", "c4", "d4"),
    "column a": ("a1", "a2", "a3", "a4"),
    "column b": ("b1", "b2", "b3", "b4"),
    "column c": ("c1", "c2", "c3", "c4"),
    "column d": ("d1", "d2", "d3", "d4"),
    "diagonal a1-d4": ("a1", "b2", "c3", "d4"),
    "diagonal a4-d1": ("a4", "b3", "c2", "d1"),
}
"""Written out by hand, independently of the engine's own table."""


# -- helpers ---------------------------------------------------------------------------


def cell(name: str) -> Cell:
    return Cell(ord(name[0]) - ord("a"), int(name[1]) - 1)


def position(stacks: dict[str, str], seat: int = 0) -> str:
    """A position string from {cell: stack bottom first}; stocks make up 8 pebbles each."""
    rows = [",".join(stacks.get(f"{col}{row}", "-") for col in "abcd") for row in "4321"]
    pebbles = "".join(stacks.values())
    return f"{'/'.join(rows)} {seat} {8 - pebbles.count('0')} {8 - pebbles.count('1')}"


def build(stacks: dict[str, str], seat: int = 0, **options: bool) -> QawaleState:
    state = QAWALE.from_position(position(stacks, seat), options or None)
    assert isinstance(state, QawaleState)
    return state


def board(state: QawaleState) -> dict[str, str]:
    """The non-empty cells as {cell: stack bottom first}."""
    return {str(c): "".join(stack) for c, stack in state.stacks.items() if stack}


def landing_cells(move: QawaleMove) -> list[str]:
    here, cells = move.cell, []
    for direction in move.path:
        here = Cell(here.col + direction.value[0], here.row + direction.value[1])
        cells.append(str(here))
    return cells


def neighbours(name: str) -> list[str]:
    col, row = ord(name[0]) - ord("a"), int(name[1]) - 1
    around = ((col, row + 1), (col + 1, row), (col, row - 1), (col - 1, row))
    return [f"{chr(ord('a') + c)}{r + 1}" for c, r in around if 0 <= c < 4 and 0 <= r < 4]


def step_letter(src: str, dst: str) -> str:
    dcol, drow = ord(dst[0]) - ord(src[0]), int(dst[1]) - int(src[1])
    return {(0, 1): "N", (0, -1): "S", (1, 0): "E", (-1, 0): "W"}[(dcol, drow)]


# -- material and set-up ---------------------------------------------------------------


def test_setup_corners_hold_two_neutral_pebbles_each() -> None:
    state = QAWALE.new_state(2)
    assert board(state) == {"a1": "nn", "d1": "nn", "a4": "nn", "d4": "nn"}
    assert state.position() == START


def test_setup_each_player_has_eight_pebbles() -> None:
    state = QAWALE.new_state(2)
    assert state.stocks == [8, 8]
    # Play 16 moves that make no line: each seat places exactly 8, one per turn.
    for turn in range(16):
        seat = turn % 2
        assert state.current_player == seat and not state.is_over()
        before = state.stocks[seat]
        state.apply(_first_move_without_line(state))
        assert state.stocks[seat] == before - 1
    assert state.stocks == [0, 0]
    assert sum(len(stack) for stack in state.stacks.values()) == 8 + 16


def _first_move_without_line(state: QawaleState) -> QawaleMove:
    for c in sorted(state.stack_cells(), key=lambda c: len(state.stacks[c])):
        for move in state.legal_moves_from(c):
            trial = state.clone()
            trial.apply(move)
            if trial.result() is None or trial.result().reason != "line":
                return move
    raise AssertionError("every move makes a line")


def test_setup_seat_0_plays_first_and_turns_alternate() -> None:
    state = QAWALE.new_state(2)
    assert state.current_player == 0
    state.apply("a1:NNN")
    assert state.current_player == 1
    assert state.position().split()[1] == "1"
    state.apply("d1:NNN")
    assert state.current_player == 0
    assert board(state)["a4"] == "nn0" and board(state)["d4"] == "nn1"


def test_qawale_is_a_two_player_game() -> None:
    assert GAMES["qawale"] is QAWALE
    assert (QAWALE.min_players, QAWALE.max_players) == (2, 2)
    with pytest.raises(ValueError, match="2 players"):
        QAWALE.new_state(3)


# -- a turn ----------------------------------------------------------------------------


def test_a_pebble_may_not_go_on_an_empty_cell() -> None:
    state = QAWALE.new_state(2)
    with pytest.raises(IllegalMove, match="b2 is empty"):
        state.apply("b2:NN")
    assert {str(m.cell) for m in state.legal_moves()} == {"a1", "d1", "a4", "d4"}
    assert state.legal_moves_from(cell("b2")) == []


def test_a_single_pebble_is_a_stack() -> None:
    state = build({"b2": "0", "d4": "nnnnnnnn"}, seat=1)
    moves = state.legal_moves_from(cell("b2"))
    assert moves and all(len(m.path) == 2 for m in moves)
    state.apply("b2:NN")
    assert board(state) == {"b3": "0", "b4": "1", "d4": "nnnnnnnn"}


def test_whole_stack_is_picked_up_with_the_new_pebble() -> None:
    state = QAWALE.new_state(2)
    state.apply("a1:NNE")
    assert "a1" not in board(state)
    assert board(state) == {"a2": "n", "a3": "n", "b3": "0", "d1": "nn", "a4": "nn", "d4": "nn"}
    assert state.stocks == [7, 8]


def test_stack_is_sown_bottom_pebble_first() -> None:
    state = build({"b2": "1n", "a1": "nnnnnnn"})
    state.apply("b2:NNE")
    # bottom 1 first, then the neutral, then the mover's own pebble last
    assert board(state) == {"b3": "1", "b4": "n", "c4": "0", "a1": "nnnnnnn"}


def test_pebbles_land_on_top_of_whatever_is_there() -> None:
    state = build({"b2": "1", "b3": "n0", "b4": "nn", "d1": "nnnnn"})
    state.apply("b2:NN")
    assert board(state) == {"b3": "n01", "b4": "nn0", "d1": "nnnnn"}


def test_each_pebble_goes_next_to_the_previous_cell() -> None:
    state = build({"b2": "nn", "a1": "nnnnnn"})
    moves = state.legal_moves_from(cell("b2"))
    assert moves
    for move in moves:
        chain = ["b2", *landing_cells(move)]
        for here, there in itertools.pairwise(chain):
            assert there in neighbours(here), f"{move}: {here} -> {there}"


def test_diagonal_steps_do_not_exist() -> None:
    state = build({"b2": "n", "a1": "nnnnnnn"})
    first_cells = {landing_cells(m)[0] for m in state.legal_moves_from(cell("b2"))}
    assert first_cells == {"b3", "c2", "b1", "a2"}  # never a1, a3, c1, c3
    # "NE" is two steps (north, then east), not one diagonal step to c3
    state.apply("b2:NE")
    assert board(state) == {"b3": "n", "c3": "0", "a1": "nnnnnnn"}
    with pytest.raises(IllegalMove, match="not a Qawale move"):
        state.apply("a1:X")


def test_sowing_may_not_leave_the_board() -> None:
    state = QAWALE.new_state(2)
    with pytest.raises(IllegalMove, match=r"step 1 \(S\) leaves the board from a1"):
        state.apply("a1:SNN")
    with pytest.raises(IllegalMove, match=r"step 3 \(W\) leaves the board from a3"):
        state.apply("a1:NNW")
    assert all(cells and set(cells) <= {f"{c}{r}" for c in "abcd" for r in "1234"}
               for cells in map(landing_cells, state.legal_moves()))


def test_sowing_may_not_step_straight_back() -> None:
    state = QAWALE.new_state(2)
    with pytest.raises(IllegalMove, match=r"step 3 \(W\) goes straight back to a2"):
        state.apply("a1:NEW")
    for move in state.legal_moves():
        for before, after in zip(move.path, move.path[1:], strict=False):
            assert after is not before.opposite, str(move)


def test_second_step_may_not_return_to_the_stack_cell() -> None:
    # The stack's cell is empty once picked up, yet it counts as the cell just left.
    state = QAWALE.new_state(2)
    with pytest.raises(IllegalMove, match=r"step 2 \(S\) goes straight back to a1"):
        state.apply("a1:NSN")
    assert all(landing_cells(m)[1] != "a1" for m in state.legal_moves_from(cell("a1")))


def test_sowing_may_come_back_to_a_cell_in_a_loop() -> None:
    state = build({"b2": "nnnn", "d4": "nnnn"})
    loop = parse("b2:NESWN")
    assert loop in state.legal_moves_from(cell("b2"))
    state.apply(loop)
    # b3 gets the first and the last pebble; b2, the stack's own cell, is visited again
    assert board(state) == {"b3": "n0", "c3": "n", "c2": "n", "b2": "n", "d4": "nnnn"}


@pytest.mark.parametrize("height", [1, 2, 3, 4, 5])
def test_path_length_equals_stack_height_plus_one(height: int) -> None:
    state = build({"b2": "n" * height, "d4": "n" * (8 - height)})
    assert state.sowing_length(cell("b2")) == height + 1
    moves = state.legal_moves_from(cell("b2"))
    assert moves and {len(m.path) for m in moves} == {height + 1}
    loop = "NESW" * 3  # never steps back, never leaves the board from b2
    assert state.is_legal(f"b2:{loop[:height + 1]}")
    for wrong in (height, height + 2):
        with pytest.raises(IllegalMove, match=f"needs {height + 1} steps, not {wrong}"):
            state.apply(f"b2:{loop[:wrong]}")


# -- end -------------------------------------------------------------------------------


@pytest.mark.parametrize("line", list(ALL_LINES.values()), ids=list(ALL_LINES))
def test_four_visible_tops_in_a_row_win(line: tuple[str, ...]) -> None:
    # Seat 0 shows three tops on the line; a two-step sowing puts its pebble on the
    # fourth cell, the first pebble (seat 1's) landing off the line.
    target = line[0]
    via = next(c for c in neighbours(target) if c not in line)
    source = next(c for c in neighbours(via) if c != target and c not in line)
    spare = next(f"{c}{r}" for c in "abcd" for r in "1234"
                 if f"{c}{r}" not in {*line, via, source})
    stacks = {c: "0" for c in line[1:]} | {source: "1", spare: "11nnnnnnnn"}
    state = build(stacks)
    assert state.result() is None
    state.apply(f"{source}:{step_letter(source, via)}{step_letter(via, target)}")
    result = state.result()
    assert result is not None and result.winners == [0] and result.reason == "line"
    assert state.winning_lines == [list(line)]
    assert state.is_over() and state.current_player is None


def test_visible_top_counts_not_pebbles_beneath() -> None:
    # Row 1 holds a pebble of seat 0 on every cell, but d1's top is seat 1's: no line.
    state = build({"a1": "0", "b1": "10", "c1": "n0", "d1": "01", "d3": "1", "a4": "1nnnnnnn"})
    assert not state.is_over()
    state.apply("d3:SS")  # seat 1's pebble on d2, seat 0's on top of d1
    assert board(state)["d1"] == "010"
    result = state.result()
    assert result is not None and result.winners == [0] and result.reason == "line"
    assert state.winning_lines == [["a1", "b1", "c1", "d1"]]


def test_vertical_pile_of_four_is_not_a_line() -> None:
    state = build({"c3": "000", "c1": "1", "a4": "11nnnnnnnn"})
    state.apply("c1:NN")
    assert board(state)["c3"] == "0000"
    assert not state.is_over() and state.result() is None
    assert state.current_player == 1


def test_line_is_checked_only_after_the_whole_sowing() -> None:
    # d2 holds 0 under 1: the first pebble completes row 1 for seat 0, the second
    # covers c1 with seat 1's pebble, so at the end of the sowing there is no line.
    state = build({"a1": "0", "b1": "0", "c1": "0", "d2": "01", "a4": "111nnnnnnnn"})
    state.apply("d2:SWN")
    assert board(state) == {"a1": "0", "b1": "0", "c1": "01", "d1": "0", "c2": "0",
                            "a4": "111nnnnnnnn"}
    assert state.result() is None and state.current_player == 1


def test_with_lines_looked_for_midway_the_first_line_shown_wins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(qawale_rules, "CHECK_LINES_DURING_SOWING", True)
    # The sowing of the test above: row 1 shows seat 0's line after the first pebble.
    state = build({"a1": "0", "b1": "0", "c1": "0", "d2": "01", "a4": "111nnnnnnnn"})
    state.apply("d2:SWN")
    # The sowing is still finished (the pebbles in hand have nowhere else to go).
    assert board(state) == {"a1": "0", "b1": "0", "c1": "01", "d1": "0", "c2": "0",
                            "a4": "111nnnnnnnn"}
    result = state.result()
    assert result is not None and result.winners == [0] and result.reason == "line"
    assert state.winning_lines == [["a1", "b1", "c1", "d1"]]
    reloaded = QAWALE.load(json.loads(json.dumps(state.dump())))
    assert reloaded.result() == result and reloaded.view(None) == state.view(None)


def test_four_neutral_tops_are_no_line() -> None:
    state = build({"a1": "n", "b1": "n", "c1": "n", "d1": "n", "b3": "1", "d4": "nnnn"})
    assert state.result() is None
    state.apply("b3:NE")  # seat 0 puts seat 1's pebble on b4 and its own on c4
    assert state.result() is None and state.current_player == 1


def test_line_for_the_opponent_only_makes_the_opponent_win() -> None:
    state = build({"a2": "1", "b2": "1", "d2": "1", "c3": "1", "a4": "0000nnnnnnnn"})
    state.apply("c3:SS")  # seat 0 drops seat 1's pebble on c2, its own on c1
    result = state.result()
    assert result is not None and result.winners == [1] and result.reason == "line"
    assert state.winning_lines == [["a2", "b2", "c2", "d2"]]


def _double_line(mover: int, **options: bool) -> QawaleState:
    """The mover sows c3 (one opponent pebble): row 2 for the opponent, row 1 for itself."""
    me, them = str(mover), str(1 - mover)
    stacks = {"a1": me, "b1": me, "d1": me, "a2": them, "b2": them, "d2": them,
              "c3": them, "a4": "nnnnnnnn"}
    state = build(stacks, seat=mover, **options)
    state.apply("c3:SS")
    return state


@pytest.mark.parametrize("mover", [0, 1])
def test_double_line_wins_for_the_mover(mover: int) -> None:
    state = _double_line(mover)
    result = state.result()
    assert result is not None and result.winners == [mover] and result.reason == "line"
    assert state.winning_lines == [["a1", "b1", "c1", "d1"]]


@pytest.mark.parametrize("mover", [0, 1])
def test_double_line_is_a_draw_without_mover_wins_double_line(mover: int) -> None:
    state = _double_line(mover, mover_wins_double_line=False)
    result = state.result()
    assert result is not None and sorted(result.winners) == [0, 1]
    assert result.reason == "draw" and result.is_draw


def test_mover_wins_double_line_is_an_option_defaulting_to_true() -> None:
    assert QAWALE.options == {"mover_wins_double_line": True}
    with pytest.raises(ValueError):
        QAWALE.new_state(2, {"mover_wins_double_line": "yes"})


def test_draw_when_both_stocks_are_empty() -> None:
    stacks = {"a1": "00000000n", "b1": "1111111n", "c1": "n", "d4": "nnnnn"}
    state = build(stacks, seat=1)
    assert state.stocks == [0, 1]
    assert not state.is_over()  # seat 1 still has a pebble to place
    state.apply("c1:NN")
    result = state.result()
    assert result is not None and sorted(result.winners) == [0, 1] and result.reason == "draw"
    assert state.legal_moves() == []


def test_line_with_the_last_pebble_wins_rather_than_draws() -> None:
    stacks = {"a1": "00000000n", "b1": "1111n", "c1": "n", "a3": "1", "b3": "1", "d3": "1",
              "d4": "nnnnn"}
    state = build(stacks, seat=1)
    state.apply("c1:NN")
    assert state.stocks == [0, 0]
    result = state.result()
    assert result is not None and result.winners == [1] and result.reason == "line"


def test_no_move_after_the_end() -> None:
    state = _double_line(0)
    before = state.dump()
    assert state.legal_moves() == []
    with pytest.raises(IllegalMove, match="the game is over"):
        state.apply("a4:SSSSSSSSS")
    assert state.dump() == before


# -- notation --------------------------------------------------------------------------


def parse(text: str) -> QawaleMove:
    return QAWALE.new_state(2).parse_move(text)


@pytest.mark.parametrize(
    "text", ["b2:NNE", "B2:nne", "b2:nNe", " b2 : NNE ", "B2 :nne", "b2:  NNE"]
)
def test_notation_is_case_insensitive_and_tolerates_spaces(text: str) -> None:
    move = parse(text)
    assert move == QawaleMove(cell("b2"), (N, N, E))
    assert str(move) == "b2:NNE"


def test_notation_str_is_canonical_and_reads_back() -> None:
    state = QAWALE.new_state(2)
    for move in state.legal_moves():
        text = str(move)
        assert text == text.strip() and text[:2].islower() and text[3:].isupper()
        assert state.parse_move(text) == move
    by_text, by_object = state.clone(), state.clone()
    by_text.apply("A1 : nne")
    by_object.apply(QawaleMove(cell("a1"), (N, N, E)))
    assert by_text.dump() == by_object.dump()


def test_notation_directions_are_compass_steps() -> None:
    # N = row + 1, S = row - 1, E = column + 1, W = column - 1
    assert landing_cells(parse("b2:NESW")) == ["b3", "c3", "c2", "b2"]
    state = build({"b2": "nnn", "d4": "nnnnn"})
    state.apply("b2:SENW")
    assert board(state) == {"b1": "n", "c1": "n", "c2": "n", "b2": "0", "d4": "nnnnn"}


@pytest.mark.parametrize("text", ["", "b2", "b2-NNE", "b2:NXE", "b2:N N", "2b:NN", "b2:NN:E"])
def test_unreadable_notation_is_refused(text: str) -> None:
    with pytest.raises(IllegalMove, match=r"not a Qawale move.*like b2:NNE"):
        QAWALE.new_state(2).apply(text)


# -- illegal moves ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("b2:NNE", "b2 is empty: a pebble may only go on a stack, never on an empty cell"),
        ("a1:SNN", "step 1 (S) leaves the board from a1"),
        ("d4:NWW", "step 1 (N) leaves the board from d4"),
        ("a1:NNW", "step 3 (W) leaves the board from a3"),
        ("a1:NEW", "step 3 (W) goes straight back to a2, the cell just left"),
        ("a1:NSN", "step 2 (S) goes straight back to a1, the cell just left"),
        ("a1:NN", "the stack on a1 will hold 3 pebbles with yours, "
                  "so the sowing needs 3 steps, not 2"),
        ("a1:NNNE", "the stack on a1 will hold 3 pebbles with yours, "
                    "so the sowing needs 3 steps, not 4"),
        ("a1:", "so the sowing needs 3 steps, not 0"),
        ("a1:NNNS", "so the sowing needs 3 steps, not 4"),  # not "step 4 goes back"
        ("a1:NENNW", "so the sowing needs 3 steps, not 5"),  # not "step 4 leaves the board"
        ("e2:NNN", "e2 is off the board"),
    ],
)
def test_illegal_move_reasons_are_specific_plain_words(text: str, reason: str) -> None:
    state = QAWALE.new_state(2)
    with pytest.raises(IllegalMove) as raised:
        state.apply(text)
    assert reason in str(raised.value)
    assert isinstance(raised.value, ValueError)
    assert not state.is_legal(text)


def test_illegal_move_leaves_the_state_unchanged() -> None:
    state = QAWALE.new_state(2)
    state.apply("a1:NNE")
    state.apply("d4:SSW")
    before = json.dumps(state.dump(), sort_keys=True)
    attempts: list[str | QawaleMove] = [
        "b1:NN", "a2:W", "a2:SS", "a2:NS", "a2:NNNN", "zz", "",
        QawaleMove(cell("a2"), (E, W)), QawaleMove(Cell(5, 5), (N,)),
    ]
    for attempt in attempts:
        with pytest.raises(IllegalMove):
            state.apply(attempt)
        assert json.dumps(state.dump(), sort_keys=True) == before, repr(attempt)
    assert state.current_player == 0 and state.stocks == [7, 7]


# -- helpers used by the UI ------------------------------------------------------------


def test_next_steps_offers_the_legal_directions_one_at_a_time() -> None:
    state = QAWALE.new_state(2)
    a1 = cell("a1")
    assert state.next_steps(QawaleMove(a1, ())) == [N, E]  # S and W leave the board
    assert state.next_steps(QawaleMove(a1, (N,))) == [N, E]  # S goes back to a1
    assert state.next_steps(QawaleMove(a1, (N, E))) == [N, S, E]  # W goes back to a2
    assert state.next_steps(QawaleMove(a1, (N, E, N))) == []  # 3 pebbles, 3 steps: done
    centre = build({"b2": "n", "d4": "nnnnnnn"})
    assert centre.next_steps(QawaleMove(cell("b2"), ())) == [N, S, E, W]


def test_next_steps_agree_with_legal_moves() -> None:
    state = build({"b2": "nnn", "a1": "1", "d4": "nnnnn"})
    for start in state.stack_cells():
        moves = state.legal_moves_from(start)
        prefixes = {m.path[:i] for m in moves for i in range(len(m.path))}
        for prefix in prefixes:
            followed = {m.path[len(prefix)] for m in moves if m.path[:len(prefix)] == prefix}
            assert set(state.next_steps(QawaleMove(start, prefix))) == followed


def test_legal_moves_from_lists_every_sowing_of_one_stack() -> None:
    state = QAWALE.new_state(2)
    assert {str(m) for m in state.legal_moves_from(cell("a1"))} == {
        "a1:NNN", "a1:NNE", "a1:NEN", "a1:NEE", "a1:NES",
        "a1:EEE", "a1:EEN", "a1:ENE", "a1:ENN", "a1:ENW",
    }
    assert state.legal_moves_from(cell("c3")) == []
    every = [m for c in ("a1", "d1", "a4", "d4") for m in state.legal_moves_from(cell(c))]
    assert sorted(map(str, every)) == sorted(map(str, state.legal_moves()))
    assert len(every) == 40


# -- position string -------------------------------------------------------------------


def test_start_position_string() -> None:
    assert QAWALE.new_state(2).position() == START
    assert QAWALE.from_position(START).dump() == QAWALE.new_state(2).dump()


def test_position_string_lists_rows_4_to_1_and_stacks_bottom_first() -> None:
    text = "n01,-,-,nn/-,1,-,-/-,-,-,nnn/nn,-,0,- 1 6 6"
    state = QAWALE.from_position(text)
    assert board(state) == {"a4": "n01", "d4": "nn", "b3": "1", "d2": "nnn", "a1": "nn",
                            "c1": "0"}
    assert state.top(cell("a4")) == "1"
    assert state.current_player == 1 and state.stocks == [6, 6]
    assert state.position() == text


def test_position_string_after_a_move() -> None:
    state = QAWALE.new_state(2)
    state.apply("a1:NNE")
    assert state.position() == "nn,-,-,nn/n,0,-,-/n,-,-,-/-,-,-,nn 1 7 8"


def test_position_round_trip_during_play() -> None:
    state = QAWALE.new_state(2)
    for text in ("a1:NNE", "d4:SSW", "a2:EE", "c2:NWN", "d1:NWW"):
        state.apply(text)
        again = QAWALE.from_position(state.position())
        assert again.position() == state.position()
        assert again.dump() == state.dump()
        assert [str(m) for m in again.legal_moves()] == [str(m) for m in state.legal_moves()]


def test_dump_and_load_keep_a_finished_game() -> None:
    state = _double_line(1)
    data = json.loads(json.dumps(state.dump()))
    loaded = QAWALE.load(data)
    assert loaded.dump() == state.dump()
    assert loaded.result() == state.result() and loaded.is_over()
    assert QAWALE.from_position(state.position()).result() == state.result()


@pytest.mark.parametrize("seat", [0, 1])
def test_finished_position_seat_field_is_not_significant(seat: int) -> None:
    stacks = {"a3": "1", "b3": "1", "c3": "n1", "d3": "1", "a1": "nnnnnnn"}
    state = build(stacks, seat=seat)
    result = state.result()
    assert result is not None and result.winners == [1] and result.reason == "line"
    assert state.legal_moves() == []


def test_from_position_checks_counts_not_reachability() -> None:
    # Seat 1 to move at the start cannot arise (seat 0 plays first), yet it is accepted.
    state = QAWALE.from_position("nn,-,-,nn/-,-,-,-/-,-,-,-/nn,-,-,nn 1 8 8")
    assert state.current_player == 1 and state.stocks == [8, 8]
    state.apply("a1:NNN")
    assert board(state)["a4"] == "nn1"


def test_a_player_with_no_pebble_left_never_moves() -> None:
    # "Put one of your pebbles": stocks that would hand the turn to an empty stock
    # before the other runs out are refused; once over, the stocks no longer matter.
    eight_zeros = "00000000nn,-,-,nn/-,-,-,-/-,-,-,-/nn,1,-,nn"
    with pytest.raises(ValueError, match="seat 0 is to move with 0 pebbles against 7"):
        QAWALE.from_position(f"{eight_zeros} 0 0 7")
    with pytest.raises(ValueError, match="seat 1 is to move with 7 pebbles against 0"):
        QAWALE.from_position(f"{eight_zeros} 1 0 7")
    with pytest.raises(ValueError, match="seat 0 is to move with 4 pebbles against 8"):
        QAWALE.from_position("nn,-,-,nn/0000,-,-,-/-,-,-,-/nn,-,-,nn 0 4 8")
    over = QAWALE.from_position("nn,-,-,nn/0,0,0,0/-,-,-,-/nn,-,-,nn 1 4 8")
    assert over.result() is not None and over.result().winners == [0]
    # The last pebble: seat 1 one ahead is how every game ends.
    last = QAWALE.from_position("00000000nn,-,-,nn/-,-,-,-/-,-,-,-/nn,1111111,-,nn 1 0 1")
    assert last.current_player == 1
    last.apply("a1:NNN")
    assert last.result() is not None and last.result().reason == "draw"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("nn,-,-,nn/-,-,-,-/-,-,-,-/nn,-,-,nn 0 8", "4 fields"),
        ("nn,-,-,nn/-,-,-,-/-,-,-,-/nn,-,-,nn 0 8 8 8", "4 fields"),
        ("nn,-,-,nn/-,-,-,-/nn,-,-,nn 0 8 8", "4 rows of 4"),
        ("nn,-,-,nn,-/-,-,-,-/-,-,-,-/nn,-,-,nn 0 8 8", "4 rows of 4"),
        ("nn,-,-,nn/-,-,-/-,-,-,-/nn,-,-,nn 0 8 8", "4 rows of 4"),
        ("nn,-,-,nn/-,-,-,-/-,-,-,-/nn,-,-,nn 2 8 8", "seat must be 0 or 1"),
        ("nn,-,-,nn/-,-,-,-/-,-,-,-/nn,-,-,nn 0 8 x", "stocks whole numbers"),
        ("nn,-,-,nn/-,-,-,-/-,-,-,-/nn,-,-,nn 0 -1 8", "stocks whole numbers"),
        ("nn,-,-,nn/-,x,-,-/-,-,-,-/nn,-,-,nn 0 8 8", "'x' is not a stack"),
        ("NN,-,-,nn/-,-,-,-/-,-,-,-/nn,-,-,nn 0 8 8", "'NN' is not a stack"),
        ("nn,,-,nn/-,-,-,-/-,-,-,-/nn,-,-,nn 0 8 8", "'' is not a stack"),
        ("nn,-,-,nn/-,-,-,-/-,-,-,-/nn,-,-,n 0 8 8", "8 neutral pebbles, not 7"),
        ("nn,-,-,nn/-,n,-,-/-,-,-,-/nn,-,-,nn 0 8 8", "8 neutral pebbles, not 9"),
        ("nn,-,-,nn/-,0,-,-/-,-,-,-/nn,-,-,nn 1 8 8", "seat 0 must have 8 pebbles"),
        ("nn,-,-,nn/-,1,-,-/-,-,-,-/nn,-,-,nn 0 8 6", "seat 1 must have 8 pebbles"),
        ("nn,-,-,nn/-,-,-,-/-,-,-,-/nn,-,-,nn 0 9 7", "seat 0 must have 8 pebbles"),
    ],
)
def test_from_position_rejects_bad_syntax_and_wrong_counts(text: str, error: str) -> None:
    with pytest.raises(ValueError) as raised:
        QAWALE.from_position(text)
    assert error in str(raised.value)


# -- result reasons --------------------------------------------------------------------


def test_result_reasons_are_line_and_draw() -> None:
    won = _double_line(0)
    drawn = _double_line(0, mover_wins_double_line=False)
    assert (won.result().reason, drawn.result().reason) == ("line", "draw")
    assert won.result().to_dict() == {"winners": [0], "scores": None, "reason": "line"}
    assert won.view(None)["result"] == {"winners": [0], "scores": None, "reason": "line"}


def test_a_line_shown_only_midway_through_the_sowing_does_not_win() -> None:
    # d1 completes a row of Dark tops with the first pebble sown, but the second pebble
    # covers c1: lines are looked for once the whole stack is sown (CHECK_LINES_DURING_SOWING
    # is a recorded reading, False).
    state = QAWALE.from_position("nn,1,1,nn/-,1,1,-/-,-,-,0n/nn0,0,n0,- 0 4 4")
    state.apply("d2:SWN")
    assert state.result() is None
    assert state.current_player == 1
    assert state.position() == "nn,1,1,nn/-,1,1,-/-,-,0,-/nn0,0,n0n,0 1 3 4"
