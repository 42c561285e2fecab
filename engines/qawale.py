"""Qawale: drop a pebble on a stack, sow the stack, show four of your colour in a line."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal, Self, TypedDict

from engines.base import (
    N_,
    EndReason,
    Game,
    GameState,
    IllegalMove,
    Result,
    ResultDict,
    Why,
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

True looks after every pebble lands: the first landing that shows a line decides the game as
the end of a sowing would (`mover_wins_double_line` included), and the sowing is still
finished, since the rules give the pebbles in hand no other place (a later pebble may cover
the line: `winning_lines` names the lines as they were shown).
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

_CELLS: tuple[Cell, ...] = tuple(GRID.cells())
"""Every cell by index `row * 4 + col` (a1 = 0, d1 = 3, a4 = 12): the engine's inner board."""

_DIRECTIONS: tuple[Direction, ...] = tuple(Direction)
"""The directions by index, in the order moves are listed (N, S, E, W)."""

_NEXT: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        GRID.cells().index(d.of(cell)) if GRID.contains(d.of(cell)) else -1
        for d in _DIRECTIONS
    )
    for cell in _CELLS
)
"""_NEXT[cell index][direction index]: the neighbour's index, or -1 off the board."""

_BACK: tuple[int, ...] = tuple(_DIRECTIONS.index(d.opposite) for d in _DIRECTIONS)
"""The index of each direction's opposite."""

_DIRECTION_INDEX: dict[Direction, int] = {d: i for i, d in enumerate(_DIRECTIONS)}

_LINE_INDICES: tuple[tuple[int, int, int, int], ...] = tuple(
    (line[0].row * 4 + line[0].col, line[1].row * 4 + line[1].col,
     line[2].row * 4 + line[2].col, line[3].row * 4 + line[3].col)
    for line in LINES
)
"""LINES as cell indices."""

_LINE_NAMES: tuple[tuple[str, ...], ...] = tuple(tuple(str(c) for c in line) for line in LINES)

_PEBBLES = ("0", "1")
"""Each seat's pebble in a stack."""

CACHED_SOWING_LENGTH = 7
"""Sowings up to this many steps are listed once per cell and kept (a few MB at most); longer
ones, rare and doubling with each step, are walked afresh each time."""

_Walk = tuple[tuple[Direction, ...], tuple[int, ...], int]
"""A sowing path under construction: its directions, the cells landed on, the last direction."""

_WALKS: dict[tuple[int, int], list[_Walk]] = {}
"""(origin, length) -> every sowing path of that length, in listing order (cached lengths)."""

_SOWINGS: dict[tuple[int, int], tuple[QawaleMove, ...]] = {}
"""(origin, length) -> the moves of those paths, made once: listing moves is then a copy."""

_KNOWN: dict[int, tuple[QawaleMove, int, tuple[int, ...]]] = {}
"""id(move) -> (move, origin, cells landed on) for every move in _SOWINGS.

Applying one of these needs no check beyond its length; the move itself is kept in the value,
so an id can never be reused by another object while it is listed here.
"""

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
            N_("{text} is not a Qawale move: write the cell, a colon and the steps, like b2:NNE"),
            text=repr(text.strip()),
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


def _extend(walks: list[_Walk]) -> list[_Walk]:
    """Every walk one step longer, in listing order (never straight back, never off the board).

    Extending a whole level in order, each walk by its directions in order, gives the order
    of the depth-first walk over directions N, S, E, W that defines the move order.
    """
    longer: list[_Walk] = []
    for path, cells, last in walks:
        here, back = cells[-1], _BACK[last]
        for index, there in enumerate(_NEXT[here]):
            if there >= 0 and index != back:
                longer.append(((*path, _DIRECTIONS[index]), (*cells, there), index))
    return longer


def _walks(origin: int, length: int) -> list[_Walk]:
    """Every sowing path of `length` (≥ 1) steps from `origin`, in listing order."""
    found = _WALKS.get((origin, length))
    if found is not None:
        return found
    if length == 1:
        found = [((_DIRECTIONS[index],), (there,), index)
                 for index, there in enumerate(_NEXT[origin]) if there >= 0]
    else:
        found = _extend(_walks(origin, min(length - 1, CACHED_SOWING_LENGTH)))
        for _ in range(length - 1 - CACHED_SOWING_LENGTH):
            found = _extend(found)
    if length <= CACHED_SOWING_LENGTH:
        _WALKS[(origin, length)] = found
    return found


def _sowings(origin: int, length: int) -> tuple[QawaleMove, ...]:
    """The complete moves sowing `length` steps from `origin`, in listing order."""
    found = _SOWINGS.get((origin, length))
    if found is not None:
        return found
    cell = _CELLS[origin]
    found = tuple(QawaleMove(cell, path) for path, _, _ in _walks(origin, length))
    if length <= CACHED_SOWING_LENGTH:
        _SOWINGS[(origin, length)] = found
        for move, (_, cells, _) in zip(found, _walks(origin, length), strict=True):
            _KNOWN[id(move)] = (move, origin, cells)
    return found


def _landings(move: QawaleMove) -> tuple[int, int, tuple[int, ...]] | None:
    """(origin, length, cells landed on) of a well-walked path: on the board, never straight
    back; None otherwise (the stack height is not checked here)."""
    known = _KNOWN.get(id(move))
    if known is not None and known[0] is move:
        return known[1], len(move.path), known[2]
    cell = move.cell
    if not GRID.contains(cell):
        return None
    origin = here = cell.row * 4 + cell.col
    cells, back = [], -1
    for direction in move.path:
        index = _DIRECTION_INDEX.get(direction, -1)
        if index < 0:
            return None
        here = _NEXT[here][index]
        if here < 0 or index == back:
            return None
        cells.append(here)
        back = _BACK[index]
    return origin, len(cells), tuple(cells)


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
        # The same list objects as `stacks`, by cell index: the engine works on these.
        self._cells = [self.stacks[cell] for cell in _CELLS]
        self.stocks = [PEBBLES_PER_PLAYER, PEBBLES_PER_PLAYER]
        self.to_move = 0
        self._result: Result | None = None
        self.winning_lines: list[list[str]] = []

    def clone(self) -> Self:
        """An independent copy (much faster than the base deepcopy)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.options = dict(self.options)
        # Rebuilt in the same key order, sharing the new lists with the cell-index list.
        other.stacks = {cell: list(stack) for cell, stack in self.stacks.items()}
        other._cells = [other.stacks[cell] for cell in _CELLS]
        other.stocks = list(self.stocks)
        other.winning_lines = [list(line) for line in self.winning_lines]
        return other

    # -- moves -----------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self._result else self.to_move

    def stack_cells(self) -> list[Cell]:
        """Cells where the player to move may put a pebble (every non-empty cell)."""
        return [cell for cell, stack in zip(_CELLS, self._cells, strict=True) if stack]

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

    def _legal_moves(self) -> list[QawaleMove]:
        moves: list[QawaleMove] = []
        for origin, stack in enumerate(self._cells):
            if stack:
                moves += _sowings(origin, len(stack) + 1)
        return moves

    def legal_moves_from(self, cell: Cell) -> list[QawaleMove]:
        """Every complete legal move starting on `cell`."""
        stack = self.stacks[cell]
        return list(_sowings(cell.row * 4 + cell.col, len(stack) + 1)) if stack else []

    def parse_move(self, text: str) -> QawaleMove:
        return parse_notation(text)

    def _checked(self, move: QawaleMove | str) -> QawaleMove:
        # Checked directly: listing every path of a tall stack to find one would be wasteful.
        if self.is_over():
            raise IllegalMove(N_("the game is over"))
        parsed = self.parse_move(move) if isinstance(move, str) else move
        if not isinstance(parsed, QawaleMove):
            raise IllegalMove(N_("{move} is not a Qawale move"), move=repr(move))
        walked = _landings(parsed)
        if walked is not None:
            stack = self._cells[walked[0]]
            if stack and walked[1] == len(stack) + 1:
                return parsed
        reason = self._why_illegal(parsed)
        if reason:
            raise IllegalMove(reason)
        return parsed

    def _why_illegal(self, move: QawaleMove) -> str | Why:
        cell = str(move.cell)
        if not GRID.contains(move.cell):
            return Why(N_("{cell} is off the board"), {"cell": cell})
        if not self.stacks[move.cell]:
            return Why(N_("{cell} is empty: a pebble may only go on a stack, never on an empty "
                          "cell"), {"cell": cell})
        needed = self.sowing_length(move.cell)
        for index in range(len(move.path)):
            partial = QawaleMove(move.cell, move.path[:index])
            direction = move.path[index]
            if direction in self.next_steps(partial):
                continue
            if index >= needed:
                break  # too many steps: said below, whatever the extra steps do
            here = (path_cells(partial) or [move.cell])[-1]
            step = {"step": index + 1, "direction": direction.name}
            if index and direction is move.path[index - 1].opposite:
                return Why(N_("step {step} ({direction}) goes straight back to {cell}, the cell "
                              "just left"), {**step, "cell": str(direction.of(here))})
            return Why(N_("step {step} ({direction}) leaves the board from {cell}"),
                       {**step, "cell": str(here)})
        if len(move.path) != needed:
            return Why(N_("the stack on {cell} will hold {needed} pebbles with yours, so the "
                          "sowing needs {needed} steps, not {steps}"),
                       {"cell": cell, "needed": needed, "steps": len(move.path)})
        return ""

    def _play(self, move: QawaleMove) -> None:
        walked = _landings(move)
        assert walked is not None  # _checked let only well-walked paths through
        origin, _, landings = walked
        mover = self.to_move
        cells = self._cells
        source = cells[origin]
        stack = [*source, _PEBBLES[mover]]
        source.clear()  # in place: `stacks` holds the same list
        self.stocks[mover] -= 1
        midway = CHECK_LINES_DURING_SOWING
        shown: list[tuple[int, int]] = []
        for pebble, there in zip(stack, landings, strict=True):
            cells[there].append(pebble)
            if midway and not shown:
                shown = self._line_numbers()
        self.to_move = 1 - mover
        self._settle(mover, shown or None)

    def _settle(self, mover: int, shown: list[tuple[int, int]] | None = None) -> None:
        """Decide whether the sowing just made by `mover` ended the game: by the lines
        `shown` midway (`CHECK_LINES_DURING_SOWING`), else by the tops it left."""
        lines = self._line_numbers() if shown is None else shown
        owners = {owner for owner, _ in lines}
        self.winning_lines = [list(_LINE_NAMES[number]) for _, number in lines]
        if len(owners) == 2:
            if self.options["mover_wins_double_line"]:
                self.winning_lines = [
                    list(_LINE_NAMES[number]) for owner, number in lines if owner == mover
                ]
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

    def _line_numbers(self) -> list[tuple[int, int]]:
        """(owner, index in LINES) of every line of four tops of one seat, in LINES order."""
        tops = [stack[-1] if stack else EMPTY for stack in self._cells]
        found: list[tuple[int, int]] = []
        for number, (a, b, c, d) in enumerate(_LINE_INDICES):
            colour = tops[a]
            if colour == tops[b] == tops[c] == tops[d] and colour in _PEBBLES:
                found.append((int(colour), number))
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
        self._cells = [stacks[cell] for cell in _CELLS]


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
            label=N_("a double line is won by the sower"),
            param="double_line",
        ),
    },
    position_parser=_from_position,
)
