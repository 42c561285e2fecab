"""On-demand benchmark: random playouts per game, and Qawale's legal-move listing.

Run from the repository root: `python bench/bench_engines.py`. No assertions.
"""

from __future__ import annotations

import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines import CHANCE, GAMES

PLAYOUTS = 20


def playout(game_id: str, players: int, seed: int) -> int:
    """Play one random game to the end; returns its length in plies."""
    rng = random.Random(seed)
    state = GAMES[game_id].new_state(players)
    plies = 0
    while not state.is_over():
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            move = rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            move = rng.choice(state.legal_moves())
        state.apply(move)
        plies += 1
    return plies


def main() -> None:
    """Print mean playout time, mean length, per-ply cost and peak memory per game."""
    for game_id, game in GAMES.items():
        players = game.min_players
        tracemalloc.start()
        start = time.perf_counter()
        plies = sum(playout(game_id, players, seed) for seed in range(PLAYOUTS))
        elapsed = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"{game_id:12} {players}p  {elapsed / PLAYOUTS * 1000:8.1f} ms/game  "
              f"{plies / PLAYOUTS:7.1f} plies  {elapsed / plies * 1e6:8.1f} µs/ply  "
              f"peak {peak / 1024:8.0f} KiB")


if __name__ == "__main__":
    main()
