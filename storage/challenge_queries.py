"""Challenges and open tables, until answered or expired."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from storage.base import DatabaseBase, dumps
from storage.models import ChallengeRecord, ChallengeStatus
from storage.rows import as_challenge


class ChallengeQueries(DatabaseBase):
    """Challenges and tables."""

    async def create_challenge(
        self,
        *,
        game: str,
        guild_id: int | None,
        channel_id: int,
        challenger_id: int,
        opponent_ids: list[int],
        player_names: dict[int, str],
        options: dict[str, Any],
        now: datetime,
        expires_at: datetime,
        kind: str = "challenge",
        clock: str = "daily",
        seating: list[int] | None = None,
        accepted_ids: list[int] | None = None,
        casual: bool = False,
        legs: int = 1,
        auto_start: bool = False,
        rematch_of: int | None = None,
    ) -> ChallengeRecord:
        """Insert a pending challenge (or, with kind `lobby`, an open table); a `casual` one
        starts a game that counts for no rating; an `auto_start` tournament table starts by
        itself when it expires; `rematch_of` is the finished game a rematch repeats."""
        rows = await self.write(lambda sql: sql.fetch(
            """INSERT INTO challenges (game, guild_id, channel_id, challenger_id, opponent_ids,
                                       player_names, options, status, created_at, expires_at,
                                       kind, clock, seating, accepted_ids, casual, legs,
                                       auto_start, rematch_of)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id""",
            (game, guild_id, channel_id, challenger_id, dumps(opponent_ids),
             dumps({str(k): v for k, v in player_names.items()}), dumps(options),
             ChallengeStatus.PENDING.value, now.isoformat(), expires_at.isoformat(), kind,
             clock, None if seating is None else dumps(seating), dumps(accepted_ids or []),
             int(casual), legs, int(auto_start), rematch_of)))
        challenge_id = int(rows[0]["id"])  # RETURNING gives the new row's id
        record = await self.get_challenge(challenge_id)
        assert record is not None
        return record

    async def get_challenge(self, challenge_id: int) -> ChallengeRecord | None:
        """The challenge with this id, or None."""
        rows = await self._fetch("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        return as_challenge(rows[0]) if rows else None

    async def pending_challenges(self) -> list[ChallengeRecord]:
        """Every challenge still waiting for an answer."""
        rows = await self._fetch(
            "SELECT * FROM challenges WHERE status = ? ORDER BY id",
            (ChallengeStatus.PENDING.value,),
        )
        return [as_challenge(row) for row in rows]

    async def waiting_challenges_of(self, challenger_id: int,
                                    now: datetime) -> list[ChallengeRecord]:
        """The member's challenges and tables still waiting for an answer at `now`, the one
        that expires first first."""
        rows = await self._fetch(
            """SELECT * FROM challenges WHERE status = ? AND challenger_id = ?
               AND expires_at > ? ORDER BY expires_at, id""",
            (ChallengeStatus.PENDING.value, challenger_id, now.isoformat()),
        )
        return [as_challenge(row) for row in rows]

    async def rematch_offered_for(self, game_id: int, now: datetime) -> ChallengeRecord | None:
        """The rematch of this finished game still waiting for an answer at `now`, if any."""
        rows = await self._fetch(
            """SELECT * FROM challenges WHERE rematch_of = ? AND status = ? AND expires_at > ?
               ORDER BY id DESC LIMIT 1""",
            (game_id, ChallengeStatus.PENDING.value, now.isoformat()),
        )
        return as_challenge(rows[0]) if rows else None

    async def cancel_challenges_on_server(self, guild_id: int) -> list[int]:
        """Cancel a server's challenges and tables still waiting; their ids."""
        rows = await self.write(lambda sql: sql.fetch(
            "UPDATE challenges SET status = ? WHERE guild_id = ? AND status = ? RETURNING id",
            (ChallengeStatus.CANCELLED.value, guild_id, ChallengeStatus.PENDING.value)))
        return sorted(int(row["id"]) for row in rows)

    async def cancel_challenges_in_channel(self, channel_id: int) -> list[int]:
        """Cancel the challenges and tables still waiting posted in this channel or thread;
        their ids."""
        rows = await self.write(lambda sql: sql.fetch(
            "UPDATE challenges SET status = ? WHERE channel_id = ? AND status = ? RETURNING id",
            (ChallengeStatus.CANCELLED.value, channel_id, ChallengeStatus.PENDING.value)))
        return sorted(int(row["id"]) for row in rows)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows the challenge."""
        await self._write(
            "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
        )

    async def update_challenge_players(
        self,
        challenge_id: int,
        *,
        opponent_ids: list[int],
        player_names: dict[int, str],
        accepted_ids: list[int],
    ) -> bool:
        """Record who is invited or joined, and who accepted; False if no longer pending."""
        written = await self._write(
            """UPDATE challenges SET opponent_ids = ?, player_names = ?, accepted_ids = ?
               WHERE id = ? AND status = ?""",
            (dumps(opponent_ids), dumps({str(k): v for k, v in player_names.items()}),
             dumps(accepted_ids), challenge_id, ChallengeStatus.PENDING.value),
        )
        return written.rowcount == 1

    async def close_challenge(
        self, challenge_id: int, status: ChallengeStatus, game_id: int | None = None
    ) -> bool:
        """Move a pending challenge to `status`; False if it was no longer pending."""
        written = await self._write(
            "UPDATE challenges SET status = ?, game_id = ? WHERE id = ? AND status = ?",
            (status.value, game_id, challenge_id, ChallengeStatus.PENDING.value),
        )
        return written.rowcount == 1
