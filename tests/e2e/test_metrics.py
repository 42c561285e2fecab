"""Prometheus metrics for the operator: a game played through the bot counts its moves, its
start and its end, times its boards and the AI's thinking; Discord's refusals and unexpected
errors are counted; `METRICS_PORT` serves them over HTTP."""

from __future__ import annotations

import socket
import urllib.request
from pathlib import Path

import discord
import pytest
from prometheus_client import REGISTRY

from bot.__main__ import main
from bot.client import Ludotheque
from bot.config import Settings
from tests.e2e.helpers import bot_of, latest_board, the_bot

TOKEN = "MTA4NjEyMzQ1Njc4OTAxMjM0NQ.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB"
"""The shape of a bot token (not a real one)."""


def sample(name: str, **labels: str) -> float:
    """A metric's value now (0 before it was first counted)."""
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_a_game_against_the_ai_counts_its_moves_start_end_boards_and_thinking(
    env, world
) -> None:
    before = {
        "started": sample("ludotheque_games_started_total", game="qawale"),
        "member": sample("ludotheque_moves_total", game="qawale", by="member"),
        "ai": sample("ludotheque_moves_total", game="qawale", by="ai"),
        "boards": sample("ludotheque_board_seconds_count", game="qawale"),
        "thinking": sample("ludotheque_ai_think_seconds_count", game="qawale", level="easy"),
        "resigned": sample("ludotheque_games_finished_total", game="qawale", reason="resigned"),
    }
    await world.alice.slash(world.channel, "challenge", game="qawale",
                            opponent=the_bot(env, world), level="easy")
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    move = str(session.state.legal_moves()[0])
    await world.alice.slash(thread, "move", notation=move)
    prompt = await world.alice.click(latest_board(thread), label="Resign")
    await world.alice.click(prompt.response.message, label="Resign")
    assert sample("ludotheque_games_started_total", game="qawale") == before["started"] + 1
    assert sample("ludotheque_moves_total", game="qawale", by="member") == before["member"] + 1
    ai_moves = sample("ludotheque_moves_total", game="qawale", by="ai") - before["ai"]
    assert ai_moves >= 1, "the AI's replies count as the AI's"
    assert sample("ludotheque_ai_think_seconds_count", game="qawale",
                  level="easy") - before["thinking"] == ai_moves
    assert sample("ludotheque_board_seconds_count", game="qawale") > before["boards"]
    assert sample("ludotheque_games_finished_total", game="qawale",
                  reason="resigned") == before["resigned"] + 1
    assert sample("ludotheque_sessions_in_memory") >= 1


async def test_discord_refusing_a_board_is_counted_by_why(env, world) -> None:
    before = sample("ludotheque_discord_refusals_total", problem="missing_permissions")
    await world.alice.slash(world.channel, "challenge", game="graps", opponent=world.bob)
    challenge = world.channel.history()[-1]
    env.inject_error("POST", "/channels/*/messages", status=403, code=50013, times=1)
    await world.bob.click(challenge, label="Accept")
    assert sample("ludotheque_discord_refusals_total",
                  problem="missing_permissions") == before + 1


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_metrics_port_serves_the_metrics_over_http(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    async def start(self: Ludotheque, token: str, *, reconnect: bool = True) -> None:
        return None

    port = free_port()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("METRICS_PORT", str(port))
    monkeypatch.setattr(Ludotheque, "start", start)
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **kwargs: None)
    assert main() == 0
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
        text = answer.read().decode()
    assert "ludotheque_moves_total" in text and "process_resident_memory_bytes" in text


def test_a_metrics_port_in_use_stops_the_start_with_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        monkeypatch.chdir(tmp_path)
        monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
        monkeypatch.setenv("METRICS_PORT", str(taken.getsockname()[1]))
        assert main() == 1
    assert "cannot serve its metrics on 127.0.0.1:" in capsys.readouterr().err


def test_metrics_settings_are_read_and_checked() -> None:
    assert Settings.from_env({}).metrics_port is None
    settings = Settings.from_env({"METRICS_PORT": "9100", "METRICS_ADDR": "0.0.0.0"})
    assert (settings.metrics_port, settings.metrics_addr) == (9100, "0.0.0.0")
    for wrong in ("http", "0", "70000"):
        with pytest.raises(ValueError, match="METRICS_PORT"):
            Settings.from_env({"METRICS_PORT": wrong})
