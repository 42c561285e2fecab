"""Le Grabuge search against a random keeper, entirely in the fast suit-blind game.

    python bench/grabuge_playouts.py [--worlds N] [--games G] [--first F] [--sees-cards]

A quick, low-variance bench for search ideas: a thousand games take minutes where
`bench/arena.py` needs an hour at medium's strength. Each game is dealt by the engine (game
g's chance seeded as in `bench/arena.py`) and then played in `ai.grabuge_sim.Sim`. The
searcher (seat g mod 2) plays every keep out in N sampled worlds, the opponent told to be
a random keeper, as medium's search does; reserve order follows the playout policy. The
opponent keeps and orders its reserve at random. `--sees-cards` lets the searcher see the
real card order (an upper bound for what hiding the cards costs).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.base import is_chance, sample_chance
from ai.grabuge_sim import Sim
from bench.arena import wilson
from engines import GAMES
from engines.grabuge import ACE, GrabugeState


def dealt(number: int) -> GrabugeState:
    """Game `number` dealt by the engine and played on to its first real choice."""
    chance = random.Random(f"chance:{number}")
    state = GAMES["grabuge"].new_state(2)
    assert isinstance(state, GrabugeState)
    while not state.is_over():
        if is_chance(state):
            state.apply(sample_chance(state, chance))
        elif len(state.legal_moves()) == 1:
            state.apply(state.legal_moves()[0])
        else:
            break
    return state


def resampled(sim: Sim, rng: random.Random) -> Sim:
    """A copy of `sim` with its unseen cards in a new order (what the searcher may know)."""
    world = sim.copy()
    rng.shuffle(world.deck)
    return world


def searched_keep(sim: Sim, worlds: int, sees_cards: bool, rng: random.Random) -> int:
    """The reserve column whose playouts score best over `worlds` sampled worlds."""
    seat = sim.to_move
    totals = [0.0] * len(sim.reserves[seat])
    for _ in range(worlds):
        base = sim.copy() if sees_cards else resampled(sim, rng)
        base.careless = [1.0, 1.0]
        base.careless[seat] = 0.0
        seed = rng.random()
        for column in range(len(totals)):
            playout = base.copy()
            playout.keep(seat, column)
            playout.run(random.Random(seed))
            totals[column] += playout.reward(seat)
    return max(range(len(totals)), key=lambda column: (totals[column], -column))


def play(number: int, worlds: int, sees_cards: bool) -> float:
    """Game `number`: the searcher's score (1 a win, 1/2 a draw, 0 a loss)."""
    rng = random.Random(number)
    sim = Sim.from_state(dealt(number), rng)
    searcher = number % 2
    while not sim.over:
        seat, drawn = sim.to_move, sim.drawn
        if drawn and (drawn == ACE or sim.tops[drawn - 1] > 0):
            sim.drawn = 0
            sim.place(drawn, seat)
        elif drawn and seat == searcher:
            sim.keep(seat, searched_keep(sim, worlds, sees_cards, random.Random(rng.random())))
        elif drawn:
            sim.keep(seat, rng.randrange(len(sim.reserves[seat])))
        elif sim.grabuge_playable(seat):
            sim.play_grabuge(seat)
        elif columns := sim.playable_columns(seat):
            sim.play_reserve(seat, sim.reserve_column(columns, rng))
        elif sim.hand:
            sim.hand -= 1
            sim.drawn = sim.deck.pop()
        elif not sim.drew:
            sim.drew = True
            if not sim.draw(seat):
                sim.end_turn()
        else:
            sim.end_turn()
    margin = sim.margin(searcher)
    return 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worlds", type=int, default=10)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--sees-cards", action="store_true")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    numbers = range(args.first, args.first + args.games)
    with ProcessPoolExecutor(args.workers) as pool:
        scores = list(pool.map(play, numbers, [args.worlds] * args.games,
                               [args.sees_cards] * args.games, chunksize=8))
    low, high = wilson(sum(scores), args.games)
    who = "sees the cards" if args.sees_cards else "samples the cards"
    print(f"grabuge, suit-blind: search ({args.worlds} worlds, {who}) vs a random keeper, "
          f"{args.games} games from {args.first} in {time.perf_counter() - started:.0f} s")
    print(f"  search scores {sum(scores) / args.games:.1%} (95 % interval {low:.1%}–{high:.1%})")


if __name__ == "__main__":
    main()
