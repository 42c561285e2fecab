"""How much Le Grabuge's search loses to noise: its choices against a far longer search's.

    python bench/grabuge_regret.py [--games 16] [--first 400] [--truth 4000] [--resamples 10]

Plays games in the fast suit-blind game (the search at 40 worlds against a random keeper,
as in `bench/grabuge_playouts.py`) and keeps every choice the searcher met. Each choice's
columns are then played out in `--truth` sampled worlds, with common random numbers. The
second half of those worlds gives each column's value: the share of games it wins (a draw
counts half). The first half is the pool a search budget draws its worlds from, through
medium's own `ai.grabuge.race`. For each budget the bench prints the value lost per game:
over a game's choices, the best column's value minus the chosen one's, summed, averaged
over resamples of the pool. A search with perfect estimates would lose nothing here; what
it cannot see (the card order) is not counted, only what noise costs on top of it.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.grabuge import BUDGETS, SearchBudget, race
from ai.grabuge_sim import Sim
from bench.grabuge_playouts import Searcher, dealt


class Choice(NamedTuple):
    """One choice the searcher met: the position, its columns, and keep or reserve play."""

    game: int
    sim: Sim
    columns: list[int]
    keeps: bool


class Recorder(Searcher):
    """The searcher of `bench/grabuge_playouts.py`, noting each of its choices."""

    __slots__ = ("choices", "number")

    def _searched(self, columns: range | list[int],
                  apply: Callable[[Sim, int, int], None]) -> int:
        self.choices.append(Choice(self.number, self.copy(), list(columns), apply is Sim.keep))
        return super()._searched(columns, apply)


def choices_of(number: int) -> list[Choice]:
    """Game `number`, searcher (40 worlds) against a random keeper: the searcher's choices."""
    rng = random.Random(number)
    game = Sim.from_state(dealt(number), rng)
    sim = Recorder.__new__(Recorder)
    for name in Sim.__slots__:
        setattr(sim, name, getattr(game, name))
    sim.searcher, sim.worlds, sim.sees_cards = number % 2, 40, False
    sim.search_rng = random.Random(f"search:{number}")
    sim.careless = [1.0, 1.0]
    sim.careless[sim.searcher] = 0.0
    sim.choices, sim.number = [], number
    sim.run(rng)
    return sim.choices


def worlds_of(choice: Choice, count: int, number: int) -> list[list[float]]:
    """Each column's reward in `count` sampled worlds (common random numbers)."""
    rng = random.Random(f"worlds:{number}")
    seat = choice.sim.to_move
    apply = Sim.keep if choice.keeps else Sim.play_reserve
    rewards = []
    for _ in range(count):
        world = choice.sim.copy()
        rng.shuffle(world.deck)
        world.careless = [1.0, 1.0]
        world.careless[seat] = 0.0
        rewards.append(world.rewards_after(seat, apply, choice.columns, rng.random()))
    return rewards


class Pool:
    """Worlds already played out, handed to `race` one by one as if it played them."""

    def __init__(self, worlds: list[list[float]], columns: list[int]) -> None:
        self.worlds, self.columns, self.played = worlds, columns, 0

    def __call__(self, active: list[int]) -> list[float]:
        world = self.worlds[self.played]
        self.played += 1
        return [world[self.columns.index(column)] for column in active]


def value_lost(choices: list[Choice], rewards: list[list[list[float]]], budget: SearchBudget,
               resamples: int) -> tuple[float, float]:
    """Value lost per game by `budget`'s search, and the worlds it played per choice."""
    rng = random.Random("resample")
    lost, worlds_played = 0.0, []
    for choice, per_world in zip(choices, rewards, strict=True):
        half = len(per_world) // 2
        pool, held_out = per_world[:half], per_world[half:]
        # A column's value: how often it wins (the nudge by margin only breaks ties).
        value = [statistics.fmean(round(world[index] * 2) / 2 for world in held_out)
                 for index in range(len(choice.columns))]
        for _ in range(resamples):
            drawn = Pool(rng.sample(pool, len(pool)), choice.columns)
            pick = race(drawn, choice.columns, budget)
            worlds_played.append(drawn.played)
            lost += max(value) - value[choice.columns.index(pick)]
    games = len({choice.game for choice in choices})
    return lost / resamples / games, statistics.fmean(worlds_played)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--first", type=int, default=400)
    parser.add_argument("--truth", type=int, default=4000)
    parser.add_argument("--resamples", type=int, default=10)
    args = parser.parse_args()
    started = time.perf_counter()
    with ProcessPoolExecutor(2) as pool:
        numbers = range(args.first, args.first + args.games)
        choices = [choice for found in pool.map(choices_of, numbers) for choice in found]
        rewards = list(pool.map(worlds_of, choices, [args.truth] * len(choices),
                                range(len(choices)), chunksize=4))
    print(f"grabuge: {len(choices)} choices in {args.games} games from {args.first}, each "
          f"column played out in {args.truth} worlds ({time.perf_counter() - started:.0f} s)")
    budgets = {f"flat {count}": SearchBudget(count, count, count, math.inf)
               for count in (40, 200, 1000)}
    budgets["medium (race)"] = BUDGETS["medium"]
    for name, budget in budgets.items():
        if budget.most > args.truth // 2:
            print(f"  {name:>14}: needs --truth {2 * budget.most} or more")
            continue
        lost, played = value_lost(choices, rewards, budget, args.resamples)
        print(f"  {name:>14}: loses {lost:.3f} of a game per game to noise, "
              f"{played:.0f} worlds per choice")


if __name__ == "__main__":
    main()
