"""A fast Graps board for the search: flat integer cells, copy by slicing, no move objects.

It mirrors `engines.graps` (tested against it in tests/ai/test_graps.py): cell indexes are the
engine's (row * 15 + column, a1 = 0), a cell holds EMPTY or a pawn code `seat * 2 + 1` (blank)
or `seat * 2 + 2` (grape).
"""

from __future__ import annotations

from engines.graps import LAND_ROWS, NO_PAWN_DISTANCE, PIECE_CHARS, SIZE, GrapsState, Phase

CELLS = SIZE * SIZE
EMPTY = 0
BLANK = (1, 3)
"""Per seat, the code of its blank pawn."""
GRAPE = (2, 4)
"""Per seat, the code of its grape pawn."""
OWNER = (-1, 0, 0, 1, 1)
"""Owner seat of a cell code (-1: empty)."""
IS_GRAPE = (False, False, True, False, True)
DRAW = -1
"""`winner` of a game ended in a draw."""


def _neighbours(index: int, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    row, col = divmod(index, SIZE)
    return tuple((row + dr) * SIZE + col + dc for dr, dc in steps
                 if 0 <= row + dr < SIZE and 0 <= col + dc < SIZE)


ORTHO: tuple[tuple[int, ...], ...] = tuple(
    _neighbours(i, ((1, 0), (0, 1), (-1, 0), (0, -1))) for i in range(CELLS))
AROUND: tuple[tuple[int, ...], ...] = tuple(
    _neighbours(i, tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc))
    for i in range(CELLS))
ROW: tuple[int, ...] = tuple(i // SIZE for i in range(CELLS))
"""Zero-based row of each index."""
LAND: tuple[range, ...] = tuple(range((row - 1) * SIZE, row * SIZE) for row in LAND_ROWS)
"""Per seat, the indexes of its land row."""
GOAL_ROW = (LAND_ROWS[1] - 1, LAND_ROWS[0] - 1)
"""Per seat, the zero-based row it must reach (the opponent's land)."""
_CODE = {".": EMPTY, **{char: seat * 2 + face + 1 for seat, chars in enumerate(PIECE_CHARS)
                       for face, char in enumerate(chars)}}


class Board:
    """Cells, stocks and the end of the game; turns and dice are left to the caller."""

    __slots__ = ("cells", "return_pruned", "stocks", "winner")

    def __init__(self, cells: list[int], stocks: list[int], winner: int | None = None,
                 return_pruned: bool = False) -> None:
        self.cells = cells
        self.stocks = stocks
        self.winner = winner
        """None while running; the winning seat, or DRAW."""
        self.return_pruned = return_pruned
        """The option of that name: removed pawns go back to their owner's stock."""

    @classmethod
    def from_state(cls, state: GrapsState) -> Board:
        """The board of an engine state (the phase and the seat to move are read apart)."""
        return cls([_CODE[char] for char in state.board], list(state.stocks),
                   return_pruned=bool(state.options["return_pruned"]))

    def copy(self) -> Board:
        """An independent copy."""
        return Board(self.cells[:], self.stocks[:], self.winner, self.return_pruned)

    def pawns(self, seat: int) -> list[int]:
        """Indexes of `seat`'s pawns."""
        blank, grape = BLANK[seat], GRAPE[seat]
        return [i for i, code in enumerate(self.cells) if code in (blank, grape)]

    def forbidden(self, seat: int) -> set[int]:
        """Cells where `seat` may place no blank: side-on by an enemy pawn, or around a grape."""
        cells = self.cells
        blank, grape = BLANK[1 - seat], GRAPE[1 - seat]
        forbidden: set[int] = set()
        for i, code in enumerate(cells):
            if code == blank:
                forbidden.update(ORTHO[i])
            elif code == grape:
                forbidden.update(AROUND[i])
        return forbidden

    def blank_cells(self, seat: int) -> list[int]:
        """Indexes where `seat` may place a blank."""
        cells = self.cells
        own = (BLANK[seat], GRAPE[seat])
        near = {j for i, code in enumerate(cells) if code in own for j in ORTHO[i]
                if cells[j] == EMPTY}
        near.difference_update(self.forbidden(seat))
        land = LAND[seat]
        return sorted(j for j in near if j not in land)

    def grape_cells(self, seat: int) -> list[int]:
        """Indexes where `seat` may place a grape."""
        cells = self.cells
        own = (BLANK[seat], GRAPE[seat])
        near = {j for i, code in enumerate(cells) if code in own for j in ORTHO[i]
                if cells[j] == EMPTY}
        near.update(j for j in LAND[seat] if cells[j] == EMPTY)
        return sorted(near)

    def place(self, seat: int, index: int, grape: bool) -> None:
        """Put `seat`'s pawn on `index` (legal), prune around a grape, note a land win."""
        cells = self.cells
        self.stocks[seat] -= 1
        enemy = 1 - seat
        if grape:
            cells[index] = GRAPE[seat]
            pruned = 0
            for j in AROUND[index]:
                if OWNER[cells[j]] == enemy:
                    cells[j] = EMPTY
                    pruned += 1
            if pruned:
                pruned += self._cut(enemy)
                if self.return_pruned:
                    self.stocks[enemy] += pruned
        else:
            cells[index] = BLANK[seat]
        if index in LAND[enemy]:
            self.winner = seat

    def _cut(self, seat: int) -> int:
        """Remove `seat`'s pawns no longer linked to its land; how many."""
        cells = self.cells
        own = (BLANK[seat], GRAPE[seat])
        frontier = [j for j in LAND[seat] if cells[j] in own]
        linked = set(frontier)
        while frontier:
            here = frontier.pop()
            for j in ORTHO[here]:
                if j not in linked and cells[j] in own:
                    linked.add(j)
                    frontier.append(j)
        removed = 0
        for j, code in enumerate(cells):
            if code in own and j not in linked:
                cells[j] = EMPTY
                removed += 1
        return removed

    def distance(self, seat: int) -> int:
        """Rows from `seat`'s most advanced pawn to the opponent's land (the engine's rule)."""
        pawns = self.pawns(seat)
        if not pawns:
            return NO_PAWN_DISTANCE
        goal = GOAL_ROW[seat]
        return min(abs(goal - ROW[pawns[0]]), abs(goal - ROW[pawns[-1]]))

    def totally_blocked(self, seat: int) -> bool:
        """True when `seat` could place neither a blank nor a grape."""
        cells = self.cells
        if any(cells[j] == EMPTY for j in LAND[seat]):
            return False  # a grape always fits on an empty cell of one's own land
        return not self.grape_cells(seat) and not self.blank_cells(seat)

    def end_turn(self, seat: int) -> int | None:
        """After `seat` played or passed: the seat whose die rolls next, or None if it is over.

        Settles the end on empty stocks and the total blockade (which the blocked player wins),
        and skips over a player whose stock is empty (that player can only pass).
        """
        if self.winner is not None:
            return None
        stocks = self.stocks
        for _ in range(2):
            seat = 1 - seat
            if stocks[0] == 0 and stocks[1] == 0:
                dark, light = self.distance(0), self.distance(1)
                self.winner = DRAW if dark == light else (0 if dark < light else 1)
                return None
            if stocks[seat] > 0:
                if self.totally_blocked(seat):
                    self.winner = seat
                    return None
                return seat
        raise AssertionError("unreachable: one stock is not empty")


def phase_face(state: GrapsState) -> bool | None:
    """True when the player to move must place a grape, False a blank, None otherwise."""
    if state.phase in (Phase.SETUP, Phase.GRAPE):
        return True
    if state.phase is Phase.BLANK:
        return False
    return None
