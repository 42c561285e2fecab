"""Fit the value of a cut Le Grabuge playout: a careful seat's chance to win from there.

    python bench/grabuge_value.py [--deals N] [--first F] [--playouts P] [--sample S]

Medium's and hard's playouts stop after a few turns (`PLAYOUT_TURNS` in `ai/grabuge.py`) and
are scored by `Sim.cut_value`, a logistic regression on `Sim.cut_features`. This script makes
its weights: from each of N deals (dealt as in `bench/arena.py`) it plays P whole playouts in
the fast game, one seat keeping with care (the playout policy) and the other with care too or
anywhere, records the careful seat's features at the end of a share S of the turns, and fits
by Newton's method the chance that seat wins (a draw counts one half). It prints both weight
sets for `CUT_WEIGHTS_CAREFUL` and `CUT_WEIGHTS_CARELESS`, and the log loss on the next N
deals of the fit against the plain margin logistic.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.grabuge_sim import CUT_FEATURES, Sim
from bench.grabuge_playouts import dealt

Row = tuple[list[float], float]


class _Recorder(Sim):
    """A whole playout that records the careful seat's features at the end of its turns."""

    __slots__ = ("recorded", "sample", "sample_rng", "watched")

    def end_turn(self) -> None:
        if self.sample_rng.random() < self.sample:
            self.recorded.extend(self.cut_features(seat) for seat in self.watched)
        super().end_turn()


def _rows(number: int, playouts: int, careless: bool, sample: float) -> list[Row]:
    """Rows (features, result) from `playouts` playouts of deal `number`."""
    state = dealt(number)
    rows: list[Row] = []
    for index in range(playouts):
        rng = random.Random(f"value:{number}:{index}")
        start = Sim.from_state(state, rng)
        sim = _Recorder.__new__(_Recorder)
        for name in Sim.__slots__:
            setattr(sim, name, getattr(start, name))
        careful_seat = index % 2
        sim.careless = [0.0, 0.0]
        if careless:
            sim.careless[1 - careful_seat] = 1.0
        # Both seats of a careful pair are watched: each is the careful seat of its own view.
        sim.watched = (careful_seat,) if careless else (0, 1)
        sim.recorded, sim.sample, sim.sample_rng = [], sample, random.Random(index)
        sim.run(rng)
        margins = {seat: sim.margin(seat) for seat in (0, 1)}
        for position, features in enumerate(sim.recorded):
            seat = sim.watched[position % len(sim.watched)]
            margin = margins[seat]
            rows.append((features, 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0))
    return rows


def _logistic(logit: float) -> float:
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, logit))))


def fit(rows: list[Row], iterations: int = 10, ridge: float = 1e-3) -> list[float]:
    """Logistic-regression weights by Newton's method (a little ridge keeps it solvable)."""
    size = len(rows[0][0])
    weights = [0.0] * size
    for _ in range(iterations):
        gradient = [0.0] * size
        hessian = [[0.0] * size for _ in range(size)]
        for features, result in rows:
            chance = _logistic(sum(w * f for w, f in zip(weights, features, strict=True)))
            error, curvature = result - chance, chance * (1 - chance)
            for i, fi in enumerate(features):
                if fi:
                    gradient[i] += error * fi
                    scaled, row = curvature * fi, hessian[i]
                    for j in range(i + 1):
                        row[j] += scaled * features[j]
        for i in range(size):
            hessian[i][i] += ridge
            for j in range(i):
                hessian[j][i] = hessian[i][j]
        step = _solve(hessian, gradient)
        weights = [w + s for w, s in zip(weights, step, strict=True)]
    return weights


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    size = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for below in range(column + 1, size):
            factor = rows[below][column] / rows[column][column]
            for k in range(column, size + 1):
                rows[below][k] -= factor * rows[column][k]
    solution = [0.0] * size
    for row in reversed(range(size)):
        rest = sum(rows[row][k] * solution[k] for k in range(row + 1, size))
        solution[row] = (rows[row][size] - rest) / rows[row][row]
    return solution


def log_loss(rows: list[Row], chance_of: list[float] | None) -> float:
    """Mean log loss of the fit (`chance_of` weights) or, without weights, of the margin."""
    total = 0.0
    for features, result in rows:
        logit = features[1] if chance_of is None else sum(
            w * f for w, f in zip(chance_of, features, strict=True))
        chance = min(1 - 1e-9, max(1e-9, _logistic(logit)))
        total -= result * math.log(chance) + (1 - result) * math.log(1 - chance)
    return total / len(rows)


def _gather(pool: ProcessPoolExecutor, numbers: range, playouts: int, careless: bool,
            sample: float) -> list[Row]:
    count = len(numbers)
    chunks = pool.map(_rows, numbers, [playouts] * count, [careless] * count, [sample] * count,
                      chunksize=10)
    return [row for chunk in chunks for row in chunk]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1500)
    parser.add_argument("--first", type=int, default=10_000,
                        help="the first deal (far from the arena's games)")
    parser.add_argument("--playouts", type=int, default=30)
    parser.add_argument("--sample", type=float, default=0.15,
                        help="the share of turn ends recorded")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    fitted = range(args.first, args.first + args.deals)
    held_out = range(args.first + args.deals, args.first + 2 * args.deals)
    with ProcessPoolExecutor(args.workers) as pool:
        for careless, name in ((False, "CUT_WEIGHTS_CAREFUL"), (True, "CUT_WEIGHTS_CARELESS")):
            rows = _gather(pool, fitted, args.playouts, careless, args.sample)
            weights = fit(rows)
            test = _gather(pool, held_out, args.playouts, careless, args.sample)
            print(f"# {len(rows)} rows; held-out log loss {log_loss(test, weights):.4f}, "
                  f"margin alone {log_loss(test, None):.4f}")
            print(f"{name} = (")
            for feature, weight in zip(CUT_FEATURES, weights, strict=True):
                print(f"    {weight:+.4f},  # {feature}")
            print(")")
    print(f"# {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
