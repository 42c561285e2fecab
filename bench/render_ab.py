"""On-demand benchmark: render CPU of two versions of the code, measured in lockstep.

Run from the repository root: `python bench/render_ab.py BASE [NEW] [--batches N]`, where
BASE and NEW are git revisions (NEW defaults to the working tree). No assertions.

This machine alternates between speeds within minutes (see the README's Speed section), so
two runs one after the other compare phases, not code. Here each version runs in its own
process on the same boards, batch by batch, taking turns: both see the same phase, and the
median of the per-batch ratios is what the code changed. The boards are those a busy bot
draws: 1,000 live games of every game, a random one moving each time (seeded), after 2,000
warm-up boards that fill the caches as a running render worker's are.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BATCH = 40
"""Boards per turn: long enough to measure, short enough to stay within one speed phase."""
WARM_UP = 2000
LIVE_GAMES = 1000


def load_boards(seed: int, count: int) -> list[tuple[Any, str, list[str]]]:
    """`count` boards as `bench/load.py` makes them: random moves of random live games."""
    # Imported here, not at the top: a worker imports the version under test (see `main`).
    from ai.base import is_chance, sample_chance
    from engines import GAMES

    rng = random.Random(seed)
    ids = list(GAMES)

    def settled(state: Any) -> Any:
        """`state` with its pending chance events drawn."""
        while not state.is_over() and is_chance(state):
            state.apply(sample_chance(state, rng))
        return state

    def fresh(index: int) -> tuple[Any, list[str]]:
        # Player counts as in `bench/load.py` (kept here: a base revision may predate a helper).
        game = ids[index % len(ids)]
        players = 3 if game == "kraut_ruben" else 2
        return settled(GAMES[game].new_state(players)), [f"Player {n + 1}" for n in range(players)]

    live = [fresh(index) for index in range(LIVE_GAMES)]
    boards: list[tuple[Any, str, list[str]]] = []
    while len(boards) < count:
        index = rng.randrange(LIVE_GAMES)
        state, names = live[index]
        if state.is_over():
            live[index] = fresh(index)
            continue
        move = rng.choice(state.legal_moves())
        state.apply(move)
        boards.append((settled(state).view(None), str(move), names))
    return boards


def serve(batches: int) -> None:
    """The worker side: draw the warm-up boards, then one batch per line read, printing its
    CPU ms per board."""
    from renderers import render

    boards = load_boards(5, WARM_UP + batches * BATCH)
    for view, last, names in boards[:WARM_UP]:
        render(view, last, names=names)
    print("ready", flush=True)
    for line in sys.stdin:
        start = WARM_UP + int(line) * BATCH
        began = time.process_time()
        for view, last, names in boards[start:start + BATCH]:
            render(view, last, names=names)
        print(f"{(time.process_time() - began) / BATCH * 1000:.4f}", flush=True)


def checkout(revision: str, folder: Path) -> Path:
    """A clean copy of the repository at `revision`, in `folder`."""
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(folder),
                    revision], check=True)
    return folder


def compare(roots: list[Path], batches: int) -> tuple[list[float], list[float]]:
    """Each root's CPU ms per board, batch by batch, the two taking turns."""
    workers = [subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--serve",
                                 str(batches)], cwd=root, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True) for root in roots]
    for worker in workers:
        assert worker.stdout is not None and worker.stdout.readline().strip() == "ready"
    times: tuple[list[float], list[float]] = ([], [])
    for batch in range(batches):
        for side in ((0, 1) if batch % 2 else (1, 0)):  # who goes first alternates
            worker = workers[side]
            assert worker.stdin is not None and worker.stdout is not None
            worker.stdin.write(f"{batch}\n")
            worker.stdin.flush()
            times[side].append(float(worker.stdout.readline()))
    for worker in workers:
        assert worker.stdin is not None
        worker.stdin.close()
        worker.wait()
    return times


def main() -> None:
    """Print both versions' median CPU per board and the median ratio, with its quartiles."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", nargs="?")
    parser.add_argument("new", nargs="?")
    parser.add_argument("--batches", type=int, default=40)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        sys.path.insert(0, str(Path.cwd()))  # the version under test, not this file's
        serve(args.serve)
        return
    if args.base is None:
        parser.error("name the base revision")
    with tempfile.TemporaryDirectory() as folder:
        roots = [checkout(args.base, Path(folder) / "base")]
        roots.append(checkout(args.new, Path(folder) / "new") if args.new else ROOT)
        try:
            base, new = compare(roots, args.batches)
        finally:
            for root in roots:
                if root != ROOT:
                    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                    str(root)], check=False)
    ratios = [n / b for b, n in zip(base, new, strict=True)]
    low, mid, high = statistics.quantiles(ratios, n=4)
    print(f"CPU per board, median of {args.batches} batches of {BATCH}: "
          f"{args.base} {statistics.median(base):.2f} ms, {args.new or 'working tree'} "
          f"{statistics.median(new):.2f} ms")
    print(f"new / base: {mid:.3f} (quartiles {low:.3f}–{high:.3f})")


if __name__ == "__main__":
    main()
