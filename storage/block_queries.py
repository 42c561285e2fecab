"""Members a member blocks (`/block`): who, and which of some members block one."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from storage.base import DatabaseBase
from storage.sql import Executor, Values


class BlockQueries(DatabaseBase):
    """Blocking, unblocking, and the checks a challenge, a table or a rematch makes."""

    async def block(self, user_id: int, blocked_id: int, now: datetime, *, most: int) -> bool:
        """`user_id` blocks `blocked_id`; False when they already did, or already block
        `most` members (nothing changes then: see `blocked_by`)."""

        async def write(sql: Executor) -> bool:
            count = await sql.fetchrow("SELECT COUNT(*) AS n FROM blocks WHERE user_id = ?",
                                       (user_id,))
            assert count is not None  # an aggregate gives one row
            if int(count["n"]) >= most:
                return False
            written = await sql.execute(
                """INSERT INTO blocks (user_id, blocked_id, created_at) VALUES (?, ?, ?)
                   ON CONFLICT DO NOTHING""", (user_id, blocked_id, now.isoformat()))
            return written.rowcount == 1

        return await self.write(write)

    async def unblock(self, user_id: int, blocked_id: int) -> bool:
        """`user_id` no longer blocks `blocked_id`; False when they did not."""
        written = await self._write("DELETE FROM blocks WHERE user_id = ? AND blocked_id = ?",
                                    (user_id, blocked_id))
        return written.rowcount == 1

    async def blocked_by(self, user_id: int) -> list[int]:
        """The members `user_id` blocks, the latest first."""
        rows = await self._fetch(
            "SELECT blocked_id FROM blocks WHERE user_id = ? ORDER BY created_at DESC, "
            "blocked_id", (user_id,))
        return [int(row["blocked_id"]) for row in rows]

    async def blocking(self, target_id: int, user_ids: Sequence[int]) -> list[int]:
        """Those of `user_ids` who block `target_id`."""
        rows = await self._fetch(
            """SELECT user_id FROM blocks
               WHERE blocked_id = ? AND user_id IN (SELECT value FROM json_each(?))""",
            (target_id, Values(list(user_ids))))
        return sorted(int(row["user_id"]) for row in rows)
