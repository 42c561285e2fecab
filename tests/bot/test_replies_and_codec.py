"""The one error vocabulary and the one custom_id codec, without Discord."""

from __future__ import annotations

import re

import discord
import pytest
from discord import app_commands

from bot.components import (
    MAX_ID,
    TEMPLATES,
    ChallengeAnswer,
    GameAction,
    LeaderboardPage,
    LobbyAction,
    Prefix,
)
from bot.errors import StaleBoard
from bot.replies import NOTHING_CHANGED, explain, stored_move, unexpected_text
from bot.router import plausible
from engines import IllegalMove
from storage import StorageBusy, StorageCorrupt, StorageFull, StorageReadOnly


@pytest.mark.parametrize(("error", "words"), [
    (StorageBusy(), "busy right now"),
    (StorageFull(), "disk is full"),
    (StorageReadOnly(), "read-only"),
    (StorageCorrupt(), "damaged"),
    (StaleBoard("This board is out of date."), "out of date"),
    (IllegalMove("b2 is empty"), "b2 is empty"),
    (app_commands.NoPrivateMessage(), "server channel"),
])
def test_expected_errors_have_their_own_private_words(error: Exception, words: str) -> None:
    text = explain(error)
    assert text is not None and words in text


def test_a_member_who_is_not_in_the_server_is_explained() -> None:
    class Member(app_commands.Transformer):
        @property
        def type(self) -> discord.AppCommandOptionType:
            return discord.AppCommandOptionType.user

        async def transform(self, interaction: object, value: object) -> object:
            return value

    text = explain(app_commands.TransformerError("123456", discord.AppCommandOptionType.user,
                                                 Member()))
    assert text is not None and "among this server's members" in text


def test_a_bug_is_not_explained_and_gets_the_honest_default() -> None:
    assert explain(KeyError("stack")) is None
    assert unexpected_text() == NOTHING_CHANGED


class Reply:
    """What discord.py reads of an HTTP response to build its exception."""

    def __init__(self, status: int) -> None:
        self.status, self.reason = status, "injected"


@pytest.mark.parametrize("error", [
    discord.DiscordServerError(Reply(503), "down"),  # type: ignore[arg-type]
    discord.Forbidden(Reply(403), "Missing Permissions"),  # type: ignore[arg-type]
    discord.NotFound(Reply(404), "Unknown interaction"),  # type: ignore[arg-type]
    discord.HTTPException(Reply(500), "webhook"),  # type: ignore[arg-type]
    discord.HTTPException(Reply(429), "rate limited"),  # type: ignore[arg-type]
])
def test_discord_failing_a_call_is_an_outage_named_as_such_not_a_bug(error: Exception) -> None:
    text = explain(error)
    assert text is not None and "Discord did not take my answer" in text
    assert f"error {error.status}" in text  # type: ignore[attr-defined]


def test_a_move_stored_before_discord_failed_is_said_to_stand() -> None:
    token = stored_move.set("a1:NES")
    try:
        text = explain(discord.DiscordServerError(Reply(500), "boom"))  # type: ignore[arg-type]
    finally:
        stored_move.reset(token)
    assert text is not None and "`a1:NES` was stored and stands" in text


def test_a_bad_request_is_the_bots_bug_not_an_outage() -> None:
    assert explain(discord.HTTPException(Reply(400), "Invalid Form Body")) is None  # type: ignore[arg-type]


@pytest.mark.parametrize("decoded", [
    (Prefix.GAME_BUTTON, GameAction(12, 5, "step", "b2:NN")),
    (Prefix.GAME_BUTTON, GameAction(12, None, "resign")),
    (Prefix.GAME_SELECT, GameAction(3, 0, "stack")),
])
def test_game_custom_ids_round_trip_through_their_template(
    decoded: tuple[Prefix, GameAction]
) -> None:
    prefix, action = decoded
    match = re.fullmatch(TEMPLATES[prefix], action.custom_id(prefix))
    assert match is not None
    back = GameAction.decode(match)
    assert back == action if prefix is Prefix.GAME_BUTTON else back.action == action.action


def test_every_other_custom_id_matches_its_template() -> None:
    for prefix, custom_id in [(Prefix.CHALLENGE, ChallengeAnswer(7, "accept").custom_id),
                              (Prefix.LOBBY, LobbyAction(7, "join").custom_id),
                              (Prefix.LEADERBOARD, LeaderboardPage("qawale", "server", 2,
                                                                   "n").custom_id)]:
        assert re.fullmatch(TEMPLATES[prefix], custom_id), custom_id


def test_a_custom_id_longer_than_discord_allows_is_refused_when_drawn() -> None:
    with pytest.raises(ValueError, match="too long"):
        GameAction(1, 1, "step", "x" * 100).custom_id(Prefix.GAME_BUTTON)


def test_ids_beyond_what_sqlite_stores_are_not_looked_up() -> None:
    assert plausible(1) and plausible(MAX_ID)
    assert not plausible(0) and not plausible(MAX_ID + 1)
