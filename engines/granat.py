"""Granat: a draughts-like capture game on a diagonal lattice, with garnet pawns that carry
garnet marbles, yellow lines that let them capture in long chains, and a central garnet cell.

The board is data (`LINES`, `GARNET_CELL_NAME`, `GARNET_LINK_NAMES`, `YELLOW_LINES`, the
halves and back rows): every rule below reads the board only through the tables built from
it, so a corrected map is an edit of those constants.
"""

from __future__ import annotations

import re
from bisect import insort
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from itertools import pairwise, repeat
from operator import is_
from typing import Any, ClassVar, Literal, Self, TypedDict

from engines.base import N_, EndReason, Game, GameState, IllegalMove, Result, ResultDict, Why
from engines.grid import Cell

# -- the board, as data ---------------------------------------------------------------------

COLUMN_LETTERS = "abcdefghi"
"""The column letters, left to right as Red sees the board."""

NUM_ROWS = 15
"""Rows 1 (Red's back row) to 15 (Blue's back row)."""

LINES: tuple[str, ...] = (
    # rising diagonals (towards the top right)
    "a1 b2 c3 d4 e5 f6 g7 h8 i9",
    "c1 d2 e3 f4 g5 h6 i7",
    "e1 f2 g3 h4 i5",
    "g1 h2 i3",
    "a3 b4 c5 d6 e7 f8 g9 h10 i11",
    "a5 b6 c7 d8 e9 f10 g11 h12 i13",
    "a7 b8 c9 d10 e11 f12 g13 h14 i15",
    "a9 b10 c11 d12 e13 f14 g15",
    "a11 b12 c13 d14 e15",
    "a13 b14 c15",
    # falling diagonals (towards the top left)
    "c1 b2 a3",
    "e1 d2 c3 b4 a5",
    "g1 f2 e3 d4 c5 b6 a7",
    "i1 h2 g3 f4 e5 d6 c7 b8 a9",
    "i3 h4 g5 f6 e7 d8 c9 b10 a11",
    "i5 h6 g7 f8 e9 d10 c11 b12 a13",
    "i7 h8 g9 f10 e11 d12 c13 b14 a15",
    "i9 h10 g11 f12 e13 d14 c15",
    "i11 h12 g13 f14 e15",
    "i13 h14 g15",
)
"""Every straight line of the lattice as its cells in order; each cell is linked to the next.

The cells of the board are the cells of these lines plus the garnet cell: 68 cells, those
whose column number (a = 1) plus row number is even.
"""

GARNET_CELL_NAME = "e8"
"""The garnet cell, in the middle of row 8 (it is not a lattice cell)."""

GARNET_LINK_NAMES: tuple[str, ...] = ("d8", "f8", "e7", "e9")
"""The four cells linked to the garnet cell; opposite links form straight lines through it."""

YELLOW_LINES: tuple[str, ...] = (
    "a1 b2 c3 d4 e5 f6 g7 h8 i9",
    "i1 h2 g3 f4 e5 d6 c7 b8 a9",
    "a15 b14 c13 d12 e11 f10 g9 h8 i7",
    "i15 h14 g13 f12 e11 d10 c9 b8 a7",
)
"""[decision] The yellow lines: the four full corner diagonals (crossing at e5, h8, e11, b8).

Every link between two consecutive cells of these strings is yellow; every other link black.
"""

OWN_HALF_ROWS: tuple[tuple[int, ...], tuple[int, ...]] = (tuple(range(1, 8)), tuple(range(9, 16)))
"""Rows (1-based) of each seat's own half; row 8 and the garnet cell belong to neither."""

BACK_ROWS: tuple[int, int] = (1, 15)
"""Each seat's own back (starting) row; a neutral pawn reaching the other one is stuck."""

FORWARD: tuple[int, int] = (1, -1)
"""Row direction of a seat's forward moves: Red up the rows, Blue down."""

SEAT_NAMES = ("Red", "Blue")
SEAT_COLOURS = ("red", "blue")
SEAT_LETTERS = ("R", "B")
PAWNS_PER_SIDE = 14
GARNET_PAWNS_PER_SIDE = 2

START_POSITION = (
    "0 R:a1*,c1,e1,g1,i1*,b2,d2,f2,h2,a3,c3,e3,g3,i3 "
    "B:a15*,c15,e15,g15,i15*,b14,d14,f14,h14,a13,c13,e13,g13,i13 0"
)
"""The start position of granat.md; Red (seat 0) moves first."""

# -- decisions (see docs/games/granat.md, "Readings and decisions") --------------------------

OWN_PAWN_JUMPS_FORWARD_ONLY = True
"""[decision] A neutral pawn's jumps over its own pawns go forward only (either forward line)."""

STEP_COMBINES_WITH_JUMPS = False
"""[decision] A plain step is not combined with jumps (True: one step may be followed by jumps)."""

STUCK_NEUTRAL_MAY_CAPTURE = False
"""[decision] A neutral pawn on the opponent's back row neither steps nor captures."""

CHAIN_GOES_ON_AT_BACK_ROW = True
"""[decision] A neutral capture chain that reaches the opponent's back row goes on until it ends."""

MARBLE_LINK_NEEDED_WHEN = "either"
"""[decision] When handing on a marble needs the two pawns joined by a line: "either" pawn in
the opponent's half (our reading), "both" in it, or only when the "giver" is in it."""

NEUTRAL_CAPTURES_BACKWARD = True
"""[decision] Neutral pawns capture in every direction, backwards too."""

NEUTRAL_CHAIN_MUST_CONTINUE = True
"""[decision] A neutral capture chain must go on while a further capture is possible."""

YELLOW_MAY_TURN_STRAIGHT_BACK = True
"""[decision] After a yellow jump the chain may go on along any yellow line, straight back too."""

BLACK_CONTINUES_STRAIGHT_ONLY = True
"""[decision] After a black jump the chain may stop, or go on straight ahead along the same line
only (False: it may go on in any direction)."""

CAPTURE_MAJORITY_RULE = False
"""[decision] Among several capturing moves the player chooses freely (True: most captures)."""

NEUTRAL_ON_GARNET_CELL_BLOCKS_YELLOW_FOR = "everyone"
"""[decision] Whose yellow lines turn black while a neutral pawn stands on the garnet cell:
"everyone" (a neutral of either side, for both players: our reading), "owner" (only the
neutral's owner) or "opponent" (only the neutral owner's opponent)."""

GARNET_SLIDES_SIDEWAYS = True
"""[decision] "Forward or backward" means both senses of any line, so garnet pawns may also use
the sideways links d8–e8–f8 (False: they may not move along a sideways line)."""

GARNET_CELL_DUTY_FIRST = True
"""[decision] The duty to take a garnet marble off e8 comes before the capture duty, which then
applies among the moves that fulfil it (False: any capture may be played instead of leaving,
and the pawn leaves on a later turn; while it stays it protects nothing, see `garnet_arrived`).
A position string cannot tell a pawn that stays from one that has just arrived (it reads the
latter); a dump can."""

STRANDED_MARBLE_IS_LOST = True
"""[decision] A garnet marble on e8 that can neither move off nor be handed on is lost (the move
`e8>`), leaving a neutral pawn on e8 (False: the duty lapses and the pawn may stay, protecting
nothing while it stays, see `garnet_arrived`). A position string cannot tell a pawn that stays
from one that has just arrived (it reads the latter); a dump can."""

NO_MOVES_LOSES = True
"""[decision] A player with no legal move loses (False: the game is drawn)."""

DRAW_WHEN_NO_NEUTRALS = True
"""[decision] The game is drawn when no neutral pawn is left on either side."""

QUIET_MOVES_FOR_DRAW = 40
"""[decision] Draw after this many moves in a row (both players counted) with no capture and no
neutral pawn moved (marble moves and garnet slides are quiet)."""

END_CHECKS: tuple[str, ...] = ("no_pawns", "no_neutrals", "quiet_moves", "no_moves")
"""[decision] The end checks made after every move, in this order."""

# -- the board tables built from the data -----------------------------------------------------


def _cell_of(name: str) -> Cell:
    return Cell(COLUMN_LETTERS.index(name[0]), int(name[1:]) - 1)


def _cells_of(text: str) -> tuple[Cell, ...]:
    return tuple(_cell_of(name) for name in text.split())


def _row_key(cell: Cell) -> tuple[int, int]:
    return (cell.row, cell.col)


GARNET_CELL = _cell_of(GARNET_CELL_NAME)
GARNET_LINKS: tuple[Cell, ...] = tuple(_cell_of(name) for name in GARNET_LINK_NAMES)


def _garnet_lines() -> list[tuple[Cell, ...]]:
    """Straight lines through the garnet cell: opposite links pair up, a lone link stays short."""
    lines: list[tuple[Cell, ...]] = []
    used: set[Cell] = set()
    for link in GARNET_LINKS:
        if link in used:
            continue
        opposite = Cell(2 * GARNET_CELL.col - link.col, 2 * GARNET_CELL.row - link.row)
        if opposite in GARNET_LINKS:
            lines.append((link, GARNET_CELL, opposite))
            used |= {link, opposite}
        else:
            lines.append((link, GARNET_CELL))
            used.add(link)
    return lines


STRAIGHT_LINES: tuple[tuple[Cell, ...], ...] = (
    *(_cells_of(line) for line in LINES),
    *_garnet_lines(),
)
"""Every straight line (the lattice lines, then those through the garnet cell) as cells."""

CELLS: tuple[Cell, ...] = tuple(
    sorted({cell for line in STRAIGHT_LINES for cell in line}, key=_row_key)
)
"""Every cell of the board, row by row from a1 (garnet cell included)."""

LINKS: frozenset[frozenset[Cell]] = frozenset(
    frozenset(pair) for line in STRAIGHT_LINES for pair in pairwise(line)
)
"""Every link (a line between two neighbouring cells), as unordered pairs."""

YELLOW_LINKS: frozenset[frozenset[Cell]] = frozenset(
    frozenset(pair)
    for line in YELLOW_LINES
    for pair in pairwise(_cells_of(line))
)
"""The yellow links; every other link is black."""

_bad_yellow = [sorted(map(str, pair)) for pair in YELLOW_LINKS if pair not in LINKS]
if _bad_yellow:  # a map edit that colours a link that does not exist is a data error
    raise ValueError(f"yellow links that are not lines of the board: {_bad_yellow}")

# Internally a cell is its index in CELLS (hashing small ints is much faster than dataclasses).
_IDX: dict[Cell, int] = {cell: index for index, cell in enumerate(CELLS)}
_NAME: tuple[str, ...] = tuple(str(cell) for cell in CELLS)
_ROW: tuple[int, ...] = tuple(cell.row for cell in CELLS)
_GARNET = _IDX[GARNET_CELL]
_BY_NAME: dict[str, int] = {name: index for index, name in enumerate(_NAME)}
_SEAT_ORDER: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(range(len(CELLS)), key=lambda i: (_ROW[i] * FORWARD[seat], CELLS[i].col)))
    for seat in (0, 1)
)
"""Per seat, the cell indices in position-string order: from that seat's back row onwards."""


@dataclass(frozen=True)
class Ray:
    """The cells met going one way along a straight line from a cell (the cell excluded)."""

    line: int
    sense: int
    cells: tuple[int, ...]
    """Cell indices (positions in CELLS), nearest first."""
    yellow_upto: tuple[bool, ...]
    """yellow_upto[i]: every link from the origin to cells[i] is yellow."""

    @property
    def key(self) -> tuple[int, int]:
        """Identifies the line and the sense: equal keys mean "straight on"."""
        return (self.line, self.sense)

    @property
    def reverse_key(self) -> tuple[int, int]:
        """The key of the ray going straight back along the same line."""
        return (self.line, -self.sense)


def _build_rays() -> tuple[tuple[Ray, ...], ...]:
    rays: list[list[Ray]] = [[] for _ in CELLS]
    for number, line in enumerate(STRAIGHT_LINES):
        for index, origin in enumerate(line):
            for sense, cells in ((1, line[index + 1 :]), (-1, tuple(reversed(line[:index])))):
                if not cells:
                    continue
                yellow, flags, previous = True, [], origin
                for cell in cells:
                    yellow = yellow and frozenset((previous, cell)) in YELLOW_LINKS
                    flags.append(yellow)
                    previous = cell
                ray = Ray(number, sense, tuple(_IDX[c] for c in cells), tuple(flags))
                rays[_IDX[origin]].append(ray)
    return tuple(tuple(found) for found in rays)


_RAYS: tuple[tuple[Ray, ...], ...] = _build_rays()
"""From each cell index, the rays along every straight line through it."""

_RAY_TO: dict[tuple[int, int], tuple[Ray, int]] = {
    (origin, cell): (ray, index)
    for origin, rays in enumerate(_RAYS)
    for ray in rays
    for index, cell in enumerate(ray.cells)
}
"""(from, to) -> (the ray from `from` that reaches `to`, the index of `to` on it)."""


def _row_step(origin: int, ray: Ray) -> int:
    """+1 / -1 / 0: the ray goes up the rows, down, or sideways."""
    return _ROW[ray.cells[0]] - _ROW[origin]


def _rays_where(keep: Callable[[int], bool], seat: int) -> tuple[tuple[Ray, ...], ...]:
    """Per cell, the rays whose first step, counted forward for `seat`, passes `keep`."""
    return tuple(
        tuple(ray for ray in rays if keep(_row_step(origin, ray) * FORWARD[seat]))
        for origin, rays in enumerate(_RAYS)
    )


_FORWARD_RAYS = tuple(_rays_where(lambda step: step > 0, seat) for seat in (0, 1))
"""Per seat, from each cell, the rays that lead forward (towards the opponent)."""

_NOT_BACKWARD_RAYS = tuple(_rays_where(lambda step: step >= 0, seat) for seat in (0, 1))
"""Per seat, the rays that do not lead backward (forward or sideways)."""

_LINKED: frozenset[tuple[int, int]] = frozenset(
    (_IDX[a], _IDX[b]) for pair in LINKS for a in pair for b in pair if a != b
)


def in_own_half(seat: int, cell: Cell) -> bool:
    """True when `cell` lies in `seat`'s own half (never row 8 nor the garnet cell)."""
    return cell != GARNET_CELL and cell.row + 1 in OWN_HALF_ROWS[seat]


def on_opponent_back_row(seat: int, cell: Cell) -> bool:
    """True when `cell` is on the back row of `seat`'s opponent."""
    return cell.row + 1 == BACK_ROWS[1 - seat]


def is_linked(a: Cell, b: Cell) -> bool:
    """True when a line joins the two cells directly."""
    return frozenset((a, b)) in LINKS


_OWN_HALF: tuple[tuple[bool, ...], ...] = tuple(
    tuple(in_own_half(seat, cell) for cell in CELLS) for seat in (0, 1)
)
_OPPONENT_BACK_ROW: tuple[tuple[bool, ...], ...] = tuple(
    tuple(on_opponent_back_row(seat, cell) for cell in CELLS) for seat in (0, 1)
)


def board_geometry() -> dict[str, Any]:
    """JSON-safe description of the board for renderers: cells, links and their colours."""
    return {
        "columns": len(COLUMN_LETTERS),
        "rows": NUM_ROWS,
        "column_letters": COLUMN_LETTERS,
        "cells": [
            {"cell": str(c), "col": c.col, "row": c.row, "garnet_cell": c == GARNET_CELL}
            for c in CELLS
        ],
        "garnet_cell": str(GARNET_CELL),
        "garnet_links": [str(c) for c in GARNET_LINKS],
        "links": [
            {
                "from": str(a),
                "to": str(b),
                "colour": "yellow" if frozenset((a, b)) in YELLOW_LINKS else "black",
            }
            for line in STRAIGHT_LINES
            for a, b in pairwise(line)
        ],
        "yellow_lines": [line.split() for line in YELLOW_LINES],
        "own_half_rows": [list(rows) for rows in OWN_HALF_ROWS],
        "back_rows": list(BACK_ROWS),
        "seat_colours": list(SEAT_COLOURS),
    }


# -- pawns and moves ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pawn:
    """A pawn of `seat`; a garnet pawn carries a garnet marble."""

    seat: int
    garnet: bool


_PAWNS: tuple[tuple[Pawn, Pawn], ...] = tuple(
    (Pawn(seat, False), Pawn(seat, True)) for seat in (0, 1)
)
"""_PAWNS[seat][garnet]: the engine puts only these on its board (pawns are immutable)."""


class MoveKind(Enum):
    """The four shapes a Granat move can take."""

    PLAIN = "plain"
    """A neutral step, jumps over own pawns, or a garnet slide: cells joined with `-`."""
    CAPTURE = "capture"
    """A capture: the start cell and each landing cell joined with `x`."""
    MARBLE = "marble"
    """A marble handed on from a garnet pawn to an own neutral pawn: `a1>c3`."""
    LOSE_MARBLE = "lose_marble"
    """The marble on the garnet cell is lost because it can go nowhere: `e8>`."""


@dataclass(frozen=True)
class GranatMove:
    """One Granat move; `str()` gives its canonical notation."""

    kind: MoveKind
    cells: tuple[Cell, ...]
    notation: str = field(init=False, compare=False, repr=False)
    """The canonical notation, computed once."""
    path: tuple[int, ...] = field(init=False, compare=False, repr=False)
    """The cells as indices in CELLS (-1 for a cell off the board), for the engine's walks."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", tuple(_IDX.get(cell, -1) for cell in self.cells))
        if self.kind is MoveKind.PLAIN:
            text = "-".join(map(str, self.cells))
        elif self.kind is MoveKind.CAPTURE:
            text = "x".join(map(str, self.cells))
        elif self.kind is MoveKind.MARBLE:
            text = f"{self.cells[0]}>{self.cells[1]}"
        else:
            text = f"{self.cells[0]}>"
        object.__setattr__(self, "notation", text)

    def __str__(self) -> str:
        return self.notation

    @property
    def start(self) -> Cell:
        """The cell of the pawn that moves (or gives its marble)."""
        return self.cells[0]

    @property
    def end(self) -> Cell:
        """The last cell named by the move."""
        return self.cells[-1]


LOSE_MARBLE = GranatMove(MoveKind.LOSE_MARBLE, (GARNET_CELL,))
"""The move `e8>`."""


_INTERNED: dict[MoveKind, dict[tuple[int, ...], GranatMove]] = {kind: {} for kind in MoveKind}
"""Per kind, path of cell indices -> its move (interned: moves are immutable)."""

_PLAIN_MOVES = _INTERNED[MoveKind.PLAIN]
_CAPTURE_MOVES = _INTERNED[MoveKind.CAPTURE]
_MARBLE_MOVES = _INTERNED[MoveKind.MARBLE]
# Looked up by these names in the walkers: hashing an Enum member runs Python code.


def _move(kind: MoveKind, path: tuple[int, ...]) -> GranatMove:
    """The move object for a path of cell indices (interned: moves are immutable)."""
    interned = _INTERNED[kind]
    move = interned.get(path)
    if move is None:
        move = interned[path] = GranatMove(kind, tuple(CELLS[i] for i in path))
    return move


def _plain(path: tuple[int, ...]) -> GranatMove:
    """The plain move along `path` (a step, jumps over own pawns or a slide)."""
    move = _PLAIN_MOVES.get(path)
    return _move(MoveKind.PLAIN, path) if move is None else move


def _capture(path: tuple[int, ...]) -> GranatMove:
    """The capture along `path`."""
    move = _CAPTURE_MOVES.get(path)
    return _move(MoveKind.CAPTURE, path) if move is None else move


_CELL_TOKEN = re.compile(r"^([a-z])(\d{1,2})$")
_SEPARATORS = re.compile(r"\s*([-x>])\s*")


def parse_cell(text: str) -> Cell:
    """Read one cell name (case-insensitive); raise IllegalMove if it is not on the board."""
    token = text.strip().lower()
    if token in _BY_NAME:
        return CELLS[_BY_NAME[token]]
    match = _CELL_TOKEN.match(token)
    if not match:
        raise IllegalMove(
            N_("{text} is not a cell (write a column letter then a row, like c3)"),
            text=repr(text.strip()),
        )
    col, row = ord(match[1]) - ord("a"), int(match[2]) - 1
    if not (0 <= col < len(COLUMN_LETTERS) and 0 <= row < NUM_ROWS):
        raise IllegalMove(N_("{cell} is off the board (columns a to i, rows 1 to {rows})"),
                          cell=token, rows=NUM_ROWS)
    cell = Cell(col, row)
    if cell not in _IDX:
        raise IllegalMove(
            N_("{cell} is not a cell of the board: odd rows hold a c e g i, even rows b d f h, "
               "and {garnet} is the garnet cell"), cell=token, garnet=str(GARNET_CELL))
    return cell


def parse_notation(text: str) -> GranatMove:
    """Read Granat notation without checking legality."""
    if not isinstance(text, str):
        raise IllegalMove(N_("{text} is not a Granat move"), text=repr(text))
    flat = _SEPARATORS.sub(r"\1", text.strip().lower())
    if not flat:
        raise IllegalMove(N_("the move is empty: write a step like c3-d4, a capture like c3xe5, "
                             "or a marble handed on like a1>c3"))
    if flat == "pass":
        raise IllegalMove(N_("there is no passing in Granat: every turn moves a pawn or a "
                             "marble"))
    if ">" in flat:
        parts = flat.split(">")
        if len(parts) != 2:
            raise IllegalMove(
                N_("{text} has several '>': a marble goes from one pawn to one pawn, like a1>c3"),
                text=repr(text.strip()),
            )
        giver = parse_cell(parts[0])
        if not parts[1]:
            if giver != GARNET_CELL:
                raise IllegalMove(
                    N_("only the marble on the garnet cell can be lost, written {garnet}>"),
                    garnet=str(GARNET_CELL),
                )
            return LOSE_MARBLE
        return GranatMove(MoveKind.MARBLE, (giver, parse_cell(parts[1])))
    if "x" in flat and "-" in flat:
        raise IllegalMove(N_("{text} mixes '-' and 'x': a move is a capture or not"),
                          text=repr(text.strip()))
    separator = "x" if "x" in flat else "-"
    parts = flat.split(separator)
    if len(parts) < 2:
        raise IllegalMove(N_("{text} is not a Granat move: write a step like c3-d4, a capture "
                             "like c3xe5, or a marble handed on like a1>c3"),
                          text=repr(text.strip()))
    kind = MoveKind.CAPTURE if separator == "x" else MoveKind.PLAIN
    return GranatMove(kind, tuple(parse_cell(part) for part in parts))


# -- the state ------------------------------------------------------------------------------------

Board = list[Pawn | None]
"""The board inside the engine: the pawn (or None) on each cell index of CELLS."""

LastJump = tuple[tuple[int, int], bool]
"""The previous jump of a garnet capture: (its ray key, whether it was yellow)."""


class GranatPawnView(TypedDict):
    """A pawn on the board, with its cell's column and row (0-based) for drawing."""

    cell: str
    col: int
    row: int
    seat: int
    colour: str
    garnet: bool
    stuck: bool
    """A neutral pawn on the opponent's back row: it can no longer move."""


class GranatPlayerView(TypedDict):
    """One side's pawns and whether a capture of theirs may stop early."""

    seat: int
    colour: str
    name: str
    pawns: int
    garnet_pawns: int
    neutral_pawns: int
    captured: int
    may_stop_early: bool


class GranatOccupantView(TypedDict):
    """The pawn on the garnet cell."""

    seat: int
    colour: str
    garnet: bool


class GranatGarnetCellView(TypedDict):
    """The garnet cell: its links, its occupant and what that occupant means now."""

    cell: str
    links: list[str]
    occupant: GranatOccupantView | None
    status: str
    """"empty", "neutral", "must_leave", "protecting", or "staying" (a garnet pawn that neither
    protects nor must leave this move: it did not arrive with the last move, or its duty to
    leave lapsed; only possible with GARNET_CELL_DUTY_FIRST or STRANDED_MARBLE_IS_LOST off)."""


class GranatView(TypedDict):
    """What `GranatState.view` returns (the same for every seat: nothing is hidden)."""

    game: Literal["granat"]
    current_player: int | None
    to_move: int
    result: ResultDict | None
    position: str
    pawns: list[GranatPawnView]
    players: list[GranatPlayerView]
    garnet_cell: GranatGarnetCellView
    protected_seat: int | None
    yellow_lines_active: bool
    capture_due: bool
    must_leave_garnet_cell: bool
    movable_pawns: list[str]
    quiet_moves: int
    quiet_moves_for_draw: int
    last_move: str | None
    last_move_description: str | None
    last_move_path: list[str]
    last_captured: list[str]


class GranatState(GameState[GranatMove, GranatView]):
    """A Granat game: the pawns on the board, the side to move and the quiet-move count."""

    def __init__(self, num_players: int, options: Mapping[str, Any]) -> None:
        super().__init__(num_players, options)
        self.board: Board = [None] * len(CELLS)
        self.to_move = 0
        self.quiet = 0
        # The last move put a garnet pawn on e8 (it moved there or received the marble there):
        # only then does it protect its side, during this one move (granat.md).
        self.garnet_arrived = False
        self._result: Result | None = None
        self.last_move: str | None = None
        self.last_description: str | None = None
        self.last_path: list[str] = []
        self.last_captured: list[str] = []
        self._moves_cache: list[GranatMove] | None = None
        self._position_cache: str | None = None
        # Each seat's pawn cells, row by row; like the other caches, reset by every change.
        self._own_cache: tuple[list[int], list[int]] | None = None
        if _START_BOARD:
            self.board = list(_START_BOARD)
        else:
            self._set_position(START_POSITION)

    def clone(self) -> Self:
        """An independent copy (faster than the base deepcopy)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.options = dict(self.options)
        other.board = list(self.board)
        other.last_path = list(self.last_path)
        other.last_captured = list(self.last_captured)
        return other

    # -- simple queries -------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self._result else self.to_move

    def result(self) -> Result | None:
        return self._result

    def pawn_at(self, cell: Cell | str) -> Pawn | None:
        """The pawn on a cell, or None (also for a cell that is not on the board)."""
        index = _IDX.get(parse_cell(cell) if isinstance(cell, str) else cell)
        return None if index is None else self.board[index]

    def pawn_cells(self, seat: int) -> list[Cell]:
        """The cells of `seat`'s pawns, row by row from a1."""
        return [CELLS[i] for i in self._own(seat)]

    def _own(self, seat: int) -> list[int]:
        """The cells of `seat`'s pawns, row by row (a cached list: do not change it)."""
        owned = self._own_cache
        if owned is None:
            red: list[int] = []
            blue: list[int] = []
            for index, pawn in enumerate(self.board):
                if pawn is not None:
                    (blue if pawn.seat else red).append(index)
            owned = self._own_cache = (red, blue)
        return owned[seat]

    def protected_seat(self) -> int | None:
        """The seat whose pawns cannot be captured this move (its garnet pawn just reached e8)."""
        # The flag, not the board: with GARNET_CELL_DUTY_FIRST or STRANDED_MARBLE_IS_LOST off a
        # garnet pawn may stay on e8, and it protects only on the move after it arrived.
        if not self.garnet_arrived or self._result:
            return None
        pawn = self.board[_GARNET]
        if pawn and pawn.garnet and pawn.seat != self.to_move:
            return pawn.seat
        return None

    def _arrival_from_board(self) -> bool:
        """`garnet_arrived` as the position string reads it: a garnet pawn on e8 of the side
        that just moved arrived with that move (always true under the default rules, where the
        marble leaves on its owner's next turn)."""
        pawn = self.board[_GARNET]
        return pawn is not None and pawn.garnet and pawn.seat != self.to_move

    def must_leave_garnet_cell(self) -> bool:
        """True when the side to move has a garnet pawn on e8 whose marble must leave now."""
        # Not merely a pawn there: with GARNET_CELL_DUTY_FIRST or STRANDED_MARBLE_IS_LOST off,
        # the duty may lapse this move, and the board must not tell the player to leave.
        return self._duty_moves() is not None

    def _garnet_pawn_to_move_on_cell(self) -> bool:
        """True when the side to move has a garnet pawn on e8 (the game not over)."""
        pawn = self.board[_GARNET]
        return bool(pawn and pawn.garnet and pawn.seat == self.to_move and not self._result)

    def yellow_lines_active(self, seat: int | None = None) -> bool:
        """False while a neutral pawn on e8 turns `seat`'s yellow lines black (default: to move)."""
        return _yellow_active(self.board, self.to_move if seat is None else seat)

    def capture_due(self) -> bool:
        """True when the side to move must capture."""
        moves = self.legal_moves()
        return bool(moves) and moves[0].kind is MoveKind.CAPTURE

    def may_stop_early(self, seat: int) -> bool:
        """True when `seat` has lost both garnet pawns and so may stop the game (by resigning)."""
        return not any(p is not None and p.garnet and p.seat == seat for p in self.board)

    def movable_pawns(self) -> list[Cell]:
        """Cells of the pawns that have a legal move (only capturing pawns when one is due)."""
        starts = {move.start for move in self.legal_moves()}
        return [cell for cell in CELLS if cell in starts]

    def moves_of(self, cell: Cell | str) -> list[GranatMove]:
        """The legal moves of the pawn on `cell` (its marble hand-ons and `e8>` included)."""
        cell = parse_cell(cell) if isinstance(cell, str) else cell
        return [move for move in self.legal_moves() if move.start == cell]

    def captured_cells(self, move: GranatMove) -> list[Cell]:
        """The cells of the pawns a capture takes, in order (empty for other moves)."""
        if move.kind is not MoveKind.CAPTURE:
            return []
        taken = []
        for here, land in pairwise(move.cells):
            found = _RAY_TO.get((_IDX[here], _IDX[land]))
            if found is None or found[1] == 0:
                raise IllegalMove(N_("{jump} does not jump over a pawn"), jump=f"{here}x{land}")
            ray, index = found
            taken.append(CELLS[ray.cells[index - 1]])
        return taken

    def describe_move(self, move: GranatMove | str) -> str:
        """Plain words for a legal move here, e.g. "neutral pawn c3 captures 2: d4, f6 (...)"."""
        return self._describe(self._checked(move))

    # -- move generation ----------------------------------------------------------------------

    def _legal_moves(self) -> list[GranatMove]:
        if self._moves_cache is None:
            self._moves_cache = self._compute_moves()
        return list(self._moves_cache)

    def _compute_moves(self) -> list[GranatMove]:
        duty = self._duty_moves()
        if duty is not None:
            return duty
        seat = self.to_move
        own = self._own(seat)
        captures = self._captures(own)
        if captures:
            return captures
        # `_plain_moves` then `_marble_moves` per pawn, inlined for the neutral pawns: this
        # loop is most of the engine's time in a search or a random playout.
        moves: list[GranatMove] = []
        board = self.board
        stuck, steps, jumps = _OPPONENT_BACK_ROW[seat], _STEPS[seat], _JUMPS[seat]
        for cell in own:
            pawn = board[cell]
            assert pawn is not None
            if pawn.garnet:
                moves += _garnet_slide_moves(board, cell)
                moves += self._marble_moves(cell)
            elif not stuck[cell]:
                if STEP_COMBINES_WITH_JUMPS:
                    moves += _neutral_walk_moves(board, cell, seat)
                    continue
                for target, move in steps[cell]:
                    if board[target] is None:
                        moves.append(move)
                for middle, land in jumps[cell]:
                    other = board[middle]
                    if other is not None and other.seat == seat and board[land] is None:
                        moves += _jump_moves(board, cell, seat, (cell,))
                        break  # a first jump exists: _jump_moves lists them all
        return moves

    def _duty_moves(self) -> list[GranatMove] | None:
        """When the marble on e8 must leave: the moves that take it off; None when no duty."""
        if not self._garnet_pawn_to_move_on_cell():
            return None
        if not GARNET_CELL_DUTY_FIRST and self._captures(self._own(self.to_move)):
            return None
        leaving = self._captures([_GARNET])
        if not leaving:
            leaving = self._plain_moves(_GARNET) + self._marble_moves(_GARNET)
        if leaving:
            return leaving
        return [LOSE_MARBLE] if STRANDED_MARBLE_IS_LOST else None

    def _captures(self, cells: list[int]) -> list[GranatMove]:
        """Every capture by the pawns on `cells` (none while the opponent is protected)."""
        seat = self.to_move
        if self.protected_seat() == 1 - seat:
            return []
        board = list(self.board)
        chains: list[tuple[int, ...]] = []
        stuck, pairs = _OPPONENT_BACK_ROW[seat], _CAPTURE_PAIRS[seat]
        for cell in cells:
            pawn = board[cell]
            assert pawn is not None
            if pawn.garnet:
                chains += _garnet_chains(board, cell, seat)
            elif STUCK_NEUTRAL_MAY_CAPTURE or not stuck[cell]:
                # The common case, nothing to capture, is found here without a call.
                for over, land in pairs[cell]:
                    victim = board[over]
                    if victim is not None and victim.seat != seat and board[land] is None:
                        chains += _neutral_chains(board, cell, seat)
                        break
        if CAPTURE_MAJORITY_RULE and chains:
            most = max(len(chain) for chain in chains)
            chains = [chain for chain in chains if len(chain) == most]
        return [_capture(chain) for chain in chains]

    def _plain_moves(self, cell: int) -> list[GranatMove]:
        """Steps, own-pawn jumps or slides of the pawn on `cell` (no capture)."""
        pawn = self.board[cell]
        assert pawn is not None
        if pawn.garnet:
            return _garnet_slide_moves(self.board, cell)
        if _OPPONENT_BACK_ROW[pawn.seat][cell]:
            return []
        return _neutral_walk_moves(self.board, cell, pawn.seat)

    def _marble_moves(self, cell: int) -> list[GranatMove]:
        """The marble hand-ons from the garnet pawn on `cell` to own neutral pawns."""
        board = self.board
        giver = board[cell]
        if giver is None or not giver.garnet:
            return []
        allowed = _MARBLE_ALLOWED[giver.seat][cell]
        moves = []
        for other in self._own(giver.seat):
            taker = board[other]
            if allowed[other] and taker is not None and not taker.garnet:
                move = _MARBLE_MOVES.get((cell, other))
                moves.append(_move(MoveKind.MARBLE, (cell, other)) if move is None else move)
        return moves

    # -- playing --------------------------------------------------------------------------------

    def parse_move(self, text: str) -> GranatMove:
        return parse_notation(text)

    def _checked(self, move: GranatMove | str) -> GranatMove:
        if self.is_over():
            raise IllegalMove(N_("the game is over"))
        parsed = self.parse_move(move) if isinstance(move, str) else move
        moves = self._moves_cache
        if moves is None:
            moves = self._moves_cache = self._compute_moves()
        # The listed (interned) objects themselves are found by identity, without calling
        # the dataclass __eq__ on every move listed before them.
        if any(map(is_, moves, repeat(parsed))) or parsed in moves:
            return parsed
        raise IllegalMove(self._why_illegal(parsed))

    def _play(self, move: GranatMove) -> None:
        seat = self.to_move
        self.last_description = self._describe(move)
        self.last_move = move.notation
        path = move.path
        self.last_path = [_NAME[cell] for cell in path]
        self.last_captured = []
        board = self.board
        kind = move.kind
        if kind is MoveKind.LOSE_MARBLE:
            board[_GARNET] = _PAWNS[seat][False]
            self.quiet += 1
        elif kind is MoveKind.MARBLE:
            board[path[0]] = _PAWNS[seat][False]
            board[path[1]] = _PAWNS[seat][True]
            self.quiet += 1
        else:
            start, end = path[0], path[-1]
            pawn = board[start]
            assert pawn is not None
            board[start] = None
            taken_cells = _captured(move) if kind is MoveKind.CAPTURE else []
            if kind is MoveKind.CAPTURE:
                for taken in taken_cells:
                    board[taken] = None
                    self.last_captured.append(_NAME[taken])
                self.quiet = 0
            else:
                # garnet slides are quiet; a neutral pawn that moves resets the count
                self.quiet = self.quiet + 1 if pawn.garnet else 0
            board[end] = pawn
            owned = self._own_cache
            if owned is not None:
                # Updated rather than recounted; new lists, as clones share the old ones.
                mine = [cell for cell in owned[seat] if cell != start]
                insort(mine, end)
                theirs = owned[1 - seat]
                if taken_cells:
                    theirs = [cell for cell in theirs if cell not in taken_cells]
                self._own_cache = (mine, theirs) if seat == 0 else (theirs, mine)
        # Set by a slide or a marble ending on e8, cleared by every other move: a garnet pawn
        # that stays there (rules switched off) protects nothing.
        arrived = board[_GARNET]
        self.garnet_arrived = path[-1] == _GARNET and arrived is not None and arrived.garnet
        self.to_move = 1 - seat
        self._moves_cache = self._position_cache = None
        self._settle()

    def _settle(self) -> None:
        """Apply the end checks of granat.md, in the order of END_CHECKS."""
        for name in END_CHECKS:
            result = self._END_CHECKS[name](self)
            if result:
                self._result = result
                return

    def _check_no_pawns(self) -> Result | None:
        for seat in (0, 1):
            if not self._own(seat):
                return Result([1 - seat], None, EndReason.CAPTURED_ALL)
        return None

    def _check_no_neutrals(self) -> Result | None:
        if not DRAW_WHEN_NO_NEUTRALS:
            return None
        board = self.board
        for seat in (0, 1):
            for cell in self._own(seat):
                pawn = board[cell]
                if pawn is not None and not pawn.garnet:
                    return None
        return Result([0, 1], None, EndReason.DRAW)

    def _check_quiet_moves(self) -> Result | None:
        if QUIET_MOVES_FOR_DRAW is not None and self.quiet >= QUIET_MOVES_FOR_DRAW:
            return Result([0, 1], None, EndReason.DRAW)
        return None

    def _check_no_moves(self) -> Result | None:
        if self._moves_cache is None:
            self._moves_cache = self._compute_moves()  # listed now, kept for the next turn
        if self._moves_cache:
            return None
        if NO_MOVES_LOSES:
            return Result([1 - self.to_move], None, EndReason.NO_MOVES)
        return Result([0, 1], None, EndReason.DRAW)

    _END_CHECKS: ClassVar[dict[str, Callable[[GranatState], Result | None]]] = {
        "no_pawns": _check_no_pawns,
        "no_neutrals": _check_no_neutrals,
        "quiet_moves": _check_quiet_moves,
        "no_moves": _check_no_moves,
    }
    """END_CHECKS names -> the checks, as plain functions (bound methods are made per call)."""

    # -- descriptions and reasons ------------------------------------------------------------

    def _describe(self, move: GranatMove) -> str:
        return str(self._describe_why(move))

    def _describe_why(self, move: GranatMove) -> Why:
        """Plain words for a legal move about to be played, with their values apart."""
        kind = move.kind
        if kind is MoveKind.LOSE_MARBLE:
            return Why(_SAYS_LOSES_MARBLE, {"garnet": str(GARNET_CELL)})
        path = move.path
        board = self.board
        start, end = _NAME[path[0]], _NAME[path[-1]]
        pawn = board[path[0]]
        assert pawn is not None
        cells = {"start": start, "end": end}
        protects = (path[-1] == _GARNET and kind is not MoveKind.CAPTURE
                    and (pawn.garnet or kind is MoveKind.MARBLE))
        if kind is MoveKind.MARBLE:
            return Why(_SAYS_HANDS_ON_PROTECTING[pawn.seat] if protects else _SAYS_HANDS_ON,
                       cells)
        if kind is MoveKind.CAPTURE:
            taken = _captured(move)
            garnets = sum(1 for cell in taken if (p := board[cell]) and p.garnet)
            params = {**cells, "count": len(taken), "taken": ", ".join(_NAME[i] for i in taken),
                      "garnets": garnets}
            return Why(_SAYS_CAPTURES[pawn.garnet][min(garnets, 2)], params)
        if pawn.garnet:
            return Why(_SAYS_SLIDES_PROTECTING[pawn.seat] if protects else _SAYS_SLIDES, cells)
        if len(path) == 2 and _RAY_TO[(path[0], path[1])][1] == 0:
            return Why(_SAYS_STEPS, cells)
        over = [_NAME[_RAY_TO[(a, b)][0].cells[0]] for a, b in pairwise(path)]
        params = {**cells, "over": ", ".join(over), "count": len(over)}
        return Why(_SAYS_JUMPS_ONE if len(over) == 1 else _SAYS_JUMPS_MANY, params)

    def describe_why(self, move: GranatMove | str) -> Why:
        """`describe_move` with its values apart, for a translation."""
        return self._describe_why(self._checked(move))

    def _why_illegal(self, move: Any) -> Why:
        if not isinstance(move, GranatMove):
            return Why(N_("{text} is not a Granat move"), {"text": repr(move)})
        stray = next((cell for cell in move.cells if cell not in _IDX), None)
        if stray is not None:
            return Why(N_("{cell} is not a cell of the board"), {"cell": str(stray)})
        seat = self.to_move
        duty = self._duty_moves()
        garnet = {"garnet": str(GARNET_CELL)}
        if move.kind is MoveKind.LOSE_MARBLE:
            if duty:
                return Why(N_("your garnet pawn on {garnet} can still leave the garnet cell (for "
                              "example {example}), so its marble is not lost"),
                           {**garnet, "example": str(duty[0])})
            return Why(N_("{garnet}> is only played when your garnet pawn on {garnet} can "
                          "neither leave the garnet cell nor hand its marble on"), garnet)
        pawn = self.pawn_at(move.start)
        if pawn is None:
            return Why(N_("there is no pawn on {cell}"), {"cell": str(move.start)})
        if pawn.seat != seat:
            return Why((N_("the pawn on {cell} is Red's, not yours"),
                        N_("the pawn on {cell} is Blue's, not yours"))[pawn.seat],
                       {"cell": str(move.start)})
        if duty is not None and move.start != GARNET_CELL:
            return Why(N_("your garnet pawn on {garnet} must leave the garnet cell this turn: "
                          "move it off, or hand its marble to one of your neutral pawns next to "
                          "it"), garnet)
        path = tuple(_IDX[cell] for cell in move.cells)
        if move.kind is MoveKind.MARBLE:
            reason = self._why_marble_illegal(path, pawn)
        elif move.kind is MoveKind.CAPTURE:
            reason = self._why_capture_illegal(path, pawn)
        elif pawn.garnet:
            reason = self._why_slide_illegal(path)
        else:
            reason = self._why_walk_illegal(path, pawn)
        if reason:
            return reason
        if move.kind is not MoveKind.CAPTURE:
            captures = self._captures(self._own(seat))
            if captures:
                examples = ", ".join(str(m) for m in captures[:3])
                return Why(N_("capturing is mandatory: you must capture (for example "
                              "{examples})"), {"examples": examples})
        if CAPTURE_MAJORITY_RULE and move.kind is MoveKind.CAPTURE:
            return Why(N_("another capture takes more pawns, and the most captures must be "
                          "taken"))
        return Why(N_("that move is not legal here"))

    def _why_marble_illegal(self, path: tuple[int, ...], pawn: Pawn) -> Why | None:
        giver, taker = path
        if not pawn.garnet:
            return Why(N_("the pawn on {cell} is a neutral pawn: only a garnet pawn hands on a "
                          "marble"), {"cell": _NAME[giver]})
        receiver = self.board[taker]
        if receiver is None:
            return Why(N_("there is no pawn on {cell} to receive the marble"),
                       {"cell": _NAME[taker]})
        if receiver.seat != pawn.seat:
            return Why((N_("the pawn on {cell} is Red's: a marble goes to your own pawns"),
                        N_("the pawn on {cell} is Blue's: a marble goes to your own pawns"))[
                            receiver.seat], {"cell": _NAME[taker]})
        if receiver.garnet:
            return Why(N_("{cell} is already a garnet pawn: a marble goes to a neutral pawn"),
                       {"cell": _NAME[taker]})
        if not _marble_may_pass(pawn.seat, giver, taker):
            return Why(N_("{start} and {end} are not joined by a line: in the opponent's half "
                          "(row 8 and {garnet} included) a marble only passes between pawns on "
                          "neighbouring cells"),
                       {"start": _NAME[giver], "end": _NAME[taker], "garnet": str(GARNET_CELL)})
        return None

    def _why_slide_illegal(self, path: tuple[int, ...]) -> Why | None:
        if len(path) != 2:
            return Why(N_("a garnet pawn moves along one straight line in one go: write only its "
                          "start and end cells, like a1-e5"))
        start, end = path
        found = _RAY_TO.get((start, end))
        if found is None:
            if _GARNET in path:
                return _garnet_cell_access()
            return Why(N_("{start} and {end} are not on one straight line"),
                       {"start": _NAME[start], "end": _NAME[end]})
        ray, index = found
        if not GARNET_SLIDES_SIDEWAYS and _row_step(start, ray) == 0:
            return Why(N_("{move} runs sideways: garnet pawns move only forward or backward"),
                       {"move": f"{_NAME[start]}-{_NAME[end]}"})
        for cell in ray.cells[: index + 1]:
            other = self.board[cell]
            if other is None:
                continue
            if cell == end:
                return Why(N_("{cell} is occupied"), {"cell": _NAME[end]})
            if other.seat == self.to_move:
                return Why(N_("{cell} is in the way: a garnet pawn never passes over its own "
                              "pawns"), {"cell": _NAME[cell]})
            return Why(N_("{cell} is in the way: a garnet pawn passes an enemy pawn only to "
                          "capture it (a capture is written with x, like {start}x...)"),
                       {"cell": _NAME[cell], "start": _NAME[start]})
        return None

    def _why_walk_illegal(self, path: tuple[int, ...], pawn: Pawn) -> Why | None:
        seat = pawn.seat
        if _OPPONENT_BACK_ROW[seat][path[0]]:
            return Why((N_("the neutral pawn on {cell} has reached Red's back row and can no "
                           "longer move as a neutral pawn (it can still receive a marble)"),
                        N_("the neutral pawn on {cell} has reached Blue's back row and can no "
                           "longer move as a neutral pawn (it can still receive a marble)"))[
                               1 - seat], {"cell": _NAME[path[0]]})
        board = list(self.board)
        board[path[0]] = None
        stepped = jumped = False
        here = path[0]
        for land in path[1:]:
            move_text = f"{_NAME[here]}-{_NAME[land]}"
            found = _RAY_TO.get((here, land))
            if found is None or found[1] > 1:
                if _GARNET in (here, land):
                    return _garnet_cell_access()
                return Why(N_("{move} is neither a step along a line nor a jump over the next "
                              "cell"), {"move": move_text})
            ray, index = found
            row_step = _row_step(here, ray) * FORWARD[seat]
            if row_step <= 0 and (index == 0 or OWN_PAWN_JUMPS_FORWARD_ONLY):
                template = (N_("a neutral pawn only moves forward (towards row {row}), and "
                               "{move} goes sideways") if row_step == 0 else
                            N_("a neutral pawn only moves forward (towards row {row}), and "
                               "{move} goes backward"))
                return Why(template, {"row": BACK_ROWS[1 - seat], "move": move_text})
            if index == 0:
                if stepped or jumped:
                    return Why(N_("a neutral pawn steps only one cell, and a step cannot follow "
                                  "jumps"))
                stepped = True
            else:
                middle = ray.cells[0]
                other = board[middle]
                if other is None:
                    return Why(N_("there is no pawn on {cell} to jump over"),
                               {"cell": _NAME[middle]})
                if other.seat != seat:
                    return Why(N_("{cell} holds an enemy pawn: jumping over it is a capture, "
                                  "written {capture}"),
                               {"cell": _NAME[middle], "capture": f"{_NAME[here]}x{_NAME[land]}"})
                if stepped and not STEP_COMBINES_WITH_JUMPS:
                    return Why(N_("a neutral pawn either steps one cell or jumps over its own "
                                  "pawns: a step cannot be combined with jumps"))
                jumped = True
            if board[land] is not None:
                return Why(N_("{cell} is occupied"), {"cell": _NAME[land]})
            here = land
        return None

    def _why_capture_illegal(self, path: tuple[int, ...], pawn: Pawn) -> Why | None:
        seat = pawn.seat
        garnet = {"garnet": str(GARNET_CELL)}
        if self.protected_seat() == 1 - seat:
            return Why((N_("Red's pawns are protected this move by their garnet pawn on "
                           "{garnet}: no capture is possible"),
                        N_("Blue's pawns are protected this move by their garnet pawn on "
                           "{garnet}: no capture is possible"))[1 - seat], garnet)
        stuck = not pawn.garnet and _OPPONENT_BACK_ROW[seat][path[0]]
        if stuck and not STUCK_NEUTRAL_MAY_CAPTURE:
            return Why((N_("the neutral pawn on {cell} has reached Red's back row and can no "
                           "longer capture"),
                        N_("the neutral pawn on {cell} has reached Blue's back row and can no "
                           "longer capture"))[1 - seat], {"cell": _NAME[path[0]]})
        board = list(self.board)
        board[path[0]] = None
        last: LastJump | None = None
        here = path[0]
        for land in path[1:]:
            jump_text = f"{_NAME[here]}x{_NAME[land]}"
            jump = {"jump": jump_text}
            found = _RAY_TO.get((here, land))
            if found is None:
                if _GARNET in (here, land):
                    return _garnet_cell_access()
                return Why(N_("{start} and {end} are not on one straight line"),
                           {"start": _NAME[here], "end": _NAME[land]})
            ray, index = found
            if index == 0:
                return Why(N_("{jump} jumps over nothing: a capture lands just beyond the pawn "
                              "taken"), jump)
            if not pawn.garnet and index != 1:
                return Why(N_("a neutral pawn captures only a pawn right next to it, landing on "
                              "the cell just beyond: {jump} is too long"), jump)
            if pawn.garnet:
                blocker = next((c for c in ray.cells[: index - 1] if board[c] is not None), None)
                if blocker is not None:
                    return Why(N_("{cell} is in the way of {jump}: a garnet pawn captures one "
                                  "pawn and lands on the cell just after it"),
                               {"cell": _NAME[blocker], **jump})
            over = ray.cells[index - 1]
            victim = board[over]
            if victim is None:
                return Why(N_("there is no pawn on {cell} to capture"), {"cell": _NAME[over]})
            if victim.seat == seat:
                return Why(N_("{cell} holds your own pawn: only enemy pawns are captured"),
                           {"cell": _NAME[over]})
            if board[land] is not None:
                return Why(N_("{cell} is occupied: the capturing pawn must land on an empty "
                              "cell"), {"cell": _NAME[land]})
            backward = _row_step(here, ray) * FORWARD[seat] < 0
            if not pawn.garnet and not NEUTRAL_CAPTURES_BACKWARD and backward:
                return Why(N_("a neutral pawn does not capture backward"))
            if pawn.garnet:
                yellow = ray.yellow_upto[index] and _yellow_active(board, seat)
                if last is not None:
                    reason = _why_jump_may_not_follow(last, ray, yellow, jump_text)
                    if reason:
                        return reason
                last = (ray.key, yellow)
            board[over] = None
            here = land
        if pawn.garnet:
            if last is not None and last[1]:
                options = _garnet_options(board, here, seat, last)
                if options:
                    return Why(N_("after a jump along a yellow line the capture must go on while "
                                  "it can: from {cell} it can still capture {victim}"),
                               {"cell": _NAME[here], "victim": _NAME[options[0][2]]})
        elif NEUTRAL_CHAIN_MUST_CONTINUE and not _chain_stops_at_back_row(here, seat):
            next_jumps = _neutral_options(board, here, seat)
            if next_jumps:
                return Why(N_("the capture must go on while it can: from {cell} the pawn can "
                              "still capture {victim}"),
                           {"cell": _NAME[here], "victim": _NAME[next_jumps[0][0]]})
        return None

    # -- views, dumps and positions -------------------------------------------------------------

    def view(self, seat: int | None) -> GranatView:
        occupant = self.board[_GARNET]
        if occupant is None:
            status = "empty"
        elif not occupant.garnet:
            status = "neutral"
        elif occupant.seat == self.to_move:
            # A duty lapsed (rules switched off) leaves the pawn staying; a game over keeps
            # the status its last position had.
            lapsed = not self._result and not self.must_leave_garnet_cell()
            status = "staying" if lapsed else "must_leave"
        elif self.garnet_arrived:
            status = "protecting"
        else:
            status = "staying"
        over = self.is_over()
        return {
            "game": "granat",
            "current_player": self.current_player,
            "to_move": self.to_move,
            "result": self._result.to_dict() if self._result else None,
            "position": self.position(),
            "pawns": [
                {
                    "cell": _NAME[i],
                    "col": CELLS[i].col,
                    "row": CELLS[i].row,
                    "seat": pawn.seat,
                    "colour": SEAT_COLOURS[pawn.seat],
                    "garnet": pawn.garnet,
                    "stuck": not pawn.garnet and _OPPONENT_BACK_ROW[pawn.seat][i],
                }
                for i, pawn in enumerate(self.board)
                if pawn is not None
            ],
            "players": [self._player_view(s) for s in (0, 1)],
            "garnet_cell": {
                "cell": str(GARNET_CELL),
                "links": [str(c) for c in GARNET_LINKS],
                "occupant": (
                    None
                    if occupant is None
                    else {
                        "seat": occupant.seat,
                        "colour": SEAT_COLOURS[occupant.seat],
                        "garnet": occupant.garnet,
                    }
                ),
                "status": status,
            },
            "protected_seat": self.protected_seat(),
            "yellow_lines_active": self.yellow_lines_active(),
            "capture_due": False if over else self.capture_due(),
            "must_leave_garnet_cell": self.must_leave_garnet_cell(),
            "movable_pawns": [] if over else [str(c) for c in self.movable_pawns()],
            "quiet_moves": self.quiet,
            "quiet_moves_for_draw": QUIET_MOVES_FOR_DRAW,
            "last_move": self.last_move,
            "last_move_description": self.last_description,
            "last_move_path": list(self.last_path),
            "last_captured": list(self.last_captured),
        }

    def _player_view(self, seat: int) -> GranatPlayerView:
        pawns = [p for p in self.board if p is not None and p.seat == seat]
        garnets = sum(1 for p in pawns if p.garnet)
        return {
            "seat": seat,
            "colour": SEAT_COLOURS[seat],
            "name": SEAT_NAMES[seat],
            "pawns": len(pawns),
            "garnet_pawns": garnets,
            "neutral_pawns": len(pawns) - garnets,
            "captured": PAWNS_PER_SIDE - len(pawns),
            "may_stop_early": self.may_stop_early(seat),
        }

    def position(self) -> str:
        """The position string of granat.md."""
        if self._position_cache is None:
            self._position_cache = self._build_position()
        return self._position_cache

    def _build_position(self) -> str:
        lists = []
        board = self.board
        for seat in (0, 1):
            names = ",".join(
                _NAME[i] + ("*" if pawn.garnet else "")
                for i in _SEAT_ORDER[seat]
                if (pawn := board[i]) is not None and pawn.seat == seat
            )
            lists.append(f"{SEAT_LETTERS[seat]}:{names}")
        return f"{self.to_move} {lists[0]} {lists[1]} {self.quiet}"

    def _dump_state(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "position": self.position(),
            "result": self._result.to_dict() if self._result else None,
            "last_move": self.last_move,
            "last_description": self.last_description,
            "last_path": list(self.last_path),
            "last_captured": list(self.last_captured),
        }
        if self.garnet_arrived != self._arrival_from_board():
            # Written only when the position string reads it wrong (a garnet pawn staying on
            # e8): dumps made under the default rules stay exactly as they were.
            data["garnet_arrived"] = self.garnet_arrived
        return data

    def _load_state(self, data: Mapping[str, Any]) -> None:
        self._set_position(data["position"])
        if "garnet_arrived" in data:  # older dumps lack it: the position's reading stands
            self.garnet_arrived = bool(data["garnet_arrived"])
        self._result = Result.from_dict(data["result"]) if data["result"] else None
        self.last_move = data["last_move"]
        self.last_description = data["last_description"]
        self.last_path = list(data["last_path"])
        self.last_captured = list(data["last_captured"])

    def _set_position(self, text: str) -> None:
        fields = text.split()
        if len(fields) not in (3, 4):
            raise ValueError("a Granat position is: <seat> R:<cells> B:<cells> [<quiet>]")
        if fields[0] not in ("0", "1"):
            raise ValueError(f"the seat to move must be 0 or 1, not {fields[0]!r}")
        quiet = fields[3] if len(fields) == 4 else "0"
        if not quiet.isdigit():
            raise ValueError(f"the quiet-move count must be a whole number, not {quiet!r}")
        board: Board = [None] * len(CELLS)
        for seat, pawn_list in enumerate(fields[1:3]):
            prefix = f"{SEAT_LETTERS[seat]}:"
            if not pawn_list.upper().startswith(prefix):
                raise ValueError(f"field {seat + 2} must start with {prefix}")
            tokens = [token for token in pawn_list[len(prefix) :].split(",") if token]
            if len(tokens) > PAWNS_PER_SIDE:
                raise ValueError(
                    f"{SEAT_NAMES[seat]} has {len(tokens)} pawns, more than {PAWNS_PER_SIDE}"
                )
            for token in tokens:
                cell = _BY_NAME.get(token.removesuffix("*").lower(), -1)
                if cell < 0:
                    try:
                        parse_cell(token.removesuffix("*"))
                    except IllegalMove as error:
                        raise ValueError(str(error)) from None
                if board[cell] is not None:
                    raise ValueError(f"{_NAME[cell]} holds two pawns")
                board[cell] = _PAWNS[seat][token.endswith("*")]
            garnets = sum(1 for token in tokens if token.endswith("*"))
            if garnets > GARNET_PAWNS_PER_SIDE:
                raise ValueError(
                    f"{SEAT_NAMES[seat]} has {garnets} garnet pawns, "
                    f"more than {GARNET_PAWNS_PER_SIDE}"
                )
        if all(pawn is None for pawn in board):
            raise ValueError("the board is empty: at least one side must have a pawn")
        self.board, self.to_move, self.quiet = board, int(fields[0]), int(quiet)
        self.garnet_arrived = self._arrival_from_board()
        self._moves_cache = self._position_cache = self._own_cache = None


# -- the words of a move -------------------------------------------------------------------------

_SAYS_LOSES_MARBLE = N_("the garnet pawn on {garnet} cannot leave the garnet cell: its marble "
                        "is lost")
_SAYS_HANDS_ON = N_("garnet pawn {start} hands its marble to {end}")
_SAYS_HANDS_ON_PROTECTING = (
    N_("garnet pawn {start} hands its marble to {end}: Red's pawns are protected during the "
       "next move"),
    N_("garnet pawn {start} hands its marble to {end}: Blue's pawns are protected during the "
       "next move"),
)
_SAYS_CAPTURES = (
    (N_("neutral pawn {start} captures {count}: {taken} (landing on {end})"),
     N_("neutral pawn {start} captures {count}: {taken} (landing on {end}; a garnet pawn)"),
     N_("neutral pawn {start} captures {count}: {taken} (landing on {end}; {garnets} of them "
        "garnet)")),
    (N_("garnet pawn {start} captures {count}: {taken} (landing on {end})"),
     N_("garnet pawn {start} captures {count}: {taken} (landing on {end}; a garnet pawn)"),
     N_("garnet pawn {start} captures {count}: {taken} (landing on {end}; {garnets} of them "
        "garnet)")),
)
"""By the capturing pawn (neutral, garnet), then by the garnet pawns taken (0, 1, more)."""
_SAYS_SLIDES = N_("garnet pawn {start} slides to {end}")
_SAYS_SLIDES_PROTECTING = (
    N_("garnet pawn {start} slides to {end}: Red's pawns are protected during the next move"),
    N_("garnet pawn {start} slides to {end}: Blue's pawns are protected during the next move"),
)
_SAYS_STEPS = N_("neutral pawn {start} steps to {end}")
_SAYS_JUMPS_ONE = N_("neutral pawn {start} jumps over its own pawn ({over}) to {end}")
_SAYS_JUMPS_MANY = N_("neutral pawn {start} jumps over {count} own pawns ({over}) to {end}")

_DESCRIPTIONS = (_SAYS_LOSES_MARBLE, _SAYS_HANDS_ON, *_SAYS_HANDS_ON_PROTECTING,
                 *_SAYS_CAPTURES[0], *_SAYS_CAPTURES[1], _SAYS_SLIDES, *_SAYS_SLIDES_PROTECTING,
                 _SAYS_STEPS, _SAYS_JUMPS_ONE, _SAYS_JUMPS_MANY)
_DESCRIPTION_PATTERNS = tuple(
    (template, re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[a-z0-9, ]+?)",
                                 re.escape(template))))
    for template in _DESCRIPTIONS
)


def description_why(text: str) -> Why:
    """A move's description (`describe_move`, `last_description`) read back into its template
    and values, for a translation; the text itself when it is no description."""
    for template, pattern in _DESCRIPTION_PATTERNS:
        match = pattern.fullmatch(text)
        if match:
            return Why(template, match.groupdict())
    return Why(text)


def _garnet_cell_access() -> Why:
    """Why a move through e8 is not along one of its links."""
    return Why(N_("the garnet cell {garnet} is entered and left only through its links with "
                  "{links}"),
               {"garnet": str(GARNET_CELL), "links": ", ".join(map(str, GARNET_LINKS))})

# -- the move walkers (pure functions of a board) -------------------------------------------------


def _yellow_active(board: Board, seat: int) -> bool:
    """True unless a neutral pawn on the garnet cell turns `seat`'s yellow lines black."""
    pawn = board[_GARNET]
    if pawn is None or pawn.garnet:
        return True
    if NEUTRAL_ON_GARNET_CELL_BLOCKS_YELLOW_FOR == "owner":
        return pawn.seat != seat
    if NEUTRAL_ON_GARNET_CELL_BLOCKS_YELLOW_FOR == "opponent":
        return pawn.seat == seat
    return False


def _marble_may_pass(seat: int, giver: int, taker: int) -> bool:
    """Whether a marble may go from `giver` to `taker` as far as distance is concerned."""
    home = _OWN_HALF[seat]
    away = {
        "either": not (home[giver] and home[taker]),
        "both": not home[giver] and not home[taker],
        "giver": not home[giver],
    }[MARBLE_LINK_NEEDED_WHEN]
    return not away or (giver, taker) in _LINKED


def _chain_stops_at_back_row(here: int, seat: int) -> bool:
    """True when a neutral capture chain must end because it reached the far back row."""
    return not CHAIN_GOES_ON_AT_BACK_ROW and _OPPONENT_BACK_ROW[seat][here]


def _neutral_options(board: Board, here: int, seat: int) -> list[tuple[int, int]]:
    """(captured cell, landing cell) of each capture a neutral pawn on `here` could make next."""
    options = []
    for over, land in _CAPTURE_PAIRS[seat][here]:
        victim = board[over]
        if victim is not None and victim.seat != seat and board[land] is None:
            options.append((over, land))
    return options


def _neutral_chains(board: Board, start: int, seat: int) -> list[tuple[int, ...]]:
    """Every capture chain of the neutral pawn on `start` (captured pawns leave at once)."""
    if not _neutral_options(board, start, seat):
        return []  # the common case: nothing to capture, no need to walk
    pawn = board[start]
    board[start] = None
    chains: list[tuple[int, ...]] = []

    def walk(here: int, path: tuple[int, ...]) -> None:
        stops = len(path) > 1 and _chain_stops_at_back_row(here, seat)
        options = [] if stops else _neutral_options(board, here, seat)
        if len(path) > 1 and (not options or not NEUTRAL_CHAIN_MUST_CONTINUE):
            chains.append(path)
        for over, land in options:
            victim = board[over]
            board[over] = None
            walk(land, (*path, land))
            board[over] = victim

    walk(start, (start,))
    board[start] = pawn
    return chains


def _garnet_jump(board: Board, ray: Ray, seat: int) -> tuple[int, int, bool] | None:
    """Along `ray`: (captured cell, landing cell, whether the jump is yellow), or None."""
    cells = ray.cells
    for index, cell in enumerate(cells):
        other = board[cell]
        if other is None:
            continue
        if other.seat == seat or index + 1 >= len(cells) or board[cells[index + 1]] is not None:
            return None
        yellow = ray.yellow_upto[index + 1] and _yellow_active(board, seat)
        return cell, cells[index + 1], yellow
    return None


def _why_jump_may_not_follow(
    last: LastJump, ray: Ray, yellow: bool, jump_text: str
) -> Why | None:
    """Why a garnet jump along `ray` may not follow the previous jump (None if it may)."""
    last_key, last_yellow = last
    if last_yellow:
        if not yellow:
            return Why(N_("after a jump along a yellow line the capture may only go on along a "
                          "yellow line, and {jump} is not along one"), {"jump": jump_text})
        if not YELLOW_MAY_TURN_STRAIGHT_BACK and ray.key == (last_key[0], -last_key[1]):
            return Why(N_("after a jump along a yellow line the capture may not turn straight "
                          "back"))
    elif BLACK_CONTINUES_STRAIGHT_ONLY and ray.key != last_key:
        return Why(N_("after a jump along a black line the capture may stop or go straight on, "
                      "but {jump} turns"), {"jump": jump_text})
    return None


def _garnet_options(
    board: Board, here: int, seat: int, last: LastJump | None
) -> list[tuple[tuple[int, int], bool, int, int]]:
    """(ray key, yellow, captured, landing) of each jump a garnet pawn on `here` may make next."""
    options = []
    for ray in _RAYS[here]:
        jump = _garnet_jump(board, ray, seat)
        if jump is None:
            continue
        over, land, yellow = jump
        if last is not None and _why_jump_may_not_follow(last, ray, yellow, ""):
            continue
        options.append((ray.key, yellow, over, land))
    return options


def _garnet_chains(board: Board, start: int, seat: int) -> list[tuple[int, ...]]:
    """Every capture chain of the garnet pawn on `start`, with the yellow and black rules."""
    pawn = board[start]
    board[start] = None
    chains: list[tuple[int, ...]] = []

    def walk(here: int, path: tuple[int, ...], last: LastJump | None) -> None:
        options = _garnet_options(board, here, seat, last)
        # After a black jump the move may stop; after a yellow one only when it cannot go on.
        if last is not None and (not last[1] or not options):
            chains.append(path)
        for key, yellow, over, land in options:
            victim = board[over]
            board[over] = None
            walk(land, (*path, land), (key, yellow))
            board[over] = victim

    walk(start, (start,), None)
    board[start] = pawn
    return chains


def _captured(move: GranatMove) -> list[int]:
    """The cells of the pawns a legal capture takes, in order (`captured_cells` by index)."""
    return [_RAY_TO[pair][0].cells[_RAY_TO[pair][1] - 1] for pair in pairwise(move.path)]


# -- plain moves, read from tables of interned moves -------------------------------------------


def _garnet_slide_moves(board: Board, start: int) -> list[GranatMove]:
    """A garnet pawn's slides: along each line, over empty cells only."""
    moves = []
    for ray in _SLIDES[start]:
        for cell, move in ray:
            if board[cell] is not None:
                break
            moves.append(move)
    return moves


def _neutral_walk_moves(board: Board, start: int, seat: int) -> list[GranatMove]:
    """A neutral pawn's plain moves: one forward step, or a series of jumps over own pawns."""
    moves = []
    for cell, move in _STEPS[seat][start]:
        if board[cell] is None:
            moves.append(move)
            if STEP_COMBINES_WITH_JUMPS:
                moves += _jump_moves(board, start, seat, (start, cell))
    return moves + _jump_moves(board, start, seat, (start,))


def _jump_moves(board: Board, start: int, seat: int, path: tuple[int, ...]) -> list[GranatMove]:
    """Every series of jumps over own pawns extending `path`; `start` counts as empty."""
    moves: list[GranatMove] = []
    jumps = _JUMPS[seat]

    def walk(here: int, path: tuple[int, ...]) -> None:
        for middle, land in jumps[here]:
            other = board[middle]
            if (other is None or other.seat != seat or middle == start
                    or board[land] is not None or land in path):
                continue
            longer = (*path, land)
            moves.append(_plain(longer))
            walk(land, longer)

    walk(path[-1], path)
    return moves


def _step_table(seat: int) -> tuple[tuple[tuple[int, GranatMove], ...], ...]:
    return tuple(
        tuple((ray.cells[0], _plain((origin, ray.cells[0]))) for ray in rays)
        for origin, rays in enumerate(_FORWARD_RAYS[seat])
    )


def _pair_table(rays: tuple[tuple[Ray, ...], ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    return tuple(
        tuple((ray.cells[0], ray.cells[1]) for ray in found if len(ray.cells) >= 2)
        for found in rays
    )


_STEPS = tuple(_step_table(seat) for seat in (0, 1))
"""Per seat, from each cell: (the cell one forward step leads to, that step's move)."""

_JUMPS = tuple(
    _pair_table(_FORWARD_RAYS[seat] if OWN_PAWN_JUMPS_FORWARD_ONLY else _RAYS) for seat in (0, 1)
)
"""Per seat, from each cell: (the cell jumped over, the landing cell) of each own-pawn jump."""

_CAPTURE_PAIRS = tuple(
    _pair_table(_RAYS if NEUTRAL_CAPTURES_BACKWARD else _NOT_BACKWARD_RAYS[seat])
    for seat in (0, 1)
)
"""Per seat, from each cell: (the cell captured, the landing cell) of each neutral capture."""

_SLIDES: tuple[tuple[tuple[tuple[int, GranatMove], ...], ...], ...] = tuple(
    tuple(
        tuple((cell, _plain((origin, cell))) for cell in ray.cells)
        for ray in rays
        if GARNET_SLIDES_SIDEWAYS or _row_step(origin, ray) != 0
    )
    for origin, rays in enumerate(_RAYS)
)
"""From each cell: per line and sense, (the cell slid to, that slide's move), nearest first."""

_MARBLE_ALLOWED = tuple(
    tuple(
        tuple(_marble_may_pass(seat, giver, taker) for taker in range(len(CELLS)))
        for giver in range(len(CELLS))
    )
    for seat in (0, 1)
)
"""_MARBLE_ALLOWED[seat][giver][taker]: `_marble_may_pass`, looked up."""

_START_BOARD: Board = []
_START_BOARD.extend(GranatState(2, {}).board)  # parsed once; new games copy it


def _from_position(game: Game[Any], text: str, options: dict[str, Any]) -> GranatState:
    state = GranatState(2, options)
    state._set_position(text)
    state._settle()
    return state


GRANAT = Game(
    id="granat",
    name="Granat",
    min_players=2,
    max_players=2,
    state_class=GranatState,
    option_specs={},
    position_parser=_from_position,
)
"""Granat for two players (seat 0 Red moves first; the bot draws colours by lot)."""
