"""Steps shared by the end-to-end tests: challenge, accept, find the board, play a move."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import discord
import simcord
from PIL import Image
from simcord.actors import MemberActor
from simcord.builders import UserHandle

from bot.client import Ludotheque
from bot.sessions import GameSession
from engines.qawale import parse_notation
from renderers.encoding import encode_png

TINY_PNG = encode_png(Image.new("RGB", (1, 1)))
"""A stand-in board picture, for tests about who plays rather than how boards look."""


def hold_boards(bot: Ludotheque) -> tuple[asyncio.Event, asyncio.Event]:
    """From now on, `bot` paints a board only once the second event is set; the first is set
    when a board is waiting. A move is then stored with its board not yet posted: where a
    stop hurts most."""
    painting, release = asyncio.Event(), asyncio.Event()
    paint = bot.sessions.painter.paint

    async def held_paint(*args: Any, **kwargs: Any) -> bytes:
        painting.set()
        await release.wait()
        return await paint(*args, **kwargs)
    bot.sessions.painter.paint = held_paint  # type: ignore[method-assign]
    return painting, release


def bot_of(env: simcord.Env) -> Ludotheque:
    """The bot currently attached (it changes after a restart)."""
    bot = env.bot
    assert isinstance(bot, Ludotheque)
    return bot


async def challenge_and_accept(
    env: simcord.Env, channel, challenger, opponent, game: str = "qawale", **options: Any
) -> tuple[simcord.builders.ChannelHandle, GameSession]:
    """Alice challenges Bob (with the challenge's other `options`, e.g. `rated="no"`), Bob
    accepts; returns the game's thread and session."""
    result = await challenger.slash(channel, "challenge", game=game, opponent=opponent,
                                    **options)
    assert not result.ephemeral, result.response.content
    accepted = await opponent.click(result.response.message, label="Accept")
    assert not accepted.ephemeral
    thread = channel.threads[-1]
    session = await bot_of(env).sessions.in_channel(thread.id)
    assert session is not None
    return thread, session


def latest_board(where) -> discord.Message:
    """The last board message posted in a thread or channel."""
    boards = [m for m in where.history()
              if m.embeds and (m.embeds[0].footer.text or "").startswith(("Game #", "Partie #"))]
    assert boards, "no board was posted"
    return boards[-1]


def actor_for(session: GameSession, *actors):
    """The actor whose turn it is."""
    user_id = session.record.user_at(session.state.current_player)
    return next(a for a in actors if a.id == user_id)


def composer_path(message: discord.Message) -> str:
    """The sowing a Qawale composer has built so far (its Confirm button carries it)."""
    confirm = next(c for row in message.components for c in row.children
                   if isinstance(c, discord.Button) and c.label == "Confirm")
    return (confirm.custom_id or "").split(":play:", 1)[1]


async def compose(actor, board: discord.Message, move: str) -> discord.Message:
    """Build a Qawale move in its private composer, up to (not including) Confirm, with the
    stack menu and the direction buttons only (the composer takes the steps that have a
    single legal direction by itself); the composer's message."""
    parsed = parse_notation(move)
    composer = await actor.select(board, [str(parsed.cell)])
    assert composer.ephemeral, composer.response.content
    message = composer.response.message
    while (built := composer_path(message)) != move:
        taken = len(built.split(":", 1)[1]) if ":" in built else 0
        step = await actor.click(message, label=parsed.path[taken].word.capitalize())
        message = step.response.message
    return message


async def play_with_components(actor, board: discord.Message, move: str) -> None:
    """Play a Qawale move with the controls only: compose it, then Confirm."""
    confirmed = await actor.click(await compose(actor, board, move), label="Confirm")
    assert "Played" in confirmed.response.content, confirmed.response.content


@contextmanager
def unsettled(env: simcord.Env) -> Iterator[None]:
    """Inside the block, simcord actions only emit their interactions: the bot is not waited
    for. (simcord runs one operation at a time and settles the bot after each; it has no
    public API for this, so the settle step is swapped for the duration.)"""
    settle = env._settle_internal

    async def emit_only(*args: Any, **kwargs: Any) -> None:
        return None

    env._settle_internal = emit_only
    try:
        yield
    finally:
        env._settle_internal = settle


async def simultaneously(env: simcord.Env, *actions: Callable[[], Awaitable[Any]]) -> list[Any]:
    """Send several interactions before the bot handles any of them, then let it work, as
    Discord delivers two quick clicks."""
    with unsettled(env):
        results = [await action() for action in actions]
    await env.settle()
    return results


def said(result) -> str:
    """Everything the interaction's author read: the response and its follow-ups."""
    parts = [result.response.content or ""] if result.response else []
    return "\n".join(parts + [m.content or "" for m in result.followups])


def control_labels(message: discord.Message) -> list[str]:
    """The labels of a message's buttons (a finished board offers only a Rematch)."""
    return [getattr(item, "label", None) or "" for row in message.components
            for item in getattr(row, "children", [])]


def the_bot(env: simcord.Env, world) -> MemberActor:
    """The bot as a member of the server, to name as an opponent."""
    return MemberActor(env, world.guild, UserHandle(env, env.backend.bot_user))


def speaking(monkeypatch, locale: str, *actors) -> None:
    """Give these members' Discord clients `locale` (simcord's interactions say en-US)."""
    import simcord.actors as actors_module

    ids = {actor.id for actor in actors}
    real = actors_module._interactions.base_payload

    def with_locale(*args: Any, **kwargs: Any) -> Any:
        record, payload = real(*args, **kwargs)
        if kwargs.get("user_id") in ids:
            payload["locale"] = locale
        return record, payload

    monkeypatch.setattr(actors_module._interactions, "base_payload", with_locale)
