"""What a Discord failure means for the bot: retry, name a permission, end the game."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from bot.publisher import InteractionPublisher, Post, Problem, classify, permission_names


def http_error(kind: type[discord.HTTPException], status: int, code: int) -> discord.HTTPException:
    """A Discord error as discord.py raises it."""
    response = SimpleNamespace(status=status, reason="test")
    return kind(response, {"code": code, "message": "test"})


@pytest.mark.parametrize(("error", "problem"), [
    (http_error(discord.DiscordServerError, 503, 0), Problem.TRANSIENT),
    (http_error(discord.HTTPException, 429, 0), Problem.TRANSIENT),
    (http_error(discord.NotFound, 404, 10003), Problem.CHANNEL_GONE),
    (http_error(discord.NotFound, 404, 10008), Problem.MESSAGE_GONE),
    (http_error(discord.Forbidden, 403, 50013), Problem.MISSING_PERMISSIONS),
    (http_error(discord.Forbidden, 403, 50001), Problem.MISSING_PERMISSIONS),
    (http_error(discord.Forbidden, 403, 50007), Problem.DM_CLOSED),
    (http_error(discord.HTTPException, 400, 50083), Problem.ARCHIVED),
    (http_error(discord.HTTPException, 400, 50035), Problem.OTHER),
])
def test_each_discord_failure_is_classified(error: discord.HTTPException,
                                            problem: Problem) -> None:
    assert classify(error) is problem


def test_permissions_are_named_as_discord_shows_them() -> None:
    assert permission_names(("send_messages_in_threads", "attach_files")) == (
        "Send Messages in Threads, Attach Files")


class FakeInteraction:
    """Just what InteractionPublisher reads of a click on board message 7 in channel 5."""

    def __init__(self, *, fails: bool = False, expired: bool = False) -> None:
        self.channel_id = 5
        self.message = SimpleNamespace(id=7)
        self.response = SimpleNamespace(is_done=lambda: True)
        self.expired = expired
        self.calls: list[str] = []
        self.fails = fails

        async def send(**kwargs: object) -> SimpleNamespace:
            self._call("followup")
            return SimpleNamespace(id=99)

        self.followup = SimpleNamespace(send=send)

    def _call(self, what: str) -> None:
        self.calls.append(what)
        if self.fails:
            raise http_error(discord.HTTPException, 400, 10015)  # unknown webhook

    def is_expired(self) -> bool:
        return self.expired

    async def edit_original_response(self, **kwargs: object) -> None:
        self._call("edit original")


class RecordingPublisher:
    """The bot-token publisher: records what falls back to it."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    async def post(self, channel_id: int, post: object) -> int:
        self.calls.append(("post", channel_id))
        return 1

    async def edit(self, channel_id: int, message_id: int, post: object) -> None:
        self.calls.append(("edit", message_id))

    async def remove_components(self, channel_id: int, message_id: int) -> None:
        self.calls.append(("remove", message_id))


async def test_a_move_s_boards_go_through_its_interaction() -> None:
    click, token = FakeInteraction(), RecordingPublisher()
    via = InteractionPublisher(click, token)
    assert await via.post(5, Post("board")) == 99
    await via.edit(5, 7, Post("board"))
    await via.remove_components(5, 7)
    assert click.calls == ["followup", "edit original", "edit original"]
    assert token.calls == []


async def test_another_channel_or_message_or_an_expired_click_uses_the_bot_token() -> None:
    click, token = FakeInteraction(), RecordingPublisher()
    via = InteractionPublisher(click, token)
    await via.post(6, Post("elsewhere"))
    await via.remove_components(5, 8)  # not the clicked message
    expired = InteractionPublisher(FakeInteraction(expired=True), token)
    await expired.post(5, Post("late"))
    assert click.calls == [] and token.calls == [("post", 6), ("remove", 8), ("post", 5)]


async def test_a_failed_webhook_call_falls_back_to_the_bot_token() -> None:
    click, token = FakeInteraction(fails=True), RecordingPublisher()
    via = InteractionPublisher(click, token)
    assert await via.post(5, Post("board")) == 1
    await via.edit(5, 7, Post("board"))
    await via.remove_components(5, 7)
    assert token.calls == [("post", 5), ("edit", 7), ("remove", 7)]
