"""Challenges, tables, records and commands in French: public messages in the server's
language, private answers in the member's."""

from __future__ import annotations

import re

from bot.challenges import CHALLENGE_TIMEOUT
from bot.client import CatalogueTranslator
from tests.e2e.conftest import World
from tests.e2e.helpers import bot_of, control_labels, speaking


async def accepted_game(env, world: World):
    """Alice challenges Bob in a French server, Bob accepts: the game's thread and session."""
    result = await world.alice.slash(world.channel, "challenge", game="qawale",
                                     opponent=world.bob)
    await world.bob.click(result.response.message, label="Accepter")
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None
    return thread, session


async def test_a_french_server_sees_its_challenge_and_the_acceptance_in_french(
    env, soiree
) -> None:
    result = await soiree.alice.slash(soiree.channel, "challenge", game="qawale",
                                      opponent=soiree.bob)
    assert not result.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == "⚔️ Défi : Qawale"
    assert f"<@{soiree.alice.id}> défie <@{soiree.bob.id}> à **Qawale**." in embed.description
    assert "acceptez ou refusez" in embed.description
    assert [field.name for field in embed.fields] == ["Options", "Cadence", "Classement"]
    assert embed.fields[2].value == "Classée"
    assert control_labels(result.response.message) == ["Accepter", "Refuser"]
    own = await soiree.alice.click(result.response.message, label="Accepter")
    assert own.ephemeral and "You cannot accept your own challenge" in own.response.content
    accepted = await soiree.bob.click(result.response.message, label="Accepter")
    assert not accepted.ephemeral
    text = accepted.response.embeds[0].description
    assert text.startswith("✅ Bob a accepté ! **Qawale · ") and "commence dans" in text


async def test_a_french_client_hears_its_refusals_in_french_and_the_channel_stays_english(
    env, world, monkeypatch
) -> None:
    speaking(monkeypatch, "fr", world.alice)
    itself = await world.alice.slash(world.channel, "challenge", game="qawale",
                                     opponent=world.alice)
    assert itself.ephemeral
    assert "Vous ne pouvez pas vous défier vous-même" in itself.response.content
    english = await world.bob.slash(world.channel, "challenge", game="qawale",
                                    opponent=world.bob)
    assert "You cannot challenge yourself" in english.response.content
    posted = await world.alice.slash(world.channel, "challenge", game="qawale",
                                     opponent=world.bob)
    assert posted.response.embeds[0].title == "⚔️ Qawale challenge"  # the server's English
    again = await world.alice.click(posted.response.message, label="Accept")
    assert "Vous ne pouvez pas accepter votre propre défi : on attend Bob" in (
        again.response.content)
    stranger = await world.carol.click(posted.response.message, label="Accept")
    assert "Only Bob can answer this challenge." in stranger.response.content


async def test_a_french_server_hears_a_decline_and_an_expiry_in_french(env, soiree) -> None:
    first = await soiree.alice.slash(soiree.channel, "challenge", game="qawale",
                                     opponent=soiree.bob)
    await soiree.bob.click(first.response.message, label="Refuser")
    declined = soiree.channel.history()[-1].embeds[0].description
    assert declined == "Bob a refusé le défi de Qawale."
    second = await soiree.alice.slash(soiree.channel, "challenge", game="graps",
                                      opponent=soiree.carol)
    await env.advance_time(CHALLENGE_TIMEOUT.total_seconds() + 5)
    expired = next(m for m in soiree.channel.history() if m.id == second.response.message.id)
    assert expired.embeds[0].description == (
        "⌛ Ce défi de Graps a expiré : Carol n’a pas répondu dans les 10 minutes.")


async def test_a_french_servers_table_is_french_and_a_refusal_follows_the_clicker(
    env, soiree, monkeypatch
) -> None:
    speaking(monkeypatch, "fr", soiree.carol)
    result = await soiree.alice.slash(soiree.channel, "lobby", game="kraut_ruben")
    message = result.response.message
    embed = result.response.embeds[0]
    assert embed.title == "🪑 Table de Kraut & Rüben"
    assert "ouvre une table de **Kraut & Rüben** (de 2 à 5 joueurs)" in embed.description
    assert f"1. <@{soiree.alice.id}> (hôte)" in embed.description
    assert control_labels(message)[:3] == ["Rejoindre", "Quitter", "Lancer"]
    assert control_labels(message)[-1] == "− IA"
    host = await soiree.alice.click(message, label="Rejoindre")
    assert host.ephemeral and "You host this table" in host.response.content  # her client
    early = await soiree.carol.click(message, label="Lancer")
    assert early.ephemeral and "Seul Alice, qui a ouvert cette table" in early.response.content
    joined = await soiree.bob.click(message, label="Rejoindre")
    assert "**À la table (2/5) :**" in joined.response.embeds[0].description
    started = await soiree.alice.click(message, label="Lancer")
    assert started.response.embeds[0].description.startswith("✅ Alice a lancé la table !")


async def test_records_of_a_french_server_answer_in_french(env, soiree, monkeypatch) -> None:
    speaking(monkeypatch, "fr", soiree.alice, soiree.bob)
    _thread, session = await accepted_game(env, soiree)
    await session.resign(soiree.bob.id)

    board = await soiree.carol.slash(soiree.channel, "leaderboard", game="qawale")
    embed = board.response.embeds[0]
    assert not board.ephemeral and embed.title == "🏆 Qawale · ce serveur"
    assert "1 partie · 1 victoire" in embed.description
    assert "1 partie · 0 victoire" in embed.description  # French: 0 is singular
    assert embed.footer.text.startswith("Page 1/1 · 2 joueurs")

    stats = await soiree.alice.slash(soiree.channel, "stats")
    field = stats.response.embeds[0].fields[0]
    assert stats.response.embeds[0].title == "📊 Alice · ce serveur"
    assert "1 partie · 1 victoire · 0 défaite" in field.value
    assert "Série : 1 victoire · meilleure série : 1 victoire" in field.value

    history = await soiree.bob.slash(soiree.channel, "history")
    embed = history.response.embeds[0]
    assert embed.title == "📜 Dernières parties de Bob"
    assert re.match(rf"`#{session.id}` \*\*Qawale\*\* contre Alice · perdue \(abandon\) · "
                    r"\*\*-\d+\.\d\*\* \(-\d+\.\d\) · <t:", embed.description)
    assert embed.footer.text == "Revoyez-en une avec /replay game:<numéro>"

    replay = await soiree.alice.slash(soiree.channel, "replay", game=str(session.id))
    assert not replay.ephemeral
    posted = next(m for m in [*replay.followups, replay.response.message]
                  if m is not None and m.attachments)
    assert posted.content.startswith(f"🎞️ Rediffusion de la partie #{session.id} · Qawale · ")
    assert "(0 coup, terminée)" in posted.content
    assert control_labels(posted) == ["Pas à pas", "Liste des coups"]
    viewer = await soiree.carol.click(posted, label="Pas à pas")  # Carol's client: English
    assert viewer.ephemeral and "Start position · 0 moves" in viewer.response.content
    missing = await soiree.alice.slash(soiree.channel, "replay", game="9999")
    assert missing.ephemeral
    assert "Il n’y a pas de partie #9999 sur ce serveur" in missing.response.content


async def test_an_english_client_reads_a_french_servers_public_records_in_french(
    env, soiree
) -> None:
    stats = await soiree.carol.slash(soiree.channel, "stats")
    assert stats.response.embeds[0].description == (
        "Carol n’a encore terminé aucune partie classée sur ce serveur.")
    history = await soiree.carol.slash(soiree.channel, "history")
    assert history.response.embeds[0].description == (
        "Carol n’a encore terminé aucune partie sur ce serveur.")


async def test_a_french_client_reads_the_games_and_rules_in_french(
    env, world, monkeypatch
) -> None:
    speaking(monkeypatch, "fr", world.alice)
    games = await world.alice.slash(world.channel, "games")
    assert games.ephemeral
    assert games.response.embeds[0].description.startswith("Défiez quelqu’un avec `/challenge`")
    assert games.response.embeds[0].fields[0].name.startswith("Qawale (")
    english = await world.bob.slash(world.channel, "games")
    assert english.response.embeds[0].description.startswith("Challenge someone")


async def test_asking_to_abort_is_public_in_the_servers_language(env, soiree) -> None:
    thread, _session = await accepted_game(env, soiree)
    asked = await soiree.alice.slash(thread, "abort")
    assert not asked.ephemeral
    assert f"{soiree.alice.mention} demande l’annulation de **" in asked.response.content
    again = await soiree.alice.slash(thread, "abort")
    assert again.ephemeral and "still waiting for Bob" in again.response.content  # English


async def test_french_clients_see_french_command_descriptions_and_choices(env) -> None:
    bot = bot_of(env)
    translator = CatalogueTranslator()

    async def payload(name: str) -> dict:
        command = bot.tree.get_command(name)
        assert command is not None
        return await command.get_translated_payload(bot.tree, translator)

    challenge = await payload("challenge")
    assert challenge["description_localizations"]["fr"] == "Défier un membre à un jeu"
    options = {option["name"]: option for option in challenge["options"]}
    assert options["opponent"]["description_localizations"]["fr"] == "Qui vous défiez"
    assert options["game"]["description_localizations"]["fr"] == "Quel jeu"
    leaderboard = await payload("leaderboard")
    scope = next(o for o in leaderboard["options"] if o["name"] == "scope")
    assert [c["name_localizations"]["fr"] for c in scope["choices"]] == [
        "Ce serveur", "Tous les serveurs"]
    for name in ("help", "games", "rules", "lobby", "move", "board", "resign", "abort", "stats",
                 "history", "replay", "mygames"):
        assert "fr" in (await payload(name))["description_localizations"], name
