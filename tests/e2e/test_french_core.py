"""French and English in the game's core, end to end: a French server's boards, notices and
reminders are French; each member's private answers and DMs follow their own language."""

from __future__ import annotations

import re

import discord

from bot.games.qawale import QawaleUI
from i18n import Language, use_language
from storage import GameStatus
from tests.e2e.helpers import (
    actor_for,
    bot_of,
    challenge_and_accept,
    control_labels,
    latest_board,
    speaking,
)
from tests.e2e.test_qawale_game import WINNING_GAME

FOOTER = re.compile(r"^(Game|Partie) #(\d+) · (move|coup) (\d+) · ")
LIVE = 5 * 60
"""Seconds per move of the `live` clock."""


def boards(thread) -> list[discord.Message]:
    """The board messages of a thread, in either language."""
    return [m for m in thread.history()
            if m.embeds and FOOTER.match(m.embeds[0].footer.text or "")]


def last_board(thread) -> discord.Message:
    found = boards(thread)
    assert found, "no board was posted"
    return found[-1]


def button_ending(message: discord.Message, tail: str) -> str:
    """The custom_id of the message's button whose custom_id ends with `tail` (a challenge's
    Accept, whatever the language of its label)."""
    return next(item.custom_id for row in message.components for item in row.children
                if (item.custom_id or "").endswith(tail))


async def french_server_game(env, clock: str = "none"):
    """A French server where Alice challenges Bob (both with English clients) and Bob accepts:
    the two players, the thread and the session."""
    guild = env.create_guild(name="Soirée jeux", preferred_locale="fr")
    channel = guild.create_text_channel("jeux")
    alice = guild.add_member(env.create_user("alice", global_name="Alice"))
    bob = guild.add_member(env.create_user("bob", global_name="Bob"))
    result = await alice.slash(channel, "challenge", game="qawale", opponent=bob, clock=clock)
    assert not result.ephemeral, result.response.content
    await bob.click(result.response.message, custom_id=button_ending(result.response.message,
                                                                     ":accept"))
    thread = channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None
    return (alice, bob), thread, session


async def test_a_french_server_plays_a_whole_qawale_game_in_french(
    env, monkeypatch, quick_boards
) -> None:
    (alice, bob), thread, session = await french_server_game(env)
    first = last_board(thread)
    mover = actor_for(session, alice, bob)
    speaking(monkeypatch, "fr", mover)  # the first player's answers in French, the other's not
    assert first.content == f"{mover.mention}, à vous de jouer."
    assert f"À **{mover.name.capitalize()}** de jouer." in first.embeds[0].description
    assert (first.embeds[0].footer.text or "").startswith(f"Partie #{session.id} · coup 0 · ")
    assert control_labels(first)[-3:] == ["Abandonner", "Proposer nulle", "Règles"]

    composer = None
    for move in WINNING_GAME:
        player = actor_for(session, alice, bob)
        if move is WINNING_GAME[-1]:  # a panel left open while the game ends
            composer = await player.select(last_board(thread), [move.split(":")[0]])
        played = await player.slash(thread, "move", notation=move)
        assert played.ephemeral
        expected = f"Coup joué : `{move}`." if player is mover else f"Played `{move}`."
        assert expected in played.response.content
        board = last_board(thread)
        assert FOOTER.match(board.embeds[0].footer.text or "")[3] == "coup"
        if not session.is_over:
            nxt = actor_for(session, alice, bob)
            assert f"À **{nxt.name.capitalize()}** de jouer." in board.embeds[0].description
            assert board.content == f"{nxt.mention}, à vous de jouer."
            assert "to play" not in board.embeds[0].description

    final = last_board(thread)
    assert session.record.status is GameStatus.FINISHED
    assert (final.embeds[0].footer.text or "").startswith(f"Partie #{session.id} · coup 7 · ")
    with use_language(Language.FR):
        result = QawaleUI().result_text(session, session.result())
    assert f"**{result}**" in final.embeds[0].description
    assert final.content == f"{alice.mention} {bob.mention}" or \
        final.content == f"{bob.mention} {alice.mention}"
    assert control_labels(final) == ["Revanche"]

    # The game is over: the panel left open says so, in its member's language.
    assert composer is not None and composer.ephemeral
    late = await mover.click(composer.response.message,
                             custom_id=first_enabled(composer.response.message))
    assert late.ephemeral and late.response.content.startswith("Cette partie est terminée. ")


def first_enabled(message: discord.Message) -> str:
    """The custom_id of the message's first button that can be clicked."""
    return next(item.custom_id for row in message.components for item in row.children
                if isinstance(item, discord.Button) and not item.disabled and item.custom_id)


async def test_a_resignation_on_a_french_server_is_told_in_french(
    env, monkeypatch, quick_boards
) -> None:
    (_, bob), thread, _session = await french_server_game(env)
    speaking(monkeypatch, "fr", bob)
    board = last_board(thread)
    prompt = await bob.click(board, label="Abandonner")
    assert prompt.ephemeral and prompt.response.content.startswith("Abandonner Qawale · ")
    assert "Votre adversaire gagne aussitôt." in prompt.response.content
    done = await bob.click(prompt.response.message, label="Abandonner")
    assert "Vous avez abandonné." in done.response.content
    final = last_board(thread)
    description = final.embeds[0].description or ""
    assert "**Bob** a abandonné." in description
    assert "**Bob a abandonné : Alice gagne.**" in description
    assert control_labels(final) == ["Revanche"]


async def test_a_french_client_hears_its_refusals_in_french(env, world, monkeypatch) -> None:
    thread, session = await challenge_and_accept(env, world.channel, world.alice, world.bob)
    mover = actor_for(session, world.alice, world.bob)
    waiting = world.bob if mover is world.alice else world.alice
    speaking(monkeypatch, "fr", waiting, world.carol)
    board = latest_board(thread)  # an English server: its boards stay English
    assert board.content == f"{mover.mention}, your turn."

    typed = await waiting.slash(thread, "move", notation="a1:NES")
    assert typed.ephemeral
    assert typed.response.content == f"C’est au tour de {mover.name.capitalize()}, pas au vôtre."
    picked = await waiting.select(board, ["a1"])
    assert picked.ephemeral and "pas au vôtre" in picked.response.content
    resign = await world.carol.click(board, label="Resign")
    assert resign.ephemeral and resign.response.content.startswith("Vous ne jouez pas dans ")

    english_panel = await mover.select(board, ["a1"])
    await mover.slash(thread, "move", notation="a1:NES")
    french_panel = await waiting.select(latest_board(thread), ["d4"])
    assert french_panel.ephemeral
    await waiting.slash(thread, "move", notation=str(session.state.legal_moves()[0]))
    stale = await waiting.click(french_panel.response.message,
                                custom_id=first_enabled(french_panel.response.message))
    assert stale.ephemeral and stale.response.content.startswith(
        "Ce plateau n’est plus à jour : un coup a été joué depuis.")
    english = await mover.click(english_panel.response.message,
                                custom_id=first_enabled(english_panel.response.message))
    assert english.response.content.startswith("This board is out of date")


async def test_a_french_server_pings_in_french_while_an_english_member_gets_an_english_dm(
    env, quick_boards
) -> None:
    (alice, bob), thread, session = await french_server_game(env, clock="live")
    mover = actor_for(session, alice, bob)
    board = last_board(thread)
    assert "⏰ Le temps imparti expire <t:" in board.embeds[0].description
    await env.advance_time(LIVE / 2 + 5)
    pings = [m.content or "" for m in thread.history() if "⏰" in (m.content or "")]
    assert len(pings) == 1
    assert pings[0].startswith(f"⏰ {mover.mention}, c’est à vous de jouer dans **Qawale · ")
    assert "la moitié de votre temps est écoulée" in pings[0]
    [dm] = mover.user.dm_channel.history()
    assert dm.content.startswith("⏰ Your turn in **Qawale · ")
    assert "half your time is gone" in dm.content and str(board.id) in dm.content
    assert "Turn these DMs off" in dm.content


async def test_a_french_member_gets_a_french_dm_from_an_english_server(
    env, world, monkeypatch
) -> None:
    speaking(monkeypatch, "fr", world.alice, world.bob)
    result = await world.alice.slash(world.channel, "challenge", game="qawale",
                                     opponent=world.bob, clock="live")
    await world.bob.click(result.response.message,
                          custom_id=button_ending(result.response.message, ":accept"))
    thread = world.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    mover = actor_for(session, world.alice, world.bob)
    await env.advance_time(LIVE / 2 + 5)
    [ping] = [m.content for m in thread.history() if "⏰" in (m.content or "")]
    assert "half your time is gone" in ping
    [dm] = mover.user.dm_channel.history()
    assert dm.content.startswith("⏰ À vous de jouer dans **Qawale · ")
    assert "Désactivez ces messages privés" in dm.content


async def test_the_timeout_choice_of_a_french_server_is_french(env, quick_boards) -> None:
    (alice, bob), thread, session = await french_server_game(env, clock="live")
    absent = actor_for(session, alice, bob)
    present = bob if absent is alice else alice
    await env.advance_time(LIVE + 1)
    [choice] = [m for m in thread.history() if m.components and "dépassé son temps"
                in (m.content or "")]
    assert control_labels(choice)[0] == "Réclamer la victoire"
    assert control_labels(choice)[2] == "Attendre encore"
    await present.click(choice, label="Attendre encore")
    [edited] = [m for m in thread.history() if m.id == choice.id]
    assert "attend encore" in edited.content and not edited.components
