"""A fast Granat representation for the search: a board of small ints and pure move walkers.

It mirrors `engines.granat` (with the engine's current rule decisions) on a flat list of ints,
built from the engine's public board data, so the search runs many times faster than it could
on `GranatState`. `tests/ai/test_granat.py` checks it agrees with the engine move by move.

It supports the engine's default decisions only: it reads the board data (yellow lines
included) from the engine, but the default values of the [decision] constants are written into
its walkers. So it keeps no `garnet_arrived` flag either: with the marble always leaving e8 on
its owner's turn (GARNET_CELL_DUTY_FIRST and STRANDED_MARBLE_IS_LOST both True), an enemy
garnet pawn on e8 has always just arrived, and the board alone says who is protected.
"""

from __future__ import annotations

from engines.granat import (
    CELLS,
    FORWARD,
    GARNET_CELL,
    LINKS,
    STRAIGHT_LINES,
    YELLOW_LINKS,
    GranatMove,
    GranatState,
    MoveKind,
    in_own_half,
    on_opponent_back_row,
)

EMPTY = 0
"""An empty cell; a pawn is 1 + 2 * seat + garnet (1, 2 Red neutral/garnet; 3, 4 Blue)."""

PLAIN, CAPTURE, MARBLE, LOSE = 0, 1, 2, 3
"""Move kinds, in the order of `KINDS`."""

KINDS: tuple[MoveKind, ...] = (
    MoveKind.PLAIN, MoveKind.CAPTURE, MoveKind.MARBLE, MoveKind.LOSE_MARBLE,
)
"""The engine's move kind of each fast kind."""

QUIET_MOVES_FOR_DRAW = 40
"""The engine's quiet-move draw (moves with no capture and no neutral moved)."""

Board = list[int]
Move = tuple[int, tuple[int, ...], tuple[int, ...]]
"""(kind, path of cell indices, captured cell indices)."""
Ray = tuple[int, tuple[int, ...], tuple[bool, ...]]
"""(line and sense key, cells nearest first, whether every link up to each cell is yellow)."""

ENEMY: tuple[tuple[bool, ...], ...] = (
    (False, False, False, True, True), (False, True, True, False, False))
"""Per seat, per pawn code: whether it is an enemy pawn."""

INDEX: dict[object, int] = {cell: index for index, cell in enumerate(CELLS)}
"""Engine cell -> index on the fast board (the engine's own order, CELLS)."""
NUM_CELLS = len(CELLS)
GARNET = INDEX[GARNET_CELL]
ROW: tuple[int, ...] = tuple(cell.row for cell in CELLS)


def _build_rays() -> tuple[tuple[Ray, ...], ...]:
    rays: list[list[Ray]] = [[] for _ in CELLS]
    for number, line in enumerate(STRAIGHT_LINES):
        for index, origin in enumerate(line):
            for sense, cells in ((1, line[index + 1:]), (0, tuple(reversed(line[:index])))):
                if not cells:
                    continue
                yellow, flags, previous = True, [], origin
                for cell in cells:
                    yellow = yellow and frozenset((previous, cell)) in YELLOW_LINKS
                    flags.append(yellow)
                    previous = cell
                rays[INDEX[origin]].append(
                    (2 * number + sense, tuple(INDEX[c] for c in cells), tuple(flags)))
    return tuple(tuple(found) for found in rays)


RAYS = _build_rays()
"""From each cell, the rays along every straight line through it."""

ADJACENT_JUMPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((ray[1][0], ray[1][1]) for ray in rays if len(ray[1]) >= 2) for rays in RAYS
)
"""From each cell, (next cell, cell beyond) along every line: a neutral's captures."""


def _forward(seat: int, origin: int, ray: Ray) -> bool:
    return (ROW[ray[1][0]] - ROW[origin]) * FORWARD[seat] > 0


FORWARD_STEPS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(ray[1][0] for ray in rays if _forward(seat, origin, ray))
          for origin, rays in enumerate(RAYS))
    for seat in (0, 1)
)
"""Per seat, from each cell, the cells one forward step away."""

FORWARD_JUMPS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(tuple((ray[1][0], ray[1][1]) for ray in rays
                if len(ray[1]) >= 2 and _forward(seat, origin, ray))
          for origin, rays in enumerate(RAYS))
    for seat in (0, 1)
)
"""Per seat, from each cell, (jumped cell, landing cell) of each forward jump."""

NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(tuple(ray[1][0] for ray in rays) for rays in RAYS)
"""From each cell, the cells linked to it."""

LINKED: frozenset[tuple[int, int]] = frozenset(
    (INDEX[a], INDEX[b]) for pair in LINKS for a in pair for b in pair if a != b
)
HOME: tuple[tuple[bool, ...], ...] = tuple(
    tuple(in_own_half(seat, cell) for cell in CELLS) for seat in (0, 1))
"""Per seat, whether each cell is in that seat's own half."""
STUCK: tuple[tuple[bool, ...], ...] = tuple(
    tuple(on_opponent_back_row(seat, cell) for cell in CELLS) for seat in (0, 1))
"""Per seat, whether each cell is the opponent's back row (a neutral there cannot move)."""


def from_state(state: GranatState) -> tuple[Board, int, int]:
    """(board, seat to move, quiet-move count) of an engine state."""
    board = [EMPTY if p is None else 1 + 2 * p.seat + p.garnet for p in state.board]
    return board, state.to_move, state.quiet


def key_of(move: GranatMove) -> tuple[int, tuple[int, ...]]:
    """(kind, path) of an engine move, comparable with a fast move's first two fields."""
    return KINDS.index(move.kind), tuple(INDEX[cell] for cell in move.cells)


# -- move generation ---------------------------------------------------------------------------


def legal_moves(board: Board, seat: int) -> list[Move]:
    """Every legal move of `seat` (the game must not be over): the engine's rules."""
    forced = forced_moves(board, seat)
    return forced if forced is not None else quiet_moves(board, seat)


def forced_moves(board: Board, seat: int) -> list[Move] | None:
    """The moves when the garnet cell's duty or a capture is due, else None."""
    neutral, garnet = 1 + 2 * seat, 2 + 2 * seat
    on_cell = board[GARNET]
    out: list[Move] = []
    if on_cell == garnet:
        # The marble on e8 must leave before anything else, capturing if it can.
        _garnet_chains(board, GARNET, seat, out)
        if out:
            return out
        _slides(board, GARNET, out)
        _marbles(board, GARNET, seat, out)
        return out or [(LOSE, (GARNET,), ())]
    if on_cell == 4 - 2 * seat:
        # The opponent's garnet pawn on e8 protects its side from captures: under the default
        # rules it can only be there because it arrived with the last move.
        return None
    stuck = STUCK[seat]
    enemy = ENEMY[seat]
    for cell, pawn in enumerate(board):
        if pawn == neutral:
            if not stuck[cell]:
                for over, land in ADJACENT_JUMPS[cell]:
                    if enemy[board[over]] and not board[land]:
                        _neutral_chains(board, cell, seat, out)
                        break
        elif pawn == garnet:
            _garnet_chains(board, cell, seat, out)
    return out or None


def quiet_moves(board: Board, seat: int) -> list[Move]:
    """The moves of `seat` when nothing is forced: steps, jumps, slides, marbles."""
    neutral, garnet = 1 + 2 * seat, 2 + 2 * seat
    out: list[Move] = []
    for cell, pawn in enumerate(board):
        if pawn == garnet:
            _slides(board, cell, out)
            _marbles(board, cell, seat, out)
        elif pawn == neutral:
            _walks(board, cell, seat, out)
    return out


def has_quiet_move(board: Board, seat: int) -> bool:
    """True when `seat` has a move, knowing nothing is forced (a cheap early-exit test)."""
    neutral, garnet = 1 + 2 * seat, 2 + 2 * seat
    steps = FORWARD_STEPS[seat]
    stuck = STUCK[seat]
    for cell, pawn in enumerate(board):
        if pawn == garnet:
            for neighbour in NEIGHBOURS[cell]:
                if not board[neighbour]:
                    return True
        elif pawn == neutral and not stuck[cell]:
            for forward in steps[cell]:
                if not board[forward]:
                    return True
    return bool(quiet_moves(board, seat))  # rare: only marbles or own-pawn jumps may be left


def _garnet_chains(board: Board, start: int, seat: int, out: list[Move]) -> None:
    enemy = ENEMY[seat]
    for _key, cells, _flags in RAYS[start]:
        for cell in cells:
            if board[cell]:
                break
        else:
            continue
        if enemy[board[cell]]:
            break
    else:
        return  # the common case: no enemy pawn in sight
    pawn = board[start]
    board[start] = EMPTY

    def walk(here: int, path: tuple[int, ...], taken: tuple[int, ...], last: int,
             last_yellow: bool) -> None:
        centre = board[GARNET]
        yellow_on = centre != 1 and centre != 3  # a neutral on e8 turns yellow lines black
        options = []
        for key, cells, flags in RAYS[here]:
            index = 0
            for cell in cells:
                victim = board[cell]
                if victim:
                    break
                index += 1
            else:
                continue
            if not enemy[victim] or index + 1 >= len(cells) or board[cells[index + 1]]:
                continue
            yellow = flags[index + 1] and yellow_on
            if last >= 0 and ((last_yellow and not yellow) or (not last_yellow and key != last)):
                continue
            options.append((key, yellow, cell, cells[index + 1]))
        if last >= 0 and (not last_yellow or not options):
            out.append((CAPTURE, path, taken))
        for key, yellow, over, land in options:
            victim = board[over]
            board[over] = EMPTY
            walk(land, (*path, land), (*taken, over), key, yellow)
            board[over] = victim

    walk(start, (start,), (), -1, False)
    board[start] = pawn


def _neutral_chains(board: Board, start: int, seat: int, out: list[Move]) -> None:
    enemy = ENEMY[seat]
    pawn = board[start]
    board[start] = EMPTY

    def walk(here: int, path: tuple[int, ...], taken: tuple[int, ...]) -> None:
        found = False
        for over, land in ADJACENT_JUMPS[here]:
            victim = board[over]
            if enemy[victim] and not board[land]:
                found = True
                board[over] = EMPTY
                walk(land, (*path, land), (*taken, over))
                board[over] = victim
        if not found and taken:  # the chain must go on while it can
            out.append((CAPTURE, path, taken))

    walk(start, (start,), ())
    board[start] = pawn


def _slides(board: Board, start: int, out: list[Move]) -> None:
    for _key, cells, _flags in RAYS[start]:
        for cell in cells:
            if board[cell]:
                break
            out.append((PLAIN, (start, cell), ()))


def _marbles(board: Board, giver: int, seat: int, out: list[Move]) -> None:
    neutral = 1 + 2 * seat
    home = HOME[seat]
    giver_home = home[giver]
    for cell in range(NUM_CELLS):
        if board[cell] == neutral and (
                (giver_home and home[cell]) or (giver, cell) in LINKED):
            out.append((MARBLE, (giver, cell), ()))


def _walks(board: Board, start: int, seat: int, out: list[Move]) -> None:
    if STUCK[seat][start]:
        return
    for cell in FORWARD_STEPS[seat][start]:
        if not board[cell]:
            out.append((PLAIN, (start, cell), ()))
    jumps = FORWARD_JUMPS[seat]
    for middle, land in jumps[start]:
        if board[middle] and not board[land]:
            break
    else:
        return  # the common case: no pawn to jump over
    pawn = board[start]
    board[start] = EMPTY

    def walk(here: int, path: tuple[int, ...]) -> None:
        for middle, land in jumps[here]:
            other = board[middle]
            if other and (other - 1) >> 1 == seat and not board[land] and land not in path:
                longer = (*path, land)
                out.append((PLAIN, longer, ()))
                walk(land, longer)

    walk(start, (start,))
    board[start] = pawn


# -- playing -----------------------------------------------------------------------------------


def play(board: Board, seat: int, quiet: int, move: Move) -> tuple[Board, int]:
    """(the new board, the new quiet count) after `seat` plays a legal `move`."""
    kind, path, taken = move
    after = board.copy()
    if kind == LOSE:
        after[GARNET] = 1 + 2 * seat
        return after, quiet + 1
    if kind == MARBLE:
        after[path[0]] = 1 + 2 * seat
        after[path[1]] = 2 + 2 * seat
        return after, quiet + 1
    pawn = after[path[0]]
    after[path[0]] = EMPTY
    for cell in taken:
        after[cell] = EMPTY
    after[path[-1]] = pawn
    if kind == CAPTURE:
        return after, 0
    return after, quiet + 1 if pawn % 2 == 0 else 0  # garnet slides are quiet


def outcome(board: Board, seat: int, quiet: int, moves: list[Move]) -> float | None:
    """`seat`'s score if the game is over (1 win, 0.5 draw, 0 loss), else None.

    `seat` is to move and `moves` its legal moves; the engine's end checks, in its order.
    """
    over = material_outcome(board, seat, quiet)
    if over is not None or moves:
        return over
    return 0.0


def material_outcome(board: Board, seat: int, quiet: int) -> float | None:
    """`seat`'s score if the pawns or quiet moves end the game (before the no-move check)."""
    count = board.count
    if not count(1) and not count(2):
        return 0.0 if seat == 0 else 1.0
    if not count(3) and not count(4):
        return 1.0 if seat == 0 else 0.0
    if (not count(1) and not count(3)) or quiet >= QUIET_MOVES_FOR_DRAW:
        return 0.5
    return None
