"""Kraut & Rüben in French: a French server's boards, each member's private answers in their
own client's language, French refusals, and the rules summary with its scoring table."""

from __future__ import annotations

import copy
from dataclasses import dataclass

import discord
import pytest
from simcord.actors import MemberActor

from bot.games.kraut_ruben import KrautRubenUI, scoring_table
from bot.sessions import GameSession
from engines import IllegalMove
from engines.kraut_ruben import FIXED_POINTS, MINUS_POINTS, Tile
from i18n import Language, translate
from tests.e2e.helpers import actor_for, bot_of, speaking

ENGLISH_LOG_WORDS = ("draws", "drew", "plants", "sends", "garden", "bag", "Contracts dealt")
"""Words of the English log that a French board must not show."""


@dataclass
class Soiree:
    """A French server (its preferred locale is French) and four members."""

    channel: object
    zoe: MemberActor
    yann: MemberActor
    ines: MemberActor
    ulf: MemberActor


@pytest.fixture
def soiree(env) -> Soiree:
    guild = env.create_guild(name="Soirée jeux", preferred_locale="fr")
    channel = guild.create_text_channel("jeux")
    zoe, yann, ines, ulf = (guild.add_member(env.create_user(name, global_name=name.title()))
                            for name in ("zoe", "yann", "ines", "ulf"))
    return Soiree(channel, zoe, yann, ines, ulf)


def components(message: discord.Message, action: str) -> list[discord.Component]:
    """A message's buttons and menus for one action (`draw`, `place`, `accept`, ...): the
    action is a field of their custom_id (bot/components.py), whatever the language."""
    found = []
    for row in message.components:
        for child in row.children:
            fields = (getattr(child, "custom_id", None) or "").split(":")
            if (fields[0] in ("lg", "ls") and fields[3:4] == [action]) or \
                    (fields[0] == "lc" and fields[2:3] == [action]):
                found.append(child)
    return found


def custom_ids(message: discord.Message, action: str) -> list[str]:
    """The custom_ids of a message's components for one action."""
    return [c.custom_id or "" for c in components(message, action)]


def first_option(message: discord.Message, action: str) -> tuple[str, str]:
    """The custom_id of the menu for `action` and the value of its first option."""
    [menu] = [c for c in components(message, action) if isinstance(c, discord.SelectMenu)]
    return menu.custom_id or "", menu.options[0].value


def labels(message: discord.Message) -> list[str]:
    """Every button label and menu placeholder of a message."""
    return [getattr(c, "label", None) or getattr(c, "placeholder", None) or ""
            for row in message.components for c in row.children]


def board_of(thread) -> discord.Message:
    """The latest Kraut & Rüben board (every board has the contract button, whatever the
    language of its words)."""
    boards = [m for m in thread.history() if m.embeds and custom_ids(m, "contract")]
    assert boards, "no board was posted"
    return boards[-1]


async def start(env, soiree: Soiree) -> tuple[object, GameSession]:
    """Zoé challenges Yann and Inès; both accept (the buttons found by their custom_id)."""
    result = await soiree.zoe.slash(soiree.channel, "challenge", game="kraut_ruben",
                                    opponent=soiree.yann, opponent2=soiree.ines)
    assert not result.ephemeral, result.response.content
    message = result.response.message
    for member in (soiree.yann, soiree.ines):
        [accept] = custom_ids(message, "accept")
        answer = await member.click(message, custom_id=accept)
        assert not answer.ephemeral, answer.response.content
        message = next(m for m in soiree.channel.history() if m.id == message.id)
    thread = soiree.channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None
    return thread, session


async def play_a_turn(session: GameSession, thread, players) -> None:
    """One whole turn with the board's components only: draw, a garden (and the tile to
    cover, privately, when asked), then end the turn."""
    actor = actor_for(session, *players)
    while session.record.user_at(session.state.current_player) == actor.id:
        board = board_of(thread)
        if custom_ids(board, "draw"):
            answer = await actor.click(board, custom_id=custom_ids(board, "draw")[0])
        elif any(isinstance(c, discord.SelectMenu) for c in components(board, "place")):
            assert any(label.startswith("Où poser ") for label in labels(board))
            menu, first = first_option(board, "place")
            answer = await actor.select(board, [first], custom_id=menu)
        elif custom_ids(board, "place"):
            answer = await actor.click(board, custom_id=custom_ids(board, "place")[0])
        elif custom_ids(board, "garden"):
            panel = await actor.click(board, custom_id=custom_ids(board, "garden")[0])
            assert panel.ephemeral and "quelle carte recouvrir" in panel.response.content, \
                panel.response.content
            menu, first = first_option(panel.response.message, "placebed")
            answer = await actor.select(panel.response.message, [first], custom_id=menu)
        elif custom_ids(board, "end"):
            answer = await actor.click(board, custom_id=custom_ids(board, "end")[0])
        else:
            raise AssertionError(f"unexpected controls {labels(board)}")
        assert answer.response is not None


async def test_a_french_server_plays_kraut_and_ruben_in_french(env, soiree) -> None:
    thread, session = await start(env, soiree)
    board = board_of(thread)
    text = board.embeds[0].description or ""
    assert "🎴 Contrats distribués pour la partie 1" in text and "**Mon contrat**" in text
    assert "pioche : 8" in (board.embeds[0].footer.text or "")  # 85 tiles, one drawn
    # The first tile is drawn at once (no tile to cover yet): a button per garden.
    assert "Mon contrat" in labels(board)
    assert [label for label in labels(board) if label.startswith("Jardin")] == [
        f"Jardin {g} · pas encore de propriétaire · 12 cases vides" for g in range(1, 5)]
    players = (soiree.zoe, soiree.yann, soiree.ines)
    for _turn in range(3):
        await play_a_turn(session, thread, players)
    board = board_of(thread)
    log = "\n".join(m.embeds[0].description or "" for m in thread.history()
                    if m.embeds and custom_ids(m, "contract"))
    assert " a pioché " in log and ("plante" in log or "envoie" in log)
    assert "dans le jardin" in log and ", case " in log
    assert not [word for word in ENGLISH_LOG_WORDS if word in log], log
    # The next turn's first choice, in French: draw or play the mole, or, when drawing was
    # the only thing to do (the deal is random), the gardens for the plant drawn at once.
    shown = labels(board)
    assert "Piocher une carte" in shown or "Jouer ma taupe" in shown or any(
        label.startswith("Jardin 1 · ") for label in shown), shown
    assert "pioche : " in (board.embeds[0].footer.text or "")


async def test_my_contract_answers_in_the_clicking_members_language(
    env, soiree, monkeypatch
) -> None:
    speaking(monkeypatch, "fr", soiree.zoe, soiree.ulf)
    thread, session = await start(env, soiree)
    board = board_of(thread)
    [contract] = custom_ids(board, "contract")
    french = await soiree.zoe.click(board, custom_id=contract)
    english = await soiree.yann.click(board, custom_id=contract)
    assert french.ephemeral and english.ephemeral
    seat = session.record.seat_of(soiree.zoe.id)
    number = session.state.view(seat)["your_contract"]["number"]
    assert f"📜 **Votre contrat secret : n° {number}**" in french.response.content
    assert "🎯 Légume principal :" in french.response.content
    assert "Jardin 4 : **" in french.response.content
    assert "Your secret contract" not in french.response.content
    assert "📜 **Your secret contract: No." in english.response.content
    assert "🎯 Main:" in english.response.content and "Garden 4: **" in english.response.content
    # A spectator with a French client is refused in French.
    spectator = await soiree.ulf.click(board, custom_id=contract)
    assert spectator.ephemeral
    assert "Vous ne jouez pas dans" in spectator.response.content
    assert "les contrats restent secrets" in spectator.response.content


async def test_an_illegal_move_is_refused_in_the_french_clients_language(
    env, soiree, monkeypatch
) -> None:
    thread, session = await start(env, soiree)
    mover = actor_for(session, soiree.zoe, soiree.yann, soiree.ines)
    speaking(monkeypatch, "fr", mover)
    with pytest.raises(IllegalMove) as raised:  # what the engine says, in English
        copy.deepcopy(session.state).apply("take 2")
    error = raised.value
    french = translate(Language.FR, error.template).format(**error.params)
    assert french != str(error)
    refused = await mover.slash(thread, "move", notation="take 2")
    assert refused.ephemeral and french in refused.response.content, refused.response.content


def test_the_rules_table_and_points_are_the_engines_in_both_languages() -> None:
    rules = KrautRubenUI.rules
    assert scoring_table() in rules
    assert f"the minus vegetable {MINUS_POINTS} each" in rules
    assert f"clover +{FIXED_POINTS[Tile.CLOVER]}, snail {FIXED_POINTS[Tile.SNAIL]}" in rules
    french = translate(Language.FR, rules)
    assert scoring_table(("principaux", "légume fort", "légume faible")) in french
    assert f"le légume négatif {MINUS_POINTS} par carte" in french
    assert f"le trèfle +{FIXED_POINTS[Tile.CLOVER]}, l’escargot {FIXED_POINTS[Tile.SNAIL]}" \
        in french
    for words in ("contrat", "jardin", "case", "taupe", "escargot", "légume principal",
                  "Le joueur avec le plus de points"):
        assert words in french
    assert len(french) <= 4096  # an embed's description
    assert translate(Language.FR, KrautRubenUI.pitch).startswith("Plantez des légumes")
