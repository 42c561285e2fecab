"""Qawale and Graps in French: a French server's boards, a French client's private answers,
and English as before for an English member of an English server."""

from __future__ import annotations

import discord

from tests.e2e.helpers import actor_for, bot_of, speaking


def _french_server(env):
    """A server whose Discord language is French, with two members on English clients."""
    guild = env.create_guild(name="Soirée jeux", preferred_locale="fr")
    channel = guild.create_text_channel("jeux")
    zoe = guild.add_member(env.create_user("zoe", global_name="Zoé"))
    yann = guild.add_member(env.create_user("yann", global_name="Yann"))
    return channel, zoe, yann


def _button(message: discord.Message, action: str) -> str:
    """The custom id of the message's button for `action` (labels depend on the language)."""
    return next(c.custom_id for row in message.components for c in row.children
                if isinstance(c, discord.Button) and f":{action}" in (c.custom_id or ""))


def _board(where, status_word: str) -> discord.Message:
    """The last board in `where`: the last embed whose footer carries the game's status."""
    boards = [m for m in where.history()
              if m.embeds and status_word in (m.embeds[0].footer.text or "")]
    assert boards, "no board was posted"
    return boards[-1]


async def _start(env, channel, challenger, opponent, game: str):
    result = await challenger.slash(channel, "challenge", game=game, opponent=opponent)
    assert not result.ephemeral, result.response.content
    message = result.response.message
    accepted = await opponent.click(message, custom_id=_button(message, "accept"))
    assert not accepted.ephemeral
    thread = channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None
    return thread, session


def _labels(message: discord.Message) -> list[str]:
    return [getattr(c, "label", None) or "" for row in message.components for c in row.children]


async def test_a_french_server_plays_qawale_in_french(env, monkeypatch) -> None:
    channel, zoe, yann = _french_server(env)
    thread, session = await _start(env, channel, zoe, yann, "qawale")
    board = _board(thread, "galets restants")
    assert "8 galets restants" in board.embeds[0].footer.text
    first = actor_for(session, zoe, yann)
    played = await first.slash(thread, "move", notation="a1:NES")
    assert played.ephemeral
    board = _board(thread, "galets restants")
    embed = board.embeds[0]
    assert "a posé un galet sur **a1** et égrainé sur 3 cases" in embed.description
    assert "7 galets restants" in embed.footer.text and "pebble" not in embed.footer.text
    menu = next(c for row in board.components for c in row.children
                if isinstance(c, discord.SelectMenu))
    assert menu.placeholder == "Choisissez une pile à égrainer…"
    assert any("galets, dessus" in option.label for option in menu.options)

    second = actor_for(session, zoe, yann)
    speaking(monkeypatch, "fr", second)
    refused = await second.slash(thread, "move", notation="c3:NN")
    assert refused.ephemeral
    assert "c3 est vide : un galet se pose sur une pile" in refused.response.content
    refused = await second.slash(thread, "move", notation="a4:SS")
    assert "l’égrainage demande donc 3 pas, et non 2" in refused.response.content
    composer = await second.select(board, ["a4"])
    assert composer.ephemeral
    assert "**Égrainage depuis a4**" in composer.response.content
    assert {"Sud", "Est", "Confirmer", "Annuler"} <= set(_labels(composer.response.message))
    cancelled = await second.click(composer.response.message,
                                   custom_id=_button(composer.response.message, "cancel"))
    assert "Coup annulé" in cancelled.response.content
    assert session.ply == 1


async def test_a_french_server_plays_graps_in_french(env, monkeypatch) -> None:
    channel, zoe, yann = _french_server(env)
    thread, session = await _start(env, channel, zoe, yann, "graps")
    board = _board(thread, "en stock")
    embed = board.embeds[0]
    assert "(Foncés) : 45 en stock" in embed.footer.text
    assert "(Clairs) : 45 en stock" in embed.footer.text
    menu = next(c for row in board.components for c in row.children
                if isinstance(c, discord.SelectMenu))
    assert menu.placeholder == "Placez votre raisin en…"
    dark = actor_for(session, zoe, yann)
    await dark.select(board, ["c1"])
    board = _board(thread, "en stock")
    assert "a planté le raisin de départ en **c1**" in board.embeds[0].description
    assert "44 en stock" in board.embeds[0].footer.text

    light = actor_for(session, zoe, yann)
    speaking(monkeypatch, "fr", light)
    refused = await light.slash(thread, "move", notation="h5")
    assert refused.ephemeral
    assert ("le raisin de départ va sur la terre des Clairs, rangée 15, pas sur la rangée 5"
            in refused.response.content)
    refused = await light.slash(thread, "move", notation="c1")
    assert "c1 est déjà occupée par un raisin foncé" in refused.response.content
    refused = await light.slash(thread, "move", notation="z99")
    assert "z99 est hors du plateau (les cases vont de a1 à o15)" in refused.response.content
    assert session.ply == 1


async def test_an_english_member_of_an_english_server_still_reads_english(env, world) -> None:
    thread, session = await _start(env, world.channel, world.alice, world.bob, "qawale")
    mover = actor_for(session, world.alice, world.bob)
    await mover.slash(thread, "move", notation="a1:NES")
    board = _board(thread, "pebbles left")
    assert "put a pebble on **a1** and sowed 3 steps" in board.embeds[0].description
    other = actor_for(session, world.alice, world.bob)
    refused = await other.slash(thread, "move", notation="c3:NN")
    assert "c3 is empty: a pebble may only go on a stack" in refused.response.content
    composer = await other.select(board, ["a4"])
    assert "**Sowing from a4**" in composer.response.content
    assert {"South", "East", "Confirm", "Cancel"} <= set(_labels(composer.response.message))

    thread, session = await _start(env, world.channel, world.alice, world.bob, "graps")
    dark = actor_for(session, world.alice, world.bob)
    await dark.select(_board(thread, "in stock"), ["c1"])
    board = _board(thread, "in stock")
    assert "planted the opening grape on **c1**" in board.embeds[0].description
    assert "(Dark): 44 in stock" in board.embeds[0].footer.text
    light = actor_for(session, world.alice, world.bob)
    refused = await light.slash(thread, "move", notation="h5")
    assert "the opening grape goes on Light's own land, row 15" in refused.response.content
