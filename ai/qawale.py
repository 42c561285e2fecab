"""Qawale: a UCT search of its own on the fast representation of `ai.qawale_fast`.

The shared search (`ai.mcts`) drives the engine, about 4,000 moves a second; this one
drives `FastQawale`, about 140,000 random moves a second, and knows the one tactic that
decides most games: a player who can show a line at once does so. Playouts take such a
win when there is one; a tree node where the player to move can win at once is solved
on creation, and a node all of whose moves lose is solved too (MCTS-solver), so the
search sees forced wins (double threats) a few moves deep.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, ClassVar

from ai.base import AnyState
from ai.game import GameAI
from ai.qawale_fast import DRAW, ONGOING, FastQawale, Move, to_engine
from engines.qawale import QawaleState


@dataclass(frozen=True)
class QawaleBudget:
    """How much one level searches per decision (iterations, so play is deterministic)."""

    iterations: int
    exploration: float = 0.7
    decisive_playouts: bool = True
    """Playouts take an immediate win when there is one (else they play at random)."""
    solver: bool = True
    """Nodes where the player to move wins at once are solved (else only finished games)."""


class _Node:
    """A position in the tree; its statistics are those of the move that led to it."""

    __slots__ = ("children", "mover", "moves", "solved", "value", "visits")

    def __init__(self, game: FastQawale, solver: bool) -> None:
        self.mover = game.to_move
        self.moves: list[Move] | None = None  # listed on first expansion
        self.children: list[_Node] = []
        self.visits = 0
        self.value = 0.0  # summed rewards of the player who moved into this node
        self.solved = _solve(game) if solver else _finished(game)

    def children_moves(self) -> list[Move]:
        """The moves of this position, listed at its first expansion."""
        assert self.moves is not None, "a node's moves are listed before its children"
        return self.moves


def _solve(game: FastQawale) -> int | None:
    """The outcome when it is already known: the game is over, or the mover wins at once."""
    if game.outcome != ONGOING:
        return game.outcome
    if game.winning_move() is not None:
        return game.to_move
    return None


def _finished(game: FastQawale) -> int | None:
    """The outcome of a finished game, else None."""
    return None if game.outcome == ONGOING else game.outcome


def _reward(outcome: int, seat: int) -> float:
    """The score of `seat` for a finished game."""
    if outcome == DRAW:
        return 0.5
    return 1.0 if outcome == seat else 0.0


def _playout(game: FastQawale, rng: random.Random, decisive: bool) -> int:
    """Play on to the end; with `decisive`, a player who can win at once does."""
    while game.outcome == ONGOING:
        if decisive and game.winning_move() is not None:
            return game.to_move
        game.play(game.random_move(rng))
    return game.outcome


class QawaleSearch:
    """UCT with an MCTS-solver on `FastQawale`, from one root position."""

    def __init__(self, root: FastQawale, budget: QawaleBudget, rng: random.Random) -> None:
        self.root_game = root
        self.root = _Node(root, budget.solver)
        self.budget = budget
        self.rng = rng

    def run(self) -> Move:
        """The best move after the budget's iterations (a forced win as soon as it is seen)."""
        win = self.root_game.winning_move()
        if win is not None:
            return win
        for _ in range(self.budget.iterations):
            if self.root.solved is not None:
                break
            self._iterate()
        return self._best()

    def _best(self) -> Move:
        """A solved win if any, else the most visited move not known to lose."""
        root = self.root
        ranked = sorted(range(len(root.children)), key=lambda i: (
            root.children[i].solved == root.mover,
            root.children[i].solved != 1 - root.mover,
            root.children[i].visits,
            root.children[i].value,
        ))
        return root.children_moves()[ranked[-1]]

    def _iterate(self) -> None:
        game = self.root_game.copy()
        node, path = self.root, [self.root]
        while node.solved is None:
            child = self._expand(node, game)
            if child is not None:
                path.append(child)
                outcome = child.solved
                if outcome is None:
                    outcome = _playout(game, self.rng, self.budget.decisive_playouts)
                self._backup(path, outcome)
                return
            index = self._select(node)
            game.play(node.children_moves()[index])
            node = node.children[index]
            path.append(node)
        self._backup(path, node.solved)

    def _expand(self, node: _Node, game: FastQawale) -> _Node | None:
        """A new child (its move played on `game`), or None when every move has one."""
        if node.moves is None:
            node.moves = game.moves()
        moves = node.moves
        done = len(node.children)
        if done == len(moves):
            return None
        # Untried moves in a random order: swap a random untried one into place.
        pick = done + int(self.rng.random() * (len(moves) - done))
        moves[done], moves[pick] = moves[pick], moves[done]
        game.play(moves[done])
        child = _Node(game, self.budget.solver)
        node.children.append(child)
        return child

    def _select(self, node: _Node) -> int:
        """UCT among the children not already known to lose for the player to move."""
        log_total = math.log(node.visits + 1)
        exploration = self.budget.exploration
        loser = 1 - node.mover
        best, best_value = 0, -math.inf
        for index, child in enumerate(node.children):
            if child.solved == loser:
                continue
            value = child.value / child.visits + exploration * math.sqrt(
                log_total / child.visits)
            if value > best_value:
                best, best_value = index, value
        return best

    def _backup(self, path: list[_Node], outcome: int) -> None:
        """Add the outcome to every node on the path and pass solved results upwards."""
        for depth in range(len(path) - 1, -1, -1):
            node = path[depth]
            node.visits += 1
            if depth:
                node.value += _reward(outcome, path[depth - 1].mover)
                self._propagate(path[depth - 1], node)

    @staticmethod
    def _propagate(parent: _Node, child: _Node) -> None:
        """Solve `parent` when `child` wins for it, or when all its moves lose."""
        if parent.solved is not None or child.solved is None:
            return
        loser = 1 - parent.mover
        if child.solved == parent.mover:
            parent.solved = parent.mover
        elif (child.solved == loser and len(parent.children) == len(parent.children_moves())
              and all(other.solved == loser for other in parent.children)):
            parent.solved = loser


class QawaleAI(GameAI):
    """Qawale: its own UCT on the fast representation, with immediate wins in playouts."""

    game_id = "qawale"
    levels: ClassVar[dict[str, QawaleBudget]] = {
        "easy": QawaleBudget(iterations=30, decisive_playouts=False, solver=False),
        "medium": QawaleBudget(iterations=300),
        "hard": QawaleBudget(iterations=1500),
    }

    def choose_move(self, state: AnyState, level: str, rng: random.Random) -> Any:
        """The move at `level`, found on the fast representation, as an engine move."""
        assert isinstance(state, QawaleState)
        game = FastQawale.from_state(state)
        move = QawaleSearch(game, self.levels[level], rng).run()
        return to_engine(move)
