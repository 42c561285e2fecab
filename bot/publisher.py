"""What services need of Discord to announce things, as a small protocol.

Services (sessions, challenges) never hold the client: they are given a `Publisher`. The bot
wires in `DiscordPublisher`; unit tests wire in a fake that records posts and can fail.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, Protocol

import discord

from bot.metrics import DISCORD_REFUSALS
from i18n import N_, _

log = logging.getLogger(__name__)


class Problem(StrEnum):
    """Why Discord did not take a post: what the bot should do about it depends on it."""

    TRANSIENT = "transient"
    """Discord is slow, down or rate-limiting: try again later."""
    MISSING_PERMISSIONS = "missing_permissions"
    """The bot lacks a permission there: it works again once a moderator grants it."""
    CHANNEL_GONE = "channel_gone"
    """The channel or thread was deleted."""
    MESSAGE_GONE = "message_gone"
    """The message to edit was deleted."""
    ARCHIVED = "archived"
    """The thread is archived or locked."""
    DM_CLOSED = "dm_closed"
    """The member does not take direct messages from the bot."""
    OTHER = "other"
    """Anything else Discord refused."""


MISSING_ACCESS_CODES = {50001, 50013}
"""Discord's error codes for Missing Access and Missing Permissions."""
ARCHIVED_CODES = {50083, 160005}
"""Discord's error codes for an archived or a locked thread."""
CHANNEL_GONE_CODES = {10003}
MESSAGE_GONE_CODES = {10008}
DM_CLOSED_CODES = {50007}

POST_PERMISSIONS_IN_THREADS = ("view_channel", "send_messages_in_threads", "embed_links",
                               "attach_files")
POST_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "attach_files")
THREAD_PERMISSIONS = ("view_channel", "create_public_threads", "send_messages_in_threads",
                      "embed_links", "attach_files")

THREAD_ARCHIVE_MINUTES: Final = 1440
"""A game thread with no message for a day is archived by Discord (a move revives it)."""


class PublishFailed(Exception):
    """Discord refused or could not take a post, an edit or a direct message."""

    def __init__(self, message: str, problem: Problem = Problem.OTHER,
                 missing: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.problem = problem
        DISCORD_REFUSALS.labels(problem.value).inc()  # here: every refusal, however raised
        self.missing = missing
        """The permissions the bot lacks there (for MISSING_PERMISSIONS, when known)."""


PERMISSION_NAMES: dict[str, str] = {
    "add_reactions": N_("Add Reactions"),
    "attach_files": N_("Attach Files"),
    "create_public_threads": N_("Create Public Threads"),
    "embed_links": N_("Embed Links"),
    "manage_threads": N_("Manage Threads"),
    "read_message_history": N_("Read Message History"),
    "send_messages": N_("Send Messages"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "use_external_emojis": N_("Use External Emojis"),
    "view_channel": N_("View Channel"),
}
"""How Discord's settings name the permissions the bot may lack (in English: translate)."""


def permission_name(name: str) -> str:
    """`Attach Files` for `attach_files`, in the current language (Discord's own words)."""
    known = PERMISSION_NAMES.get(name)
    return _(known) if known is not None else name.replace("_", " ").title()


def missing_permissions(perms: discord.Permissions, needed: tuple[str, ...]) -> tuple[str, ...]:
    """The permissions of `needed` that `perms` lacks. Without View Channel every other one
    reads as off (discord.py's `permissions_for`, as Discord does): that one alone is named,
    the one a moderator must grant."""
    if not perms.view_channel:
        return ("view_channel",)
    return tuple(name for name in needed if not getattr(perms, name))


def permission_names(names: tuple[str, ...]) -> str:
    """`Send Messages in Threads, Attach Files`, in the current language."""
    return ", ".join(permission_name(name) for name in names)


def classify(error: discord.HTTPException) -> Problem:
    """What kind of failure a Discord error is."""
    if isinstance(error, discord.DiscordServerError) or error.status in (429, 502, 503, 504):
        return Problem.TRANSIENT
    if error.code in CHANNEL_GONE_CODES:
        return Problem.CHANNEL_GONE
    if error.code in MESSAGE_GONE_CODES:
        return Problem.MESSAGE_GONE
    if error.code in ARCHIVED_CODES:
        return Problem.ARCHIVED
    if error.code in DM_CLOSED_CODES:
        return Problem.DM_CLOSED
    if error.code in MISSING_ACCESS_CODES or isinstance(error, discord.Forbidden):
        return Problem.MISSING_PERMISSIONS
    return Problem.OTHER


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

    async def typing(self, channel_id: int) -> None:
        """Show that the bot is typing in a channel (for a few seconds, or until it posts)."""
        ...

    async def close_thread(self, channel_id: int) -> None:
        """Archive and lock a thread: its messages stay readable, nobody posts there."""
        ...

    async def open_thread(self, channel_id: int, name: str) -> int:
        """Open a public thread named `name` in a text channel; return the thread's id."""
        ...


class DiscordPublisher:
    """The real publisher: a discord.py client's REST calls."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client

    async def _messageable(self, channel_id: int) -> discord.abc.Messageable:
        channel = self._client.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self._client.fetch_channel(channel_id)
            except discord.HTTPException as error:
                raise self._failed(f"could not find channel {channel_id}", error) from error
        if not isinstance(channel, discord.abc.Messageable):
            raise PublishFailed(f"channel {channel_id} does not take messages")
        return channel

    def _missing(self, channel: discord.abc.Messageable) -> tuple[str, ...]:
        """The posting permissions the bot lacks in `channel` (empty when unknown)."""
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            return ()
        perms = channel.permissions_for(channel.guild.me)
        needed = (POST_PERMISSIONS_IN_THREADS if isinstance(channel, discord.Thread)
                  else POST_PERMISSIONS)
        return missing_permissions(perms, needed)

    @staticmethod
    def _failed(what: str, error: discord.HTTPException,
                missing: tuple[str, ...] = ()) -> PublishFailed:
        return PublishFailed(f"{what}: {error}", classify(error), missing)

    async def _partial(self, channel_id: int, message_id: int) -> discord.PartialMessage:
        channel = await self._messageable(channel_id)
        if not isinstance(channel, discord.TextChannel | discord.Thread | discord.DMChannel
                          | discord.VoiceChannel | discord.StageChannel):
            raise PublishFailed(f"channel {channel_id} has no messages to edit")
        return channel.get_partial_message(message_id)

    async def post(self, channel_id: int, post: Post) -> int:
        """Send `post`; return the message id."""
        channel = await self._messageable(channel_id)
        try:
            message = await channel.send(
                content=post.content, files=post.files,
                embed=post.embed if post.embed is not None else discord.utils.MISSING,
                view=post.view or discord.utils.MISSING, allowed_mentions=post.mentions)
        except discord.HTTPException as error:
            raise self._failed(f"could not post in {channel_id}", error,
                               self._missing(channel)) from error
        except (TimeoutError, OSError) as error:  # no answer from Discord at all
            raise PublishFailed(f"could not post in {channel_id}: {error!r}",
                                Problem.TRANSIENT) from error
        return message.id

    async def edit(self, channel_id: int, message_id: int, post: Post) -> None:
        """Edit a message in place; its attachments are replaced by `post`'s files, if any."""
        try:
            message = await self._partial(channel_id, message_id)
            await message.edit(content=post.content, embed=post.embed, view=post.view,
                               attachments=post.files or discord.utils.MISSING,
                               allowed_mentions=post.mentions)
        except discord.HTTPException as error:
            raise self._failed(f"could not edit {message_id}", error) from error

    async def remove_components(self, channel_id: int, message_id: int) -> None:
        """Edit a message to drop its view."""
        try:
            message = await self._partial(channel_id, message_id)
            await message.edit(view=None)
        except discord.HTTPException as error:
            raise self._failed(f"could not edit {message_id}", error) from error

    async def typing(self, channel_id: int) -> None:
        """Trigger the typing indicator once."""
        channel = await self._messageable(channel_id)
        try:
            await channel.typing()
        except discord.HTTPException as error:
            raise self._failed(f"could not type in {channel_id}", error) from error

    async def close_thread(self, channel_id: int) -> None:
        """Archive and lock a thread (nothing to do for a channel that is not one)."""
        channel = await self._messageable(channel_id)
        if not isinstance(channel, discord.Thread):
            return
        try:
            await channel.edit(archived=True, locked=True)
        except discord.HTTPException as error:
            raise self._failed(f"could not archive {channel_id}", error) from error

    async def open_thread(self, channel_id: int, name: str) -> int:
        """Create a public thread (archived by Discord after a day without a message)."""
        channel = await self._messageable(channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise PublishFailed(f"channel {channel_id} cannot hold threads")
        try:
            thread = await channel.create_thread(
                name=name, type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except discord.HTTPException as error:
            perms = channel.permissions_for(channel.guild.me)
            raise self._failed(f"could not open a thread in {channel_id}", error,
                               missing_permissions(perms, THREAD_PERMISSIONS)) from error
        except (TimeoutError, OSError) as error:  # no answer from Discord at all
            raise PublishFailed(f"could not open a thread in {channel_id}: {error!r}",
                                Problem.TRANSIENT) from error
        return thread.id

    async def direct_message(self, user_id: int, text: str) -> None:
        """DM a user (fails when their DMs are closed)."""
        try:
            user = self._client.get_user(user_id) or await self._client.fetch_user(user_id)
            await user.send(text)
        except discord.HTTPException as error:
            raise self._failed(f"could not DM {user_id}", error) from error


class InteractionPublisher:
    """Boards through the interaction that caused them: the new board as a followup and the
    clicked board edited as the interaction's message. Discord does not count an interaction's
    webhook calls against the bot's global rate limit (50 requests/s), so a move costs it no
    bot-token call; anything else, or a webhook call that fails, goes to `fallback`."""

    def __init__(self, interaction: discord.Interaction[Any], fallback: Publisher) -> None:
        self._interaction = interaction
        self._fallback = fallback

    def _own(self, channel_id: int, message_id: int | None = None) -> bool:
        """True when the call is about the interaction's channel (and message)."""
        interaction = self._interaction
        if interaction.channel_id != channel_id or interaction.is_expired():
            return False
        if message_id is None:
            return True
        return interaction.message is not None and interaction.message.id == message_id \
            and interaction.response.is_done()

    async def post(self, channel_id: int, post: Post) -> int:
        """Send `post` as a followup of the interaction."""
        if self._own(channel_id) and self._interaction.response.is_done():
            try:
                message = await self._interaction.followup.send(
                    content=post.content or discord.utils.MISSING, files=post.files,
                    embed=post.embed if post.embed is not None else discord.utils.MISSING,
                    view=post.view or discord.utils.MISSING, allowed_mentions=post.mentions,
                    wait=True)
                return message.id
            except discord.HTTPException:
                log.info("followup failed in %s; posting with the bot token", channel_id,
                         exc_info=True)
                for file in post.files:
                    file.reset()
        return await self._fallback.post(channel_id, post)

    async def edit(self, channel_id: int, message_id: int, post: Post) -> None:
        """Edit the clicked message through the interaction."""
        if self._own(channel_id, message_id):
            try:
                await self._interaction.edit_original_response(
                    content=post.content, embed=post.embed, view=post.view,
                    attachments=post.files or discord.utils.MISSING,
                    allowed_mentions=post.mentions)
                return
            except discord.HTTPException:
                log.info("editing %s through the interaction failed; using the bot token",
                         message_id, exc_info=True)
                for file in post.files:
                    file.reset()
        await self._fallback.edit(channel_id, message_id, post)

    async def remove_components(self, channel_id: int, message_id: int) -> None:
        """Drop the clicked message's view through the interaction."""
        if self._own(channel_id, message_id):
            try:
                await self._interaction.edit_original_response(view=None)
                return
            except discord.HTTPException:
                log.info("retiring %s through the interaction failed; using the bot token",
                         message_id, exc_info=True)
        await self._fallback.remove_components(channel_id, message_id)

    async def typing(self, channel_id: int) -> None:
        """Through the bot token."""
        await self._fallback.typing(channel_id)

    async def close_thread(self, channel_id: int) -> None:
        """Through the bot token."""
        await self._fallback.close_thread(channel_id)

    async def open_thread(self, channel_id: int, name: str) -> int:
        """Through the bot token."""
        return await self._fallback.open_thread(channel_id, name)

    async def direct_message(self, user_id: int, text: str) -> None:
        """Through the bot token."""
        await self._fallback.direct_message(user_id, text)
