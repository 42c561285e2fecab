"""Graps: grow a vine from your land to the opponent's; a grape prunes the enemy vine around it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal, Self, TypedDict

from engines.base import (
    CHANCE,
    N_,
    EndReason,
    Game,
    GameState,
    IllegalMove,
    Result,
    ResultDict,
    Why,
    bool_option,
    choice_option,
)
from engines.grid import Cell, Grid

SIZE = 15
GRID = Grid(SIZE, SIZE)
COLUMNS = "abcdefghijklmno"
PAWNS_PER_PLAYER = 45
DIE_FACES = 6
SEAT_NAMES = ("Dark", "Light")
EMPTY = "."
PIECE_CHARS = (("x", "X"), ("o", "O"))
"""Per seat: (blank, grape) characters of the position string."""

LAND_ROWS = (1, 15)
"""[decision] Dark's land is row 1, Light's land is row 15 (the seed lets the first player pick
an edge; on a symmetric board that choice changes nothing)."""

GRAPE_FACES_DEFAULT = 1
"""[decision] Each die shows one grape and five blank faces ("un dé … comportant … une grappe")."""

BLOCKADE_FACES_BOTH = True
"""[decision] A player is totally blocked (and wins) only when neither a blank nor a grape fits
anywhere; the check is made at the start of the turn, before the roll. False: blocked as soon
as no blank fits."""

ROLLED_FACE_WITHOUT_CELL_PASSES = True
"""[decision] When the rolled face has no legal cell the player passes. False: the player places
the other face instead."""

NO_PAWN_DISTANCE = 15
"""[decision] For the end on empty stocks, a player's distance is the number of rows from their
most advanced pawn to the opponent's land row (Dark: 15 − highest row, Light: lowest row − 1);
a player with no pawn on the board counts this many rows."""


class Face(Enum):
    """The two faces of a pawn, and of the die."""

    BLANK = "blank"
    GRAPE = "grape"


class Phase(Enum):
    """What the position waits for (the `<phase>` field of the position string)."""

    SETUP = "setup"
    ROLL = "roll"
    BLANK = "blank"
    GRAPE = "grape"
    OVER = "over"


# -- board geometry, precomputed on flat indexes (index = row * 15 + column, a1 = 0) ------------

_CELLS: tuple[Cell, ...] = tuple(GRID.cells())
_INDEX: dict[Cell, int] = {cell: index for index, cell in enumerate(_CELLS)}
_NAMES: tuple[str, ...] = tuple(str(cell) for cell in _CELLS)
_ORTHO: tuple[tuple[int, ...], ...] = tuple(
    tuple(_INDEX[c] for c in GRID.orthogonal_neighbours(cell)) for cell in _CELLS
)
_AROUND: tuple[tuple[int, ...], ...] = tuple(
    tuple(_INDEX[c] for c in GRID.all_neighbours(cell)) for cell in _CELLS
)
_LAND: tuple[range, ...] = tuple(range((row - 1) * SIZE, row * SIZE) for row in LAND_ROWS)
"""Per seat, the flat indexes of its land row (a range, so `in` is a bounds check)."""
_OWNER: dict[str, int] = {char: seat for seat, chars in enumerate(PIECE_CHARS) for char in chars}
_FACE: dict[str, Face] = {
    char: face for chars in PIECE_CHARS for char, face in zip(chars, Face, strict=True)
}
_FACE_WORD: dict[str, str] = {char: face.value for char, face in _FACE.items()}


def _char(seat: int, face: Face) -> str:
    return PIECE_CHARS[seat][0 if face is Face.BLANK else 1]


def _row_of(index: int) -> int:
    """1-based row number of a flat index."""
    return index // SIZE + 1


def _name(index: int) -> str:
    return _NAMES[index]


# -- moves ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """Put a pawn, showing the face the phase asks for, on `cell`."""

    cell: Cell

    def __str__(self) -> str:
        if GRID.contains(self.cell):  # looked up: str() of moves is called very often
            return _NAMES[self.cell.row * SIZE + self.cell.col]
        return str(self.cell)


@dataclass(frozen=True)
class Pass:
    """Let the turn go: the stock is empty or the rolled face fits nowhere."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Roll:
    """A chance outcome: the die of the player to move shows `face`."""

    face: Face

    def __str__(self) -> str:
        return f"roll:{self.face.value}"


PASS = Pass()
_PLACES: tuple[Place, ...] = tuple(Place(cell) for cell in _CELLS)
"""One shared placement per cell, by flat index (moves are immutable)."""
GrapsMove = Place | Pass | Roll
"""Any Graps move: a placement, a pass or a chance outcome."""

_ROLL = re.compile(r"^\s*roll\s*:\s*(\S*)\s*$", re.IGNORECASE)
_CELL_LIKE = re.compile(r"^\s*[a-zA-Z]\s*\d{1,2}\s*$")


def parse_notation(text: str) -> GrapsMove:
    """Read `h7`, `pass`, `roll:grape` or `roll:blank` without checking legality."""
    if text.strip().lower() == "pass":
        return PASS
    roll = _ROLL.match(text)
    if roll:
        try:
            return Roll(Face(roll[1].lower()))
        except ValueError:
            raise IllegalMove(
                N_("{face} is not a face of the die: write roll:grape or roll:blank"),
                face=repr(roll[1]),
            ) from None
    if _CELL_LIKE.match(text):
        return Place(GRID.parse(text))
    raise IllegalMove(
        N_("{text} is not a Graps move: write a cell like h7, or pass, or roll:grape / "
           "roll:blank"),
        text=repr(text.strip()),
    )


# -- reasons ---------------------------------------------------------------------------------------
# Each reason exists once per seat (and per face, per colour): a seat's or a face's name is a
# word, and words are translated whole with their sentence, never slipped into one.

_MUST_ROLL = (N_("Dark's die must be rolled first (roll:grape or roll:blank)"),
              N_("Light's die must be rolled first (roll:grape or roll:blank)"))
_NO_OPENING_ROLL = (
    N_("no die is rolled for the opening grape: Dark places it on row {row}"),
    N_("no die is rolled for the opening grape: Light places it on row {row}"))
_NOTHING_TO_ROLL = (
    N_("Dark's stock is empty: there is nothing to roll for, Dark passes"),
    N_("Light's stock is empty: there is nothing to roll for, Light passes"))
_ALREADY_ROLLED = {"grape": N_("the die already shows a grape: place it or pass"),
                   "blank": N_("the die already shows a blank: place it or pass")}
_MUST_PASS = (N_("Dark's stock is empty: Dark must pass"),
              N_("Light's stock is empty: Light must pass"))
_CANNOT_PASS = {
    (0, "grape"): N_("Dark cannot pass: the grape can go on {cell}"),
    (0, "blank"): N_("Dark cannot pass: the blank can go on {cell}"),
    (1, "grape"): N_("Light cannot pass: the grape can go on {cell}"),
    (1, "blank"): N_("Light cannot pass: the blank can go on {cell}"),
}
_CANNOT_PASS_MANY = {
    (0, "grape"): N_("Dark cannot pass: the grape can go on {cell} (and {others} other cells)"),
    (0, "blank"): N_("Dark cannot pass: the blank can go on {cell} (and {others} other cells)"),
    (1, "grape"): N_("Light cannot pass: the grape can go on {cell} (and {others} other cells)"),
    (1, "blank"): N_("Light cannot pass: the blank can go on {cell} (and {others} other cells)"),
}
"""`others` is at least 1."""
_TAKEN = {
    (0, "grape"): N_("{cell} is already taken by a dark grape"),
    (0, "blank"): N_("{cell} is already taken by a dark blank"),
    (1, "grape"): N_("{cell} is already taken by a light grape"),
    (1, "blank"): N_("{cell} is already taken by a light blank"),
}
_OPENING_OFF_LAND = (
    N_("the opening grape goes on Dark's own land, row {land}, not on row {row}"),
    N_("the opening grape goes on Light's own land, row {land}, not on row {row}"))
_GRAPE_ASTRAY = (
    N_("{cell} is neither on Dark's land (row {land}) nor side-on next to one of Dark's pawns: "
       "a grape must be one or the other"),
    N_("{cell} is neither on Light's land (row {land}) nor side-on next to one of Light's "
       "pawns: a grape must be one or the other"))
_BLANK_ON_LAND = (
    N_("{cell} is on Dark's own land (row {land}): a blank never goes there"),
    N_("{cell} is on Light's own land (row {land}): a blank never goes there"))
_BLANK_ASTRAY = (
    N_("{cell} touches none of Dark's pawns side-on: a blank grows from the vine, never "
       "diagonally"),
    N_("{cell} touches none of Light's pawns side-on: a blank grows from the vine, never "
       "diagonally"))
_TOUCHES_ENEMY = (N_("{cell} touches a dark vine side-on (at {at})"),
                  N_("{cell} touches a light vine side-on (at {at})"))
"""By the enemy's seat."""
_PROTECTED = (
    N_("{cell} is in the protected zone of the dark grape on {at}: only a grape may go there"),
    N_("{cell} is in the protected zone of the light grape on {at}: only a grape may go there"))
"""By the enemy's seat."""


# -- the view ------------------------------------------------------------------------------------


class GrapsPawnView(TypedDict):
    """A pawn on the board: its owner and the face it shows ("blank" or "grape")."""

    seat: int
    face: str


class GrapsPlacement(TypedDict):
    """The last pawn placed: by whom, where, which face."""

    seat: int
    cell: str
    face: str


class GrapsRemovedView(TypedDict):
    """Pawns the last placement removed: around the grape, then those cut from their land."""

    owner: int | None
    pruned: list[str]
    cut: list[str]
    faces: dict[str, str]
    """Cell name -> face the removed pawn showed."""


class GrapsDieView(TypedDict):
    """Probability of each face of the die."""

    grape: float
    blank: float


class GrapsView(TypedDict):
    """What `GrapsState.view` returns (the same for every seat: nothing is hidden)."""

    game: Literal["graps"]
    current_player: int | None
    result: ResultDict | None
    position: str
    size: int
    columns: str
    seat_names: list[str]
    land_rows: list[int]
    pawns: dict[str, GrapsPawnView]
    """Cell name -> the pawn on it."""
    to_move: int
    phase: str
    face: str | None
    """The face to place now, if any."""
    stocks: list[int]
    on_board: list[int]
    out_of_game: list[int]
    die: GrapsDieView
    options: dict[str, Any]
    legal_cells: list[str]
    must_pass: bool
    cells_by_face: dict[str, list[str]]
    """Face -> cells where the player to move could place it."""
    protected_zones: list[list[str]]
    distances: list[int]
    last_placement: GrapsPlacement | None
    last_removed: GrapsRemovedView


# -- the state -----------------------------------------------------------------------------------


class GrapsState(GameState[GrapsMove, GrapsView]):
    """A Graps game: a 15×15 board of two-sided pawns, two stocks, a turn phase."""

    def __init__(self, num_players: int, options: Mapping[str, Any]) -> None:
        super().__init__(num_players, options)
        self.board: list[str] = [EMPTY] * (SIZE * SIZE)
        self.stocks = [PAWNS_PER_PLAYER, PAWNS_PER_PLAYER]
        self.to_move = 0
        self.phase = Phase.SETUP
        self._result: Result | None = None
        # What the last placement did, for the renderer.
        self.last_placement: GrapsPlacement | None = None
        # Cells (names) emptied by the last placement: around the grape, then cut from the land.
        self.pruned: list[str] = []
        self.cut: list[str] = []
        self.removed_faces: dict[str, str] = {}
        # Pawn and legal-cell indexes for the current board, keyed by what they are for;
        # emptied whenever the state changes.
        self._cache: dict[tuple[Any, int] | tuple[int, Face], list[int]] = {}

    def clone(self) -> Self:
        """An independent copy (field by field: far quicker than a deep copy)."""
        twin = type(self)(self.num_players, self.options)
        twin.board, twin.stocks = list(self.board), list(self.stocks)
        twin.to_move, twin.phase, twin._result = self.to_move, self.phase, self._result
        twin.last_placement = self.last_placement.copy() if self.last_placement else None
        twin.pruned, twin.cut = list(self.pruned), list(self.cut)
        twin.removed_faces = dict(self.removed_faces)
        return twin

    # -- whose decision ---------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        if self._result is not None:
            return None
        if self.phase is Phase.ROLL and self.stocks[self.to_move] > 0:
            return CHANCE
        return self.to_move

    def result(self) -> Result | None:
        return self._result

    @property
    def face_to_place(self) -> Face | None:
        """The face the player to move must place now (the opening grape is a grape)."""
        if self.phase in (Phase.SETUP, Phase.GRAPE):
            return Face.GRAPE
        if self.phase is Phase.BLANK:
            return Face.BLANK
        return None

    # -- legal cells ------------------------------------------------------------------------------

    def _cells(self, seat: int, face: Face) -> list[int]:
        """Indexes where `seat` may place `face` in a normal turn (stock not considered)."""
        key = (seat, face)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._cache[key] = self._compute_cells(seat, face)
        return cached

    def _compute_cells(self, seat: int, face: Face) -> list[int]:
        # Set arithmetic over the pawns rather than a scan of every cell: this runs for every
        # view and legality check, so it must stay quick.
        board = self.board
        candidates = {j for i in self._pawn_indexes(seat) for j in _ORTHO[i] if board[j] == EMPTY}
        land = _LAND[seat]
        if face is Face.GRAPE:
            candidates.update(j for j in land if board[j] == EMPTY)
            return sorted(candidates)
        # Cells a blank may not take: side-on next to an enemy pawn, or around an enemy grape.
        enemy_grape = PIECE_CHARS[1 - seat][1]
        forbidden: set[int] = set()
        for i in self._pawn_indexes(1 - seat):
            forbidden.update(_AROUND[i] if board[i] == enemy_grape else _ORTHO[i])
        return sorted(j for j in candidates - forbidden if j not in land)

    def _legal_indexes(self) -> list[int]:
        if self._result is not None or self.stocks[self.to_move] == 0:
            return []
        if self.phase is Phase.SETUP:
            return [j for j in _LAND[self.to_move] if self.board[j] == EMPTY]
        face = self.face_to_place
        return self._cells(self.to_move, face) if face else []

    def legal_cells(self) -> list[Cell]:
        """Cells where the current placement (opening grape, rolled blank or grape) may go."""
        return [_CELLS[j] for j in self._legal_indexes()]

    def legal_cells_by_row(self) -> dict[int, list[Cell]]:
        """The legal cells grouped by row number (1..15), for a row-then-column picker."""
        rows: dict[int, list[Cell]] = {}
        for cell in self.legal_cells():
            rows.setdefault(cell.row + 1, []).append(cell)
        return rows

    def placement_cells(self, seat: int, face: Face) -> list[Cell]:
        """Cells where `seat` could place `face` in a normal turn on the current board."""
        return [_CELLS[j] for j in self._cells(seat, face)]

    def is_totally_blocked(self, seat: int) -> bool:
        """True when `seat` could place neither a blank nor a grape anywhere."""
        if self._cells(seat, Face.BLANK):
            return False
        return not BLOCKADE_FACES_BOTH or not self._cells(seat, Face.GRAPE)

    def must_pass(self) -> bool:
        """True when `pass` is the only move of the player to move."""
        if self.current_player != self.to_move:
            return False
        return self.phase is Phase.ROLL or not self._legal_indexes()

    def _legal_moves(self) -> list[GrapsMove]:
        if self.phase is Phase.ROLL:
            if self.stocks[self.to_move] == 0:
                return [PASS]
            return [Roll(Face.GRAPE), Roll(Face.BLANK)]
        return [_PLACES[j] for j in self._legal_indexes()] or [PASS]

    def chance_outcomes(self) -> list[tuple[GrapsMove, float]]:
        """The die: grape with probability grape_faces/6, blank otherwise."""
        if self.current_player != CHANCE:
            raise IllegalMove(N_("there is no die to roll now"))
        grapes = self.options["grape_faces"]
        return [
            (Roll(Face.GRAPE), grapes / DIE_FACES),
            (Roll(Face.BLANK), (DIE_FACES - grapes) / DIE_FACES),
        ]

    # -- reading and explaining moves -------------------------------------------------------------

    def parse_move(self, text: str) -> GrapsMove:
        return parse_notation(text)

    def _why_illegal(self, move: Any) -> str | Why:
        seat = self.to_move
        if not isinstance(move, Place | Pass | Roll):
            return Why(N_("{move} is not a Graps move"), {"move": repr(move)})
        if self.current_player == CHANCE:
            if isinstance(move, Roll):
                return ""
            return Why(_MUST_ROLL[seat])
        if isinstance(move, Roll):
            if self.phase is Phase.SETUP:
                return Why(_NO_OPENING_ROLL[seat], {"row": LAND_ROWS[seat]})
            if self.phase is Phase.ROLL:
                return Why(_NOTHING_TO_ROLL[seat])
            shown = self.face_to_place
            assert shown is not None  # the die was rolled: a face waits to be placed
            return Why(_ALREADY_ROLLED[shown.value])
        if self.stocks[seat] == 0:
            return Why(_MUST_PASS[seat])
        if isinstance(move, Pass):
            cells = self.legal_cells()
            face = self.face_to_place
            assert face is not None  # a placement is due: passing was refused for its cells
            if len(cells) > 1:
                return Why(_CANNOT_PASS_MANY[seat, face.value],
                           {"cell": str(cells[0]), "others": len(cells) - 1})
            return Why(_CANNOT_PASS[seat, face.value], {"cell": str(cells[0])})
        return self.placement_problem(move.cell) or ""

    def placement_problem(self, cell: Cell) -> Why | None:
        """Why the player to move may not place the current face on `cell` (None if they may)."""
        name = str(cell)
        if not GRID.contains(cell):
            return Why(N_("{cell} is off the board (cells go from a1 to o15)"), {"cell": name})
        seat, index = self.to_move, _INDEX[cell]
        land_row = LAND_ROWS[seat]
        occupant = self.board[index]
        if occupant != EMPTY:
            return Why(_TAKEN[_OWNER[occupant], _FACE[occupant].value], {"cell": name})
        if self.phase is Phase.SETUP:
            if index not in _LAND[seat]:
                return Why(_OPENING_OFF_LAND[seat], {"land": land_row, "row": cell.row + 1})
            return None
        face = self.face_to_place
        if face is None:
            return Why(N_("no pawn is to be placed now"))
        own, enemy = PIECE_CHARS[seat], PIECE_CHARS[1 - seat]
        touches_own = any(self.board[k] in own for k in _ORTHO[index])
        if face is Face.GRAPE:
            if index in _LAND[seat] or touches_own:
                return None
            return Why(_GRAPE_ASTRAY[seat], {"cell": name, "land": land_row})
        if index in _LAND[seat]:
            return Why(_BLANK_ON_LAND[seat], {"cell": name, "land": land_row})
        if not touches_own:
            return Why(_BLANK_ASTRAY[seat], {"cell": name})
        for k in _ORTHO[index]:
            if self.board[k] in enemy:
                return Why(_TOUCHES_ENEMY[1 - seat], {"cell": name, "at": _name(k)})
        for k in _AROUND[index]:
            if self.board[k] == enemy[1]:
                return Why(_PROTECTED[1 - seat], {"cell": name, "at": _name(k)})
        return None

    # -- playing ----------------------------------------------------------------------------------

    def _play(self, move: GrapsMove) -> None:
        # The cache depends on the board only: `_place` and `_remove` empty it when it changes.
        if isinstance(move, Roll):
            face = move.face
            if not ROLLED_FACE_WITHOUT_CELL_PASSES and not self._cells(self.to_move, face):
                face = Face.BLANK if face is Face.GRAPE else Face.GRAPE
            self.phase = Phase(face.value)
        elif isinstance(move, Pass):
            self._next_turn(self.to_move)
        else:
            self._place(_INDEX[move.cell])

    def _place(self, index: int) -> None:
        seat, face = self.to_move, self.face_to_place
        assert face is not None
        self.board[index] = _char(seat, face)
        self._cache.clear()
        self.stocks[seat] -= 1
        self.last_placement = {"seat": seat, "cell": _name(index), "face": face.value}
        self.pruned, self.cut, self.removed_faces = [], [], {}
        if face is Face.GRAPE:
            self._prune(index, 1 - seat)
        if index in _LAND[1 - seat]:
            # Reaching the opponent's land wins at once; the pruning above has already happened.
            self._end(Result([seat], None, EndReason.LAND_REACHED), seat)
        else:
            self._next_turn(seat)

    def _prune(self, index: int, enemy: int) -> None:
        """Remove the enemy pawns around the grape on `index`, then those cut from their land."""
        pruned = [j for j in _AROUND[index] if _OWNER.get(self.board[j]) == enemy]
        self._remove(pruned)
        linked = self.linked_indexes(enemy)
        cut = [
            j for j, char in enumerate(self.board) if _OWNER.get(char) == enemy and j not in linked
        ]
        self._remove(cut)
        self.pruned = [_name(j) for j in sorted(pruned)]
        self.cut = [_name(j) for j in cut]
        if self.options["return_pruned"]:
            self.stocks[enemy] += len(pruned) + len(cut)

    def _remove(self, indexes: list[int]) -> None:
        for j in indexes:
            self.removed_faces[_name(j)] = _FACE[self.board[j]].value
            self.board[j] = EMPTY
        self._cache.clear()

    def linked_indexes(self, seat: int) -> set[int]:
        """Flat indexes of `seat`'s pawns joined side to side to a pawn on `seat`'s land."""
        own = PIECE_CHARS[seat]
        frontier = [j for j in _LAND[seat] if self.board[j] in own]
        linked = set(frontier)
        while frontier:
            here = frontier.pop()
            for j in _ORTHO[here]:
                if j not in linked and self.board[j] in own:
                    linked.add(j)
                    frontier.append(j)
        return linked

    def _next_turn(self, seat: int) -> None:
        """Hand over after `seat` placed or passed."""
        if self.phase is Phase.SETUP and seat == 0:
            self.to_move = 1  # Light's opening grape, still no die
            return
        self.to_move, self.phase = 1 - seat, Phase.ROLL
        self._check_turn_start()

    def _check_turn_start(self) -> None:
        """End the game on empty stocks, or on a total blockade of the player whose turn starts."""
        if self.stocks == [0, 0]:
            self._end(self._distance_result(), self.to_move)
        elif (self.phase is Phase.ROLL and self.stocks[self.to_move] > 0
              and self.is_totally_blocked(self.to_move)):
            self._end(Result([self.to_move], None, EndReason.BLOCKADE), self.to_move)

    def _end(self, result: Result, seat: int) -> None:
        # The seat field of an over position keeps the winner of a land win or a blockade, so
        # that from_position can tell who won.
        self._result, self.phase, self.to_move = result, Phase.OVER, seat

    def distance(self, seat: int) -> int:
        """Rows still to go from `seat`'s most advanced pawn to the opponent's land row."""
        pawns = self._pawn_indexes(seat)
        if not pawns:
            return NO_PAWN_DISTANCE
        # Pawns are listed row by row and the goal is an edge row: the nearest pawn row to it
        # is the lowest or the highest.
        goal = LAND_ROWS[1 - seat]
        return min(abs(goal - _row_of(pawns[0])), abs(goal - _row_of(pawns[-1])))

    def _pawn_indexes(self, seat: int) -> list[int]:
        key = ("pawns", seat)
        cached = self._cache.get(key)
        if cached is None:
            own = PIECE_CHARS[seat]
            cached = self._cache[key] = [j for j, char in enumerate(self.board) if char in own]
        return cached

    def _distance_result(self) -> Result:
        dark, light = self.distance(0), self.distance(1)
        if dark == light:
            return Result([0, 1], None, EndReason.DRAW)
        return Result([0 if dark < light else 1], None, EndReason.CLOSEST)

    # -- what the last placement removed --------------------------------------------------------

    def pruned_cells(self) -> list[Cell]:
        """Cells emptied by the last placement's grape (its 8 surrounding cells)."""
        return [GRID.parse(name) for name in self.pruned]

    def cut_cells(self) -> list[Cell]:
        """Cells emptied by the last placement because they lost their link to their land."""
        return [GRID.parse(name) for name in self.cut]

    def protected_zone(self, seat: int) -> list[Cell]:
        """Cells around `seat`'s grapes, where the opponent may place no blank."""
        return [_CELLS[k] for k in self._zone_indexes(seat)]

    def _zone_indexes(self, seat: int) -> list[int]:
        grape = PIECE_CHARS[seat][1]
        zone = {k for j in self._pawn_indexes(seat) if self.board[j] == grape for k in _AROUND[j]}
        return sorted(zone)

    # -- views, dumps and positions -------------------------------------------------------------

    def view(self, seat: int | None) -> GrapsView:
        # Graps has no hidden information: every seat and spectators see the same thing.
        over, seat_to = self._result is not None, self.to_move
        removed_owner = (
            1 - self.last_placement["seat"]
            if self.last_placement and (self.pruned or self.cut)
            else None
        )
        on_board = [len(self._pawn_indexes(s)) for s in (0, 1)]
        grapes = self.options["grape_faces"]
        return {
            "game": "graps",
            "current_player": self.current_player,
            "result": self._result.to_dict() if self._result else None,
            "position": self.position(),
            "size": SIZE,
            "columns": COLUMNS,
            "seat_names": list(SEAT_NAMES),
            "land_rows": list(LAND_ROWS),
            "pawns": {
                _NAMES[j]: {"seat": s, "face": _FACE_WORD[self.board[j]]}
                for s in (0, 1)
                for j in self._pawn_indexes(s)
            },
            "to_move": self.to_move,
            "phase": self.phase.value,
            "face": self.face_to_place.value if self.face_to_place else None,
            "stocks": list(self.stocks),
            "on_board": on_board,
            "out_of_game": [PAWNS_PER_PLAYER - on_board[s] - self.stocks[s] for s in (0, 1)],
            "die": {"grape": grapes / DIE_FACES, "blank": (DIE_FACES - grapes) / DIE_FACES},
            "options": dict(self.options),
            "legal_cells": [_NAMES[j] for j in self._legal_indexes()],
            "must_pass": self.must_pass(),
            "cells_by_face": {
                face.value: [] if over else [_NAMES[j] for j in self._cells(seat_to, face)]
                for face in Face
            },
            "protected_zones": [[_NAMES[k] for k in self._zone_indexes(s)] for s in (0, 1)],
            "distances": [self.distance(0), self.distance(1)],
            "last_placement": self.last_placement.copy() if self.last_placement else None,
            "last_removed": {
                "owner": removed_owner,
                "pruned": list(self.pruned),
                "cut": list(self.cut),
                "faces": dict(self.removed_faces),
            },
        }

    def position(self) -> str:
        """The position string of graps.md."""
        cells = "".join(self.board)
        rows = [cells[r * SIZE:(r + 1) * SIZE] for r in reversed(range(SIZE))]
        return (f"{'/'.join(rows)} {self.to_move} {self.phase.value} "
                f"{self.stocks[0]} {self.stocks[1]}")

    def _dump_state(self) -> dict[str, Any]:
        return {
            "position": self.position(),
            "result": self._result.to_dict() if self._result else None,
            "last_placement": self.last_placement.copy() if self.last_placement else None,
            "pruned": list(self.pruned),
            "cut": list(self.cut),
            "removed_faces": dict(self.removed_faces),
        }

    def _load_state(self, data: Mapping[str, Any]) -> None:
        self._set_position(data["position"])
        self._result = Result.from_dict(data["result"]) if data["result"] else None
        last = data["last_placement"]
        self.last_placement = (
            {"seat": last["seat"], "cell": last["cell"], "face": last["face"]} if last else None
        )
        self.pruned = list(data["pruned"])
        self.cut = list(data["cut"])
        self.removed_faces = dict(data["removed_faces"])

    def _set_position(self, text: str) -> None:
        fields = text.split()
        if len(fields) != 5:
            raise ValueError("a Graps position is: rows, seat, phase, stock 0, stock 1 (5 fields)")
        rows = fields[0].split("/")
        if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
            raise ValueError("a Graps board is 15 rows of 15 cells separated by /, row 15 first")
        if any(char not in ".xXoO" for row in rows for char in row):
            raise ValueError("board cells are . (empty), x X (dark blank, grape), o O (light)")
        if fields[1] not in ("0", "1"):
            raise ValueError(f"the seat must be 0 or 1, not {fields[1]!r}")
        try:
            phase = Phase(fields[2])
        except ValueError:
            raise ValueError(
                f"{fields[2]!r} is not a phase: setup, roll, blank, grape or over"
            ) from None
        if not all(f.isascii() and f.isdigit() for f in fields[3:]):
            raise ValueError("the stocks must be whole numbers")
        board = [char for row in reversed(rows) for char in row]
        stocks = [int(fields[3]), int(fields[4])]
        for seat in (0, 1):
            pawns = sum(board.count(char) for char in PIECE_CHARS[seat])
            if pawns + stocks[seat] > PAWNS_PER_PLAYER:
                raise ValueError(
                    f"{SEAT_NAMES[seat]} has {pawns} pawns on the board and {stocks[seat]} in "
                    f"stock, more than {PAWNS_PER_PLAYER}"
                )
        self.board, self.stocks = board, stocks
        self._cache.clear()
        self.to_move, self.phase = int(fields[1]), phase

    def _settle_loaded_position(self) -> None:
        """Give a position read from text the result its board and phase imply."""
        reached = [s for s in (0, 1) if any(_OWNER.get(self.board[j]) == s for j in _LAND[1 - s])]
        if self.phase is Phase.OVER:
            if len(reached) == 1:
                self._result = Result(reached, None, EndReason.LAND_REACHED)
            elif reached:  # both on the other's land: only the seat field can tell
                self._result = Result([self.to_move], None, EndReason.LAND_REACHED)
            elif self.stocks == [0, 0]:
                self._result = self._distance_result()
            else:
                self._result = Result([self.to_move], None, EndReason.BLOCKADE)
        elif reached:
            winner = reached[0] if len(reached) == 1 else self.to_move
            self._end(Result([winner], None, EndReason.LAND_REACHED), winner)
        else:
            self._check_turn_start()


def _from_position(game: Game[Any], text: str, options: dict[str, Any]) -> GrapsState:
    state = GrapsState(2, options)
    state._set_position(text)
    state._settle_loaded_position()
    return state


GRAPS = Game(
    id="graps",
    name="Graps",
    min_players=2,
    max_players=2,
    state_class=GrapsState,
    option_specs={
        "grape_faces": choice_option(
            "grape faces on each six-sided die (the others are blank)",
            GRAPE_FACES_DEFAULT,
            (1, 2, 3, 4, 5),
            label=N_("grape faces on the die"),
        ),
        "return_pruned": bool_option(
            "removed pawns go back to their owner's stock instead of leaving the game",
            False,
            label=N_("removed pawns return to their stock"),
        ),
    },
    position_parser=_from_position,
)
