"""Le Grabuge search against a random keeper, entirely in the fast suit-blind game.

    python bench/grabuge_playouts.py [--worlds N | --playouts P] [--games G] [--first F]
                                     [--turns T] [--sees-cards | --sees-next K]

A quick, low-variance bench for search ideas: a thousand games take minutes where
`bench/arena.py` needs an hour at medium's strength. Each game is dealt by the engine (game
g's chance seeded as in `bench/arena.py`) and then played in `ai.grabuge_sim.Sim`. The
searcher (seat g mod 2) plays each of its choices (where to keep a card, which reserve card
goes first when several can) out in N sampled worlds, the opponent told to be a random
keeper, as medium's search does. The opponent keeps and orders its reserve at random.
`--playouts P` shares P playouts a decision out over the distinct choices (alike columns are
one choice) instead of N worlds. `--turns T` cuts its playouts after T turns and scores them
by their margin, as medium's and hard's search does (by default they run to the end).
`--sees-cards` lets the searcher see the real card order (what hiding the cards costs);
`--sees-next K` only the next K cards to be turned, by either player (how far ahead it
pays).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.base import is_chance, sample_chance
from ai.grabuge_sim import NO_CUT, Sim, alike_choices
from bench.arena import wilson
from engines import GAMES
from engines.grabuge import GrabugeState


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


ALL_CARDS = 8 * 52
"""More cards than any deck holds: seeing this many ahead is seeing them all."""


class Searcher(Sim):
    """A game in which one seat searches its choices; its playouts are plain `Sim`s."""

    __slots__ = ("playout_turns", "playouts", "search_rng", "searcher", "sees_next", "worlds")

    def keep_column(self, rng: random.Random) -> int:
        """The searcher's keep: the column whose playouts score best."""
        if self.to_move != self.searcher:
            return super().keep_column(rng)
        return self._searched(range(len(self.reserves[self.to_move])), Sim.keep)

    def reserve_column(self, columns: list[int], rng: random.Random) -> int:
        """The searcher's reserve card to play first, when several can go, searched too."""
        if self.to_move != self.searcher or len(columns) == 1:
            return super().reserve_column(columns, rng)
        return self._searched(columns, Sim.play_reserve)

    def _searched(self, choices: range | list[int], apply: Callable[[Sim, int, int], None]) -> int:
        """The column whose playouts score best over the sampled worlds (one of each group of
        alike columns; with a playout budget, the worlds are that budget shared out)."""
        seat, rng = self.to_move, self.search_rng
        groups = alike_choices(self.reserves[seat], choices)
        columns = [choices[group[0]] for group in groups]
        if len(columns) == 1:
            return columns[0]
        worlds = self.playouts // len(columns) if self.playouts else self.worlds
        totals = [0.0] * len(columns)
        for _ in range(worlds):
            base = self.copy()  # a plain Sim: the playouts do not search
            _shuffle_unseen(base.deck, self.sees_next, rng)
            base.careless = [1.0, 1.0]
            base.careless[seat] = 0.0
            base.turns_left = self.playout_turns
            rewards = base.rewards_after(seat, apply, columns, rng.random())
            totals = [total + reward for total, reward in zip(totals, rewards, strict=True)]
        return columns[max(range(len(columns)), key=lambda index: (totals[index], -index))]


def _shuffle_unseen(deck: list[int], sees_next: int, rng: random.Random) -> None:
    """Shuffle all but the `sees_next` cards turned next (the deck's last ones) in place."""
    hidden = len(deck) - sees_next
    if hidden > 1:
        unseen = deck[:hidden]
        rng.shuffle(unseen)
        deck[:hidden] = unseen


def play(number: int, worlds: int, sees_next: int, playout_turns: int = NO_CUT,
         playouts: int = 0) -> float:
    """Game `number`: the searcher's score (1 a win, 1/2 a draw, 0 a loss)."""
    rng = random.Random(number)
    game = Sim.from_state(dealt(number), rng)
    sim = Searcher.__new__(Searcher)
    for name in Sim.__slots__:
        setattr(sim, name, getattr(game, name))
    sim.searcher, sim.worlds, sim.sees_next = number % 2, worlds, sees_next
    sim.playout_turns, sim.playouts = playout_turns, playouts
    sim.search_rng = random.Random(f"search:{number}")
    sim.careless = [1.0, 1.0]  # the opponent keeps at random
    sim.careless[sim.searcher] = 0.0
    sim.run(rng)
    margin = sim.margin(sim.searcher)
    return 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worlds", type=int, default=10)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--turns", type=int, default=NO_CUT, metavar="T",
                        help="cut the playouts after T turns (default: play them out)")
    sight = parser.add_mutually_exclusive_group()
    sight.add_argument("--sees-cards", action="store_true", help="the whole card order")
    sight.add_argument("--sees-next", type=int, default=0, metavar="K",
                       help="the next K cards turned")
    parser.add_argument("--playouts", type=int, default=0, metavar="P",
                        help="share P playouts a decision out over the distinct choices "
                             "instead of a fixed number of worlds")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    numbers = range(args.first, args.first + args.games)
    sees_next = ALL_CARDS if args.sees_cards else args.sees_next
    with ProcessPoolExecutor(args.workers) as pool:
        scores = list(pool.map(play, numbers, [args.worlds] * args.games,
                               [sees_next] * args.games, [args.turns] * args.games,
                               [args.playouts] * args.games, chunksize=8))
    low, high = wilson(sum(scores), args.games)
    who = ("sees the cards" if args.sees_cards else
           f"sees the next {sees_next} cards" if sees_next else "samples the cards")
    cut = "" if args.turns == NO_CUT else f", playouts cut after {args.turns} turns"
    budget = f"{args.playouts} playouts" if args.playouts else f"{args.worlds} worlds"
    print(f"grabuge, suit-blind: search ({budget}{cut}, {who}) vs a random keeper, "
          f"{args.games} games from {args.first} in {time.perf_counter() - started:.0f} s")
    print(f"  search scores {sum(scores) / args.games:.1%} (95 % interval {low:.1%}–{high:.1%})")


if __name__ == "__main__":
    main()
