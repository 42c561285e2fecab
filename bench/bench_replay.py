"""On-demand benchmark: the replay GIF of a long seeded random game of each game.

Run from the repository root: `python bench/bench_replay.py [--seeds N] [--games g1,g2]`.
For each game it plays N seeded random games (the most players the game takes; Granat's
players prefer slow moves, see `SLOW_MOVES`), keeps the one with the most decisions, and
prints its plies, frames, GIF size, the seconds to render and encode it and the peak memory
of the process that made it (a fresh process per game, as a render worker would). No
assertions (tests/e2e/test_replays.py checks the 8 MB bound).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

# Run as a script, so put the repository root (not bench/) on the import path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.replay import decision_positions, replay_gif
from engines import GAMES
from storage import GameRecord, MoveRecord
from tests.replay_games import random_game


def main() -> None:
    """Print plies, frames, megabytes and seconds of the longest game's replay per game."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=20, help="random games tried per game")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game ids")
    parser.add_argument("--slow", type=float, default=0.5,
                        help="how often a random player picks a move that makes the game last")
    args = parser.parse_args()
    for game in args.games.split(","):
        games = [random_game(game, seed, args.slow) for seed in range(args.seeds)]
        record, moves = max(games, key=lambda g: len(decision_positions(*g)))
        frames = len(decision_positions(record, moves))
        with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as fresh:
            size, seconds, peak, start = fresh.submit(made, record, moves).result()
        print(f"{game:<12} {len(record.seats)} players  {len(moves):4} plies  {frames:4} frames  "
              f"{size / 1e6:5.2f} MB  {seconds:5.1f} s  peak {peak:4.0f} MiB "
              f"(from {start:3.0f})", flush=True)


def made(record: GameRecord, moves: list[MoveRecord]) -> tuple[int, float, float, float]:
    """In a fresh process: the GIF's bytes, the seconds it took, the process's peak memory
    and its memory before, in MiB."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = time.perf_counter()
    gif = replay_gif(record, moves)
    seconds = time.perf_counter() - start
    return len(gif), seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, before


if __name__ == "__main__":
    main()
