"""The heartbeat a container's health check reads: written while the bot is connected and its
database answers, stale once it stops; `python -m bot.health` says which, by its exit code."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot import health
from bot.health import STALE_AFTER, Heartbeat, main, problem


async def always() -> bool:
    return True


async def test_a_live_bot_writes_the_time_and_a_dead_one_does_not(tmp_path: Path) -> None:
    path = tmp_path / "alive"
    assert await Heartbeat(path, always, clock=lambda: 1000.0).beat()
    assert path.read_text() == "1000.000\n"

    async def disconnected() -> bool:
        return False

    assert not await Heartbeat(path, disconnected, clock=lambda: 2000.0).beat()
    assert path.read_text() == "1000.000\n", "the old beat stays, and grows stale"


async def test_a_database_that_fails_or_hangs_skips_the_beat(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "alive"

    async def broken() -> bool:
        raise OSError("database is locked")

    assert not await Heartbeat(path, broken).beat()
    monkeypatch.setattr(health, "ALIVE_CHECK_SECONDS", 0.01)

    async def hanging() -> bool:
        await asyncio.sleep(10)
        return True

    assert not await Heartbeat(path, hanging).beat()
    assert not path.exists()


def test_a_fresh_beat_is_healthy_and_a_stale_or_missing_one_is_not(tmp_path: Path) -> None:
    path = tmp_path / "alive"
    assert "does not exist" in (problem(path, now=1000.0) or "")
    path.write_text("1000.000\n")
    assert problem(path, now=1000.0 + STALE_AFTER - 1) is None
    assert "no heartbeat for 96 s" in (problem(path, now=1000.0 + STALE_AFTER + 1) or "")
    path.write_text("garbage")
    assert "unreadable" in (problem(path, now=1000.0) or "")


def test_the_check_command_exits_0_when_healthy_1_when_not_2_when_unset(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "alive"
    assert main({"HEALTH_FILE": str(path)}) == 1
    path.write_text(f"{time.time():.3f}\n")
    assert main({"HEALTH_FILE": str(path)}) == 0
    assert main({}) == 2
    out = capsys.readouterr()
    assert "healthy" in out.out and "HEALTH_FILE is not set" in out.err


async def test_the_heartbeat_stops_when_closed(tmp_path: Path) -> None:
    beats: list[float] = []
    heartbeat = Heartbeat(tmp_path / "alive", always, every=0.01,
                          clock=lambda: beats.append(1.0) or float(len(beats)))
    heartbeat.start()
    await asyncio.sleep(0.05)
    heartbeat.close()
    seen = len(beats)
    assert seen >= 2
    await asyncio.sleep(0.05)
    assert len(beats) == seen


async def test_a_heartbeat_closed_as_its_check_answers_writes_nothing(tmp_path: Path) -> None:
    answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

    async def answering() -> bool:
        return await answer

    heartbeat = Heartbeat(tmp_path / "alive", answering, every=0.01)
    heartbeat.start()
    for _ in range(3):  # let the first beat start waiting for its check
        await asyncio.sleep(0)
    answer.set_result(True)  # the database answers, and in the same instant the bot closes
    heartbeat.close()
    await asyncio.sleep(0.05)
    assert not (tmp_path / "alive").exists()
