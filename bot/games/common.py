"""Component actions every game shares: resigning with a confirmation, private panels."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.ai_players import HINT_LEVEL, ai_display_name, is_ai
from bot.components import GameButton
from bot.errors import NotAPlayer, Refusal
from bot.games.base import Table, Turn, marked_title
from bot.replies import Interaction
from i18n import N_, _
from storage import GameRecord

HINT_FILENAME = "hint.png"

NUMBERED_THINGS = (N_("row"), N_("column"), N_("garden"), N_("pile"), N_("cell"), N_("stack"))
"""What `small_number` may be asked to read, in English (its `what`), marked for translation."""


def leaves_instead_of_resigning(record: GameRecord) -> bool:
    """True when resigning hands the seat to the AI: 3+ seats and another person still plays."""
    # The prompt, the button and `SessionBase.resign` all follow this one rule: alone with
    # AIs, stand-ins included, no one is left to play on, so nothing may promise that anyone will.
    people = [seat for seat in record.seats
              if seat.stand_in is None and not is_ai(seat.user_id)]
    return len(record.seats) >= 3 and len(people) >= 2


def resign_prompt(table: Table[Any]) -> tuple[str, discord.ui.View]:
    """The private 'are you sure?' with Resign (Leave, where the others play on) and Keep
    playing buttons."""
    leaving = leaves_instead_of_resigning(table.record)
    title = marked_title(table)
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(table.id, None, "resign_confirm",
                             label=_("Leave") if leaving else _("Resign"),
                             style=discord.ButtonStyle.danger, emoji="🏳️"))
    view.add_item(GameButton(table.id, None, "resign_cancel", label=_("Keep playing"),
                             style=discord.ButtonStyle.secondary))
    if leaving:
        return (_("Leave {title}? 🤖 The AI plays your seat until the end and you rank "
                  "last; the others play on.").format(title=title), view)
    if len(table.record.seats) >= 3:
        return _("Resign {title}? Your opponents win at once.").format(title=title), view
    return _("Resign {title}? Your opponent wins at once.").format(title=title), view


def small_number(text: str, what: str, highest: int) -> int:
    """`text` read as a number from 1 to `highest`; a Refusal for anything else.

    Component arguments and menu values come back from the client, which may be modified:
    they are checked like typed input.
    """
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= highest:
        raise Refusal(_("There is no {what} {value} here: use the board's controls.").format(
            what=_(what) if what else what, value=repr(text[:20])))
    return int(text)


def require_player(table: Table[Any], user_id: int) -> int:
    """The user's seat; a NotAPlayer refusal when they have none."""
    seat = table.record.seat_of(user_id)
    if seat is None:
        raise NotAPlayer(_("You are not playing in {title}.").format(
            title=marked_title(table)))
    return seat


async def play_now(
    interaction: Interaction, table: Table[Any], move: str, expected_ply: int | None
) -> None:
    """A board control's last choice: check, acknowledge, play (the new board says the rest)."""
    table.seat_to_act(interaction.user.id, expected_ply=expected_ply)  # refuse before deferring
    await interaction.response.defer()
    turn = await table.play(interaction.user.id, move, expected_ply=expected_ply,
                            interaction=interaction)
    if turn.note:
        await interaction.followup.send(turn.note, ephemeral=True)


async def play_from_panel(
    interaction: Interaction, table: Table[Any], move: str, expected_ply: int | None
) -> None:
    """A private panel's last choice: play `move`, then close the panel saying what was played."""
    table.seat_to_act(interaction.user.id, expected_ply=expected_ply)
    await interaction.response.defer()
    turn = await table.play(interaction.user.id, move, expected_ply=expected_ply,
                            interaction=interaction)
    await interaction.edit_original_response(
        content=played_text(turn), attachments=[], embed=None, view=None)


def played_text(turn: Turn) -> str:
    """`Played b2:NNE.`, and what the player should know if the board could not be shown."""
    text = _("Played `{move}`.").format(move=turn.moves[0].move)
    return f"{text}\n{turn.note}" if turn.note else text


async def close_panel(interaction: Interaction, text: str) -> None:
    """Close a private panel (Cancel), leaving `text` in its place."""
    await interaction.response.edit_message(content=text, attachments=[], embed=None, view=None)


async def hint_panel(
    table: Table[Any], move: str
) -> tuple[str, discord.ui.View, discord.File]:
    """The private answer to 💡 Hint: the AI's move, the board after it (the move marked),
    and **Play it**."""
    after = table.state.clone()
    after.apply(move)
    png = await table.draw(after.view(None), move)
    content = _("💡 {ai} would play `{move}`. The picture shows the board after it. **Play "
                "it**, or choose your own move under the board.").format(
        ai=ai_display_name(HINT_LEVEL), move=move)
    view = discord.ui.View(timeout=None)
    # The move is not in the custom_id (a long Granat capture would not fit): the click asks
    # the same hint again, which is kept, or thought again from the same seed.
    view.add_item(GameButton(table.id, table.ply, "hint_play", label=_("Play it"),
                             emoji="✅", style=discord.ButtonStyle.success))
    return content, view, discord.File(io.BytesIO(png), filename=HINT_FILENAME,
                                       description=_("The board after the move {move}.")
                                       .format(move=move))
