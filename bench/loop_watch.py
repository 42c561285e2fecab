"""How late the event loop runs what is due: what every bench that must not block it reports."""

from __future__ import annotations

import asyncio
import time


async def ticker(worst: list[float], stop: asyncio.Event, interval: float = 0.001) -> None:
    """Record in `worst[0]` the event loop's worst lateness, in ms, on a sleep of `interval`
    seconds, until `stop` is set."""
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(interval)
        worst[0] = max(worst[0], (time.perf_counter() - start - interval) * 1000)
