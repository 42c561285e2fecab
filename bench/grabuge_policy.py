"""Le Grabuge's playout policy alone against a random keeper; `--tune` tunes its weights.

    python bench/grabuge_policy.py [--games N] [--first F] [--tune ROUNDS] [--seed S]

The policy (`Sim.keep_column` with `KEEP_COSTS`, `Sim.reserve_column` with `RESERVE_ORDER`)
is what easy plays and what medium and hard assume of themselves in every playout, so a
better policy makes a better search. Game g is dealt by the engine (as in
`bench/grabuge_playouts.py`) and played in the fast game, the policy in seat g mod 2, the
other seat keeping and ordering its reserve at random; thousands of games take seconds.

`--tune ROUNDS` is a coordinate search: each round nudges one weight up or down and keeps
the nudge when the score over the N games improves (steps grow after a success and shrink
after a failure). It then scores the start and the tuned weights on the next N games, which
the tuning never saw, and prints the tuned weights to paste into `ai/grabuge_sim.py`.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ai.grabuge_sim as policy
from ai.grabuge_sim import KEEP_COSTS, RESERVE_ORDER, KeepCosts, ReserveOrder, Sim
from bench.arena import wilson
from bench.grabuge_playouts import dealt

Weights = tuple[KeepCosts, ReserveOrder]
CHUNKS = 16


def score_games(weights: Weights, numbers: range) -> float:
    """The policy's total score over games `numbers` (1 a win, 1/2 a draw)."""
    policy.KEEP_COSTS, policy.RESERVE_ORDER = weights
    total = 0.0
    for number in numbers:
        game = Sim.from_state(dealt(number), random.Random(number))
        seat = number % 2
        game.careless = [1.0, 1.0]  # the opponent keeps anywhere
        game.careless[seat] = 0.0
        game.run(random.Random(f"play:{number}"))
        margin = game.margin(seat)
        total += 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
    return total


def score(pool: ProcessPoolExecutor, weights: Weights, numbers: range) -> float:
    """The policy's mean score over games `numbers`, spread over the pool."""
    size = -(-len(numbers) // CHUNKS)
    parts = [numbers[start:start + size] for start in range(0, len(numbers), size)]
    return sum(pool.map(score_games, [weights] * len(parts), parts)) / len(numbers)


def nudged(weights: Weights, field: str, change: float) -> Weights:
    """`weights` with one field (`keep.NAME` or `order.NAME`) moved by `change`."""
    keep, order = weights
    part, name = field.split(".")
    if part == "keep":
        return dataclasses.replace(keep, **{name: getattr(keep, name) + change}), order
    return keep, dataclasses.replace(order, **{name: getattr(order, name) + change})


def tune(pool: ProcessPoolExecutor, start: Weights, numbers: range, rounds: int,
         rng: random.Random) -> tuple[Weights, float]:
    """Coordinate search from `start` for the best score over `numbers`."""
    fields = ([f"keep.{field.name}" for field in dataclasses.fields(KeepCosts)]
              + [f"order.{field.name}" for field in dataclasses.fields(ReserveOrder)])
    steps = dict.fromkeys(fields, 0.5)
    best, best_score = start, score(pool, start, numbers)
    print(f"start: {best_score:.4f}", flush=True)
    for round_number in range(rounds):
        field = rng.choice(fields)
        for sign in (1, -1):
            candidate = nudged(best, field, sign * steps[field])
            candidate_score = score(pool, candidate, numbers)
            if candidate_score > best_score:
                best, best_score = candidate, candidate_score
                steps[field] *= 1.5
                print(f"round {round_number}: {best_score:.4f} ({field} "
                      f"{'+' if sign > 0 else '-'}{steps[field] / 1.5:.3f})", flush=True)
                break
        else:
            steps[field] *= 0.7
    return best, best_score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16000)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--tune", type=int, default=0, metavar="ROUNDS")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    games = range(args.first, args.first + args.games)
    current: Weights = (KEEP_COSTS, RESERVE_ORDER)
    with ProcessPoolExecutor(args.workers) as pool:
        if not args.tune:
            mean = score(pool, current, games)
            low, high = wilson(mean * args.games, args.games)
            print(f"grabuge playout policy vs a random keeper, {args.games} games from "
                  f"{args.first}: {mean:.1%} (95 % interval {low:.1%}–{high:.1%}), "
                  f"{time.perf_counter() - started:.0f} s")
            return
        tuned, _ = tune(pool, current, games, args.tune, random.Random(args.seed))
        unseen = range(games.stop, games.stop + args.games)
        print(f"on {args.games} games the tuning never saw: start "
              f"{score(pool, current, unseen):.4f}, tuned {score(pool, tuned, unseen):.4f}")
        print(tuned[0])
        print(tuned[1])


if __name__ == "__main__":
    main()
