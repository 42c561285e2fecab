"""Several bot processes of one sharded deployment, each in its own thread.

simcord runs one simulated Discord per event loop, so each "process" here is a thread with
its own event loop, its own simulated Discord holding the servers of its shard, its own bot
(`create_bot`, shard `shard` of `count`) and so its own database pool, memory and locks.
What the processes share is what real ones share: the PostgreSQL database.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TypeVar

import simcord
from simcord._runtime import _attach_bot

from bot.client import Ludotheque, create_bot
from bot.config import Settings
from storage.postgres import PostgresDatabase

T = TypeVar("T")

STEP_TIMEOUT = 120.0
"""Seconds a step may take in a process before the test gives up on it."""


@dataclass
class Table:
    """A server of one process with its games channel and two members."""

    guild: simcord.builders.GuildHandle
    channel: simcord.builders.ChannelHandle
    alice: simcord.actors.MemberActor
    bob: simcord.actors.MemberActor


class BotProcess:
    """One bot process running one shard, driven from the test's thread."""

    def __init__(self, name: str, database_url: str, shard: int, count: int = 2) -> None:
        self.name = name
        self.settings = Settings(database_url=database_url, shard_count=count,
                                 shard_ids=(shard,))
        self.shard = shard
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name=name, daemon=True)
        self.thread.start()
        self.env: simcord.Env | None = None
        self.alive = False

    @property
    def bot(self) -> Ludotheque:
        """The bot this process runs now (a new one after a restart)."""
        assert self.env is not None and isinstance(self.env.bot, Ludotheque)
        return self.env.bot

    def submit(self, step: Callable[[], Awaitable[T]]) -> Future[T]:
        """Start a step on this process's loop; its future."""
        async def run() -> T:
            return await step()
        return asyncio.run_coroutine_threadsafe(run(), self.loop)

    def run(self, step: Callable[[], Awaitable[T]]) -> T:
        """Run a step on this process's loop and wait for its result."""
        return self.submit(step).result(STEP_TIMEOUT)

    def start(self) -> None:
        """Connect a new bot to a new simulated Discord."""
        async def start() -> None:
            self.env = simcord.Env(create_bot(self.settings))
            await self.env.start()
            # Each simulated Discord starts at the same instant and numbers its ids from it:
            # a minute apart per shard, two processes' members never share an id.
            await self.env.advance_time(60 * self.shard)
        self.run(start)
        self.alive = True

    def open_table(self) -> Table:
        """A server on this process's shard, a games channel, Alice and Bob."""
        env = self.env
        assert env is not None
        guild = env.create_guild(name=f"{self.name}'s server", shard_id=self.shard)
        assert self.settings.owns(guild.id)
        return Table(guild, guild.create_text_channel("games"),
                     guild.add_member(env.create_user(f"alice-{self.name}", global_name="Alice")),
                     guild.add_member(env.create_user(f"bob-{self.name}", global_name="Bob")))

    def kill(self) -> None:
        """Stop as a crash would: every task of the bot cancelled mid-step, its Discord
        connection and its database connections dropped, nothing closed in order."""
        async def kill() -> None:
            env, bot = self.env, self.bot
            assert env is not None
            await env._detach_bot()  # simcord has no public "crash": it cancels the bot's work
            database = bot.db
            assert isinstance(database, PostgresDatabase)
            database._pool.terminate()  # its connections drop, as the process's would
        self.run(kill)
        self.alive = False

    def start_again(self) -> None:
        """A new bot on the same simulated Discord (its servers, threads and boards kept)."""
        async def start_again() -> None:
            assert self.env is not None
            await _attach_bot(self.env, create_bot(self.settings))
        self.run(start_again)
        self.alive = True

    def stop(self) -> None:
        """Close the bot and its simulated Discord, then the thread."""
        async def stop() -> None:
            if self.env is None:
                return
            bot = self.env.bot
            if self.alive:
                await self.env.shutdown()
                await bot.close()
        try:
            self.run(stop)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
