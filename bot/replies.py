"""Answering users: private replies, and the one place errors become messages.

Refusals and illegal moves are expected: they are answered privately with their own words.
So are Discord's own failures (down, a permission withdrawn, an interaction expired): they are
logged as warnings, and the user hears that Discord failed. Anything else is a bug: it is
logged with its traceback and the user gets an honest private message. Both say whether
their move was stored before things went wrong.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from typing import TypeGuard

import discord
from discord import app_commands

from bot.errors import Refusal
from bot.metrics import UNEXPECTED_ERRORS
from engines import IllegalMove
from i18n import N_, _, language_of, set_language
from storage import StorageBusy, StorageCorrupt, StorageError, StorageFull, StorageReadOnly

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]
"""The interactions Ludothèque handles (no handler needs more of the client than this)."""

MESSAGE_LIMIT = 2000
"""Discord's limit on a message's content."""

stored_move: ContextVar[str | None] = ContextVar("stored_move", default=None)
"""The move this interaction stored, if any: set by the session once the move is committed.

Each interaction is handled in its own asyncio task, so the value never leaks to another one.
"""

MEMBER_OPTIONS = (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable)
"""Slash-command option types that name a member."""

STORAGE_TEXTS: dict[type[StorageError], str] = {
    StorageBusy: N_("My records are busy right now (another program holds them), so nothing "
                    "was changed. Try again in a moment."),
    StorageFull: N_("My disk is full, so nothing was saved. Please tell the bot's owner."),
    StorageReadOnly: N_("I cannot write my records right now (they are read-only), so nothing "
                        "was saved. Please tell the bot's owner."),
    StorageCorrupt: N_("My records are damaged, so nothing was saved. Please tell the bot's "
                       "owner."),
    StorageError: N_("My records could not be written, so nothing was saved. Try again later."),
}
"""What a player hears when the database refuses a write (the operator reads the log)."""

DISCORD_FAILURE_STATUSES = frozenset({403, 404, 429})
"""Besides 5xx, Discord's answers to a sound request it would not serve (a permission
withdrawn, an interaction or message gone, a rate limit discord.py's retries did not outlast):
outages to report, not bugs (a 400 is a bug)."""


def discord_failed(error: BaseException) -> TypeGuard[discord.HTTPException]:
    """True when Discord failed a call the bot made soundly (see `DISCORD_FAILURE_STATUSES`).

    By status, not class: discord.py raises a plain HTTPException for some 5xx answers."""
    return isinstance(error, discord.HTTPException) and (
        error.status >= 500 or error.status in DISCORD_FAILURE_STATUSES)


NOTHING_CHANGED = N_("Something went wrong on my side; nothing was changed. Please try again.")


def speak_to(interaction: Interaction) -> None:
    """Answer this interaction in its member's language (their Discord client's): the rest of
    its task writes in it; public messages choose their server's language themselves."""
    set_language(language_of(str(interaction.locale)))


def explain(error: BaseException) -> str | None:
    """The private answer to an expected refusal, or None for an unexpected error."""
    if isinstance(error, Refusal):
        return str(error)
    if isinstance(error, IllegalMove):
        return illegal_move_text(error)
    if isinstance(error, StorageError):
        return _(STORAGE_TEXTS.get(type(error), STORAGE_TEXTS[StorageError]))
    if isinstance(error, app_commands.TransformerError):
        value = repr(str(error.value)[:100])
        if error.type in MEMBER_OPTIONS:
            return _("I cannot find {value} among this server's members: pick someone from "
                     "the list Discord suggests.").format(value=value)
        return _("I cannot read {value} here: pick a value from the list.").format(value=value)
    if discord_failed(error):
        return discord_failed_text(error)
    if isinstance(error, app_commands.NoPrivateMessage):
        return _("This command works in a server channel, not in direct messages.")
    if isinstance(error, app_commands.CheckFailure):
        return _("You cannot use this command here.")
    return None


def illegal_move_text(error: IllegalMove) -> str:
    """Why a move is illegal, in the current language (the engine's words, translated)."""
    if not error.template:
        return str(error) or _("That move is not allowed here.")
    return _(error.template).format(**error.params) if error.params else _(error.template)


def discord_failed_text(error: discord.HTTPException) -> str:
    """What to say when Discord failed a call: whether the user's move stands."""
    move = stored_move.get()
    if move is not None:
        return _("Your move `{move}` was stored and stands, but Discord did not take my answer "
                 "(error {status}). Use `/board` to see the current board.").format(
                     move=move, status=error.status)
    return _("Discord did not take my answer just now (error {status}). What you asked may "
             "have been done all the same: look before you try again.").format(
                 status=error.status)


def unexpected_text() -> str:
    """What to say after an unexpected error: whether the user's move stands."""
    move = stored_move.get()
    if move is not None:
        return _("Your move `{move}` was stored and stands, but something went wrong on my "
                 "side while showing it. Use `/board` to see the current board.").format(
                     move=move)
    return _(NOTHING_CHANGED)


async def tell(interaction: Interaction, text: str) -> None:
    """Answer privately, whether or not the interaction was answered already."""
    text = text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def answer_error(interaction: Interaction, error: BaseException, where: str) -> None:
    """Turn an error into a private message; log the unexpected ones with their traceback."""
    text = explain(error)
    if text is None:
        log.error("%s failed", where, exc_info=error)
        UNEXPECTED_ERRORS.inc()
        text = unexpected_text()
    elif isinstance(error, StorageError) or discord_failed(error):
        log.warning("%s: %s", where, error)
    try:
        await tell(interaction, text)
    except discord.HTTPException:  # the interaction expired: the log line is all we can do
        log.warning("%s: could not tell the user %r", where, text)


async def on_app_command_error(
    interaction: Interaction, error: app_commands.AppCommandError
) -> None:
    """The one handler of slash-command errors (`CommandTree.on_error`)."""
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    name = interaction.command.qualified_name if interaction.command else "?"
    await answer_error(interaction, original, f"/{name}")


async def on_component_error(interaction: Interaction, error: Exception, custom_id: str) -> None:
    """The one handler of button and menu errors (every DynamicItem's callback ends here)."""
    await answer_error(interaction, error, f"component {custom_id}")
