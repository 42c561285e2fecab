"""Members' times away (`/away`): when each is back, and the days they took this year."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from storage.base import DatabaseBase
from storage.models import GameStatus, TimerEvent
from storage.sql import Executor, Values


@dataclass(frozen=True)
class Absence:
    """One time away: from `started_at` until `until`, or `ended_at` if the member came back
    early."""

    started_at: datetime
    until: datetime
    ended_at: datetime | None

    def days_taken(self, since: datetime, upto: datetime) -> float:
        """The days of this absence after `since`, up to `upto` at most."""
        end = min(self.ended_at or self.until, upto)
        return max(0.0, (end - max(self.started_at, since)).total_seconds() / 86400)


def _time(stamp: float) -> datetime:
    return datetime.fromtimestamp(stamp, UTC)


async def _end_current(sql: Executor, user_id: int, now: datetime) -> bool:
    """End the member's absence in progress at `now`; False when there was none."""
    written = await sql.execute(
        "UPDATE absences SET ended_at = ? WHERE user_id = ? AND ended_at IS NULL "
        "AND until_at > ?", (now.timestamp(), user_id, now.timestamp()))
    return written.rowcount > 0


async def _clocks_to_set(sql: Executor, user_id: int, clocks: Sequence[str],
                         now: datetime) -> int:
    """An AWAY timer, due now, for each running game of the member with one of `clocks`: the
    process driving the game sets its turn's clock again (and learns of the absence). How
    many games."""
    games = await sql.fetch(
        """SELECT g.id, g.ply, s.seat FROM seats s JOIN games g ON g.id = s.game_id
           WHERE s.user_id = ? AND s.stand_in IS NULL AND g.status = ?
             AND g.clock IN (SELECT value FROM json_each(?))""",
        (user_id, GameStatus.RUNNING.value, Values(list(clocks))))
    # One a game and seat: going away twice leaves one to fire.
    await sql.executemany("DELETE FROM timers WHERE game_id = ? AND event = ? AND seat = ?",
                          [(game["id"], TimerEvent.AWAY.value, game["seat"]) for game in games])
    await sql.executemany(
        "INSERT INTO timers (game_id, event, due_at, ply, seat) VALUES (?, ?, ?, ?, ?)",
        [(game["id"], TimerEvent.AWAY.value, now.timestamp(), game["ply"], game["seat"])
         for game in games])
    return len(games)


class AbsenceQueries(DatabaseBase):
    """Going away, coming back, and who is away now."""

    async def away_until(self, user_ids: Sequence[int], now: datetime) -> dict[int, datetime]:
        """Those of `user_ids` away at `now`, with when they are back."""
        rows = await self._fetch(
            """SELECT user_id, until_at FROM absences
               WHERE user_id IN (SELECT value FROM json_each(?)) AND ended_at IS NULL
                 AND until_at > ?""", (Values(list(user_ids)), now.timestamp()))
        return {int(row["user_id"]): _time(row["until_at"]) for row in rows}

    async def everyone_away(self, now: datetime) -> dict[int, datetime]:
        """Every member away at `now`, with when they are back (read once at start)."""
        rows = await self._fetch(
            "SELECT user_id, until_at FROM absences WHERE until_at > ? AND ended_at IS NULL",
            (now.timestamp(),))
        return {int(row["user_id"]): _time(row["until_at"]) for row in rows}

    async def absences_since(self, user_id: int, since: datetime) -> list[Absence]:
        """The member's absences that lasted past `since`, oldest first."""
        rows = await self._fetch(
            """SELECT started_at, until_at, ended_at FROM absences
               WHERE user_id = ? AND COALESCE(ended_at, until_at) > ? ORDER BY started_at""",
            (user_id, since.timestamp()))
        return [Absence(_time(row["started_at"]), _time(row["until_at"]),
                        None if row["ended_at"] is None else _time(row["ended_at"]))
                for row in rows]

    async def go_away(self, user_id: int, now: datetime, until: datetime,
                      clocks: Sequence[str], *, forget_before: datetime) -> int:
        """The member is away from `now` until `until` (replacing an absence in progress);
        the running games with one of `clocks` get their turn's clock set again (see
        `TimerEvent.AWAY`). Their absences over before `forget_before` are deleted: no longer
        needed to count the allowance. One transaction; how many games wait for them."""

        async def write(sql: Executor) -> int:
            await sql.execute(
                "DELETE FROM absences WHERE user_id = ? AND COALESCE(ended_at, until_at) < ?",
                (user_id, forget_before.timestamp()))
            await _end_current(sql, user_id, now)
            # Twice in the same instant (a double click): one absence, the last one asked.
            await sql.execute(
                """INSERT INTO absences (user_id, started_at, until_at) VALUES (?, ?, ?)
                   ON CONFLICT (user_id, started_at)
                   DO UPDATE SET until_at = excluded.until_at, ended_at = NULL""",
                (user_id, now.timestamp(), until.timestamp()))
            return await _clocks_to_set(sql, user_id, clocks, now)

        return await self.write(write)

    async def come_back(self, user_id: int, now: datetime, clocks: Sequence[str]) -> bool:
        """End the member's absence now, and set their games' clocks again as `go_away`
        does; False when they were not away."""

        async def write(sql: Executor) -> bool:
            if not await _end_current(sql, user_id, now):
                return False
            await _clocks_to_set(sql, user_id, clocks, now)
            return True

        return await self.write(write)
