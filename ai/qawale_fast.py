"""A fast Qawale for the search: stacks as strings, visible tops as 16-bit masks.

Cells are numbered `row * 4 + col` (a1 = 0, d1 = 3, a4 = 12), the engine's `GRID.cells()`
order; a stack is a string bottom first ("n" neutral, "0" / "1" a seat's pebble); a move is
`(origin, path)`, the path being the cells the pebbles land on, in order. Sowing paths are
precomputed per (origin, length), and a 64 KiB table tells whether a mask holds a line, so
a move costs one short loop and a line check one lookup.
"""

from __future__ import annotations

import random
from functools import cache

from engines import qawale as rules
from engines.grid import Cell
from engines.qawale import Direction, QawaleMove, QawaleState

Move = tuple[int, tuple[int, ...]]
"""Put a pebble on `origin`, then sow the stack on the cells of `path`, in order."""

ONGOING = -2
DRAW = -1
"""`FastQawale.outcome` values besides a winning seat (0 or 1)."""

PEBBLE = ("0", "1")
"""Each seat's pebble in a stack string."""

_STEP_OF = {(0, 1): Direction.N, (0, -1): Direction.S, (1, 0): Direction.E,
            (-1, 0): Direction.W}


def _neighbours(cell: int) -> tuple[int, ...]:
    """Orthogonal neighbours in the engine's direction order (N, S, E, W)."""
    col, row = cell % 4, cell // 4
    around = ((col, row + 1), (col, row - 1), (col + 1, row), (col - 1, row))
    return tuple(r * 4 + c for c, r in around if 0 <= c < 4 and 0 <= r < 4)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(cell) for cell in range(16))

LINE_MASKS: tuple[int, ...] = (
    *(0xF << (4 * row) for row in range(4)),
    *(0x1111 << col for col in range(4)),
    (1 << 0) | (1 << 5) | (1 << 10) | (1 << 15),
    (1 << 12) | (1 << 9) | (1 << 6) | (1 << 3),
)
"""The ten lines of four as cell masks: rows, columns, the two long diagonals."""


def _supersets_table(cores: list[int]) -> bytes:
    """A 64 KiB table: 1 for every mask containing one of `cores`."""
    table = bytearray(1 << 16)
    for core in cores:
        rest = 0xFFFF & ~core
        sub = rest
        while True:  # every subset of `rest`, the classic (sub - 1) & rest walk
            table[core | sub] = 1
            if sub == 0:
                break
            sub = (sub - 1) & rest
    return bytes(table)


HAS_LINE = _supersets_table(list(LINE_MASKS))
"""HAS_LINE[mask] is 1 when the mask holds a whole line."""

NEAR_LINE = _supersets_table(
    [line & ~(1 << cell) for line in LINE_MASKS for cell in range(16) if line >> cell & 1])
"""NEAR_LINE[mask] is 1 when the mask misses at most one cell of some line."""


LISTED_PATHS = 9
"""Playouts draw from the listed paths up to this length and walk at random beyond: paths
double with each step, and a list for a tall stack would cost megabytes for one draw."""


@cache
def paths(origin: int, length: int) -> tuple[tuple[int, ...], ...]:
    """Every sowing path of `length` steps from `origin`, never straight back, engine order."""
    found: list[tuple[int, ...]] = []

    def walk(here: int, back: int, path: tuple[int, ...]) -> None:
        if len(path) == length:
            found.append(path)
            return
        for there in NEIGHBOURS[here]:
            if there != back:
                walk(there, here, (*path, there))

    walk(origin, -1, ())
    return tuple(found)


def _random_walk(origin: int, length: int, rng: random.Random) -> tuple[int, ...]:
    """A random sowing path, step by step (not uniform over paths, which is fine here)."""
    path, here, back = [], origin, -1
    for _ in range(length):
        steps = [there for there in NEIGHBOURS[here] if there != back]
        here, back = steps[int(rng.random() * len(steps))], here
        path.append(here)
    return tuple(path)


def to_engine(move: Move) -> QawaleMove:
    """The engine's move object for a fast move."""
    origin, path = move
    directions, here = [], origin
    for there in path:
        directions.append(_STEP_OF[(there % 4 - here % 4, there // 4 - here // 4)])
        here = there
    return QawaleMove(Cell(origin % 4, origin // 4), tuple(directions))


def from_engine(move: QawaleMove) -> Move:
    """The fast move for an engine move object."""
    here = move.cell.row * 4 + move.cell.col
    origin, cells = here, []
    for direction in move.path:
        dcol, drow = direction.value
        here += dcol + 4 * drow
        cells.append(here)
    return origin, tuple(cells)


class FastQawale:
    """A Qawale position with cheap copies, moves and line checks."""

    __slots__ = ("double_line_wins", "masks", "midway", "outcome", "stacks", "stocks",
                 "to_move")

    def __init__(self, stacks: list[str], stocks: list[int], to_move: int,
                 double_line_wins: bool = True) -> None:
        self.stacks = stacks
        self.stocks = stocks
        self.to_move = to_move
        self.double_line_wins = double_line_wins
        self.midway = rules.CHECK_LINES_DURING_SOWING
        """Lines are looked for after every pebble, as the engine's rule says (read now)."""
        self.masks = [0, 0]
        for cell, stack in enumerate(stacks):
            if stack and stack[-1] != "n":
                self.masks[int(stack[-1])] |= 1 << cell
        self.outcome = ONGOING
        self._settle(1 - to_move)

    @classmethod
    def from_state(cls, state: QawaleState) -> FastQawale:
        """The fast copy of an engine state (its result included)."""
        cells = [Cell(cell % 4, cell // 4) for cell in range(16)]
        game = cls(["".join(state.stacks[cell]) for cell in cells], list(state.stocks),
                   state.to_move, bool(state.options["mover_wins_double_line"]))
        result = state.result()
        if result is not None:
            game.outcome = result.winners[0] if len(result.winners) == 1 else DRAW
        return game

    def copy(self) -> FastQawale:
        """An independent copy (stacks are immutable strings: a shallow copy suffices)."""
        twin = FastQawale.__new__(FastQawale)
        twin.stacks = self.stacks[:]
        twin.stocks = self.stocks[:]
        twin.masks = self.masks[:]
        twin.to_move = self.to_move
        twin.outcome = self.outcome
        twin.double_line_wins = self.double_line_wins
        twin.midway = self.midway
        return twin

    def key(self) -> tuple[str, ...]:
        """What tells positions apart once the player to move is known (stocks follow)."""
        return tuple(self.stacks)

    def moves(self) -> list[Move]:
        """Every legal move, in the engine's order (none once the game is over)."""
        if self.outcome != ONGOING:
            return []
        stacks = self.stacks
        return [(origin, path) for origin in range(16) if stacks[origin]
                for path in paths(origin, len(stacks[origin]) + 1)]

    def play(self, move: Move) -> None:
        """Apply a legal move and settle the game."""
        origin, path = move
        mover = self.to_move
        stacks = self.stacks
        sown = stacks[origin] + PEBBLE[mover]
        stacks[origin] = ""
        keep = ~(1 << origin)
        own, other = self.masks[mover] & keep, self.masks[1 - mover] & keep
        mine = PEBBLE[mover]
        midway, shown = self.midway, None
        for pebble, cell in zip(sown, path, strict=True):
            stacks[cell] += pebble
            bit = 1 << cell
            if pebble == mine:
                own |= bit
                other &= ~bit
            else:
                own &= ~bit
                other = other | bit if pebble != "n" else other & ~bit
            if midway and shown is None and (HAS_LINE[own] or HAS_LINE[other]):
                shown = (own, other)
        self.masks[mover], self.masks[1 - mover] = own, other
        self.stocks[mover] -= 1
        self.to_move = 1 - mover
        self._settle(mover, shown)

    def _settle(self, mover: int, shown: tuple[int, int] | None = None) -> None:
        """The outcome after `mover`'s sowing: by the tops `shown` midway (the mover's mask,
        the other's) when lines are looked for during the sowing, else by the masks now."""
        own, other = shown or (self.masks[mover], self.masks[1 - mover])
        mover_line = HAS_LINE[own]
        other_line = HAS_LINE[other]
        if mover_line and other_line:
            self.outcome = mover if self.double_line_wins else DRAW
        elif mover_line or other_line:
            self.outcome = mover if mover_line else 1 - mover
        elif self.stocks[0] == 0 and self.stocks[1] == 0:
            self.outcome = DRAW

    def random_move(self, rng: random.Random) -> Move:
        """A playout move: a uniformly random stack, then a uniformly random sowing path."""
        stacks = self.stacks
        origins = [cell for cell in range(16) if stacks[cell]]
        origin = origins[int(rng.random() * len(origins))]
        length = len(stacks[origin]) + 1
        if length > LISTED_PATHS:
            return origin, _random_walk(origin, length, rng)
        choices = paths(origin, length)
        return origin, choices[int(rng.random() * len(choices))]

    def winning_move(self) -> Move | None:
        """A move that wins at once for the player to move, if there is one."""
        if self.outcome != ONGOING:
            return None
        if self.midway:
            # A line shown halfway wins too, which the pruned search below cannot see.
            return next((move for move in self.moves() if self._after(move) == self.to_move),
                        None)
        mover = self.to_move
        mine = PEBBLE[mover]
        for origin in range(16):
            stack = self.stacks[origin]
            if not stack:
                continue
            sown = stack + mine
            mask = self.masks[mover] & ~(1 << origin)
            if sown.count(mine) == 1 and not NEAR_LINE[mask]:
                continue  # only the new pebble could be ours: no line is one cell away
            path = self._winning_path(origin, sown, mask)
            if path is not None:
                return origin, path
        return None

    def _winning_path(self, origin: int, sown: str, mask: int) -> tuple[int, ...] | None:
        """A sowing of `sown` from `origin` that shows a line of the mover's, depth first.

        A branch is cut as soon as the mover's pebbles still in hand cannot complete any
        line: with one left, the mask must already miss at most one cell of a line.
        """
        mine = sown[-1]
        last = len(sown) - 1
        left = [sown[i:].count(mine) for i in range(len(sown) + 1)]
        path: list[int] = []

        def walk(here: int, back: int, depth: int, mask: int) -> bool:
            pebble = sown[depth]
            for there in NEIGHBOURS[here]:
                if there == back:
                    continue
                bit = 1 << there
                after = mask | bit if pebble == mine else mask & ~bit
                path.append(there)
                if depth == last:
                    if HAS_LINE[after] and self._wins(origin, path):
                        return True
                elif ((left[depth + 1] > 1 or NEAR_LINE[after])
                      and (left[depth + 1] or HAS_LINE[after])
                      and walk(there, here, depth + 1, after)):
                    return True
                path.pop()
            return False

        return tuple(path) if walk(origin, -1, 0, mask) else None

    def _after(self, move: Move) -> int:
        """The outcome once `move` is played, on a copy."""
        trial = self.copy()
        trial.play(move)
        return trial.outcome

    def _wins(self, origin: int, path: list[int]) -> bool:
        """Whether the move wins for the mover (a double line may be a draw by option)."""
        if self.double_line_wins:
            return True
        return self._after((origin, tuple(path))) == self.to_move
