"""On-demand benchmark: the read a board makes of its game's log (`Database.turn_log`).

Run from the repository root: `python bench/bench_turn_log.py [--decisions N] [--reads R]`.
It stores one game of N decisions in a fresh SQLite file and prints the median time of R
reads of what a board shows, first with no take-back in the log, then after one, then after
a second: a decision counts on the board unless a take-back undid it, and that check must
stay cheap in long games. No assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

# Run as a script, so put the repository root (not bench/) on the import path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines import GAMES
from storage import Database, MoveKind, NewMove, Seat

NOW = datetime(2026, 11, 27, tzinfo=UTC)
PLAYERS = (10**17, 10**17 + 1)


async def measure(decisions: int, reads: int) -> None:
    """Store the game, then time the reads before and after each take-back."""
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(f"sqlite:///{folder}/bench.db")
        try:
            state = GAMES["qawale"].new_state(2).dump()
            game = await db.create_game(
                game="qawale", guild_id=1, channel_id=1, parent_id=None,
                seats=[Seat(seat, user, f"P{seat}") for seat, user in enumerate(PLAYERS)],
                options={}, rng_seed=1, state=state, now=NOW)
            log = [NewMove(i % 2, PLAYERS[i % 2], MoveKind.PLAYER, "x")
                   for i in range(decisions)]
            ply = await db.record_moves(game.id, 0, log, state, result=None, now=NOW)
            for label in ("no take-back", "one take-back", "two take-backs"):
                times = []
                for _ in range(reads):
                    start = time.perf_counter()
                    _shown, counted = await db.turn_log(game.id, 0)
                    times.append(time.perf_counter() - start)
                print(f"{label:>15}: median {statistics.median(times) * 1000:.3f} ms "
                      f"({counted} decisions counted)")
                back_to = str(ply * 3 // 4)
                ply = await db.record_moves(
                    game.id, ply, [NewMove(0, PLAYERS[0], MoveKind.TAKEBACK, back_to)], state,
                    result=None, now=NOW)
        finally:
            await db.close()


def main() -> None:
    """Read the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--reads", type=int, default=300)
    args = parser.parse_args()
    print(f"A game of {args.decisions} decisions, {args.reads} reads each:")
    asyncio.run(measure(args.decisions, args.reads))


if __name__ == "__main__":
    main()
