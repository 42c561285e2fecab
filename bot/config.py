"""Settings from the environment (and `.env`, read by `python -m bot`)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from storage import DEFAULT_DATABASE_URL, Shards

TOKEN_HELP = """\
No DISCORD_TOKEN is set, so Ludothèque cannot connect to Discord.

To get one:
  1. Open https://discord.com/developers/applications and create an application.
  2. In "Bot", click "Reset Token" and copy the token.
  3. Put it in a file named .env next to pyproject.toml:  DISCORD_TOKEN=your-token
     (copy .env.example to start), or export DISCORD_TOKEN in your shell.
The README explains how to invite the bot to your server."""

DEFAULT_ARCHIVE_AFTER = timedelta(minutes=15)
"""A finished game's thread stays open this long: time to look at the end and ask a rematch."""

DEFAULT_BACKUP_EVERY = timedelta(hours=24)
"""How often a running bot backs up its SQLite database unless told otherwise."""

DEFAULT_BACKUPS_KEPT = 7
"""Backups kept (the newest): a week of daily ones."""

DEFAULT_METRICS_ADDR = "127.0.0.1"
"""Where the metrics are served unless `METRICS_ADDR` says otherwise: this machine only (in a
container, `0.0.0.0` lets Prometheus reach them)."""

WEBHOOK_URL = re.compile(r"https://(?:(?:canary|ptb)\.)?discord(?:app)?\.com/api(?:/v\d+)?"
                         r"/webhooks/(?P<id>\d+)/(?P<token>[\w.-]+)")
"""What a Discord webhook URL looks like: its id and token."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment."""

    token: str | None = None
    database_url: str = DEFAULT_DATABASE_URL
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    ai_workers: int = 0
    """Processes that compute AI moves; 0 thinks in a thread (tests, tiny bots)."""
    archive_after: timedelta | None = DEFAULT_ARCHIVE_AFTER
    """How long a finished game's thread stays open (for a rematch) before it is archived
    and locked; None keeps it open."""
    render_workers: int = 0
    """The most processes that draw board pictures (they start and stop with the load); 0
    draws in a thread (tests, tiny bots)."""
    shard_count: int = 1
    """Discord shards of the whole bot (over every process)."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs; None: all of them."""
    backup_every: timedelta | None = None
    """How often the SQLite database is backed up while the bot runs; None: never (tests)."""
    backups_kept: int = DEFAULT_BACKUPS_KEPT
    backup_dir: str | None = None
    """Where backups go; None: a `backups` folder next to the database file."""
    health_file: str | None = None
    """Where the bot writes its heartbeat while healthy (`bot.health`); None: nowhere."""
    error_webhook_url: str | None = None
    """A Discord webhook that gets every error the bot logs (`bot.error_reports`)."""
    metrics_port: int | None = None
    """Where this process serves its Prometheus metrics (`bot.metrics`); None: nowhere."""
    metrics_addr: str = DEFAULT_METRICS_ADDR
    """The address the metrics are served on."""

    @property
    def shards(self) -> Shards:
        """The shards this process runs."""
        return Shards(self.shard_count, self.shard_ids)

    def owns(self, guild_id: int | None) -> bool:
        """True when this process runs the shard of a server (direct messages: shard 0)."""
        return self.shards.owns(guild_id)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Read DISCORD_TOKEN, DATABASE_URL, LOG_LEVEL, DEV_GUILD_ID, AI_WORKERS,
        RENDER_WORKERS, ARCHIVE_AFTER_MINUTES, SHARD_COUNT, SHARD_IDS, BACKUP_HOURS,
        BACKUPS_KEPT, BACKUP_DIR, HEALTH_FILE, ERROR_WEBHOOK_URL, METRICS_PORT and
        METRICS_ADDR."""
        env = os.environ if environ is None else environ
        guild = env.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ValueError(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}")
        workers = env.get("AI_WORKERS", "").strip()
        if workers and not workers.isdigit():
            raise ValueError(f"AI_WORKERS must be a number of processes, not {workers!r}")
        painters = env.get("RENDER_WORKERS", "").strip()
        if painters and not painters.isdigit():
            raise ValueError(f"RENDER_WORKERS must be a number of processes, not {painters!r}")
        archive = env.get("ARCHIVE_AFTER_MINUTES", "").strip()
        if archive and not archive.isdigit():
            raise ValueError("ARCHIVE_AFTER_MINUTES must be a number of minutes (0 keeps "
                             f"finished threads open), not {archive!r}")
        shard_count, shard_ids = _shards(env.get("SHARD_COUNT", "").strip(),
                                         env.get("SHARD_IDS", "").strip())
        hours = env.get("BACKUP_HOURS", "").strip()
        if hours and not hours.isdigit():
            raise ValueError("BACKUP_HOURS must be a number of hours between two backups (0: "
                             f"none), not {hours!r}")
        webhook = env.get("ERROR_WEBHOOK_URL", "").strip()
        if webhook and not WEBHOOK_URL.fullmatch(webhook):
            raise ValueError("ERROR_WEBHOOK_URL must be a Discord webhook URL "
                             "(https://discord.com/api/webhooks/ID/TOKEN: channel settings → "
                             "Integrations → Webhooks → Copy Webhook URL)")
        port = env.get("METRICS_PORT", "").strip()
        if port and not (port.isdigit() and 0 < int(port) < 65536):
            raise ValueError(f"METRICS_PORT must be a port number (1 to 65535), not {port!r}")
        kept = env.get("BACKUPS_KEPT", "").strip()
        if kept and (not kept.isdigit() or int(kept) < 1):
            raise ValueError(f"BACKUPS_KEPT must be a number of backups (1 or more), not {kept!r}")
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            database_url=env.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL,
            log_level=env.get("LOG_LEVEL", "").strip().upper() or "INFO",
            dev_guild_id=int(guild) if guild else None,
            # One core for the event loop, the others for thinking.
            ai_workers=int(workers) if workers else max(1, (os.cpu_count() or 2) - 1),
            archive_after=(DEFAULT_ARCHIVE_AFTER if not archive else
                           timedelta(minutes=int(archive)) if int(archive) else None),
            # Drawing is most of a move's CPU: every core draws.
            render_workers=int(painters) if painters else os.cpu_count() or 2,
            shard_count=shard_count,
            shard_ids=shard_ids,
            backup_every=(DEFAULT_BACKUP_EVERY if not hours else
                          timedelta(hours=int(hours)) if int(hours) else None),
            backups_kept=int(kept) if kept else DEFAULT_BACKUPS_KEPT,
            backup_dir=env.get("BACKUP_DIR", "").strip() or None,
            health_file=env.get("HEALTH_FILE", "").strip() or None,
            error_webhook_url=webhook or None,
            metrics_port=int(port) if port else None,
            metrics_addr=env.get("METRICS_ADDR", "").strip() or DEFAULT_METRICS_ADDR,
        )


def _shards(count: str, ids: str) -> tuple[int, tuple[int, ...] | None]:
    """SHARD_COUNT (default 1) and SHARD_IDS (`0,1`; default: every shard), checked."""
    if count and (not count.isdigit() or int(count) < 1):
        raise ValueError(f"SHARD_COUNT must be a number of shards (1 or more), not {count!r}")
    total = int(count) if count else 1
    if not ids:
        return total, None
    parts = [part.strip() for part in ids.split(",")]
    if not all(part.isdigit() and int(part) < total for part in parts):
        raise ValueError(f"SHARD_IDS must list shard numbers below SHARD_COUNT ({total}), "
                         f"separated by commas, not {ids!r}")
    return total, tuple(sorted({int(part) for part in parts}))
