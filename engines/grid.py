"""Square-grid cells in chess-like notation (`a1` bottom-left), shared by the board games."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines.base import N_, IllegalMove

_CELL = re.compile(r"^\s*([a-zA-Z])\s*(\d{1,2})\s*$")


@dataclass(frozen=True, order=True)
class Cell:
    """A cell by zero-based column and row: Cell(0, 0) is `a1`."""

    col: int
    row: int

    def __str__(self) -> str:
        return f"{chr(ord('a') + self.col)}{self.row + 1}"

    def step(self, dcol: int, drow: int) -> Cell:
        """The cell offset by (dcol, drow); it may be off the board."""
        return Cell(self.col + dcol, self.row + drow)


@dataclass(frozen=True)
class Grid:
    """A rectangular board's size, with bounds checks and cell parsing."""

    cols: int
    rows: int

    def contains(self, cell: Cell) -> bool:
        """True when `cell` is on the board."""
        return 0 <= cell.col < self.cols and 0 <= cell.row < self.rows

    def cells(self) -> list[Cell]:
        """Every cell, row by row from a1."""
        return [Cell(col, row) for row in range(self.rows) for col in range(self.cols)]

    def parse(self, text: str) -> Cell:
        """Read `b3`-style notation (case-insensitive); raise IllegalMove if off the board."""
        match = _CELL.match(text)
        if not match:
            raise IllegalMove(
                N_("{text} is not a cell (write a column letter then a row, like a1)"),
                text=repr(text.strip()))
        cell = Cell(ord(match[1].lower()) - ord("a"), int(match[2]) - 1)
        if not self.contains(cell):
            last = Cell(self.cols - 1, self.rows - 1)
            raise IllegalMove(N_("{cell} is off the board (cells go from a1 to {last})"),
                              cell=text.strip(), last=str(last))
        return cell

    def orthogonal_neighbours(self, cell: Cell) -> list[Cell]:
        """Side-adjacent cells on the board."""
        around = (cell.step(0, 1), cell.step(1, 0), cell.step(0, -1), cell.step(-1, 0))
        return [c for c in around if self.contains(c)]

    def all_neighbours(self, cell: Cell) -> list[Cell]:
        """The up-to-8 surrounding cells on the board."""
        around = (cell.step(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr)
        return [c for c in around if self.contains(c)]
