"""The real bot, connected through simcord, keeps its heartbeat fresh for Docker's health check,
and stops it when it closes."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.client import Ludotheque, create_bot
from bot.config import Settings
from bot.health import problem
from tests.e2e.helpers import bot_of


@pytest.fixture
def health_file(tmp_path: Path) -> Path:
    return tmp_path / "alive"


@pytest.fixture
def simcord_bot(database_url: str, health_file: Path) -> Ludotheque:
    """The bot, with a heartbeat file."""
    return create_bot(Settings(database_url=database_url, health_file=str(health_file)))


async def test_a_connected_bot_is_healthy_and_a_closed_one_stops_beating(
        env, health_file: Path) -> None:
    await env.settle()
    assert problem(health_file, time.time()) is None
    health_file.write_text("0.000\n")  # what a beat would overwrite
    await env.advance_time(60)
    assert health_file.read_text() != "0.000\n", "it beats on"
    await bot_of(env).close()
    health_file.write_text("0.000\n")
    await env.advance_time(120)
    assert health_file.read_text() == "0.000\n", "no beat after closing"
    assert problem(health_file, time.time()) is not None


async def test_a_database_that_stops_answering_stops_the_heartbeat(
        env, health_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    await env.settle()
    health_file.write_text("0.000\n")  # what a beat would overwrite

    async def locked() -> int:
        raise OSError("database is locked")

    monkeypatch.setattr(bot_of(env).db, "schema_version", locked)
    await env.advance_time(60)
    assert health_file.read_text() == "0.000\n"
