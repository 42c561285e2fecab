"""The operator's channel hears of the bot's errors through its webhook (`ERROR_WEBHOOK_URL`),
posted by the real bot through discord.py."""

from __future__ import annotations

import logging

import pytest

from bot.client import Ludotheque, create_bot
from bot.config import Settings
from bot.error_reports import REPORT_EVERY


@pytest.fixture
def operators(env):
    """The operator's server, its #bot-errors channel and that channel's webhook."""
    guild = env.create_guild(name="Bot operators")
    channel = guild.create_text_channel("bot-errors")
    return channel, guild.create_webhook(channel, name="Errors")


async def reporting_to(env, database_url: str, hook) -> Ludotheque:
    """The bot restarted with ERROR_WEBHOOK_URL set to the operators' webhook."""
    token = env.backend.webhooks[hook.id].token
    url = f"https://discord.com/api/webhooks/{hook.id}/{token}"
    old = env.bot
    bot = create_bot(Settings(database_url=database_url, error_webhook_url=url))
    await env.restart_bot(bot)
    await old.close()
    return bot


async def test_an_error_the_bot_logs_reaches_the_operators_channel(
        env, operators, database_url) -> None:
    channel, hook = operators
    await reporting_to(env, database_url, hook)
    try:
        raise ValueError("the painter's worker died")
    except ValueError:
        logging.getLogger("bot.sessions").exception("game 7: the board could not be drawn")
    logging.getLogger("bot.sessions").warning("a warning stays in the log")

    await env.advance_time(REPORT_EVERY + 1)

    [report] = channel.history()
    assert report.author.name == "Ludothèque errors"
    assert "ERROR bot.sessions: game 7: the board could not be drawn" in report.content
    assert "ValueError: the painter's worker died" in report.content
    assert "warning" not in report.content
