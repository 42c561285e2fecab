"""What the database keeps about a member, and forgetting it (`/privacy`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from storage.base import DatabaseBase, dumps
from storage.models import ChallengeStatus, GameStatus
from storage.sql import Executor
from storage.tournament_queries import running_tournaments_count

FORGOTTEN_NAME = "Forgotten player"
"""The name a forgotten member's seats take (stored: never translated)."""

FORGOTTEN_IDS = (1, 2**22 - 1)
"""The ids forgotten members' seats take, one per member: no Discord account has one (a
snowflake carries its creation time above bit 22), and the AI's are negative."""


@dataclass(frozen=True)
class CancelledChallenge:
    """A waiting challenge or table cancelled because a member named in it was forgotten."""

    guild_id: int | None
    channel_id: int
    message_id: int | None


@dataclass(frozen=True)
class Forgotten:
    """What forgetting a member did: the id their seats took, the challenges it cancelled."""

    new_id: int
    cancelled: list[CancelledChallenge]


@dataclass(frozen=True)
class MemberData:
    """How much the database keeps about one member."""

    games: int
    running: int
    rated_games: int
    waiting_challenges: int
    settings: bool
    tournaments: int = 0
    """Tournaments that keep their name and place (running or over)."""
    absences: int = 0
    """Times away (`/away`), kept a year for the allowance."""
    blocks: int = 0
    """Members they block (`/block`)."""


def is_forgotten(user_id: int) -> bool:
    """True for the id a forgotten member's seats were given."""
    return FORGOTTEN_IDS[0] <= user_id <= FORGOTTEN_IDS[1]


class PrivacyQueries(DatabaseBase):
    """A member's data: counted for them, and forgotten on their request."""

    async def member_data(self, user_id: int) -> MemberData:
        """What is kept about `user_id`: games played, in progress, rated, challenges waiting,
        settings."""

        async def read(sql: Executor) -> MemberData:
            games = await sql.fetchrow(
                """SELECT COUNT(*) AS games,
                          COALESCE(SUM(CASE WHEN g.status = ? THEN 1 ELSE 0 END), 0) AS running
                   FROM seats s JOIN games g ON g.id = s.game_id WHERE s.user_id = ?""",
                (GameStatus.RUNNING.value, user_id))
            rated = await sql.fetchrow(
                "SELECT COUNT(DISTINCT game_id) AS n FROM rating_changes WHERE player_id = ?",
                (user_id,))
            settings = await sql.fetch(
                "SELECT 1 FROM player_settings WHERE user_id = ?", (user_id,))
            waiting = await _challenges_of(sql, user_id, pending_only=True)
            tournaments = await sql.fetchrow(
                "SELECT COUNT(*) AS n FROM tournament_players WHERE user_id = ?", (user_id,))
            absences = await sql.fetchrow(
                "SELECT COUNT(*) AS n FROM absences WHERE user_id = ?", (user_id,))
            blocks = await sql.fetchrow(
                "SELECT COUNT(*) AS n FROM blocks WHERE user_id = ?", (user_id,))
            assert games is not None and rated is not None and tournaments is not None
            assert absences is not None and blocks is not None
            return MemberData(int(games["games"]), int(games["running"]), int(rated["n"]),
                              len(waiting), bool(settings), int(tournaments["n"]),
                              int(absences["n"]), int(blocks["n"]))

        return await self._read(read)

    async def forget_member(self, user_id: int) -> Forgotten | None:
        """Forget `user_id`: their seats and moves pass to a new forgotten id under
        `FORGOTTEN_NAME` (their opponents' games, histories and replays stay whole); their
        ratings, rating history, settings, times away, blocks and abort votes are deleted
        (others' blocks of them stay: those are the others' safety); their waiting challenges
        are cancelled and the others no longer name them; their place in finished
        tournaments is kept under the new id. One transaction; returns what it did, or None
        (nothing changed) while a game of theirs runs, or a tournament of theirs."""

        async def write(sql: Executor) -> Forgotten | None:
            running = await sql.fetchrow(
                """SELECT COUNT(*) AS n FROM seats s JOIN games g ON g.id = s.game_id
                   WHERE s.user_id = ? AND g.status = ?""",
                (user_id, GameStatus.RUNNING.value))
            assert running is not None
            if int(running["n"]) or await running_tournaments_count(sql, user_id):
                return None  # a game in progress, or one a running tournament will start
            last = await sql.fetchrow(
                "SELECT COALESCE(MAX(user_id), 0) AS last FROM seats WHERE user_id BETWEEN ? "
                "AND ?", FORGOTTEN_IDS)
            assert last is not None
            new_id = max(int(last["last"]) + 1, FORGOTTEN_IDS[0])
            # The moves first, found through the seats' index (moves have none by user).
            await sql.execute(
                """UPDATE moves SET user_id = ? WHERE user_id = ?
                   AND game_id IN (SELECT game_id FROM seats WHERE user_id = ?)""",
                (new_id, user_id, user_id))
            await sql.execute("UPDATE seats SET user_id = ?, display_name = ? WHERE user_id = ?",
                              (new_id, FORGOTTEN_NAME, user_id))
            await sql.execute(
                "UPDATE tournament_players SET user_id = ?, name = ? WHERE user_id = ?",
                (new_id, FORGOTTEN_NAME, user_id))
            for table, column in (("ratings", "player_id"), ("rating_changes", "player_id"),
                                  ("abort_votes", "user_id"), ("player_settings", "user_id"),
                                  ("absences", "user_id"), ("blocks", "user_id")):
                await sql.execute(f"DELETE FROM {table} WHERE {column} = ?", (user_id,))
            cancelled = []
            for row in await _challenges_of(sql, user_id, pending_only=False):
                if row["status"] == ChallengeStatus.PENDING.value:
                    cancelled.append(CancelledChallenge(row["guild_id"], row["channel_id"],
                                                        row["message_id"]))
                await _forget_in_challenge(sql, row, user_id, new_id)
            return Forgotten(new_id, cancelled)

        return await self.write(write)


ChallengeRow = dict[str, Any]
"""The columns of a challenge that name its people."""


async def _challenges_of(sql: Executor, user_id: int, *,
                         pending_only: bool) -> list[ChallengeRow]:
    """The challenges and tables that name `user_id` (their ids are in JSON text: read, then
    checked here)."""
    status = " AND status = ?" if pending_only else ""
    params: tuple[object, ...] = (user_id, f"%{user_id}%")
    if pending_only:
        params += (ChallengeStatus.PENDING.value,)
    rows = await sql.fetch(
        f"""SELECT id, challenger_id, opponent_ids, player_names, accepted_ids, seating, status,
                   guild_id, channel_id, message_id
            FROM challenges WHERE (challenger_id = ? OR opponent_ids LIKE ?){status}""",
        params)
    columns = ("id", "challenger_id", "opponent_ids", "player_names", "accepted_ids",
               "seating", "status", "guild_id", "channel_id", "message_id")
    return [{column: row[column] for column in columns} for row in rows
            if row["challenger_id"] == user_id or user_id in json.loads(row["opponent_ids"])]


async def _forget_in_challenge(sql: Executor, row: ChallengeRow, user_id: int,
                               new_id: int) -> None:
    """Replace `user_id` by `new_id` in one challenge (cancelled if still waiting)."""

    def swap(ids: list[int]) -> list[int]:
        return [new_id if i == user_id else i for i in ids]

    names = {int(k): v for k, v in json.loads(row["player_names"]).items()}
    if user_id in names:
        del names[user_id]
        names[new_id] = FORGOTTEN_NAME
    seating = json.loads(row["seating"]) if row["seating"] else None
    status = ChallengeStatus.CANCELLED.value if row["status"] == ChallengeStatus.PENDING.value \
        else row["status"]
    await sql.execute(
        """UPDATE challenges SET challenger_id = ?, opponent_ids = ?, player_names = ?,
                                 accepted_ids = ?, seating = ?, status = ?
           WHERE id = ?""",
        (new_id if row["challenger_id"] == user_id else row["challenger_id"],
         dumps(swap(json.loads(row["opponent_ids"]))),
         dumps({str(k): v for k, v in names.items()}),
         dumps(swap(json.loads(row["accepted_ids"]))),
         dumps(swap(seating)) if seating is not None else None, status, row["id"]))
