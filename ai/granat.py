"""Granat: an alpha-beta search on the fast board of `ai.granat_fast`, with a material evaluation.

Granat is a game of perfect information where captures are mandatory, like draughts, so a
draughts-style search fits it far better than playouts: iterative deepening alpha-beta with a
transposition table, forced positions (captures, single moves) searched past the horizon, and
a static evaluation of material (neutral and garnet pawns), advancement and the garnet cell.
Budgets are node counts, never clock time, so a move is reproducible.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from operator import getitem
from typing import Any, ClassVar

from ai.base import AnyState
from ai.game import GameAI
from ai.granat_fast import (
    CAPTURE,
    GARNET,
    NUM_CELLS,
    ROW,
    STUCK,
    Board,
    Move,
    forced_moves,
    from_state,
    has_quiet_move,
    key_of,
    legal_moves,
    material_outcome,
    play,
    quiet_moves,
)
from engines.granat import FORWARD, NUM_ROWS, GranatState

WIN = 100_000
"""A won game's score (minus the plies it takes, so quicker wins are preferred)."""

NEUTRAL_VALUE = 100
"""A neutral pawn: the unit of material."""
GARNET_VALUE = 320
"""A garnet pawn: a neutral pawn plus the marble that makes it a long-range capturer."""
STUCK_VALUE = 70
"""A neutral pawn on the opponent's back row can no longer move; it can still get a marble."""
ADVANCE_VALUE = 3
"""Per row a neutral pawn has advanced: progress towards the opponent's side."""
CENTRE_VALUE = 15
"""A garnet pawn on the garnet cell protects its side (and keeps the cell)."""
MAX_PLY = 48
"""No search line goes deeper than this, forced moves included."""


@dataclass(frozen=True)
class GranatBudget:
    """How much one level searches per decision: a node budget and a depth cap."""

    nodes: int
    max_depth: int
    noise: int = 0
    """Root scores get a random offset up to this (the weak level's mistakes)."""


def _pawn_values() -> tuple[tuple[int, ...], ...]:
    """Per pawn code, per cell: the pawn's value, positive for Red and negative for Blue."""
    table: list[tuple[int, ...]] = [(0,) * NUM_CELLS]
    for seat in (0, 1):
        sign = 1 if seat == 0 else -1
        back = 0 if FORWARD[seat] > 0 else NUM_ROWS - 1
        neutral = []
        for cell in range(NUM_CELLS):
            if STUCK[seat][cell]:
                neutral.append(sign * STUCK_VALUE)
            else:
                neutral.append(sign * (NEUTRAL_VALUE + ADVANCE_VALUE * abs(ROW[cell] - back)))
        garnet = [sign * (GARNET_VALUE + (CENTRE_VALUE if cell == GARNET else 0))
                  for cell in range(NUM_CELLS)]
        table += [tuple(neutral), tuple(garnet)]
    return tuple(table)


VALUES = _pawn_values()
"""Per pawn code, per cell: the pawn's value for Red (Blue's count negatively)."""

CELL_VALUES: tuple[tuple[int, ...], ...] = tuple(
    tuple(VALUES[pawn][cell] for pawn in range(5)) for cell in range(NUM_CELLS))
"""VALUES by cell then pawn code, so the evaluation is one `map` in C."""


def evaluate(board: Board, seat: int) -> int:
    """The static score of a running position for `seat`: material and advancement."""
    total = sum(map(getitem, CELL_VALUES, board))
    return total if seat == 0 else -total


class _OutOfNodes(Exception):
    """The node budget is spent: the search keeps its last finished iteration."""


class _Search:
    """One decision's alpha-beta search (its transposition table lives for the decision)."""

    def __init__(self, nodes: int) -> None:
        self.limit = nodes
        self.nodes = 0
        self.table: dict[tuple[tuple[int, ...], int, int], tuple[int, int, int, Move | None]] = {}
        self.history: dict[tuple[int, int, int], int] = {}

    def negamax(self, board: Board, seat: int, quiet: int, depth: int, alpha: int, beta: int,
                ply: int) -> int:
        """The score of the position for `seat` (to move), within the window (alpha, beta)."""
        self.nodes += 1
        if self.nodes > self.limit:
            raise _OutOfNodes
        over = material_outcome(board, seat, quiet)
        if over is not None:
            return 0 if over == 0.5 else (WIN - ply if over else ply - WIN)
        # Captures are mandatory and single moves are no choice: such lines are searched on
        # past the horizon, so the evaluation only sees positions with nothing hanging.
        moves = forced_moves(board, seat)
        if moves is None:
            if depth <= 0 or ply >= MAX_PLY:
                return evaluate(board, seat) if has_quiet_move(board, seat) else ply - WIN
            moves = quiet_moves(board, seat)
            if not moves:
                return ply - WIN
            if len(moves) > 1:
                depth -= 1
        elif ply >= MAX_PLY:
            return evaluate(board, seat)
        key = (tuple(board), seat, quiet)
        entry = self.table.get(key)
        best_move: Move | None = None
        if entry is not None:
            stored_depth, value, flag, best_move = entry
            if stored_depth >= depth and (
                    flag == 0 or (flag > 0 and value >= beta) or (flag < 0 and value <= alpha)):
                return value
        moves = self._ordered(moves, seat, best_move)
        original_alpha = alpha
        best = -WIN - 1
        chosen = moves[0]
        opponent = 1 - seat
        for move in moves:
            after, after_quiet = play(board, seat, quiet, move)
            if best == -WIN - 1:
                value = -self.negamax(after, opponent, after_quiet, depth, -beta, -alpha, ply + 1)
            else:
                # Principal variation search: later moves only have to prove they are worse.
                value = -self.negamax(after, opponent, after_quiet, depth, -alpha - 1, -alpha,
                                      ply + 1)
                if alpha < value < beta:
                    value = -self.negamax(after, opponent, after_quiet, depth, -beta, -value,
                                          ply + 1)
            if value > best:
                best, chosen = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        if move[0] != CAPTURE:
                            hist = (seat, move[1][0], move[1][-1])
                            self.history[hist] = self.history.get(hist, 0) + depth * depth + 1
                        break
        flag = 1 if best >= beta else (-1 if best <= original_alpha else 0)
        self.table[key] = (depth, best, flag, chosen)
        return best

    def _ordered(self, moves: list[Move], seat: int, first: Move | None) -> list[Move]:
        """Moves in search order: the remembered best, then by capture size or history."""
        if moves[0][0] == CAPTURE:
            ordered = sorted(moves, key=lambda m: -len(m[2]))
        else:
            history = self.history
            ordered = sorted(moves, key=lambda m: -history.get((seat, m[1][0], m[1][-1]), 0))
        if first is not None and first in moves:
            ordered.remove(first)
            ordered.insert(0, first)
        return ordered


def search(state: GranatState, budget: GranatBudget, rng: random.Random) -> Any:
    """The engine move the search prefers for `state.current_player`."""
    return analyse(state, budget, rng)[0]


def analyse(state: GranatState, budget: GranatBudget, rng: random.Random) -> tuple[Any, int]:
    """(the engine move the search prefers, the last depth it searched completely)."""
    legal = state.legal_moves()
    if len(legal) == 1:
        return legal[0], 0
    by_key = {key_of(move): move for move in legal}
    board, seat, quiet = from_state(state)
    # The fast generator gives each capture its taken cells; keep only moves the engine allows.
    moves = [move for move in legal_moves(board, seat) if (move[0], move[1]) in by_key]
    if not moves:
        return rng.choice(legal), 0  # the fast board disagrees with the engine: stay legal
    rng.shuffle(moves)  # ties go to a random move, reproducible with the given rng
    noise = {move: rng.randint(-budget.noise, budget.noise) if budget.noise else 0
             for move in moves}
    finder = _Search(budget.nodes)
    best = iteration_best = moves[0]
    searched = completed = 0
    scores: dict[Move, int] = {}
    try:
        for depth in range(1, budget.max_depth + 1):
            alpha = -WIN - 1
            iteration_best = best
            searched = 0
            for move in moves:
                after, after_quiet = play(board, seat, quiet, move)
                bonus = noise[move]
                if searched:
                    # A null window first: most moves only have to be shown no better.
                    value = bonus - finder.negamax(after, 1 - seat, after_quiet, depth - 1,
                                                   bonus - alpha - 1, bonus - alpha, 1)
                    if value > alpha:
                        value = bonus - finder.negamax(after, 1 - seat, after_quiet, depth - 1,
                                                       -WIN - 1, bonus - alpha, 1)
                else:
                    value = bonus - finder.negamax(after, 1 - seat, after_quiet, depth - 1,
                                                   -WIN - 1, WIN + 1, 1)
                scores[move] = value
                searched += 1
                if value > alpha:
                    alpha, iteration_best = value, move
            best, completed = iteration_best, depth
            if abs(alpha) > WIN - 1000:
                break  # a forced result is known: deeper search changes nothing
            moves.sort(key=lambda m: -scores.get(m, -WIN))
    except _OutOfNodes:
        # Within an unfinished iteration a move that beat the previous best is still better.
        if searched:
            best = iteration_best
    return by_key[(best[0], best[1])], completed


class GranatAI(GameAI):
    """Granat: alpha-beta on a fast board, with budgets in nodes per level."""

    game_id = "granat"
    granat_budgets: ClassVar[dict[str, GranatBudget]] = {
        "easy": GranatBudget(nodes=300, max_depth=1, noise=60),
        "medium": GranatBudget(nodes=3_000, max_depth=3),
        "hard": GranatBudget(nodes=24_000, max_depth=12),
    }

    def choose_move(self, state: AnyState, level: str, rng: random.Random) -> Any:
        """The move at `level`: a node-limited alpha-beta search on the fast board."""
        assert isinstance(state, GranatState), "GranatAI plays Granat states"
        return search(state, self.granat_budgets[level], rng)
