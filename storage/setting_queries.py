"""Members' and servers' settings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from storage.base import DatabaseBase
from storage.sql import Values

ServerSetting = Literal["language", "default_clock", "lobby_role", "recap_channel"]
"""A column of `server_settings` (a literal: it is written into the SQL)."""


class SettingQueries(DatabaseBase):
    """A member's reminders and language; a server's language, clock and table role."""

    async def dm_reminders(self, user_id: int) -> bool:
        """Whether the member wants turn reminders by DM (yes unless they turned them off)."""
        rows = await self._fetch("SELECT dm_reminders FROM player_settings WHERE user_id = ?",
                                 (user_id,))
        return bool(rows[0]["dm_reminders"]) if rows else True

    async def set_dm_reminders(self, user_id: int, wanted: bool) -> None:
        """Turn a member's DM reminders on or off."""
        await self._write(
            """INSERT INTO player_settings (user_id, dm_reminders) VALUES (?, ?)
               ON CONFLICT (user_id) DO UPDATE SET dm_reminders = excluded.dm_reminders""",
            (user_id, int(wanted)))

    async def refusing_challenges(self, user_ids: Sequence[int]) -> list[int]:
        """Those of `user_ids` who take no challenges (`/settings challenges:off`)."""
        rows = await self._fetch(
            """SELECT user_id FROM player_settings
               WHERE user_id IN (SELECT value FROM json_each(?)) AND challenges = 0""",
            (Values(list(user_ids)),))
        return sorted(int(row["user_id"]) for row in rows)

    async def set_takes_challenges(self, user_id: int, wanted: bool) -> None:
        """Let members challenge this one, or not."""
        await self._write(
            """INSERT INTO player_settings (user_id, challenges) VALUES (?, ?)
               ON CONFLICT (user_id) DO UPDATE SET challenges = excluded.challenges""",
            (user_id, int(wanted)))

    async def server_language(self, guild_id: int) -> str | None:
        """The language a server chose (`/settings language:`), or None."""
        return await self._server_setting(guild_id, "language")

    async def set_server_language(self, guild_id: int, language: str) -> None:
        """Remember a server's language."""
        await self._set_server_setting(guild_id, "language", language)

    async def server_clock(self, guild_id: int) -> str | None:
        """The clock a server gives new games when a challenge picks none, or None."""
        return await self._server_setting(guild_id, "default_clock")

    async def set_server_clock(self, guild_id: int, clock: str) -> None:
        """Remember a server's clock for new games."""
        await self._set_server_setting(guild_id, "default_clock", clock)

    async def server_lobby_role(self, guild_id: int) -> int | None:
        """The role a server pings when a table opens, or None."""
        stored = await self._server_setting(guild_id, "lobby_role")
        return int(stored) if stored else None

    async def set_server_lobby_role(self, guild_id: int, role_id: int | None) -> None:
        """Choose the role a server pings when a table opens (None: ping nobody)."""
        await self._set_server_setting(guild_id, "lobby_role",
                                       None if role_id is None else str(role_id))

    async def server_recap_channel(self, guild_id: int) -> int | None:
        """The channel a server's monthly recap goes to, or None."""
        stored = await self._server_setting(guild_id, "recap_channel")
        return int(stored) if stored else None

    async def set_server_recap_channel(self, guild_id: int, channel_id: int | None,
                                       month: str) -> None:
        """Send a server's monthly recaps to a channel (None: to none), the first for the
        month after `month` ("2026-10"): choosing a channel recaps no month already over."""
        await self._write(
            """INSERT INTO server_settings (guild_id, recap_channel, recap_month)
               VALUES (?, ?, ?)
               ON CONFLICT (guild_id) DO UPDATE SET recap_channel = excluded.recap_channel,
               recap_month = excluded.recap_month""",
            (guild_id, None if channel_id is None else str(channel_id), month))

    async def recaps_due(self, month: str) -> list[tuple[int, int]]:
        """The servers (with their recap channel) whose recap of `month` is not posted yet."""
        rows = await self._fetch(
            """SELECT guild_id, recap_channel FROM server_settings
               WHERE recap_channel IS NOT NULL AND (recap_month IS NULL OR recap_month < ?)""",
            (month,))
        return [(int(row["guild_id"]), int(row["recap_channel"])) for row in rows]

    async def claim_recap(self, guild_id: int, month: str) -> bool:
        """Mark a server's recap of `month` as posted; False if it was already (by another
        process, or before a restart): a month is recapped once."""
        written = await self._write(
            """UPDATE server_settings SET recap_month = ?
               WHERE guild_id = ? AND recap_channel IS NOT NULL
               AND (recap_month IS NULL OR recap_month < ?)""",
            (month, guild_id, month))
        return written.rowcount == 1

    async def _server_setting(self, guild_id: int, column: ServerSetting) -> str | None:
        """One of a server's settings, or None when it never chose it."""
        rows = await self._fetch(f"SELECT {column} FROM server_settings WHERE guild_id = ?",
                                 (guild_id,))
        return str(rows[0][0]) if rows and rows[0][0] else None

    async def _set_server_setting(self, guild_id: int, column: ServerSetting,
                                  value: str | None) -> None:
        """Set one of a server's settings (None: unset it), keeping the others."""
        await self._write(
            f"""INSERT INTO server_settings (guild_id, {column}) VALUES (?, ?)
                ON CONFLICT (guild_id) DO UPDATE SET {column} = excluded.{column}""",
            (guild_id, value))

    async def member_locale(self, user_id: int) -> str | None:
        """A member's last known Discord locale, or None."""
        rows = await self._fetch("SELECT locale FROM player_settings WHERE user_id = ?",
                                 (user_id,))
        return str(rows[0][0]) if rows and rows[0][0] else None

    async def set_member_locale(self, user_id: int, locale: str) -> None:
        """Remember a member's Discord locale (their DMs are written in its language)."""
        await self._write(
            """INSERT INTO player_settings (user_id, locale) VALUES (?, ?)
               ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale""",
            (user_id, locale))
