"""French and English: a member's private answers follow their own Discord client."""

from __future__ import annotations

import logging

import discord

from bot.client import CatalogueTranslator
from bot.games.qawale import QawaleUI
from bot.records import RecordsService
from i18n import Language
from tests.e2e.helpers import (
    actor_for,
    bot_of,
    challenge_and_accept,
    latest_board,
    speaking,
    the_bot,
)
from tests.e2e.test_server_clock import manager


async def test_a_french_client_gets_its_private_answers_in_french(
    env, world, monkeypatch, allowed_errors
) -> None:
    allowed_errors.append(RuntimeError)
    speaking(monkeypatch, "fr", world.alice)

    async def broken(*args: object) -> None:
        raise RuntimeError("the stats table is on fire")

    monkeypatch.setattr(RecordsService, "stats", broken)
    french = await world.alice.slash(world.channel, "stats")
    english = await world.bob.slash(world.channel, "stats")
    assert french.ephemeral and "Quelque chose s’est mal passé" in french.response.content
    assert "Something went wrong on my side" in english.response.content


async def test_a_french_client_clicking_a_button_hears_french(
    env, world, monkeypatch, caplog
) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    speaking(monkeypatch, "fr", mover)

    async def broken(*args: object) -> None:
        raise KeyError("stack")

    monkeypatch.setattr(QawaleUI, "handle", broken)
    with caplog.at_level(logging.ERROR, logger="bot.replies"):
        answer = await mover.select(latest_board(thread), ["a1"])
    assert answer.ephemeral and "rien n’a changé" in answer.response.content


async def test_only_a_server_manager_chooses_the_servers_language(env, world, monkeypatch) -> None:
    speaking(monkeypatch, "fr", world.alice)
    refused = await world.alice.slash(world.channel, "settings", language="fr")
    assert refused.ephemeral and "Seuls les membres qui peuvent gérer" in refused.response.content

    admins = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    dave = world.guild.add_member(env.create_user("dave", global_name="Dave"), roles=[admins])
    saved = await dave.slash(world.channel, "settings", language="fr")
    assert saved.ephemeral and "Saved." in saved.response.content  # Dave's client is English
    assert "are in French" in saved.response.content
    shown = await world.alice.slash(world.channel, "settings")
    assert "sont en français" in shown.response.content


async def test_a_french_server_speaks_french_until_it_chooses_otherwise(env) -> None:
    guild = env.create_guild(name="Soirée jeux", preferred_locale="fr")
    channel = guild.create_text_channel("jeux")
    member = guild.add_member(env.create_user("zoe", global_name="Zoé"))
    shown = await member.slash(channel, "settings")
    assert "are in French" in shown.response.content  # her client is English, the server French
    assert await bot_of(env).languages.of_server(guild.id) is Language.FR


async def test_command_descriptions_fit_discord_in_every_language(env) -> None:
    bot = bot_of(env)
    translator = CatalogueTranslator()
    for command in bot.tree.get_commands():
        payload = await command.get_translated_payload(bot.tree, translator)
        texts = [*payload.get("description_localizations", {}).values()]
        for option in payload.get("options", []):
            texts += option.get("description_localizations", {}).values()
            for choice in option.get("choices", []):
                texts += choice.get("name_localizations", {}).values()
        assert all(len(text) <= 100 for text in texts), (command.name, texts)
    settings = await bot.tree.get_command("settings").get_translated_payload(bot.tree, translator)
    assert settings["description_localizations"]["fr"].startswith("Vos réglages")


async def test_a_french_server_names_the_ai_in_french_in_history_and_replays(env,
                                                                             world) -> None:
    await world.alice.slash(world.channel, "challenge", game="qawale",
                            opponent=the_bot(env, world), level="easy")
    session = await bot_of(env).sessions.in_channel(world.channel.threads[-1].id)
    await session.resign(world.alice.id)
    await manager(env, world).slash(world.channel, "settings", language="fr")
    history = await world.alice.slash(world.channel, "history")
    assert "🤖 IA (Facile)" in history.response.embeds[0].description
    replay = await world.alice.slash(world.channel, "replay", game=str(session.id))
    caption = next(m.content for m in [*replay.followups, replay.response.message]
                   if m is not None and m.attachments)
    assert "Qawale · " in caption and "🤖 IA (Facile)" in caption
