"""On-demand benchmark: random-play speed of every engine against python-chess, same run.

Run from the repository root: `python bench/bench_engines.py`. No assertions. Each engine
plays seeded random games (a random legal move each ply, chance outcomes drawn by
probability); python-chess does the same from its start position (`board.legal_moves`,
`board.push`, until `board.is_game_over()`). The measures are interleaved in `ROUNDS`
rounds of `SECONDS_PER_ROUND` each and the best round kept, so a busy machine slows every
contender alike. The ratio is the engine's plies per second over python-chess's: issue #16
asks for at least 1.0 everywhere. A second, short pass reports each game's peak memory
(tables an engine filled once during the speed pass, like Qawale's sowings, are not counted).
"""

from __future__ import annotations

import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import chess

from engines import CHANCE, GAMES

ROUNDS = 3
"""Interleaved rounds per contender; the fastest round counts."""

SECONDS_PER_ROUND = 1.2
"""Time budget of one measure (whole games only: the last one runs to its end)."""

MEMORY_PLAYOUTS = 5
"""Playouts per game traced for peak memory (tracemalloc slows play, so kept apart)."""


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


def chess_playout(seed: int) -> int:
    """One random python-chess game from the start position; returns its length in plies."""
    rng = random.Random(seed)
    board = chess.Board()
    plies = 0
    while not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
        plies += 1
    return plies


def measure(play: Callable[[int], int], first_seed: int) -> tuple[float, int, int]:
    """(plies per second, games, plies) of playouts from `first_seed` for SECONDS_PER_ROUND."""
    games = plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < SECONDS_PER_ROUND:
        plies += play(first_seed + games)
        games += 1
    return plies / (time.perf_counter() - start), games, plies


def main() -> None:
    """Print plies per second and the ratio to python-chess per game, then peak memory."""
    contenders: dict[str, Callable[[int], int]] = {"python-chess": chess_playout}
    for game_id, game in GAMES.items():
        contenders[game_id] = lambda seed, g=game_id, p=game.min_players: playout(g, p, seed)
    best: dict[str, float] = dict.fromkeys(contenders, 0.0)
    games: dict[str, int] = dict.fromkeys(contenders, 0)
    plies: dict[str, int] = dict.fromkeys(contenders, 0)
    for _ in range(ROUNDS):
        for name, play in contenders.items():
            # Each round plays new seeds: the best round is not one lucky set of games.
            rate, round_games, round_plies = measure(play, games[name])
            best[name] = max(best[name], rate)
            games[name] += round_games
            plies[name] += round_plies
    chess_rate = best["python-chess"]
    print(f"random play, best of {ROUNDS} interleaved rounds of {SECONDS_PER_ROUND} s "
          f"(python-chess {chess.__version__})")
    print(f"{'':12} {'plies/s':>9} {'vs chess':>9} {'µs/ply':>8} {'games':>6} "
          f"{'plies/game':>10}")
    for name in contenders:
        print(f"{name:12} {best[name]:9.0f} {best[name] / chess_rate:8.2f}× "
              f"{1e6 / best[name]:8.1f} {games[name]:6} {plies[name] / games[name]:10.1f}")
    print("peak memory of one playout (tracemalloc):")
    for game_id, game in GAMES.items():
        peak = 0
        for seed in range(MEMORY_PLAYOUTS):
            tracemalloc.start()
            playout(game_id, game.min_players, seed)
            peak = max(peak, tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        print(f"{game_id:12} {peak / 1024:8.0f} KiB")


if __name__ == "__main__":
    main()
