"""Which language each server writes in publicly, and each member's DMs (a small service).

Private answers follow the member's client (`bot.replies.speak_to`); public messages and
board pictures follow their server: its `/settings language:` choice, else its preferred
locale when that is French, else English. A DM follows the member's last known locale.
Both are cached: a board costs no read.
"""

from __future__ import annotations

from collections.abc import Callable

from i18n import Language, language_of
from storage import Database


class Languages:
    """The languages of servers and members, from storage and Discord's locales."""

    def __init__(self, db: Database,
                 preferred: Callable[[int], str | None] = lambda guild_id: None) -> None:
        self.db = db
        self.preferred = preferred
        """A server's preferred locale as Discord gives it (None when unknown)."""
        self._servers: dict[int, Language | None] = {}
        self._members: dict[int, str] = {}

    async def of_server(self, guild_id: int | None) -> Language:
        """The language of a server's public messages (English outside a server)."""
        if guild_id is None:
            return Language.EN
        if guild_id not in self._servers:
            chosen = await self.db.server_language(guild_id)
            self._servers[guild_id] = Language(chosen) if chosen in set(Language) else None
        chosen_language = self._servers[guild_id]
        if chosen_language is not None:
            return chosen_language
        return language_of(self.preferred(guild_id))

    async def set_server(self, guild_id: int, language: Language) -> None:
        """A server's choice (`/settings language:`)."""
        await self.db.set_server_language(guild_id, language.value)
        self._servers[guild_id] = language

    async def of_member(self, user_id: int) -> Language:
        """The language of a member's DMs: their client's, as last seen."""
        if user_id not in self._members:
            self._members[user_id] = await self.db.member_locale(user_id) or ""
        return language_of(self._members[user_id] or None)

    def forget_member(self, user_id: int) -> None:
        """Drop what is held of a member who asked to be forgotten."""
        self._members.pop(user_id, None)

    async def saw_member(self, user_id: int, locale: str) -> None:
        """Note a member's locale from an interaction (stored only when it changed)."""
        if self._members.get(user_id) == locale:
            return
        if user_id not in self._members and await self.db.member_locale(user_id) == locale:
            self._members[user_id] = locale
            return
        await self.db.set_member_locale(user_id, locale)
        self._members[user_id] = locale
