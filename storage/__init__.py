"""Persistence on SQLite through aiosqlite: games, seats, the move log and challenges."""

from __future__ import annotations

from storage.database import (
    BUSY_TIMEOUT_MS,
    DEFAULT_DATABASE_URL,
    Database,
    NewMove,
    Rater,
    StaleGame,
    Transaction,
    sqlite_path,
)
from storage.errors import (
    DatabaseUnusable,
    StorageBusy,
    StorageCorrupt,
    StorageError,
    StorageFull,
    StorageReadOnly,
)
from storage.migrations import MIGRATIONS, SCHEMA, Migration
from storage.models import (
    GLOBAL_SCOPE,
    ChallengeRecord,
    ChallengeStatus,
    GameRecord,
    GameStatus,
    GameSummary,
    MoveKind,
    MoveRecord,
    NewTimer,
    RatingRow,
    Seat,
    Timer,
    TimerEvent,
)
from storage.sql import Executor, Row, Values, Written

__all__ = [
    "BUSY_TIMEOUT_MS",
    "DEFAULT_DATABASE_URL",
    "GLOBAL_SCOPE",
    "MIGRATIONS",
    "SCHEMA",
    "ChallengeRecord",
    "ChallengeStatus",
    "Database",
    "DatabaseUnusable",
    "Executor",
    "GameRecord",
    "GameStatus",
    "GameSummary",
    "Migration",
    "MoveKind",
    "MoveRecord",
    "NewMove",
    "NewTimer",
    "Rater",
    "RatingRow",
    "Row",
    "Seat",
    "StaleGame",
    "StorageBusy",
    "StorageCorrupt",
    "StorageError",
    "StorageFull",
    "StorageReadOnly",
    "Timer",
    "TimerEvent",
    "Transaction",
    "Values",
    "Written",
    "sqlite_path",
]
