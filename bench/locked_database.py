"""How fast interactions are answered while another process write-locks the database.

Run from the repository root: `python bench/locked_database.py [LOCK_SECONDS]` (8 s by
default). A child process holds `BEGIN EXCLUSIVE` on the bot's database for that long while
the real commands and components (cogs, router, sessions, storage) handle a burst of
interactions from several games: typed moves, board clicks, autocomplete and /history. Each
interaction is a stand-in object that records when it was first answered (Discord wants an
answer within 3 s) and what the player finally read. It prints, per kind, the slowest time to
the first answer and the answers read, and exits 1 if any answer took 3 s or more.
"""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord

from bot.cogs.play import Play
from bot.cogs.records import Records
from bot.components import GameAction
from bot.games import GAME_UIS
from bot.painter import ThreadPainter
from bot.publisher import Post
from bot.records import RecordsService
from bot.replies import on_app_command_error, on_component_error
from bot.session_manager import SessionManager
from engines import GAMES
from storage import Database, Seat

GAMES_PLAYED = 6
ANSWER_LIMIT = 3.0
"""Seconds Discord gives a bot to answer an interaction."""

HOLD_LOCK = """
import sqlite3, sys, time
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
connection.execute("ROLLBACK")
"""


class Publisher:
    """Discord's side, instant: the bench measures the bot and its database."""

    def __init__(self) -> None:
        self.next_id = 10_000

    async def post(self, channel_id: int, post: Post) -> int:
        self.next_id += 1
        return self.next_id

    async def edit(self, channel_id: int, message_id: int, post: Post) -> None:
        return None

    async def remove_components(self, channel_id: int, message_id: int) -> None:
        return None

    async def direct_message(self, user_id: int, text: str) -> None:
        return None

    async def typing(self, channel_id: int) -> None:
        return None


@dataclass
class StandIn:
    """An interaction as the handlers use it, timing its first answer."""

    kind: str
    user_id: int
    channel_id: int
    sent: float = field(default_factory=time.perf_counter)
    answered: float | None = None
    read: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.id = discord.utils.time_snowflake(datetime.now(UTC))
        self.created_at = datetime.now(UTC)
        self.user = SimpleNamespace(id=self.user_id, display_name=f"player {self.user_id}",
                                    mention=f"<@{self.user_id}>")
        self.guild_id = 1
        self.command = None
        self.response = self
        self.followup = self

    def _answer(self, content: Any = None) -> None:
        if self.answered is None:
            self.answered = time.perf_counter()
        if isinstance(content, str):
            self.read.append(content)

    def is_done(self) -> bool:
        return self.answered is not None

    async def defer(self, **kwargs: Any) -> None:
        self._answer()

    async def send_message(self, content: Any = None, **kwargs: Any) -> None:
        self._answer(content)

    async def edit_message(self, content: Any = None, **kwargs: Any) -> None:
        self._answer(content)

    async def send(self, content: Any = None, **kwargs: Any) -> None:
        self._answer(content)

    async def edit_original_response(self, content: Any = None, **kwargs: Any) -> None:
        self._answer(content)


async def open_games(db: Database) -> list[int]:
    """Running Qawale games between pairs of players, in channels 100, 101, ..."""
    ids = []
    for index in range(GAMES_PLAYED):
        state = GAMES["qawale"].new_state(2)
        record = await db.create_game(
            game="qawale", guild_id=1, channel_id=100 + index, parent_id=None,
            seats=[Seat(0, 2 * index + 1, "A"), Seat(1, 2 * index + 2, "B")], options={},
            rng_seed=index, state=state.dump(), now=datetime.now(UTC))
        ids.append(record.id)
    return ids


async def burst(sessions: SessionManager, records: RecordsService, games: list[int]
                ) -> list[StandIn]:
    """One interaction of each kind per game, all at once."""
    play, history = Play(sessions), Records(records)
    interactions: list[StandIn] = []
    tasks = []
    for index, game_id in enumerate(games):
        channel, mover = 100 + index, 2 * index + 1

        typed = StandIn("/move (a write)", mover, channel)
        tasks.append(run_command(play.move.callback(play, typed, "a1:NES"), typed))
        clicked = StandIn("board click (a write)", mover, channel)
        tasks.append(click(sessions, clicked, game_id))
        suggest = StandIn("autocomplete (a read)", mover, channel)
        tasks.append(autocomplete(play, suggest))
        listed = StandIn("/history (a read)", mover, channel)
        tasks.append(run_command(history.history.callback(history, listed, None), listed))
        interactions += [typed, clicked, suggest, listed]
    await asyncio.gather(*tasks)
    return interactions


async def run_command(call: Any, interaction: StandIn) -> None:
    """A slash command, its errors going to the one command error handler."""
    try:
        await call
    except Exception as error:
        wrapped = discord.app_commands.CommandInvokeError(
            SimpleNamespace(name="bench", qualified_name="bench"), error)
        await on_app_command_error(interaction, wrapped)


async def click(sessions: SessionManager, interaction: StandIn, game_id: int) -> None:
    """A click on the board's stack menu's Confirm, as the router hands it to the game."""
    session = await sessions.get(game_id)
    assert session is not None
    try:
        await GAME_UIS["qawale"].handle(interaction, session,
                                        GameAction(game_id, 0, "play", "d4:SSW"), [])
    except Exception as error:
        await on_component_error(interaction, error, "bench")


async def autocomplete(play: Play, interaction: StandIn) -> None:
    """Suggestions for `/move`: they are the answer."""
    await play.move_autocomplete(interaction, "a1")
    interaction._answer()


async def main(lock_seconds: float) -> int:
    logging.basicConfig(level=logging.ERROR)  # the refusals' warnings are expected here
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        db = await Database.open(f"sqlite:///{path}")
        games = await open_games(db)
        sessions = SessionManager(db, GAME_UIS, Publisher())
        records = RecordsService(db, GAME_UIS, ThreadPainter())
        for game_id in games:
            await sessions.get(game_id)
        holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(path), str(lock_seconds)],
                                  stdout=subprocess.PIPE, text=True)
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        started = time.perf_counter()
        interactions = await burst(sessions, records, games)
        print(f"database locked by another process for {lock_seconds:g} s; "
              f"{len(interactions)} interactions from {len(games)} games sent at once")
        slowest: dict[str, float] = defaultdict(float)
        answers: dict[str, set[str]] = defaultdict(set)
        for interaction in interactions:
            waited = (interaction.answered or float("inf")) - interaction.sent
            slowest[interaction.kind] = max(slowest[interaction.kind], waited)
            answers[interaction.kind].update(text[:90] for text in interaction.read)
        for kind, waited in slowest.items():
            print(f"  {kind:<24} first answer within {waited * 1000:7.1f} ms")
            for text in sorted(answers[kind]):
                print(f"      read: {text}")
        print(f"burst handled in {time.perf_counter() - started:.1f} s")
        holder.wait()
        await db.close()
        return 1 if max(slowest.values()) >= ANSWER_LIMIT else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(float(sys.argv[1]) if len(sys.argv) > 1 else 8.0)))
