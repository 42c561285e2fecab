"""Persistence: games, seats, the move log, challenges, timers, settings and ratings, on SQLite
(aiosqlite, the default) or PostgreSQL (asyncpg), chosen by the database URL."""

from __future__ import annotations

from storage.database import (
    DEFAULT_DATABASE_URL,
    Database,
    NewMove,
    StaleGame,
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
    ALL_SHARDS,
    GLOBAL_SCOPE,
    ChallengeRecord,
    ChallengeStatus,
    Climber,
    GameActivity,
    GameRecord,
    GameStatus,
    GameSummary,
    MoveKind,
    MoveRecord,
    NewTimer,
    RatingChange,
    RatingPoint,
    RatingRow,
    RunningGame,
    Seat,
    ServerActivity,
    Shards,
    Timer,
    TimerEvent,
    Totals,
    standing_moves,
)
from storage.postgres import PostgresDatabase
from storage.privacy_queries import FORGOTTEN_NAME, MemberData, is_forgotten
from storage.rating_writes import Rater
from storage.sql import Executor, Row, Transaction, Values, Written
from storage.sqlite import BUSY_TIMEOUT_MS, SqliteDatabase, sqlite_path

__all__ = [
    "ALL_SHARDS",
    "BUSY_TIMEOUT_MS",
    "DEFAULT_DATABASE_URL",
    "FORGOTTEN_NAME",
    "GLOBAL_SCOPE",
    "MIGRATIONS",
    "SCHEMA",
    "ChallengeRecord",
    "ChallengeStatus",
    "Climber",
    "Database",
    "DatabaseUnusable",
    "Executor",
    "GameActivity",
    "GameRecord",
    "GameStatus",
    "GameSummary",
    "MemberData",
    "Migration",
    "MoveKind",
    "MoveRecord",
    "NewMove",
    "NewTimer",
    "PostgresDatabase",
    "Rater",
    "RatingChange",
    "RatingPoint",
    "RatingRow",
    "Row",
    "RunningGame",
    "Seat",
    "ServerActivity",
    "Shards",
    "SqliteDatabase",
    "StaleGame",
    "StorageBusy",
    "StorageCorrupt",
    "StorageError",
    "StorageFull",
    "StorageReadOnly",
    "Timer",
    "TimerEvent",
    "Totals",
    "Transaction",
    "Values",
    "Written",
    "is_forgotten",
    "sqlite_path",
    "standing_moves",
]
