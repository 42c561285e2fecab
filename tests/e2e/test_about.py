"""`/about`: privately, what the bot is, what it has seen (counted at most once a minute), since
when it runs and its version, with a link that adds it to a server with the permissions it
needs."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from bot.guide import REQUIRED_PERMISSIONS
from tests.e2e.helpers import bot_of, challenge_and_accept, speaking


def fields(message) -> dict[str, str]:
    return {f.name: f.value for f in message.embeds[0].fields}


async def test_about_tells_what_the_bot_has_seen_and_links_an_invite(env, world) -> None:
    await challenge_and_accept(env, world.channel, world.alice, world.bob)

    shown = await world.carol.slash(world.channel, "about")

    assert shown.ephemeral
    embed = shown.response.embeds[0]
    assert embed.title == "🎲 Ludothèque" and "Kraut & Rüben" in embed.description
    assert fields(shown.response.message)["Games"] == "1 in progress · 0 finished"
    assert fields(shown.response.message)["Players"] == "2"
    assert fields(shown.response.message)["Servers"] == "1"
    assert embed.footer.text.startswith("Version ")
    [row] = shown.response.message.components
    [link] = row.children
    assert link.label == "Add to a server"
    query = parse_qs(urlparse(link.url).query)
    assert query["client_id"] == [str(bot_of(env).application_id)]
    assert query["permissions"] == [str(REQUIRED_PERMISSIONS.value)]
    assert query["scope"] == ["bot applications.commands"]


async def test_about_speaks_the_members_language(env, world, monkeypatch) -> None:
    speaking(monkeypatch, "fr", world.carol)
    shown = await world.carol.slash(world.channel, "about")
    assert "Parties" in fields(shown.response.message)
    assert shown.response.message.components[0].children[0].label == "Ajouter à un serveur"
