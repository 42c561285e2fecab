"""Whether the bot is healthy, for a container's orchestrator (Docker's HEALTHCHECK).

While the bot is connected to Discord and its database answers, it rewrites a heartbeat file
every `HEARTBEAT_EVERY` (`HEALTH_FILE`). `python -m bot.health` exits 0 when that file is
fresh and 1 otherwise, saying why. A file rather than a port: nothing to open or secure, and
the check works the same for every shard process of a container.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from dotenv import load_dotenv

log = logging.getLogger(__name__)

HEARTBEAT_EVERY = 30.0
"""Seconds between two heartbeats."""

STALE_AFTER = 95.0
"""Seconds after the last heartbeat that the bot counts as unhealthy: three beats missed."""

ALIVE_CHECK_SECONDS = 10.0
"""How long one health check may wait for the database before the beat is skipped."""


class Heartbeat:
    """Rewrites `path` with the time every `every` seconds while `alive()` says so."""

    def __init__(self, path: Path, alive: Callable[[], Awaitable[bool]], *,
                 every: float = HEARTBEAT_EVERY,
                 clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.alive = alive
        self.every = every
        self._clock = clock
        self._task: asyncio.Task[None] | None = None

    async def beat(self) -> bool:
        """Write the heartbeat if the bot is alive; True if it was written."""
        try:
            # `asyncio.timeout`, not `wait_for`: on Python 3.11 `wait_for` can swallow a cancel
            # that lands as `alive()` returns, and a closed heartbeat would write once more.
            async with asyncio.timeout(ALIVE_CHECK_SECONDS):
                alive = await self.alive()
        except Exception:  # a database that hangs (TimeoutError) or fails is not alive
            log.warning("health check failed", exc_info=True)
            alive = False
        if not alive:
            return False
        # Written aside, then moved over the old file: a check never reads half a file.
        fresh = self.path.with_name(self.path.name + ".new")
        try:
            fresh.write_text(f"{self._clock():.3f}\n")
            fresh.replace(self.path)
        except OSError:
            log.warning("could not write the heartbeat file %s", self.path, exc_info=True)
            return False
        return True

    def start(self) -> None:
        """Beat now and every `every` seconds until `close()`."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="heartbeat")

    async def _run(self) -> None:
        while True:
            await self.beat()
            await asyncio.sleep(self.every)

    def close(self) -> None:
        """Stop beating: the file goes stale, as it should for a bot that stopped."""
        if self._task is not None:
            self._task.cancel()
            self._task = None


def problem(path: Path, now: float, stale_after: float = STALE_AFTER) -> str | None:
    """Why the bot writing heartbeats to `path` is unhealthy at `now`; None if it is not."""
    try:
        beaten = float(path.read_text().strip())
    except FileNotFoundError:
        return f"no heartbeat yet ({path} does not exist): the bot is starting or never connected"
    except (OSError, ValueError) as error:
        return f"unreadable heartbeat file {path}: {error}"
    silent = now - beaten
    if silent > stale_after:
        return (f"no heartbeat for {silent:.0f} s (more than {stale_after:.0f}): the bot is "
                "disconnected, its database does not answer, or it stopped")
    return None


def main(environ: dict[str, str] | None = None) -> int:
    """Exit 0 if the heartbeat in HEALTH_FILE is fresh, 1 if not, 2 if HEALTH_FILE is unset."""
    if environ is None:
        load_dotenv()
        environ = dict(os.environ)
    where = environ.get("HEALTH_FILE", "").strip()
    if not where:
        print("HEALTH_FILE is not set: the bot writes no heartbeat to check", file=sys.stderr)
        return 2
    trouble = problem(Path(where), time.time())
    if trouble is not None:
        print(f"unhealthy: {trouble}", file=sys.stderr)
        return 1
    print("healthy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
