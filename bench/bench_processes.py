"""On-demand benchmark: moves per second with one bot process, then two, on one PostgreSQL.

Run from the repository root: `python bench/bench_processes.py [--games N] [--seconds S]`.
It starts a throwaway PostgreSQL server (the machine's binaries, as the tests do), then runs
the bot's services (sessions, storage, boards drawn in the process, a loopback Discord that
serialises each message) in 1 and then 2 processes, each playing random legal moves of its
own N games as fast as it can (a closed loop) for S seconds: the moves per second of all
processes together show how the bot grows with processes. No assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.loopback import LoopbackDiscord, new_game, one_move
from bot.games import GAME_UIS
from bot.painter import ThreadPainter
from bot.ratings import rate_game
from bot.session_manager import SessionManager
from storage import Database
from tests.postgres_server import fresh_database, postgres_server


async def play(url: str, index: int, games: int, seconds: float) -> tuple[int, list[float]]:
    """One process: its own games, moves back to back; moves done and their latencies."""
    rng = random.Random(index)
    db = await Database.open(url, rater=rate_game)
    sessions = SessionManager(db, GAME_UIS, LoopbackDiscord(0.0), painter=ThreadPainter())
    live = [await new_game(db, sessions, 100_000 * (index + 1) + n, rng) for n in range(games)]
    latencies: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        slot = rng.randrange(len(live))
        start = time.perf_counter()
        if await one_move(live[slot], rng):
            latencies.append((time.perf_counter() - start) * 1000)
        if live[slot].is_over:
            live[slot] = await new_game(db, sessions, rng.randrange(10**9), rng)
    sessions.close()
    await db.close()
    return len(latencies), latencies


def worker(url: str, index: int, games: int, seconds: float, results: Any) -> None:
    """A bot process."""
    results.put(asyncio.run(play(url, index, games, seconds)))


def run(url: str, processes: int, games: int, seconds: float) -> None:
    """Run `processes` bot processes at once and print their total throughput."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    workers = [context.Process(target=worker, args=(url, index, games, seconds, results))
               for index in range(processes)]
    for process in workers:
        process.start()
    outcomes = [results.get() for _ in workers]
    for process in workers:
        process.join()
    moves = sum(done for done, _ in outcomes)
    latencies = sorted(latency for _, times in outcomes for latency in times)
    p50 = statistics.median(latencies)
    p99 = statistics.quantiles(latencies, n=100)[98]
    print(f"{processes} process(es): {moves / seconds:6.1f} moves/s in all "
          f"(move to board p50 {p50:.1f} ms, p99 {p99:.1f} ms)", flush=True)


def main() -> None:
    """Start PostgreSQL, then measure one process and two."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50, help="live games per process")
    parser.add_argument("--seconds", type=float, default=20)
    args = parser.parse_args()
    with postgres_server() as admin:
        for processes in (1, 2):
            url = asyncio.run(fresh_database(admin, f"bench_{uuid.uuid4().hex}"))
            run(url, processes, args.games, args.seconds)


if __name__ == "__main__":
    main()
