"""Stored rows as the models the code uses: one converter per kind of row, and the seats
of many games in one query."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from storage.models import (
    ChallengeRecord,
    ChallengeStatus,
    Climber,
    GameRecord,
    GameStatus,
    GameSummary,
    MoveKind,
    MoveRecord,
    RatingChange,
    RatingPoint,
    RatingRow,
    RunningGame,
    Seat,
    Timer,
    TimerEvent,
    displayed_rating,
)
from storage.sql import Executor, Row, Values

SUMMARY_COLUMNS = ", ".join(
    f"g.{column}" for column in
    ("id", "game", "guild_id", "status", "result", "rated", "updated_at", "finished_at",
     "casual"))
"""The game columns a `GameSummary` reads (never `state`, the big one)."""

RUNNING_COLUMNS = ", ".join(
    f"g.{column}" for column in
    ("id", "game", "guild_id", "channel_id", "board_message_id", "to_move", "deadline",
     "updated_at"))
"""The game columns a `RunningGame` reads."""


def parse_time(value: str | None) -> datetime | None:
    """A stored ISO time, or None."""
    return datetime.fromisoformat(value) if value else None


def as_challenge(row: Row) -> ChallengeRecord:
    """A `challenges` row as a challenge."""
    return ChallengeRecord(
        id=row["id"],
        game=row["game"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        challenger_id=row["challenger_id"],
        opponent_ids=json.loads(row["opponent_ids"]),
        player_names={int(k): v for k, v in json.loads(row["player_names"]).items()},
        options=json.loads(row["options"]),
        message_id=row["message_id"],
        status=ChallengeStatus(row["status"]),
        game_id=row["game_id"],
        created_at=datetime.fromisoformat(row["created_at"]),
        expires_at=datetime.fromisoformat(row["expires_at"]),
        accepted_ids=json.loads(row["accepted_ids"]),
        kind=row["kind"],
        clock=row["clock"],
        seating=json.loads(row["seating"]) if row["seating"] else None,
        casual=bool(row["casual"]),
        legs=row["legs"],
        auto_start=bool(row["auto_start"]),
    )


def as_move(row: Row) -> MoveRecord:
    """A `moves` row as a logged move."""
    return MoveRecord(row["ply"], row["seat"], row["user_id"], MoveKind(row["kind"]), row["move"],
                      datetime.fromisoformat(row["created_at"]))


def as_timer(row: Row) -> Timer:
    """A `timers` row as a timer."""
    return Timer(
        id=row["id"],
        game_id=row["game_id"],
        event=TimerEvent(row["event"]),
        due_at=datetime.fromtimestamp(row["due_at"], UTC),
        ply=row["ply"],
        seat=row["seat"],
        attempts=row["attempts"],
    )


async def seats_of(sql: Executor, ids: list[int]) -> dict[int, list[Seat]]:
    """The seats of the games `ids`, in seat order, in one query."""
    seats: dict[int, list[Seat]] = {game_id: [] for game_id in ids}
    if not ids:
        return seats
    for r in await sql.fetch(
        "SELECT game_id, seat, user_id, display_name, stand_in FROM seats WHERE game_id "
        "IN (SELECT value FROM json_each(?)) ORDER BY game_id, seat", (Values(ids),),
    ):
        seats[r["game_id"]].append(Seat(r["seat"], r["user_id"], r["display_name"],
                                        r["stand_in"]))
    return seats


async def tournaments_of_games(sql: Executor, ids: list[int]) -> dict[int, int]:
    """The tournament of each of the games `ids` played for one, in one query."""
    if not ids:
        return {}
    return {int(r["game_id"]): int(r["tournament_id"]) for r in await sql.fetch(
        "SELECT game_id, tournament_id FROM tournament_games WHERE game_id IN (SELECT value "
        "FROM json_each(?))", (Values(ids),))}


async def running_of(sql: Executor, rows: list[Row]) -> list[RunningGame]:
    """Game rows (`RUNNING_COLUMNS`) as games in progress, with their seats."""
    seats = await seats_of(sql, [row["id"] for row in rows])
    return [RunningGame(
        id=row["id"], game=row["game"], guild_id=row["guild_id"], channel_id=row["channel_id"],
        board_message_id=row["board_message_id"], seats=seats[row["id"]],
        to_move=row["to_move"], deadline=parse_time(row["deadline"]),
        updated_at=datetime.fromisoformat(row["updated_at"])) for row in rows]


def as_summary(row: Row, seats: list[Seat]) -> GameSummary:
    """A game row (`SUMMARY_COLUMNS`) and its seats as a summary, without the state."""
    return GameSummary(
        id=row["id"],
        game=row["game"],
        guild_id=row["guild_id"],
        seats=seats,
        status=GameStatus(row["status"]),
        result=json.loads(row["result"]) if row["result"] else None,
        rated=bool(row["rated"]),
        updated_at=datetime.fromisoformat(row["updated_at"]),
        finished_at=parse_time(row["finished_at"]),
        casual=bool(row["casual"]),
    )


def as_rating(row: Row) -> RatingRow:
    """A `ratings` row as a rating."""
    return RatingRow(
        game=row["game"], scope=row["scope"], player_id=row["player_id"], name=row["name"],
        mu=row["mu"], sigma=row["sigma"], games=row["games"], wins=row["wins"],
        draws=row["draws"], losses=row["losses"], streak=row["streak"],
        best_streak=row["best_streak"],
    )


def as_rating_change(row: Row) -> RatingChange:
    """A `rating_changes` row as a change."""
    return RatingChange(player_id=int(row["player_id"]), before=row["rating_before"],
                        after=row["rating_after"])


def as_climber(row: Row) -> Climber:
    """A player's gain over a period joined with their current rating row."""
    return Climber(player_id=int(row["player_id"]), name=row["name"], gain=float(row["gain"]),
                   games=int(row["games"]),
                   rating=displayed_rating(row["mu"], row["sigma"]))


def as_rating_point(row: Row) -> RatingPoint:
    """A `rating_changes` row joined with its game's `finished_at`, as a chart point."""
    finished_at = parse_time(row["finished_at"])
    if finished_at is None:
        raise ValueError(f"rated game {row['game_id']} has no finish time")
    return RatingPoint(game_id=int(row["game_id"]), finished_at=finished_at,
                       before=row["rating_before"], after=row["rating_after"])


def as_record(row: Row, seats: list[Seat]) -> GameRecord:
    """A whole game row and its seats as a record."""
    return GameRecord(
        id=row["id"],
        game=row["game"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        parent_id=row["parent_id"],
        seats=seats,
        options=json.loads(row["options"]),
        rng_seed=row["rng_seed"],
        state=json.loads(row["state"]),
        ply=row["ply"],
        status=GameStatus(row["status"]),
        result=json.loads(row["result"]) if row["result"] else None,
        board_message_id=row["board_message_id"],
        created_at=datetime.fromisoformat(row["created_at"]),
        updated_at=datetime.fromisoformat(row["updated_at"]),
        finished_at=parse_time(row["finished_at"]),
        board_ply=row["board_ply"],
        clock=row["clock"],
        deadline=parse_time(row["deadline"]),
        rated=bool(row["rated"]),
        draw_offer=row["draw_offer"],
        casual=bool(row["casual"]),
    )
