"""Which language a server and a member's DMs are written in, cached."""

from __future__ import annotations

from bot.languages import Languages
from i18n import Language
from storage import Database


async def test_a_server_without_a_choice_follows_its_preferred_locale(db: Database) -> None:
    languages = Languages(db, {1: "fr", 2: "en-US"}.get)
    assert await languages.of_server(1) is Language.FR
    assert await languages.of_server(2) is Language.EN
    assert await languages.of_server(3) is Language.EN  # unknown: English
    assert await languages.of_server(None) is Language.EN  # outside a server


async def test_a_servers_choice_is_kept_and_outlives_a_restart(db: Database) -> None:
    await Languages(db, {1: "en-US"}.get).set_server(1, Language.FR)
    assert await Languages(db, {1: "en-US"}.get).of_server(1) is Language.FR


async def test_a_members_locale_is_stored_only_when_it_changes(db: Database, monkeypatch) -> None:
    writes: list[str] = []
    real = db.set_member_locale

    async def counted(user_id: int, locale: str) -> None:
        writes.append(locale)
        await real(user_id, locale)

    monkeypatch.setattr(db, "set_member_locale", counted)
    languages = Languages(db)
    for locale in ("fr", "fr", "fr", "en-GB", "en-GB"):
        await languages.saw_member(7, locale)
    assert writes == ["fr", "en-GB"]
    assert await Languages(db).of_member(7) is Language.EN
    await languages.saw_member(7, "fr")
    assert await Languages(db).of_member(7) is Language.FR
    assert await Languages(db).of_member(8) is Language.EN  # never seen: English
