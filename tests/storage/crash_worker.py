"""The crash drill: play games into a database, get killed (SIGKILL) at random, check nothing.

Run as a child process (`python -m tests.storage.crash_worker DB SEED`), the worker opens the
database, says `ready`, then plays random legal moves of real engines (Qawale, Graps; chance
events resolved with the engine's `chance_outcomes()`), storing each turn with `record_moves`
from the state it reads back, until it is killed. `run_drill` kills it again and again, each
time after a random delay, and checks after each kill that every game's stored move log
replays to exactly its stored state. Used by tests/storage/test_crash_drill.py and by
bench/crash_drill.py.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engines import CHANCE, GAMES
from storage import Database, GameRecord, MoveKind, NewMove, Seat

ROOT = Path(__file__).resolve().parents[2]
GAMES_PLAYED = ("qawale", "graps", "qawale", "graps")
"""The games running at once (a finished one is replaced by a new one of the same kind)."""


# -- the worker (child process) ------------------------------------------------------------


async def _start(db: Database, game: str, channel_id: int, seed: int) -> GameRecord:
    return await db.create_game(
        game=game, guild_id=1, channel_id=channel_id, parent_id=None,
        seats=[Seat(0, 100, "Alice"), Seat(1, 200, "Bob")], options={}, rng_seed=seed,
        state=GAMES[game].new_state(2, {}).dump(), now=datetime.now(UTC),
    )


async def _turn(db: Database, record: GameRecord, rng: random.Random) -> None:
    """One player move and the chance events after it, stored in one `record_moves`."""
    state = GAMES[record.game].load(record.state)
    moves: list[NewMove] = []
    while not state.is_over():
        player = state.current_player
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            move: Any = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            moves.append(NewMove(None, None, MoveKind.CHANCE, str(move)))
        elif moves:
            break  # the next player's decision: a later turn
        else:
            assert player is not None
            move = rng.choice(state.legal_moves())
            moves.append(NewMove(player, record.user_at(player), MoveKind.PLAYER, str(move)))
        state.apply(move)
    result = state.result()
    await db.record_moves(record.id, record.ply, moves, state.dump(),
                          result=result.to_dict() if result else None, now=datetime.now(UTC))


async def work(path: str, seed: int) -> None:
    """Play until killed, going on from whatever the database holds."""
    rng = random.Random(seed)
    db = await Database.open(f"sqlite:///{path}")
    print("ready", flush=True)
    while True:
        running = {g.channel_id: g for g in await db.running_games()}
        for channel, game in enumerate(GAMES_PLAYED):
            if channel not in running:
                running[channel] = await _start(db, game, channel, rng.randrange(2**31))
        await _turn(db, running[rng.randrange(len(GAMES_PLAYED))], rng)


# -- the drill (parent process) ------------------------------------------------------------


@dataclass
class DrillReport:
    """What the drill did and found."""

    kills: int = 0
    games: int = 0
    moves: int = 0
    inconsistencies: list[str] = field(default_factory=list)


async def check(path: Path) -> tuple[int, int, list[str]]:
    """Games and moves stored, and every way the database disagrees with its move logs."""
    problems: list[str] = []
    db = await Database.open(f"sqlite:///{path}")  # refuses a corrupt or incomplete database
    try:
        games = [*await db.running_games(), *await db.finished_games()]
        moves = 0
        for record in games:
            log = await db.moves(record.id)
            moves += len(log)
            if [m.ply for m in log] != list(range(1, len(log) + 1)) or record.ply != len(log):
                problems.append(f"game {record.id}: ply {record.ply}, log plies "
                                f"{[m.ply for m in log]}")
                continue
            state = GAMES[record.game].new_state(len(record.seats), record.options)
            for move in log:
                state.apply(move.move)
            if state.dump() != record.state:
                problems.append(f"game {record.id}: its log does not replay to its state")
            result = state.result()
            if (result.to_dict() if result else None) != record.result:
                problems.append(f"game {record.id}: result {record.result}, replay {result}")
    finally:
        await db.close()
    connection = sqlite3.connect(path)
    try:
        integrity = connection.execute("PRAGMA quick_check").fetchall()
    finally:
        connection.close()
    if integrity != [("ok",)]:
        problems.append(f"quick_check: {integrity}")
    return len(games), moves, problems


async def run_drill(path: Path, kills: int, seed: int = 0, *, max_delay: float = 0.04,
                    log: bool = False) -> DrillReport:
    """Start the worker and SIGKILL it `kills` times, checking the database after each kill."""
    rng = random.Random(seed)
    report = DrillReport()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    for run in range(kills):
        worker = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.storage.crash_worker", str(path), str(seed * 10_000 + run),
            cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        assert worker.stdout is not None and worker.stderr is not None
        try:
            ready = await asyncio.wait_for(worker.stdout.readline(), timeout=30)
        except TimeoutError:
            ready = b""
        if ready.strip() != b"ready":
            worker.kill()
            await worker.wait()
            failure = (await worker.stderr.read()).decode(errors="replace").strip()
            report.inconsistencies.append(f"run {run}: the worker did not start: {failure}")
            break
        await asyncio.sleep(rng.uniform(0.003, max_delay))
        if worker.returncode is None:
            worker.send_signal(signal.SIGKILL)
        code = await worker.wait()
        if code != -signal.SIGKILL:
            failure = (await worker.stderr.read()).decode(errors="replace").strip()
            report.inconsistencies.append(f"run {run}: the worker ended by itself ({code}): "
                                          f"{failure}")
        report.kills += 1
        report.games, report.moves, problems = await check(path)
        report.inconsistencies += [f"after kill {report.kills}: {p}" for p in problems]
        if log:
            print(f"kill {report.kills}: {report.games} games, {report.moves} moves stored, "
                  f"{len(report.inconsistencies)} inconsistencies", flush=True)
    return report


if __name__ == "__main__":
    asyncio.run(work(sys.argv[1], int(sys.argv[2])))
