"""Graps: a race evaluation (each vine's cheapest way to the opponent's land) and a shallow
expectimax over the opponent's die, on the fast board of `ai.graps_board`."""

from __future__ import annotations

import heapq
import math
import random
from typing import Any

from ai.base import AnyState, is_chance
from ai.game import GameAI
from ai.graps_board import (
    AROUND,
    BLANK,
    CELLS,
    EMPTY,
    GOAL_ROW,
    GRAPE,
    LAND,
    ORTHO,
    ROW,
    Board,
    phase_face,
)
from engines.graps import DIE_FACES, SIZE, GrapsState, Place

STEP = 2
"""Cost of a cell a blank may take (half-moves, so that the other costs can be halves)."""
GRAPE_STEP = 6
"""Cost of a cell only a grape may take: the die shows one rarely, so it is a detour."""
ENEMY_STEP = 7
"""Cost of a cell an enemy pawn holds: a grape must prune it first."""
UNREACHABLE = 999
"""Race cost of a vine with no way at all to the opponent's land."""
BEYOND_REACH = 20
"""Moves counted for a vine that cannot reach the opponent's land with its stock, plus rows."""
SHARPNESS = 0.6
"""How sure a lead of one move makes the winner (logistic slope per move)."""


def race_cost(board: Board, seat: int) -> int:
    """Half-moves `seat` needs to put a pawn on the opponent's land (A* from its pawns)."""
    cells = board.cells
    own_blank, own_grape = BLANK[seat], GRAPE[seat]
    enemy_blank, enemy_grape = BLANK[1 - seat], GRAPE[1 - seat]
    # Cells a blank may not take (the grape's protected zone, side-on contact): grape-only.
    blocked = [False] * CELLS
    dist = [UNREACHABLE] * CELLS
    goal = GOAL_ROW[seat]
    heap: list[tuple[int, int, int]] = []
    for i, code in enumerate(cells):
        if code == enemy_blank:
            for j in ORTHO[i]:
                blocked[j] = True
        elif code == enemy_grape:
            for j in AROUND[i]:
                blocked[j] = True
        elif code in (own_blank, own_grape):
            dist[i] = 0
            heap.append((STEP * abs(goal - ROW[i]), 0, i))
    # A grape may start a new vine anywhere on one's own land.
    for i in LAND[seat]:
        if cells[i] == EMPTY and dist[i] > GRAPE_STEP:
            dist[i] = GRAPE_STEP
            heap.append((GRAPE_STEP + STEP * abs(goal - ROW[i]), GRAPE_STEP, i))
    heapq.heapify(heap)
    while heap:
        _, g, i = heapq.heappop(heap)
        if g > dist[i]:
            continue
        if ROW[i] == goal:
            return g
        for j in ORTHO[i]:
            code = cells[j]
            if code == EMPTY:
                step = GRAPE_STEP if blocked[j] else STEP
            elif code in (enemy_blank, enemy_grape):
                step = ENEMY_STEP
            else:
                continue  # own pawns are sources already
            cost = g + step
            if cost < dist[j]:
                dist[j] = cost
                heapq.heappush(heap, (cost + STEP * abs(goal - ROW[j]), cost, j))
    return UNREACHABLE


def value(board: Board, roller: int, seat: int) -> float:
    """`seat`'s chance to win where `roller` is about to roll (or the game is over)."""
    if board.winner is not None:
        return 1.0 if board.winner == seat else 0.0 if board.winner >= 0 else 0.5
    moves = [0.0, 0.0]
    for s in (0, 1):
        cost = race_cost(board, s)
        if cost <= STEP * board.stocks[s]:
            moves[s] = cost / STEP
        else:
            # Too few pawns left to get there: the end on empty stocks decides, by rows to go,
            # and any vine that can still arrive is far better.
            moves[s] = BEYOND_REACH + board.distance(s)
    other = 1 - roller
    margin = moves[other] - moves[roller] + 1
    p_roller = 1 / (1 + math.exp(-SHARPNESS * margin))
    return p_roller if seat == roller else 1 - p_roller


def _after(board: Board, seat: int, index: int, grape: bool) -> tuple[Board, int | None]:
    """The board once `seat` placed on `index`, and who rolls next (None: game over)."""
    child = board.copy()
    child.place(seat, index, grape)
    return child, child.end_turn(seat)


def _leaf(board: Board, roller: int | None, seat: int) -> float:
    """`seat`'s value of a position reached in the search (over when `roller` is None)."""
    return value(board, roller if roller is not None else seat, seat)


class GrapsAI(GameAI):
    """Graps: greedy on the race (easy, medium), one reply of the opponent deeper (hard)."""

    game_id = "graps"
    candidates = 10
    """Hard: how many of its best moves (by the race after them) meet every reply."""

    def choose_move(self, state: AnyState, level: str, rng: random.Random) -> Any:
        """The move at `level` for the player to move (never a die roll)."""
        if not isinstance(state, GrapsState):
            raise TypeError("GrapsAI plays Graps states only")
        if state.is_over() or is_chance(state):
            raise ValueError("choose_move is for a player's decision, not a die roll")
        legal = state.legal_moves()
        if len(legal) == 1:
            return legal[0]
        by_index = {move.cell.row * SIZE + move.cell.col: move
                    for move in legal if isinstance(move, Place)}
        seat = state.current_player
        assert seat is not None
        grape = phase_face(state)
        assert grape is not None
        board = Board.from_state(state)
        p_grape = state.options["grape_faces"] / DIE_FACES
        indexes = sorted(by_index)
        if level == "easy":
            choice = self._easy(board, seat, indexes, grape, rng)
        elif level == "medium":
            choice = self._greedy(board, seat, indexes, grape, rng)
        else:
            choice = self._expectimax(board, seat, indexes, grape, p_grape, rng)
        return by_index[choice]

    def _scored(self, board: Board, seat: int, indexes: list[int],
                grape: bool) -> list[tuple[float, int]]:
        scored = []
        for index in indexes:
            child, roller = _after(board, seat, index, grape)
            scored.append((_leaf(child, roller, seat), index))
        return scored

    def _greedy(self, board: Board, seat: int, indexes: list[int], grape: bool,
                rng: random.Random) -> int:
        scored = self._scored(board, seat, indexes, grape)
        best = max(score for score, _ in scored)
        return rng.choice([index for score, index in scored if score >= best - 1e-9])

    def _easy(self, board: Board, seat: int, indexes: list[int], grape: bool,
              rng: random.Random) -> int:
        # Only its own race, and a random move now and then: a beginner who pushes ahead.
        if rng.random() < 0.3:
            return rng.choice(indexes)
        scored = []
        for index in indexes:
            child = board.copy()
            child.place(seat, index, grape)
            scored.append((-race_cost(child, seat) if child.winner is None else 0, index))
        best = max(score for score, _ in scored)
        return rng.choice([index for score, index in scored if score == best])

    def _expectimax(self, board: Board, seat: int, indexes: list[int], grape: bool,
                    p_grape: float, rng: random.Random) -> int:
        scored = self._scored(board, seat, indexes, grape)
        scored.sort(key=lambda item: -item[0])
        if scored[0][0] >= 1.0:
            return scored[0][1]  # a land win now
        best_index, best_score = scored[0][1], -1.0
        for _, index in scored[:self.candidates]:
            child, roller = _after(board, seat, index, grape)
            if roller is None or roller == seat:
                score = _leaf(child, roller, seat)
            else:
                score = 0.0
                for face, chance in ((True, p_grape), (False, 1 - p_grape)):
                    score += chance * self._reply(child, roller, face, seat)
            # A little noise breaks ties without favouring one side of the board.
            score += rng.random() * 1e-6
            if score > best_score:
                best_index, best_score = index, score
        return best_index

    def _reply(self, board: Board, enemy: int, grape: bool, seat: int) -> float:
        """`seat`'s value after the enemy's best placement of the face, as `seat` sees it."""
        cells = board.grape_cells(enemy) if grape else board.blank_cells(enemy)
        if not cells:
            passed = board.copy()
            return _leaf(passed, passed.end_turn(enemy), seat)
        worst = 1.0
        for index in cells:
            child, roller = _after(board, enemy, index, grape)
            worst = min(worst, _leaf(child, roller, seat))
            if worst <= 0.0:
                break
        return worst
