"""What services need of Discord to announce things, as a small protocol.

Services (sessions, challenges) never hold the client: they are given a `Publisher`. The bot
wires in `DiscordPublisher`; unit tests wire in a fake that records posts and can fail.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Protocol

import discord

log = logging.getLogger(__name__)


class PublishFailed(Exception):
    """Discord refused or could not take a post, an edit or a direct message."""


@dataclass
class Post:
    """One message to send or to put in place of another."""

    content: str | None = None
    embed: discord.Embed | None = None
    files: list[discord.File] = field(default_factory=list)
    view: discord.ui.View | None = None
    mentions: discord.AllowedMentions = field(default_factory=discord.AllowedMentions.none)


class Publisher(Protocol):
    """Discord side effects a service may cause; each raises PublishFailed on failure."""

    async def post(self, channel_id: int, post: Post) -> int:
        """Send `post` in a channel or thread; return the new message's id."""
        ...

    async def edit(self, channel_id: int, message_id: int, post: Post) -> None:
        """Replace a message's content, embed and components with `post`'s."""
        ...

    async def remove_components(self, channel_id: int, message_id: int) -> None:
        """Strip the buttons and menus from a message."""
        ...

    async def direct_message(self, user_id: int, text: str) -> None:
        """Send a direct message to a user."""
        ...


class DiscordPublisher:
    """The real publisher: a discord.py client's REST calls."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client

    async def _messageable(self, channel_id: int) -> discord.abc.Messageable:
        channel = self._client.get_channel(channel_id)
        if channel is None:
            channel = await self._client.fetch_channel(channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            raise PublishFailed(f"channel {channel_id} does not take messages")
        return channel

    async def _partial(self, channel_id: int, message_id: int) -> discord.PartialMessage:
        channel = await self._messageable(channel_id)
        if not isinstance(channel, discord.TextChannel | discord.Thread | discord.DMChannel
                          | discord.VoiceChannel | discord.StageChannel):
            raise PublishFailed(f"channel {channel_id} has no messages to edit")
        return channel.get_partial_message(message_id)

    async def post(self, channel_id: int, post: Post) -> int:
        """Send `post`; return the message id."""
        try:
            channel = await self._messageable(channel_id)
            message = await channel.send(
                content=post.content, files=post.files,
                embed=post.embed if post.embed is not None else discord.utils.MISSING,
                view=post.view or discord.utils.MISSING, allowed_mentions=post.mentions)
        except discord.HTTPException as error:
            raise PublishFailed(f"could not post in {channel_id}: {error}") from error
        return message.id

    async def edit(self, channel_id: int, message_id: int, post: Post) -> None:
        """Edit a message in place (its attachments are kept)."""
        try:
            message = await self._partial(channel_id, message_id)
            await message.edit(content=post.content, embed=post.embed, view=post.view)
        except discord.HTTPException as error:
            raise PublishFailed(f"could not edit {message_id}: {error}") from error

    async def remove_components(self, channel_id: int, message_id: int) -> None:
        """Edit a message to drop its view."""
        try:
            message = await self._partial(channel_id, message_id)
            await message.edit(view=None)
        except discord.HTTPException as error:
            raise PublishFailed(f"could not edit {message_id}: {error}") from error

    async def direct_message(self, user_id: int, text: str) -> None:
        """DM a user (fails when their DMs are closed)."""
        try:
            user = self._client.get_user(user_id) or await self._client.fetch_user(user_id)
            await user.send(text)
        except discord.HTTPException as error:
            raise PublishFailed(f"could not DM {user_id}: {error}") from error
