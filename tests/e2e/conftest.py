"""End-to-end fixtures: the real bot, driven through discord.py by simcord."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
import simcord
from discord.app_commands import CommandInvokeError

from bot.client import Ludotheque, create_bot
from bot.config import Settings
from bot.replies import explain
from tests.e2e.helpers import TINY_PNG


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """A fresh SQLite file per test."""
    return f"sqlite:///{tmp_path / 'ludotheque.db'}"


@pytest.fixture
def simcord_bot(database_url: str) -> Ludotheque:
    """The bot under test (simcord's pytest plugin runs it)."""
    return create_bot(Settings(database_url=database_url))


def unexpected_errors(
    errors: list[BaseException], allowed: list[type[BaseException]]
) -> list[BaseException]:
    """The captured errors that are neither refusals (answered privately by design) nor of a
    type the test provoked on purpose."""
    unexpected = []
    for error in errors:
        original = error.original if isinstance(error, CommandInvokeError) else error
        if explain(original) is None and not isinstance(original, tuple(allowed)):
            unexpected.append(error)
    return unexpected


@pytest.fixture
def allowed_errors() -> list[type[BaseException]]:
    """Error types a test provokes on purpose (append to it)."""
    return []


@pytest.fixture
async def env(
    simcord_env: simcord.Env, simcord_bot: Ludotheque, allowed_errors: list[type[BaseException]]
):
    """The running simulated Discord; the bot is closed after the test.

    Refusals (not your turn, illegal move...) are exceptions that reach the command tree's
    error handler, which simcord records; they are expected. Anything else fails the test.
    """
    yield simcord_env
    try:
        unexpected = unexpected_errors(simcord_env.errors, allowed_errors)
        if unexpected:
            raise BaseExceptionGroup("the bot raised unexpected errors", unexpected)
    finally:
        # Closed even when the test failed: a database left open keeps its worker threads
        # alive, and pytest would hang at exit instead of reporting the failure.
        await simcord_env.bot.close()
        if simcord_env.bot is not simcord_bot:
            await simcord_bot.close()


@dataclass
class World:
    """A server with a games channel, two players and a spectator."""

    guild: simcord.builders.GuildHandle
    channel: simcord.builders.ChannelHandle
    alice: simcord.actors.MemberActor
    bob: simcord.actors.MemberActor
    carol: simcord.actors.MemberActor


def new_world(env: simcord.Env, name: str, channel: str, **guild: str) -> World:
    """A server with one channel, where Alice, Bob and Carol are members."""
    server = env.create_guild(name=name, **guild)
    return World(
        server, server.create_text_channel(channel),
        server.add_member(env.create_user("alice", global_name="Alice")),
        server.add_member(env.create_user("bob", global_name="Bob")),
        server.add_member(env.create_user("carol", global_name="Carol")),
    )


@pytest.fixture
def world(env: simcord.Env) -> World:
    """Alice and Bob will play; Carol watches."""
    return new_world(env, "Board game night", "games")


@pytest.fixture
def soiree(env: simcord.Env) -> World:
    """A French server (its preferred locale): Alice and Bob play, Carol watches; their
    clients are English unless a test says otherwise."""
    return new_world(env, "Soirée jeux", "jeux", preferred_locale="fr")


@pytest.fixture
def quick_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tiny pictures: these tests are about who plays, not how boards look."""
    monkeypatch.setattr("bot.painter.render", lambda *args, **kwargs: TINY_PNG)
