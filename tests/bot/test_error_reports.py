"""Errors the bot logs reach the operator's channel: gathered into few messages that fit
Discord, a storm of them bounded and counted, a failing webhook never looping or raising."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from bot.error_reports import MESSAGE_LIMIT, QUEUE_LIMIT, ErrorReports


@pytest.fixture
def posted() -> list[str]:
    return []


@pytest.fixture
def reports(posted: list[str]) -> Iterator[ErrorReports]:
    async def send(text: str) -> None:
        posted.append(text)

    handler = ErrorReports(send)
    logger = logging.getLogger("tests.error_reports")
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)


LOG = logging.getLogger("tests.error_reports")


async def test_errors_go_together_in_one_message_and_warnings_stay_out(
        reports: ErrorReports, posted: list[str]) -> None:
    LOG.warning("a board took a second try")
    LOG.error("game %s: the AI could not play", 12)
    try:
        raise KeyError("seat")
    except KeyError:
        LOG.exception("command /move failed")
    await reports.post_waiting()
    [message] = posted
    assert "game 12: the AI could not play" in message
    assert "command /move failed" in message and "KeyError: 'seat'" in message
    assert "second try" not in message
    await reports.post_waiting()
    assert len(posted) == 1, "nothing new, nothing posted"


async def test_a_long_traceback_keeps_its_cause_and_fits_a_message(
        reports: ErrorReports, posted: list[str]) -> None:
    try:
        raise RuntimeError("x" * 5000 + " THE CAUSE")
    except RuntimeError:
        LOG.exception("drawing failed")
    await reports.post_waiting()
    [message] = posted
    assert len(message) <= MESSAGE_LIMIT
    assert "drawing failed" in message and "THE CAUSE" in message


async def test_a_storm_of_errors_is_bounded_and_counted(
        reports: ErrorReports, posted: list[str]) -> None:
    for number in range(QUEUE_LIMIT + 150):
        LOG.error("error number %d", number)
    await reports.post_waiting()
    assert all(len(message) <= MESSAGE_LIMIT for message in posted)
    text = "\n".join(posted)
    assert "error number 0\n" in text and f"error number {QUEUE_LIMIT - 1}\n" in text
    assert f"error number {QUEUE_LIMIT}\n" not in text
    assert posted[-1].endswith("… and 150 more error(s) not kept (too many at once).")


async def test_a_failing_webhook_is_logged_once_and_never_reported_again(
        caplog: pytest.LogCaptureFixture) -> None:
    async def gone(text: str) -> None:
        raise OSError("404 Unknown Webhook")

    handler = ErrorReports(gone)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        LOG.error("first")
        await handler.post_waiting()
    finally:
        root.removeHandler(handler)
    assert "could not post an error report: 404 Unknown Webhook" in caplog.text
    assert list(handler.waiting) == [], "its own failure is not queued as a report"
