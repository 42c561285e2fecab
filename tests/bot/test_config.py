"""Configuration from the environment, and starting without a token."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import discord
import pytest

from bot.__main__ import main
from bot.client import Ludotheque, create_bot
from bot.config import Settings
from storage import DEFAULT_DATABASE_URL

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTA4NjEyMzQ1Njc4OTAxMjM0NQ.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB"
"""The shape of a bot token (not a real one)."""


@pytest.fixture(autouse=True)
def no_log_handlers(monkeypatch: pytest.MonkeyPatch) -> None:
    """`main` sets up discord.py's logging; here it must not add handlers to this process."""
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **kwargs: None)


def test_defaults_use_sqlite_under_data() -> None:
    settings = Settings.from_env({})
    assert settings.token is None
    assert settings.database_url == DEFAULT_DATABASE_URL == "sqlite:///data/ludotheque.db"
    assert settings.log_level == "INFO" and settings.dev_guild_id is None


def test_every_setting_is_read_from_the_environment() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": " abc ", "DATABASE_URL": "sqlite:///x.db",
                                  "LOG_LEVEL": "debug", "DEV_GUILD_ID": "123",
                                  "AI_WORKERS": "3", "ARCHIVE_AFTER_MINUTES": "30",
                                  "RENDER_WORKERS": "4", "SHARD_COUNT": "2", "SHARD_IDS": "1",
                                  "BACKUP_HOURS": "12", "BACKUPS_KEPT": "3",
                                  "BACKUP_DIR": "/backups", "HEALTH_FILE": "/tmp/alive"})
    assert settings == Settings("abc", "sqlite:///x.db", "DEBUG", 123, 3, timedelta(minutes=30),
                                4, 2, (1,), timedelta(hours=12), 3, "/backups", "/tmp/alive")


def test_boards_are_drawn_on_every_core_unless_told_otherwise() -> None:
    assert Settings.from_env({}).render_workers >= 1
    assert Settings.from_env({"RENDER_WORKERS": "0"}).render_workers == 0
    with pytest.raises(ValueError, match="RENDER_WORKERS"):
        Settings.from_env({"RENDER_WORKERS": "many"})


def test_finished_threads_are_archived_after_15_minutes_unless_told_otherwise() -> None:
    assert Settings.from_env({}).archive_after == timedelta(minutes=15)
    assert Settings.from_env({"ARCHIVE_AFTER_MINUTES": "0"}).archive_after is None
    with pytest.raises(ValueError, match="ARCHIVE_AFTER_MINUTES"):
        Settings.from_env({"ARCHIVE_AFTER_MINUTES": "soon"})


def test_a_dev_guild_id_that_is_not_a_number_is_refused() -> None:
    with pytest.raises(ValueError, match="DEV_GUILD_ID"):
        Settings.from_env({"DEV_GUILD_ID": "my-server"})


def test_env_example_lists_every_setting() -> None:
    text = (ROOT / ".env.example").read_text()
    for name in ("DISCORD_TOKEN", "DATABASE_URL", "LOG_LEVEL", "DEV_GUILD_ID", "AI_WORKERS",
                 "ARCHIVE_AFTER_MINUTES", "METRICS_PORT", "METRICS_ADDR"):
        assert f"\n{name}=" in text


def test_create_bot_builds_without_connecting() -> None:
    bot = create_bot(Settings(database_url="sqlite:///unused.db"))
    assert bot.settings.database_url == "sqlite:///unused.db"
    assert not bot.is_ready() and bot.user is None


def test_running_without_a_token_explains_how_to_get_one(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "No DISCORD_TOKEN" in done.stderr and "developers/applications" in done.stderr


def test_main_without_a_token_explains_how_to_get_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main() == 2
    assert "DISCORD_TOKEN" in capsys.readouterr().err


def test_main_with_a_token_runs_the_bot_at_the_configured_log_level(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    starts: list[str] = []
    levels: list[int] = []

    async def start(self: Ludotheque, token: str, *, reconnect: bool = True) -> None:
        starts.append(token)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("LOG_LEVEL", "warning")
    monkeypatch.setattr(Ludotheque, "start", start)
    monkeypatch.setattr(discord.utils, "setup_logging",
                        lambda *, level, root: levels.append(level) if root else None)
    assert main() == 0
    assert starts == [TOKEN] and levels == [logging.WARNING]


def test_ctrl_c_stops_the_bot_with_a_clean_exit(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    async def interrupted(self: Ludotheque, token: str, *, reconnect: bool = True) -> None:
        raise KeyboardInterrupt

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setattr(Ludotheque, "start", interrupted)
    assert main() == 0


def test_main_refuses_a_malformed_token_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "my-password")
    assert main() == 1
    assert "does not look like a bot token" in capsys.readouterr().err


def test_main_says_when_discord_refuses_the_token(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def refuse(self: Ludotheque, token: str, *, reconnect: bool = True) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setattr(Ludotheque, "start", refuse)
    assert main() == 1
    assert "Discord refused the token" in capsys.readouterr().err


def test_main_refuses_an_unusable_database_before_connecting(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.db").write_text("these are my notes, not a database\n" * 100)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", "sqlite:///notes.db")
    monkeypatch.setattr(Ludotheque, "start", lambda *args, **kwargs: pytest.fail("connected"))
    assert main() == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("Ludothèque cannot start:") and "\n" not in err


@pytest.mark.parametrize("content", [b"my shopping list\n" * 200, b"\0" * 8192],
                         ids=["text file", "zeroed header"])
def test_python_m_bot_on_a_bad_database_exits_with_one_line_instead_of_hanging(
    tmp_path: Path, content: bytes
) -> None:
    (tmp_path / "bad.db").write_bytes(content)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": TOKEN,
           "DATABASE_URL": "sqlite:///bad.db"}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "not a SQLite database" in lines[0], done.stderr


def test_shards_are_read_and_a_process_owns_the_servers_of_its_shards() -> None:
    assert (Settings.from_env({}).shard_count, Settings.from_env({}).shard_ids) == (1, None)
    settings = Settings.from_env({"SHARD_COUNT": "2", "SHARD_IDS": "1"})
    assert (settings.shard_count, settings.shard_ids) == (2, (1,))
    on_shard_1 = 1 << 22  # Discord puts a server on shard (id >> 22) % count
    assert settings.owns(on_shard_1) and not settings.owns(2 << 22)
    assert not settings.owns(None)  # direct messages go to shard 0
    assert Settings.from_env({}).owns(2 << 22)
    for bad in ({"SHARD_COUNT": "0"}, {"SHARD_COUNT": "2", "SHARD_IDS": "2"},
                {"SHARD_IDS": "a"}):
        with pytest.raises(ValueError, match="SHARD_"):
            Settings.from_env(bad)


def test_an_error_webhook_must_be_a_discord_webhook_url() -> None:
    url = "https://discord.com/api/webhooks/123456/abc-DEF_9"
    assert Settings.from_env({"ERROR_WEBHOOK_URL": f" {url} "}).error_webhook_url == url
    assert Settings.from_env({}).error_webhook_url is None
    with pytest.raises(ValueError, match="ERROR_WEBHOOK_URL must be a Discord webhook URL"):
        Settings.from_env({"ERROR_WEBHOOK_URL": "https://example.com/hook"})
