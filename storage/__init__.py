"""Persistence on SQLite through aiosqlite: games, seats, the move log and challenges."""

from __future__ import annotations

from storage.database import DEFAULT_DATABASE_URL, Database, NewMove, StaleGame, sqlite_path
from storage.migrations import MIGRATIONS, Migration
from storage.models import (
    ChallengeRecord,
    ChallengeStatus,
    GameRecord,
    GameStatus,
    MoveKind,
    MoveRecord,
    Seat,
)

__all__ = [
    "DEFAULT_DATABASE_URL",
    "MIGRATIONS",
    "ChallengeRecord",
    "ChallengeStatus",
    "Database",
    "GameRecord",
    "GameStatus",
    "Migration",
    "MoveKind",
    "MoveRecord",
    "NewMove",
    "Seat",
    "StaleGame",
    "sqlite_path",
]
