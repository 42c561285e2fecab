"""Le Grabuge and Granat in French: on a French server the boards tell the game in French, a
French client hears its refusals in French, and an English server's boards stay English."""

from __future__ import annotations

import random

import discord
import pytest

from tests.e2e.helpers import TINY_PNG, actor_for, bot_of, latest_board, speaking

GRANAT_OPENING = ["i1>e3", "c13-d12", "e3-h6"]
BEFORE_DOUBLE = ["i1>e3", "c13-d12", "e3-h6", "i15>g15", "a1>a3", "g15>i15", "a3-f8",
                 "a15>a13", "c3-d4"]
"""Granat: Blue to move, and Blue must capture (tests/e2e/test_granat_game.py)."""


@pytest.fixture(autouse=True)
def _no_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pictures have their own French tests (tests/renderers): draw nothing here."""
    monkeypatch.setattr("bot.painter.render", lambda *args, **kwargs: TINY_PNG)


def french_server(env):
    """A server whose Discord community language is French, with two players and a
    spectator (their own clients are English)."""
    guild = env.create_guild(name="Soirée jeux", preferred_locale="fr")
    channel = guild.create_text_channel("jeux")
    players = [guild.add_member(env.create_user(name, global_name=name.capitalize()))
               for name in ("zoe", "yann", "ines")]
    return channel, players


async def start(env, channel, challenger, opponent, game: str):
    """`challenger` challenges `opponent`, who accepts (the challenge's words may be French:
    its Accept button is found by what it does)."""
    result = await challenger.slash(channel, "challenge", game=game, opponent=opponent)
    assert not result.ephemeral, result.response.content
    accept = next(c.custom_id for row in result.response.message.components
                  for c in row.children
                  if isinstance(c, discord.Button) and ":accept" in (c.custom_id or ""))
    await opponent.click(result.response.message, custom_id=accept)
    thread = channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None
    return thread, session


async def drive(session, moves: list[str]) -> None:
    """Play `moves` through the session, as the player to move each time."""
    while session.ply < len(moves):
        mover = session.record.user_at(session.state.current_player)
        await session.play(mover, moves[session.ply], expected_ply=session.ply)


def text_of(message: discord.Message) -> str:
    embed = message.embeds[0]
    return "\n".join([embed.description or "", *(f.value for f in embed.fields)])


def labels(message: discord.Message) -> list[str]:
    """Every button label and every select's placeholder and options of a message."""
    found = []
    for row in message.components:
        for item in row.children:
            if isinstance(item, discord.Button):
                found.append(item.label or "")
            elif isinstance(item, discord.SelectMenu):
                found.append(item.placeholder or "")
                found += [f"{o.label} {o.description or ''}" for o in item.options]
    return found


# -- Granat ---------------------------------------------------------------------------------


async def test_a_french_servers_granat_board_tells_the_moves_in_french(env) -> None:
    channel, (zoe, yann, _ines) = french_server(env)
    thread, session = await start(env, channel, zoe, yann, "granat")
    await drive(session, GRANAT_OPENING)
    board = latest_board(thread)
    text = text_of(board)
    assert "a joué `e3-h6` : pion grenat e3 glisse en h6." in text
    assert "played" not in text and "garnet pawn" not in text
    controls = labels(board)
    assert any(label.startswith("10 pions : d12, a13") for label in controls)
    assert any("pion neutre" in label and "avance en" in label for label in controls)
    assert not any("pawn" in label or "choose" in label for label in controls)


async def test_a_french_servers_granat_board_says_a_capture_is_due_in_french(env) -> None:
    channel, (zoe, yann, _ines) = french_server(env)
    thread, session = await start(env, channel, zoe, yann, "granat")
    await drive(session, BEFORE_DOUBLE)
    text = text_of(latest_board(thread))
    assert "doit prendre à ce coup." in text
    assert "must capture" not in text


async def test_a_french_client_hears_why_a_typed_granat_move_is_illegal_in_french(
    env, world, monkeypatch
) -> None:
    channel, (zoe, yann, _ines) = french_server(env)
    thread, session = await start(env, channel, zoe, yann, "granat")
    await drive(session, BEFORE_DOUBLE)
    blue = actor_for(session, zoe, yann)
    speaking(monkeypatch, "fr", blue)
    refused = await blue.slash(thread, "move", notation="e13-f12")
    assert refused.ephemeral
    assert refused.response.content == \
        "la prise est obligatoire : vous devez prendre (par exemple a13xg7, a13xg7xi5)"
    off_board = await blue.slash(thread, "move", notation="z9-a1")
    assert off_board.response.content == "z9 est hors du plateau (colonnes a à i, rangées 1 à 15)"
    assert session.ply == len(BEFORE_DOUBLE)


async def test_a_french_client_opening_the_composer_reads_it_in_french(
    env, monkeypatch
) -> None:
    channel, (zoe, yann, _ines) = french_server(env)
    thread, session = await start(env, channel, zoe, yann, "granat")
    red = actor_for(session, zoe, yann)
    speaking(monkeypatch, "fr", red)
    board = latest_board(thread)
    menu = next(c.custom_id for row in board.components for c in row.children
                if isinstance(c, discord.SelectMenu)
                and any(o.value == "c3-d4" for o in c.options))
    composer = await red.select(board, ["c3-d4"], custom_id=menu)
    assert composer.ephemeral
    assert composer.response.content.startswith(
        "**c3-d4** : pion neutre c3 avance en d4.\nVérifiez l’aperçu, puis **Confirmez**.")
    assert {"Confirmer", "Annuler"} <= set(labels(composer.response.message))


async def test_a_french_client_playing_out_of_turn_is_refused_in_french(
    env, monkeypatch
) -> None:
    channel, (zoe, yann, _ines) = french_server(env)
    thread, session = await start(env, channel, zoe, yann, "granat")
    waiting = yann if actor_for(session, zoe, yann) is zoe else zoe
    speaking(monkeypatch, "fr", waiting)
    typed = await waiting.slash(thread, "move", notation="c13-d12")
    assert typed.ephemeral and "not yours" not in typed.response.content
    assert session.ply == 0


# -- Le Grabuge ------------------------------------------------------------------------------


def _column_buttons(message: discord.Message) -> list[discord.ui.Button]:
    return [c for row in message.components for c in row.children
            if isinstance(c, discord.Button)
            and any(f":{action}:" in (c.custom_id or "") for action in ("keep", "reserve"))]


async def test_a_french_servers_grabuge_board_tells_the_turns_in_french(
    env, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(68))
    channel, (zoe, yann, _ines) = french_server(env)
    thread, session = await start(env, channel, zoe, yann, "grabuge")
    first = text_of(latest_board(thread))
    assert "Mise en place : le grabuge de " in first
    assert "Set-up" not in first and "grabuge shows" not in first
    for _click in range(4):
        if session.is_over:
            break
        board = latest_board(thread)
        buttons = _column_buttons(board)
        assert buttons and all((b.label or "").startswith("Colonne ") for b in buttons)
        text = text_of(board)
        assert "Choisissez" in text and "Choose" not in text
        await actor_for(session, zoe, yann).click(board, custom_id=buttons[0].custom_id)
    text = text_of(latest_board(thread))
    assert "Tour de " in text or "(suite) :" in text
    assert "'s turn" not in text and "(continued)" not in text


async def test_a_french_client_hears_why_a_typed_grabuge_move_is_illegal_in_french(
    env, monkeypatch: pytest.MonkeyPatch
) -> None:
    channel, (zoe, yann, _ines) = french_server(env)
    thread, session = await start(env, channel, zoe, yann, "grabuge")
    mover = actor_for(session, zoe, yann)
    speaking(monkeypatch, "fr", mover)
    state = session.state
    refused = await mover.slash(thread, "move", notation="keep 9")
    assert refused.ephemeral
    assert refused.response.content == "il n’y a que 4 colonnes de réserve, numérotées de 1 à 4"
    wrong = "drawn" if state.decision() == "reserve" else "grabuge"
    refused = await mover.slash(thread, "move", notation=wrong)
    assert refused.ephemeral
    assert refused.response.content.startswith(
        ("vous n’avez pas de carte tout juste retournée", "placez d’abord la carte"))
    nonsense = await mover.slash(thread, "move", notation="pioche")
    assert nonsense.response.content.startswith("'pioche' n’est pas un coup du Grabuge.")


# -- English stays English ------------------------------------------------------------------


async def test_an_english_servers_boards_stay_english(env, world, monkeypatch) -> None:
    monkeypatch.setattr(random, "SystemRandom", lambda: random.Random(68))
    thread, session = await start(env, world.channel, world.alice, world.bob, "granat")
    await drive(session, GRANAT_OPENING)
    text = text_of(latest_board(thread))
    assert "played `e3-h6`: garnet pawn e3 slides to h6." in text
    thread, session = await start(env, world.channel, world.alice, world.bob, "grabuge")
    board = latest_board(thread)
    assert "Set-up: " in text_of(board)
    assert all((b.label or "").startswith("Column ") for b in _column_buttons(board))
    mover = actor_for(session, world.alice, world.bob)
    refused = await mover.slash(thread, "move", notation="keep 9")
    assert refused.response.content == "there are only 4 reserve columns, numbered 1 to 4"
