"""Errors reported to the operator's Discord channel, through a webhook (`ERROR_WEBHOOK_URL`).

Every line the bot logs at ERROR or above (an unexpected exception in a command, a board that
could not be drawn, a failed backup) is also posted there, with its traceback, so whoever
runs the bot hears of trouble without reading logs. Reports are gathered and sent at most
once every `REPORT_EVERY` seconds, a burst in one message, and the queue is bounded: a storm
of errors costs one message per interval, never a flood or unbounded memory.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable

MESSAGE_LIMIT = 2000
"""Characters in one Discord message."""

REPORT_EVERY = 10.0
"""Seconds between two report messages."""

QUEUE_LIMIT = 50
"""Reports kept waiting at most; the ones beyond are counted, not kept."""

REPORT_LIMIT = 1500
"""Characters of one report kept (its traceback's end, where the cause is)."""

Send = Callable[[str], Awaitable[None]]
"""Posts one message to the operator's channel."""

log = logging.getLogger(__name__)


class ErrorReports(logging.Handler):
    """A logging handler that queues ERROR records and posts them in batches with `send`."""

    def __init__(self, send: Send, *, every: float = REPORT_EVERY) -> None:
        super().__init__(logging.ERROR)
        self.send = send
        self.every = every
        self.waiting: deque[str] = deque()
        self.dropped = 0
        self._task: asyncio.Task[None] | None = None
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        """Queue a report (called by logging, on any thread)."""
        if record.name == __name__:
            return  # a failed report must not report itself
        try:
            text = self.format(record)
        except Exception:  # logging must never raise
            self.handleError(record)
            return
        if len(self.waiting) >= QUEUE_LIMIT:
            self.dropped += 1
            return
        if len(text) > REPORT_LIMIT:
            text = text[:200] + "\n…\n" + text[-(REPORT_LIMIT - 203):]
        self.waiting.append(text)

    def next_message(self) -> str | None:
        """The next message to post: as many waiting reports as fit; None if none wait."""
        if not self.waiting and not self.dropped:
            return None
        parts: list[str] = []
        size = 0
        while self.waiting:
            block = f"```\n{self.waiting[0]}\n```"
            if parts and size + len(block) + 1 > MESSAGE_LIMIT - 100:
                break
            parts.append(block)
            size += len(block) + 1
            self.waiting.popleft()
        if self.dropped and not self.waiting:
            parts.append(f"… and {self.dropped} more error(s) not kept (too many at once).")
            self.dropped = 0
        return "\n".join(parts)[:MESSAGE_LIMIT]

    async def post_waiting(self) -> None:
        """Post what waits, one message at a time; a failure is logged, never raised."""
        while (message := self.next_message()) is not None:
            try:
                await self.send(message)
            except Exception as error:  # the channel or webhook may be gone
                log.warning("could not post an error report: %s", error)
                return

    def start(self) -> None:
        """Post the waiting reports every `every` seconds until `close()`."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="error-reports")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            await self.post_waiting()

    def close(self) -> None:
        """Stop posting (the bot is closing); what waits is dropped with the process."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        super().close()
