"""On-demand benchmark: start-up with 10,000 live games, and memory per live game.

Run from the repository root: `python bench/bench_startup.py [--games N] [--stale N]`.
It writes N running games of every game into a database file (seats, a real engine state
after a few random moves, a current board and a clock; `--stale` of them with a board behind
their position, as a crash leaves them), then measures what a start does: open the database,
resume (only the games that need it are loaded, and their boards are posted through a
publisher standing in for Discord), and the first move on a game nobody touched since. It
then loads sessions one by one and prints the memory each takes (tracemalloc), and what an
idle live game costs once the least recently used sessions are let go. No assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import sys
import tempfile
import time
import tracemalloc
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.loopback import LoopbackDiscord
from bot.games import GAME_UIS
from bot.painter import ThreadPainter
from bot.ratings import rate_game
from bot.session_manager import IDLE_SESSION_SECONDS, SESSION_CAPACITY, SessionManager
from engines import GAMES
from storage import Database

NOW = datetime.now(UTC)


def build(path: Path, games: int, stale: int, rng: random.Random) -> None:
    """Write `games` running games straight into a migrated database file."""
    ids = list(GAMES)
    game_rows, seat_rows = [], []
    for number in range(1, games + 1):
        game = ids[number % len(ids)]
        players = 3 if game == "kraut_ruben" else 2
        state = GAMES[game].new_state(players)
        for _ in range(rng.randrange(4)):
            state.apply(rng.choice(state.legal_moves()))
        while state.current_player is not None and state.current_player < 0:
            state.apply(rng.choice(state.legal_moves()))
        board_ply = None if number <= stale else 5
        game_rows.append((number, game, 1, 10**6 + number, 1, "{}", number,
                          json.dumps(state.dump()), 5, "running", NOW.isoformat(),
                          NOW.isoformat(), 10**12 + number, board_ply, "daily",
                          (NOW + timedelta(hours=20)).isoformat(), state.current_player))
        seat_rows.extend((number, seat, 1000 * number + seat + 1, f"Player {seat + 1}")
                         for seat in range(players))
    connection = sqlite3.connect(path)
    connection.executemany(
        """INSERT INTO games (id, game, guild_id, channel_id, parent_id, options, rng_seed,
                              state, ply, status, created_at, updated_at, board_message_id,
                              board_ply, clock, deadline, to_move)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", game_rows)
    connection.executemany(
        "INSERT INTO seats (game_id, seat, user_id, display_name) VALUES (?, ?, ?, ?)",
        seat_rows)
    connection.commit()
    connection.close()


async def migrate(path: Path) -> None:
    """Create the file with today's schema."""
    db = await Database.open(f"sqlite:///{path}")
    await db.close()


async def start_up(path: Path, games: int, rng: random.Random) -> None:
    """Time a start, then measure memory per session."""
    began = time.perf_counter()
    db = await Database.open(f"sqlite:///{path}", rater=rate_game)
    opened = time.perf_counter()
    now = [0.0]  # the sessions' clock: moved on by hand below, to let ten minutes pass
    sessions = SessionManager(db, GAME_UIS, LoopbackDiscord(0.0), painter=ThreadPainter(),
                              clock=lambda: now[0])
    resumed = await sessions.resume_all()
    ready = time.perf_counter()
    cold = await sessions.get(rng.randrange(resumed + 1, games + 1))
    assert cold is not None and cold.state.current_player is not None
    move = rng.choice(cold.state.legal_moves())
    await cold.play(cold.record.user_at(cold.state.current_player), str(move))
    first = time.perf_counter()
    print(f"start-up with {games} live games: database open {opened - began:.2f} s, "
          f"{resumed} game(s) resumed in {ready - opened:.2f} s: ready after "
          f"{ready - began:.2f} s; first move on an untouched game after {first - began:.2f} s")

    tracemalloc.start()
    sessions.capacity = games  # keep everything, to measure what a session costs
    before = tracemalloc.get_traced_memory()[0]
    loaded = 0
    for game_id in range(1, min(games, 2000) + 1):
        if game_id not in sessions:
            await sessions.get(game_id)
            loaded += 1
    per_session = (tracemalloc.get_traced_memory()[0] - before) / max(loaded, 1)
    sessions.capacity = SESSION_CAPACITY
    await sessions.get(1)  # the next load lets the least recently used go
    for game_id in range(2001, min(games, 4000) + 1):
        await sessions.get(game_id)
    held = tracemalloc.get_traced_memory()[0] - before
    kept = len(sessions)
    now[0] += IDLE_SESSION_SECONDS + 1  # ten minutes without a click...
    await sessions.get(games)  # ...then one game is played: the idle sessions go
    idle = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    print(f"memory per live game held in a session: {per_session / 1024:.1f} KiB; "
          f"{kept} sessions kept of {games} live games: "
          f"{held / games / 1024:.2f} KiB per live game on average; after "
          f"{IDLE_SESSION_SECONDS / 60:.0f} idle minutes {len(sessions)} kept: "
          f"{idle / games / 1024:.2f} KiB per live game")
    sessions.close()
    await db.close()


def main() -> None:
    """Build the database, then measure."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--stale", type=int, default=50)
    args = parser.parse_args()
    rng = random.Random(3)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "startup.db"
        asyncio.run(migrate(path))
        build(path, args.games, args.stale, rng)
        asyncio.run(start_up(path, args.games, rng))


if __name__ == "__main__":
    main()
