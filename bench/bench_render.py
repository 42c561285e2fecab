"""On-demand benchmark: CPU time and PNG size of one board render, per game, start and mid-game.

Run from the repository root: `python bench/bench_render.py [runs]`. No assertions.
Positions are reached by seeded random play, so every run draws the same boards. Times are
CPU time (`time.process_time`), which other work on a shared machine disturbs less than
wall-clock time; the best time shows what is left once that disturbance is set aside.
The first render of each game (untimed) also chooses the game's palette.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

# Run as a script, so put the repository root (not bench/) on the import path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines import GAMES
from renderers import render
from renderers.encoding import seeded_position

RUNS = 60
"""Renders timed per position (after one untimed warm-up)."""
NAMES = ("Zoé Quint", "yann", "Ines Ortega", "Ulf", "Wanda Vex")
CASES = (("qawale", 2, 14), ("graps", 2, 24), ("kraut_ruben", 3, 50), ("kraut_ruben", 5, 120),
         ("grabuge", 2, 80), ("granat", 2, 20))
"""Each game, its player count and the random moves to its mid-game position (Kraut & Rüben
twice: its tallest board has five gardens)."""
SEED = 7


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def measure(view: Any, last: str | None, players: int, runs: int) -> tuple[list[float], int]:
    """CPU seconds of each of `runs` renders, and the PNG's size in bytes."""
    names = NAMES[:players]
    png = render(view, last, names=names)  # fonts, caches and Pillow plugins load here
    times = []
    for _ in range(runs):
        start = time.process_time()
        render(view, last, names=names)
        times.append(time.process_time() - start)
    return times, len(png)


def main() -> None:
    """Print median and p95 CPU ms and the PNG size of every game's start and mid-game."""
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else RUNS
    print(f"{'game':<16} {'position':<9} {'median ms':>9} {'p95 ms':>7} {'best ms':>7} "
          f"{'PNG KiB':>8}")
    for game, players, steps in CASES:
        for label, moves in (("start", 0), ("mid-game", steps)):
            state, last = seeded_position(GAMES[game], players, moves, SEED + moves)
            view = state.view(None)
            times, size = measure(view, last, players, runs)
            case = f"{game} ({players}p)"
            print(f"{case:<16} {label:<9} {statistics.median(times) * 1000:9.1f} "
                  f"{percentile(times, 0.95) * 1000:7.1f} {min(times) * 1000:7.1f} "
                  f"{size / 1024:8.1f}")


if __name__ == "__main__":
    main()
