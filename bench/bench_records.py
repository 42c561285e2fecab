"""On-demand benchmark: records (`/leaderboard` all time and monthly, a page click, `/stats`
with and without a game's rating chart, `/history`, `/replay` suggestions, `/mygames`,
`/live`, `/serverstats`, `/about`) at 100,000 finished games.

Run from the repository root:
`python bench/bench_records.py [--games N] [--running N] [--calls N] [--servers N]`.
It builds a database file of N finished games (5,000 members on 50 servers, or on as many as
`--servers` says; 2 to 4 players, a real engine state in each row) and of games in progress
(10,000 by default), times the
one-off catch-up that rates a history made before the ratings table, then calls each record
command through `RecordsService` as the bot does (embeds included) and prints p50/p99 per
command, with the longest the event loop was blocked meanwhile (a 1 ms ticker measures its
lateness). Rating charts are drawn in a render worker process, as the bot draws them. No
assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.loop_watch import ticker
from bot.__main__ import settle
from bot.games import GAME_UIS
from bot.painter import ProcessPainter
from bot.ratings import rate_game
from bot.records import RecordsService
from engines import GAMES
from storage import Database

MEMBERS = 5_000
SERVERS = 50
"""Servers by default; `--servers 1` puts every game and member on one server."""
MEMBER_BLOCK = 100_000
"""Member ids of server g are g * MEMBER_BLOCK + k: their server is their id // MEMBER_BLOCK."""
START = datetime(2025, 1, 1, tzinfo=UTC)
MONTH = "2025-06"
"""The month the monthly leaderboards show: one in the middle of the generated history (a
game finishes every 5 minutes, so 100,000 games span 11 months)."""




def homes(server: int) -> list[int]:
    """The channels a member of `server` sees (`/live`): the games are in the last one."""
    return [10**6 + n for n in range(29)] + [server]


class Member:
    """The little of a discord user the records read."""

    def __init__(self, user_id: int) -> None:
        self.id = user_id
        self.display_name = f"Member {user_id}"


def build(path: Path, games: int, running: int, servers: int, rng: random.Random) -> None:
    """Write `games` finished games, then `running` games in progress, straight into a
    migrated database file."""
    states = {game: json.dumps(GAMES[game].new_state(GAMES[game].min_players).dump())
              for game in GAMES}
    ids = list(GAMES)
    connection = sqlite3.connect(path)
    game_rows, seat_rows = [], []
    for number in range(1, games + running + 1):
        game = ids[number % len(ids)]
        engine = GAMES[game]
        size = rng.randint(engine.min_players, min(engine.max_players, 4))
        # Every server plays every game (a guild taken from `number % servers` alone would
        # pair each server with one game, since both follow `number`).
        guild = 1 + (number // len(ids)) % servers
        # Members mostly play on their own server: ids grouped by server.
        pool = range(guild * MEMBER_BLOCK, guild * MEMBER_BLOCK + MEMBERS // servers)
        people = rng.sample(pool, size)
        at = (START + timedelta(minutes=5 * number)).isoformat()
        if number <= games:
            result = json.dumps({"winners": [rng.randrange(size)], "reason": "end"})
            game_rows.append((number, game, guild, number, guild, "{}", number, states[game], 40,
                              "finished", result, at, at, at, None, None))
        else:  # in progress: someone to move, with a Daily clock
            deadline = (START + timedelta(minutes=5 * number, days=1)).isoformat()
            game_rows.append((number, game, guild, number, guild, "{}", number, states[game], 40,
                              "running", None, at, at, None, rng.randrange(size), deadline))
        seat_rows.extend((number, seat, user, f"Member {user}")
                         for seat, user in enumerate(people))
    connection.executemany(
        """INSERT INTO games (id, game, guild_id, channel_id, parent_id, options, rng_seed,
                              state, ply, status, result, created_at, updated_at, finished_at,
                              to_move, deadline)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", game_rows)
    connection.executemany(
        "INSERT INTO seats (game_id, seat, user_id, display_name) VALUES (?, ?, ?, ?)",
        seat_rows)
    connection.commit()
    connection.close()


async def migrate(path: Path) -> None:
    """Create the file with today's schema."""
    db = await Database.open(f"sqlite:///{path}")
    await db.close()


async def timed(calls: int, call: Callable[[int], Awaitable[Any]]) -> list[float]:
    """Milliseconds of each of `calls` calls."""
    times = []
    for index in range(calls):
        start = time.perf_counter()
        await call(index)
        times.append((time.perf_counter() - start) * 1000)
    return times


async def measure(path: Path, calls: int, servers: int, rng: random.Random) -> None:
    """Catch up the ratings, then time each record command."""
    settle()  # as `python -m bot` does before it connects
    db = await Database.open(f"sqlite:///{path}", rater=rate_game)
    painter = ProcessPainter(1)
    records = RecordsService(db, GAME_UIS, painter)
    start = time.perf_counter()
    rated = await records.catch_up()
    print(f"catch-up of a history made before the ratings table: {rated} games in "
          f"{time.perf_counter() - start:.1f} s (once, after the upgrade, in batches)")
    members = [Member(rng.randrange(1, servers + 1) * MEMBER_BLOCK
                      + rng.randrange(MEMBERS // servers)) for _ in range(calls)]

    def server_of(i: int) -> int:
        return 1 + i % servers

    commands: dict[str, Callable[[int], Awaitable[Any]]] = {
        "/leaderboard (server)": lambda i: records.leaderboard(
            "kraut_ruben", "server", server_of(i), 0),
        "/leaderboard (all servers)": lambda i: records.leaderboard(
            "kraut_ruben", "global", None, 0),
        "leaderboard page click": lambda i: records.leaderboard(
            "qawale", "global", None, 1 + i % 40),
        "/leaderboard month (server)": lambda i: records.leaderboard(
            "kraut_ruben", "server", server_of(i), 0, MONTH),
        "/leaderboard month (all)": lambda i: records.leaderboard(
            "kraut_ruben", "global", None, 0, MONTH),
        "month page click": lambda i: records.leaderboard(
            "qawale", "global", None, 1 + i % 40, MONTH),
        "/stats": lambda i: records.stats(members[i], members[i].id // MEMBER_BLOCK),
        "/stats game: (with chart)": lambda i: records.game_stats(
            members[i], members[i].id // MEMBER_BLOCK, "kraut_ruben"),
        "/stats versus": lambda i: records.head_to_head(
            members[i], Member(members[i].id + 1), members[i].id // MEMBER_BLOCK),
        "/history": lambda i: records.history(members[i].id, members[i].display_name,
                                              members[i].id // MEMBER_BLOCK),
        "history page click": lambda i: records.history(members[i].id, None,
                                                        members[i].id // MEMBER_BLOCK, 1),
        "/history game:": lambda i: records.history(
            members[i].id, members[i].display_name, members[i].id // MEMBER_BLOCK, 0,
            "kraut_ruben"),
        "/replay suggestions": lambda i: records.replay_choices(
            members[i].id, members[i].id // MEMBER_BLOCK, ""),
        "/mygames": lambda i: records.running(members[i], members[i].id // MEMBER_BLOCK),
        # The member sees 30 channels, the one holding the server's games among them.
        "/live": lambda i: records.live(server_of(i), homes(server_of(i)), None),
        "/live game:": lambda i: records.live(server_of(i), homes(server_of(i)), "granat"),
        "/serverstats": lambda i: records.server_stats(server_of(i), "A server"),
        # Counted once a minute at most; timed here uncached, as the minute's first call.
        "/about (its counts)": lambda i: db.totals(),
    }
    print(f"{'command':<28}{'p50 ms':>8}{'p99 ms':>8}{'loop blocked ms':>17}")
    for name, call in commands.items():
        worst, stop = [0.0], asyncio.Event()
        watcher = asyncio.create_task(ticker(worst, stop))
        times = await timed(calls, call)
        stop.set()
        await watcher
        p99 = statistics.quantiles(times, n=100)[98]
        print(f"{name:<28}{statistics.median(times):8.1f}{p99:8.1f}{worst[0]:17.1f}")
    painter.close()
    await db.close()


def main() -> None:
    """Build the database, then measure."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--running", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--servers", type=int, default=SERVERS)
    args = parser.parse_args()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "records.db"
        asyncio.run(migrate(path))
        build(path, args.games, args.running, args.servers, rng)
        asyncio.run(measure(path, args.calls, args.servers, rng))


if __name__ == "__main__":
    main()
