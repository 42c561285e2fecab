"""What a Discord failure means for the bot: retry, name a permission, end the game."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from bot.publisher import Problem, classify, permission_names


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
        "Send Messages In Threads, Attach Files")
