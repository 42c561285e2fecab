"""Waiting, in tests, for what the code under test does in its own time (a task, a thread,
a worker process): poll for the outcome instead of sleeping a fixed time, which a loaded
machine (CI runs the suite on both cores at once) can overrun."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable

WAIT_LIMIT_S = 10.0
"""How long an outcome may take before the test fails: far more than any should need."""

POLL_EVERY_S = 0.005
"""How often the outcome is checked."""


async def eventually(check: Callable[[], bool | Awaitable[bool]], what: str,
                     within: float = WAIT_LIMIT_S) -> None:
    """Return as soon as `check()` is true; fail naming `what` after `within` seconds."""
    deadline = asyncio.get_running_loop().time() + within
    while True:
        outcome = check()
        if inspect.isawaitable(outcome):
            outcome = await outcome
        if outcome:
            return
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"still not the case after {within:g} s: {what}")
        await asyncio.sleep(POLL_EVERY_S)
