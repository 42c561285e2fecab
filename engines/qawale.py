"""Qawale: drop a pebble on a stack, sow the stack, show four of your colour in a line."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal, TypedDict

from engines.base import (
    EndReason,
    Game,
    GameState,
    IllegalMove,
    Result,
    ResultDict,
    bool_option,
)
from engines.grid import Cell, Grid

GRID = Grid(4, 4)
PEBBLES_PER_PLAYER = 8
NEUTRAL = "n"
EMPTY = "-"
START_POSITION = "nn,-,-,nn/-,-,-,-/-,-,-,-/nn,-,-,nn 0 8 8"

MOVER_WINS_DOUBLE_LINE = True
"""[decision] A sowing that shows a line for both colours is won by the player who sowed."""

CHECK_LINES_DURING_SOWING = False
"""[decision] Lines are looked for once the whole stack is sown, never mid-sowing.

Recorded reading only: the engine has no mid-sowing check. The rules say nothing of what a
line shown halfway would do to the pebbles still in hand, so no faithful True variant exists.
"""


class Direction(Enum):
    """A sowing step: N = row + 1, S = row − 1, E = column + 1, W = column − 1."""

    N = (0, 1)
    S = (0, -1)
    E = (1, 0)
    W = (-1, 0)

    @property
    def opposite(self) -> Direction:
        """The step straight back."""
        return _OPPOSITES[self]

    @property
    def word(self) -> str:
        """Plain-words name, for buttons."""
        return {"N": "north", "S": "south", "E": "east", "W": "west"}[self.name]

    def of(self, cell: Cell) -> Cell:
        """The neighbour of `cell` in this direction (maybe off the board)."""
        return cell.step(*self.value)


_OPPOSITES = {Direction.N: Direction.S, Direction.S: Direction.N,
              Direction.E: Direction.W, Direction.W: Direction.E}

LINES: tuple[tuple[Cell, ...], ...] = (
    *(tuple(Cell(c, r) for c in range(4)) for r in range(4)),
    *(tuple(Cell(c, r) for r in range(4)) for c in range(4)),
    tuple(Cell(i, i) for i in range(4)),
    tuple(Cell(i, 3 - i) for i in range(4)),
)
"""The ten lines of four: rows, columns and the two long diagonals."""

_STEPS: dict[Cell, tuple[tuple[Direction, Cell, Direction], ...]] = {
    cell: tuple((d, d.of(cell), d.opposite) for d in Direction if GRID.contains(d.of(cell)))
    for cell in GRID.cells()
}
"""From each cell: (direction, the cell it leads to, the step back), on the board only."""

_MOVE = re.compile(r"^\s*([a-zA-Z]\s*\d{1,2})\s*:\s*([nsewNSEW]*)\s*$")


@dataclass(frozen=True)
class QawaleMove:
    """Put a pebble on `cell`, then sow that stack along `path`."""

    cell: Cell
    path: tuple[Direction, ...]

    def __str__(self) -> str:
        return f"{self.cell}:{''.join(d.name for d in self.path)}"


def parse_notation(text: str) -> QawaleMove:
    """Read `b2:NNE` without checking legality; a partial path is allowed."""
    match = _MOVE.match(text)
    if not match:
        raise IllegalMove(
            f"{text.strip()!r} is not a Qawale move: "
            "write the cell, a colon and the steps, like b2:NNE"
        )
    cell = GRID.parse(match[1])
    return QawaleMove(cell, tuple(Direction[letter.upper()] for letter in match[2]))


def path_cells(move: QawaleMove) -> list[Cell]:
    """The cells the pebbles land on, in order (may run off the board if the path is bad)."""
    cells, here = [], move.cell
    for direction in move.path:
        here = direction.of(here)
        cells.append(here)
    return cells


class QawaleView(TypedDict):
    """What `QawaleState.view` returns (the same for every seat: nothing is hidden)."""

    game: Literal["qawale"]
    stacks: dict[str, list[str]]
    """Cell name -> its stack, bottom first ("n" neutral, "0" / "1" a seat's pebble)."""
    stocks: list[int]
    current_player: int | None
    winning_lines: list[list[str]]
    """The lines (cell names) that ended the game, else empty."""
    result: ResultDict | None
    position: str


class QawaleState(GameState[QawaleMove, QawaleView]):
    """A Qawale game: a 4×4 board of stacks (bottom first) and two stocks."""

    def __init__(self, num_players: int, options: Mapping[str, Any]) -> None:
        super().__init__(num_players, options)
        self.stacks: dict[Cell, list[str]] = {cell: [] for cell in GRID.cells()}
        for corner in (Cell(0, 0), Cell(3, 0), Cell(0, 3), Cell(3, 3)):
            self.stacks[corner] = [NEUTRAL, NEUTRAL]
        self.stocks = [PEBBLES_PER_PLAYER, PEBBLES_PER_PLAYER]
        self.to_move = 0
        self._result: Result | None = None
        self.winning_lines: list[list[str]] = []

    # -- moves -----------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self._result else self.to_move

    def stack_cells(self) -> list[Cell]:
        """Cells where the player to move may put a pebble (every non-empty cell)."""
        return [cell for cell in GRID.cells() if self.stacks[cell]]

    def next_steps(self, move: QawaleMove) -> list[Direction]:
        """Legal next directions after a partial sowing `move` (empty when it is complete)."""
        if len(move.path) >= len(self.stacks[move.cell]) + 1:
            return []
        cells = path_cells(move)
        here = cells[-1] if cells else move.cell
        back = move.path[-1].opposite if move.path else None
        return [d for d in Direction if d is not back and GRID.contains(d.of(here))]

    def sowing_length(self, cell: Cell) -> int:
        """How many steps a sowing from `cell` takes (its height plus your pebble)."""
        return len(self.stacks[cell]) + 1

    def _paths(self, move: QawaleMove) -> Iterator[QawaleMove]:
        """Every complete sowing extending `move`, walked cell by cell."""
        needed = self.sowing_length(move.cell)
        cells = path_cells(move)
        start = cells[-1] if cells else move.cell
        back = move.path[-1].opposite if move.path else None

        def walk(
            here: Cell, path: tuple[Direction, ...], back: Direction | None
        ) -> Iterator[QawaleMove]:
            if len(path) == needed:
                yield QawaleMove(move.cell, path)
                return
            for direction, there, reverse in _STEPS[here]:
                if direction is not back:
                    yield from walk(there, (*path, direction), reverse)

        yield from walk(start, move.path, back)

    def _legal_moves(self) -> list[QawaleMove]:
        return [m for cell in self.stack_cells() for m in self._paths(QawaleMove(cell, ()))]

    def legal_moves_from(self, cell: Cell) -> list[QawaleMove]:
        """Every complete legal move starting on `cell`."""
        return list(self._paths(QawaleMove(cell, ()))) if self.stacks[cell] else []

    def parse_move(self, text: str) -> QawaleMove:
        return parse_notation(text)

    def _checked(self, move: QawaleMove | str) -> QawaleMove:
        # Checked directly: listing every path of a tall stack to find one would be wasteful.
        if self.is_over():
            raise IllegalMove("the game is over")
        parsed = self.parse_move(move) if isinstance(move, str) else move
        if not isinstance(parsed, QawaleMove):
            raise IllegalMove(f"{move!r} is not a Qawale move")
        reason = self._why_illegal(parsed)
        if reason:
            raise IllegalMove(reason)
        return parsed

    def _why_illegal(self, move: QawaleMove) -> str:
        if not GRID.contains(move.cell):
            return f"{move.cell} is off the board"
        if not self.stacks[move.cell]:
            return f"{move.cell} is empty: a pebble may only go on a stack, never on an empty cell"
        needed = self.sowing_length(move.cell)
        for index in range(len(move.path)):
            partial = QawaleMove(move.cell, move.path[:index])
            direction = move.path[index]
            if direction in self.next_steps(partial):
                continue
            if index >= needed:
                break  # too many steps: said below, whatever the extra steps do
            here = (path_cells(partial) or [move.cell])[-1]
            if index and direction is move.path[index - 1].opposite:
                return (f"step {index + 1} ({direction.name}) goes straight back to "
                        f"{direction.of(here)}, the cell just left")
            return f"step {index + 1} ({direction.name}) leaves the board from {here}"
        if len(move.path) != needed:
            return (f"the stack on {move.cell} will hold {needed} pebbles with yours, "
                    f"so the sowing needs {needed} steps, not {len(move.path)}")
        return ""

    def _play(self, move: QawaleMove) -> None:
        mover = self.to_move
        stack = [*self.stacks[move.cell], str(mover)]
        self.stacks[move.cell] = []
        self.stocks[mover] -= 1
        for pebble, cell in zip(stack, path_cells(move), strict=True):
            self.stacks[cell].append(pebble)
        self.to_move = 1 - mover
        self._settle(mover)

    def _settle(self, mover: int) -> None:
        """Decide whether the sowing just made by `mover` ended the game."""
        lines = self._lines()
        owners = {owner for owner, _ in lines}
        self.winning_lines = [[str(c) for c in line] for _, line in lines]
        if len(owners) == 2:
            if self.options["mover_wins_double_line"]:
                self.winning_lines = [[str(c) for c in line] for o, line in lines if o == mover]
                self._result = Result([mover], None, EndReason.LINE)
            else:
                self._result = Result([0, 1], None, EndReason.DRAW)
        elif owners:
            self._result = Result([owners.pop()], None, EndReason.LINE)
        elif self.stocks == [0, 0]:
            self._result = Result([0, 1], None, EndReason.DRAW)

    def top(self, cell: Cell) -> str | None:
        """The visible pebble on `cell`, or None when it is empty."""
        stack = self.stacks[cell]
        return stack[-1] if stack else None

    def _lines(self) -> list[tuple[int, tuple[Cell, ...]]]:
        found: list[tuple[int, tuple[Cell, ...]]] = []
        for line in LINES:
            tops = {self.top(cell) for cell in line}
            if len(tops) == 1 and (colour := tops.pop()) in ("0", "1"):
                found.append((int(colour), line))
        return found

    def result(self) -> Result | None:
        return self._result

    # -- views, dumps and positions ---------------------------------------------------

    def view(self, seat: int | None) -> QawaleView:
        return {
            "game": "qawale",
            "stacks": {str(cell): list(stack) for cell, stack in self.stacks.items()},
            "stocks": list(self.stocks),
            "current_player": self.current_player,
            "winning_lines": [list(line) for line in self.winning_lines],
            "result": self._result.to_dict() if self._result else None,
            "position": self.position(),
        }

    def position(self) -> str:
        """The position string of qawale.md."""
        rows = []
        for row in reversed(range(4)):
            rows.append(",".join("".join(self.stacks[Cell(c, row)]) or EMPTY for c in range(4)))
        return f"{'/'.join(rows)} {self.to_move} {self.stocks[0]} {self.stocks[1]}"

    def _dump_state(self) -> dict[str, Any]:
        return {
            "position": self.position(),
            "result": self._result.to_dict() if self._result else None,
            "winning_lines": [list(line) for line in self.winning_lines],
        }

    def _load_state(self, data: Mapping[str, Any]) -> None:
        self._set_position(data["position"])
        self._result = Result.from_dict(data["result"]) if data["result"] else None
        self.winning_lines = [list(line) for line in data["winning_lines"]]

    def _set_position(self, text: str) -> None:
        fields = text.split()
        if len(fields) != 4:
            raise ValueError("a Qawale position is: rows, seat, stock 0, stock 1 (4 fields)")
        rows = fields[0].split("/")
        if len(rows) != 4 or any(len(row.split(",")) != 4 for row in rows):
            raise ValueError("a Qawale board is 4 rows of 4 comma-separated cells, row 4 first")
        if fields[1] not in ("0", "1") or not all(f.isdigit() for f in fields[2:]):
            raise ValueError("the seat must be 0 or 1 and the stocks whole numbers")
        stacks: dict[Cell, list[str]] = {}
        for index, row in enumerate(rows):
            for col, token in enumerate(row.split(",")):
                if token != EMPTY and not re.fullmatch(r"[n01]+", token):
                    raise ValueError(f"{token!r} is not a stack: use n, 0 and 1, or - for empty")
                stacks[Cell(col, 3 - index)] = [] if token == EMPTY else list(token)
        stocks = [int(fields[2]), int(fields[3])]
        pebbles = [p for stack in stacks.values() for p in stack]
        if pebbles.count(NEUTRAL) != 8:
            raise ValueError(f"there must be 8 neutral pebbles, not {pebbles.count(NEUTRAL)}")
        for seat in (0, 1):
            if pebbles.count(str(seat)) + stocks[seat] != PEBBLES_PER_PLAYER:
                raise ValueError(f"seat {seat} must have 8 pebbles between board and stock")
        self.stacks, self.stocks, self.to_move = stacks, stocks, int(fields[1])


def _from_position(game: Game[Any], text: str, options: dict[str, Any]) -> QawaleState:
    state = QawaleState(2, options)
    state._set_position(text)
    state._settle(mover=1 - state.to_move)
    mover, other = state.stocks[state.to_move], state.stocks[1 - state.to_move]
    if state._result is None and mover - other not in (0, 1):
        # Turns alternate, so only these stocks run out together; others would let a
        # player with no pebble left move (a negative stock).
        raise ValueError(
            f"seat {state.to_move} is to move with {mover} pebbles against {other}: "
            "the stocks must be equal, or the seat to move one pebble ahead"
        )
    return state


QAWALE = Game(
    id="qawale",
    name="Qawale",
    min_players=2,
    max_players=2,
    state_class=QawaleState,
    option_specs={
        "mover_wins_double_line": bool_option(
            "a sowing showing a line for both colours is won by the sower (false: a draw)",
            MOVER_WINS_DOUBLE_LINE,
            label="a double line is won by the sower",
            param="double_line",
        ),
    },
    position_parser=_from_position,
)
