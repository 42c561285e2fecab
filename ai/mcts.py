"""Information-set Monte-Carlo tree search (single observer), with UCT selection.

Each iteration draws a determinization (a full state consistent with what the searching
seat may see), walks the tree choosing only moves legal in that determinization (counting
how often each was available, as in Cowling, Powley and Whitehouse's SO-ISMCTS and
OpenSpiel's ismcts.py), expands one move, plays out, and backs up every seat's reward.
With perfect information the determinization is the state itself: this is plain UCT.
Chance outcomes are drawn with the engine's probabilities, never chosen.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from ai.base import AnyState, Budget, Knowledge, is_chance, rewards, sample_chance


@dataclass
class Node:
    """Statistics of one move in one information set (keyed by the move's notation)."""

    mover: int
    visits: int = 0
    available: int = 0
    total: float = 0.0
    children: dict[str, Node] = field(default_factory=dict)


def search(state: AnyState, game_ai: Knowledge, budget: Budget, rng: random.Random) -> Any:
    """The most visited legal move of `state.current_player` after `budget.iterations`."""
    seat = state.current_player
    assert seat is not None and seat >= 0, "search is for a player's decision"
    legal = state.legal_moves()
    if len(legal) == 1:
        return legal[0]
    root = Node(mover=-1)
    for _ in range(budget.iterations):
        world = game_ai.sample(state, seat, rng)
        _iterate(root, world, game_ai, budget, rng)
    by_text = {str(move): move for move in legal}
    best = max(by_text, key=lambda text: (root.children[text].visits
                                          if text in root.children else -1, text))
    return by_text[best]


def _iterate(root: Node, world: AnyState, game_ai: Knowledge, budget: Budget,
             rng: random.Random) -> None:
    path = [root]
    node = root
    expanded = False
    while not world.is_over():
        if is_chance(world):
            world.apply(sample_chance(world, rng))
            continue
        mover = world.current_player
        assert mover is not None
        moves = {str(move): move for move in world.legal_moves()}
        for text in moves:
            child = node.children.get(text)
            if child is not None:
                child.available += 1
        untried = [text for text in moves if text not in node.children]
        if untried:
            text = rng.choice(sorted(untried))
            node.children[text] = Node(mover=mover, available=1)
            node = node.children[text]
            world.apply(moves[text])
            path.append(node)
            expanded = True
            break
        text = _select(node, moves, budget.exploration)
        node = node.children[text]
        world.apply(moves[text])
        path.append(node)
    scores = _playout(world, game_ai, budget, rng) if expanded else (
        rewards(world) if world.is_over() else game_ai.evaluate(world))
    for visited in path[1:]:
        visited.visits += 1
        visited.total += scores[visited.mover]
    root.visits += 1


def _select(node: Node, moves: dict[str, Any], exploration: float) -> str:
    """The move to follow: UCT among the children legal in this determinization."""
    best_key, best_value = "", -math.inf
    for text in sorted(moves):
        child = node.children[text]
        value = (child.total / child.visits if child.visits else 0.5) + exploration * math.sqrt(
            math.log(max(child.available, 1)) / (child.visits + 1))
        if value > best_value:
            best_key, best_value = text, value
    return best_key


def _playout(world: AnyState, game_ai: Knowledge, budget: Budget,
             rng: random.Random) -> list[float]:
    """Play on with the game's playout policy; score the end (or evaluate at the depth)."""
    depth = 0
    while not world.is_over():
        if budget.rollout_depth is not None and depth >= budget.rollout_depth:
            return game_ai.evaluate(world)
        if is_chance(world):
            world.apply(sample_chance(world, rng))
            continue
        world.apply(game_ai.playout_move(world, rng))
        depth += 1
    return rewards(world)
