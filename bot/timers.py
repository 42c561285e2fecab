"""One timer loop for every deadline: it sleeps until the earliest stored timer, fires it,
and goes on (RoboDanny's reminder pattern).

Timers live in the database, so a restart loses none: the loop simply finds them again. A
timer stored earlier than the one being waited for wakes the loop (`wake`). A timer is
dropped once its action ran, so a crash in between fires it again after the restart (at
least once); actions check that they still apply (the game is at the timer's ply). Several
processes on one database each fire only the timers of their own shards' games, and claim a
due timer before firing it (a guarded write), so even two processes running the same shard
for a moment (a rolling restart) fire it once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime, timedelta

import discord

from storage import ALL_SHARDS, Database, Shards, Timer, TimerEvent

log = logging.getLogger(__name__)

Action = Callable[[Timer], Awaitable[None]]

RETRY_AFTER = timedelta(minutes=1)
"""When an action fails (Discord down, say), it is tried again this much later..."""

MAX_ATTEMPTS = 5
"""...at most this many times in all; then it is logged and dropped."""

CLAIM_LEASE = timedelta(minutes=5)
"""How long a fired timer is held by the process firing it; if that process dies before the
action ends, the timer fires again (elsewhere) once this has passed."""

LONGEST_SLEEP = 3600.0
"""Seconds the loop sleeps at most before looking again (a guard against clock jumps)."""


class TimerLoop:
    """Fires stored timers when they are due, one at a time, with the action of their event.

    The loop runs as one task that sleeps until the earliest timer (a plain `asyncio.sleep`,
    which test clocks drive) and ends when no timer is left; `wake` restarts it, and cuts a
    sleep short so that an earlier timer is not missed.
    """

    def __init__(self, db: Database, actions: Mapping[TimerEvent, Action],
                 shards: Shards = ALL_SHARDS) -> None:
        self.db = db
        self.actions = actions
        self.shards = shards
        """Only the timers of games on these shards' servers: each process drives its own."""
        self._task: asyncio.Task[None] | None = None
        self._sleeping = False
        self._until: datetime | None = None
        """When the timer being slept for is due (None: not sleeping for one)."""
        self._changed = False
        self._closed = False

    def start(self) -> None:
        """Run the loop in the background."""
        self._closed = False
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="timer-loop")

    def wake(self, earliest: datetime | None = None) -> None:
        """Timers were stored (`earliest` the first of them due, if known): look again for
        the earliest one, unless the loop already sleeps for one due no later, so a move
        costs no read."""
        if earliest is not None and self._sleeping and self._until is not None \
                and earliest >= self._until:
            return  # it wakes first for an earlier timer and reads them all again then
        self._changed = True
        if self._closed or self._task is None:
            return  # not started yet: the start reads every timer anyway
        if not self._task.done() and self._sleeping:
            self._task.cancel()
        if self._task.done() or self._sleeping:
            self._sleeping = False
            self._task = asyncio.create_task(self._run(), name="timer-loop")

    def close(self) -> None:
        """Stop the loop (the timers stay stored for the next start)."""
        self._closed = True
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        while True:
            try:
                if not await self.run_once():
                    return
            except asyncio.CancelledError:
                raise
            except Exception:  # the database failed: never let the loop die
                log.exception("the timer loop failed; trying again shortly")
                await self._sleep(RETRY_AFTER.total_seconds())

    async def run_once(self) -> bool:
        """Fire the earliest timer if it is due, else sleep until it is; False when none is
        left (the loop ends until `wake`)."""
        self._changed = False  # before reading: a timer stored meanwhile sets it again
        timer = await self.db.next_timer(self.shards)
        if timer is None:
            return False
        delay = (timer.due_at - discord.utils.utcnow()).total_seconds()
        if delay > 0:
            if not self._changed:
                self._until = timer.due_at if delay <= LONGEST_SLEEP else None
                await self._sleep(min(delay, LONGEST_SLEEP))
            return True
        now = discord.utils.utcnow()
        if await self.db.claim_timer(timer.id, now, now + CLAIM_LEASE):
            await self.fire(timer)
        return True  # claimed by another process: it fires it

    async def _sleep(self, seconds: float) -> None:
        self._sleeping = True
        try:
            await asyncio.sleep(seconds)
        finally:
            self._sleeping = False
            self._until = None

    async def fire(self, timer: Timer) -> None:
        """Run a due timer's action, then forget it (or try it again later if it failed)."""
        action = self.actions.get(timer.event)
        try:
            if action is not None:
                await action(timer)
        except Exception:
            if timer.attempts + 1 < MAX_ATTEMPTS:
                log.warning("timer %s (%s of game %s) failed; retrying later", timer.id,
                            timer.event, timer.game_id, exc_info=True)
                await self.db.postpone_timer(timer.id, discord.utils.utcnow() + RETRY_AFTER)
                return
            log.exception("timer %s (%s of game %s) failed %d times; dropped", timer.id,
                          timer.event, timer.game_id, MAX_ATTEMPTS)
        await self.db.drop_timer(timer.id)
