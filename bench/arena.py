"""Agents against agents: win rates with a confidence interval, and think times.

    python bench/arena.py GAME AGENT OPPONENT [--games N] [--players P] [--workers W] [--first F]

Agents: `random` (uniform legal moves), `flatmc` (300 random playouts per decision spread
over the legal moves, with full information: it may see hidden cards), and the AI levels
`easy`, `medium`, `hard`. Seats alternate (AGENT takes seat g mod P in game g, OPPONENT every
other seat) and every game's chance and agents are seeded from its number, so a run is
reproducible. The score counts a win 1, a shared win 1/winners, a loss 0; the interval is
Wilson's at 95 %. Think time is per decision on one core (each worker is one process).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ai
from ai.base import AnyState, is_chance, rewards, sample_chance
from engines import GAMES

FLAT_PLAYOUTS = 300


def random_agent(state: AnyState, rng: random.Random) -> Any:
    """A uniformly random legal move."""
    return rng.choice(state.legal_moves())


def flat_monte_carlo(state: AnyState, rng: random.Random) -> Any:
    """300 random playouts spread over the legal moves; the best mean score wins."""
    legal = state.legal_moves()
    if len(legal) == 1:
        return legal[0]
    seat = state.current_player
    assert seat is not None
    per_move = max(1, FLAT_PLAYOUTS // len(legal))
    best, best_score = legal[0], -1.0
    for move in legal:
        total = 0.0
        for _ in range(per_move):
            world = state.clone()
            world.apply(move)
            while not world.is_over():
                if is_chance(world):
                    world.apply(sample_chance(world, rng))
                else:
                    world.apply(rng.choice(world.legal_moves()))
            total += rewards(world)[seat]
        if total / per_move > best_score:
            best, best_score = move, total / per_move
    return best


def choose(agent: str, state: AnyState, rng: random.Random) -> Any:
    """The move `agent` makes."""
    if agent == "random":
        return random_agent(state, rng)
    if agent == "flatmc":
        return flat_monte_carlo(state, rng)
    return ai.choose_move(state, agent, rng=rng)


@dataclass
class Outcome:
    """One game: the agent's score and every decision's think time by agent."""

    score: float
    times: dict[str, list[float]] = field(default_factory=dict)


def play(game_id: str, agent: str, opponent: str, players: int, number: int) -> Outcome:
    """Game `number`: `agent` in seat number % players, `opponent` in the others."""
    seat_of_agent = number % players
    chance = random.Random(f"chance:{number}")
    thinking = random.Random(f"agents:{number}")
    state = GAMES[game_id].new_state(players)
    times: dict[str, list[float]] = {agent: [], opponent: []}
    while not state.is_over():
        if is_chance(state):
            state.apply(sample_chance(state, chance))
            continue
        who = agent if state.current_player == seat_of_agent else opponent
        if len(state.legal_moves()) == 1:
            state.apply(state.legal_moves()[0])
            continue
        started = time.perf_counter()
        move = choose(who, state, random.Random(thinking.random()))
        times[who].append(time.perf_counter() - started)
        state.apply(move)
    return Outcome(rewards(state)[seat_of_agent], times)


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95 % interval for a rate of `score` successes out of `games`."""
    if games == 0:
        return 0.0, 1.0
    rate = score / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (
        1 + z * z / games)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("agent")
    parser.add_argument("opponent")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    args = parser.parse_args()
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        outcomes = list(pool.map(play, [args.game] * args.games, [args.agent] * args.games,
                                 [args.opponent] * args.games, [args.players] * args.games,
                                 range(args.first, args.first + args.games)))
    score = sum(o.score for o in outcomes)
    low, high = wilson(score, args.games)
    print(f"{args.game} ({args.players} players): {args.agent} vs {args.opponent}, "
          f"{args.games} games (from game {args.first}) in {time.perf_counter() - started:.0f} s")
    print(f"  {args.agent} scores {score / args.games:.1%} "
          f"(95 % interval {low:.1%}–{high:.1%}); a fair share is {1 / args.players:.0%}")
    for agent in dict.fromkeys((args.agent, args.opponent)):
        times = [t for o in outcomes for t in o.times.get(agent, [])]
        if times:
            print(f"  {agent}: think time median {statistics.median(times) * 1000:.0f} ms, "
                  f"worst {max(times) * 1000:.0f} ms over {len(times)} decisions")


if __name__ == "__main__":
    main()
